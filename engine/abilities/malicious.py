"""Malicious (Cheater/Advanced, p. 13): "This player takes great pleasure from inflicted pain.
This player earns one Momentum counter any time he causes an opponent to become Dazed and two
Momentum counters if he causes the opponent to leave the field from injury."

Judged on his Tackle's outcome, the Injury it causes included. Like any Momentum, only the
acting team earns it (MO2): he is the one acting.
"""

from __future__ import annotations

from ..challenges.base import gain_momentum
from ..context import Ctx
from ..events import AbilityUsed
from ..state import Player, Status
from . import has

__all__ = ["after_tackle"]


def after_tackle(ctx: Ctx, attacker: Player, target: Player, *, was_on_field: bool, was_dazed: bool) -> None:
    if not has(attacker, "malicious") or attacker.side != ctx.acting_side:
        return
    if was_on_field and not target.on_field:
        ctx.emit(AbilityUsed(attacker.id, "malicious", "momentum_injured", target.id))
        gain_momentum(ctx, attacker.side, 2, "Malicious")
    elif target.on_field and target.status is Status.DAZED and not was_dazed:
        ctx.emit(AbilityUsed(attacker.id, "malicious", "momentum_dazed", target.id))
        gain_momentum(ctx, attacker.side, 1, "Malicious")
