"""Abilities that double the Momentum a challenge earns (p. 14).

"Bullet (Thrower/Advanced): What a perfect spiral on that throw. This player earns double the
number of Momentum counters from Throw challenges."
"Hotdog (Striker/Advanced): Weaving between tacklers is a fine art this player has mastered.
This player earns double the number of Momentum counters from Disengage challenges."

The doubled count goes through the usual earning (only the acting team earns, the track stops
at 6, G30).
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import AbilityUsed
from ..state import Player
from . import has

__all__ = ["earnings", "announce_doubling"]


def _single(roll: ChallengeRoll) -> int:
    return roll.extra


def _double(roll: ChallengeRoll) -> int:
    return 2 * roll.extra


def earnings(player: Player, ability: str) -> Callable[[ChallengeRoll], int]:
    """The Spec ``earns`` for ``player``'s challenge that ``ability`` (bullet, hotdog) doubles."""
    return _double if has(player, ability) else _single


def announce_doubling(ctx: Ctx, player: Player, ability: str, roll: ChallengeRoll) -> None:
    """Report the doubling once the roll has earned (his team's own roll, with extra successes)."""
    if has(player, ability) and roll.succeeded and roll.extra and player.side == ctx.acting_side:
        ctx.emit(AbilityUsed(player.id, ability, "double_momentum"))
