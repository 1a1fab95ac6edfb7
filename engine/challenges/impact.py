"""Impact challenge (p. 7): before tackling a player with more Might. Might; needs the target's
Might - 2 with the contact modifiers. Flop: the attacker is Down and a SiM; failure: no Tackle
and one extra pace to continue (the surcharge). Costs no Jog.

Psycho changes its dice, Fear adds one that earns no Momentum, Collision doubles what it earns
(engine.challenges.tackle.plan decides which).
"""

from __future__ import annotations

from .. import effects
from ..abilities import collision
from ..context import Ctx
from ..dice import Band, ChallengeRoll, Need
from ..state import ActionState, MatchState, Player, Status
from .base import Spec, contact_modifiers, resolve

__all__ = ["impact", "impact_need", "IMPACT_RESULT"]

IMPACT_RESULT = {
    Band.FLOP: "attacker Down, SiM", Band.FAILURE: "bounces off", Band.EXACT: "hits hard enough", Band.EXTRA: "hits hard enough",
}


def _extra(roll: ChallengeRoll) -> int:
    return roll.extra


def impact_need(state: MatchState, attacker: Player, target: Player) -> Need:
    return Need(target.might - 2, tuple(contact_modifiers(state, attacker, target)))


def impact(ctx: Ctx, action: ActionState, attacker: Player, target: Player, *, dice: int | None = None,
           fear: bool = False) -> bool:
    """``dice``: Psycho's pool instead of his Might; ``fear``: the target's Fear demands it,
    and "no Momentum counters are earned for this Impact challenge"."""
    need = impact_need(ctx.state, attacker, target)
    base = None if fear else _extra
    spec = Spec("impact", attacker.id, "might", attacker.might if dice is None else dice, need, target=target.id,
                earns=collision.earns(attacker, base))
    roll = resolve(ctx, spec, result=lambda r: IMPACT_RESULT[r.band])
    collision.announce(ctx, attacker, "collision", base, roll)
    if roll.succeeded:
        return True
    if roll.flopped:
        effects.fall(ctx, attacker, Status.DOWN, "flopped an Impact")
    else:
        action.surcharge = True
    return False
