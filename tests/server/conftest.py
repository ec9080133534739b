"""Fixtures of the server tests (issue 13): settings on SQLite or PostgreSQL, the in-process test client, real server
processes, and a throwaway PostgreSQL cluster (item 10)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dreizehn.server.app import create_app
from dreizehn.server.settings import Settings

from .kit import OPS_HEADERS, ServerProcess, free_port, make_settings


def _postgres_bin() -> Path | None:
    """The directory of PostgreSQL's initdb and pg_ctl: on the PATH, else the newest Debian-style install."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(d) for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                           key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit()
                                           else 0, reverse=True)]
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


def _unavailable(reason: str) -> None:
    """Skip the PostgreSQL tests here; fail them on CI, which installs PostgreSQL."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is needed on CI: {reason}")
    pytest.skip(reason)


class Cluster:
    """A throwaway PostgreSQL cluster: initdb in a temporary directory, 127.0.0.1 on a free port, the socket in that
    directory, a database ``dreizehn`` (``url``); it can be stopped and started again (a restart, item 4 of issue
    26)."""

    def __init__(self, bindir: Path, root: Path, as_owner: list[str]) -> None:
        self.root, self.port = root, free_port()
        self.pg_ctl = [*as_owner, str(bindir / "pg_ctl"), "-D", str(root / "data")]
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/dreizehn"

    def start(self) -> None:
        subprocess.run([*self.pg_ctl, "-l", str(self.root / "log"), "-w", "-t", "30", "-o",
                        f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200", "start"],
                       check=True, capture_output=True)

    def stop(self, mode: str = "fast") -> None:
        """Stop the cluster: ``fast`` (clients disconnected, everything committed kept) or ``immediate``."""
        subprocess.run([*self.pg_ctl, "-m", mode, "-w", "stop"], capture_output=True, check=False)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """Issue 13 item 10: a throwaway PostgreSQL cluster (:class:`Cluster`), started; stopped and removed at the
    end. Skips the test where PostgreSQL is not installed (fails it on CI)."""
    bindir = _postgres_bin()
    if bindir is None:
        _unavailable("PostgreSQL (initdb, pg_ctl) is not installed")
        raise AssertionError("unreachable")
    root = Path(tempfile.mkdtemp(prefix="dreizehn-pg-"))
    as_owner: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(root, ignore_errors=True)
            _unavailable("running as root and there is no postgres user to own the cluster")
            raise AssertionError("unreachable") from None
        os.chown(root, owner.pw_uid, owner.pw_gid)
        as_owner = ["runuser", "-u", "postgres", "--"]
    cluster = Cluster(bindir, root, as_owner)
    try:
        subprocess.run([*as_owner, str(bindir / "initdb"), "-D", str(root / "data"), "-U", "postgres",
                        "--auth=trust", "-E", "UTF8", "--no-sync"], check=True, capture_output=True)
        cluster.start()
    except subprocess.CalledProcessError as err:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(f"PostgreSQL did not start: {err.stderr.decode(errors='replace')}")
    try:
        import psycopg

        with psycopg.connect(cluster.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as c:
            c.execute("CREATE DATABASE dreizehn")
        yield cluster
    finally:
        cluster.stop("immediate")
        subprocess.Popen(["rm", "-rf", str(root)], start_new_session=True)  # thousands of files: not waited for


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of the database ``dreizehn`` of the session's throwaway cluster (:func:`postgres_cluster`)."""
    with postgres_cluster() as cluster:
        yield cluster.url


@pytest.fixture
def own_postgres() -> Iterator[Cluster]:
    """A throwaway cluster of the test's own, which it may stop and start."""
    with postgres_cluster() as cluster:
        yield cluster


def new_database(postgres_url: str) -> str:
    """The URL of a new empty database in the test cluster of ``postgres_url``."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    base = postgres_url.rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as c:
        c.execute(f"CREATE DATABASE {name}")
    return f"{base}/{name}"


@pytest.fixture
def pg_database(postgres_url: str) -> str:
    """The URL of a new empty database in the test cluster."""
    return new_database(postgres_url)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def module_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """An in-process server shared by the tests of a module, on SQLite and on PostgreSQL (a new database); its
    client brings the operators' token (:data:`~.kit.OPS_HEADERS`), as every test client here."""
    url = new_database(request.getfixturevalue("postgres_url")) if request.param == "postgres" else None
    settings = make_settings(tmp_path_factory.mktemp("data"), url)
    with TestClient(create_app(settings), headers=OPS_HEADERS) as started:
        yield started


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The settings of a test server on SQLite (in the test's directory)."""
    return make_settings(tmp_path / "data")


@pytest.fixture(params=["sqlite", "postgres"])
def db_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """The settings of a test server, on SQLite and on PostgreSQL (a new empty database)."""
    url = request.getfixturevalue("pg_database") if request.param == "postgres" else None
    return make_settings(tmp_path / "data", url)


@pytest.fixture
def serve() -> Iterator[Callable[[Settings], TestClient]]:
    """Start an in-process server (its lifespan run) with given settings; stopped at the end of the test."""
    with contextlib.ExitStack() as stack:

        def start(settings: Settings) -> TestClient:
            return stack.enter_context(TestClient(create_app(settings), headers=OPS_HEADERS))

        yield start


@pytest.fixture
def client(serve: Callable[[Settings], TestClient], settings: Settings) -> TestClient:
    """An in-process server on SQLite."""
    return serve(settings)


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Start real ``dreizehn serve`` processes (``processes(env, port=None)``); each is killed at the end of the
    test, whatever happens."""
    started: list[ServerProcess] = []

    def start(env: dict[str, Any], port: int | None = None) -> ServerProcess:
        server = ServerProcess(tmp_path / "servers", {k: str(v) for k, v in env.items()}, port)
        started.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in started:
            server.kill()
