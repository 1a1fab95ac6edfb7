"""Enrage (Monster/Advanced, p. 13): "If this player takes the action for this turn he may add
two Momentum counters to the Momentum track if an Impact, Tackle, or Shove challenge was
attempted against him on the opponent's previous turn (maximum of two counters earned total).
Note: use of the abilities Cutblock, Steal, and Cheapshot against this player in the previous
turn also count for triggering the Enrage ability."

Every Impact, Tackle (whatever ability it uses) and Shove notes its target in
``MatchState.targeted``; the turn's end moves that list to ``provoked`` (engine.turns).
"""

from __future__ import annotations

from ..challenges.base import gain_momentum
from ..context import Ctx
from ..events import AbilityUsed
from ..state import Player
from . import has

__all__ = ["provoke", "on_start_action", "COUNTERS"]

COUNTERS = 2


def provoke(ctx: Ctx, target: Player) -> None:
    """``target`` had an Impact, Tackle or Shove attempted against him this turn."""
    st = ctx.state
    if target.id not in st.targeted:
        st.targeted = [*st.targeted, target.id]


def on_start_action(ctx: Ctx, player: Player) -> None:
    """Two counters, however often he was hit, when he takes the action right after."""
    if has(player, "enrage") and player.id in ctx.state.provoked:
        ctx.emit(AbilityUsed(player.id, "enrage", "enraged"))
        gain_momentum(ctx, player.side, COUNTERS, "Enrage")
