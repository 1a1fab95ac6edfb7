"""The four faces of a Challenge die and a parser for scripted rolls.

Rulebook, "Dice": X = flop, blank = nothing, star = conditional success,
bull's-eye = success; a plain D6 stands in as 1 = X, 2-3 = blank, 4 = star, 5-6 = bull's-eye.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import Enum

from engine.errors import MalformedInputError

__all__ = ["Face", "parse_faces"]


class Face(Enum):
    """One Challenge die face; the value is its one-character scripting symbol."""

    FLOP = "X"
    BLANK = "-"
    STAR = "*"
    BULLSEYE = "O"

    @property
    def symbol(self) -> str:
        return self.value

    @classmethod
    def from_d6(cls, pips: int) -> Face:
        """The face a plain D6 stands for (1 = X, 2-3 = blank, 4 = star, 5-6 = bull's-eye)."""
        if isinstance(pips, bool) or not isinstance(pips, int) or not 1 <= pips <= 6:
            raise MalformedInputError.of("dice.d6_pips", text=repr(pips))
        return _FROM_D6[pips]

    @classmethod
    def parse(cls, token: str) -> Face:
        """One face from its symbol or name (``"X"``, ``"flop"``, ``"bull's-eye"``, ``"*"`` ...)."""
        face = _ALIASES.get(token.strip().lower())
        if face is None:
            raise MalformedInputError.of("dice.unknown_face", text=repr(token))
        return face

    def successes(self, *, star2: bool = False) -> int:
        """Successes this face counts for: a star is 1, or 2 under the optional rule
        "Change to the Challenge dice results" (p. 18)."""
        if self is Face.BULLSEYE:
            return 1
        if self is Face.STAR:
            return 2 if star2 else 1
        return 0

    def __repr__(self) -> str:
        return f"Face.{self.name}"


_FROM_D6 = {1: Face.FLOP, 2: Face.BLANK, 3: Face.BLANK, 4: Face.STAR, 5: Face.BULLSEYE, 6: Face.BULLSEYE}

# Symbols and names a coach or a scenario file may write; the en dash and "x"/"o" are what the
# rules analysis and casual typing use.
_ALIASES: dict[str, Face] = {
    "x": Face.FLOP,
    "flop": Face.FLOP,
    "-": Face.BLANK,
    "–": Face.BLANK,
    "—": Face.BLANK,
    "blank": Face.BLANK,
    "*": Face.STAR,
    "star": Face.STAR,
    "conditional": Face.STAR,
    "o": Face.BULLSEYE,
    "bullseye": Face.BULLSEYE,
    "bull's-eye": Face.BULLSEYE,
    "bulls-eye": Face.BULLSEYE,
    "bull": Face.BULLSEYE,
    "success": Face.BULLSEYE,
}
_SYMBOLS = frozenset(k for k in _ALIASES if len(k) == 1)
_SEPARATORS = re.compile(r"[\s,;]+")


def parse_faces(text: str | Iterable[str | Face]) -> tuple[Face, ...]:
    """Faces from ``"X - * O"``, ``"X-*O"``, ``"flop, blank, star"`` or a list of such tokens.

    An empty string is an empty roll (a 0-dice challenge).
    """
    if isinstance(text, str):
        tokens: list[str | Face] = [t for t in _SEPARATORS.split(text.strip()) if t]
    else:
        tokens = list(text)
    faces: list[Face] = []
    for token in tokens:
        if isinstance(token, Face):
            faces.append(token)
            continue
        if not isinstance(token, str):
            raise MalformedInputError.of("dice.faces_not_text", text=repr(text), text2=repr(token))
        key = token.strip().lower()
        if key in _ALIASES:
            faces.append(_ALIASES[key])
        elif key and all(ch in _SYMBOLS for ch in key):
            # Compact scripts such as "X-**" spell one face per character.
            faces.extend(_ALIASES[ch] for ch in key)
        else:
            raise MalformedInputError.of("dice.faces_unreadable", text=repr(text), text2=repr(token))
    return tuple(faces)
