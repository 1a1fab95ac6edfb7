"""Catch challenge (p. 7): Skill, 2 successes needed, -1 per team-mate and +1 per opponent
facing the catcher. "A standing player who has a ball land in his hex from a wobbly throw or
bouncing ball may attempt to perform a Catch challenge ... A player can choose to automatically
fail a catch roll": whoever would roll a Catch may decline it (the ball then bounces as a dropped
ball). Rules edition 3; editions 1 and 2 made the receiver of a wobbly throw roll. A perfect
spiral, or a wobbly pass to a player next to the thrower, is caught with no roll to fail.

French 0.0.6 (``fr_catch_sim``, rules edition 2): the Catch footnote "RdS si l'échec a lieu
pendant votre tour ou si un adversaire récupère la balle à la fin de l'action" has no throw
condition, so a catch the acting team fails (or declines) during its action, after which the
ball comes to rest with an opponent, is a SiM, a loose ball too (``footnote_check``)."""

from __future__ import annotations

from ..context import Ctx
from ..dice import Band, Need
from ..events import BallCaught, CatchDeclined
from ..falling import knock_down
from ..options import variant
from ..state import Player, Status
from .base import Spec, facing_modifiers, resolve

__all__ = ["attempt_catch", "footnote_check"]

_RESULT = {Band.FLOP: "trips: Down", Band.FAILURE: "failed catch", Band.EXACT: "caught", Band.EXTRA: "caught"}


def give(ctx: Ctx, player: Player, how: str) -> None:
    st = ctx.state
    st.ball.carrier, st.ball.hex = player.id, None
    ctx.emit(BallCaught(player.id, how))


def attempt_catch(ctx: Ctx, player: Player, kind: str) -> bool:
    """``kind``: "automatic" (adjacent wobbly pass), "perfect spiral", "wobbly" or "loose" (a
    miss, a scatter, a bounce). Returns whether he caught it; on a decline or a failure the ball
    moves on from him, which ``ball.py`` resolves (it scatters one pace, or a white line
    bounces it)."""
    if kind in ("automatic", "perfect spiral"):
        give(ctx, player, kind)
        return True
    if kind == "loose" or ctx.state.options.edition >= 3:
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
            return False
    need = Need(2, facing_modifiers(ctx.state, player))
    roll = resolve(ctx, Spec("catch", player.id, "skill", player.skill, need), result=lambda r: _RESULT[r.band])
    if roll.succeeded:
        give(ctx, player, "catch")
        return True
    if roll.flopped:
        # He holds no ball yet, so the fall alone (``effects.fall`` would add a carrier's drop).
        knock_down(ctx, player, Status.DOWN, "flopped a Catch")
    return False


def footnote_check(ctx: Ctx, catcher: Player) -> None:
    """French 0.0.6: after ``catcher`` failed a catch in his team's action and the ball has come
    to rest, an opponent holding it is a SiM. Checked there and then, not at the action's end:
    every SiM ends the action at once, so "la fin de l'action" is the catch's own end."""
    st = ctx.state
    if not (variant(st, "fr_catch_sim") and st.options.edition >= 2):
        return
    if st.action is None or st.turn_side != catcher.side:
        return
    carrier = st.carrier()
    if carrier is not None and carrier.side != catcher.side:
        ctx.shift("an opponent recovered the ball after a failed catch")
