"""The local console's session (``elfball local``) and the names every console command shares.

The console plays on the same match service, grammar and store as the bot: this module opens
the database it names, starts or resumes a table's match (against the AI coach, or two coaches
at one keyboard), and says the rules and the board in words. What is printed and read at the
keyboard stays in ``cli``; the console reaches the floors below only through here and the
other service modules.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from db import seeds
from db.engine import database_url, use_engine
from db.errors import StoreError
from service.match_rules import MatchSide
from db.migrate import open_database as migrated_database
from engine import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    Catalogue,
    ElfballError,
    Event,
    MalformedInputError,
    MatchState,
    RuleOptions,
    describe_rules,
    language_of,
    parse_rules,
)
from ai import LEVELS, make_ai

from .accessibility import board_words
from .matches import AI_COACH_ID, MatchService, Outcome

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LEVELS",
    "LOCAL_GUILD",
    "LOCAL_USER",
    "ElfballError",
    "MalformedInputError",
    "StoreError",
    "board_text",
    "console_text",
    "language_of",
    "match_options",
    "match_service",
    "open_database",
    "resume",
    "rules_text",
    "start",
]

#: The console's server and the human at the keyboard; the AI coach is ``AI_COACH_ID``.
LOCAL_GUILD = 0
LOCAL_USER = 1


def console_text(language: str) -> Catalogue:
    """The service's words in ``language`` (``service/text/<language>.json``): the console's own
    (``console.*``, ``demo.*``, ``verify.*``) live there beside the bot's."""
    return Catalogue("service", "text", language)


def match_options(profile: str, rules: str, goals: int | None) -> RuleOptions:
    """A match's options: the profile, then the optional rules on top, then the goals to win."""
    words = [f"profile={profile}", rules]
    if goals is not None:
        words.append(f"goals={goals}")
    return parse_rules(" ".join(words))


def rules_text(options: RuleOptions, language: str) -> str:
    """The match's rules in one line, in ``language``."""
    return describe_rules(options, language=language)


def board_text(state: MatchState, events: Iterable[Event] = (), *, view: MatchState | None = None,
               language: str = DEFAULT_LANGUAGE) -> str:
    """The board in words, as a screen reader gets it (with the last command's events, and the
    position mid-resolution while a decision is pending, if given)."""
    return board_words(state, events, view=view, language=language)


def open_database(path: str | None) -> None:
    """Use the SQLite file at ``path`` (else the environment's database), migrated first, its dice
    key checked (``db.seeds.check_key``); trouble is a ``StoreError`` that names the database or the key."""
    url = f"sqlite:///{Path(path).expanduser().resolve()}" if path else database_url()
    engine = migrated_database(url)
    try:
        seeds.check_key(engine)  # a weak ELFBALL_SECRET or a broken key file: refused now, not at the first die
    except StoreError:
        engine.dispose()
        raise
    use_engine(engine)


def match_service(*, width: int, ai_level: str) -> MatchService:
    """The match service of the open database, drawing ``width``-pixel boards, with an AI coach
    of ``ai_level`` (one of ``LEVELS``) for the console's matches against it."""
    return MatchService(width=width, ai=make_ai(ai_level))


def resume(service: MatchService, table: int) -> Outcome | None:
    """The table's match as it stands (after the AI played on), or None when none is active."""
    try:
        return service.status(table)
    except StoreError:
        return None


def start(service: MatchService, table: int, *, west: str, east: str, ai: str, options: RuleOptions) -> Outcome:
    """Start a match at ``table`` between the team lists ``west`` and ``east``; ``ai``: the side
    the AI coach plays (``west``, ``east``), or ``none`` for two coaches at the keyboard."""
    west_id = AI_COACH_ID if ai == "west" else LOCAL_USER
    east_id = AI_COACH_ID if ai == "east" else LOCAL_USER
    return service.start(
        guild_id=LOCAL_GUILD,
        channel_id=table,
        west=MatchSide(coach_id=west_id, team_list=west),
        east=MatchSide(coach_id=east_id, team_list=east),
        options=options,
    )
