"""Challenges and their answers, and abandoning a match: the transactions behind ``/match``.

Pending challenges and abandon votes are rows (``db.challenges``, ``db.abandon``): at most one
pending challenge per channel, enforced by the database, so two challenges at the same moment
keep one and refuse the other by name; accept and decline act on the challenge's id and version,
and an accept starts the match in the same transaction that consumes the challenge.

A stored team is played only by its coach (``authority.require_team_owner``): otherwise any
member could start a match with another coach's team and lock it out of its league fixture.
Refusals the bot words itself are ``Refused`` with its catalogue's key.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlmodel import Session

from db import challenges as db_challenges
from db import leagues as db_leagues
from db import matches as store
from db import teams as db_teams
from db.engine import session_scope
from db.errors import UnknownTeamError
from db.models.challenge import ChallengePublic
from db.models.match import MatchPublic
from engine import RULES_EDITION, ElfballError, RuleOptions, all_team_lists, team_list

from . import authority
from .authority import require_team_owner
from .match_rules import MatchSide
from .matches import AI_COACH_ID, MatchService, Outcome
from .refusal import Refused

__all__ = ["CHALLENGE_LAPSE", "DEFAULT_AI_LEVEL", "Abandon", "challenge_ai", "propose", "accept", "decline", "abandon",
           "in_server"]

Sessions = Callable[[], AbstractContextManager[Session]]

#: How long a challenge waits for its answer; after that another may replace it.
CHALLENGE_LAPSE = timedelta(hours=24)
#: The AI coach's level when a challenge to the bot names none: the heuristic, as before levels.
DEFAULT_AI_LEVEL = "easy"


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _side(user_id: int, team: str) -> MatchSide:
    """A stored team of the server by name, or a team list's default Basic team."""
    try:
        team_list(team)
    except ElfballError:
        return MatchSide(coach_id=user_id, team=team)
    return MatchSide(coach_id=user_id, team_list=team)


def _require_owned(session: Session, guild_id: int, side: MatchSide) -> None:
    """A stored team named for ``side`` in a challenge must be its coach's (the accept's team is
    checked as the match starts). A team that does not exist is left to the step that always
    refused it (the same words as before)."""
    if side.team is None:
        return
    try:
        team = db_teams.get_team(session=session, guild_id=guild_id, team=side.team)
    except UnknownTeamError:
        return
    require_team_owner(team, side.coach_id)


def in_server(match: MatchPublic, guild_id: int) -> None:
    """A channel id names one channel on Discord, but a match is its server's: refuse otherwise."""
    if match.guild_id != guild_id:
        raise Refused("refuse.other_server")


def challenge_ai(matches: MatchService, *, guild_id: int, channel_id: int, user_id: int, team: str,
                 options: RuleOptions, level: str | None, draw: int) -> Outcome:
    """Start a match against the AI coach at once; its team is drawn from the Basic team lists
    by ``draw`` (the interaction's id: the same challenge draws the same team)."""
    ai_team = random.Random(draw).choice([t.id for t in all_team_lists(include_optional=False)])
    west = _side(user_id, team)  # its owner is checked as the match starts (match_rules.create_match)
    return matches.start(guild_id=guild_id, channel_id=channel_id, west=west,
                         east=MatchSide(coach_id=AI_COACH_ID, team_list=ai_team), options=options,
                         ai_level=level or DEFAULT_AI_LEVEL)


def propose(*, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, team: str, options: RuleOptions,
            entropy: str, sessions: Sessions = session_scope) -> ChallengePublic:
    """Record a challenge in a free channel (refused where a match is being played)."""
    side = _side(challenger_id, team)
    with sessions() as s:
        if store.active_match(session=s, channel_id=channel_id) is not None:
            raise Refused("refuse.channel_busy")
        _require_owned(s, guild_id, side)
        return db_challenges.propose_challenge(
            session=s, guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id, opponent_id=opponent_id,
            team=team, options=options.to_dict(), now=_now(), lapse_after=CHALLENGE_LAPSE, entropy=entropy)


def accept(matches: MatchService, *, guild_id: int, channel_id: int, user_id: int, team: str, entropy: str) -> Outcome:
    """The challenged member accepts with ``team``: the match starts and the challenge is used
    up in one transaction."""
    with matches.sessions() as s:
        ch = db_challenges.pending_challenge(session=s, channel_id=channel_id, now=_now())
        if ch is None or ch.opponent_id != user_id:
            raise Refused("refuse.no_challenge")
        east = _side(user_id, team)  # its owner is checked as the match starts (match_rules.create_match)

    def consume(session: Session) -> str | None:
        # The challenge is used up in the transaction that creates the match: a refused start
        # (a team that does not exist) leaves it standing, to accept again. The accept's id is
        # the entropy nobody knew when the challenge's secret was posted.
        seed = db_challenges.challenge_seed(session=session, challenge_id=ch.id, entropy=entropy)
        db_challenges.consume_challenge(session=session, challenge_id=ch.id, version=ch.version, user_id=user_id,
                                        now=_now())
        return seed

    # A challenge made before an upgrade names no rules edition: the match starts now, so it
    # plays the current one.
    options: Mapping[str, Any] = {"edition": RULES_EDITION, **ch.options}
    return matches.start(guild_id=guild_id, channel_id=channel_id, west=_side(ch.challenger_id, ch.team), east=east,
                         options=options, before=consume)


def decline(*, channel_id: int, user_id: int, sessions: Sessions = session_scope) -> ChallengePublic:
    """The challenged member declines, or the challenger withdraws; the challenge as it was."""
    with sessions() as s:
        ch = db_challenges.pending_challenge(session=s, channel_id=channel_id, now=_now())
        if ch is None or user_id not in (ch.opponent_id, ch.challenger_id):
            raise Refused("refuse.no_challenge")
        return db_challenges.withdraw_challenge(session=s, challenge_id=ch.id, version=ch.version, user_id=user_id,
                                                now=_now())


@dataclass(frozen=True)
class Abandon:
    """Where an abandon stands: ``ended`` the abandoned match (its seed revealed), else None
    while ``waiting_on`` (the other coach) has not voted; ``moderator``: ended by one at once;
    ``owner``: ended at once by the owner of a team it plays (``authority.abandon_right``)."""

    ended: MatchPublic | None
    moderator: bool = False
    waiting_on: int | None = None
    owner: bool = False


def abandon(matches: MatchService, *, guild_id: int, channel_id: int, user_id: int, moderator: bool,
            as_coach: bool = False, reason: str = "") -> Abandon:
    """End the channel's match without a result: when both coaches have voted (the AI coach
    needs no vote), or at once by the owner of a team it plays or by a moderator who plays no
    part in it (``authority.abandon_right``: a moderator who coaches it votes, ``as_coach``).
    A league match ended at once is written in its league's audit, with who and ``reason``."""
    m = matches.current(channel_id)
    in_server(m, guild_id)
    humans = frozenset({m.west_coach_id, m.east_coach_id} - {AI_COACH_ID})
    right = authority.abandon_right(m, user_id, moderator=moderator, as_coach=as_coach, humans=humans)
    if right == "vote":
        vote = matches.vote_abandon(channel_id, user_id, match=m)  # a coach's right: authority.require_match_coach
        if vote.complete:
            return Abandon(vote.match)
        return Abandon(None, waiting_on=next(iter(humans - vote.voters)))
    said = "abandoned by a moderator" if right == "moderator" else "abandoned by its team's owner"
    ended = matches.abandon(channel_id, user_id, f"{said}: {reason.strip()}" if reason.strip() else said)
    with matches.sessions() as s:
        db_leagues.audit_league_match(session=s, match_id=ended.id, action=f"match_abandoned_{right}",
                                      actor_id=user_id, reason=reason)
    return Abandon(ended, moderator=right == "moderator", owner=right == "owner")
