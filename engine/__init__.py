"""Pure Elfball rules: field, hex maths, dice, team lists and (later) the match state machine.

No Discord, no database, no files beyond the packaged data, no clock: every random result
comes from an injected dice source, so a match is a deterministic function of its commands
and dice.
"""

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
from .refusals import Joined, Refusal, Term, format_refusal, refusal_catalogue, side_term

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
    "Joined",
    "MalformedInputError",
    "OffFieldError",
    "Refusal",
    "RosterError",
    "Term",
    "distance",
    "format_refusal",
    "refusal_catalogue",
    "side_term",
    "standard_field",
]
