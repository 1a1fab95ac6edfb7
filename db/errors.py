"""Errors of the store, apart from the engine's own (which pass through untouched).

All are ``ValueError``s, like the engine's, so the bot's one error handler can answer both
with an ephemeral message: ``str(error)`` is meant for the coach, in English.

A refusal that names something (a team, a fixture number, a coach, a status) is raised as an
English template and its values, ``InvalidInputError("{team} already plays in {league}",
team=..., league=...)``: ``str(error)`` is the English sentence, and ``error.text(language)``
says it in another language from ``db/text/refusals.<language>.json``, whose ``refusals`` are
keyed by the English template (as the engine's phrases are). A value whose placeholder and
value name an entry of its ``words`` (``{status}`` ``played`` -> ``status.played``) is
translated; a value that is itself a refusal (a store or engine error) is said in the language
too. A template with no translation gives None, and the caller falls back to other catalogues.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from engine import ElfballError, format_refusal

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
    "BackupRefusedError",
    "refusal_catalogue",
]


@cache
def refusal_catalogue(language: str) -> tuple[dict[str, str], dict[str, str]]:
    """``db/text/refusals.<language>.json``: (English template -> translation, words); empty
    for English or a language without the file."""
    path = resources.files("db").joinpath(f"text/refusals.{language}.json")
    if language == "en" or not path.is_file():
        return {}, {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return dict(data["refusals"]), dict(data["words"])


def _said(value: Any, language: str) -> Any:
    """A value that is itself a refusal, in ``language``."""
    if isinstance(value, StoreError):
        return value.text(language)
    if isinstance(value, ElfballError) and value.refusal is not None:
        return format_refusal(value.refusal, language)
    return value


class StoreError(ValueError):
    """Base class of the errors ``db`` raises on purpose; nothing was written.

    ``StoreError(template, **values)``: the message is ``template.format(**values)`` when
    values are given (the template and values are kept to say it in another language)."""

    def __init__(self, template: str = "", /, **values: Any) -> None:
        self.template, self.values = template, values
        super().__init__(template.format(**{k: _said(v, "en") for k, v in values.items()}) if values else template)

    def translation(self, language: str) -> str | None:
        """The refusal in ``language``, or None when its template has no translation there."""
        if language == "en":
            return str(self)
        refusals, words = refusal_catalogue(language)
        template = refusals.get(self.template)
        if template is None:
            return None
        shown = {}
        for key, value in self.values.items():
            value = _said(value, language)
            shown[key] = words.get(f"{key}.{value}", value) if isinstance(value, str) else value
        return template.format(**shown)

    def text(self, language: str) -> str:
        """The refusal in ``language`` (English when its template has no translation)."""
        found = self.translation(language)
        return str(self) if found is None else found


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

    def __init__(self, message: str = "the match changed, try again") -> None:
        super().__init__(message)


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


class BackupRefusedError(UnusableDatabaseError):
    """``elfball backup`` made no backup; the message says why, and nothing was written at OUT."""
