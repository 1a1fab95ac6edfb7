"""Free rolls in chat (not part of any match): the bot asks, the engine's dice answer."""

from __future__ import annotations

import secrets

from engine import ChallengeRoll, Need, SeededDice

__all__ = ["free_roll"]


def free_roll(dice: int, need: int, *, seed: int | None = None, star2: bool = False) -> tuple[ChallengeRoll, int]:
    """Roll ``dice`` Challenge dice needing ``need``; returns the roll and the seed that repeats it."""
    seed = secrets.randbelow(10**9) if seed is None else seed
    return ChallengeRoll.roll(dice, Need(need), SeededDice(seed), star2=star2), seed
