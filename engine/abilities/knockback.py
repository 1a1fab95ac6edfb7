"""Knockback (Defender/Advanced, p. 13): "This player hits like a freight train. This player
earns double the number of Momentum counters from Shove challenges."
"""

from __future__ import annotations

from ..state import Player
from . import has
from .collision import Earns, doubled

__all__ = ["earns"]


def earns(player: Player, base: Earns) -> Earns:
    """What his Shove earns: double with Knockback."""
    return doubled(base) if has(player, "knockback") else base
