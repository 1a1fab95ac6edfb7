"""One player on a team's roster: name, number, position, attributes, XP and what befell him."""

from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from ._common import JSONType

__all__ = ["PlayerStatus", "RosterPlayerBase", "RosterPlayer", "RosterPlayerPublic"]


class PlayerStatus(StrEnum):
    ACTIVE = "active"
    INJURED = "injured"
    DEAD = "dead"
    RETIRED = "retired"


_STATUSES = ", ".join(f"'{s.value}'" for s in PlayerStatus)


class RosterPlayerBase(SQLModel):
    number: int
    name: str = Field(max_length=64)
    #: The engine's position id (``night-elves/imps``).
    position_id: str = Field(max_length=96)
    #: ``{"jog": 6, "might": 2, ...}``: the profile, raised by advances later.
    attributes: dict[str, int] = Field(default_factory=dict, sa_type=JSONType)
    xp: int = 0
    abilities: list[str] = Field(default_factory=list, sa_type=JSONType)
    injuries: list[Any] = Field(default_factory=list, sa_type=JSONType)
    status: str = Field(default=PlayerStatus.ACTIVE.value, max_length=16)


class RosterPlayer(RosterPlayerBase, table=True):
    __tablename__ = "roster_players"
    __table_args__ = (
        sa.UniqueConstraint("team_id", "number"),
        sa.CheckConstraint(f"status IN ({_STATUSES})", name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    #: The team (``Team.players`` is the one-way relationship: a player row never reaches back).
    team_id: int = Field(foreign_key="teams.id", ondelete="CASCADE", index=True)


class RosterPlayerPublic(RosterPlayerBase):
    id: int
    team_id: int
