"""Server (guild) settings: one row per Discord server that uses the bot."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["GuildSettingsBase", "GuildSettings", "GuildSettingsPublic"]


class GuildSettingsBase(SQLModel):
    #: "auto": follow Discord (the member's or the server's locale); "en" or "fr": chosen.
    language: str = Field(default="auto", max_length=16)
    #: Open-ended server options (default turn deadline, rule options for new matches, ...).
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)


class GuildSettings(GuildSettingsBase, table=True):
    __tablename__ = "guild_settings"

    guild_id: int = Field(primary_key=True, sa_type=Snowflake, sa_column_kwargs={"autoincrement": False})
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class GuildSettingsPublic(GuildSettingsBase):
    guild_id: int
    created_at: datetime
    updated_at: datetime

    _utc = field_validator("created_at", "updated_at")(as_utc)
