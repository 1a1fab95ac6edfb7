"""A coach's (Discord user's) preferences, the same on every server."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["CoachPreferenceBase", "CoachPreference", "CoachPreferencePublic"]


class CoachPreferenceBase(SQLModel):
    #: "auto": follow Discord (the member's or the server's locale); "en" or "fr": chosen.
    language: str = Field(default="auto", max_length=16)
    #: Text instead of pictures, no emoji-only buttons (added by migration 0002).
    screen_reader: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    #: Anything else a coach may set (dice notation, board size, ...).
    settings: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)


class CoachPreference(CoachPreferenceBase, table=True):
    __tablename__ = "coach_preferences"

    user_id: int = Field(primary_key=True, sa_type=Snowflake, sa_column_kwargs={"autoincrement": False})
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class CoachPreferencePublic(CoachPreferenceBase):
    user_id: int
    updated_at: datetime

    _utc = field_validator("updated_at")(as_utc)
