"""A casual match between two members, as the server's coach ratings read it (``ladder_matches``).

The result of a finished match lives in its state snapshot (a large JSON document); the ladder
needs only who played whom, who won and when, for every such match of a server, on each read.
This row keeps those few facts, written once when the match ends (or when the ladder first
reads a match that ended without its listener). League matches are not kept here: their result
is the fixture's, which a commissioner may correct (``service.ladder`` reads the fixtures).
Matches against the AI coach, between a member and himself, and abandoned matches have no row.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import Snowflake, Timestamp, as_utc

__all__ = ["RatedMatch", "RatedMatchPublic"]


class RatedMatchBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, index=True)
    west_coach_id: int = Field(sa_type=Snowflake)
    east_coach_id: int = Field(sa_type=Snowflake)
    #: ``west``, ``east`` or ``draw`` (the engine's ``MatchState.winner``).
    winner: str = Field(max_length=8)
    #: The side that conceded (a concession is a loss whatever the score), else None.
    conceded: str | None = Field(default=None, max_length=8)
    #: When the match ended (its last write): the ladder rates matches in this order.
    finished_at: datetime = Field(sa_type=Timestamp)


class RatedMatch(RatedMatchBase, table=True):
    __tablename__ = "ladder_matches"
    __table_args__ = (
        sa.CheckConstraint("winner IN ('west', 'east', 'draw')", name="winner"),
    )

    match_id: int = Field(primary_key=True, foreign_key="matches.id", ondelete="CASCADE")


class RatedMatchPublic(RatedMatchBase):
    match_id: int

    _utc = field_validator("finished_at")(as_utc)
