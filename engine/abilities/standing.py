"""Abilities that change the cost of standing up (p. 5: 5 - Grit from Down, 8 - Grit from Dazed).

"Rally (Midfielder/Basic): This player is never out of the action when down. This player may
stand up when Dazed as if he was only Down."
"Rugged (Grit/Advanced): ... In addition, his Grit is considered one point higher for
determining the Jog he needs to use to stand up." (Its Injury part is in the Injury challenge.)
"""

from __future__ import annotations

from ..state import Player, Status
from . import has

__all__ = ["stand_base", "stand_abilities"]


def _base(p: Player, rally: bool, rugged: bool) -> int:
    down = p.status is Status.DOWN or (p.status is Status.DAZED and rally)
    return (5 if down else 8) - (p.grit + (1 if rugged else 0))


def stand_base(p: Player) -> int:
    """The Jog standing up costs before the adjacent players are counted."""
    return _base(p, has(p, "rally"), has(p, "rugged"))


def stand_abilities(p: Player, crowd: int) -> list[str]:
    """The abilities that make standing cheaper now (``crowd``: the adjacent players' term), to
    report them; one that saves nothing (the cost is 0 anyway) is not."""
    rally, rugged = has(p, "rally"), has(p, "rugged")

    def cost(ra: bool, ru: bool) -> int:
        return max(0, _base(p, ra, ru) + crowd)

    used = ["rally"] if rally and cost(False, rugged) > cost(True, rugged) else []
    return used + (["rugged"] if rugged and cost(rally, False) > cost(rally, True) else [])
