"""The server's settings, from the environment (``DREIZEHN_*``) or a ``.env`` file; docs/server.md lists them.

>>> Settings(data_dir="/tmp/dz").database
'sqlite:////tmp/dz/dreizehn.sqlite3'
>>> Settings(database_url="postgresql://u@h/db").database
'postgresql+psycopg://u@h/db'
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting of the server, with its default."""

    model_config = SettingsConfigDict(env_prefix="DREIZEHN_", env_file=".env", extra="ignore")

    database_url: str | None = Field(
        default=None, validation_alias="DATABASE_URL",
        description="an SQLAlchemy URL; PostgreSQL (postgresql://...) or SQLite; default: a SQLite file in data_dir",
    )
    data_dir: Path = Field(default=Path("data"), description="where the SQLite file lives")
    bot_pause: float = Field(default=0.8, ge=0, description="seconds a bot waits before it plays, so people follow")
    bot_workers: int = Field(default=2, ge=0, description="worker processes for bots and hints (0: threads)")
    bot_timeout: float = Field(
        default=5.0, gt=0,
        description="seconds a bot may think: then its worker process is killed and replaced, and the heuristic "
                    "plays that move; a table's bot specification may ask for at most half of it (time=...)",
    )
    bot_max_iterations: int = Field(
        default=30_000, ge=1,
        description="the most iterations a table's bot specification may ask for (iterations=...; the levels are "
                    "always allowed, master's 30,000 the largest)",
    )
    stage_hold: float = Field(
        default=30.0, ge=0,
        description="seconds the bots wait after a stage ends for the people at the table to close its scoring (each "
                    "says ready); they go on at once when all have, and after this at the latest (0: no wait)",
    )
    grace_period: float = Field(default=60.0, ge=0, description="seconds a person may be away before a bot plays")
    stand_in: str = Field(default="medium", description="the bot level that plays for a person who is away")
    hint_seconds: float = Field(default=1.0, gt=0, le=10, description="the search time of a hint")
    analysis_playouts: int = Field(
        default=200, ge=1, le=100_000,
        description="playouts per decision in the analysis of a finished game (a whole number: repeatable results)",
    )
    analysis_search: str = Field(
        default="auto",
        description="the search whose move each decision of an analysis is rated against: auto (the game's hint "
                    "level), a bot level or a bot specification (a smaller search is quicker and rougher)",
    )
    analysis_lease: float = Field(
        default=30.0, gt=0,
        description="seconds an analysis being worked on stays with its server process without a sign of life (each "
                    "process gives one every third of it); after that another process, or the next start, takes it up",
    )
    max_message_bytes: int = Field(default=8192, ge=256, description="the largest websocket message accepted")
    max_body_bytes: int = Field(
        default=65536, ge=1024,
        description="the largest HTTP request body read; a larger one is refused before it is read whole (413)",
    )
    max_frame_bytes: int = Field(
        default=1 << 20, ge=1024,
        description="the largest websocket frame read (at least 4 times max_message_bytes): a larger message is read "
                    "and refused (server.too_large); a frame beyond this closes the connection (1009)",
    )
    rate_per_second: float = Field(default=10.0, gt=0, description="messages a connection may send each second")
    rate_burst: int = Field(default=30, ge=1, description="messages a connection may send at once")
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="origins whose pages may open websockets; empty: the server's own host only",
    )
    public_url: str | None = Field(default=None, description="the address in invitation links; default: the request's")
    ping_interval: float = Field(default=20.0, gt=0, description="seconds between keep-alive pings")
    hello_timeout: float = Field(
        default=10.0, gt=0,
        description="seconds a websocket has from its opening to say a hello that is welcomed; then it is closed "
                    "(4408)",
    )
    room_idle: float = Field(
        default=600.0, gt=0,
        description="seconds a table's room stays in memory with no connection and nothing running; then it is "
                    "dropped, and rebuilt from the stored log when someone comes",
    )
    presence_interval: float = Field(
        default=5.0, gt=0,
        description="PostgreSQL: seconds between the signs of life each server process gives the others; a process "
                    "silent for three is taken for gone (its connections count no more, its stand-ins' seats are "
                    "played by the others)",
    )
    ops_token: SecretStr | None = Field(
        default=None,
        description="the operators' token: /metrics, /docs, /redoc, /openapi.json and the details of /health are "
                    "served only to a request that brings it (Authorization: Bearer <token>, or as the password of "
                    "HTTP Basic); unset (or empty), they answer 404",
    )
    ops_public: bool = Field(
        default=False,
        description="serve the operators' pages to anyone, without the token: for local development only (make run "
                    "sets it), never on a server others reach",
    )
    address: str | None = Field(
        default=None,
        description="PostgreSQL, several processes: host:port where the other server processes reach this one to "
                    "relay the websockets of the tables it serves (its homes); default: the serve command's host and "
                    "port (the machine's name for 0.0.0.0)",
    )

    cookie_secure: bool = Field(
        default=False,
        description="the server is reached over https (behind a proxy that ends TLS too): the session cookie is "
                    "Secure and __Host- prefixed, and every answer carries Strict-Transport-Security for a year",
    )
    session_days: float = Field(default=30.0, gt=0, description="days a sign-in lasts at most, used or not")
    session_idle_days: float = Field(default=14.0, gt=0, description="days a sign-in lasts unused")
    password_memory_kib: int = Field(
        default=19456, ge=8192, le=1 << 21,
        description="Argon2id's memory per password hash, in KiB (OWASP's first choice: 19 MiB)",
    )
    password_passes: int = Field(default=2, ge=1, le=16, description="Argon2id's passes over that memory")
    signin_limit_account: str = Field(
        default="10 per 15 minutes",
        description="failed sign-ins an account may see (the limits library's notation); then it refuses sign-ins "
                    "for the rest of the window, right password or not",
    )
    signin_limit_address: str = Field(default="30 per 15 minutes",
                                      description="sign-ins one address may try, right or wrong")
    signup_limit_address: str = Field(default="10 per hour", description="accounts one address may make")

    daily_bots: str = Field(default="hard", description="the bot level every daily deal seats (its strongest "
                                                        "where a game lacks it at that player count)")
    rating_interval: float = Field(
        default=2.0, gt=0,
        description="seconds between the sweeps that update the ratings of the rated games finished since",
    )
    smtp_host: str | None = Field(
        default=None,
        description="the SMTP server that sends the accounts' mail (links that verify an address and reset a "
                    "password); unset: no mail is sent, the pages say so, and the operator's log carries the links",
    )
    smtp_port: int | None = Field(default=None, ge=1, le=65535,
                                  description="its port; default: 25 (tls none), 587 (starttls), 465 (tls)")
    smtp_user: str | None = Field(default=None, description="the user name to sign in to it with, if it asks one")
    smtp_password: SecretStr | None = Field(default=None, description="that user's password (never logged)")
    smtp_from: str = Field(default="dreizehn <dreizehn@localhost>",
                           description="the sender of the mails (From), an address the SMTP server may send as")
    smtp_tls: Literal["none", "starttls", "tls"] = Field(
        default="starttls",
        description="how the connection to it is secured: starttls (upgraded after connecting), tls (from the "
                    "start) or none (a server on this machine only)",
    )
    smtp_timeout: float = Field(default=30.0, gt=0, description="seconds a mail may take to be handed over")
    reset_limit_address: str = Field(
        default="20 per hour",
        description="password resets one address may ask for (every name or e-mail address asked counts)",
    )
    reset_limit_account: str = Field(
        default="5 per hour",
        description="password resets asked for one user name or e-mail address (refused alike whether it is "
                    "anyone's or not), and links mailed to one account (past it, nothing more is mailed, and the "
                    "answer stays the same); also new e-mail addresses one account may set",
    )
    turn_sweep: float = Field(
        default=5.0, gt=0, le=3600,
        description="seconds between two looks for turn-based tables' clocks that ran out (and reminders due)",
    )
    turn_based_limit: int = Field(
        default=30, ge=1, le=1000, description="the turn-based games being played a person may hold at once")
    move_time_min: int = Field(
        default=3600, ge=1, le=604800,
        description="the shortest time to move a turn-based table may give (seconds; tests and trials shorten it)")
    # -- the lobby (issue 46 item 3, docs/lobby.md) --
    lobby_tick: float = Field(
        default=1.0, gt=0,
        description="seconds between the lobby's rounds: silent pages dropped, ready checks ended, people matched",
    )
    lobby_expiry: float = Field(
        default=15.0, gt=0,
        description="seconds a queued person's page may stay silent (it asks every 3 seconds) before they leave "
                    "the queue (rule L2)",
    )
    lobby_ready_window: float = Field(
        default=20.0, gt=0,
        description="seconds the people of a real-time group have to confirm that they are ready (rule L4)",
    )
    lobby_online: float = Field(
        default=300.0, gt=0,
        description="seconds since an account was last seen (a page of its session asked the server, or it is in "
                    "the lobby) that it counts as online (rule L6)",
    )

    # -- notices (issue 46 item 2, docs/notices.md) ------------------------------------------------------------------
    notice_mail_period: float = Field(
        default=43200.0, gt=0,
        description="seconds: at most one mail a game in this time to a person who asked for a mail a game (rule N5)",
    )
    notice_digest_period: float = Field(
        default=86400.0, gt=0, description="seconds between two digests of the games waiting for a person (rule N5)",
    )
    notice_poll: float = Field(default=15.0, gt=0,
                               description="seconds between two looks at the outbox of mails and the digests due")
    notice_retry: float = Field(
        default=60.0, gt=0,
        description="seconds before a mail the SMTP server did not take is tried again; doubled at each try, up to "
                    "notice_retry_max (rule N7)",
    )
    notice_retry_max: float = Field(default=3600.0, gt=0, description="the longest wait between two tries of a mail")
    push_allow_http: bool = Field(
        default=False,
        description="accept Web Push endpoints on plain http (tests with a push service of their own); off: https "
                    "only (rule N4)",
    )
    push_subject: str | None = Field(
        default=None,
        description="the contact (mailto: or https:) the push services are given with the server's VAPID key; "
                    "default: public_url where it is https, else the address of smtp_from",
    )
    push_timeout: float = Field(default=10.0, gt=0, description="seconds a push service may take to answer")
    push_tries: int = Field(
        default=10, ge=1,
        description="how many times a push its service does not take (no answer, 429, 5xx) is tried before it is "
                    "given up; the waits between as for mails (notice_retry, notice_retry_max) (rule N9)",
    )

    @property
    def database(self) -> str:
        """The SQLAlchemy URL, the psycopg 3 driver chosen for PostgreSQL."""
        url = self.database_url
        if not url:
            return f"sqlite:///{(self.data_dir / 'dreizehn.sqlite3').as_posix()}"
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix):]
        return url

    @property
    def mail_configured(self) -> bool:
        """Whether the server sends mail: an SMTP host is set, and so is ``public_url``, the address its links
        point to (taken from a request, a link could point wherever the asker's ``Host`` header says: an attacker
        asking a reset for someone else would get that person's link sent to the attacker's site)."""
        return bool(self.smtp_host) and bool(self.public_url)

    @property
    def mail_port(self) -> int:
        """The SMTP port: :attr:`smtp_port`, else the usual one of :attr:`smtp_tls`."""
        return self.smtp_port or {"none": 25, "starttls": 587, "tls": 465}[self.smtp_tls]

    @property
    def frame_limit(self) -> int:
        """The largest websocket frame the server reads: ``max_frame_bytes``, and at least 4 times
        ``max_message_bytes``."""
        return max(self.max_frame_bytes, 4 * self.max_message_bytes)

    @property
    def is_postgres(self) -> bool:
        return self.database.startswith("postgresql")
