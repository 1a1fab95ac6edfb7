"""Challenges and their answers, and abandoning a match: the transactions behind ``/match``.

Pending challenges and abandon votes are rows (``db.challenges``, ``db.abandon``): at most one
pending challenge per channel, enforced by the database, so two challenges at the same moment
keep one and refuse the other by name; accept and decline act on the challenge's id and version,
and an accept starts the match in the same transaction that consumes the challenge.

The coaches' entropy is fixed when they act (docs/dice.md): a coach may give words of his own on
a challenge, an accept or the Start of a match against the AI coach (``words_entropy``: a label
and the first 16 hex digits of the words' SHA-256), else his interaction's id counts. The
answer's entropy is stored before the seed is computed (``db.challenges.record_answer``). A
challenge to the bot posts its commitment and waits for the challenger's Start (``start_ai``),
so against the AI coach too the seed takes entropy that did not exist when it was committed.

A stored team is played only by its coach (``authority.require_team_owner``): otherwise any
member could start a match with another coach's team and lock it out of its league fixture.
Refusals the bot words itself are ``Refused`` with its catalogue's key.
"""

from __future__ import annotations

import hashlib
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
from engine import RULES_EDITION, ElfballError, RuleOptions, Term, all_team_lists, team_list

from . import authority
from .authority import require_team_owner
from .limits import require_ai_match_room, require_challenge_room
from .match_rules import MatchSide
from .matches import AI_COACH_ID, MatchService, Outcome
from .refusal import Refused

__all__ = ["CHALLENGE_LAPSE", "DEFAULT_AI_LEVEL", "MAX_WORDS", "Abandon", "words_entropy", "entropy_of", "challenge_ai",
           "start_ai", "propose", "accept", "decline", "abandon", "in_server"]

Sessions = Callable[[], AbstractContextManager[Session]]

#: How long a challenge waits for its answer; after that another may replace it.
CHALLENGE_LAPSE = timedelta(hours=24)
#: The AI coach's level when a challenge to the bot names none: the heuristic, as before levels.
DEFAULT_AI_LEVEL = "easy"
#: The most characters a coach's words may have (Discord's option and the modal say so too).
MAX_WORDS = 100


def words_entropy(label: str, words: str) -> str:
    """A coach's words as a part of the entropy: ``label``, a hyphen and the first 16 hex digits
    of the SHA-256 of the words (UTF-8, without the spaces around them), so any words in any
    script fit ``engine.valid_entropy``. A coach recomputes it with
    ``printf '%s' 'his words' | sha256sum | cut -c1-16``."""
    text = words.strip()
    if not text:
        raise ValueError("no words: the caller uses the interaction's id instead (entropy_of)")
    if len(text) > MAX_WORDS:
        raise Refused("refuse.words_too_long", most=MAX_WORDS, given=len(text))
    return f"{label}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"


def entropy_of(label: str, words: str | None, interaction_id: int) -> str:
    """A coach's part of the entropy: his ``words`` if he gave any, else ``label`` and the id
    Discord gave his interaction (``c123…``, as before words existed)."""
    return words_entropy(label, words) if words and words.strip() else f"{label}{interaction_id}"


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


def _require_known(session: Session, guild_id: int, side: MatchSide, label: str) -> None:
    """A stored team named for ``side`` exists (the refusal the match's start would give), before
    anything is recorded."""
    if side.team is None:
        return
    try:
        db_teams.get_team(session=session, guild_id=guild_id, team=side.team)
    except UnknownTeamError as exc:
        raise UnknownTeamError("side_refused", side=Term("side", label), reason=exc) from None


def challenge_ai(*, guild_id: int, channel_id: int, user_id: int, team: str, options: RuleOptions, level: str | None,
                 draw: int, entropy: str, sessions: Sessions = session_scope) -> ChallengePublic:
    """Challenge the AI coach: a challenge whose commitment is posted now and which the challenger
    starts (``start_ai``) with entropy of his own, given after the commitment. Its team is drawn
    from the Basic team lists by ``draw`` (the interaction's id). Refused like a member's
    challenge, and for a stored team that is not there or not his."""
    ai_team = random.Random(draw).choice([t.id for t in all_team_lists(include_optional=False)])
    west = _side(user_id, team)
    with sessions() as s:
        if store.active_match(session=s, channel_id=channel_id) is not None:
            raise Refused("refuse.channel_busy")
        _require_known(s, guild_id, west, "west")
        _require_owned(s, guild_id, west)
        require_ai_match_room(s, guild_id, user_id)  # refused early; counted again as the match is added
        return db_challenges.propose_challenge(
            session=s, guild_id=guild_id, channel_id=channel_id, challenger_id=user_id, opponent_id=AI_COACH_ID,
            team=team, options=options.to_dict(), now=_now(), lapse_after=CHALLENGE_LAPSE, entropy=entropy,
            ai_level=level or DEFAULT_AI_LEVEL, ai_team=ai_team)


def _started(matches: MatchService, ch: ChallengePublic, *, guild_id: int, channel_id: int, user_id: int,
             east: MatchSide, ai_level: str | None = None) -> Outcome:
    """Start the match of a challenge whose answer is recorded: the seed is computed from what
    was recorded, and the challenge is used up in the transaction that creates the match (a
    refused start leaves it standing, with its answer's entropy, to answer again)."""
    def consume(session: Session) -> str | None:
        if ai_level:  # the member's and the server's caps, counted as the match is added
            require_ai_match_room(session, guild_id, user_id)
        seed = db_challenges.challenge_seed(session=session, challenge_id=ch.id)
        db_challenges.consume_challenge(session=session, challenge_id=ch.id, version=ch.version, user_id=user_id,
                                        now=_now())
        return seed

    # A challenge made before an upgrade names no rules edition: the match starts now, so it
    # plays the current one.
    options: Mapping[str, Any] = {"edition": RULES_EDITION, **ch.options}
    return matches.start(guild_id=guild_id, channel_id=channel_id, west=_side(ch.challenger_id, ch.team), east=east,
                         options=options, before=consume, ai_level=ai_level)


def start_ai(matches: MatchService, *, guild_id: int, channel_id: int, challenge_id: int, user_id: int,
             entropy: str) -> Outcome:
    """The challenger starts his match against the AI coach (the Start under the challenge's
    post, ``challenge_id``), adding ``entropy`` (his words' part, or the press's id) after the
    commitment was posted: recorded first, then the seed is computed and the match starts."""
    with matches.sessions() as s:
        ch = db_challenges.pending_challenge(session=s, channel_id=channel_id, now=_now())
        if ch is None or ch.id != challenge_id or not ch.ai_level:
            raise Refused("refuse.challenge_gone")
        if ch.challenger_id != user_id:
            raise Refused("refuse.start_not_yours", challenger=ch.challenger_id)
        ch = db_challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=user_id,
                                         entropy=entropy, now=_now())
    return _started(matches, ch, guild_id=guild_id, channel_id=channel_id, user_id=user_id,
                    east=MatchSide(coach_id=AI_COACH_ID, team_list=ch.ai_team), ai_level=ch.ai_level)


def propose(*, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int, team: str, options: RuleOptions,
            entropy: str, sessions: Sessions = session_scope) -> ChallengePublic:
    """Record a challenge in a free channel (refused where a match is being played)."""
    side = _side(challenger_id, team)
    with sessions() as s:
        if store.active_match(session=s, channel_id=channel_id) is not None:
            raise Refused("refuse.channel_busy")
        _require_owned(s, guild_id, side)
        require_challenge_room(s, guild_id, challenger_id, _now())  # counted in the transaction that adds it
        return db_challenges.propose_challenge(
            session=s, guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id, opponent_id=opponent_id,
            team=team, options=options.to_dict(), now=_now(), lapse_after=CHALLENGE_LAPSE, entropy=entropy)


def accept(matches: MatchService, *, guild_id: int, channel_id: int, user_id: int, team: str, entropy: str) -> Outcome:
    """The challenged member accepts with ``team``, adding ``entropy`` (his words' part, or his
    interaction's id): the entropy is recorded first (a durable trace of the accept), then the
    seed is computed, the match starts and the challenge is used up in one transaction."""
    with matches.sessions() as s:
        ch = db_challenges.pending_challenge(session=s, channel_id=channel_id, now=_now())
        if ch is None or ch.ai_level or ch.opponent_id != user_id:
            raise Refused("refuse.no_challenge")
        east = _side(user_id, team)  # its owner is checked as the match starts (match_rules.create_match)
        _require_known(s, guild_id, east, "east")
        ch = db_challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=user_id,
                                         entropy=entropy, now=_now())
    return _started(matches, ch, guild_id=guild_id, channel_id=channel_id, user_id=user_id, east=east)


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
