"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest

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
