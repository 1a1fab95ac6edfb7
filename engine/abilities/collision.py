"""Collision (Hunter/Advanced, p. 13): "Nothing psyches this player more than a crunching
tackle. This player earns double the number of Momentum counters from Impact and Tackle
challenges."

Doubling wraps a challenge's ``Spec.earns``; a challenge that earns nothing (Fear's Impact)
stays at nothing. Knockback reuses ``doubled`` for Shoves.
"""

from __future__ import annotations

from collections.abc import Callable

from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import AbilityUsed
from ..state import Player
from . import has

__all__ = ["earns", "doubled", "announce"]

Earns = Callable[[ChallengeRoll], int] | None


def doubled(base: Earns) -> Earns:
    if base is None:
        return None
    return lambda roll: 2 * base(roll)


def earns(player: Player, base: Earns) -> Earns:
    """What his Impact or Tackle earns: double with Collision."""
    return doubled(base) if has(player, "collision") else base


def announce(ctx: Ctx, player: Player, ability_id: str, base: Earns, roll: ChallengeRoll) -> None:
    """Say so when the doubling earned him something (only the acting team earns, G24)."""
    if base is None or not has(player, ability_id) or player.side != ctx.acting_side or not roll.succeeded:
        return
    if base(roll) > 0:
        ctx.emit(AbilityUsed(player.id, ability_id, "double_momentum"))
