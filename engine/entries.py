"""A team as it takes the field (``TeamEntry``), its players' careers (``PlayerEntry``) and the
team support a team may bring (p. 11).

Read by ``match.new_match``, and by the team-building and tournament rules that check an entry
before a match; its own module so that those rules need not import the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rosters import TeamRoster

__all__ = ["PlayerEntry", "SUPPORT_LIMITS", "TeamEntry"]


#: Team support (p. 11): item id -> the most a team may have.
SUPPORT_LIMITS: dict[str, int] = {"bribed_referee": 1, "cheerleaders": 4, "kegs": 2, "potions": 3, "wizard": 1}


@dataclass(frozen=True)
class PlayerEntry:
    """A league player as he takes the field: what his career has changed from his position's
    profile. ``attributes`` (jog, might, tackle, dodge, skill, grit) replace the profile's when
    lasting injuries lowered them; ``abilities`` are added to the innate ones."""

    abilities: tuple[str, ...] = ()
    attributes: tuple[int, int, int, int, int, int] | None = None


@dataclass(frozen=True)
class TeamEntry:
    """A team as it takes the field: its name and validated roster, optional player names,
    and under the Advanced Rules each player's learned abilities and the team's support."""

    name: str
    roster: TeamRoster
    player_names: tuple[str, ...] = ()
    players: tuple[PlayerEntry | None, ...] = ()  # in roster order, like ``player_names``
    support: tuple[tuple[str, int], ...] = ()  # (item id, how many)
