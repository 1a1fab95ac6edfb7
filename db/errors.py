"""Errors of the store, apart from the engine's own (which pass through untouched).

All are ``ValueError``s, like the engine's, so the bot's one error handler can answer both
with an ephemeral message: ``str(error)`` is meant for the coach, in English.

A refusal is raised as a key of the store's catalogue and its values, like the engine's
(``engine.refusals``): ``InvalidInputError("team_already_in_league", team=..., league=...)``.
Every language says it from ``db/text/refusals.<language>.json`` (English included: ``str(error)``
is the English sentence, ``error.text(language)`` another language's), a flat JSON object of
sentences and of the words a value names (``status.played``: pass ``Term("status", status)``);
a value that is itself a refusal (a store or engine error) is said in the language too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from engine import Refusal, format_refusal

__all__ = [
    "StoreError",
    "NotFoundError",
    "UnknownTeamError",
    "UnknownLeagueError",
    "MatchNotFoundError",
    "DuplicateNameError",
    "ChannelBusyError",
    "MatchChangedError",
    "MatchNotActiveError",
    "NotYourSideError",
    "NotAllowedError",
    "InvalidInputError",
    "LogCorruptError",
    "ChallengePendingError",
    "NoChallengeError",


    "UnusableDatabaseError",
    "SealUnopenedError",
    "BackupRefusedError",
    "refusal_catalogue",
]


@cache
def refusal_catalogue(language: str) -> Mapping[str, str]:
    """``db/text/refusals.<language>.json``; a language without the file reads English."""
    path = resources.files("db").joinpath(f"text/refusals.{language}.json")
    if not path.is_file():
        path = resources.files("db").joinpath("text/refusals.en.json")
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


class StoreError(ValueError):
    """Base class of the errors ``db`` raises on purpose; nothing was written.

    ``StoreError(key, **values)``: ``key`` is a sentence of the store's catalogue; ``refusal``
    carries it to be said in any language (``values`` kept for callers that read them)."""

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key, self.values = key, values
        self.refusal = Refusal(key, catalogue=refusal_catalogue, **values)
        super().__init__(format_refusal(self.refusal, "en"))

    def text(self, language: str) -> str:
        """The refusal in ``language``."""
        return format_refusal(self.refusal, language)


class NotFoundError(StoreError):
    """A row that does not exist (or belongs to another server)."""


class UnknownTeamError(NotFoundError):
    pass


class UnknownLeagueError(NotFoundError):
    pass


class MatchNotFoundError(NotFoundError):
    pass


class DuplicateNameError(StoreError):
    """A team or league name already taken on this server."""


class ChannelBusyError(StoreError):
    """The channel already has an active match."""


class MatchChangedError(StoreError):
    """Someone else's action was saved first: the caller's view of the match is stale."""

    def __init__(self, key: str = "match_changed") -> None:
        super().__init__(key)


class MatchNotActiveError(StoreError):
    """The match is finished or abandoned."""


class NotYourSideError(StoreError):
    """The user does not coach the side he tried to act for."""


class NotAllowedError(StoreError):
    """Only the team's coach, or the league's commissioner, may do that."""


class InvalidInputError(StoreError):
    """A value the store refuses before reaching the engine (an empty name, a bad side)."""


class LogCorruptError(StoreError):
    """The event log cannot rebuild the match (a gap in the sequence, no creation row)."""


class ChallengePendingError(StoreError):
    """The channel already has a pending challenge. Its values say who challenged whom and
    when it lapses: ``challenger`` and ``opponent`` (user ids), ``lapses`` (Unix seconds, for
    Discord's ``<t:...:R>``) and ``expires_at`` (the datetime)."""

    @property
    def expires_at(self) -> Any:
        return self.values.get("expires_at")


class NoChallengeError(NotFoundError):
    """The challenge was answered, withdrawn, has lapsed, or is not the member's to answer."""


class UnusableDatabaseError(StoreError):
    """The database cannot be used as it is: not a database, unreachable or refused, read-only
    where a write is needed, or a schema this code did not make or does not know yet."""


class SealUnopenedError(UnusableDatabaseError):
    """A sealed dice seed this key does not open (``db.seeds``): the key it was sealed with is
    lost, or another one is configured. A match can still be abandoned, unverifiable."""


class BackupRefusedError(UnusableDatabaseError):
    """``elfball backup`` made no backup; the message says why, and nothing was written at OUT."""
