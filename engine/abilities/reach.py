"""Reach (Safety/Basic, p. 14).

"This player seems to snag balls from the air with ease. If the intercept line passes through a
hex adjacent to this player, he may attempt an Intercept challenge. This includes hexes for the
Thrower, landing hex and hexes with opponents in them."

So for him every hex the string touches counts, the thrower's and the landing hex included, and
being next to one is enough. A player standing in the landing hex is not offered it: the ball
comes to him there anyway (he may Catch it), and one player gets one try at a throw.
"""

from __future__ import annotations

from ..hexes import Hex, distance
from ..state import MatchState, Player
from . import has

__all__ = ["reach_interceptors"]


def reach_interceptors(state: MatchState, thrower: Player, path: list[Hex], landing: Hex) -> list[Player]:
    """Standing opponents of ``thrower`` with Reach next to a hex of ``path`` (every hex the
    string touches, ends included), in the order the ball passes them."""
    found: list[tuple[int, Player]] = []
    for p in state.players.values():
        if p.side == thrower.side or not p.standing or not p.on_field or p.hex is None or p.hex == landing:
            continue
        if not has(p, "reach"):
            continue
        near = [i for i, h in enumerate(path) if distance(h, p.hex) <= 1]
        if near:
            found.append((near[0], p))
    return [p for _, p in sorted(found, key=lambda x: x[0])]
