"""The Impcrusher's referee check (Optional Rules, Extra players, p. 19).

"Referees usually hate the Impcrusher so after each turn where the Impcrusher was the player
taking the action, roll a Challenge dice. On a Flop, the Referee has decided to ban the
Impcrusher from the field. Remove the Impcrusher from the field and it may not be fielded for
the rest of the game."

``turns.end_turn`` calls ``after_action`` once the goal check is done: an action that scores
ends the Test, and the turn with it, so no check is made. A banned carrier's ball scatters
from his hex. Which players are checked is roster data (``referee_ban_check``).
"""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import Face
from ..events import RefereeCheck
from ..state import Location, Player
from . import extra_rule

__all__ = ["after_action"]


def after_action(ctx: Ctx, player: Player) -> None:
    if not extra_rule(player, "referee_ban_check") or player.location in (Location.INFIRMARY, Location.EJECTED):
        return
    face = ctx.dice.face()
    flopped = face is Face.FLOP
    ctx.emit(RefereeCheck(player.side, "impcrusher", face.symbol, flopped, (player.id,) if flopped else ()))
    if not flopped:
        return
    old, had_ball = effects.remove(ctx, player, Location.EJECTED, "banned by the referee")
    if had_ball and old is not None:
        _ball.scatter(ctx, old)
