"""Refusals in the coach's language: the one place the bot and the console turn a refusal into words.

A refusal carries a catalogue key and its values (``engine.refusals``): the rules' and the
command parser's (an ``ElfballError``'s ``refusal``, keyed in the engine's catalogue), the
store's (a ``StoreError``'s, keyed in ``db/text``) and team building's limits (keyed in the
narration catalogue). Each language says it from its own catalogue; nothing here reads the
English sentence to guess what it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine import DEFAULT_LANGUAGE as DEFAULT
from engine import Catalogue, Refusal, TeamBuildingError, format_refusal, phrase


__all__ = ["render_refusal"]


def render_refusal(reason: BaseException | str, language: str, *, phrases: Mapping[str, str] | None = None) -> str:
    """Why something was refused, in ``language``: a keyed refusal from that language's
    catalogue; else a plain message among the caller's ``phrases`` (the bot's ``phrase.*``
    keys, numbers kept) or the service's own; else as written."""
    if isinstance(reason, TeamBuildingError):
        return reason.text(language)
    refusal = getattr(reason, "refusal", None)
    if isinstance(refusal, Refusal):
        return format_refusal(refusal, language)
    message = str(reason)
    if phrases is not None:
        known = phrase(phrases, message)
        if known != message:
            return known
    if language == DEFAULT:
        return message
    return phrase(Catalogue("service", "text", language).text, message)
