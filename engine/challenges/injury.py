"""Injury challenge (p. 8): Grit dice (6 for a Punishing Hit), read by net successes.

Basic rules: flop, 0 or 1 -> out for the game (Infirmary); 2 -> unconscious (Recovery);
3 -> Bench for the rest of the Test; 4 -> Dazed; 5+ -> Down. A carrier who is hurt drops the
ball from his hex once the injury is resolved (C4). The acting coach may force re-rolls on it
(G28); nobody earns Momentum from it.
"""

from __future__ import annotations

from .. import ball as _ball
from .. import effects
from ..context import Ctx
from ..dice import ChallengeRoll, Need
from ..state import Location, Player, Status
from .base import Spec, resolve

__all__ = ["injury", "injury_result"]


def injury_result(roll: ChallengeRoll) -> tuple[str, Location | Status]:
    if roll.flopped or roll.net <= 1:
        return "out for the game", Location.INFIRMARY
    if roll.net == 2:
        return "knocked unconscious: Recovery", Location.RECOVERY
    if roll.net == 3:
        return "to the Bench for the rest of the Test", Location.SENT_OFF
    if roll.net == 4:
        return "winded: Dazed", Status.DAZED
    return "shakes it off: Down", Status.DOWN


def injury(ctx: Ctx, player: Player, dice: int, cause: str) -> None:
    label = "grit" if dice == player.grit else f"grit as {dice}"
    spec = Spec("injury", player.id, label, dice, Need(1), earns=None, flop_shifts=False)
    roll = resolve(ctx, spec, result=lambda r: injury_result(r)[0])
    _, outcome = injury_result(roll)
    if isinstance(outcome, Status):
        effects.fall(ctx, player, outcome, cause)
        return
    old, had_ball = effects.remove(ctx, player, outcome, f"injured ({cause})")
    if had_ball and old is not None:
        _ball.scatter(ctx, old)
