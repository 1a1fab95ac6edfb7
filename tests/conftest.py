"""Fixtures shared by the test modules, wherever they sit under ``tests/``.

Databases: ``database`` and ``sessions`` (SQLite only) and the backend-parametrised ones run
on SQLite and on PostgreSQL (``backend``, ``db_engine``, ``store``, ``shared_postgres``; see
``support/databases.py``; ``tests/service/conftest.py`` adds ``league``). A module may define a
fixture of the same name (e.g. its own ``database``): pytest then uses the module's.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel

import db.models  # noqa: F401 - every table registered, for _empty's TRUNCATE
from db.engine import set_session_provider, use_engine
from db.settings import forget_remembered
from service.limits import LIMITS
from support.databases import BACKENDS, fresh_engine, migrated_sqlite

#: The browser tests' Chromium and axe-core fixtures (``browser``, ``axe``), shared by every module.
pytest_plugins = ["support.browser", "support.lesson_files"]

# The store seals the dice seeds of live matches (db/seeds.py); PostgreSQL takes the key from
# the environment only, and only a key of at least 128 bits (64 hex digits, as `elfball key new`
# prints). A test of the key file beside a SQLite database removes it.
os.environ.setdefault("ELFBALL_SECRET", "c4ccc486de3309dda1cbbc9ac9ee5fcacf7fef577f595e363ceb90b674ee36bd")

# Hypothesis times every example (200 ms by default) and fails the test past it: a timed
# assertion, which the house does not write. On a loaded 2-core machine a right test failed so
# (tests/engine/test_rosters.py, 397 ms for one lineup). Same examples, no clock.
settings.register_profile("elfball", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("elfball")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (every module, the engine's data, the catalogues) lives for the
    whole run: frozen, the garbage collector stops walking it at every collection (tests/engine
    and tests/service: 67 -> 63 s of CPU, measured once each on a loaded machine)."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def database(tmp_path):
    """A fresh, migrated SQLite database that the store, the services and the bot use for the
    test (a module may define its own ``database``, e.g. one also run on PostgreSQL)."""
    engine = migrated_sqlite(tmp_path / "elfball.db")
    old = use_engine(engine)
    yield engine
    use_engine(old)
    engine.dispose()


@pytest.fixture
def sessions(tmp_path):
    """A session factory over a fresh, migrated SQLite database, for a ``MatchService`` built
    without the process-wide engine."""
    engine = migrated_sqlite(tmp_path / "service.db")

    @contextmanager
    def scope():
        with Session(engine, expire_on_commit=False) as s:
            yield s

    yield scope
    engine.dispose()


@pytest.fixture(autouse=True)
def english_console(monkeypatch):
    """The console commands follow ``ELFBALL_LANGUAGE`` and the locale: a French machine runs the
    suite in English like CI (the tests of that default set them themselves)."""
    monkeypatch.delenv("ELFBALL_LANGUAGE", raising=False)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(var, "").lower().startswith("fr"):
            monkeypatch.delenv(var)


@pytest.fixture(autouse=True)
def roomy_limits(monkeypatch):
    """The suite runs as an operator with no cooldowns and roomy caps (``ELFBALL_LIMIT_*``,
    ``service.limits``), so that a test of something else is not limited by them; the tests of
    the limits set their own (``monkeypatch.setenv``/``delenv``)."""
    for limit in LIMITS:
        monkeypatch.setenv(limit.variable, "0" if limit.kind == "cooldown" else "100000")


# --- the same tests on SQLite and on PostgreSQL ----------------------------------------------------
@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def shared_postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """One migrated PostgreSQL schema for the whole run (migrating per test costs ~0.4 s)."""
    yield from fresh_engine("postgresql", tmp_path_factory.mktemp("pg"))


def _empty(engine: Engine) -> None:
    tables = ", ".join(t.name for t in SQLModel.metadata.sorted_tables)
    with engine.begin() as conn:
        conn.exec_driver_sql("SET LOCAL lock_timeout = '20s'")
        conn.exec_driver_sql(f"TRUNCATE TABLE {tables} RESTART IDENTITY CASCADE")
    forget_remembered(engine)  # the settings it remembered are gone with the rows


@pytest.fixture
def db_engine(backend: str, tmp_path, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """A migrated, empty database on the test's backend."""
    if backend == "sqlite":
        yield from fresh_engine(backend, tmp_path)
        return
    engine = request.getfixturevalue("shared_postgres")
    _empty(engine)
    yield engine


@pytest.fixture
def store(db_engine: Engine) -> Iterator[Engine]:
    """``db_engine``, also installed as the session provider (for ``db.aio`` and ``session_scope``)."""
    old = set_session_provider(lambda: Session(db_engine, expire_on_commit=False))
    try:
        yield db_engine
    finally:
        set_session_provider(old)
