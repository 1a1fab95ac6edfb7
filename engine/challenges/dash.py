"""Dash challenge (p. 8): once per action, after the normal action, spending Momentum.
Dice = counters spent, 1 success needed, no modifiers, no Momentum earned. Flop: Dazed, SiM;
no success: Down, SiM; success: one more challenge, or one hex (with any Disengage) and then a
challenge. The counters left may replace its dice as usual."""

from __future__ import annotations

from .. import effects
from ..context import Ctx
from ..dice import Band, Need
from ..events import DashGranted
from ..state import ActionState, Player, Status
from .base import Spec, resolve, spend_momentum

__all__ = ["dash"]

_RESULT = {Band.FLOP: "Dazed, SiM", Band.FAILURE: "trips: Down, SiM", Band.EXACT: "extends his action", Band.EXTRA: "extends his action"}


def dash(ctx: Ctx, action: ActionState, player: Player, counters: int) -> None:
    spend_momentum(ctx, counters, "Dash")
    roll = resolve(
        ctx, Spec("dash", player.id, "momentum", counters, Need(1), earns=None), result=lambda r: _RESULT[r.band]
    )
    if roll.succeeded:
        action.dash = "granted"
        ctx.emit(DashGranted(player.id))
        return
    action.dash = "done"
    if roll.flopped:
        effects.fall(ctx, player, Status.DAZED, "flopped a Dash")
    else:
        effects.fall(ctx, player, Status.DOWN, "failed a Dash")
        ctx.shift("failed Dash")
