"""Experience Points (Advanced Rules, pp. 8 and 12).

"Every time your team scores a goal give every player on your team that is still on the playing
field one Experience Point." Conceding: "each player on the opposing team not in the Infirmary
receives one Experience Point." The Impcrusher "may not gain experience points" (roster data:
``gains_experience``). Counted on ``Player.xp`` for the league, under the Advanced Rules only
(``options.advanced``): Basic matches keep no careers.

French 0.0.6 (``fr_scorer_xp``): "donnez deux points au buteur et un point à tous les autres
joueurs sur le terrain".
"""

from __future__ import annotations

from ..context import Ctx
from ..events import ExperienceGained
from ..field import Side
from ..options import variant
from ..state import Location, Player
from . import extra_rule

__all__ = ["goal", "concession"]


def _award(ctx: Ctx, side: Side, players: list[Player], reason: str, amount: int = 1) -> None:
    if not ctx.state.options.advanced:
        return
    earners = [p for p in players if extra_rule(p, "gains_experience")]
    for p in earners:
        p.xp += amount
    if earners:
        ctx.emit(ExperienceGained(side, tuple(p.id for p in earners), amount, reason))


def goal(ctx: Ctx, side: Side) -> None:
    players = ctx.state.on_field(side)
    scorer = ctx.state.carrier()
    if scorer is not None and variant(ctx.state, "fr_scorer_xp"):
        _award(ctx, side, [p for p in players if p.id != scorer.id], "goal")
        _award(ctx, side, [scorer], "goal_scorer", 2)
        return
    _award(ctx, side, players, "goal")


def concession(ctx: Ctx, winner: Side) -> None:
    players = [p for p in ctx.state.team_players(winner) if p.location is not Location.INFIRMARY]
    _award(ctx, winner, players, "concession")
