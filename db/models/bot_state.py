"""Small facts the bot keeps across restarts and shares between its processes, by key
(e.g. the digest of the slash commands last synced with Discord)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import Timestamp, as_utc, utcnow

__all__ = ["MAX_BOT_STATE_KEY", "BotStateBase", "BotState", "BotStatePublic"]

MAX_BOT_STATE_KEY = 64


class BotStateBase(SQLModel):
    value: str = Field(sa_type=sa.Text)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class BotState(BotStateBase, table=True):
    __tablename__ = "bot_state"

    key: str = Field(primary_key=True, max_length=MAX_BOT_STATE_KEY)


class BotStatePublic(BotStateBase):
    key: str

    _utc = field_validator("updated_at")(as_utc)
