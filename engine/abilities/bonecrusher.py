"""Bonecrusher (Might/Advanced, p. 12): "The player hits like a ton of bricks often ending an
opponent's career. Opponents roll one less challenge die for any Injury challenge from any
tackle from this player."

A Punishing Hit rolls 5 dice instead of 6, a Crippling Hit his Grit - 1 (never below 0).
"""

from __future__ import annotations

from ..context import Ctx
from ..events import AbilityUsed
from ..state import Player
from . import has

__all__ = ["injury_dice"]


def injury_dice(ctx: Ctx, attacker: Player, target: Player, dice: int) -> int:
    """The dice ``target`` rolls for the Injury ``attacker``'s Tackle caused."""
    if not has(attacker, "bonecrusher"):
        return dice
    ctx.emit(AbilityUsed(attacker.id, "bonecrusher", "one_injury_die_fewer", target.id))
    return max(0, dice - 1)
