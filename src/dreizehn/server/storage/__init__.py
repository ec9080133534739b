"""Storage: tables, their seats, and the append-only log of actions, in SQLite (WAL) or PostgreSQL.

Event-sourced: a table's state is never stored, only the facts it is rebuilt from: the game, its options and the
seed (which never leaves the server), the seats, and every action keyed by (table, sequence number). That key is
unique, so two actions racing for one turn (two server processes, say) are settled by the database: the second
insert fails and its sender resyncs. A move taken back (a person alone with bots, :meth:`Actions.take_back`) leaves
the log of the game that stands, and is kept in ``taken_back`` with every action after it: nothing that happened is
lost. The schema is made by Alembic migrations (``migrations/``).

A store for each thing stored, all on one engine, held together by :class:`Store`: :mod:`.seating` (tables, seats,
tokens), :mod:`.actionlog` (the log and the take-backs), :mod:`.analysing` (the analyses); :mod:`.writer` stores
actions from the event loop in groups; :mod:`.schema` and :mod:`.rows` are what they share, :mod:`.store` the
engine and the database as a whole.
"""

from dreizehn.server.storage.actionlog import Actions
from dreizehn.server.storage.analysing import Analyses
from dreizehn.server.storage.rows import (
    DAILY_PREFIX,
    TUTORIAL_PREFIX,
    AnalysisRow,
    Append,
    DecisionRow,
    SeatRow,
    Stored,
    TableRow,
    TakenBack,
    hash_token,
    new_table_id,
    new_token,
    now,
)
from dreizehn.server.storage.schema import (
    MIGRATION_LOCK,
    NOTIFY_CHANNEL,
    PRESENCE_CHANNEL,
    actions,
    analyses,
    analysis_decisions,
    metadata,
    seats,
    tables,
    taken_back,
)
from dreizehn.server.storage.seating import Tables
from dreizehn.server.storage.store import MIGRATIONS, Store, make_engine, migrate
from dreizehn.server.storage.writer import CHECKPOINT_EVERY, Conflict, Writer

__all__ = [
    "CHECKPOINT_EVERY", "DAILY_PREFIX", "MIGRATIONS", "MIGRATION_LOCK", "NOTIFY_CHANNEL", "PRESENCE_CHANNEL",
    "TUTORIAL_PREFIX",
    "Actions", "Analyses", "AnalysisRow", "Append", "Conflict", "DecisionRow", "SeatRow", "Store", "Stored",
    "TableRow", "Tables", "TakenBack", "Writer", "actions", "analyses", "analysis_decisions", "hash_token",
    "make_engine", "metadata", "migrate", "new_table_id", "new_token", "now", "seats", "tables", "taken_back",
]
