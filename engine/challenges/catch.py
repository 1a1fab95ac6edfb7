"""Catch challenge (p. 7): Skill, 2 successes needed, -1 per team-mate and +1 per opponent
facing the catcher. A player may decline a loose ball (it then bounces as a dropped ball); the
receiver of a wobbly throw must try, unless he stands next to the thrower."""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import Band, Need
from ..events import BallCaught, CatchDeclined
from ..state import Player, Status
from .base import Spec, facing_modifiers, resolve

__all__ = ["attempt_catch"]

_RESULT = {Band.FLOP: "trips: Down", Band.FAILURE: "failed catch", Band.EXACT: "caught", Band.EXTRA: "caught"}


def give(ctx: Ctx, player: Player, how: str) -> None:
    st = ctx.state
    st.ball.carrier, st.ball.hex = player.id, None
    ctx.emit(BallCaught(player.id, how))


def attempt_catch(ctx: Ctx, player: Player, kind: str, *, fail_scatters: bool = True, depth: int = 0) -> bool:
    """``kind``: "automatic" (adjacent wobbly pass), "perfect spiral", "wobbly" (must roll) or
    "loose" (may decline). On a failure the ball bounces one pace from the catcher, unless
    ``fail_scatters`` is off (a catch on a white line: the line bounces it instead)."""
    if kind in ("automatic", "perfect spiral"):
        give(ctx, player, kind)
        return True
    if kind == "loose":
        choice = ctx.ask(
            {
                "kind": "catch",
                "side": player.side,
                "player": player.id,
                "options": ["catch", "decline"],
                "default": "catch",
            }
        )
        if choice == "decline":
            ctx.emit(CatchDeclined(player.id))
            if fail_scatters:
                assert player.hex is not None
                _ball.scatter(ctx, player.hex, depth=depth)
            return False
    need = Need(2, facing_modifiers(ctx.state, player))
    roll = resolve(ctx, Spec("catch", player.id, "skill", player.skill, need), result=lambda r: _RESULT[r.band])
    if roll.succeeded:
        give(ctx, player, "catch")
        return True
    if roll.flopped:
        effects.fall(ctx, player, Status.DOWN, "flopped a Catch")
    if fail_scatters:
        assert player.hex is not None
        _ball.scatter(ctx, player.hex, depth=depth)
    return False
