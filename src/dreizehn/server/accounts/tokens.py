"""Personal API tokens (rule U9): a player makes one for a script or a bot, which then acts as the account over HTTP
and the websocket with ``Authorization: Bearer dzt_…``.

A token is ``dzt_`` and 32 random URL-safe characters (192 bits), shown once when it is made and stored as its
SHA-256 only; its list shows its id, label and times, never the token. Revoking it ends it at once (the next request
with it is refused). When it was last used is written at most once a minute (:data:`USED_EVERY`). A token of a
disabled account acts for nobody.

>>> token = new_api_token(); token.startswith(PREFIX), len(token), is_api_token(token), is_api_token("ops-secret")
(True, 36, True, False)
>>> label("  my bot  ")
'my bot'
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.server.accounts.schema import accounts, api_tokens
from dreizehn.server.accounts.store import AccountRow, _aware, _row
from dreizehn.server.refusals import ServerError
from dreizehn.server.storage import hash_token, now
from dreizehn.server.text import refused_character

PREFIX = "dzt_"
"""How every personal API token begins (and how a bearer token is told from the operators' one)."""
LABEL_LONGEST = 64
"""The most characters a token's label has."""
MOST_TOKENS = 20
"""The most tokens one account may hold at once."""
USED_EVERY = dt.timedelta(minutes=1)
"""A token's ``used_at`` is written at most this often."""
MARKUP = frozenset("<>")
"""Characters a label may not hold (it is shown on a page: no markup)."""


def new_api_token() -> str:
    """``dzt_`` and 32 random URL-safe characters."""
    return PREFIX + secrets.token_urlsafe(24)


def is_api_token(value: str) -> bool:
    """Whether a bearer value is meant as a personal API token (begins ``dzt_`` and is of a token's length at most:
    anything else is no account's, the operators' token for one)."""
    return value.startswith(PREFIX) and len(value) <= 64


def label(raw: str) -> str:
    """A token's label, blanks around it dropped: 1 to 64 characters, no markup, no control character; refused
    (``account.token_label``, U9, 422) otherwise."""
    text = " ".join(raw.split())
    if not 1 <= len(text) <= LABEL_LONGEST or refused_character(raw) is not None or MARKUP & set(text):
        raise ServerError("account.token_label", rule="U9", field="label", longest=LABEL_LONGEST)
    return text


@dataclass(frozen=True)
class TokenRow:
    """A token as its list shows it (never the token)."""

    id: str
    label: str
    created_at: dt.datetime
    used_at: dt.datetime | None


class Tokens:
    """Personal API tokens on the server's database engine; each method one short transaction (from a thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, account_id: str, name: str) -> tuple[TokenRow, str] | None:
        """A new token labelled ``name`` (checked by :func:`label`), and the token itself (shown once); ``None``
        where the account holds :data:`MOST_TOKENS` already."""
        token, row = new_api_token(), TokenRow(secrets.token_urlsafe(9), name, now(), None)
        with self.engine.begin() as c:
            held = c.execute(sa.select(sa.func.count()).select_from(api_tokens)
                             .where(api_tokens.c.account_id == account_id)).scalar_one()
            if held >= MOST_TOKENS:
                return None
            c.execute(api_tokens.insert().values(id=row.id, account_id=account_id, label=row.label,
                                                 token_hash=hash_token(token), created_at=row.created_at))
        return row, token

    def listing(self, account_id: str) -> list[TokenRow]:
        """An account's tokens, the newest first."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(api_tokens).where(api_tokens.c.account_id == account_id)
                              .order_by(api_tokens.c.created_at.desc(), api_tokens.c.id)).mappings().all()
        return [TokenRow(r["id"], r["label"], _aware(r["created_at"]),
                         None if r["used_at"] is None else _aware(r["used_at"])) for r in found]

    def revoke(self, account_id: str, token_id: str) -> bool:
        """Revoke one of the account's own tokens; whether it had that one (another's id revokes nothing)."""
        with self.engine.begin() as c:
            return bool(c.execute(api_tokens.delete().where(api_tokens.c.id == token_id,
                                                            api_tokens.c.account_id == account_id)).rowcount)

    def account_of(self, token: str) -> AccountRow | None:
        """The account a token acts for (``None``: no such token, revoked, or its account disabled); marks it used
        (at most once a minute)."""
        at, digest = now(), hash_token(token)
        with self.engine.begin() as c:
            found: Any = c.execute(sa.select(api_tokens.c.used_at, accounts)
                                   .join(accounts, accounts.c.id == api_tokens.c.account_id)
                                   .where(api_tokens.c.token_hash == digest)).mappings().first()
            if found is None or found["disabled"]:
                return None
            used = found["used_at"]
            if used is None or at - _aware(used) > USED_EVERY:
                c.execute(api_tokens.update().where(api_tokens.c.token_hash == digest).values(used_at=at))
            return _row(found)
