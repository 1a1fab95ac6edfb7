"""Cheapshot (Cheater/Basic, p. 13): "This player may attempt a dishonourable attack on an
opponent. This player may attempt a Tackle challenge (no Impact challenge required) against a
Down or Dazed opponent. Ignore modifiers for Rear facing or lack of Ball holding for this
challenge. Replace the result "Slide Tackle. Both Tackler and Opponent are Down." with "Tackle
has no effect." A Dazed opponent will become Down from a result of "Solid Hit. Opponent is
Down." (you snapped him out of his daze)."

A Tackle on a Down or Dazed opponent is always a Cheapshot, and only one on such a player is.
It ignores Fear (p. 14) and is still the action's one Impact/Tackle.
"""

from __future__ import annotations

from .. import effects
from ..context import Ctx
from ..dice import Modifier
from ..events import AbilityUsed, PlayerFell
from ..refusals import Refusal
from ..state import Player, Status

__all__ = ["refusal", "modifiers", "solid_hit", "RULE", "REAR"]

RULE = "cheapshot"  # Cheapshot (p. 13), a rule id
REAR = "from the rear"  # the label engine.challenges.base.contact_modifiers gives it


def refusal(target: Player) -> Refusal | None:
    if target.standing:
        return Refusal("cheapshot.standing", player=target.name)
    return None


def modifiers(mods: list[Modifier]) -> list[Modifier]:
    """The contact modifiers without the rear one (the ball one is never added)."""
    return [m for m in mods if m.label != REAR]


def solid_hit(ctx: Ctx, attacker: Player, target: Player) -> None:
    """"Opponent is Down" — even a Dazed one, who is snapped out of his daze (effects.fall
    would keep the worse state, G51)."""
    if target.status is Status.DAZED:
        target.status = Status.DOWN
        ctx.emit(AbilityUsed(attacker.id, "cheapshot", "snapped_out_of_daze", target.id))
        ctx.emit(PlayerFell(target.id, Status.DOWN.value, "Solid Hit"))
        return
    effects.fall(ctx, target, Status.DOWN, "Solid Hit")
