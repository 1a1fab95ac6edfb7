"""Errors of the store, apart from the engine's own (which pass through untouched).

All are ``ValueError``s, like the engine's, so the bot's one error handler can answer both
with an ephemeral message: ``str(error)`` is meant for the coach.
"""

from __future__ import annotations

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
]


class StoreError(ValueError):
    """Base class of the errors ``db`` raises on purpose; nothing was written."""


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
