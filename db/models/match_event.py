"""One row of a match's append-only log: what was asked, by whom, the dice drawn and what happened.

``seq`` 0 is the creation row (``kind = "create"``: both team entries, the options and the
dice-off); row ``n`` moved the match from version ``n - 1`` to ``n``. The log alone rebuilds
the match (``service.match_rules.rebuild``). The database refuses UPDATEs of this table (a trigger
made by migration 0001).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["EventKind", "MatchEventBase", "MatchEvent", "MatchEventPublic"]


class EventKind(StrEnum):
    CREATE = "create"  # command = the creation inputs
    COMMAND = "command"  # command = Command.to_dict()
    ANSWER = "answer"  # an Answer to a pending question
    ABANDON = "abandon"  # the match was abandoned (no engine command)
    RESTORE = "restore"  # the snapshot was rebuilt from the log (no engine command)


_KINDS = ", ".join(f"'{k.value}'" for k in EventKind)


class MatchEventBase(SQLModel):
    match_id: int = Field(foreign_key="matches.id", ondelete="CASCADE")
    seq: int
    kind: str = Field(max_length=16)
    command: dict[str, Any] | None = Field(default=None, sa_type=JSONType)
    actor_side: str | None = Field(default=None, max_length=8)
    actor_user_id: int | None = Field(default=None, sa_type=Snowflake)
    #: The fresh dice results this row drew (``Result.dice``).
    dice: list[Any] = Field(default_factory=list, sa_type=JSONType)
    #: ``[event.to_dict(), ...]``.
    events: list[Any] = Field(default_factory=list, sa_type=JSONType)


class MatchEvent(MatchEventBase, table=True):
    __tablename__ = "match_events"
    __table_args__ = (
        sa.UniqueConstraint("match_id", "seq"),
        sa.CheckConstraint(f"kind IN ({_KINDS})", name="kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class MatchEventPublic(MatchEventBase):
    id: int
    created_at: datetime

    _utc = field_validator("created_at")(as_utc)
