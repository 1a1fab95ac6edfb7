"""Pending challenges: at most one per channel, kept by the database, answered exactly once.

A challenge is a row of ``challenges`` (unique ``channel_id``), not an entry of a JSON
document rewritten whole, so two members challenging at the same instant in different
channels are both kept, and in the same channel the database keeps exactly one: the other
is told who was first (``ChallengePendingError``). A challenge lapses at ``expires_at``; a
lapsed one is ignored and replaced by the next.

Answering is a guarded ``DELETE ... WHERE id = ? AND version = ? AND expires_at > now`` plus
who may answer: of an accept racing a decline, exactly one deletes the row and the other gets
``NoChallengeError``. ``consume_challenge`` does not commit: the caller starts the match in
the same transaction (``service.match_rules.create_match`` commits it), so a match that fails to start
leaves the challenge standing.

The match's dice secret is drawn with the challenge (``dice_secret``, sealed as a live
match's is) and its SHA-256 posted with it (``dice_commitment``): the accept then adds the
entropy (``engine.dice.commit``), which nobody knew when the secret was fixed. The answer's
entropy is stored and committed first (``record_answer``: the accepting coach's, or against the
AI coach the challenger's Start), and only then is the seed computed (``challenge_seed``); an
answer that could not start the match keeps the entropy it recorded, so a retry draws the same
dice. A challenge to the bot (``ai_level`` set, ``opponent_id`` the AI coach's) waits for the
challenger's Start the same way.

Every function takes ``session`` keyword-only; times are compared in UTC.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine import commitment_of, join_seed, valid_entropy

from ._util import in_utc, violates
from engine import Term
from .errors import ChallengePendingError, InvalidInputError, NoChallengeError
from .models import MAX_CHALLENGE_TEAM, Challenge, ChallengePublic
from .seeds import key_for, open_seed, seal

__all__ = ["CHANNEL_CONSTRAINT", "propose_challenge", "pending_challenge", "record_answer", "challenge_seed",
           "consume_challenge", "withdraw_challenge"]

#: The unique constraint behind "one pending challenge per channel".
CHANNEL_CONSTRAINT = "uq_challenges_channel_id"
#: A lost insert is retried when the row it lost to is gone by the time it looks (answered meanwhile).
_ATTEMPTS = 5


def _pending_error(challenge: ChallengePublic) -> ChallengePendingError:
    return ChallengePendingError(
        "already_challenged_channel_challenge_lapses",
        challenger=challenge.challenger_id, opponent=challenge.opponent_id,
        lapses=int(challenge.expires_at.timestamp()), expires_at=challenge.expires_at)


def _options(options: Mapping[str, Any] | Any) -> dict[str, Any]:
    """Rule options as stored: a mapping, or anything with ``to_dict()`` (``RuleOptions``)."""
    to_dict = getattr(options, "to_dict", None)
    return dict(to_dict() if callable(to_dict) else options)


def propose_challenge(
    *,
    session: Session,
    guild_id: int,
    channel_id: int,
    challenger_id: int,
    opponent_id: int,
    team: str,
    options: Mapping[str, Any] | Any,
    now: datetime,
    lapse_after: timedelta,
    entropy: str = "",
    ai_level: str = "",
    ai_team: str = "",
) -> ChallengePublic:
    """Record ``challenger_id``'s challenge to ``opponent_id`` in ``channel_id``, lapsing at
    ``now + lapse_after``; committed. A dice secret is drawn and sealed with it; its
    commitment is in the result, to post. ``entropy`` is the challenger's (his words' part, or
    his interaction's id). ``ai_level``/``ai_team``: a challenge to the AI coach.

    A lapsed challenge in the channel is removed first. Refused with nothing written:
    ``ChallengePendingError`` when the channel has a pending challenge (also when another one
    was inserted at the same instant: the database's unique constraint decides),
    ``InvalidInputError`` for a challenge to oneself or a team name empty or too long.
    """
    if lapse_after <= timedelta(0):
        raise ValueError("a challenge must stay open for some time")  # the bot's setting: a bug, not a refusal
    if challenger_id == opponent_id:
        raise InvalidInputError("you_cannot_challenge_yourself")
    team = team.strip()
    if not team:
        raise InvalidInputError("name_missing", what=Term("what", "team"))
    if len(team) > MAX_CHALLENGE_TEAM:
        raise InvalidInputError("name_too_long", what=Term("what", "team"),
                                most=MAX_CHALLENGE_TEAM, given=len(team))
    if entropy and not valid_entropy(entropy):
        raise ValueError("entropy must be letters, digits, '.' or '-'")  # the bot's own value: a bug
    now = in_utc(now)
    stored = _options(options)
    secret = secrets.token_hex(32)
    sealed, commitment = seal(secret, key_for(session.get_bind())), commitment_of(secret)
    for attempt in range(_ATTEMPTS):
        session.execute(delete(Challenge).where(col(Challenge.channel_id) == channel_id, col(Challenge.expires_at) <= now)
                        .execution_options(synchronize_session=False))
        row = Challenge(guild_id=guild_id, channel_id=channel_id, challenger_id=challenger_id, opponent_id=opponent_id,
                        team=team, options=stored, created_at=now, expires_at=now + lapse_after,
                        dice_secret=sealed, dice_commitment=commitment, entropy=entropy, ai_level=ai_level,
                        ai_team=ai_team)
        session.add(row)
        try:
            session.commit()
            return ChallengePublic.model_validate(row)
        except IntegrityError as exc:
            session.rollback()
            if not violates(exc, CHANNEL_CONSTRAINT) or attempt == _ATTEMPTS - 1:
                raise
        first = pending_challenge(session=session, channel_id=channel_id, now=now)
        if first is not None:
            raise _pending_error(first)
    raise AssertionError("unreachable")


def pending_challenge(*, session: Session, channel_id: int, now: datetime) -> ChallengePublic | None:
    """The channel's challenge, unless there is none or it has lapsed by ``now``."""
    row = session.exec(select(Challenge).where(col(Challenge.channel_id) == channel_id,
                                               col(Challenge.expires_at) > in_utc(now))
                       .execution_options(populate_existing=True)).first()
    return ChallengePublic.model_validate(row) if row is not None else None


def record_answer(*, session: Session, challenge_id: int, version: int, user_id: int, entropy: str,
                  now: datetime) -> ChallengePublic:
    """The answer's ``entropy`` (the accepting coach's, or the challenger's Start against the AI
    coach), stored and committed before anybody computes the seed; the challenge as it now is
    (its version moved on). An answer already recorded stays: a second accept after one that
    could not start the match uses the first one's entropy. ``NoChallengeError`` when the
    challenge is gone, changed, lapsed or not ``user_id``'s to answer (nothing written)."""
    if not valid_entropy(entropy):
        raise ValueError("entropy must be letters, digits, '.' or '-'")  # the bot's own value: a bug
    now = in_utc(now)
    row = session.get(Challenge, challenge_id, populate_existing=True)
    answerer = None if row is None else (row.challenger_id if row.ai_level else row.opponent_id)
    if row is None or row.version != version or in_utc(row.expires_at) <= now or answerer != user_id:
        raise NoChallengeError("there_no_challenge_you_channel")
    if not row.accept_entropy:
        stmt = (update(Challenge).where(col(Challenge.id) == challenge_id, col(Challenge.version) == version)
                .values(accept_entropy=entropy, version=version + 1).execution_options(synchronize_session=False))
        if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
            session.rollback()
            raise NoChallengeError("there_no_challenge_you_channel")
        session.commit()
        row = session.get(Challenge, challenge_id, populate_existing=True)
        if row is None:
            raise NoChallengeError("there_no_challenge_you_channel")
    return ChallengePublic.model_validate(row)


def challenge_seed(*, session: Session, challenge_id: int, entropy: str = "") -> str | None:
    """The dice seed of the match this challenge becomes: its committed secret joined with the
    challenger's entropy and the answer's, as recorded (``record_answer``; ``entropy`` when none
    was recorded, as before answers were recorded). None for a challenge
    made before secrets were committed (the match then draws its own) or one no longer there."""
    row = session.get(Challenge, challenge_id, populate_existing=True)
    if row is None or not row.dice_secret:
        return None
    secret = open_seed(row.dice_secret, key_for(session.get_bind()), row.dice_commitment, match_id=f"c{row.id}")
    return join_seed(secret, ".".join(part for part in (row.entropy, row.accept_entropy or entropy) if part))


def _answer(session: Session, challenge_id: int, version: int, user_id: int, now: datetime, who: tuple[str, ...],
            refusal: NoChallengeError) -> ChallengePublic:
    """Delete the challenge if it is still the one the member saw, has not lapsed, and
    ``user_id`` is one of its ``who`` (member columns); else ``refusal``. Not committed."""
    now = in_utc(now)
    row = session.get(Challenge, challenge_id, populate_existing=True)
    if row is None or row.version != version or in_utc(row.expires_at) <= now \
            or all(getattr(row, member) != user_id for member in who):
        raise refusal
    public = ChallengePublic.model_validate(row)
    # The same conditions again, in the statement that deletes: of two racing answers one wins.
    stmt = (delete(Challenge)
            .where(col(Challenge.id) == challenge_id, col(Challenge.version) == version, col(Challenge.expires_at) > now)
            .where(or_(*(getattr(Challenge, member) == user_id for member in who)))
            .execution_options(synchronize_session=False))
    if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
        session.rollback()
        raise refusal
    session.expunge(row)
    return public


def consume_challenge(*, session: Session, challenge_id: int, version: int, user_id: int, now: datetime) -> ChallengePublic:
    """The opponent ``user_id`` accepts (the challenger, for a challenge to the AI coach): the
    challenge is deleted (still at ``version``, not lapsed) and returned, WITHOUT committing. Start the match in the same session, which
    commits both (``create_match`` does); if it fails, roll back and the challenge stands.
    ``NoChallengeError`` otherwise (nothing written)."""
    row = session.get(Challenge, challenge_id)
    who = ("challenger_id",) if row is not None and row.ai_level else ("opponent_id",)
    return _answer(session, challenge_id, version, user_id, now, who, NoChallengeError("there_no_challenge_you_channel"))


def withdraw_challenge(*, session: Session, challenge_id: int, version: int, user_id: int, now: datetime) -> ChallengePublic:
    """The opponent declines, or the challenger withdraws: the challenge (still at ``version``,
    not lapsed) is deleted, committed, and returned. ``NoChallengeError`` otherwise."""
    gone = _answer(session, challenge_id, version, user_id, now, ("opponent_id", "challenger_id"),
                   NoChallengeError("there_no_challenge_from_you"))
    session.commit()
    return gone
