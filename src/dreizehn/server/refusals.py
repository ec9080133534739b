"""The server's own refusals (not rules of a game): a bad token, not a seat, too fast, …"""

from __future__ import annotations

from typing import Any

from dreizehn.core.errors import DreizehnError


class ServerError(DreizehnError):
    """A message or request the server refuses; ``status`` is the HTTP status it answers with over the API (422 by
    default; the websocket ignores it)."""

    def __init__(self, code: str, /, *, status: int = 422, rule: str | None = None,
                 headers: tuple[tuple[str, str], ...] = (), **params: Any) -> None:
        super().__init__(code, rule=rule, **params)
        self.status = status
        self.headers = headers
        """HTTP headers of the answer (a header may come more than once: ``WWW-Authenticate``)."""


def http_status(err: DreizehnError) -> int:
    """The HTTP status of a refusal: the one a :class:`ServerError` names, else 422 (bad input)."""
    return getattr(err, "status", 422)


REFUSALS: dict[str, tuple[str, str, str]] = {
    "server.bad_json": ("S3", "websocket", "a message that is not JSON text (a binary frame; NaN or Infinity; a whole "
                                           "number of more than 4,300 digits; nested too deep)"),
    "server.bad_message": ("S3", "websocket", "a message of a known type whose fields are not the type's: one "
                                              "missing, one unknown, or a value not of its type or out of bounds "
                                              "(``field`` names it)"),
    "server.unknown_type": ("S3", "websocket", "a message that is no JSON object with a known ``type``"),
    "server.too_large": ("S3", "websocket", "a message above DREIZEHN_MAX_MESSAGE_BYTES (a frame above "
                                            "DREIZEHN_MAX_FRAME_BYTES closes the connection with 1009 instead)"),
    "server.too_fast": ("S3", "websocket", "more messages than DREIZEHN_RATE_PER_SECOND a second "
                                           "(DREIZEHN_RATE_BURST at once)"),
    "server.hello_first": ("S4", "websocket", "a message before the hello"),
    "server.hello_twice": ("S4", "websocket", "a second hello on one connection"),
    "server.hello_needs_token": ("S4", "websocket", "a hello with neither a token nor a table and its spectators' "
                                                    "token"),
    "server.protocol": ("S4", "websocket", "a hello of another protocol version"),
    "server.bad_token": ("S1", "websocket (hello); 404 (POST /api/seats/join); 403 (POST .../rematch)",
                         "a token that opens no seat nor table (or a seat of another table)"),
    "server.spectator_acts": ("S1", "websocket", "an action from a spectator"),
    "server.chat_empty": ("S3", "websocket (say)",
                          "a line of chat with neither text nor phrase, with both, or of blanks alone"),
    "server.chat_too_fast": ("S3", "websocket (say)", "more than one line of chat a second (three at once)"),
    "server.seat_open": ("S1", "websocket (hello with ``takeover: \"ask\"``)", "a seat open in another window: "
                                                                           "ask the person, then say hello again "
                                                                           "with ``takeover: \"yes\"``"),
    "server.hint_not_your_turn": ("S5", "websocket", "a hint asked by a spectator or a seat not to move"),
    "server.hint_failed": ("S5", "websocket", "the hint search failed; asking again may work"),
    "server.bad_request": ("S6", "422 (any route)", "a body, path or query parameter not of its type, bounds or "
                                                    "fields (``field`` names it, as ``body.clock`` or "
                                                    "``query.status``; ``problem`` is pydantic's error type); a "
                                                    "body that cannot be read at all (no JSON, no UTF-8, nested "
                                                    "too deep: ``field`` ``body``, ``problem`` ``json_invalid``)"),
    "server.ops_token": ("S10", "401 (/metrics, /docs, /redoc, /openapi.json)", "an operators' page asked without "
                                                                            "DREIZEHN_OPS_TOKEN (as a bearer token "
                                                                            "or the password of HTTP Basic), or "
                                                                            "with another (unset: 404 "
                                                                            "``server.not_found`` instead)"),
    "server.not_found": ("S6", "404 (any address)", "an address no route serves, or no file of the app's static "
                                                    "folder (a browser asking for a page gets the app's page, with "
                                                    "404, instead)"),
    "server.bad_method": ("S6", "405 (any route)", "a method the address does not take (the ``Allow`` header says "
                                                   "which it takes)"),
    "server.body_too_large": ("S6", "413 (any route)", "a request body above DREIZEHN_MAX_BODY_BYTES (64 KiB), "
                                                       "by its Content-Length or as it arrives in chunks; refused "
                                                       "before it is read whole"),
    "server.empty_name": ("S2", "422 (POST /api/seats/join)", "a name of blanks alone"),
    "server.seat_taken": ("S2", "409 (POST /api/seats/join)", "a seat taken already (joined, or named at creation)"),
    "server.seat_not_free": ("S2", "409 (POST /api/tables/{id}/seats/{seat})", "a seat that cannot be taken from "
                                                                            "the list of tables: a bot's, taken "
                                                                            "already, or none, or the game is over"),
    "server.person_with_bot": ("S2", "422 (POST /api/tables)", "a person's seat that names a bot"),
    "server.bot_too_costly": ("S2", "422 (POST /api/tables)", "a bot specification (not a level) that asks for more "
                                                              "``time`` than half of DREIZEHN_BOT_TIMEOUT or more "
                                                              "``iterations`` than DREIZEHN_BOT_MAX_ITERATIONS"),
    "server.control_character": ("S9", "422 (a name: POST /api/tables, /api/seats/join, /api/tables/{id}/seats/"
                                       "{seat}, /api/learn/{game}); websocket (say)",
                                 "a name or line of chat holding a control character, an invisible formatting "
                                 "character or one that shows as nothing (``field`` names which, ``char`` the "
                                 "character by its code point, as U+202E)"),
    "server.no_table": ("S1", "404 (GET and POST /api/tables/{id}...); websocket (hello with ``watch``)",
                        "a table that does not exist"),
    "server.not_finished": ("S5", "409 (record, replay)", "a game not over yet"),
    "server.bad_version": ("S5", "422 (GET .../replay/{version})", "a version the game does not have"),
    "server.rematch_issued": ("S1", "409 (POST .../rematch)", "a seat whose invitation to the rematch was given "
                                                              "already (in an answer or over its websocket)"),
    "server.rematch_bots": ("S1", "422 (POST .../rematch)", "a seat in ``bots`` that is the asker's own, a bot's "
                                                            "already, or none of the table's"),
    "server.not_stored": ("S7", "websocket (action; the answer holds the view before it)", "an action the database "
                                                                                     "could not store (down, "
                                                                                     "read-only, its disk full)"),
    "server.undo_people": ("S8", "websocket (undo)", "a take-back at a table of more than one person (or from a bot's "
                                                     "seat)"),
    "server.undo_wait": ("S8", "websocket (undo)", "a take-back while the bots are to move (it is asked on the "
                                                   "person's turn, the bots' moves after theirs made)"),
    "server.undo_nothing": ("S8", "websocket (undo)", "a take-back by a seat with no action in the game"),
    "server.undo_dealt": ("S8", "websocket (undo)", "a take-back of a move after which a stage was scored or cards "
                                                    "dealt (the next deal would be known)"),
    "server.undo_drawn": ("S8", "websocket (undo)", "a take-back of a move after which a card hidden from the person "
                                                    "was shown to them (a card drawn from the stock)"),
    "server.no_arrangement": ("A7", "404 (POST /api/web/arrange)", "a game that lays no hand out in a best "
                                                                   "arrangement (``Game.arranges`` false)"),
    "server.no_tutorial": ("A1", "404 (/api/learn/{game})", "a game that has no tutorial (no ``tutorial.json`` in "
                                                            "its folder)"),
    "server.analysis_not_finished": ("S5", "409 (analysis)", "an analysis of a game not over yet"),
    "server.no_analysis": ("S5", "404 (GET .../analysis/{seat})", "an analysis nobody asked for"),
    "account.name_length": ("U1", "422 (POST /api/accounts)", "a user name of fewer than 3 or more than 20 characters "
                                                              "after NFKC"),
    "account.name_characters": ("U1", "422 (POST /api/accounts)", "a user name holding a character other than a "
                                                                  "letter, a digit, ``_`` or ``-`` (a blank, markup, "
                                                                  "a control character)"),
    "account.name_scripts": ("U1", "422 (POST /api/accounts)", "a user name whose letters are of more than one "
                                                               "script (a look-alike: a Cyrillic ``а`` among Latin "
                                                               "letters)"),
    "account.name_taken": ("U1", "409 (POST /api/accounts)", "a user name someone has, in any case or with "
                                                             "look-alike letters"),
    "account.password_length": ("U2", "422 (POST /api/accounts, PUT /api/account/password)",
                                "a password of fewer than 8 or more than 200 characters (refused before hashing)"),
    "account.password_common": ("U2", "422 (POST /api/accounts, PUT /api/account/password)",
                                "a new password that is one of the 11,611 most common ones of 8 characters or more "
                                "(zxcvbn's list), whatever its case"),
    "account.email": ("U1", "422 (POST /api/accounts)", "an e-mail address that is none"),
    "account.bad_signin": ("U3", "401 (POST /api/session)", "a user name nobody has, or a wrong password (one "
                                                            "answer for both)"),
    "account.disabled": ("U3", "403 (POST /api/session)", "the right password of an account an operator disabled"),
    "account.wrong_password": ("U3", "403 (PUT /api/account/password, DELETE /api/account)",
                               "a password that is not the account's, where a change asks for it"),
    "account.signed_out": ("U3", "401 (any route of a signed-in person); websocket (hello with ``table`` and "
                                 "``seat``; any message of an account's seat once its session ended: then closed)",
                           "no session cookie, or one of a session that ended (signed out, too old, a deleted or "
                           "disabled account)"),
    "account.csrf": ("U4", "403 (any changing request with the session cookie; sign-up and sign-in)",
                     "a POST, PUT, PATCH or DELETE with the session cookie but without its ``X-CSRF-Token`` "
                     "header (or with another), or with an ``Origin`` of another site"),
    "account.no_player": ("U1", "404 (GET /api/ratings/{name}, /api/players/{name}, /api/me/friends, "
                                "/api/me/blocks); 422 (POST /api/tables: a seat's ``user``)",
                          "a user name nobody has"),
    "account.too_many": ("U5", "429 (POST /api/session, /api/accounts, /api/account/reset, /api/account/email)",
                         "more sign-ins from one address or failed ones of one account, more sign-ups from one "
                         "address, or more password resets or new e-mail addresses, than the limits allow "
                         "(``Retry-After`` says how long to wait)"),
    # -- mail links (issue 45 item 5) --
    "account.link_unknown": ("U6", "404 (POST /api/account/verify, /api/account/reset/confirm)",
                             "a link's token the server never sent, or a verify link of an address the account no "
                             "longer has"),
    "account.link_used": ("U6", "410 (POST /api/account/verify, /api/account/reset/confirm)",
                          "a link opened before (each works once; a new password ends every reset link of the "
                          "account)"),
    "account.link_expired": ("U6", "410 (POST /api/account/verify, /api/account/reset/confirm)",
                             "a link past its time (a reset link lasts one hour, a verify link 24 hours)"),
    # -- the daily deal (issue 47 item 4) --
    "daily.no_deal": ("D1", "404 (/api/daily/...)", "a game or player count the day's deals do not have"),
    "daily.played": ("D2", "409 (POST /api/daily/{game}/{players})", "an account's second play of a deal "
                                                                       "(``table`` names its first)"),
    "daily.not_finished": ("D3", "403 (GET /api/daily/.../results; a daily table's record, replay, analysis)",
                           "a deal's results or another's play of it, asked by one who has not finished their own "
                           "play of that deal"),
    # [social] friends, blocks, personal API tokens (issue 45 items 4, 6, 7)
    "account.yourself": ("U8", "422 (/api/me/friends, /api/me/blocks)", "one's own user name, where another "
                                                                          "person's is asked for"),
    "account.blocking": ("U8", "409 (POST /api/me/friends)", "asking someone to be friends whom one blocks "
                                                             "(unblock first)"),
    "account.no_friend": ("U8", "404 (DELETE /api/me/friends/{name})", "no friendship and no ask between the two "
                                                                        "to end"),
    "account.not_blocked": ("U8", "404 (DELETE /api/me/blocks/{name})", "a person one does not block"),
    "account.bad_token": ("U9", "401 (any route, with Authorization: Bearer dzt_…)", "a personal API token that "
                                                                                     "is no account's: unknown, "
                                                                                     "revoked, or of a disabled "
                                                                                     "account"),
    "account.token_label": ("U9", "422 (POST /api/me/tokens)", "a token's label of no or more than 64 characters, "
                                                               "or holding markup (``<``, ``>``) or a control "
                                                               "character"),
    "account.too_many_tokens": ("U9", "409 (POST /api/me/tokens)", "a 21st personal API token of one account"),
    "account.session_needed": ("U9", "403 (POST /api/me/tokens)", "making a personal API token with a token "
                                                                   "rather than a signed-in browser's session"),
    "account.no_token": ("U9", "404 (DELETE /api/me/tokens/{id})", "an id that is none of the account's tokens "
                                                                   "(another account's included)"),
    # -- seats bound to accounts, a player's home (issue 45: [seats]) --
    "account.seat_bound": ("U7", "websocket (hello); 403 (POST /api/seats/join, .../rematch)",
                           "a seat bound to an account (rule U7) opened by anyone else, a guest or another account, "
                           "by its invitation or by ``table`` and ``seat``; ``name`` is its player's, ``watch`` the "
                           "page to watch the table"),
    "account.not_your_seat": ("U7", "websocket (hello with ``table`` and ``seat``)",
                              "a seat bound to no account opened by session: its invitation opens it"),
    "account.invite_blocked": ("U8", "403 (POST /api/tables: ``user``)",
                               "a seat invites by user name a person who blocked the creator"),
    "account.bot_invited": ("U7", "422 (POST /api/tables)", "a bot's seat with a ``user``"),
    # -- turn-based tables (issue 46) --
    "turns.sign_in": ("P2", "401 (POST /api/tables, /api/seats/join, /api/tables/{id}/seats/{seat})",
                      "a guest makes a turn-based table or takes a person's seat of one"),
    "turns.too_many": ("P2", "409 (POST /api/tables, /api/seats/join, /api/tables/{id}/seats/{seat})",
                       "a person (``name``) holds DREIZEHN_TURN_BASED_LIMIT (``limit``) turn-based games being played "
                       "already"),
    "turns.move_time": ("P1", "422 (POST /api/tables)", "a turn-based table's ``move_time`` below "
                                                        "DREIZEHN_MOVE_TIME_MIN (``least``)"),
    # -- the lobby (issue 46 item 3, docs/lobby.md) --
    "lobby.busy": ("L1", "409 (POST /api/lobby/queue)", "queueing while one's group is in its ready check or its "
                                                         "table is being made (confirm or leave first)"),
    "lobby.not_queued": ("L2", "404 (GET /api/lobby/queue)", "a person not in the lobby (never queued, left, or "
                                                             "dropped after their page went silent)"),
    "lobby.bot_level": ("L3", "422 (POST /api/lobby/queue)", "a bots' level that is no level's name"),
    "lobby.move_time": ("L3", "422 (POST /api/lobby/queue)", "a turn-based table asked for without a time to move"),
    "lobby.no_ready_check": ("L4", "409 (POST /api/lobby/ready)", "confirming \"ready\" with no ready check running "
                                                                  "for the person (it ended, or none began)"),
    # -- notices (issue 46 item 2, docs/notices.md) --
    "notices.push_endpoint": ("N4", "422 (POST /api/me/push)",
                              "a push endpoint that is no https address (``field`` endpoint), or keys that are no "
                              "P-256 public key and 16-byte secret (``field`` keys)"),
    "notices.no_subscription": ("N4", "404 (DELETE /api/me/push)", "the asker has no subscription with this endpoint"),
    "notices.no_address": ("N5", "409 (PUT /api/me/notices)", "mail asked for without a verified e-mail address"),
    "notices.bad_link": ("N6", "404 (POST /api/notices/unsubscribe/{token})", "a token the server did not sign"),
}
"""Every refusal code of the server itself: its rule (docs/server.md), where it comes (the websocket's ``refused``,
or an HTTP status and route) and when. docs/server.md's list of refusals is written from it
(:mod:`dreizehn.server.reference`); a ``ServerError`` code missing here fails the tests."""

ENGINE_REFUSALS: tuple[tuple[str, str], ...] = (
    ("table.stale", "websocket (action; the answer holds the current view)"),
    ("table.not_your_turn", "websocket (action)"),
    ("table.bot_seat", "websocket (action)"),
    ("action.game_over", "websocket (action)"),
    ("action.not_number", "websocket (action)"),
    ("action.not_number_or_text", "websocket (action)"),
    ("token.", "websocket (action: a text that is no action's notation)"),
    ("words.language", "websocket (hello, lang); 422 (?lang= of any route); 404 (GET /api/words/{lang})"),
    ("game.unknown", "422 (POST /api/tables)"),
    ("players.", "422 (POST /api/tables: the number of seats)"),
    ("option.", "422 (POST /api/tables)"),
    ("bot.", "422 (POST /api/tables: a bot level or specification)"),
    ("seat.unknown", "422 (analysis: a seat the table does not have)"),
)
"""The refusals of the engine a client may be sent that no game owns, with where they come: a code, or a group of
codes (ending in ``.``: every catalogue key under it). Each registered game's own are :func:`engine_refusals`'s."""


def engine_refusals() -> tuple[tuple[str, str], ...]:
    """Every refusal of the engine a client may be sent: :data:`ENGINE_REFUSALS`, and each registered game's rules'
    codes (``<id>.error.``), found in the registry, so that a new game's are documented with no list to edit."""
    from dreizehn.core.registry import game_ids
    from dreizehn.words import words

    say = words("en")
    games = tuple((f"{game_id}.error.", f"websocket (action: one the rules of {say(f'{game_id}.title')} forbid now); "
                                        "422 (POST /api/tables: options the game cannot be played with)")
                  for game_id in game_ids())
    return ENGINE_REFUSALS[:7] + games + ENGINE_REFUSALS[7:]
