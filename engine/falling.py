"""A player falling, the status change alone: Down or Dazed, the worse state kept (G51), and
Rally's French reading (see ``effects.py``).

``effects.fall`` adds what a carrier's fall does to the ball (it scatters, and may be caught).
The Catch challenge fells its catcher with ``knock_down`` directly: he holds no ball yet, and the
ball's own module calls the catch, so the catch must not import the ball's.
"""

from __future__ import annotations

from .abilities import has
from .context import Ctx
from .events import AbilityUsed, PlayerFell
from .options import variant
from .state import Player, Status

__all__ = ["knock_down"]


def knock_down(ctx: Ctx, player: Player, status: Status, cause: str) -> bool:
    """``player`` goes Down or Dazed where he stands; returns whether he holds the ball (which
    ``effects.fall`` then drops)."""
    if not player.on_field:
        return False
    if status is Status.DOWN and player.status is Status.STANDING and _rally_stays_up(ctx, player):
        ctx.emit(AbilityUsed(player.id, "rally", "stays_up"))
        return False
    # A Dazed player hit again stays Dazed: apply the worse state (G51).
    if player.status is Status.DAZED and status is Status.DOWN:
        status = Status.DAZED
    player.status = status
    ctx.emit(PlayerFell(player.id, status.value, cause))
    return ctx.state.ball.carrier == player.id


def _rally_stays_up(ctx: Ctx, player: Player) -> bool:
    return has(player, "rally") and variant(ctx.state, "fr_rally")
