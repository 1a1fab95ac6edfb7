"""One coach's vote (a ballot) to end a match without a result.

The match is abandoned when every coach of it has voted (``db.abandon.vote_abandon``). The
primary key ``(match_id, user_id)`` makes a vote count once however often it is cast.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import Snowflake, Timestamp, as_utc, utcnow

__all__ = ["AbandonBallotBase", "AbandonBallot", "AbandonBallotPublic"]


class AbandonBallotBase(SQLModel):
    voted_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class AbandonBallot(AbandonBallotBase, table=True):
    __tablename__ = "abandon_votes"

    match_id: int = Field(foreign_key="matches.id", ondelete="CASCADE", primary_key=True)
    user_id: int = Field(primary_key=True, sa_type=Snowflake, sa_column_kwargs={"autoincrement": False})


class AbandonBallotPublic(AbandonBallotBase):
    match_id: int
    user_id: int

    _utc = field_validator("voted_at")(as_utc)
