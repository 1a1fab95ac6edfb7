"""Small helpers shared by the data modules (names, integrity errors, upserts, times)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from .names import MAX_NAME, clean_name, name_key

__all__ = ["MAX_NAME", "ARCHIVED", "clean_name", "name_key", "violates", "upsert", "in_utc", "is_sqlite"]

#: In a finished season's ``leagues.name_key``, between its name and its id (``db.seasons``): no
#: name holds a control character (``db.names.check_name``), so no league can be called that.
ARCHIVED = "\x1f"


def violates(error: IntegrityError, constraint: str) -> bool:
    """Whether ``error`` broke ``constraint`` (by name on PostgreSQL, by its columns on SQLite)."""
    diag = getattr(getattr(error.orig, "diag", None), "constraint_name", None)
    if diag is not None:
        return bool(diag == constraint)
    return constraint in str(error.orig) or _sqlite_columns(constraint, str(error.orig))


def _sqlite_columns(constraint: str, message: str) -> bool:
    # SQLite names the columns, not the constraint: "UNIQUE constraint failed: teams.guild_id, teams.name_key".
    from .models import ACTIVE_CHANNEL_INDEX

    known = {
        "uq_teams_guild_id_name_key": "teams.guild_id, teams.name_key",
        "uq_leagues_guild_id_name_key": "leagues.guild_id, leagues.name_key",
        ACTIVE_CHANNEL_INDEX: "matches.channel_id",
        "uq_match_events_match_id_seq": "match_events.match_id, match_events.seq",
        "uq_challenges_channel_id": "challenges.channel_id",
    }
    columns = known.get(constraint)
    return columns is not None and f"UNIQUE constraint failed: {columns}" in message


def is_sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def upsert(session: Session, table: Any) -> Any:
    """``INSERT`` with ``on_conflict_do_update`` / ``on_conflict_do_nothing`` (PostgreSQL and
    SQLite spell it the same): one statement, so racing writers need no retry loop."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def in_utc(value: datetime) -> datetime:
    """``value`` in UTC (a naive one is taken as UTC). SQLite compares times as text, without
    their zone, so every time a query compares must be in the same zone."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
