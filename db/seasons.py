"""A league's seasons in the database: every season of a league, the next one started, a team withdrawn.

A season is a league row (``leagues.season``, ``leagues.previous_id``): the new season is a new
row with the old one's name, commissioner and settings, so everything that reads a league
(fixtures, standings, deadlines, the website) reads a season unchanged. The finished season's
row keeps its fixtures, results and audit; its ``name_key`` is set aside (``ARCHIVED``, a
character no name may hold, and its id), so the league's name finds its current season.

Teams are not copied: a team is one row with its roster, and it moves to the new season
(``teams.league_id``) with its players, their XP, lasting injuries and lowered attributes, its
former players and its support, as a team carries them from one match to the next. Only its
cached league points start again at 0. The old season still knows its teams through its
fixtures (``db.teams.list_teams``). Which teams and why is the service's (``service.seasons``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from ._util import ARCHIVED
from .errors import InvalidInputError, NotFoundError
from .leagues import add_audit, find_league, league_teams
from .locks import lock_row
from .models import Fixture, FixtureStatus, League, LeaguePublic, Team, TeamPublic
from .models._common import utcnow
from .teams import find_team, public_team

__all__ = ["ARCHIVED", "seasons_of", "season_row", "start_season", "withdraw_team"]


def seasons_of(session: Session, guild_id: int, league: int | str) -> list[LeaguePublic]:
    """Every season of the league named (or numbered: any of its seasons), oldest first."""
    row = find_league(session, guild_id, league)
    chain = [row]
    while chain[0].previous_id is not None:
        before = session.get(League, chain[0].previous_id)
        if before is None or before.guild_id != guild_id:
            break
        chain.insert(0, before)
    while True:
        after = session.exec(select(League).where(League.previous_id == chain[-1].id)).first()
        if after is None:
            break
        chain.append(after)
    return [LeaguePublic.model_validate(r) for r in chain]


def season_row(session: Session, guild_id: int, league: int | str, season: int | None) -> LeaguePublic:
    """The league's season ``season`` (None: its current one), or why there is none."""
    seasons = seasons_of(session, guild_id, league)
    if season is None:
        return seasons[-1]
    for lg in seasons:
        if lg.season == season:
            return lg
    raise NotFoundError("league_no_such_season", league=seasons[-1].name, season=season, last=seasons[-1].season)


def _left_to_play(session: Session, league_id: int) -> tuple[int, int]:
    """How many fixtures the season has, and how many are not played."""
    total = int(session.exec(select(func.count()).select_from(Fixture).where(Fixture.league_id == league_id)).one())
    left = int(session.exec(select(func.count()).select_from(Fixture).where(
        Fixture.league_id == league_id, col(Fixture.status) != FixtureStatus.PLAYED.value)).one())
    return total, left


def start_season(*, session: Session, guild_id: int, league: int | str, actor_id: int,
                 stand_in: Mapping[str, Any] | None = None, reason: str = "") -> tuple[LeaguePublic, LeaguePublic, list[TeamPublic]]:
    """Start the season after the league's current one, which must be over (every fixture
    played): the new season's row, its teams moved over (``stand_in`` and ``reason`` audited
    as ``db.leagues.update_settings``); committed. Returns the old season, the new one and the
    teams carried over. The league's row is locked: two at once start one season."""
    old = find_league(session, guild_id, league, lock=True)
    if session.exec(select(League.id).where(League.previous_id == old.id)).first() is not None:
        raise InvalidInputError("season_already_followed", league=old.name, season=old.season)
    total, left = _left_to_play(session, old.id)  # type: ignore[arg-type]  # a stored row's id is set
    if total == 0:
        raise InvalidInputError("season_not_played", league=old.name, season=old.season)
    if left:
        raise InvalidInputError("season_not_over", league=old.name, season=old.season, left=left)
    key = old.name_key
    old.name_key = f"{key[:50]}{ARCHIVED}{old.id}"  # the name now finds the new season
    session.add(old)
    session.flush()
    new = League(guild_id=guild_id, name=old.name, name_key=key, commissioner_id=old.commissioner_id,
                 settings=dict(old.settings), season=old.season + 1, previous_id=old.id)
    session.add(new)
    session.flush()
    teams = league_teams(session=session, league_id=old.id)
    for tm in teams:
        lock_row(session, Team, tm.id)  # type: ignore[arg-type]  # a stored row's id is set
        tm.league_id, tm.points, tm.updated_at = new.id, 0, utcnow()
        session.add(tm)
    detail = {"season": new.season, "previous": old.id, "teams": ", ".join(t.name for t in teams), **(stand_in or {})}
    add_audit(session, new.id, "season_started", actor_id=actor_id, detail=detail, reason=reason.strip())  # type: ignore[arg-type]  # flushed: the id is set
    add_audit(session, old.id, "season_followed", actor_id=actor_id,  # type: ignore[arg-type]  # a stored row's id is set
              detail={"next": new.id, "season": new.season, **(stand_in or {})}, reason=reason.strip())
    session.commit()
    return LeaguePublic.model_validate(old), LeaguePublic.model_validate(new), [public_team(t) for t in teams]


def withdraw_team(*, session: Session, guild_id: int, league: int | str, team: int | str, actor_id: int,
                  stand_in: Mapping[str, Any] | None = None, reason: str = "") -> tuple[LeaguePublic, TeamPublic]:
    """Take ``team`` out of the league before its schedule is drawn (who may, the service asked:
    ``service.authority.require_withdrawal``); audited, committed. The team keeps its roster."""
    lg = find_league(session, guild_id, league, lock=True)
    tm = find_team(session, guild_id, team, lock=True)
    if tm.league_id != lg.id:
        raise InvalidInputError("team_not_in_league", team=tm.name, league=lg.name)
    if session.exec(select(Fixture.id).where(Fixture.league_id == lg.id)).first() is not None:
        raise InvalidInputError("withdraw_schedule_made", league=lg.name, team=tm.name)
    tm.league_id, tm.points, tm.updated_at = None, 0, utcnow()
    session.add(tm)
    add_audit(session, lg.id, "team_withdrawn", actor_id=actor_id,  # type: ignore[arg-type]  # a stored row's id is set
              detail={"team": tm.name, "coach": tm.coach_id, **(stand_in or {})}, reason=reason.strip())
    session.commit()
    return LeaguePublic.model_validate(lg), public_team(tm)
