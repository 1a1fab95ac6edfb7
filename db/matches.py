"""The match store: one active match per channel, every action one transaction, the log rebuilds all.

How an action is saved (``append``)::

    UPDATE matches SET state = :new, version = version + 1, ...
     WHERE id = :id AND version = :seen AND status = 'active'
    INSERT INTO match_events (match_id, seq = :seen + 1, command, dice, events, ...)
    COMMIT

both in one transaction. If another action was saved since the caller read the match, the
UPDATE matches no row: ``MatchChangedError("the match changed, try again")`` and nothing is
written, so no action is ever lost or saved twice. ``seq`` equals the version it produced,
and ``(match_id, seq)`` is unique as a second guard.

The log alone rebuilds the match (``rebuild``): the creation row holds both team entries (as
roster dicts), the rule options and the dice-off results, and every later row its command,
the side that gave it and the fresh dice it drew, so ``ReplayDice`` retraces each step.

Dice come from ``HashDice(seed, offset=state.dice_drawn)`` with ``seed = secret + "+" +
entropy`` (``engine.dice.commit``): the secret's SHA-256 (``seed_commitment``) was public
before the coaches' entropy (``dice_entropy``) existed, the secret stays sealed while the
match is active and is revealed once it is over, so anyone can check every roll afterwards.

Every function takes ``session`` keyword-only and is one unit of work on it; engine errors
(an illegal command, a malformed one) pass through untouched with nothing written.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine import commands as C
from engine import rosters
from engine.ai import LEVELS as AI_LEVELS
from engine.dice import HashDice, ReplayDice
from engine.dice.commit import commitment_of, committed_part, entropy_part, join_seed
from engine.errors import MalformedInputError
from engine.match import Pending, PlayerEntry, Result, TeamEntry, apply, new_match, pending
from engine.rosters import TeamRoster
from engine.state import MatchState, Phase, RuleOptions

from ._util import clean_name, violates
from engine import Term
from .errors import (
    ChannelBusyError,
    InvalidInputError,
    LogCorruptError,
    MatchChangedError,
    MatchNotActiveError,
    MatchNotFoundError,
    NotYourSideError,
    UnknownTeamError,
)
from .models import (
    ACTIVE_CHANNEL_INDEX,
    EventKind,
    Match,
    MatchEvent,
    MatchEventPublic,
    MatchPublic,
    MatchStatus,
)
from .models._common import utcnow
from .seeds import is_sealed, key_for, open_seed, seal
from .teams import get_team, team_entry

__all__ = [
    "active_count",
    "SIDES",
    "MatchSide",
    "Applied",
    "seed_commitment",
    "public_match",
    "entry_to_json",
    "entry_from_json",
    "create_match",
    "get_match",
    "active_match",
    "latest_match",
    "list_matches",
    "due_matches",
    "match_events",
    "append",
    "submit",
    "rebuild",
    "history",
    "undo",
    "claim_reminder",
    "restore",
    "abandon",
    "finish",
]

SIDES = ("west", "east")


@dataclass(frozen=True)
class MatchSide:
    """Who plays one side of a new match, and with which team.

    Either ``team`` (a stored team of the server, by id or name) or ``team_list`` (a team
    list's Basic team for a friendly: ``lineup`` or its default lineup, named ``name`` or
    after the list).
    """

    coach_id: int
    team: int | str | None = None
    team_list: str | None = None
    lineup: str | Mapping[str, int] | None = None
    name: str | None = None


@dataclass(frozen=True)
class Applied:
    """What a saved action gives back: the match as now stored and the engine's result."""

    match: MatchPublic
    result: Result

    @property
    def state(self) -> MatchState:
        return self.result.state

    @property
    def pending(self) -> Pending:
        return pending(self.result.state)


def seed_commitment(seed: str) -> str:
    """The public SHA-256 (hex) a dice seed is checked against: of its committed secret, the
    part before the coaches' entropy (``engine.dice.commit``)."""
    return commitment_of(seed)


def entry_to_json(entry: TeamEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"name": entry.name, "roster": entry.roster.as_dict(), "player_names": list(entry.player_names)}
    if entry.players:  # the Advanced rules' careers and support: only when there are any
        out["players"] = [None if c is None else {"abilities": list(c.abilities),
                                                  "attributes": None if c.attributes is None else list(c.attributes)}
                          for c in entry.players]
    if entry.support:
        out["support"] = [[item, n] for item, n in entry.support]
    return out


def entry_from_json(data: Mapping[str, Any]) -> TeamEntry:
    """The exact ``TeamEntry`` back from ``entry_to_json`` (positions by id, in the stored order)."""
    roster = data["roster"]
    entries = tuple((rosters.position_by_id(p["position"]), int(p["count"])) for p in roster["players"])
    careers = tuple(None if c is None else PlayerEntry(tuple(c.get("abilities", ())),
                                                       None if c.get("attributes") is None else tuple(c["attributes"]))
                    for c in data.get("players", ()))
    return TeamEntry(data["name"], TeamRoster(team=rosters.team_list(roster["team"]), entries=entries),
                     tuple(data.get("player_names", ())), careers,  # type: ignore[arg-type]
                     tuple((str(item), int(n)) for item, n in data.get("support", ())))


def public_match(m: Match) -> MatchPublic:
    """A stored match as callers see it: the dice seed only once the match is over."""
    over = m.status != MatchStatus.ACTIVE
    # Over, the seed was stored in clear with the last write (``_revealed``).
    revealed = over and not is_sealed(m.dice_seed)
    return MatchPublic.model_validate(m, update={"seed": join_seed(m.dice_seed, m.dice_entropy) if revealed else None})


def _open_secret(session: Session, row: Match) -> str:
    """A match's dice secret, unsealed (``db.seeds``): the key is only needed for a sealed one."""
    if not is_sealed(row.dice_seed):
        return row.dice_seed
    return open_seed(row.dice_seed, key_for(session.get_bind()), row.seed_commitment, match_id=row.id)


def _open_seed(session: Session, row: Match) -> str:
    """A match's dice seed: its secret joined with the coaches' entropy."""
    return join_seed(_open_secret(session, row), row.dice_entropy)


def _revealed(session: Session, match_id: int) -> dict[str, Any]:
    """The values that reveal a match's seed as it ends: stored in clear, so checking the match
    (``elfball verify``, a copy of the database) needs no key."""
    return {"dice_seed": _open_secret(session, _match(session, match_id))}


def _coach(m: Match | MatchPublic, side: str | None) -> int | None:
    if side == "west":
        return m.west_coach_id
    if side == "east":
        return m.east_coach_id
    return None


# --- creating ----------------------------------------------------------------------------------
def _resolve_side(session: Session, guild_id: int, label: str, side: MatchSide) -> tuple[TeamEntry, int | None]:
    if (side.team is None) == (side.team_list is None):
        raise InvalidInputError("give_either_stored_team_team", side=Term("side", label))
    if side.team is not None:
        try:
            team = get_team(session=session, guild_id=guild_id, team=side.team)
        except UnknownTeamError as exc:
            raise UnknownTeamError("side_refused", side=Term("side", label), reason=exc) from None
        return team_entry(team), team.id
    tl = rosters.team_list(side.team_list)  # type: ignore[arg-type]
    roster = rosters.validate_basic_team(tl, side.lineup) if side.lineup is not None else rosters.default_roster(tl)
    name = clean_name(side.name, "team") if side.name is not None else tl.name
    return TeamEntry(name, roster), None


def _options(options: RuleOptions | Mapping[str, Any] | None) -> RuleOptions:
    if options is None:
        return RuleOptions()
    if isinstance(options, RuleOptions):
        return options
    try:
        return RuleOptions.from_dict(dict(options))
    except TypeError:
        raise InvalidInputError("unknown_rule_options", options=dict(options)) from None


def _busy(session: Session, channel_id: int) -> ChannelBusyError:
    m = session.exec(select(Match).where(Match.channel_id == channel_id, Match.status == MatchStatus.ACTIVE)).first()
    if m is None:
        return ChannelBusyError("channel_already_active_match_finish")
    return ChannelBusyError("channel_already_active_match_v",
                            match=m.id, west=m.west_team_name, east=m.east_team_name)


def create_match(
    *,
    session: Session,
    guild_id: int,
    channel_id: int,
    west: MatchSide,
    east: MatchSide,
    options: RuleOptions | Mapping[str, Any] | None = None,
    seed: str | None = None,
    deadline: datetime | None = None,
    entropy: str = "",
    ai_level: str | None = None,
) -> Applied:
    """Start a match in ``channel_id``: dice-off rolled, state and creation row stored together.
    ``ai_level``: the AI coach's level (``engine.ai.LEVELS``), kept in the row's ``options``
    under ``"ai_level"`` (not a rule: the engine's state never sees it).

    Refused with nothing written: ``UnknownTeamError`` (a team not on this server),
    ``ChannelBusyError`` (the channel has an active match, checked again by the database's
    unique index), ``InvalidInputError`` (a team against itself, bad options), and the
    engine's roster errors for a wrong team list or lineup.
    """
    west_entry, west_team = _resolve_side(session, guild_id, "west", west)
    east_entry, east_team = _resolve_side(session, guild_id, "east", east)
    if west_team is not None and west_team == east_team:
        raise InvalidInputError("team_cannot_play_itself")
    opts = _options(options)
    if ai_level is not None and ai_level not in AI_LEVELS:
        raise InvalidInputError("unknown_ai_level_one", level=ai_level, levels=", ".join(AI_LEVELS))
    if session.exec(select(Match.id).where(Match.channel_id == channel_id, Match.status == MatchStatus.ACTIVE)).first():
        raise _busy(session, channel_id)
    # ``seed`` is the committed secret (a whole seed, "secret+entropy", is split); ``entropy``
    # the coaches' part, added after the secret's commitment was published.
    secret = committed_part(seed) if seed else secrets.token_hex(32)
    entropy = entropy or (entropy_part(seed) if seed else "")
    seed = join_seed(secret, entropy)
    result = new_match(west_entry, east_entry, HashDice(seed), options=opts)
    state = result.state
    now = utcnow()
    side = pending(state).side
    match = Match(
        guild_id=guild_id,
        channel_id=channel_id,
        west_coach_id=west.coach_id,
        east_coach_id=east.coach_id,
        west_team_id=west_team,
        east_team_id=east_team,
        west_team_name=west_entry.name,
        east_team_name=east_entry.name,
        options={**opts.to_dict(), **({"ai_level": ai_level} if ai_level is not None else {})},
        rules_edition=opts.edition,
        state=state.to_dict(),
        version=0,
        status=MatchStatus.ACTIVE.value,
        deciding_side=side,
        deciding_user_id=west.coach_id if side == "west" else east.coach_id if side == "east" else None,
        deadline=deadline,
        dice_seed=seal(secret, key_for(session.get_bind())),  # unreadable in the database until the match ends
        seed_commitment=seed_commitment(secret),
        dice_entropy=entropy,
        created_at=now,
        updated_at=now,
    )
    session.add(match)
    try:
        session.flush()
        session.add(
            MatchEvent(
                match_id=match.id,  # type: ignore[arg-type]
                seq=0,
                kind=EventKind.CREATE.value,
                command={
                    "west": entry_to_json(west_entry),
                    "east": entry_to_json(east_entry),
                    "options": opts.to_dict(),
                },
                dice=result.dice,
                events=[e.to_dict() for e in result.events],
                created_at=now,
            )
        )
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        if violates(exc, ACTIVE_CHANNEL_INDEX):
            raise _busy(session, channel_id) from None
        raise
    return Applied(public_match(match), result)


# --- reading -----------------------------------------------------------------------------------
def _match(session: Session, match_id: int) -> Match:
    m = session.get(Match, match_id, populate_existing=True)
    if m is None:
        raise MatchNotFoundError("no_match", match=match_id)
    return m


def get_match(*, session: Session, match_id: int) -> MatchPublic:
    return public_match(_match(session, match_id))


def active_match(*, session: Session, channel_id: int) -> MatchPublic | None:
    """The channel's active match, if any."""
    m = session.exec(select(Match).where(Match.channel_id == channel_id, Match.status == MatchStatus.ACTIVE)).first()
    return public_match(m) if m else None


def latest_match(*, session: Session, channel_id: int) -> MatchPublic | None:
    """The channel's most recent match, whatever its status."""
    m = session.exec(select(Match).where(Match.channel_id == channel_id).order_by(col(Match.id).desc())).first()
    return public_match(m) if m else None


def list_matches(
    *, session: Session, guild_id: int, status: MatchStatus | str | None = None, limit: int = 100
) -> list[MatchPublic]:
    """The server's matches, newest first."""
    query = select(Match).where(Match.guild_id == guild_id)
    if status is not None:
        query = query.where(Match.status == MatchStatus(status).value)
    rows = session.exec(query.order_by(col(Match.id).desc()).limit(limit)).all()
    return [public_match(m) for m in rows]


def active_count(*, session: Session) -> dict[int, int]:
    """How many matches are in progress in every server, by rules edition (the metrics' gauge)."""
    query = (select(Match.rules_edition, func.count()).where(Match.status == MatchStatus.ACTIVE.value)
             .group_by(Match.rules_edition))
    return {int(edition): int(n) for edition, n in session.exec(query).all()}


def due_matches(*, session: Session, now: datetime | None = None, limit: int = 100, offset: int = 0) -> list[MatchPublic]:
    """Active matches whose deadline has passed, oldest deadline first (for the timeout sweep);
    ``offset``: skip that many (those another process serves)."""
    query = (
        select(Match)
        .where(
            Match.status == MatchStatus.ACTIVE,
            col(Match.deadline).is_not(None),
            col(Match.deadline) <= (now or utcnow()),
        )
        .order_by(col(Match.deadline), col(Match.id))
        .offset(offset)
        .limit(limit)
    )
    return [public_match(m) for m in session.exec(query).all()]


def claim_reminder(*, session: Session, match_id: int, seen_deadline: datetime, next_deadline: datetime) -> bool:
    """Move a due match's deadline on, if nobody else has: True for the one caller who should
    send the reminder. A conditional UPDATE, so several bot processes sharing the database never
    remind twice; the version is untouched (a reminder is not a move)."""
    stmt = (
        update(Match)
        .where(col(Match.id) == match_id, col(Match.deadline) == seen_deadline, col(Match.status) == MatchStatus.ACTIVE)
        .values(deadline=next_deadline)
        .execution_options(synchronize_session=False)
    )
    claimed = session.execute(stmt).rowcount == 1  # type: ignore[attr-defined]
    session.commit()
    return claimed


def match_events(*, session: Session, match_id: int, after_seq: int = -1) -> list[MatchEventPublic]:
    """The match's log from ``after_seq + 1`` on, in order."""
    query = (
        select(MatchEvent)
        .where(MatchEvent.match_id == match_id, MatchEvent.seq > after_seq)
        .order_by(col(MatchEvent.seq))
    )
    return [MatchEventPublic.model_validate(e) for e in session.exec(query).all()]


# --- writing -----------------------------------------------------------------------------------
def _write(
    session: Session,
    match: MatchPublic,
    values: dict[str, Any],
    event: MatchEvent,
) -> MatchPublic:
    """The optimistic write: bump the version if it is still ``match.version``, log the row, commit."""
    now = utcnow()
    values = {**values, "updated_at": now}
    if values.get("status", MatchStatus.ACTIVE.value) != MatchStatus.ACTIVE.value:
        values.update(_revealed(session, match.id))
    stmt = (
        update(Match)
        .where(col(Match.id) == match.id, col(Match.version) == match.version)
        .where(col(Match.status) == MatchStatus.ACTIVE)
        .values(version=Match.version + 1, **values)
        .execution_options(synchronize_session=False)
    )
    event.seq = match.version + 1
    event.created_at = now
    try:
        if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]
            session.rollback()
            raise _why_not(session, match.id, match.version)
        session.add(event)
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        if violates(exc, "uq_match_events_match_id_seq"):
            raise MatchChangedError() from None
        raise
    except BaseException:
        session.rollback()
        raise
    changed = {k: v for k, v in values.items() if k in MatchPublic.model_fields}
    if changed.get("status", MatchStatus.ACTIVE) != MatchStatus.ACTIVE:
        session.expire_all()
        return get_match(session=session, match_id=match.id)  # reveals the seed
    return match.model_copy(update={**changed, "version": match.version + 1})


def _why_not(session: Session, match_id: int, seen_version: int) -> Exception:
    """Why the guarded UPDATE matched no row. A writer that lost the race is told the match
    changed, even if the winning action ended it; only a match that ended without a newer
    version (``finish``) is reported as not active."""
    row = session.exec(select(Match.status, Match.version).where(Match.id == match_id)).first()
    if row is None:
        return MatchNotFoundError("no_match", match=match_id)
    status, version = row
    if version == seen_version and status != MatchStatus.ACTIVE:
        return MatchNotActiveError("match_status", match=match_id, status=Term("status", status))
    return MatchChangedError()


def _state_values(match: MatchPublic, state: MatchState, deadline: datetime | None) -> dict[str, Any]:
    side = pending(state).side if state.phase is not Phase.MATCH_OVER else None
    return {
        "state": state.to_dict(),
        "status": (MatchStatus.FINISHED if state.phase is Phase.MATCH_OVER else MatchStatus.ACTIVE).value,
        "deciding_side": side,
        "deciding_user_id": _coach(match, side),
        "deadline": deadline if state.phase is not Phase.MATCH_OVER else None,
    }


def append(
    *,
    session: Session,
    match: MatchPublic,
    result: Result,
    command: C.Command,
    by_side: str,
    actor_user_id: int | None,
    deadline: datetime | None = None,
) -> MatchPublic:
    """Store ``result`` (of ``command`` applied to ``match``'s state) as the next version.

    One transaction: the new snapshot, the bumped version, the deciding coach and
    ``deadline``, and the log row with the command, the dice drawn and the events. A match
    over (``Phase.MATCH_OVER``) becomes ``finished``. ``MatchChangedError`` if the match is
    no longer at ``match.version``; nothing is written then.
    """
    event = MatchEvent(
        match_id=match.id,
        seq=match.version + 1,
        kind=(EventKind.ANSWER if isinstance(command, C.Answer) else EventKind.COMMAND).value,
        command=command.to_dict(),
        actor_side=by_side,
        actor_user_id=actor_user_id,
        dice=result.dice,
        events=[e.to_dict() for e in result.events],
    )
    return _write(session, match, _state_values(match, result.state, deadline), event)


def _load_for(
    session: Session, match_id: int, by_side: str, actor_user_id: int | None, expected_version: int | None
) -> tuple[MatchPublic, str]:
    """The match and its dice seed, for a write by ``actor_user_id`` as ``by_side``: refused if the
    match is over, has moved past ``expected_version``, or the actor does not coach that side
    (None: the bot itself, e.g. a timeout's default)."""
    row = _match(session, match_id)
    match = public_match(row)
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    if expected_version is not None and match.version != expected_version:
        raise MatchChangedError()
    if actor_user_id is not None and actor_user_id != _coach(match, by_side):
        raise NotYourSideError("you_do_not_coach_side", side=Term("side", by_side))
    return match, _open_seed(session, row)


def submit(
    *,
    session: Session,
    match_id: int,
    by_side: str,
    actor_user_id: int | None,
    command: C.Command | Mapping[str, Any],
    expected_version: int | None = None,
    deadline: datetime | None = None,
) -> Applied:
    """Load the match, apply ``command`` for ``by_side`` with the match's dice, and save it.

    ``actor_user_id`` must coach ``by_side`` (None: the bot itself, e.g. a timeout's default).
    ``expected_version``: the version the coach was shown; if the match moved on since,
    ``MatchChangedError`` at once. ``deadline``: when the next decision is due (None: no
    deadline). Engine errors propagate untouched; nothing is written on any error.
    """
    if by_side not in SIDES:
        raise InvalidInputError("side_unknown", given=by_side)
    if isinstance(command, Mapping):
        command = C.command_from_dict(dict(command))
    if not isinstance(command, C.Command):
        raise MalformedInputError.of("record.not_a_command", text=repr(command))
    match, seed = _load_for(session, match_id, by_side, actor_user_id, expected_version)
    state = match.engine_state()
    result = apply(state, command, HashDice(seed, offset=state.dice_drawn), by=by_side)  # type: ignore[arg-type]
    stored = append(session=session, match=match, result=result, command=command, by_side=by_side,
                    actor_user_id=actor_user_id, deadline=deadline)
    return Applied(stored, result)


def abandon(*, session: Session, match_id: int, actor_user_id: int | None = None, reason: str = "") -> MatchPublic:
    """End an active match without a result (logged as an ``abandon`` row); reveals the seed."""
    match = get_match(session=session, match_id=match_id)
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    event = MatchEvent(match_id=match_id, seq=0, kind=EventKind.ABANDON.value, command=None,
                       actor_user_id=actor_user_id, events=[{"kind": "abandoned", "reason": reason}])
    values = {"status": MatchStatus.ABANDONED.value, "deciding_side": None, "deciding_user_id": None, "deadline": None}
    return _write(session, match, values, event)


def finish(*, session: Session, match_id: int) -> MatchPublic:
    """Mark a match whose state is over as ``finished`` (``append`` already does this itself)."""
    match = get_match(session=session, match_id=match_id)
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    if match.engine_state().phase is not Phase.MATCH_OVER:
        raise InvalidInputError("match_over_concede_abandon", match=match_id)
    stmt = (
        update(Match)
        .where(col(Match.id) == match_id, col(Match.version) == match.version, col(Match.status) == MatchStatus.ACTIVE)
        .values(status=MatchStatus.FINISHED.value, deciding_side=None, deciding_user_id=None, deadline=None,
                updated_at=utcnow(), **_revealed(session, match_id))
        .execution_options(synchronize_session=False)
    )
    if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]
        session.rollback()
        raise _why_not(session, match_id, match.version)
    session.commit()
    session.expire_all()
    return get_match(session=session, match_id=match_id)


# --- the log -----------------------------------------------------------------------------------
def _log(session: Session, match_id: int) -> list[MatchEvent]:
    query = select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(col(MatchEvent.seq))
    rows = list(session.exec(query).all())
    if not rows:
        if session.get(Match, match_id) is None:
            raise MatchNotFoundError("no_match", match=match_id)
        raise LogCorruptError("match_no_log", match=match_id)
    if rows[0].kind != EventKind.CREATE or rows[0].command is None:
        raise LogCorruptError("match_s_log_does_start", match=match_id)
    for expected, row in enumerate(rows):
        if row.seq != expected:
            raise LogCorruptError("match_s_log_jumps_from", match=match_id, before=expected - 1, after=row.seq)
    return rows


def rebuild(*, session: Session, match_id: int, version: int | None = None) -> MatchState:
    """The match's state from its log alone (never the snapshot): creation, then every command
    replayed with exactly the dice it drew; an ``undo`` row returns to the state of an earlier
    version. ``version``: stop there. ``LogCorruptError`` if the log does not hold together."""
    return _replayed(session, match_id, version)[-1]


def history(*, session: Session, match_id: int) -> list[tuple[MatchEventPublic, MatchState]]:
    """Every log row with the state just after it, rebuilt as ``rebuild`` does (a replay draws
    each action's board from these, not from the final state)."""
    rows = match_events(session=session, match_id=match_id)
    return list(zip(rows, _replayed(session, match_id, None), strict=True))


def _replayed(session: Session, match_id: int, version: int | None) -> list[MatchState]:
    """The state after each log row (up to ``version``)."""
    rows = _log(session, match_id)
    if version is not None:
        rows = rows[: version + 1]
    created = rows[0].command
    assert created is not None
    dice = ReplayDice(rows[0].dice)
    state = new_match(entry_from_json(created["west"]), entry_from_json(created["east"]), dice,
                      options=RuleOptions.from_dict(created["options"])).state
    _all_used(dice, match_id, 0)
    states = [state]
    for row in rows[1:]:
        if row.command is None:  # abandon / restore rows carry no engine command
            pass
        elif row.command.get("name") == UNDO:
            target = int(row.command["to_version"])
            if not 0 <= target < len(states):
                raise LogCorruptError("match_s_log_row_undoes", match=match_id, row=row.seq,
                                      version=target)
            state = states[target]
        else:
            dice = ReplayDice(row.dice)
            state = apply(state, C.command_from_dict(row.command), dice, by=row.actor_side).state  # type: ignore[arg-type]
            _all_used(dice, match_id, row.seq)
        states.append(state)
    return states


#: The log row name of an undo (kind ``command``; not an engine command: no rule is involved).
UNDO = "undo"
#: What may be taken back: the acting player's steps and turns, while no die has been rolled.
UNDOABLE = ("move", "face")


def undo(*, session: Session, match_id: int, by_side: str, actor_user_id: int | None,
         expected_version: int | None = None, deadline: datetime | None = None) -> Applied:
    """Take back the acting coach's last step or turn of the current action.

    Allowed while the action is in progress, no question is pending, and no die has been rolled
    since the action started ("until a die has been rolled"). Appends an ``undo`` row that
    returns the match to the version before that command; ``rebuild`` follows it.
    ``expected_version`` and ``deadline`` as for ``submit``.
    """
    match, _ = _load_for(session, match_id, by_side, actor_user_id, expected_version)
    state = match.engine_state()
    if state.phase is not Phase.ACTION or state.turn_side != by_side or state.in_progress is not None:
        raise InvalidInputError("only_acting_coach_undoes_now")
    rows = match_events(session=session, match_id=match_id)
    since_start: list[Any] = []
    for r in reversed(rows):
        since_start.insert(0, r)
        if (r.command or {}).get("name") == "start_action":
            break
    if any(r.dice for r in since_start):
        raise InvalidInputError("die_been_rolled_action_can")
    # The steps and turns still in effect: each undo took back the latest one.
    in_effect: list[Any] = []
    for r in since_start:
        name = (r.command or {}).get("name")
        if name in UNDOABLE:
            in_effect.append(r)
        elif name == UNDO and in_effect:
            in_effect.pop()
    if not in_effect:
        raise InvalidInputError("there_no_step_turn_action")
    target_row = in_effect[-1]
    to_version = target_row.seq - 1
    previous = rebuild(session=session, match_id=match_id, version=to_version)
    result = Result(previous, [], view=previous, dice=[])
    event = MatchEvent(match_id=match.id, seq=match.version + 1, kind=EventKind.COMMAND.value,
                       command={"name": UNDO, "to_version": to_version}, actor_side=by_side,
                       actor_user_id=actor_user_id, dice=[], events=[])
    stored = _write(session, match, _state_values(match, previous, deadline), event)
    return Applied(stored, result)


def _all_used(dice: ReplayDice, match_id: int, seq: int) -> None:
    if not dice.exhausted:
        raise LogCorruptError("match_s_log_row_recorded", match=match_id, row=seq)


def restore(*, session: Session, match_id: int, actor_user_id: int | None = None) -> MatchPublic:
    """Replace the stored snapshot with ``rebuild``'s (a corrupted snapshot recovered); logged as
    a ``restore`` row. The match must be active."""
    row = _match(session, match_id)
    match = MatchPublic.model_validate(row, update={"state": {}})  # the snapshot may not even parse
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    state = rebuild(session=session, match_id=match_id)
    event = MatchEvent(match_id=match_id, seq=0, kind=EventKind.RESTORE.value, command=None,
                       actor_user_id=actor_user_id, events=[{"kind": "restored"}])
    return _write(session, match, _state_values(match, state, row.deadline), event)
