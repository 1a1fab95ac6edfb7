"""The rules as the console looks them up: the field and its hexes, the dice's exact odds and a
seeded challenge roll, the team lists and a Basic lineup's check (``elfball field``, ``odds``,
``roll``, ``teams``, ``team``, ``intro``).

Everything here is the engine's own answer, given through the service so the console needs no
other floor; nothing is copied, so what the console shows cannot drift from the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import (
    MAX_DICE,
    MAX_MOMENTUM,
    MOMENTUM_CAP,
    RULE_EXTRA_PLAYERS,
    RULE_OPTIONAL_TEAMS,
    ChallengeRoll,
    Direction,
    ExtraPlayer,
    HexInfo,
    PlainStringifier,
    RosterError,
    RosterOptions,
    SeededDice,
    TeamList,
    TeamRoster,
    TeamValidationError,
    all_team_lists,
    extra_players,
    odds,
    outcome_text,
    standard_field,
    team_list,
    validate_basic_team,
)

__all__ = [
    # the field
    "Direction",
    "HexInfo",
    "standard_field",
    # the dice
    "MAX_DICE",
    "MAX_MOMENTUM",
    "MOMENTUM_CAP",
    "SeededRoll",
    "odds",
    "roll_challenge",
    # the team lists
    "RULE_EXTRA_PLAYERS",
    "RULE_OPTIONAL_TEAMS",
    "ExtraPlayer",
    "RosterError",
    "RosterOptions",
    "TeamList",
    "TeamRoster",
    "TeamValidationError",
    "all_team_lists",
    "extra_players",
    "team_list",
    "validate_basic_team",
]


@dataclass(frozen=True)
class SeededRoll:
    """A challenge rolled with ``SeededDice(seed)``: the roll, its dice and outcome in plain
    text, and every result drawn (JSON), so the roll can be repeated and checked."""

    seed: int
    roll: ChallengeRoll
    faces: str
    outcome: str
    record: list[Any]


def roll_challenge(dice: int, need: int, seed: int, *, star2: bool = False) -> SeededRoll:
    """Roll ``dice`` Challenge dice needing ``need`` successes (below 1 counts as 1), stars
    rolling again (or counting 2 with ``star2``)."""
    source = SeededDice(seed)
    roll = ChallengeRoll.roll(dice, need, source, star2=star2)
    return SeededRoll(seed, roll, PlainStringifier().dice(roll), outcome_text(roll), source.record_json())
