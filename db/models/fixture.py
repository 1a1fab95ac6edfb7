"""One match-up of a league's schedule: who plays whom in which round, where, and the result.

A fixture is ``scheduled`` until one of its coaches starts it (``playing``: ``match_id`` and
``channel_id`` say where), then ``played`` once the match is over and its result recorded. The
commissioner may correct a result; every change is in ``league_audit``. ``lineup`` keeps, per
side, the roster players' ids in the order the engine numbered them (``w1``, ``w2``, ...), so
experience and injuries reach the right roster rows even if the roster changes later.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["FixtureStatus", "FixtureBase", "Fixture", "FixturePublic"]


class FixtureStatus(StrEnum):
    SCHEDULED = "scheduled"
    PLAYING = "playing"
    PLAYED = "played"


_STATUSES = ", ".join(f"'{s.value}'" for s in FixtureStatus)


class FixtureBase(SQLModel):
    league_id: int = Field(foreign_key="leagues.id", ondelete="CASCADE", index=True)
    round: int
    home_team_id: int = Field(foreign_key="teams.id", ondelete="CASCADE")
    away_team_id: int = Field(foreign_key="teams.id", ondelete="CASCADE")
    status: str = Field(default=FixtureStatus.SCHEDULED.value, max_length=16)
    match_id: int | None = Field(default=None, foreign_key="matches.id", ondelete="SET NULL", index=True)
    channel_id: int | None = Field(default=None, sa_type=Snowflake)
    lineup: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    home_score: int | None = None
    away_score: int | None = None
    home_casualties: int = 0
    away_casualties: int = 0
    #: ``home`` / ``away`` when a team conceded (or forfeited); ``both`` when both forfeited.
    conceded_by: str | None = Field(default=None, max_length=8)
    played_at: datetime | None = Field(default=None, sa_type=Timestamp)
    #: A knockout tie's place in its round (0 at the top of the bracket); None in other formats.
    slot: int | None = None
    #: Who went through a knockout tie, once decided, and why (``score``, ``conceded``,
    #: ``higher_seed``, ``coin``; ``replay``: drawn, played again in a new fixture).
    winner_team_id: int | None = None
    ruling: str | None = Field(default=None, max_length=16)
    #: SHA-256 of the match's dice secret and of the post-match potion dice's secret, drawn and
    #: published with the schedule, before anybody can add entropy ("" for fixtures drawn before).
    dice_commitment: str = Field(default="", max_length=64)
    potion_commitment: str = Field(default="", max_length=64)
    #: The dice commitment a public post of the bot last showed for this fixture (the schedule,
    #: ``/league fixtures``, or the post ``/league play`` makes for a re-drawn fixture): the
    #: fixture is played only when this is its current ``dice_commitment``.
    posted_commitment: str = Field(default="", max_length=64)
    #: When the fixture must be played by (its round's deadline, or its own once extended);
    #: where its round is reminded; when the reminder and the notice that it passed were sent
    #: (``db.deadlines``: each claimed once).
    deadline: datetime | None = Field(default=None, sa_type=Timestamp, index=True)
    deadline_channel_id: int | None = Field(default=None, sa_type=Snowflake)
    reminded_at: datetime | None = Field(default=None, sa_type=Timestamp)
    lapsed_at: datetime | None = Field(default=None, sa_type=Timestamp)


class Fixture(FixtureBase, table=True):
    __tablename__ = "league_fixtures"
    __table_args__ = (sa.CheckConstraint(f"status IN ({_STATUSES})", name="status"),)

    id: int | None = Field(default=None, primary_key=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    #: The secrets behind the two commitments, sealed (``db.seeds``): never in a public model.
    dice_secret: str = Field(default="", max_length=255)
    potion_secret: str = Field(default="", max_length=255)


class FixturePublic(FixtureBase):
    id: int
    created_at: datetime
    updated_at: datetime

    _utc = field_validator("created_at", "updated_at", "played_at", "deadline", "reminded_at", "lapsed_at")(as_utc)

    @property
    def played(self) -> bool:
        return self.status == FixtureStatus.PLAYED
