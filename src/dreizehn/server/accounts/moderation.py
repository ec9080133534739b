"""The operators' moderation (issue 45 item 7, rule U10), as ``dreizehn admin`` does it
(:mod:`dreizehn.cli.admin`): list, disable, enable and delete accounts, remove a line of chat. Each method is one
short transaction."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dreizehn.core.errors import UsageError
from dreizehn.server.accounts.names import name_key
from dreizehn.server.accounts.schema import accounts
from dreizehn.server.accounts.store import AccountRow, AccountStore
from dreizehn.server.chat import chat


@dataclass(frozen=True)
class Listed:
    """An account as the list shows it."""

    name: str
    created_at: dt.datetime
    disabled: bool
    email_verified: bool | None
    """``None``: no e-mail address given."""


class Moderation:
    """What ``dreizehn admin`` does, on a server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.store = AccountStore(engine)

    def accounts(self) -> list[Listed]:
        """Every account, by name without regard to case."""
        with self.engine.connect() as c:
            found = c.execute(sa.select(accounts.c.name, accounts.c.created_at, accounts.c.disabled,
                                        accounts.c.email, accounts.c.email_verified)
                              .order_by(accounts.c.name_key)).all()
        return [Listed(name, created, bool(disabled), None if email is None else bool(verified))
                for name, created, disabled, email, verified in found]

    def account(self, name: str) -> AccountRow:
        """The account of a user name (without regard to case or look-alike letters); refused (``cli.no_account``,
        C11) when nobody has it."""
        found = self.store.by_key(name_key(name)) if len(name) <= 200 else None
        if found is None:
            raise UsageError("cli.no_account", rule="C11", name=name[:200])
        return found[0]

    def set_disabled(self, name: str, disabled: bool) -> str:
        """Disable an account (it cannot sign in, its sessions end) or enable it again; its name as shown."""
        account = self.account(name)
        self.store.set_disabled(account.id, disabled)
        return account.name

    def delete(self, name: str) -> str:
        """Delete an account as :meth:`AccountStore.delete` does; its name as it was shown."""
        account = self.account(name)
        self.store.delete(account.id)
        return account.name

    def remove_line(self, table_id: str, line_id: int) -> str:
        """Remove a line of chat from a table's stored log; refused (``cli.no_chat_line``, C11) when the table has
        no line of that id."""
        with self.engine.begin() as c:
            gone = c.execute(chat.delete().where(chat.c.table_id == table_id, chat.c.id == line_id)).rowcount
        if not gone:
            raise UsageError("cli.no_chat_line", rule="C11", table=table_id[:40], line=line_id)
        return table_id
