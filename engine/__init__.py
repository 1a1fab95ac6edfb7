"""Pure Elfball rules: field, hex maths, dice, team lists and (later) the match state machine.

No Discord, no database, no files beyond the packaged data, no clock: every random result
comes from an injected dice source, so a match is a deterministic function of its commands
and dice.
"""

from .commands import Undo
from .errors import (
    AmbiguousInputError,
    DiceScriptError,
    ElfballError,
    IllegalCommandError,
    InvalidCoordinateError,
    MalformedInputError,
    OffFieldError,
    RosterError,
)
from .field import Field, HexInfo, standard_field
from .hexes import Direction, Hex, distance

__all__ = [
    "AmbiguousInputError",
    "DiceScriptError",
    "Direction",
    "ElfballError",
    "Field",
    "Hex",
    "HexInfo",
    "IllegalCommandError",
    "InvalidCoordinateError",
    "MalformedInputError",
    "OffFieldError",
    "RosterError",
    "Undo",
    "distance",
    "standard_field",
]
