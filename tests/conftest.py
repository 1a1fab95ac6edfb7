"""Fixtures shared by the test modules."""

from __future__ import annotations

import os
from contextlib import contextmanager

import pytest
from sqlmodel import Session

from db.engine import make_engine, use_engine
from db.migrate import upgrade

# The store seals the dice seeds of live matches (db/seeds.py); PostgreSQL takes the key from
# the environment only. A test of the key file beside a SQLite database removes it.
os.environ.setdefault("ELFBALL_SECRET", "the test suite's own dice key")


@pytest.fixture
def database(tmp_path):
    """A fresh, migrated SQLite database that the store, the services and the bot use for the
    test (a module may define its own ``database``, e.g. one also run on PostgreSQL)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'elfball.db'}")
    upgrade(engine)
    old = use_engine(engine)
    yield engine
    use_engine(old)
    engine.dispose()


@pytest.fixture
def sessions(tmp_path):
    """A session factory over a fresh, migrated SQLite database, for a ``MatchService`` built
    without the process-wide engine."""
    engine = make_engine(f"sqlite:///{tmp_path / 'service.db'}")
    upgrade(engine)

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
    import os

    monkeypatch.delenv("ELFBALL_LANGUAGE", raising=False)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(var, "").lower().startswith("fr"):
            monkeypatch.delenv(var)
