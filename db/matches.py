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

The log alone rebuilds the match (``service.match_rules.rebuild``): the creation row holds both
team entries (as roster dicts), the rule options and the dice-off results, and every later row
its command, the side that gave it and the fresh dice it drew, so ``ReplayDice`` retraces each
step; ``checked_log`` gives the rows once they hold together.

Dice come from ``HashDice(seed, offset=state.dice_drawn)`` with ``seed = secret + "+" +
entropy`` (``engine.dice.commit``): the secret's SHA-256 (``seed_commitment``) was public
before the coaches' entropy (``dice_entropy``) existed, the secret stays sealed while the
match is active and is revealed once it is over, so anyone can check every roll afterwards.

No rule lives here: the match service applies commands, replays the log and takes back steps
(``service.match_rules``) and hands the store what to write; the store checks once that the
match is still at the version the caller read (the guarded UPDATE above) and writes it.

Every function takes ``session`` keyword-only and is one unit of work on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Row, bindparam, func, insert, update
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine import (
    Answer,
    Command,
    MatchState,
    Phase,
    PlayerEntry,
    Result,
    RuleOptions,
    Side,
    TeamEntry,
    TeamRoster,
    Undo,
    commitment_of,
    join_seed,
    position_by_id,
    team_list,
)

from ._util import violates
from engine import Term
from .errors import (
    ChannelBusyError,
    InvalidInputError,
    LogCorruptError,
    MatchChangedError,
    MatchNotActiveError,
    MatchNotFoundError,
    SealUnopenedError,
)
from .models import (
    ACTIVE_CHANNEL_INDEX,
    EventKind,
    Match,
    MatchEvent,
    MatchEventPublic,
    MatchPublic,
    MatchStatus,
    Team,
)
from .models._common import as_utc, utcnow
from .seeds import is_sealed, key_for, open_seed, seal

__all__ = [
    "active_count",
    "SIDES",
    "UNDO",
    "seed_commitment",
    "public_match",
    "entry_to_json",
    "entry_from_json",
    "check_channel_free",
    "insert_match",
    "get_match",
    "active_match",
    "latest_match",
    "list_matches",
    "due_matches",
    "waiting_on",
    "match_events",
    "checked_log",
    "load_for_write",
    "still_current",
    "append",
    "append_undo",
    "claim_reminder",
    "replace_snapshot",
    "abandon",
    "dice_unverifiable",
    "finish",
]

SIDES = ("west", "east")


#: The log row name of an undo (``engine.Undo``'s; the row also names the version it returns to).
UNDO = Undo.name


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
    entries = tuple((position_by_id(p["position"]), int(p["count"])) for p in roster["players"])
    careers = tuple(None if c is None else PlayerEntry(tuple(c.get("abilities", ())),
                                                       None if c.get("attributes") is None else tuple(c["attributes"]))
                    for c in data.get("players", ()))
    return TeamEntry(data["name"], TeamRoster(team=team_list(roster["team"]), entries=entries),
                     tuple(data.get("player_names", ())), careers,
                     tuple((str(item), int(n)) for item, n in data.get("support", ())))


def public_match(m: Match | Row[Any]) -> MatchPublic:
    """A stored match as callers see it: the dice seed only once the match is over."""
    over = m.status != MatchStatus.ACTIVE
    # Over, the seed was stored in clear with the last write (``_revealed``).
    revealed = over and not is_sealed(m.dice_seed)
    public = MatchPublic.model_validate(m, update={"seed": join_seed(m.dice_seed, m.dice_entropy) if revealed else None})
    if not over:
        public._seal = _Seal(public.id, m.dice_seed, m.dice_entropy, m.seed_commitment)
    return public


class _Seal(NamedTuple):
    """What opening a match's seed needs of its row (``_open_seed``): set once, at its creation."""

    id: int
    dice_seed: str
    dice_entropy: str
    seed_commitment: str | None


def _open_secret(session: Session, row: Match | Row[Any]) -> str:
    """A match's dice secret, unsealed (``db.seeds``): the key is only needed for a sealed one."""
    if not is_sealed(row.dice_seed):
        return row.dice_seed
    return open_seed(row.dice_seed, key_for(session.get_bind()), row.seed_commitment, match_id=row.id)


def _open_seed(session: Session, row: Match | Row[Any]) -> str:
    """A match's dice seed: its secret joined with the coaches' entropy."""
    return join_seed(_open_secret(session, row), row.dice_entropy)


def _revealed(session: Session, match_id: int) -> dict[str, Any]:
    """The values that reveal a match's seed as it ends: stored in clear, so checking the match
    (``elfball verify``, a copy of the database) needs no key."""
    return {"dice_seed": _open_secret(session, _match(session, match_id))}


def _coach(m: Match | MatchPublic | Row[Any], side: str | None) -> int | None:
    if side == "west":
        return m.west_coach_id
    if side == "east":
        return m.east_coach_id
    return None


# --- creating ----------------------------------------------------------------------------------
def _owner(session: Session, team_id: int | None) -> int | None:
    """Who owns a stored team as a match starts with it (None for a team list's team)."""
    team = session.get(Team, team_id) if team_id is not None else None
    return team.coach_id if team is not None else None


def _busy(session: Session, channel_id: int) -> ChannelBusyError:
    m = session.exec(select(Match).where(Match.channel_id == channel_id, Match.status == MatchStatus.ACTIVE)).first()
    if m is None:
        return ChannelBusyError("channel_already_active_match_finish")
    return ChannelBusyError("channel_already_active_match_v",
                            match=m.id, west=m.west_team_name, east=m.east_team_name)


def check_channel_free(*, session: Session, channel_id: int) -> None:
    """``ChannelBusyError`` (naming the match) if the channel has an active match; the database's
    unique index checks again as ``insert_match`` writes."""
    if session.exec(select(Match.id).where(Match.channel_id == channel_id, Match.status == MatchStatus.ACTIVE)).first():
        raise _busy(session, channel_id)


def insert_match(
    *,
    session: Session,
    guild_id: int,
    channel_id: int,
    coaches: tuple[int, int],
    team_ids: tuple[int | None, int | None],
    entries: tuple[TeamEntry, TeamEntry],
    options: RuleOptions,
    stored_options: Mapping[str, Any],
    result: Result,
    deciding_side: Side | None,
    secret: str,
    entropy: str,
    deadline: datetime | None = None,
    start_state: MatchState | None = None,
) -> MatchPublic:
    """Store a new match (west, east in each pair): its state after the dice-off (``result``)
    and its creation row, committed together. ``stored_options``: the row's ``options`` (the
    rules' and what is kept beside them, the AI's level); each side's team owner is recorded
    with it (``Match.west_owner_id``). The dice ``secret`` is sealed (``db.seeds``)
    until the match ends; its commitment and the coaches' ``entropy`` are public.
    ``ChannelBusyError`` (the database's unique index) with nothing written.
    ``start_state``: a match that starts from a given position (a lesson) keeps it in its
    creation row, which its replay starts from instead of the teams' entries."""
    state = result.state
    now = utcnow()
    match = Match(
        guild_id=guild_id,
        channel_id=channel_id,
        west_coach_id=coaches[0],
        east_coach_id=coaches[1],
        west_team_id=team_ids[0],
        east_team_id=team_ids[1],
        west_team_name=entries[0].name,
        east_team_name=entries[1].name,
        options=dict(stored_options),
        rules_edition=options.edition,
        west_owner_id=_owner(session, team_ids[0]),
        east_owner_id=_owner(session, team_ids[1]),
        state=state.to_dict(),
        version=0,
        status=MatchStatus.ACTIVE.value,
        deciding_side=deciding_side,
        deciding_user_id=coaches[0] if deciding_side == "west" else coaches[1] if deciding_side == "east" else None,
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
                match_id=match.id,  # type: ignore[arg-type]  # flushed: the id is set
                seq=0,
                kind=EventKind.CREATE.value,
                command={
                    "west": entry_to_json(entries[0]),
                    "east": entry_to_json(entries[1]),
                    "options": options.to_dict(),
                    **({"state": start_state.to_dict()} if start_state is not None else {}),
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
    return public_match(match)


# --- reading -----------------------------------------------------------------------------------
_matches = Match.__table__  # type: ignore[attr-defined]  # SQLModel table classes get __table__ from SQLAlchemy
#: The reads of every action, built once and run through Core with parameters: a plain row is
#: all they need, and the ORM's identity map and instances cost more than the round trip.
_BY_ID = core_select(_matches).where(_matches.c.id == bindparam("match_id"))
_ACTIVE_IN = core_select(_matches).where(_matches.c.channel_id == bindparam("channel_id"),
                                         _matches.c.status == MatchStatus.ACTIVE.value)


def _match(session: Session, match_id: int) -> Row[Any]:
    """The match's stored row, read afresh."""
    m = session.execute(_BY_ID, {"match_id": match_id}).first()
    if m is None:
        raise MatchNotFoundError("no_match", match=match_id)
    return m


def get_match(*, session: Session, match_id: int) -> MatchPublic:
    return public_match(_match(session, match_id))


def active_match(*, session: Session, channel_id: int) -> MatchPublic | None:
    """The channel's active match, if any."""
    m = session.execute(_ACTIVE_IN, {"channel_id": channel_id}).first()
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
             .group_by(col(Match.rules_edition)))
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


def waiting_on(*, session: Session, user_id: int, limit: int = 50) -> list[MatchPublic]:
    """Active matches whose next decision is ``user_id``'s (the AI coach's, to resume), oldest first."""
    query = (select(Match).where(Match.status == MatchStatus.ACTIVE.value, Match.deciding_user_id == user_id)
             .order_by(col(Match.id)).limit(limit))
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
    claimed = session.execute(stmt).rowcount == 1  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
    session.commit()
    return claimed


_EVENTS_AFTER = (core_select(MatchEvent.__table__)  # type: ignore[attr-defined]  # SQLModel table classes get __table__
                 .where(col(MatchEvent.match_id) == bindparam("match_id"), col(MatchEvent.seq) > bindparam("after_seq"))
                 .order_by(col(MatchEvent.seq)))


def match_events(*, session: Session, match_id: int, after_seq: int = -1) -> list[MatchEventPublic]:
    """The match's log from ``after_seq + 1`` on, in order."""
    rows = session.execute(_EVENTS_AFTER, {"match_id": match_id, "after_seq": after_seq}).mappings().all()
    # Rows of this table, in its columns' types: built without validating every event of every
    # row again (each action's post reads its rows; validating them was ~0.3 ms an action).
    return [MatchEventPublic.model_construct(**{**r, "created_at": as_utc(r["created_at"])}) for r in rows]


# --- writing -----------------------------------------------------------------------------------
_match_events = MatchEvent.__table__  # type: ignore[attr-defined]  # as above
#: The log row's INSERT, built once: its values are parameters.
_INSERT_EVENT = insert(_match_events)
_guarded_updates: dict[tuple[str, ...], Any] = {}


def _guarded_update(columns: tuple[str, ...]) -> Any:
    """The guarded UPDATE that sets ``columns`` (parameters ``set_<column>``, ``seen_id``,
    ``seen_version``), built once per set of columns and run with parameters: building it and
    running it through the ORM's bulk UPDATE cost more than the round trip, on every action."""
    stmt = _guarded_updates.get(columns)
    if stmt is None:
        stmt = _guarded_updates[columns] = (
            update(_matches)
            .where(_matches.c.id == bindparam("seen_id"), _matches.c.version == bindparam("seen_version"),
                   _matches.c.status == MatchStatus.ACTIVE.value)
            .values(version=_matches.c.version + 1, **{k: bindparam(f"set_{k}") for k in columns})
        )
    return stmt


def _write(
    session: Session,
    match: MatchPublic,
    values: dict[str, Any],
    event: dict[str, Any],
    *,
    reveal: bool = True,
    commit: bool = True,
) -> MatchPublic:
    """The optimistic write: bump the version if it is still ``match.version``, log the row
    (``event``: the ``match_events`` columns but the sequence and the time), commit (unless
    ``commit`` is False: the caller reads more in the same transaction, then commits). A write
    that ends the match reveals its seed, unless ``reveal`` is False (its seal cannot be opened:
    ``abandon``)."""
    now = utcnow()
    values = {**values, "updated_at": now}
    if reveal and values.get("status", MatchStatus.ACTIVE.value) != MatchStatus.ACTIVE.value:
        values.update(_revealed(session, match.id))
    columns = tuple(sorted(values))
    params = {"seen_id": match.id, "seen_version": match.version, **{f"set_{k}": values[k] for k in columns}}
    row = {"command": None, "actor_side": None, "actor_user_id": None, "dice": [], "events": [], **event,
           "match_id": match.id, "seq": match.version + 1, "created_at": now}
    try:
        if session.execute(_guarded_update(columns), params).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
            session.rollback()
            raise _why_not(session, match.id, match.version)
        session.execute(_INSERT_EVENT, row)
        if commit:
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


def _state_values(match: MatchPublic, state: MatchState, deciding_side: Side | None,
                  deadline: datetime | None) -> dict[str, Any]:
    over = state.phase is Phase.MATCH_OVER
    side = None if over else deciding_side
    return {
        "state": state.to_dict(),
        "status": (MatchStatus.FINISHED if over else MatchStatus.ACTIVE).value,
        "deciding_side": side,
        "deciding_user_id": _coach(match, side),
        "deadline": None if over else deadline,
    }


def append(
    *,
    session: Session,
    match: MatchPublic,
    result: Result,
    command: Command,
    by_side: str,
    actor_user_id: int | None,
    deciding_side: Side | None,
    deadline: datetime | None = None,
    commit: bool = True,
) -> MatchPublic:
    """Store ``result`` (of ``command`` applied to ``match``'s state) as the next version.

    One transaction: the new snapshot, the bumped version, the side that decides next
    (``deciding_side``, and so its coach) and ``deadline``, and the log row with the command,
    the dice drawn and the events. A match over (``Phase.MATCH_OVER``) becomes ``finished``.
    ``MatchChangedError`` if the match is no longer at ``match.version``; nothing is written then.
    ``commit``: False leaves the transaction open for the caller to read more and commit.
    """
    event = {
        "kind": (EventKind.ANSWER if isinstance(command, Answer) else EventKind.COMMAND).value,
        "command": command.to_dict(),
        "actor_side": by_side,
        "actor_user_id": actor_user_id,
        "dice": result.dice,
        "events": [e.to_dict() for e in result.events],
    }
    return _write(session, match, _state_values(match, result.state, deciding_side, deadline), event, commit=commit)


def append_undo(*, session: Session, match: MatchPublic, state: MatchState, to_version: int, by_side: str,
                actor_user_id: int | None, deciding_side: Side | None, deadline: datetime | None = None) -> MatchPublic:
    """Store an undo as the next version: the match returns to ``state``, that of ``to_version``,
    and the log row (``UNDO``, no dice) says so, for the replay to follow. As ``append``."""
    event = {"kind": EventKind.COMMAND.value, "command": {"name": UNDO, "to_version": to_version},
             "actor_side": by_side, "actor_user_id": actor_user_id}
    return _write(session, match, _state_values(match, state, deciding_side, deadline), event)


#: What a write needs of a match its caller has just read: whether it is still active and at
#: that version, and its sealed seed (not its state: ~6 KB of JSON to parse and validate again).
_FOR_WRITE = core_select(_matches.c.id, _matches.c.status, _matches.c.version, _matches.c.dice_seed,
                         _matches.c.dice_entropy, _matches.c.seed_commitment).where(_matches.c.id == bindparam("match_id"))


def load_for_write(*, session: Session, match_id: int, expected_version: int | None = None,
                   known: MatchPublic | None = None) -> tuple[MatchPublic, str]:
    """The match and its dice seed (unsealed), for a write at ``expected_version``: refused at
    once if the match is over or has moved past that version (the write itself is guarded too).
    ``known``: the match as the caller has just read it (``active_match``, ``get_match``): its
    seed is opened from that read and nothing is read again; the guarded write refuses it as
    changed if the stored one moved on meanwhile (``still_current`` tells it first, for a caller
    whose command the engine refused on that state)."""
    if known is not None and known.id == match_id:
        if not known.active:
            raise MatchNotActiveError("match_status", match=match_id, status=Term("status", known.status))
        if expected_version is not None and known.version != expected_version:
            raise MatchChangedError()
        seal = known._seal if known._seal is not None else _current_row(session, known)
        return known, _open_seed(session, seal)
    row = _match(session, match_id)
    match = public_match(row)
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    if expected_version is not None and match.version != expected_version:
        raise MatchChangedError()
    return match, _open_seed(session, row)


def still_current(*, session: Session, match: MatchPublic) -> None:
    """Refuse ``match`` (as a caller read it) if the stored match has moved past its version
    (``MatchChangedError``) or is no longer active."""
    _current_row(session, match)


def _current_row(session: Session, match: MatchPublic) -> Row[Any]:
    check = session.execute(_FOR_WRITE, {"match_id": match.id}).first()
    if check is None:
        raise MatchNotFoundError("no_match", match=match.id)
    if check.status != MatchStatus.ACTIVE:
        raise MatchNotActiveError("match_status", match=match.id, status=Term("status", check.status))
    if check.version != match.version:
        raise MatchChangedError()
    return check


def abandon(*, session: Session, match_id: int, actor_user_id: int | None = None, reason: str = "") -> MatchPublic:
    """End an active match without a result (logged as an ``abandon`` row); reveals the seed.

    If the seal cannot be opened (the dice key was lost or replaced: ``SealUnopenedError``), the
    match is abandoned all the same, so its channel and teams are freed, but nothing is revealed:
    the seed stays sealed for good, the ``abandon`` row says ``"dice_unverifiable": true`` and the
    abandoned match has no seed (``dice_unverifiable``). A key that cannot be had at all (an
    unusable key file) is still refused: that is the operator's to fix."""
    match = get_match(session=session, match_id=match_id)
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    values: dict[str, Any] = {"status": MatchStatus.ABANDONED.value, "deciding_side": None, "deciding_user_id": None,
                              "deadline": None}
    row: dict[str, Any] = {"kind": "abandoned", "reason": reason}
    try:
        values.update(_revealed(session, match_id))
    except SealUnopenedError:
        row["dice_unverifiable"] = True  # the seal stays closed: nobody can check these dice
    event = {"kind": EventKind.ABANDON.value, "actor_user_id": actor_user_id, "events": [row]}
    return _write(session, match, values, event, reveal=False)  # revealed above, when it could be


def dice_unverifiable(match: MatchPublic) -> bool:
    """Whether ``match`` ended with its seal unopened (abandoned after its key was lost): its
    dice can never be checked. An active match's dice are not checkable yet, not unverifiable."""
    return not match.active and match.seed is None


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
    if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
        session.rollback()
        raise _why_not(session, match_id, match.version)
    session.commit()
    session.expire_all()
    return get_match(session=session, match_id=match_id)


# --- the log -----------------------------------------------------------------------------------
def checked_log(*, session: Session, match_id: int) -> list[MatchEventPublic]:
    """The match's whole log, once it holds together: it starts with the creation and its rows
    follow each other (``LogCorruptError`` otherwise; ``MatchNotFoundError`` for no match)."""
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
    return [MatchEventPublic.model_validate(r) for r in rows]


def replace_snapshot(*, session: Session, match_id: int, state: MatchState, deciding_side: Side | None,
                     actor_user_id: int | None = None) -> MatchPublic:
    """Replace the stored snapshot with ``state`` (the log's replay: a corrupted snapshot
    recovered); logged as a ``restore`` row. The match must be active."""
    row = _match(session, match_id)
    match = MatchPublic.model_validate(row, update={"state": {}})  # the snapshot may not even parse
    if not match.active:
        raise MatchNotActiveError("match_status", match=match_id, status=Term("status", match.status))
    event = {"kind": EventKind.RESTORE.value, "actor_user_id": actor_user_id, "events": [{"kind": "restored"}]}
    return _write(session, match, _state_values(match, state, deciding_side, row.deadline), event)
