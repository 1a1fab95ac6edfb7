"""Refusals in the coach's language: the one place the bot and the console turn a refusal into words.

A refusal carries a catalogue key and its values (``engine.refusals``): the rules' and the
command parser's (an ``ElfballError`` with its ``refusal``), team building's limits (keyed in
the narration catalogue) and the store's (``StoreError``, keyed in ``db/text``). Each language
says it from its own catalogue; nothing here reads the English sentence to guess what it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from db.errors import StoreError
from engine import ElfballError, format_refusal
from engine.i18n import DEFAULT, Catalogue, phrase
from engine.teambuilding import TeamBuildingError

from .grammar import usage_refusal

__all__ = ["render_refusal"]


def render_refusal(reason: BaseException | str, language: str, *, phrases: Mapping[str, str] | None = None) -> str:
    """Why something was refused, in ``language``: a keyed refusal from that language's
    catalogue; else a plain message among the caller's ``phrases`` (the bot's ``phrase.*``
    keys, numbers kept), the parser's usages or the service's own phrases; else as written."""
    if isinstance(reason, TeamBuildingError):
        return reason.text(language)
    if isinstance(reason, StoreError):
        said = reason.translation(language)
        if said is not None:
            return said
    if isinstance(reason, ElfballError) and reason.refusal is not None:
        return format_refusal(reason.refusal, language)
    message = str(reason)
    if phrases is not None:
        known = phrase(phrases, message)
        if known != message:
            return known
    if language == DEFAULT:
        return message
    usage = usage_refusal(message, language)
    if usage is not None:
        return usage
    return phrase(Catalogue("service", "text", language).text, message)
