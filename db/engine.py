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
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, create_engine

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


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")  # answers 'memory' for :memory: databases
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def make_engine(url: str | URL | None = None, *, echo: bool = False, **kwargs: Any) -> Engine:
    """A new engine for ``url`` (default: ``database_url()``), with the connect-time settings."""
    target = make_url(normalise_url(str(url)) if isinstance(url, str) else (url or database_url()))
    options: dict[str, Any] = {"echo": echo, "pool_pre_ping": True}
    if target.get_backend_name() == "sqlite":
        options.pop("pool_pre_ping")
        # The engine is used from worker threads (db.aio): each thread checks out its own
        # connection from the pool, so the same-thread check is not needed.
        options["connect_args"] = {"check_same_thread": False}
        if target.database in (None, "", ":memory:"):
            options["poolclass"] = StaticPool  # one shared in-memory database
    options.update(kwargs)
    engine = create_engine(target, **options)
    if target.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


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
