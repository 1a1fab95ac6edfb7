"""Fixtures of the service tests (the root ``tests/conftest.py`` has the databases)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from service.leagues import LeagueService
from service.matches import MatchService


@pytest.fixture
def league(db_engine: Engine) -> LeagueService:
    """A league service (and its match service) over ``db_engine``, without pictures."""

    @contextmanager
    def scope() -> Iterator[Session]:
        with Session(db_engine, expire_on_commit=False) as s:
            yield s

    return LeagueService(MatchService(sessions=scope, render=False), sessions=scope, render=False)
