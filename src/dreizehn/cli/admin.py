"""``dreizehn admin``: the operators' minimum of moderation (issue 45 item 7, rule U10) on the server's database
(``DATABASE_URL`` and ``DREIZEHN_DATA_DIR``, as ``dreizehn serve`` reads them).

``admin accounts list`` lists every account (name, when made, disabled, e-mail verified; never a hash),
``admin accounts disable|enable|delete NAME`` disables one (it cannot sign in, its sessions end, its API tokens act
for nobody), enables it again or deletes it as ``DELETE /api/account`` does; ``admin chat remove TABLE LINE_ID``
removes a line of chat from a table's stored log. :class:`~dreizehn.server.accounts.moderation.Moderation` does
the work (imported when a command runs: the server's libraries are an extra); :func:`admin_app` makes the commands,
given the command line's words and its way to fail (so that this module imports nothing of :mod:`dreizehn.cli.main`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dreizehn.core.errors import UsageError
from dreizehn.words import Words

if TYPE_CHECKING:
    from dreizehn.server.accounts.moderation import Moderation


Name = Annotated[str, typer.Argument(metavar="NAME", help="The account's user name (any case).")]
TableId = Annotated[str, typer.Argument(metavar="TABLE", help="The table's id.")]
LineId = Annotated[int, typer.Argument(metavar="LINE_ID", help="The line's id (in the replay's chat).")]


def _moderation() -> Moderation:
    """Moderation on the database the server's settings name (migrated to the newest schema first, as the server
    does when it starts)."""
    try:
        from dreizehn.server.accounts.moderation import Moderation
        from dreizehn.server.settings import Settings
        from dreizehn.server.storage import make_engine, migrate
    except ImportError as err:  # the server extra is not installed
        raise UsageError("cli.needs_server", rule="C11", missing=str(err.name)) from None

    settings = Settings()
    engine = make_engine(settings.database, settings.data_dir)
    migrate(engine)
    return Moderation(engine)


def admin_app(say: Callable[[], Words], fail: Callable[[Exception], typer.Exit], console: Console,
              text: Callable[[object], str]) -> typer.Typer:
    """The ``admin`` commands: ``say`` gives the words of the run's language, ``fail`` the exit of a refusal,
    ``text`` escapes what a person typed for Rich."""
    admin = typer.Typer(help="Moderation: accounts and chat on the server's database (DATABASE_URL).",
                        no_args_is_help=True)
    people = typer.Typer(help="List, disable, enable or delete accounts.", no_args_is_help=True)
    chat = typer.Typer(help="Remove a line of chat.", no_args_is_help=True)
    admin.add_typer(people, name="accounts")
    admin.add_typer(chat, name="chat")

    def act(done: str, work: Callable[[Moderation], str], **params: Any) -> None:
        """Do ``work`` and say ``done`` with ``params`` and ``name``: what the work answers (the account's name as
        shown)."""
        try:
            name = work(_moderation())
        except UsageError as err:
            raise fail(err) from None
        console.print(text(say()(done, **{"name": name, **params})), highlight=False)

    @people.command("list")
    def list_accounts() -> None:
        """Every account: name, when made, disabled, e-mail verified (never a hash)."""
        w = say()
        try:
            found = _moderation().accounts()
        except UsageError as err:
            raise fail(err) from None
        table = Table(w("cli.admin.name"), w("cli.admin.created"), w("cli.admin.disabled"), w("cli.admin.verified"))
        yes, no = w("cli.admin.yes"), w("cli.admin.no")
        for row in found:
            verified = "—" if row.email_verified is None else yes if row.email_verified else no
            table.add_row(text(row.name), row.created_at.strftime("%Y-%m-%d %H:%M"), yes if row.disabled else no,
                          verified)
        console.print(table if found else w("cli.admin.none"), highlight=False)

    @people.command()
    def disable(name: Name) -> None:
        """Disable an account: it cannot sign in, its sessions end, its API tokens act for nobody."""
        act("cli.admin.disabled_done", lambda m: m.set_disabled(name, True))

    @people.command()
    def enable(name: Name) -> None:
        """Let a disabled account sign in again."""
        act("cli.admin.enabled_done", lambda m: m.set_disabled(name, False))

    @people.command()
    def delete(name: Name) -> None:
        """Delete an account; its finished games stay, its seats shown as a former player's."""
        act("cli.admin.deleted_done", lambda m: m.delete(name))

    @chat.command()
    def remove(table: TableId, line: LineId) -> None:
        """Remove a line of chat from a table's stored log (replays and later welcomes)."""
        act("cli.admin.line_removed", lambda m: m.remove_line(table, line), table=table, line=line)

    return admin
