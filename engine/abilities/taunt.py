"""Taunt (Little Guy/Basic, p. 13).

"This player may act out of sequence when his team earns a Shift in Momentum. This player may
attempt to change the facing of an opponent within 6 hexes to be looking in his direction.
Trying to Taunt an opponent is done using a challenge rules-wise just like a Dash (but it
doesn't count as a Dash challenge). If you flop this challenge, you lose all Momentum counters
on the track instead of becoming Down. Not getting enough successes means the Taunt has no
effect. Getting at least one success means the opponent you were attempting to Taunt has his
facing changed to be looking at the Taunting player. You may use the Taunt ability as many
times as you can against as many opponents as you can. Use of Taunt does not count as the
team's action."

The target turns to the side nearest the bearing to the taunter; exactly between two sides,
the taunting coach picks one. Range is hex distance, no line of sight (G41).
"""

from __future__ import annotations

from ..challenges.base import Spec, resolve, spend_momentum
from ..context import Ctx
from ..dice import Band, Need
from ..events import AbilityUsed, MomentumReset, Taunted
from ..hexes import Direction, distance, nearest_direction
from ..refusals import Refusal, ability_term
from ..state import MatchState, Player
from . import has

__all__ = ["RULE", "RANGE", "refusal", "taunt"]

RULE = "taunt"  # Taunt (p. 13), a rule id
RANGE = 6
_RESULT = {Band.FLOP: "loses every counter", Band.FAILURE: "no effect", Band.EXACT: "turns him", Band.EXTRA: "turns him"}


def refusal(state: MatchState, taunter: Player, target: Player, counters: int) -> Refusal | None:
    """Why ``taunter`` cannot taunt ``target`` with ``counters`` now (the window is checked by the caller)."""
    if not has(taunter, "taunt"):
        return Refusal("ability.missing", player=taunter.name, ability=ability_term("taunt"))
    if not taunter.standing:
        return Refusal("taunt.standing", player=taunter.name)
    if target.side == taunter.side:
        return Refusal("target.team_mate", player=target.name)
    if not target.standing:
        return Refusal("taunt.not_standing_opponent", player=target.name)
    assert taunter.hex is not None and target.hex is not None
    if distance(taunter.hex, target.hex) > RANGE:
        return Refusal("taunt.too_far", player=target.name, n=RANGE)
    have = state.momentum if state.momentum_side == taunter.side else 0
    if not 1 <= counters <= have:
        return Refusal("taunt.counters", n=have, n2=have)
    return None


def taunt(ctx: Ctx, taunter: Player, target: Player, counters: int) -> None:
    """Roll the counters like a Dash (1 success needed, no Momentum earned, no SiM)."""
    st = ctx.state
    assert taunter.hex is not None and target.hex is not None
    spend_momentum(ctx, counters, "Taunt")
    spec = Spec("taunt", taunter.id, "momentum", counters, Need(1), target=target.id, earns=None, flop_shifts=False)
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    if roll.flopped:
        ctx.emit(AbilityUsed(taunter.id, "taunt", "lose_counters"))
        if st.momentum:
            st.momentum = 0
            ctx.emit(MomentumReset(st.momentum_side))
    if not roll.succeeded:
        ctx.emit(Taunted(taunter.id, target.id, None))
        return
    sides = nearest_direction(target.hex, taunter.hex)
    facing = sides[0]
    if len(sides) == 2:
        answer = ctx.ask(
            {
                "kind": "taunt_facing",
                "side": taunter.side,
                "player": target.id,
                "taunter": taunter.id,
                "options": [d.name for d in sides],
                "default": sides[0].name,
            }
        )
        facing = Direction[answer]
    target.facing = facing
    ctx.emit(Taunted(taunter.id, target.id, facing.name))
