"""Plough (Monster/Advanced, p. 14): "This player is a juggernaut. This player may spend one
Momentum counter and one pace of Jog to move into the hex his opponent was previous in
immediately after a successful Shove challenge. The movement may ignore any required Disengage
challenge."

Asked of his coach (``plough``: "plough" or "stay") only when the Shove moved the target and
he has a counter and a pace to pay. The step is an ordinary entry for the referee. Not when the
ball, shoved loose, came to rest in the vacated hex: entering it would force a Pick-up, a second
challenge the Shove's cost did not pay for.

French 0.0.6 (``fr_plough``): "Ce joueur peut utiliser un Temps fort au lieu du Mouvement pour
avancer dans l'hexagone qu'occupé précédemment son adversaire": one counter, no Jog.
"""

from __future__ import annotations

from .. import referee
from ..challenges.base import spend_momentum
from ..context import Ctx
from ..events import AbilityUsed, PlayerMoved
from ..hexes import Hex
from ..options import variant
from ..state import ActionState, Player
from . import has

__all__ = ["offer"]


def offer(ctx: Ctx, action: ActionState, shover: Player, target: Player, vacated: Hex) -> None:
    st = ctx.state
    if not has(shover, "plough") or not shover.standing or ctx.sim:
        return
    pace = 0 if variant(st, "fr_plough") else 1
    if st.momentum_side != shover.side or st.momentum < 1 or action.jog_left < pace:
        return
    if st.player_at(vacated) is not None or (st.ball.carrier is None and st.ball.hex == vacated):
        return
    answer = ctx.ask({
        "kind": "plough", "side": shover.side, "player": shover.id, "ability": "plough",
        "options": ["plough", "stay"], "default": "stay",
    })
    if answer != "plough":
        return
    ctx.emit(AbilityUsed(shover.id, "plough", "plough", target.id))
    spend_momentum(ctx, 1, "Plough")
    action.jog_left -= pace
    action.moved = True
    origin, shover.hex = shover.hex, vacated
    assert origin is not None
    ctx.emit(PlayerMoved(shover.id, origin, vacated, action.jog_left))
    referee.entered(ctx, shover)
