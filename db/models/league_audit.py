"""The league's audit trail: every recorded or corrected result and settings change, by whom."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["LeagueAuditBase", "LeagueAudit", "LeagueAuditPublic"]


class LeagueAuditBase(SQLModel):
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    fixture_id: int | None = Field(default=None, foreign_key="league_fixtures.id", ondelete="SET NULL")
    #: Who did it (None: the bot, when a match ended).
    actor_id: int | None = Field(default=None, sa_type=Snowflake)
    #: ``result_recorded``, ``result_corrected``, ``settings_changed``, ``schedule_made`` ...
    action: str = Field(max_length=32)
    #: What changed: ``{"before": ..., "after": ...}``.
    detail: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    reason: str = Field(default="", max_length=200)


class LeagueAudit(LeagueAuditBase, table=True):
    __tablename__ = "league_audit"

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class LeagueAuditPublic(LeagueAuditBase):
    id: int
    created_at: datetime

    _utc = field_validator("created_at")(as_utc)
