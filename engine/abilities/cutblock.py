"""Cutblock (Hunter/Basic, p. 13): "If this player has moved at least one hex first, he may
perform a Tackle challenge against any higher Might player without needing to roll an Impact
challenge. A player using Cutblock is placed Down regardless of the results of the Tackle
challenge."

He goes Down once the Tackle is resolved, whatever its result; a carrier drops the ball. A
Tackle the target's Fear Impact stopped was never rolled, so it does not put him Down.
"""

from __future__ import annotations

from .. import effects
from ..context import Ctx
from ..refusals import Refusal
from ..state import ActionState, Player, Status

__all__ = ["refusal", "after_tackle", "RULE"]

RULE = "cutblock"  # Cutblock (p. 13), a rule id


def refusal(action: ActionState, attacker: Player, target: Player) -> Refusal | None:
    if not action.moved:
        return Refusal("cutblock.moved", player=attacker.name)
    if target.might <= attacker.might:
        return Refusal("cutblock.might", player=target.name, n=target.might, player2=attacker.name, n2=attacker.might)
    return None


def after_tackle(ctx: Ctx, attacker: Player) -> None:
    if attacker.standing:
        effects.fall(ctx, attacker, Status.DOWN, "Cutblock")
