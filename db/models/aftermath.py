"""What one team still has to decide after a league match: potions, lasting injuries, abilities.

One row per fixture side. ``state`` is the match's final state, then changed by any potion
drunk after the last goal (so the injuries applied are the ones left after the potions).
The potion dice come from ``seed + "+" + entropy`` (``engine.dice.commit``): ``seed`` is the
fixture's potion secret, committed in public with the schedule (``seed_commitment``), sealed
until the report is done, then in clear; ``entropy`` is the match's entropy and the side.
Reports made before potions were committed have neither. ``version`` guards every change
(``UPDATE ... WHERE version = ?``), so a double click or a stale panel changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["AftermathBase", "Aftermath", "AftermathPublic"]


class AftermathBase(SQLModel):
    fixture_id: int = Field(foreign_key="league_fixtures.id", ondelete="CASCADE", index=True)
    side: str = Field(max_length=8)
    team_id: int = Field(foreign_key="teams.id", ondelete="CASCADE", index=True)
    coach_id: int = Field(sa_type=Snowflake)
    #: The coach is done with potions (or the team had none to use).
    potions_done: bool = False
    #: Lasting injuries waiting for the coach's choice: ``[{"player": roster id, "attributes": [...]}]``.
    pending: list[Any] = Field(default_factory=list, sa_type=JSONType)
    #: What was applied to the roster, one line each (for the post-match report).
    applied: list[Any] = Field(default_factory=list, sa_type=JSONType)
    #: Roster ids whose ability offer the coach put off ("later").
    deferred: list[Any] = Field(default_factory=list, sa_type=JSONType)
    #: Potions and injuries are settled: the team may play again.
    done: bool = False
    version: int = 0
    #: SHA-256 of the potion dice's secret, public from the schedule on ("" for old reports).
    seed_commitment: str = Field(default="", max_length=64)
    entropy: str = Field(default="", max_length=64)


class Aftermath(AftermathBase, table=True):
    __tablename__ = "league_aftermaths"
    __table_args__ = (
        sa.UniqueConstraint("fixture_id", "side"),
        sa.CheckConstraint("side IN ('west', 'east')", name="side"),
    )

    id: int | None = Field(default=None, primary_key=True)
    state: dict[str, Any] = Field(sa_type=JSONType)
    seed: str = Field(max_length=128)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class AftermathPublic(AftermathBase):
    id: int
    state: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    _utc = field_validator("created_at", "updated_at")(as_utc)
