"""The rules applied to stored matches: a match created, a command applied, a step taken back,
the log replayed. The store (``db.matches``) only keeps what these hand it.

Dice come from ``HashDice(seed, offset=state.dice_drawn)`` with ``seed = secret + "+" +
entropy`` (``engine.dice.commit``): the secret's SHA-256 was public before the coaches' entropy
existed, and the store keeps the secret sealed while the match is active. A replay draws each
row's recorded dice again (``ReplayDice``) and checks it used them all.

Every function takes ``session`` keyword-only and is one unit of work on it; engine errors (an
illegal command, a malformed one) pass through untouched with nothing written. None decides
who may act: the match service asks ``service.authority`` once, first.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from db import matches as store
from db.errors import InvalidInputError, LogCorruptError, MatchChangedError, UnknownTeamError
from db.models import MatchEventPublic, MatchPublic
from db.teams import get_team, team_entry
from ai import LEVELS as AI_LEVELS
from engine import (
    Command,
    DiceSource,
    ElfballError,
    Term,
    HashDice,
    MalformedInputError,
    MatchState,
    Pending,
    Phase,
    ReplayDice,
    Result,
    RuleOptions,
    Side,
    StartAction,
    TeamEntry,
    Undo,
    apply,
    command_from_dict,
    committed_part,
    default_roster,
    entropy_part,
    join_seed,
    new_match,
    pending,
    team_list,
    validate_basic_team,
)

from .authority import require_team_owner
from .lesson_book import Lesson, stated_dice
from .lesson_book import lesson as lesson_named
from db.names import clean_name

__all__ = [
    "MatchSide",
    "Applied",
    "UNDOABLE",
    "create_match",
    "create_lesson",
    "lesson_of",
    "dice_of",
    "LESSON_KEY",
    "submit",
    "undo",
    "rebuild",
    "history",
    "restore",
]

#: The key of a match's stored ``options`` that names the lesson it plays.
LESSON_KEY = "lesson"

#: What may be taken back: the acting player's steps and turns, while no die has been rolled.
UNDOABLE = ("move", "face")


@dataclass(frozen=True)
class MatchSide:
    """Who plays one side of a new match, and with which team.

    Either ``team`` (a stored team of the server, by id or name, which ``coach_id`` must own)
    or ``team_list`` (a team list's Basic team for a friendly: ``lineup`` or its default
    lineup, named ``name`` or after the list).
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


def _deciding(state: MatchState) -> Side | None:
    return None if state.phase is Phase.MATCH_OVER else pending(state).side


# --- creating ----------------------------------------------------------------------------------
def _resolve_side(session: Session, guild_id: int, label: str, side: MatchSide) -> tuple[TeamEntry, Any]:
    """The side's team entry and its stored team (None for a team list's)."""
    if (side.team is None) == (side.team_list is None):
        raise InvalidInputError("give_either_stored_team_team", side=Term("side", label))
    if side.team is not None:
        try:
            team = get_team(session=session, guild_id=guild_id, team=side.team)
        except UnknownTeamError as exc:
            raise UnknownTeamError("side_refused", side=Term("side", label), reason=exc) from None
        return team_entry(team), team
    tl = team_list(side.team_list)  # type: ignore[arg-type]  # set: checked above
    roster = validate_basic_team(tl, side.lineup) if side.lineup is not None else default_roster(tl)
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
    ``ai_level``: the AI coach's level (``ai.LEVELS``), kept in the row's ``options``
    under ``"ai_level"`` (not a rule: the engine's state never sees it).

    Refused with nothing written: ``UnknownTeamError`` (a team not on this server),
    ``InvalidInputError`` (a team against itself, bad options), ``NotAllowedError`` (a stored
    team its side's coach does not own: ``authority.require_team_owner``), ``ChannelBusyError``
    (the channel has an active match, checked again by the database's unique index), and the
    engine's roster errors for a wrong team list or lineup.
    """
    west_entry, west_team = _resolve_side(session, guild_id, "west", west)
    east_entry, east_team = _resolve_side(session, guild_id, "east", east)
    if west_team is not None and east_team is not None and west_team.id == east_team.id:
        raise InvalidInputError("team_cannot_play_itself")
    for side, team in ((west, west_team), (east, east_team)):
        if team is not None:
            require_team_owner(team, side.coach_id, "play")
    opts = _options(options)
    if ai_level is not None and ai_level not in AI_LEVELS:
        raise InvalidInputError("unknown_ai_level_one", level=ai_level, levels=", ".join(AI_LEVELS))
    store.check_channel_free(session=session, channel_id=channel_id)
    # ``seed`` is the committed secret (a whole seed, "secret+entropy", is split); ``entropy``
    # the coaches' part, added after the secret's commitment was published.
    secret = committed_part(seed) if seed else secrets.token_hex(32)
    entropy = entropy or (entropy_part(seed) if seed else "")
    result = new_match(west_entry, east_entry, HashDice(join_seed(secret, entropy)), options=opts)
    match = store.insert_match(
        session=session, guild_id=guild_id, channel_id=channel_id, coaches=(west.coach_id, east.coach_id),
        team_ids=(west_team.id if west_team else None, east_team.id if east_team else None),
        entries=(west_entry, east_entry), options=opts,
        stored_options={**opts.to_dict(), **({"ai_level": ai_level} if ai_level is not None else {})},
        result=result, deciding_side=pending(result.state).side, secret=secret, entropy=entropy, deadline=deadline)
    return Applied(match, result)


def create_lesson(*, session: Session, guild_id: int, channel_id: int, user_id: int, lesson: Lesson) -> Applied:
    """Start ``lesson`` as a match in ``channel_id`` (the member's lessons thread): its position,
    the member coaching both sides (he answers the other team's questions too), no deadline;
    its ``options`` name the lesson, whose stated dice it rolls first (``dice_of``).
    ``ChannelBusyError`` if the channel has an active match."""
    state = lesson.start_state()
    west, east = (TeamEntry(t.name, default_roster(team_list(t.list_id))) for t in (state.teams["west"], state.teams["east"]))
    store.check_channel_free(session=session, channel_id=channel_id)
    match = store.insert_match(
        session=session, guild_id=guild_id, channel_id=channel_id, coaches=(user_id, user_id), team_ids=(None, None),
        entries=(west, east), options=state.options,
        stored_options={**state.options.to_dict(), LESSON_KEY: lesson.id}, result=Result(state, [], view=state),
        deciding_side=_deciding(state), secret=secrets.token_hex(32), entropy="", deadline=None, start_state=state)
    return Applied(match, Result(state, [], view=None))


def lesson_of(match: MatchPublic) -> str | None:
    """The lesson a match plays, if it is one (``create_lesson``)."""
    value = (match.options or {}).get(LESSON_KEY)
    return str(value) if value is not None else None


def dice_of(match: MatchPublic, seed: str, offset: int) -> DiceSource:
    """A match's dice from ``offset``: its seed's; a lesson's stated dice first."""
    name = lesson_of(match)
    return HashDice(seed, offset=offset) if name is None else stated_dice(lesson_named(name), seed, offset)


# --- acting ------------------------------------------------------------------------------------
def submit(
    *,
    session: Session,
    match_id: int,
    by_side: str,
    actor_user_id: int | None,
    command: Command | Mapping[str, Any],
    expected_version: int | None = None,
    deadline: datetime | None = None,
    known: MatchPublic | None = None,
    commit: bool = True,
) -> Applied:
    """Load the match, apply ``command`` for ``by_side`` with the match's dice, and save it.

    ``actor_user_id``: who gave it, for the log (None: the bot itself, e.g. a moderator's
    forfeit); whether he may is the caller's question (``service.authority``).
    ``expected_version``: the version the coach was shown; if the match moved on since,
    ``MatchChangedError`` at once. ``deadline``: when the next decision is due (None: no
    deadline). ``known``: the match as the caller has just read it, not read whole again.
    ``commit``: False leaves the write's transaction open: the caller reads what its answer needs
    in it, then commits. Engine errors propagate untouched; nothing is written on any error.
    """
    if by_side not in store.SIDES:
        raise InvalidInputError("side_unknown", given=by_side)
    if isinstance(command, Mapping):
        command = command_from_dict(dict(command))
    if not isinstance(command, Command) or isinstance(command, Undo):
        raise MalformedInputError.of("record.not_a_command", text=repr(command))
    match, seed = store.load_for_write(session=session, match_id=match_id, expected_version=expected_version,
                                       known=known)
    state = match.engine_state()
    try:
        result = apply(state, command, dice_of(match, seed, state.dice_drawn), by=by_side)  # type: ignore[arg-type]  # checked above
        stored = store.append(session=session, match=match, result=result, command=command, by_side=by_side,
                              actor_user_id=actor_user_id, deciding_side=_deciding(result.state), deadline=deadline,
                              commit=commit)
    except (ElfballError, MatchChangedError):
        # ``known`` was not read again: refused on it (by the engine, or by the guarded write),
        # the coach hears what a fresh read says first, that the match is over or moved on.
        if known is not None:
            store.still_current(session=session, match=match)
        raise
    return Applied(stored, result)


def undo(*, session: Session, match_id: int, by_side: str, actor_user_id: int | None,
         expected_version: int | None = None, deadline: datetime | None = None) -> Applied:
    """Take back the acting coach's last step or turn of the current action.

    Allowed while the action is in progress, no question is pending, and no die has been rolled
    since the action started ("until a die has been rolled"). Appends an ``undo`` row that
    returns the match to the version before that command; ``rebuild`` follows it.
    ``expected_version`` and ``deadline`` as for ``submit``.
    """
    match, _ = store.load_for_write(session=session, match_id=match_id, expected_version=expected_version)
    state = match.engine_state()
    if state.phase is not Phase.ACTION or state.turn_side != by_side or state.in_progress is not None:
        raise InvalidInputError("only_acting_coach_undoes_now")
    rows = store.match_events(session=session, match_id=match_id)
    since_start: list[MatchEventPublic] = []
    for r in reversed(rows):
        since_start.insert(0, r)
        if (r.command or {}).get("name") == StartAction.name:
            break
    if any(r.dice for r in since_start):
        raise InvalidInputError("die_been_rolled_action_can")
    # The steps and turns still in effect: each undo took back the latest one.
    in_effect: list[MatchEventPublic] = []
    for r in since_start:
        name = (r.command or {}).get("name")
        if name in UNDOABLE:
            in_effect.append(r)
        elif name == store.UNDO and in_effect:
            in_effect.pop()
    if not in_effect:
        raise InvalidInputError("there_no_step_turn_action")
    to_version = in_effect[-1].seq - 1
    previous = rebuild(session=session, match_id=match_id, version=to_version)
    stored = store.append_undo(session=session, match=match, state=previous, to_version=to_version, by_side=by_side,
                               actor_user_id=actor_user_id, deciding_side=_deciding(previous), deadline=deadline)
    return Applied(stored, Result(previous, [], view=previous, dice=[]))


# --- the log -----------------------------------------------------------------------------------
def rebuild(*, session: Session, match_id: int, version: int | None = None) -> MatchState:
    """The match's state from its log alone (never the snapshot): creation, then every command
    replayed with exactly the dice it drew; an ``undo`` row returns to the state of an earlier
    version. ``version``: stop there. ``LogCorruptError`` if the log does not hold together."""
    return _replayed(session, match_id, version)[-1]


def history(*, session: Session, match_id: int) -> list[tuple[MatchEventPublic, MatchState]]:
    """Every log row with the state just after it, rebuilt as ``rebuild`` does (a replay draws
    each action's board from these, not from the final state)."""
    rows = store.match_events(session=session, match_id=match_id)
    return list(zip(rows, _replayed(session, match_id, None), strict=True))


def _replayed(session: Session, match_id: int, version: int | None) -> list[MatchState]:
    """The state after each log row (up to ``version``)."""
    rows = store.checked_log(session=session, match_id=match_id)
    if version is not None:
        rows = rows[: version + 1]
    created = rows[0].command
    assert created is not None  # checked_log: the creation row holds the teams
    dice = ReplayDice(rows[0].dice)
    if "state" in created:  # a lesson: it starts from its position
        state = MatchState.from_dict(created["state"])
    else:
        state = new_match(store.entry_from_json(created["west"]), store.entry_from_json(created["east"]), dice,
                          options=RuleOptions.from_dict(created["options"])).state
    _all_used(dice, match_id, 0)
    states = [state]
    for row in rows[1:]:
        if row.command is None:  # abandon / restore rows carry no engine command
            pass
        elif row.command.get("name") == store.UNDO:
            target = int(row.command["to_version"])
            if not 0 <= target < len(states):
                raise LogCorruptError("match_s_log_row_undoes", match=match_id, row=row.seq,
                                      version=target)
            state = states[target]
        else:
            dice = ReplayDice(row.dice)
            state = apply(state, command_from_dict(row.command), dice, by=row.actor_side).state  # type: ignore[arg-type]  # a stored side
            _all_used(dice, match_id, row.seq)
        states.append(state)
    return states


def _all_used(dice: ReplayDice, match_id: int, seq: int) -> None:
    if not dice.exhausted:
        raise LogCorruptError("match_s_log_row_recorded", match=match_id, row=seq)


def restore(*, session: Session, match_id: int, actor_user_id: int | None = None) -> MatchPublic:
    """Replace the stored snapshot with ``rebuild``'s (a corrupted snapshot recovered); logged as
    a ``restore`` row. The match must be active."""
    state = rebuild(session=session, match_id=match_id)
    return store.replace_snapshot(session=session, match_id=match_id, state=state, deciding_side=_deciding(state),
                                  actor_user_id=actor_user_id)
