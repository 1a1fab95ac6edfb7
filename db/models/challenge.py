"""A pending challenge: one member asked another to play in a channel, and waits for an answer.

At most one per channel (a unique constraint, so two members challenging at the same instant
cannot both be kept). A challenge lapses at ``expires_at``: it is then ignored and replaced by
the next one. Ids are never reused (SQLite ``AUTOINCREMENT``), so a button naming an old
challenge's id and ``version`` never answers a newer one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

__all__ = ["MAX_CHALLENGE_TEAM", "ChallengeBase", "Challenge", "ChallengePublic"]

#: The challenger's team as he typed it (a stored team's name or id, or a team list).
MAX_CHALLENGE_TEAM = 100


class ChallengeBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, index=True)
    channel_id: int = Field(sa_type=Snowflake)
    challenger_id: int = Field(sa_type=Snowflake)
    opponent_id: int = Field(sa_type=Snowflake)
    team: str = Field(max_length=MAX_CHALLENGE_TEAM)
    #: ``RuleOptions.to_dict()`` of the match to be played.
    options: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    expires_at: datetime = Field(sa_type=Timestamp)
    version: int = 0
    #: SHA-256 of the match's dice secret, posted with the challenge ("" for challenges made
    #: before dice secrets were committed at the challenge).
    dice_commitment: str = Field(default="", max_length=64)
    #: The challenger's entropy: his words' part (``c-`` and 16 hex digits) or his challenge
    #: interaction's id (``c`` and the id); "" likewise.
    entropy: str = Field(default="", max_length=64)
    #: The answer's entropy, stored (and committed) before the seed is computed: the accepting
    #: coach's (``a…``), or against the AI coach the challenger's Start (``s…``). "" until then.
    accept_entropy: str = Field(default="", max_length=64)
    #: A challenge to the bot: the AI coach's level and its team list ("" for a member's challenge).
    ai_level: str = Field(default="", max_length=16)
    ai_team: str = Field(default="", max_length=64)


class Challenge(ChallengeBase, table=True):
    __tablename__ = "challenges"
    __table_args__ = (sa.UniqueConstraint("channel_id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True)
    #: The dice secret itself, sealed (``db.seeds``): read only by the accept that uses it up.
    dice_secret: str = Field(default="", max_length=255)


class ChallengePublic(ChallengeBase):
    id: int

    _utc = field_validator("created_at", "expires_at")(as_utc)
