"""Errors raised by the rules engine, split by cause (as python-chess does).

Every error is a ``ValueError`` subclass so callers that only care about "bad input"
can catch one thing, while the bot and console can tell a typo (``MalformedInputError``)
from a move the rules forbid (``IllegalCommandError``).
"""

from __future__ import annotations

__all__ = [
    "ElfballError",
    "MalformedInputError",
    "InvalidCoordinateError",
    "OffFieldError",
    "IllegalCommandError",
    "AmbiguousInputError",
    "RosterError",
    "DiceScriptError",
]


class ElfballError(ValueError):
    """Base class of every error the engine raises on purpose."""


class MalformedInputError(ElfballError):
    """The input could not be read at all (a typo, a wrong format)."""


class InvalidCoordinateError(MalformedInputError):
    """A hex coordinate that is not of the form column letter + row number."""


class OffFieldError(ElfballError):
    """A well-formed coordinate that names a hex outside the round field."""


class AmbiguousInputError(ElfballError):
    """The input matches more than one thing (e.g. two players called 'Imp')."""


class IllegalCommandError(ElfballError):
    """A well-formed command the rules forbid in this position.

    ``rule`` names the rulebook section (e.g. ``"Throw (p. 6)"``) so a coach can look it up.
    """

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.reason = message
        self.rule = rule


class RosterError(ElfballError):
    """A team that breaks the team-list rules (unknown list, over a maximum, wrong size)."""


class DiceScriptError(ElfballError):
    """A scripted dice source ran out of, or was given, the wrong kind of result."""
