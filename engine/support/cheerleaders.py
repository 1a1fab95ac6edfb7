"""Cheerleaders (Team support, p. 11).

"Each Cheerleader may be used once per Test at the beginning of an action to add one Momentum
counter to the Momentum track." The acting team cheers (``Cheer``) before its player has done
anything: moved, stood up, challenged or Dashed (turning on the spot is free and does not
count). Several may cheer at the start of the same action. The per-Test reset is in
``turns.start_test``.
"""

from __future__ import annotations

from ..challenges.base import MOMENTUM_CAP, gain_momentum
from ..context import Ctx
from ..events import SupportUsed
from ..field import Side
from ..refusals import Refusal
from ..state import MatchState

__all__ = ["refusal", "cheer"]


def refusal(state: MatchState, side: Side) -> Refusal | None:
    """Why ``side`` may not cheer now (its action is under way), or None."""
    team = state.teams[side]
    if not team.support.get("cheerleaders"):
        return Refusal("cheer.none")
    if not team.available("cheerleaders"):
        return Refusal("cheer.used")
    a = state.action
    assert a is not None
    if a.moved or a.stood_up or a.challenged or a.dash != "none" or a.long_throw or a.free_challenge_used:
        return Refusal("cheer.too_late")
    if state.momentum_side == side and state.momentum >= MOMENTUM_CAP:
        return Refusal("cheer.track_full", n=MOMENTUM_CAP)
    return None


def cheer(ctx: Ctx, side: Side) -> None:
    team = ctx.state.teams[side]
    team.used["cheerleaders"] = team.used.get("cheerleaders", 0) + 1
    ctx.emit(SupportUsed(side, "cheerleaders", None, team.available("cheerleaders")))
    gain_momentum(ctx, side, 1, "cheerleader")
