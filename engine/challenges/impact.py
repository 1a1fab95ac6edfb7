"""Impact challenge (p. 7): before tackling a player with more Might. Might; needs the target's
Might - 2 with the contact modifiers. Flop: the attacker is Down and a SiM; failure: no Tackle
and one extra pace to continue (the surcharge). Costs no Jog."""

from __future__ import annotations

from .. import effects
from ..context import Ctx
from ..dice import Band, Need
from ..state import ActionState, MatchState, Player, Status
from .base import Spec, contact_modifiers, resolve

__all__ = ["impact", "impact_need"]

_RESULT = {Band.FLOP: "attacker Down, SiM", Band.FAILURE: "bounces off", Band.EXACT: "hits hard enough", Band.EXTRA: "hits hard enough"}


def impact_need(state: MatchState, attacker: Player, target: Player) -> Need:
    return Need(target.might - 2, tuple(contact_modifiers(state, attacker, target)))


def impact(ctx: Ctx, action: ActionState, attacker: Player, target: Player) -> bool:
    need = impact_need(ctx.state, attacker, target)
    roll = resolve(
        ctx, Spec("impact", attacker.id, "might", attacker.might, need, target=target.id), result=lambda r: _RESULT[r.band]
    )
    if roll.succeeded:
        return True
    if roll.flopped:
        effects.fall(ctx, attacker, Status.DOWN, "flopped an Impact")
    else:
        action.surcharge = True
    return False
