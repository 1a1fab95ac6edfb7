"""Column types and helpers shared by the table models (not a model itself).

* Discord ids (snowflakes) need 64 bits: ``Snowflake`` is a ``BIGINT``.
* JSON is ``JSONB`` on PostgreSQL and ``JSON`` (text) on SQLite.
* Timestamps are stored in UTC with a time zone where the database keeps one; SQLite hands
  them back naive, so ``as_utc`` marks them UTC again on the way out.
* Constraints follow one naming convention, so Alembic migrations name them the same way on
  every backend.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlmodel import SQLModel

__all__ = ["Snowflake", "JSONType", "Timestamp", "utcnow", "as_utc", "NAMING_CONVENTION"]

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION

Snowflake = sa.BigInteger
JSONType: Any = sa.JSON().with_variant(JSONB(), "postgresql")
Timestamp = sa.DateTime(timezone=True)


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(value: datetime | None) -> datetime | None:
    """``value`` with its time zone set to UTC if the database returned it naive."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value
