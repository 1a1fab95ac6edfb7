"""Fixtures shared by the test modules."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlmodel import Session

from db.engine import make_engine, use_engine
from db.migrate import upgrade


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
