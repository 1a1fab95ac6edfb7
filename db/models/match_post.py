"""What the bot last posted for a match, so each action updates one message and no board is lost.

``first_version``: the version the message was first posted for; ``shown_version``: the
newest version it shows. An older outcome posted late never replaces a newer one
(``db.posts.save_post``). ``owed``: the post of board ``owed_version`` failed for good; a
sweep claims the row (``claimed_until``, so one process posts it) and posts the match's
board again; the save of that version or a newer one clears the debt.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import Snowflake, Timestamp, as_utc, utcnow

__all__ = ["MatchPostBase", "MatchPost", "MatchPostPublic"]


class MatchPostBase(SQLModel):
    channel_id: int = Field(sa_type=Snowflake)
    #: None while nothing could be posted yet.
    message_id: int | None = Field(default=None, sa_type=Snowflake)
    #: Whose view the message shows (None: the public board).
    side: str | None = Field(default=None, max_length=16)
    first_version: int
    shown_version: int
    header: str = Field(default="", sa_type=sa.Text)
    #: The match is over and its final board is posted: the message is not edited again.
    closed: bool = False
    owed: bool = Field(default=False, index=True)
    owed_since: datetime | None = Field(default=None, sa_type=Timestamp)
    #: The newest version whose post failed: only a save showing it (or newer) pays the debt.
    owed_version: int | None = None
    claimed_until: datetime | None = Field(default=None, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class MatchPost(MatchPostBase, table=True):
    __tablename__ = "match_posts"

    match_id: int = Field(foreign_key="matches.id", ondelete="CASCADE", primary_key=True,
                          sa_column_kwargs={"autoincrement": False})


class MatchPostPublic(MatchPostBase):
    match_id: int

    _utc = field_validator("owed_since", "claimed_until", "updated_at")(as_utc)
