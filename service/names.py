"""Names chosen by members (teams, leagues, players), safe to post in a Discord message.

* ``check_name(text, what)`` refuses a new name with a control or invisible character or a
  mention (``db.names``: the store calls it on every name it creates).
* ``safe_name(text)`` is for posting any name, old rows included: Discord's markdown is
  escaped (``*Elves*`` shows its stars instead of turning the line italic) and mentions are
  broken with a zero-width space (``<@123>``, ``@everyone`` show as written and ping nobody).
  Use it on names only, never on our own formatted text.
"""

from __future__ import annotations

import re

from db.names import check_name, unseen_character

__all__ = ["safe_name", "check_name", "unseen_character"]

#: Characters Discord's markdown gives a meaning to anywhere in a line (``<`` opens mentions,
#: channels and timestamps), and the ones that mean something only at a line's start.
_MARKDOWN = re.compile(r"([\\*_~`|\[\]<>])")
_LINE_START = re.compile(r"^([#-])")
_ZWSP = "\u200b"


def safe_name(text: str) -> str:
    """``text`` as it reads, with no markdown effect and no ping (see the module's docstring)."""
    shown = _LINE_START.sub(r"\\\1", _MARKDOWN.sub(r"\\\1", " ".join(str(text).split())))
    return shown.replace("@", "@" + _ZWSP)
