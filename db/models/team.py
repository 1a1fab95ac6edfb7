"""A team on one server (optionally in a league): coach, team list, name, colours, points."""

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, Relationship, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow
from .roster_player import RosterPlayer, RosterPlayerPublic

__all__ = ["TeamBase", "Team", "TeamPublic"]


class TeamBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, index=True)
    league_id: int | None = Field(default=None, foreign_key="leagues.id", ondelete="SET NULL", index=True)
    coach_id: int = Field(sa_type=Snowflake, index=True)
    #: The engine's team-list id (``night-elves``).
    team_list: str = Field(max_length=64)
    name: str = Field(max_length=64)
    primary_colour: str = Field(default="", max_length=32)
    secondary_colour: str = Field(default="", max_length=32)
    #: League points.
    points: int = Field(default=0)
    #: Support items bought for the team (cheerleaders, potions, ...), by item id.
    support: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)


class Team(TeamBase, table=True):
    __tablename__ = "teams"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    #: The name folded for comparison: two teams on a server may not differ only by case.
    name_key: str = Field(max_length=64)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)

    players: list[RosterPlayer] = Relationship(
        sa_relationship_kwargs={"order_by": "RosterPlayer.number", "cascade": "all, delete-orphan"},
    )


class TeamPublic(TeamBase):
    id: int
    created_at: datetime
    players: list[RosterPlayerPublic] = []

    _utc = field_validator("created_at")(as_utc)
