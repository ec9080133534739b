"""What the notices say (rule N2): the game's name, the other players' names (never seat numbers) and the time left,
in the account's language; never a card. A push's payload and the notices' mails (plain text, with an unsubscribe
link and the RFC 8058 one-click headers, rule N6).

>>> import datetime as dt
>>> left("en", dt.timedelta(hours=49)), left("de", dt.timedelta(hours=5, minutes=59)), left("nl", dt.timedelta(0))
('2 days', '5 Stunden', '1 minuut')
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from dreizehn.words import words


def left(lang: str, delta: dt.timedelta) -> str:
    """A time left, said roughly: whole days from two days on, whole hours from an hour on, else minutes (at
    least one)."""
    say = words(lang)
    seconds = max(0.0, delta.total_seconds())
    if seconds >= 2 * 86400:
        return say("notices.left.days", n=int(seconds // 86400))
    if seconds >= 3600:
        return say("notices.left.hours", n=int(seconds // 3600))
    return say("notices.left.minutes", n=max(1, int(seconds // 60)))


def other_names(lang: str, players: Sequence[tuple[int, str, bool, bool]], seat: int) -> list[str]:
    """The names of the players at a table other than ``seat``'s; a former player's and a nameless seat's said as
    such."""
    say = words(lang)
    return [say("account.former_player") if former else name or say("notices.someone")
            for number, name, _bot, former in players if number != seat]


def others(lang: str, players: Sequence[tuple[int, str, bool, bool]], seat: int) -> str:
    """:func:`other_names`, joined ("Anna and Bert")."""
    return words(lang).join(other_names(lang, players, seat))


def game_name(lang: str, game_id: str) -> str:
    return words(lang)(f"{game_id}.title")


def push_notice(lang: str, kind: str, game_id: str, players: str, due_at: dt.datetime, url: str,
                table_id: str) -> str:
    """What the outbox keeps of a push (rule N9): the notice's parameters, said only when it is sent, so that a push
    tried again later says the time left then, not when it was stored."""
    return json.dumps({"notice": {"lang": lang, "kind": kind, "game": game_id, "players": players,
                                  "due": due_at.isoformat(), "url": url, "table": table_id}}, ensure_ascii=False)


def push_said(stored: str, now: dt.datetime) -> str | None:
    """The payload of a push the outbox kept (:func:`push_notice`), said at ``now``; None when its time has run
    out (the turn's clock did what its rule says: a notice of time left would be wrong). A payload stored whole
    (before the outbox kept parameters) is sent as it is."""
    notice = json.loads(stored).get("notice")
    if notice is None:
        return stored
    due = dt.datetime.fromisoformat(notice["due"])
    if due <= now:
        return None
    return push_payload(notice["lang"], notice["kind"], notice["game"], notice["players"], due - now,
                        notice["url"], notice["table"])


def push_payload(lang: str, kind: str, game_id: str, players: str, remaining: dt.timedelta, url: str,
                 table_id: str) -> str:
    """The JSON a push carries: a notification's title and body, the seat's address, a tag (one notification a
    table: a newer one replaces it)."""
    say = words(lang)
    game = game_name(lang, game_id)
    spoken = left(lang, remaining)
    return json.dumps({"title": say(f"notices.{kind}.title", game=game),
                       "body": say(f"notices.{kind}.body", game=game, players=players, left=spoken),
                       "url": url, "tag": f"dreizehn-{table_id}"}, ensure_ascii=False)


def mail(sender: str, to: str, lang: str, subject: str, body: str, unsubscribe: str, one_click: str,
         settings_link: str) -> EmailMessage:
    """A notice's mail: ``body`` and the footer with the unsubscribe page's link; ``List-Unsubscribe`` names the
    one-click address (``one_click``, which a mail program POSTs to, RFC 8058)."""
    say = words(lang)
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain=sender.rsplit("@", 1)[-1].strip("> ") or "localhost")
    message["List-Unsubscribe"] = f"<{one_click}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    footer = say("notices.mail.footer", unsubscribe=unsubscribe, settings=settings_link)
    message.set_content(f"{body}\n\n-- \n{footer}\n")
    message["Content-Language"] = lang  # after the content: setting it clears the Content-* headers
    return message
