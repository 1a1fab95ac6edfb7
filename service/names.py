"""Names chosen by members (teams, leagues, players), safe to post in a Discord message.

* ``check_name(text, what)`` refuses a new name with a control or invisible character or a
  mention (``db.names``: the store calls it on every name it creates).
* ``safe_name(text)`` is for posting any name, old rows included: Discord's markdown is
  escaped (``*Elves*`` shows its stars instead of turning the line italic) and mentions are
  broken with a zero-width space (``<@123>``, ``@everyone`` show as written and ping nobody);
  bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), refused in new names,
  are dropped from old ones so they cannot flip the rest of the line.
  Use it on names only, never on our own formatted text.
* ``ping_only(text, user_ids)`` is for a post built elsewhere whose own words mention people
  (the coaches whose turn it is) but which may spell out a name: every other mention is broken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from db.names import check_name, unseen_character

__all__ = ["safe_name", "ping_only", "check_name", "unseen_character"]

#: Characters Discord's markdown gives a meaning to anywhere in a line (``<`` opens mentions,
#: channels and timestamps), and the ones that mean something only at a line's start.
_MARKDOWN = re.compile(r"([\\*_~`|\[\]<>])")
_LINE_START = re.compile(r"^([#-])")
_ZWSP = "\u200b"
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def safe_name(text: str) -> str:
    """``text`` as it reads, with no markdown effect and no ping (see the module's docstring)."""
    return _safe(str(text))


@lru_cache(maxsize=4096)  # every post shows a match's ~30 names again: four regexes each (~0.1 ms a post)
def _safe(text: str) -> str:
    shown = _LINE_START.sub(r"\\\1", _MARKDOWN.sub(r"\\\1", " ".join(_BIDI.sub("", text).split())))
    return shown.replace("@", "@" + _ZWSP)


_PING = re.compile(r"<@(?P<kind>[!&]?)(?P<id>\d+)>|@(?:everyone|here)\b")


def ping_only(text: str, user_ids: Iterable[int]) -> str:
    """``text`` with only the mentions of ``user_ids`` left working: roles, ``@everyone``,
    ``@here`` and any other member's ``<@id>`` are shown as written and ping nobody."""
    allowed = {int(i) for i in user_ids}

    def keep(m: re.Match[str]) -> str:
        if m.group("id") is not None and m.group("kind") != "&" and int(m.group("id")) in allowed:
            return m.group(0)
        return m.group(0).replace("@", "@" + _ZWSP, 1)

    return _PING.sub(keep, text)
