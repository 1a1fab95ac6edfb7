"""A match in one channel: who plays, the engine state snapshot and its version.

The snapshot is a cache of the event log (``MatchEvent``): ``version`` counts the log rows
after the creation row, and every write bumps it with ``UPDATE ... WHERE version = ?``
(optimistic concurrency, see ``db.matches``). At most one match per channel is ``active``:
a partial unique index says so, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from pydantic import PrivateAttr, field_validator
from sqlmodel import Field, SQLModel

from ._common import JSONType, Snowflake, Timestamp, as_utc, utcnow

if TYPE_CHECKING:
    from engine import MatchState

__all__ = ["MatchStatus", "MatchBase", "Match", "MatchPublic", "ACTIVE_CHANNEL_INDEX"]


class MatchStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


_STATUSES = ", ".join(f"'{s.value}'" for s in MatchStatus)
#: The partial unique index behind "one active match per channel".
ACTIVE_CHANNEL_INDEX = "uq_matches_active_channel"
_ACTIVE = sa.text("status = 'active'")


class MatchBase(SQLModel):
    guild_id: int = Field(sa_type=Snowflake, index=True)
    channel_id: int = Field(sa_type=Snowflake, index=True)
    west_coach_id: int = Field(sa_type=Snowflake)
    east_coach_id: int = Field(sa_type=Snowflake)
    west_team_id: int | None = Field(default=None, foreign_key="teams.id", ondelete="SET NULL")
    east_team_id: int | None = Field(default=None, foreign_key="teams.id", ondelete="SET NULL")
    west_team_name: str = Field(max_length=64)
    east_team_name: str = Field(max_length=64)
    #: ``RuleOptions.to_dict()``.
    options: dict[str, Any] = Field(default_factory=dict, sa_type=JSONType)
    status: str = Field(default=MatchStatus.ACTIVE.value, max_length=16)
    #: Who the match waits on (``west``/``east``), and that coach's user id.
    deciding_side: str | None = Field(default=None, max_length=8)
    deciding_user_id: int | None = Field(default=None, sa_type=Snowflake)
    #: When the deciding coach's time runs out (added by migration 0002).
    deadline: datetime | None = Field(default=None, sa_type=Timestamp, index=True)
    #: SHA-256 (hex) of the dice secret, published before the coaches' entropy existed.
    seed_commitment: str = Field(max_length=64)
    #: The coaches' entropy joined to the secret (``engine.dice.commit``), public from the
    #: start: "" for matches whose seed is the secret alone (before entropy, or against the AI
    #: in the console).
    dice_entropy: str = Field(default="", max_length=64)
    #: The rules edition the match plays (``engine.state.RULES_EDITION`` when it was created;
    #: also in ``options``, which the engine reads): 1 for matches from before editions existed.
    #: Added by migration 0007, for the operator's queries and the metrics.
    rules_edition: int = Field(default=1, sa_column_kwargs={"server_default": sa.text("1")})
    #: The member who owned each side's stored team when the match started (its ``coach_id``;
    #: None for a team list's team): he may end the match (``service.authority.abandon_right``)
    #: even when he does not coach it. Added by migration 0008, which fills it in for the
    #: matches already stored from their teams' owners.
    west_owner_id: int | None = Field(default=None, sa_type=Snowflake)
    east_owner_id: int | None = Field(default=None, sa_type=Snowflake)


class Match(MatchBase, table=True):
    __tablename__ = "matches"
    __table_args__ = (
        sa.Index(ACTIVE_CHANNEL_INDEX, "channel_id", unique=True, sqlite_where=_ACTIVE, postgresql_where=_ACTIVE),
        sa.CheckConstraint(f"status IN ({_STATUSES})", name="status"),
        sa.CheckConstraint("deciding_side IS NULL OR deciding_side IN ('west', 'east')", name="deciding_side"),
    )

    id: int | None = Field(default=None, primary_key=True)
    #: ``MatchState.to_dict()``.
    state: dict[str, Any] = Field(sa_type=JSONType)
    version: int = Field(default=0)
    #: The secret the match's dice derive from (joined with ``dice_entropy``, ``HashDice``):
    #: sealed while the match is played (``db.seeds``), in clear once it is over.
    dice_seed: str = Field(max_length=128)
    created_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=Timestamp)


class MatchPublic(MatchBase):
    """A match as callers see it: the state snapshot parsed, the seed only once it is over."""

    id: int
    version: int
    state: dict[str, Any]
    #: The dice seed (secret + "+" + entropy), revealed once the match is over (None while active).
    seed: str | None = None
    created_at: datetime
    updated_at: datetime

    _utc = field_validator("created_at", "updated_at", "deadline")(as_utc)
    #: The sealed dice secret as read with the rest, while the match is active (``db.matches``):
    #: a write right after the read opens it without reading the row again. Never dumped.
    _seal: Any = PrivateAttr(default=None)
    #: The snapshot this object's ``engine_state`` parsed, and what it gave (never dumped).
    _parsed: Any = PrivateAttr(default=None)

    @property
    def active(self) -> bool:
        return self.status == MatchStatus.ACTIVE

    def engine_state(self) -> MatchState:
        """The snapshot as the engine's ``MatchState``, parsed once per snapshot: a slash command
        read its state three times (its options, the coach's side, the command), and the engine
        never changes a state it is given (a caller must not either)."""
        from engine import MatchState

        parsed = self._parsed
        if parsed is None or parsed[0] is not self.state:
            parsed = self._parsed = (self.state, MatchState.from_dict(self.state))
        return parsed[1]
