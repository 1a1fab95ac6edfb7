"""Clipping (Defender/Basic, p. 13): "Getting away from this player is very difficult. Any
opponent with less Might than this player must roll an Impact challenge first to break free and
attempt a Disengage challenge (the opponent may use his Dodge attribute instead of Might for
this special Impact challenge). If you fail the Impact challenge without flopping, you may
spend a pace of Jog to attempt the Impact challenge again to break away until you run out of
Jog."

Before a Disengage, when a standing Clipper with more Might than the mover faces him, the mover
rolls one Impact against the highest-Might such Clipper (G44): N = the Clipper's Might - 2 with
the contact modifiers, the mover as attacker. He rolls the higher of his Might and Dodge (Might
on a tie). Flop: Down and a SiM, like any Impact flop. Failure: his coach may pay a pace to roll
again (``clipping_retry``) while a pace is left beyond what the rest of his path needs;
otherwise his move stops in his hex, standing. Success: the Disengage follows.
"""

from __future__ import annotations

from .. import effects
from ..challenges.base import Spec, resolve
from ..challenges.impact import IMPACT_RESULT, impact_need
from ..context import Ctx
from ..dice import ChallengeRoll
from ..events import AbilityUsed
from ..state import ActionState, MatchState, Player, Status
from . import collision, enrage, has
from .slippery import slippery_need

__all__ = ["clipper", "break_free"]


def clipper(state: MatchState, mover: Player, opponents: list[Player]) -> Player | None:
    """The Clipper he must break free of, among the standing opponents facing him."""
    clippers = [o for o in opponents if o.standing and has(o, "clipping") and o.might > mover.might]
    return max(clippers, key=lambda o: o.might) if clippers else None


def _extra(roll: ChallengeRoll) -> int:
    return roll.extra


def break_free(ctx: Ctx, action: ActionState, mover: Player, opponents: list[Player], *, reserve: int) -> bool:
    """True when he may go on to the Disengage. ``reserve``: the Jog the rest of his path
    (this step included) needs, which a retry may not eat into."""
    c = clipper(ctx.state, mover, opponents)
    if c is None:
        return True
    ctx.emit(AbilityUsed(c.id, "clipping", "impact_to_break_free", mover.id))
    enrage.provoke(ctx, c)
    attribute = "dodge" if mover.dodge > mover.might else "might"
    earns = collision.earns(mover, _extra)
    while True:
        need = impact_need(ctx.state, mover, c)
        if attribute == "dodge":
            # a Dodge challenge: Slippery ignores one opponent (every one under the French text)
            need = slippery_need(mover, need, every="fr_slippery" in ctx.state.options.variants)
        spec = Spec("impact", mover.id, attribute, mover.attribute(attribute), need, target=c.id, earns=earns)
        roll = resolve(ctx, spec, result=lambda r: IMPACT_RESULT[r.band])
        collision.announce(ctx, mover, "collision", _extra, roll)
        if roll.succeeded:
            return True
        if roll.flopped:
            effects.fall(ctx, mover, Status.DOWN, "flopped an Impact")
            return False
        if action.jog_left - 1 < reserve:
            return False
        answer = ctx.ask({
            "kind": "clipping_retry", "side": mover.side, "player": mover.id, "ability": "clipping",
            "options": ["retry", "stay"], "default": "stay",
        })
        if answer != "retry":
            return False
        action.jog_left -= 1
