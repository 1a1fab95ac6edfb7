"""What a stored name (team, league, player) may contain: printable text a reader can see.

Refused at creation, with the character named: NUL and other control characters (PostgreSQL
cannot store NUL at all), lone surrogates (no encoding can write them), invisible format
characters (right-to-left overrides that flip the text around them, zero-width spaces and
joiners that make two names look alike, soft hyphens, tag characters), blank letters that
render as nothing, and Discord mention markup (``<@id>``, ``<@&id>``, ``<#id>``, ``@everyone``,
``@here``), so a name never pings anyone wherever it is posted. A zero-width joiner inside an
emoji sequence (👩‍🚀) is part of that emoji and stays allowed.

Names already stored are made safe where they are posted: ``service.names.safe_name``.
"""

from __future__ import annotations

import re
import unicodedata

from engine import Term
from .errors import InvalidInputError

__all__ = ["MAX_NAME", "unseen_character", "check_name", "clean_name", "name_key"]

#: The longest name of a team, a league or a player.
MAX_NAME = 64

ZWJ = "\u200d"
#: Letters and symbols that draw nothing (Hangul fillers, the blank Braille pattern).
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Discord's mention markup: users, roles, channels, and the two mass pings.
MENTION = re.compile(r"<[@#][!&]?\d+>|@(everyone|here)\b", re.IGNORECASE)


def _emoji(ch: str) -> bool:
    return not ch.isascii() and unicodedata.category(ch) in ("So", "Sk", "Mn")


def unseen_character(text: str) -> str | None:
    """The first character of ``text`` a reader could not see or that changes how the text
    around it shows (``U+202E``), or None."""
    for i, ch in enumerate(text):
        category = unicodedata.category(ch)
        if ch == ZWJ and 0 < i < len(text) - 1 and _emoji(text[i - 1]) and _emoji(text[i + 1]):
            continue  # an emoji sequence
        # Not Cn (unassigned): this Python's Unicode tables may predate a new emoji.
        if category in ("Cc", "Cs", "Cf", "Zl", "Zp") or ch in BLANK:
            return f"U+{ord(ch):04X}"
    return None


def check_name(text: str, what: str) -> None:
    """Refuse a name (``what``: team, league, player) holding an unseen character or a mention."""
    code = unseen_character(text)
    if code is not None:
        raise InvalidInputError("name_contains_invisible_control_character", what=Term("what", what), code=code)
    if MENTION.search(text):
        raise InvalidInputError("name_cannot_mention_anyone_everyone", what=Term("what", what))


def clean_name(name: object, what: str) -> str:
    """``name`` with its spaces tidied; refuses an empty or over-long name, and one a reader
    could not see as written (``db.names.check_name``)."""
    if not isinstance(name, str):
        raise InvalidInputError("name_must_be_text", what=Term("what", what))
    text = " ".join(name.split())
    if not text:
        raise InvalidInputError("name_missing", what=Term("what", what))
    if len(text) > MAX_NAME:
        raise InvalidInputError("name_too_long", what=Term("what", what), most=MAX_NAME,
                                given=len(text))
    check_name(text, what)
    return text


def name_key(name: str) -> str:
    """How names compare: spaces tidied, case folded ("Elf  Cup" is "elf cup")."""
    return " ".join(name.split()).casefold()
