"""Pick-up challenge (p. 6): Skill, 1 success needed, -1 per team-mate and +1 per opponent
facing the player. Compulsory on moving into the ball's hex; any failure bounces the ball one
pace and is a Shift in Momentum."""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import Band, Need
from ..events import BallPickedUp
from ..state import Player, Status
from .base import Spec, facing_modifiers, resolve

__all__ = ["pickup"]

_RESULT = {Band.FLOP: "trips: Down", Band.FAILURE: "fumbled", Band.EXACT: "picked up", Band.EXTRA: "picked up"}


def pickup(ctx: Ctx, player: Player) -> bool:
    assert player.hex is not None
    need = Need(1, facing_modifiers(ctx.state, player))
    roll = resolve(ctx, Spec("pickup", player.id, "skill", player.skill, need), result=lambda r: _RESULT[r.band])
    if roll.succeeded:
        ctx.state.ball.carrier, ctx.state.ball.hex = player.id, None
        ctx.emit(BallPickedUp(player.id))
        action = ctx.state.action
        if action is not None and action.player == player.id:
            action.burst = True  # Burst: "gets possession of the ball from a Pick-up challenge"
        return True
    if roll.flopped:
        effects.fall(ctx, player, Status.DOWN, "flopped a Pick-up")
    else:
        ctx.shift("failed Pick-up")
    _ball.scatter(ctx, player.hex)
    return False
