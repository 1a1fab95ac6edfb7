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
from ..state import MatchState, Player
from ..turns import eligible_actors
from . import has

__all__ = ["RULE", "refusal", "double"]

RULE = "Quickling (p. 13)"


def refusal(state: MatchState, p: Player) -> str | None:
    if not has(p, "quickling"):
        return f"{p.name} does not have Quickling"
    if state.committed_actor is not None:
        return "Quickling has already doubled the counters this turn"
    if p not in eligible_actors(state, p.side):
        return f"{p.name} must be able to take the action"
    if state.momentum_side != p.side or not state.momentum:
        return "there are no counters to double"
    return None


def double(ctx: Ctx, p: Player) -> None:
    st = ctx.state
    ctx.emit(AbilityUsed(p.id, "quickling", "double_counters"))
    gain_momentum(ctx, p.side, min(MOMENTUM_CAP, st.momentum * 2) - st.momentum, "quickling")
    st.committed_actor = p.id
