"""What happens to players: falling Down or Dazed, leaving the field. A carrier who falls
drops the ball, which scatters one pace (Dropping the ball, p. 6).

French 0.0.6 (``fr_rally``): Rally's "Ce joueur n'est jamais mit au sol sur un résultat à
terre" is read as a rule: a result that would place him Down leaves him on his feet (a Dazed
result still fells him; a SiM the result carries still happens)."""

from __future__ import annotations

from . import ball as _ball
from .context import Ctx
from .events import BallDropped, PlayerRemoved
from .falling import knock_down
from .hexes import Hex
from .state import Location, Player, Status

__all__ = ["fall", "fall_together", "remove"]


def fall(ctx: Ctx, player: Player, status: Status, cause: str) -> None:
    """Knock ``player`` Down or Dazed; a carrier drops the ball."""
    if knock_down(ctx, player, status, cause):
        drop(ctx, player)


def fall_together(ctx: Ctx, players: list[Player], cause: str) -> None:
    """Several players go Down at once (Slide Tackle): all fall before the ball moves."""
    carrier = None
    for p in players:
        if knock_down(ctx, p, Status.DOWN, cause):
            carrier = p
    if carrier is not None:
        drop(ctx, carrier)


def drop(ctx: Ctx, player: Player) -> None:
    assert player.hex is not None
    st = ctx.state
    st.ball.carrier, st.ball.hex = None, player.hex
    ctx.emit(BallDropped(player.id, player.hex))
    _ball.scatter(ctx, player.hex)


def remove(ctx: Ctx, player: Player, location: Location, reason: str) -> tuple[Hex | None, bool]:
    """Take ``player`` off the field. Returns his hex and whether he held the ball; the caller
    decides where the ball goes (it scatters after an injury, goes to the centre after a
    referee's ejection)."""
    st = ctx.state
    had_ball = st.ball.carrier == player.id
    old = player.hex
    if had_ball:
        st.ball.carrier, st.ball.hex = None, old
    player.location, player.hex, player.facing, player.status = location, None, None, Status.STANDING
    ctx.emit(PlayerRemoved(player.id, location.value, reason))
    return old, had_ball
