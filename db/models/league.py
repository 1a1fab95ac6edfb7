"""A league on one server: a name (unique on that server), its commissioner and settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["LeagueBase", "League", "LeaguePublic"]


class LeagueBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, index=True)
    name: str = Field(max_length=64)
    commissioner_id: int = Field(sa_type=Snowflake)
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    #: The season's number, and the league row of the season before (``db.seasons``).
    season: int = Field(default=1, sa_column_kwargs={"server_default": "1"})
    previous_id: int | None = Field(default=None, foreign_key="leagues.id", ondelete="SET NULL", index=True)
    #: The SHA-256 of the secret the draw's order comes from, shown when the league is created.
    draw_commitment: str = Field(default="", max_length=64)
    #: The draw once made (``service.formats``): seed order, bracket, byes, the secret in clear.
    draw: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)


class League(LeagueBase, table=True):
    __tablename__ = "leagues"
    __table_args__ = (sa.UniqueConstraint("guild_id", "name_key"),)

    id: int | None = Field(default=None, primary_key=True)
    #: The name folded for comparison ("Elf Cup" and "elf  cup" are the same league).
    name_key: str = Field(max_length=64)
    #: The draw's secret, sealed (``db.seeds``) until the schedule reveals it (in ``draw``).
    draw_secret: str = Field(default="", max_length=255)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class LeaguePublic(LeagueBase):
    id: int
    created_at: datetime

    _utc = field_validator("created_at")(as_utc)
