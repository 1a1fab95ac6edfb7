"""Team support and the extra players of the Advanced and Optional Rules (pp. 11 and 19).

One module per item, each quoting its rule: ``bribed_referee``, ``cheerleaders``, ``kegs``,
``potions``, ``wizard``, ``impcrusher`` and ``experience``. The challenge and turn code calls
them; what a team bought is ``Team.support`` and what it has used ``Team.used``.

The extra players' restrictions (no experience, no potions, the referee's ban) are data on
their roster entries (``engine/data/teams.json`` ``extra_players``); ``extra_rule`` reads them.
"""

from __future__ import annotations

from functools import cache

from ..rosters import ExtraPlayer, extra_players
from ..state import Player

__all__ = ["extra_rule"]


@cache
def _extras() -> dict[str, ExtraPlayer]:
    return {e.id: e for e in extra_players()}


def extra_rule(player: Player, rule: str) -> bool:
    """An extra player's flag (``gains_experience``, ``uses_potions``, ``referee_ban_check``);
    every other player gains experience and drinks potions, and no referee bans him."""
    extra = _extras().get(player.position)
    if extra is None:
        return rule != "referee_ban_check"
    return bool(getattr(extra, rule))
