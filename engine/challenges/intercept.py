"""Intercept challenge (p. 7). After the throw roll and before any Catch, the passing string is
laid over the ball's whole path, white-line bounces included; one standing opponent whose hex
it touches (his coach's choice, or none) may roll Skill needing 2, -1 per team-mate and +1 per
opponent facing him. Flop: he is Down and the throw goes on; success: he has the ball."""

from __future__ import annotations

from .. import effects
from ..abilities import has
from ..abilities.reach import reach_interceptors
from ..context import Ctx
from ..dice import Band, Need
from ..events import InterceptionDeclined
from ..hexes import Hex, string_hexes
from ..state import Player, Status
from .base import Spec, facing_modifiers, resolve
from .catch import give

__all__ = ["eligible_interceptors", "offer_interception", "touched_hexes", "string_path"]

_RESULT = {Band.FLOP: "trips: Down", Band.FAILURE: "misses it", Band.EXACT: "intercepted", Band.EXTRA: "intercepted"}


def string_path(points: list[Hex]) -> list[Hex]:
    """Every hex the string touches along the path, the thrower's and the landing hex included."""
    out: list[Hex] = []
    for a, b in zip(points, points[1:]):
        for h in string_hexes(a, b, include_ends=True):
            if h not in out:
                out.append(h)
    return out


def touched_hexes(points: list[Hex]) -> list[Hex]:
    """Hexes the string touches along the path, without the thrower's and the landing hex."""
    return [h for h in string_path(points) if h not in (points[0], points[-1])]


def eligible_interceptors(ctx: Ctx, thrower: Player, points: list[Hex]) -> list[Player]:
    occupied = ctx.state.occupancy()
    eligible = [
        p
        for h in touched_hexes(points)
        if (p := occupied.get(h)) is not None and p.standing and p.side != thrower.side
    ]
    # Reach: next to any hex of the string is enough, ends included.
    reach = reach_interceptors(ctx.state, thrower, string_path(points), points[-1])
    return eligible + [p for p in reach if p not in eligible]


def offer_interception(ctx: Ctx, thrower: Player, points: list[Hex]) -> bool:
    eligible = eligible_interceptors(ctx, thrower, points)
    if not eligible:
        return False
    side = eligible[0].side
    choice = ctx.ask(
        {
            "kind": "interceptor",
            "side": side,
            "options": [p.id for p in eligible] + [None],
            "default": None,
        }
    )
    if choice is None:
        ctx.emit(InterceptionDeclined(side, tuple(p.id for p in eligible)))
        return False
    p = ctx.state.players[choice]
    need = Need(2, facing_modifiers(ctx.state, p))
    # Cover: "An opposing team manager may not use Momentum to replace rolls made for any
    # Interception challenge by this player."
    spec = Spec("intercept", p.id, "skill", p.skill, need, no_forced_rerolls=has(p, "cover"))
    roll = resolve(ctx, spec, result=lambda r: _RESULT[r.band])
    if roll.succeeded:
        give(ctx, p, "interception")
        return True
    if roll.flopped:
        effects.fall(ctx, p, Status.DOWN, "flopped an Intercept")
    return False
