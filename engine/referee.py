"""The referee's three rules (p. 8): the outer white line, the goal circle hexes, and no
Monster in the face-off (checked at set-up). A Bribed Referee lets a team's players without
the ball stay in either goal hex (``engine/support/bribed_referee.py``).

A player the referee sends to the Bench "for the rest of the Test" is listed in
``MatchState.referee_benched`` (rules edition 3): a sending-off is no injury, so a Magic Potion's
cure does not bring him back in that Test (``engine/support/potions.py``)."""

from __future__ import annotations

from . import ball as _ball
from . import effects
from .context import Ctx
from .events import BallCaught, BallToCentre
from .field import other_side
from .hexes import Hex
from .state import Location, Player
from .support.bribed_referee import active as bribe_active

__all__ = ["entered"]


def entered(ctx: Ctx, player: Player) -> bool:
    """Apply the referee to a player who has just entered his hex (walking or shoved).

    Returns True if he had to leave the field.
    """
    assert player.hex is not None
    info = ctx.field.info(player.hex)
    st = ctx.state
    holding = st.ball.carrier == player.id
    if info.edge_line:
        # Bench for the rest of the Test; a carrier is ejected for the game and the referee
        # puts the ball on the centre dot, handing it to a player already standing there.
        location = Location.EJECTED if holding else Location.SENT_OFF
        _send_off(ctx, player, location, "entered the outer white line")
        if holding:
            _ball_to_centre(ctx)
        return True
    if info.goal is not None:
        if not holding:
            if bribe_active(st.teams[player.side]):
                return False  # checked at the start of each of his team's turns
            _send_off(ctx, player, Location.SENT_OFF, "entered a goal circle hex without the ball")
            return True
        if info.goal == player.side:
            # His own goal with the ball: he leaves, "the ball bounces to an adjacent hex" (G16).
            old, _ = _send_off(ctx, player, Location.SENT_OFF, "carried the ball into his own goal")
            assert old is not None
            _ball.scatter(ctx, old)
            return True
        assert info.goal == other_side(player.side)
    return False


def _send_off(ctx: Ctx, player: Player, location: Location, reason: str) -> tuple[Hex | None, bool]:
    if location is Location.SENT_OFF and ctx.state.options.edition >= 3:
        ctx.state.referee_benched.append(player.id)
    return effects.remove(ctx, player, location, reason)


def _ball_to_centre(ctx: Ctx) -> None:
    st = ctx.state
    spot = ctx.field.ball_spot
    ctx.emit(BallToCentre(spot, "referee"))
    there = st.player_at(spot)
    if there is not None and there.standing:
        st.ball.carrier, st.ball.hex = there.id, None
        ctx.emit(BallCaught(there.id, "handed by the referee"))
    elif there is not None:
        # A Down or Dazed player cannot hold it: it bounces off him like any dropped ball.
        st.ball.carrier, st.ball.hex = None, spot
        _ball.scatter(ctx, spot)
    else:
        st.ball.carrier, st.ball.hex = None, spot
