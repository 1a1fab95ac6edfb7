"""Quickling (Little Guy/Advanced, p. 13).

"If this player takes his action after a Shift in Momentum, he may double the current number
of Momentum counters (this may occur before use of the Taunt ability)."

Doubling is declared in the out-of-sequence window after the other team's SiM, before the team
picks its player; it commits him: only he may then start the team's action. Once per turn;
the track still holds at most 6 counters.
"""

from __future__ import annotations

from ..challenges.base import MOMENTUM_CAP, gain_momentum
from ..context import Ctx
from ..events import AbilityUsed
from ..refusals import Refusal, ability_term
from ..state import MatchState, Player
from ..turns import eligible_actors
from . import has

__all__ = ["RULE", "refusal", "double"]

RULE = "quickling"  # Quickling (p. 13), a rule id


def refusal(state: MatchState, p: Player) -> Refusal | None:
    if not has(p, "quickling"):
        return Refusal("ability.missing", player=p.name, ability=ability_term("quickling"))
    if state.committed_actor is not None:
        return Refusal("quickling.already")
    if p not in eligible_actors(state, p.side):
        return Refusal("quickling.must_be_able", player=p.name)
    if state.momentum_side != p.side or not state.momentum:
        return Refusal("quickling.no_counters")
    return None


def double(ctx: Ctx, p: Player) -> None:
    st = ctx.state
    ctx.emit(AbilityUsed(p.id, "quickling", "double_counters"))
    gain_momentum(ctx, p.side, min(MOMENTUM_CAP, st.momentum * 2) - st.momentum, "quickling")
    st.committed_actor = p.id
