"""The one place that knows where the database is and how to connect to it.

URL resolution (``database_url``):

* ``DATABASE_URL`` if set: PostgreSQL through psycopg 3 (``postgres://`` and ``postgresql://``
  are rewritten to ``postgresql+psycopg://``), or any SQLAlchemy URL.
* otherwise SQLite in the file named by ``ELFBALL_DB`` (default ``./elfball.db``).

Every SQLite connection gets WAL mode (readers never block the writer), a busy timeout (a
second writer waits instead of failing at once) and foreign keys, set on connect.

Sessions: every unit of work opens one short-lived ``Session`` from the *session provider*
(``session_scope()``); tests replace the provider with ``set_session_provider`` or point it at
another engine with ``use_engine``.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

from .errors import UnusableDatabaseError

__all__ = [
    "DEFAULT_SQLITE_PATH",
    "SQLITE_BUSY_TIMEOUT_MS",
    "database_url",
    "make_engine",
    "get_engine",
    "use_engine",
    "dispose_engine",
    "SessionProvider",
    "set_session_provider",
    "session_scope",
    "shown_url",
    "unusable",
]

DEFAULT_SQLITE_PATH = "./elfball.db"
#: How long a SQLite writer waits for another writer's transaction before giving up.
SQLITE_BUSY_TIMEOUT_MS = 10_000

SessionProvider = Callable[[], Session]


def database_url(environ: Mapping[str, str] | None = None) -> str:
    """The URL to use: ``DATABASE_URL``, else SQLite at ``ELFBALL_DB`` (default ``./elfball.db``)."""
    env = os.environ if environ is None else environ
    url = (env.get("DATABASE_URL") or "").strip()
    if url:
        return normalise_url(url)
    path = (env.get("ELFBALL_DB") or "").strip() or DEFAULT_SQLITE_PATH
    return f"sqlite:///{Path(path).expanduser().resolve()}"


def normalise_url(url: str) -> str:
    """Point bare PostgreSQL URLs at psycopg 3, the driver this project installs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _json_text(value: Any) -> str:
    """A JSON column's value as text, by orjson: a match's state is written on every action and
    read on most, and orjson does both several times faster than the standard library (state
    write 68 -> 4 us, read 52 -> 23 us). Keys that are not strings become strings, as
    ``json.dumps`` makes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _switch_to_wal(cursor: Any) -> None:
    """``PRAGMA journal_mode = WAL``, retried while another process holds the lock.

    A new database starts in rollback mode; switching needs its exclusive lock. When two
    processes open a new file together (shards starting at once), each holds a shared lock and
    wants the exclusive one, and SQLite answers "database is locked" at once instead of waiting
    on the busy timeout (it would deadlock). The loser retries until the winner has switched:
    then the pragma is a no-op. Bounded by the busy timeout, as any other wait for a lock."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")  # answers 'memory' for :memory: databases
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        _switch_to_wal(cursor)
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_read_only_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")  # WAL's journal mode is a write
    finally:
        cursor.close()


def shown_url(url: str | URL | None) -> str:
    """A URL as it may be printed: no password, and a SQLite database as its file's path."""
    try:
        target = make_url(str(url)) if not isinstance(url, URL) else url
    except ArgumentError:
        return str(url)[:80]
    if target.get_backend_name() == "sqlite":
        return (target.database or ":memory:").removeprefix("file:")
    return target.render_as_string(hide_password=True)


def make_engine(url: str | URL | None = None, *, echo: bool = False, read_only: bool = False, **kwargs: Any) -> Engine:
    """A new engine for ``url`` (default: ``database_url()``), with the connect-time settings.

    ``read_only``: every connection refuses to write (SQLite opens the file with ``mode=ro``,
    PostgreSQL starts read-only transactions), so checking a match works on a read-only copy.
    A URL no installed driver can use is an ``UnusableDatabaseError``."""
    given = normalise_url(url) if isinstance(url, str) else (url or database_url())
    try:
        target = make_url(given)
    except ArgumentError as exc:
        raise UnusableDatabaseError("database_url_bad", url=str(given)[:80],
                                    reason=str(exc)) from None
    options: dict[str, Any] = {"echo": echo, "json_serializer": _json_text, "json_deserializer": orjson.loads}
    sqlite = target.get_backend_name() == "sqlite"
    if sqlite:
        # The engine is used from worker threads (db.aio): each thread checks out its own
        # connection from the pool, so the same-thread check is not needed.
        options["connect_args"] = {"check_same_thread": False}
        if target.database in (None, "", ":memory:"):
            options["poolclass"] = StaticPool  # one shared in-memory database
        elif read_only:
            query = {"mode": "ro", "uri": "true"}
            path = Path(target.database)
            if path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
                # A WAL database in a folder nobody may write to cannot even be read (SQLite wants
                # its -shm file) unless it is declared immutable: true of a read-only copy.
                query["immutable"] = "1"
            target = target.set(database=f"file:{target.database}").update_query_dict(query)
    elif read_only and target.get_backend_name() == "postgresql":
        connect_args = dict(kwargs.pop("connect_args", {}))
        extra = connect_args.get("options") or target.query.get("options") or ""
        connect_args["options"] = f"{extra} -c default_transaction_read_only=on".strip()
        options["connect_args"] = connect_args
    options.update(kwargs)
    try:
        engine = create_engine(target, **options)
    except (ArgumentError, ImportError) as exc:  # an unknown dialect or a driver not installed
        raise UnusableDatabaseError("database_url_unusable",
                                    url=shown_url(target), reason=str(exc)) from None
    if sqlite:
        event.listen(engine, "connect", _sqlite_read_only_pragmas if read_only else _sqlite_pragmas)
    else:
        ping_when_idle(engine)
    return engine


#: A pooled server connection unused for this long is pinged before it is handed out.
IDLE_PING_SECONDS = 10.0


def ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection with a ping before use, but only after it sat idle.

    SQLAlchemy's ``pool_pre_ping`` pings at every checkout: a round trip before each of an
    action's short transactions, about a fifth of the bot's CPU per action on PostgreSQL
    (docs/benchmarks.md, *Many servers at once*). A connection that was used a moment ago is alive; one idle
    for ``IDLE_PING_SECONDS`` may have died with a server restart or a network cut, so it is
    pinged, and a dead one is discarded for a fresh one (``DisconnectionError`` tells the pool to
    try again), as ``pool_pre_ping`` would. What is given up: a connection used less than
    ``IDLE_PING_SECONDS`` ago that the server dropped meanwhile (it restarted just then) is not
    pinged, so the one command using it fails with a database error; the pool then drops its
    connections and the next command works."""
    @event.listens_for(engine, "checkin")
    def _used(dbapi_connection: Any, record: Any) -> None:
        record.info["last_used"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        last = record.info.get("last_used")
        if last is None or time.monotonic() - last < IDLE_PING_SECONDS:
            return  # new (just connected) or used a moment ago
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:  # noqa: BLE001 - any failure means: not usable, take another
            raise DisconnectionError("an idle connection failed its ping") from exc


def unusable(exc: BaseException, url: str | URL | Engine) -> UnusableDatabaseError:
    """What a driver's failure to open or use the database means, for the person running Elfball:
    not a SQLite file, a folder that does not exist, a read-only file, a server that cannot be
    reached or that refused the login."""
    target = url.url if isinstance(url, Engine) else url
    where = shown_url(target)
    orig = getattr(exc, "orig", None) or exc
    reason = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    reason = reason.removeprefix("connection failed: ")
    if isinstance(exc, DBAPIError) and make_url(str(target)).get_backend_name() == "sqlite":
        path = where
        if Path(path).is_dir():
            return UnusableDatabaseError("database_folder_file", path=path)
        if "file is not a database" in reason:
            return UnusableDatabaseError("elfball_database_sqlite_file", path=path)
        if "readonly database" in reason:
            return UnusableDatabaseError("database_read_only_needs_write", path=path)
        if "unable to open database file" in reason:
            folder = Path(path).parent
            if not folder.is_dir():
                return UnusableDatabaseError("cannot_open_database_folder_does",
                                             path=path, folder=str(folder))
            if not Path(path).exists():
                return UnusableDatabaseError("there_no_database", path=path)
            return UnusableDatabaseError("cannot_open_database_file_folder", path=path)
        return UnusableDatabaseError("cannot_use_database", path=path, reason=reason)
    return UnusableDatabaseError("cannot_connect_database", where=where, reason=reason)


_engine: Engine | None = None
_provider: SessionProvider | None = None


def get_engine() -> Engine:
    """The process-wide engine, made from ``database_url()`` on first use."""
    global _engine
    if _engine is None:
        _engine = make_engine()
    return _engine


def use_engine(engine: Engine | None) -> Engine | None:
    """Make ``engine`` the process-wide engine (None: back to the environment's). Returns the old one."""
    global _engine
    old, _engine = _engine, engine
    return old


def dispose_engine() -> None:
    """Close the process-wide engine's connections (at shutdown)."""
    global _engine
    if _engine is not None:
        _engine.dispose()
        _engine = None


def _default_session() -> Session:
    # expire_on_commit=False: objects stay readable after the unit of work commits.
    return Session(get_engine(), expire_on_commit=False)


def set_session_provider(provider: SessionProvider | None) -> SessionProvider | None:
    """Replace how sessions are made (tests); None restores the default. Returns the old one."""
    global _provider
    old, _provider = _provider, provider
    return old


@contextmanager
def session_scope() -> Iterator[Session]:
    """One unit of work: a fresh session, rolled back if it raises, always closed."""
    session = (_provider or _default_session)()
    try:
        yield session
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
