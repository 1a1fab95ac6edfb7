"""Focused (Skill/Advanced, p. 13).

"The player has ice water in his veins and is able to ignore opponents around him. This player
may ignore one opposing player modifying the number of successes of any challenge using the
Skill attribute."

The Skill challenges (Pick-up, Throw, Catch, Intercept) share ``facing_modifiers``; its "+N
opponents facing" is the only term counting opposing players, so Focused cancels one of them
with a -1 term, as Slippery does for Dodge.
"""

from __future__ import annotations

from ..dice import Modifier, Need
from ..state import Player
from . import has
from .slippery import ignore_one_opponent

__all__ = ["focused_modifiers"]


def focused_modifiers(player: Player, mods: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    if not has(player, "focused"):
        return mods
    return ignore_one_opponent(Need(0, mods), "Focused: one opponent ignored").modifiers
