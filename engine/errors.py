"""Errors raised by the rules engine, split by cause (as python-chess does).

Every error is a ``ValueError`` subclass so callers that only care about "bad input"
can catch one thing, while the bot and console can tell a typo (``MalformedInputError``)
from a move the rules forbid (``IllegalCommandError``).

A refusal meant for a coach carries its ``Refusal`` (a catalogue key and values, see
``engine.refusals``): ``str(error)`` is its English sentence, and the service says it in the
coach's language from the same key. ``Error.of("key", rule=..., **values)`` builds one.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .refusals import Refusal, cite, format_refusal

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

E = TypeVar("E", bound="ElfballError")


class ElfballError(ValueError):
    """Base class of every error the engine raises on purpose; ``refusal`` says why."""

    refusal: Refusal | None

    def __init__(self, reason: str | Refusal = "", /) -> None:
        self.refusal = reason if isinstance(reason, Refusal) else None
        super().__init__(format_refusal(reason, "en") if isinstance(reason, Refusal) else reason)

    @classmethod
    def of(cls: type[E], key: str, /, *, rule: str | None = None, **values: Any) -> E:
        """The error refusing with catalogue ``key`` and its values (``rule``: a rule id)."""
        return cls(Refusal(key, rule=rule, **values))


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

    ``rule`` is the rulebook section it cites, in English (e.g. ``"Throwing the ball (p. 6)"``),
    so a coach can look it up; ``reason`` the sentence without it.
    """

    @property
    def reason(self) -> str:
        r = self.refusal
        return str(self) if r is None else format_refusal(Refusal(r.key, **r.values), "en")

    @property
    def rule(self) -> str | None:
        r = self.refusal
        return None if r is None or r.rule is None else cite(r.rule, "en")


class RosterError(ElfballError):
    """A team that breaks the team-list rules (unknown list, over a maximum, wrong size)."""


class DiceScriptError(ElfballError):
    """A scripted dice source ran out of, or was given, the wrong kind of result."""
