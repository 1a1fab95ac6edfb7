"""Helping Hand (Midfielder/Advanced, p. 13).

"Always willing to lend a hand, this player can give a -1 modifier to the number of successes
required for any challenge attempted by adjacent teammates even when he is not facing them."

A standing helper adjacent to the roller gives -1 whichever way he faces. A team-mate already
counted by the ordinary "team-mate facing" term is not counted twice. For Impact, Tackle and
Shove, where the ordinary term counts team-mates facing the *target*, the helper gives -1 when
adjacent to the attacker (G42), unless he already helps by facing the target. The Dash and the
Injury challenge need 1 success whatever happens, so he changes nothing there.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..dice import Modifier
from ..state import MatchState, Player
from . import has

__all__ = ["helping_hands", "helping_hand_modifier"]


def helping_hands(state: MatchState, p: Player, counted: Iterable[Player] = ()) -> list[Player]:
    """Standing team-mates with Helping Hand adjacent to ``p``, other than those in ``counted``."""
    assert p.hex is not None
    near = set(p.hex.neighbours())
    already = {o.id for o in counted}
    return [
        o
        for o in state.players.values()
        if o.side == p.side and o.id != p.id and o.standing and o.hex in near
        and o.id not in already and has(o, "helping-hand")
    ]


def helping_hand_modifier(helpers: list[Player]) -> list[Modifier]:
    return [Modifier("Helping Hand", -len(helpers))] if helpers else []
