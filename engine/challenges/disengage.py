"""Disengage challenge (p. 5): leaving a hex next to a standing opponent who faces you.
Dodge; needs (highest Tackle among those opponents) - 2, -1 per team-mate facing you, +1 per
such opponent after the first. Failure: Down in the starting hex; flop: Dazed there and a SiM.
The step still costs its pace; the challenge costs none.

French 0.0.6 (``fr_failed_disengage_sim``): "Nombre de succès insuffisant: Joueur à terre. RdS"
— a failure is a Shift in Momentum too. ``fr_slippery``: Slippery ignores every opponent."""

from __future__ import annotations

from .. import effects
from ..abilities.earnings import announce_doubling, earnings
from ..abilities.helping_hand import helping_hand_modifier, helping_hands
from ..abilities.slippery import auto_disengage, slippery_need
from ..context import Ctx
from ..dice import Band, Modifier, Need
from ..events import AbilityUsed
from ..options import variant
from ..state import MatchState, Player, Status
from .base import Spec, mates_facing, opps_facing, plural, resolve

__all__ = ["disengage_needed", "disengage", "disengage_need"]

_RESULT = {Band.FLOP: "Dazed, SiM", Band.FAILURE: "Down in his hex", Band.EXACT: "gets away", Band.EXTRA: "gets away"}


def disengage_needed(ctx: Ctx, player: Player) -> list[Player]:
    return opps_facing(ctx.state, player)


def disengage_need(state: MatchState, player: Player, opponents: list[Player]) -> Need:
    best = max(opponents, key=lambda o: o.tackle)
    mods = []
    facing_mates = mates_facing(state, player)
    mates = len(facing_mates)
    if mates:
        mods.append(Modifier(plural(mates, "team-mate") + " facing", -mates))
    mods += helping_hand_modifier(helping_hands(state, player, facing_mates))
    if len(opponents) > 1:
        n = len(opponents) - 1
        mods.append(Modifier(plural(n, "more opponent") + " facing", n))
    return slippery_need(player, Need(best.tackle - 2, tuple(mods)), every=variant(state, "fr_slippery"))


def disengage(ctx: Ctx, player: Player, opponents: list[Player]) -> bool:
    need = disengage_need(ctx.state, player, opponents)
    if auto_disengage(player, need):
        ctx.emit(AbilityUsed(player.id, "slippery", "auto_disengage"))
        return True
    spec = Spec("disengage", player.id, "dodge", player.dodge, need, earns=earnings(player, "hotdog"))
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    announce_doubling(ctx, player, "hotdog", roll)
    if roll.succeeded:
        return True
    effects.fall(ctx, player, Status.DAZED if roll.flopped else Status.DOWN, "failed to Disengage")
    if variant(ctx.state, "fr_failed_disengage_sim"):
        ctx.shift("failed Disengage")
    return False
