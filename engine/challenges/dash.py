"""Dash challenge (p. 8): once per action, after the normal action, spending Momentum.
Dice = counters spent, 1 success needed, no modifiers, no Momentum earned. Flop: Dazed, SiM;
no success: Down, SiM; success: one more challenge, or one hex (with any Disengage) and then a
challenge. The counters left may replace its dice as usual.

A Sprinter's Dash (``sprint``) spends no counters: Jog dice (at most 6), the nth this action
needing n + 1 successes (``engine/abilities/sprinter.py``); the results are the same.

French 0.0.6 (``fr_dash``): "1. Vous déplacez d'un hexagone supplémentaire même si vous avez
dépensé tous vos points de mouvement (pas d'autre défi que Désengager ou Ramasser). Ou 2.
Exécutez un seul Défi avec un dé supplémentaire. Si vous avez déjà utilisé toutes vos Poussées
et/ou Plaquage, vous pouvez en exécuter un autre mais sans dés en bonus. Cette option met
toujours fin à votre tour". The extra die waits on ``ActionState.dash_die`` for the challenge
(``actions.take_dash_die``); the hex ends the Dash (``match._move``)."""

from __future__ import annotations

from .. import effects
from ..abilities.sprinter import sprint_dice, sprint_need
from ..context import Ctx
from ..dice import Band, Need
from ..events import AbilityUsed, DashGranted
from ..options import variant
from ..state import ActionState, Player, Status
from .base import Spec, resolve, spend_momentum

__all__ = ["dash"]

_RESULT = {Band.FLOP: "Dazed, SiM", Band.FAILURE: "trips: Down, SiM", Band.EXACT: "extends his action", Band.EXTRA: "extends his action"}


def dash(ctx: Ctx, action: ActionState, player: Player, counters: int, *, sprint: bool = False) -> None:
    if sprint:
        action.sprints += 1
        ctx.emit(AbilityUsed(player.id, "sprinter", "sprint"))
        spec = Spec("dash", player.id, "jog", sprint_dice(player), sprint_need(action), earns=None)
    else:
        action.momentum_dash = True
        spend_momentum(ctx, counters, "Dash")
        spec = Spec("dash", player.id, "momentum", counters, Need(1), earns=None)
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    if roll.succeeded:
        action.dash = "granted"
        if variant(ctx.state, "fr_dash"):
            action.dash_die = "any"
        ctx.emit(DashGranted(player.id))
        return
    action.dash = "done"
    if roll.flopped:
        effects.fall(ctx, player, Status.DAZED, "flopped a Dash")
    else:
        effects.fall(ctx, player, Status.DOWN, "failed a Dash")
        ctx.shift("failed Dash")
