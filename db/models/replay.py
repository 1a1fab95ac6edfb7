"""A finished match's replay (an animated GIF), drawn once and kept: a finished match never
changes, so its replay is read from here by every process, also after a restart."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from ._common import Timestamp, utcnow

__all__ = ["MAX_REPLAY_LANGUAGE", "KeptReplay"]

MAX_REPLAY_LANGUAGE = 8


class KeptReplay(SQLModel, table=True):
    """One drawing of a finished match's replay: by language and width (what the pictures depend
    on), for the match as it ended (its ``version``, checked when read)."""

    __tablename__ = "kept_replays"

    match_id: int = Field(primary_key=True, foreign_key="matches.id", ondelete="CASCADE")
    language: str = Field(primary_key=True, max_length=MAX_REPLAY_LANGUAGE)
    width: int = Field(primary_key=True)
    version: int
    gif: bytes = Field(sa_type=sa.LargeBinary)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
