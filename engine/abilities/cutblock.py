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
from ..state import ActionState, Player, Status

__all__ = ["refusal", "after_tackle", "RULE"]

RULE = "Cutblock (p. 13)"


def refusal(action: ActionState, attacker: Player, target: Player) -> str | None:
    if not action.moved:
        return f"{attacker.name} must have moved at least one hex this action before a Cutblock"
    if target.might <= attacker.might:
        return (
            f"a Cutblock is against a player with more Might: {target.name} has Might {target.might}, "
            f"{attacker.name} {attacker.might}"
        )
    return None


def after_tackle(ctx: Ctx, attacker: Player) -> None:
    if attacker.standing:
        effects.fall(ctx, attacker, Status.DOWN, "Cutblock")
