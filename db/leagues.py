"""A league's season in the database: settings, members, fixtures, results, audit, aftermaths.

Every function is one unit of work on the ``session`` it is given and writes nothing when it
refuses. Results change only through ``record_result`` (a match ended) and ``correct_result``
(the commissioner), and both leave a row in ``league_audit``. An aftermath (what a coach still
has to decide after a match) changes only at the version its panel showed.

Joining and drawing the schedule lock the league's row, and every post-match change locks its
team's row, before they read (``db.locks``): two at once are checked one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import String, case, cast, func, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from engine import DEFAULT_BUDGET, ElfballError, join_seed, parse_rules, rules_string

from engine import Term
from .errors import InvalidInputError, MatchChangedError, NotFoundError, SealUnopenedError
from .locks import lock_row, valid_id
from .models import (
    Aftermath,
    AftermathPublic,
    Fixture,
    FixturePublic,
    FixtureStatus,
    League,
    LeagueAudit,
    LeagueAuditPublic,
    LeaguePublic,
    Match,
    MatchStatus,
    Team,
    TeamPublic,
)
from .models._common import utcnow
from .seeds import draw_committed, is_sealed, key_for, open_seed
from .teams import find_team, league_row, public_team

__all__ = [
    "FixtureChoice",
    "fixture_choices",
    "DEFAULT_SETTINGS",
    "settings_of",
    "clean_settings",
    "find_league",
    "update_settings",
    "rows_to_join",
    "enter",
    "league_teams",
    "make_schedule",
    "SETTING_CHOICES",
    "draw_secret",
    "save_draw",
    "advance_rounds",
    "fixtures",
    "get_fixture",
    "fixture_for_match",
    "commitments_posted",
    "fixture_secrets_open",
    "redraw_secrets",
    "start_fixture",
    "link_match",
    "reset_fixture",
    "record_result",
    "correct_result",
    "set_points",
    "audit",
    "add_audit",
    "audit_count",
    "audit_league_match",
    "audit_stand_in",
    "create_aftermath",
    "get_aftermath",
    "aftermath_seed",
    "fixture_seed",
    "potion_records",
    "revealed_potion_seed",
    "aftermaths_of",
    "open_aftermaths",
    "latest_aftermath",
    "save_aftermath",
    "team_busy",
    "lock_team",
    "MAX_REASON",
]

#: A league's rules unless its commissioner changed them.
DEFAULT_SETTINGS: dict[str, Any] = {
    "budget": DEFAULT_BUDGET,
    #: "Advanced rules games ... should usually be played to two or three goals to win" (p. 3).
    "goals_to_win": 2,
    "star2": False,
    "clock_hours": 0,
    "extra_players": False,
    "double_round": False,
    "points_win": 3,
    "points_draw": 1,
    "points_loss": 0,
    #: The competition (``service.formats``): round robin, knockout or Swiss; how the first
    #: round is ordered; what a drawn knockout tie gives; a Swiss's rounds (0: the default).
    "format": "round_robin",
    "seeding": "drawn",
    "draw_rule": "replay",
    "swiss_rounds": 0,
    #: A league in divisions: how many (each plays a round robin, then their leaders a play-off).
    "divisions": 2,
    #: The league's rules string (engine/options.py): profile, optional rules, French variants.
    "rules": "",
    #: Days each round lasts: its deadline when the schedule is drawn (0: none; ``service.deadlines``).
    "round_days": 0,
}
#: The settings that take one of a few words (``service.formats`` uses the same words).
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "format": ("round_robin", "knockout", "swiss", "double_elimination", "divisions"),
    "seeding": ("drawn", "seeded"),
    "draw_rule": ("replay", "higher_seed", "coin"),
}
#: The longest reason a commissioner may give for a correction (kept whole in the audit trail).
MAX_REASON = 200
_LIMITS: dict[str, tuple[int, int]] = {
    "swiss_rounds": (0, 30), "divisions": (2, 8),
    "budget": (60, 400), "goals_to_win": (1, 3), "clock_hours": (0, 168),
    "points_win": (0, 10), "points_draw": (0, 10), "points_loss": (0, 10), "round_days": (0, 60),
}


def settings_of(league: LeaguePublic | League | None) -> dict[str, Any]:
    """The league's settings with the defaults filled in (a team in no league: the defaults)."""
    return {**DEFAULT_SETTINGS, **(dict(league.settings) if league is not None else {})}


def clean_settings(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Only known settings, of the right type and within bounds; refuses anything else."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in DEFAULT_SETTINGS:
            raise InvalidInputError("unknown_league_setting_known", setting=Term("setting", key),
                                    known=", ".join(DEFAULT_SETTINGS))
        if key in SETTING_CHOICES:
            if value not in SETTING_CHOICES[key]:
                raise InvalidInputError("setting_choice", setting=Term("setting", key),
                                        choices=", ".join(SETTING_CHOICES[key]))
        elif isinstance(DEFAULT_SETTINGS[key], str):
            if not isinstance(value, str):
                raise InvalidInputError("setting_text", setting=Term("setting", key))
            try:
                value = rules_string(parse_rules(value))  # checked and written one way
            except ElfballError as exc:
                raise InvalidInputError("rules_refused", reason=exc) from None
        elif isinstance(DEFAULT_SETTINGS[key], bool):
            if not isinstance(value, bool):
                raise InvalidInputError("setting_true_false", setting=Term("setting", key))
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInputError("setting_whole_number", setting=Term("setting", key))
            low, high = _LIMITS[key]
            if not low <= value <= high:
                raise InvalidInputError("setting_range", setting=Term("setting", key), low=low, high=high)
        out[key] = value
    return out


def add_audit(session: Session, league_id: int, action: str, *, actor_id: int | None, fixture_id: int | None = None,
              detail: Mapping[str, Any] | None = None, reason: str = "") -> None:
    """One row of the audit trail (committed with the caller's change)."""
    session.add(LeagueAudit(league_id=league_id, fixture_id=fixture_id, actor_id=actor_id, action=action,
                            detail=dict(detail or {}), reason=reason[:200]))


def update_settings(*, session: Session, guild_id: int, league: int | str, actor_id: int,
                    changes: Mapping[str, Any], stand_in: Mapping[str, Any] | None = None,
                    reason: str = "") -> LeaguePublic:
    """Change the league's settings, audited with ``actor_id`` and ``stand_in`` (who a moderator
    stood in for: ``service.authority.require_commissioner`` decided he may)."""
    row = find_league(session, guild_id, league)
    clean = clean_settings(changes)
    before = settings_of(row)
    row.settings = {**dict(row.settings), **clean}
    add_audit(session, row.id, "settings_changed", actor_id=actor_id,  # type: ignore[arg-type]  # a stored row's id is set
              detail={"before": {k: before[k] for k in clean}, "after": clean, **(stand_in or {})}, reason=reason.strip())
    session.add(row)
    session.commit()
    return LeaguePublic.model_validate(row)


# --- members ---------------------------------------------------------------------------------------
def league_teams(*, session: Session, league_id: int | None) -> list[Team]:
    return list(session.exec(select(Team).where(Team.league_id == league_id).order_by(Team.name_key)).all())


def rows_to_join(*, session: Session, guild_id: int, league: int | str, team: int | str,
                 coach_id: int) -> tuple[League, Team]:
    """The league and the team a coach enters, both locked until the session commits (joins and
    the schedule one at a time), or why the team cannot join: it plays in a league already, the
    schedule is made, or the coach has a team there. Whether he owns it and whether it meets the
    league's rules, the service asks (``service.leagues.LeagueService.join``); ``enter`` writes."""
    lg = find_league(session, guild_id, league, lock=True)
    tm = find_team(session, guild_id, team, lock=True)
    if tm.league_id == lg.id:
        raise InvalidInputError("team_already_in_league", team=tm.name, league=lg.name)
    if tm.league_id is not None:
        other = session.get(League, tm.league_id)
        if other is None:
            raise InvalidInputError("team_in_another_league", team=tm.name)
        raise InvalidInputError("team_already_in_league", team=tm.name, league=other.name)
    if session.exec(select(Fixture.id).where(Fixture.league_id == lg.id)).first():
        raise InvalidInputError("league_schedule_made", league=lg.name)
    if any(t.coach_id == coach_id for t in league_teams(session=session, league_id=lg.id)):
        raise InvalidInputError("you_already_coach_team", league=lg.name)
    return lg, tm


def enter(*, session: Session, league: League, team: Team, coach_id: int, value: int) -> tuple[LeaguePublic, TeamPublic]:
    """Write ``team`` (locked by ``rows_to_join``) into ``league``, audited with its ``value``; committed."""
    lg, tm = league, team
    tm.league_id = lg.id
    tm.updated_at = utcnow()
    add_audit(session, lg.id, "team_joined", actor_id=coach_id, detail={"team": tm.name, "value": value})  # type: ignore[arg-type]  # a stored league has its id
    session.add(tm)
    session.commit()
    return LeaguePublic.model_validate(lg), public_team(tm)


# --- schedule and results --------------------------------------------------------------------------
def make_schedule(*, session: Session, guild_id: int, league: int | str, actor_id: int,
                  pairings: Sequence[tuple[int, int, int] | tuple[int, int, int, int | None]], double_round: bool,
                  stand_in: Mapping[str, Any] | None = None, reason: str = "", byes: Iterable[int] = (),
                  draw: Mapping[str, Any] | None = None, rounds: int | None = None) -> list[FixturePublic]:
    """Store the season's fixtures ``(round, home team id, away team id[, bracket slot])``, once;
    audited with ``actor_id`` and ``stand_in`` (as ``update_settings``). ``byes``: the teams the
    draw leaves out of its first fixtures (a knockout's or a Swiss's bye); ``draw``: what the
    draw was (``League.draw``); ``rounds``: how many the competition plays (the audit's)."""
    lg = find_league(session, guild_id, league, lock=True)  # a second draw waits, then finds this one
    if session.exec(select(Fixture.id).where(Fixture.league_id == lg.id)).first():
        raise InvalidInputError("league_has_schedule", league=lg.name)
    members = {t.id for t in league_teams(session=session, league_id=lg.id)}
    if len(members) < 2:
        raise InvalidInputError("league_needs_two_teams", league=lg.name)
    rows = []
    for rnd, home, away, *slot in pairings:
        if home not in members or away not in members or home == away:
            raise InvalidInputError("fixture_pairs_two_different_teams")
        fresh = _fresh_secrets(session)
        # The schedule's post (the answer to the command that draws it) shows every commitment.
        rows.append(Fixture(league_id=lg.id, round=rnd, home_team_id=home, away_team_id=away,  # type: ignore[arg-type]  # a stored row's id is set
                            slot=slot[0] if slot else None, posted_commitment=fresh["dice_commitment"], **fresh))
    if {t for _, home, away, *_slot in pairings for t in (home, away)} | set(byes) != members:
        # A team joined while the draw was being made (the draw reads the teams before this lock).
        raise InvalidInputError("league_teams_changed", league=lg.name)
    session.add_all(rows)
    lg.settings = {**dict(lg.settings), "double_round": double_round}
    if draw is not None:
        lg.draw = dict(draw)
    session.add(lg)
    fmt = settings_of(lg)["format"]
    add_audit(session, lg.id, "schedule_made", actor_id=actor_id,  # type: ignore[arg-type]  # a stored row's id is set
              detail={"fixtures": len(rows), "rounds": rounds or max(p[0] for p in pairings), "double_round": double_round,
                      **({"format": fmt} if fmt != "round_robin" else {}), **(stand_in or {})}, reason=reason.strip())
    session.commit()
    return [FixturePublic.model_validate(r) for r in rows]


def draw_secret(*, session: Session, guild_id: int, league: int | str) -> tuple[str, str]:
    """The league's draw secret in clear and its commitment; a league without one (made before
    migration 0012) gets one now, committed with this session."""
    lg = find_league(session, guild_id, league)
    if not lg.draw_commitment:
        lg.draw_secret, lg.draw_commitment = draw_committed(session.get_bind())
        session.add(lg)
        session.commit()
    return open_seed(lg.draw_secret, key_for(session.get_bind()), lg.draw_commitment,
                     match_id=f"league {lg.id}"), lg.draw_commitment


def save_draw(*, session: Session, guild_id: int, league: int | str, draw: Mapping[str, Any]) -> LeaguePublic:
    """Keep ``draw`` as the league's draw (a preview waiting to be confirmed); committed."""
    lg = find_league(session, guild_id, league, lock=True)
    lg.draw = dict(draw)
    session.add(lg)
    session.commit()
    return LeaguePublic.model_validate(lg)


def advance_rounds(*, session: Session, league: League, decisions: Mapping[int, tuple[int | None, str | None]],
                   drop: Iterable[int], add: Sequence[tuple[int, int, int, int | None]],
                   draw: Mapping[str, Any] | None = None, deadline: datetime | None = None,
                   channel_id: int | None = None) -> list[FixturePublic]:
    """A knockout's or a Swiss's next ties, in one transaction on ``league`` (locked by the
    caller, ``find_league(lock=True)``, before it read what it decided from): each decided tie's
    winner and ruling (fixture id → (team, ruling)), the scheduled fixtures no longer due
    (``drop``: a result corrected), the new ones ``(round, home, away, slot)``, due by
    ``deadline`` (if any) and reminded in ``channel_id``, and the draw's changes. A new
    fixture's commitments are not posted yet: ``/league play`` or ``/league fixtures`` posts
    them before it can start. Committed; the new fixtures."""
    for fixture_id, (winner, ruling) in decisions.items():
        session.execute(update(Fixture).where(col(Fixture.id) == fixture_id)
                        .values(winner_team_id=winner, ruling=ruling).execution_options(synchronize_session=False))
    for fixture_id in drop:
        row = session.get(Fixture, fixture_id)
        if row is not None and row.status == FixtureStatus.SCHEDULED and row.league_id == league.id:
            add_audit(session, row.league_id, "fixture_withdrawn", actor_id=None,
                      detail={"round": row.round, "home": row.home_team_id, "away": row.away_team_id})
            session.delete(row)
    rows = []
    for rnd, home, away, slot in add:
        rows.append(Fixture(league_id=league.id, round=rnd, home_team_id=home, away_team_id=away, slot=slot,  # type: ignore[arg-type]  # a stored row's id is set
                            deadline=deadline, deadline_channel_id=channel_id if deadline is not None else None,
                            **_fresh_secrets(session)))
    session.add_all(rows)
    if rows:
        add_audit(session, league.id, "round_drawn", actor_id=None,  # type: ignore[arg-type]  # a stored row's id is set
                  detail={"round": max(r for r, *_ in add), "fixtures": len(rows),
                          **({"deadline": f"{deadline:%Y-%m-%d %H:%M} UTC"} if deadline is not None else {})})
    if draw is not None:
        league.draw = dict(draw)
        session.add(league)
    session.commit()
    return [FixturePublic.model_validate(r) for r in rows]


def fixtures(*, session: Session, league_id: int) -> list[FixturePublic]:
    rows = session.exec(select(Fixture).where(Fixture.league_id == league_id).order_by(col(Fixture.round), col(Fixture.id)))
    return [FixturePublic.model_validate(r) for r in rows.all()]


@dataclass(frozen=True)
class FixtureChoice:
    """One fixture as an autocomplete offers it: the fixture, its league's name, its teams."""

    fixture: FixturePublic
    league: str
    home: str
    away: str
    home_coach: int
    away_coach: int


def fixture_choices(*, session: Session, guild_id: int, text: str = "", coach_id: int | None = None,
                    scheduled: bool = False, limit: int = 25) -> list[FixtureChoice]:
    """Up to ``limit`` fixtures of the server's leagues for an autocomplete, in one query that the
    database bounds: ``text`` (as typed: ``#12``, part of a league's or a team's name) filtered in
    SQL, ``coach_id``'s own fixtures only if given, ``scheduled`` ones only if asked; by league,
    round and number. Reaches the fixtures through ``leagues.guild_id`` and
    ``league_fixtures.league_id`` (both indexed), never the whole server's schedule in Python."""
    home, away = aliased(Team), aliased(Team)
    query = (sa_select(Fixture, col(League.name), col(home.name), col(away.name), col(home.coach_id), col(away.coach_id))
             .join(League, col(League.id) == col(Fixture.league_id))
             .join(home, col(home.id) == col(Fixture.home_team_id))
             .join(away, col(away.id) == col(Fixture.away_team_id))
             .where(col(League.guild_id) == guild_id))
    if coach_id is not None:
        query = query.where(or_(col(home.coach_id) == coach_id, col(away.coach_id) == coach_id))
    if scheduled:
        query = query.where(col(Fixture.status) == FixtureStatus.SCHEDULED.value)
    typed = " ".join(text.split()).casefold()
    number = typed.lstrip("#").strip()
    first: list[Any] = []
    if number.isascii() and number.isdigit() and len(number) <= 18:
        query = query.where(or_(cast(col(Fixture.id), String).startswith(number),
                                col(League.name_key).contains(typed, autoescape=True)))
        first = [case((col(Fixture.id) == int(number), 0), else_=1)]  # the fixture of that very number first
    elif typed:
        query = query.where(or_(col(League.name_key).contains(typed, autoescape=True),
                                col(home.name_key).contains(typed, autoescape=True),
                                col(away.name_key).contains(typed, autoescape=True)))
    query = query.order_by(*first, col(League.name_key), col(Fixture.round), col(Fixture.id)).limit(max(0, min(limit, 25)))
    return [FixtureChoice(FixturePublic.model_validate(f), league, h, a, int(hc), int(ac))
            for f, league, h, a, hc, ac in session.execute(query).all()]


def _fixture(session: Session, fixture_id: int) -> Fixture:
    row = session.get(Fixture, fixture_id, populate_existing=True) if valid_id(fixture_id) else None
    if row is None:
        raise NotFoundError("there_no_fixture", fixture=fixture_id)
    return row


def get_fixture(*, session: Session, fixture_id: int) -> FixturePublic:
    return FixturePublic.model_validate(_fixture(session, fixture_id))


def fixture_for_match(*, session: Session, match_id: int) -> FixturePublic | None:
    row = session.exec(select(Fixture).where(Fixture.match_id == match_id)).first()
    return FixturePublic.model_validate(row) if row else None


def _move(session: Session, fixture_id: int, frm: FixtureStatus, values: Mapping[str, Any]) -> bool:
    """Change the fixture only if it is still ``frm`` (two coaches starting it at once: one wins)."""
    stmt = (update(Fixture).where(col(Fixture.id) == fixture_id, col(Fixture.status) == frm.value)
            .values(updated_at=utcnow(), **values).execution_options(synchronize_session=False))
    return bool(session.execute(stmt).rowcount == 1)  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount


def _fresh_secrets(session: Session) -> dict[str, Any]:
    """A fixture's two dice secrets, sealed, and their commitments (published with the schedule)."""
    (dice, dice_commitment), (potion, potion_commitment) = (draw_committed(session.get_bind()) for _ in range(2))
    return {"dice_secret": dice, "dice_commitment": dice_commitment, "potion_secret": potion,
            "potion_commitment": potion_commitment}


def fixture_seed(*, session: Session, fixture_id: int, entropy: str) -> str | None:
    """The dice seed of the match a fixture becomes: its committed secret joined with the
    starting coach's ``entropy``. None for a fixture drawn before secrets were committed."""
    row = _fixture(session, fixture_id)
    if not row.dice_secret:
        return None
    secret = open_seed(row.dice_secret, key_for(session.get_bind()), row.dice_commitment, match_id=row.match_id)
    return join_seed(secret, entropy)


def fixture_secrets_open(*, session: Session, fixture_id: int) -> bool:
    """Whether the bot's key opens the fixture's sealed secrets (not after the key was lost)."""
    row = _fixture(session, fixture_id)
    key = key_for(session.get_bind())
    try:
        for sealed, commitment in ((row.dice_secret, row.dice_commitment), (row.potion_secret, row.potion_commitment)):
            if sealed:
                open_seed(sealed, key, commitment, match_id=row.match_id)
    except SealUnopenedError:
        return False
    return True


def redraw_secrets(*, session: Session, fixture_id: int) -> None:
    """Fresh secrets for a scheduled fixture, not posted yet (``posted_commitment`` keeps the old
    commitment, so ``/league play`` posts the new one before the fixture can start)."""
    _move(session, fixture_id, FixtureStatus.SCHEDULED, _fresh_secrets(session))
    session.commit()


def commitments_posted(*, session: Session, shown: Iterable[tuple[int, str]]) -> None:
    """A public post showed each ``(fixture id, dice commitment)``: recorded as posted where it
    is still the fixture's commitment (a fixture drawn again meanwhile stays unposted)."""
    for fixture_id, commitment in shown:
        session.execute(update(Fixture).where(col(Fixture.id) == fixture_id, col(Fixture.dice_commitment) == commitment)
                        .values(posted_commitment=commitment).execution_options(synchronize_session=False))
    session.commit()


def start_fixture(*, session: Session, fixture_id: int, channel_id: int, lineup: Mapping[str, list[int]]) -> None:
    """Claim a scheduled fixture for a match about to start in ``channel_id``."""
    if not _move(session, fixture_id, FixtureStatus.SCHEDULED,
                 {"status": FixtureStatus.PLAYING.value, "channel_id": channel_id, "lineup": dict(lineup)}):
        session.rollback()
        raise InvalidInputError("fixture_being_played_been_played")
    session.commit()


def link_match(*, session: Session, fixture_id: int, match_id: int) -> None:
    row = _fixture(session, fixture_id)
    row.match_id, row.updated_at = match_id, utcnow()
    session.add(row)
    session.commit()


def reset_fixture(*, session: Session, fixture_id: int) -> None:
    """Back to scheduled: its match could not start, or was abandoned."""
    # A secret serves one match at most. If a match was made with it (abandoned, so its seed is
    # revealed, or perhaps left behind by a start that failed half-way), the replay gets new
    # secrets: not posted yet (``posted_commitment`` keeps the old commitment), so ``/league play``
    # posts them first and the fixture starts only after that. If no match was made with it (the
    # start failed before), the secret stays: a coach who plays again with the same words gets
    # the same dice, so a start the bot dropped cannot re-roll them.
    row = _fixture(session, fixture_id)
    used = bool(row.dice_secret) and session.exec(
        select(Match.id).where(col(Match.seed_commitment) == row.dice_commitment)).first() is not None
    again = _fresh_secrets(session) if used else {}
    _move(session, fixture_id, FixtureStatus.PLAYING,
          {"status": FixtureStatus.SCHEDULED.value, "match_id": None, "channel_id": None, "lineup": {}, **again})
    session.commit()


def _result(row: Fixture) -> dict[str, Any]:
    return {"home_score": row.home_score, "away_score": row.away_score, "home_casualties": row.home_casualties,
            "away_casualties": row.away_casualties, "conceded_by": row.conceded_by}


def record_result(*, session: Session, fixture_id: int, result: Mapping[str, Any], aftermaths: Iterable[Aftermath] = (),
                  roster: Iterable[Any] = ()) -> bool:
    """The match of a playing fixture ended: store its result, the teams' post-match rows and the
    roster rows changed with it, in one transaction. False if it was already recorded."""
    values = {**result, "status": FixtureStatus.PLAYED.value, "played_at": utcnow()}
    if not _move(session, fixture_id, FixtureStatus.PLAYING, values):
        session.rollback()
        return False
    row = _fixture(session, fixture_id)
    add_audit(session, row.league_id, "result_recorded", actor_id=None, fixture_id=fixture_id,
              detail={"after": _result(row), "match": row.match_id})
    session.add_all([*aftermaths, *roster])
    session.flush()
    _reveal_potions(session, fixture_id)  # neither team has a potion to drink: nothing to keep secret
    session.commit()
    return True


def correct_result(*, session: Session, guild_id: int, fixture_id: int, actor_id: int, result: Mapping[str, Any],
                   reason: str, stand_in: Mapping[str, Any] | None = None) -> tuple[FixturePublic, dict[str, Any]]:
    """Set or correct a fixture's result, with a reason; the old one is kept in the audit trail
    (with ``actor_id`` and ``stand_in``, as ``update_settings``). Returns the fixture and its
    result before."""
    row = _fixture(session, fixture_id)
    lg = session.get(League, row.league_id)
    if lg is None or lg.guild_id != guild_id:
        raise NotFoundError("there_no_fixture_server", fixture=fixture_id)
    if row.status == FixtureStatus.PLAYING:
        raise InvalidInputError("fixture_s_match_still_being")
    if not reason.strip():
        raise InvalidInputError("give_reason_goes_into_audit")
    if len(reason.strip()) > MAX_REASON:
        raise InvalidInputError("reason_most_characters_given", most=MAX_REASON,
                                given=len(reason.strip()))
    for key in ("home_score", "away_score", "home_casualties", "away_casualties"):
        if not 0 <= int(result[key]) <= 99:
            raise InvalidInputError("result_range", result=Term("result", key.replace("_", " ")))
    before = _result(row)
    for key, value in result.items():
        setattr(row, key, value)
    row.status = FixtureStatus.PLAYED.value
    row.played_at = row.played_at or utcnow()
    row.updated_at = utcnow()
    add_audit(session, lg.id, "result_corrected", actor_id=actor_id, fixture_id=fixture_id,  # type: ignore[arg-type]  # a stored row's id is set
              detail={"before": before, "after": _result(row), **(stand_in or {})}, reason=reason.strip())
    session.add(row)
    session.commit()
    return FixturePublic.model_validate(row), before


def set_points(*, session: Session, points: Mapping[int, int]) -> None:
    """Cache each team's league points on its row (``Team.points``)."""
    for team_id, pts in points.items():
        session.execute(update(Team).where(col(Team.id) == team_id).values(points=pts)
                        .execution_options(synchronize_session=False))
    session.commit()


def audit(*, session: Session, league_id: int, limit: int | None = 50, offset: int = 0) -> list[LeagueAuditPublic]:
    """The league's audit trail, newest first: ``limit`` rows (None: all) after ``offset``."""
    query = select(LeagueAudit).where(LeagueAudit.league_id == league_id).order_by(col(LeagueAudit.id).desc())
    rows = session.exec(query.offset(offset).limit(limit)).all()
    return [LeagueAuditPublic.model_validate(r) for r in rows]


def audit_count(*, session: Session, league_id: int) -> int:
    """How many rows the league's audit trail holds."""
    return int(session.exec(select(func.count()).select_from(LeagueAudit)
                            .where(LeagueAudit.league_id == league_id)).one())


def audit_league_match(*, session: Session, match_id: int, action: str, actor_id: int | None,
                       reason: str = "", detail: Mapping[str, Any] | None = None) -> bool:
    """A row in the audit of the league whose fixture ``match_id`` plays (a match ended by a
    moderator or by a team's owner); committed. False for a match of no league."""
    row = session.exec(select(Fixture).where(Fixture.match_id == match_id)).first()
    if row is None:
        return False
    add_audit(session, row.league_id, action, actor_id=actor_id, fixture_id=row.id,
              detail={"match": match_id, **(detail or {})}, reason=reason.strip())
    session.commit()
    return True


def audit_stand_in(*, session: Session, league_id: int, action: str, actor_id: int, stand_in: Mapping[str, Any],
                   reason: str = "") -> None:
    """A row for a moderator's act for the commissioner that changes nothing stored (the
    league's site exported); committed."""
    add_audit(session, league_id, action, actor_id=actor_id, detail=dict(stand_in), reason=reason.strip())
    session.commit()


# --- aftermaths --------------------------------------------------------------------------------------
def create_aftermath(*, session: Session, fixture_id: int, side: str, team_id: int, coach_id: int,
                     state: Mapping[str, Any], entropy: str, potions_done: bool, applied: list[Any]) -> Aftermath:
    """A new post-match row (stored by ``record_result`` with the result). Its potion dice come
    from the fixture's potion secret, committed with the schedule, joined with ``entropy`` (the
    match's and the side); a fixture drawn before that gets a fresh secret, committed now."""
    row = _fixture(session, fixture_id)
    sealed, commitment = (row.potion_secret, row.potion_commitment) if row.potion_secret \
        else draw_committed(session.get_bind())
    return Aftermath(fixture_id=fixture_id, side=side, team_id=team_id, coach_id=coach_id, state=dict(state),
                     seed=sealed, seed_commitment=commitment, entropy=entropy, potions_done=potions_done,
                     applied=list(applied), done=False)


def _aftermath(session: Session, aftermath_id: int) -> Aftermath:
    row = session.get(Aftermath, aftermath_id, populate_existing=True) if valid_id(aftermath_id) else None
    if row is None:
        raise NotFoundError("there_no_post_match_report", report=aftermath_id)
    return row


def get_aftermath(*, session: Session, aftermath_id: int) -> AftermathPublic:
    return AftermathPublic.model_validate(_aftermath(session, aftermath_id))


def _potion_secret(session: Session, row: Aftermath) -> str:
    if not is_sealed(row.seed):
        return row.seed
    return open_seed(row.seed, key_for(session.get_bind()), row.seed_commitment, match_id=f"report {row.id}")


def aftermath_seed(*, session: Session, aftermath_id: int) -> str:
    """The seed the report's potion dice come from (secret until both teams' potions are done)."""
    row = _aftermath(session, aftermath_id)
    return join_seed(_potion_secret(session, row), row.entropy)


def revealed_potion_seed(*, session: Session, aftermath_id: int) -> str | None:
    """The report's potion seed once revealed (both teams done with potions), else None."""
    row = _aftermath(session, aftermath_id)
    return None if is_sealed(row.seed) else join_seed(row.seed, row.entropy)


def _reveal_potions(session: Session, fixture_id: int) -> None:
    """Once no report of the fixture may drink any more, their shared secret is stored in clear:
    both sides' potion dice can be checked, and nobody can use it to foresee one."""
    rows = session.exec(select(Aftermath).where(Aftermath.fixture_id == fixture_id)
                        .execution_options(populate_existing=True)).all()
    if not rows or not all(r.potions_done for r in rows) or not any(is_sealed(r.seed) for r in rows):
        return
    for r in rows:
        if is_sealed(r.seed):
            r.seed = _potion_secret(session, r)
            session.add(r)


def potion_records(*, session: Session, match_id: int) -> list[dict[str, Any]]:
    """What checking a league match's post-match potion dice needs, per report with a committed
    secret: side, commitment, the seed (None until revealed) and each step (command, the dice
    position it started at, its dice and events) as drunk."""
    out = []
    for f in session.exec(select(Fixture).where(Fixture.match_id == match_id)).all():
        for r in session.exec(select(Aftermath).where(Aftermath.fixture_id == f.id).order_by(Aftermath.side.desc())):  # type: ignore[attr-defined]  # a SQLModel column is typed as its Python value, not a column
            if not r.seed_commitment:
                continue  # a report from before potion dice were committed
            steps = [{"command": e["command"], "offset": e.get("offset", 0), "dice": e.get("dice", []),
                      "events": e.get("events", [])} for e in r.applied if isinstance(e, dict) and "command" in e]
            out.append({"side": r.side, "commitment": r.seed_commitment,
                        "seed": None if is_sealed(r.seed) else join_seed(r.seed, r.entropy), "steps": steps})
    return out


def aftermaths_of(*, session: Session, fixture_id: int) -> list[AftermathPublic]:
    rows = session.exec(select(Aftermath).where(Aftermath.fixture_id == fixture_id).order_by(Aftermath.side.desc()))  # type: ignore[attr-defined]  # a SQLModel column is typed as its Python value, not a column
    return [AftermathPublic.model_validate(r) for r in rows.all()]


def open_aftermaths(*, session: Session, team_ids: Iterable[int]) -> list[AftermathPublic]:
    """Post-match rows of these teams with potions or injuries still to settle."""
    ids = list(team_ids)
    if not ids:
        return []
    rows = session.exec(select(Aftermath).where(col(Aftermath.team_id).in_(ids), col(Aftermath.done).is_(False))
                        .order_by(col(Aftermath.id)))
    return [AftermathPublic.model_validate(r) for r in rows.all()]


def latest_aftermath(*, session: Session, team_id: int) -> AftermathPublic | None:
    """The team's newest post-match row (its ability offers stay open until taken or put off)."""
    row = session.exec(select(Aftermath).where(Aftermath.team_id == team_id).order_by(col(Aftermath.id).desc())).first()
    return AftermathPublic.model_validate(row) if row else None


def save_aftermath(*, session: Session, aftermath: AftermathPublic, changes: Mapping[str, Any],
                   roster: Iterable[Any] = ()) -> AftermathPublic:
    """Write ``changes`` (and the roster rows changed with them) if the row is still at
    ``aftermath.version``; ``MatchChangedError`` otherwise, with nothing written (nor anything
    else of the session's transaction: an ability learned with it is undone too)."""
    lock_team(session, aftermath.team_id)
    stmt = (update(Aftermath).where(col(Aftermath.id) == aftermath.id, col(Aftermath.version) == aftermath.version)
            .values(version=aftermath.version + 1, updated_at=utcnow(), **changes)
            .execution_options(synchronize_session=False))
    if session.execute(stmt).rowcount != 1:  # type: ignore[attr-defined]  # an UPDATE's result is a CursorResult, which has rowcount
        session.rollback()
        raise MatchChangedError("these_post_match_decisions_changed")
    session.add_all(list(roster))
    if changes.get("potions_done"):
        _reveal_potions(session, aftermath.fixture_id)
    session.commit()
    return get_aftermath(session=session, aftermath_id=aftermath.id)


def team_busy(session: Session, team_id: int) -> InvalidInputError | None:
    """Why the team's roster may not change now (it is playing), as the refusal to raise, or None."""
    playing = session.exec(select(Match.channel_id).where(
        Match.status == MatchStatus.ACTIVE,
        (col(Match.west_team_id) == team_id) | (col(Match.east_team_id) == team_id))).first()
    if playing is not None:
        # Where, and how its owner ends it there (``service.authority.abandon_right``).
        return InvalidInputError("team_playing_change_after_match", channel=playing)
    return None


def lock_team(session: Session, team_id: int) -> None:
    """Hold the team's row until the session commits: take it before reading what a change of
    the team's roster or post-match report checks (``db.locks``)."""
    lock_row(session, Team, team_id)


def find_league(session: Session, guild_id: int, league: int | str, *, lock: bool = False) -> League:
    """The league row of this server (``UnknownLeagueError`` otherwise); ``lock``: held until the
    session commits."""
    return league_row(session, guild_id, league, lock=lock)

