"""Tackle challenge (p. 7), once per action, against a standing adjacent opponent in front.

Tackle dice; needs the target's Dodge - 2, -1 per team-mate facing the target, +1 per other
opponent facing the tackler, +1 if the target does not hold the ball, -1 from his rear.
Flop: tackler Down, SiM. Fewer: stiff-armed. Exactly: Slide Tackle, both Down. +1: Solid Hit,
target Down. +2: Punishing Hit, Injury at Grit 6. +3 or more: Crippling Hit, Injury at his own
Grit. Only successes beyond three more than needed earn Momentum.
"""

from __future__ import annotations

from .. import effects
from ..actions import pay_for_challenge
from ..context import Ctx
from ..dice import Band, ChallengeRoll, Modifier, Need
from ..state import ActionState, MatchState, Player, Status
from .base import Spec, contact_modifiers, resolve
from .impact import impact
from .injury import injury

__all__ = ["tackle", "tackle_result", "needs_impact", "tackle_need"]


def tackle_result(roll: ChallengeRoll) -> str:
    if roll.band is Band.FLOP:
        return "tackler Down, SiM"
    if roll.band is Band.FAILURE:
        return "stiff-armed"
    return {0: "Slide Tackle", 1: "Solid Hit", 2: "Punishing Hit"}.get(roll.extra, "Crippling Hit")


def _earned(roll: ChallengeRoll) -> int:
    return max(0, roll.extra - 3)


def needs_impact(attacker: Player, target: Player) -> bool:
    return attacker.might < target.might


def tackle_need(state: MatchState, attacker: Player, target: Player) -> Need:
    mods = contact_modifiers(state, attacker, target)
    if state.ball.carrier != target.id:
        mods.append(Modifier("target not holding the ball", 1))
    return Need(target.dodge - 2, tuple(mods))


def tackle(ctx: Ctx, action: ActionState, attacker: Player, target: Player) -> None:
    action.impact_tackle_used = True
    # The Impact is a challenge in its own right: even one that stops the Tackle rules out a
    # later throw of 7+ hexes ("may not move or perform a challenge before or after").
    action.challenged = True
    if needs_impact(attacker, target) and not impact(ctx, action, attacker, target):
        return
    pay_for_challenge(ctx, action)
    need = tackle_need(ctx.state, attacker, target)
    spec = Spec("tackle", attacker.id, "tackle", attacker.tackle, need, target=target.id, earns=_earned)
    roll = resolve(ctx, spec, result=tackle_result)
    if roll.band is Band.FLOP:
        effects.fall(ctx, attacker, Status.DOWN, "flopped a Tackle")
    elif roll.band is Band.FAILURE:
        return
    elif roll.extra == 0:
        effects.fall_together(ctx, [target, attacker], "Slide Tackle")
    elif roll.extra == 1:
        effects.fall(ctx, target, Status.DOWN, "Solid Hit")
    elif roll.extra == 2:
        injury(ctx, target, 6, "Punishing Hit")
    else:
        injury(ctx, target, target.grit, "Crippling Hit")
