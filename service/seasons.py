"""A league's seasons: the next one started by the commissioner, a team withdrawn, the old ones read.

A season ends when every fixture has a result (played, ruled at a deadline, or set with
``/league correct``). Its commissioner (or a moderator standing in, saying why:
``authority.require_season_starter``) then starts the next: same name and settings, season
number + 1, and every team of the finished season re-entered as it stands (``db.seasons``).

What a team carries over is what it carries from one match to the next under the Advanced Rules
(rulebook pp. 8, 11-12, 19): its players with their XP (banked, abilities still to learn),
the abilities learned, the lasting injuries and the attribute each lowered ("reduced
permanently"), its former players (dead, retired, cut) as history, and its team support (bought
once; potions renew every game: docs/league.md). An injury that lasts "for the game" (the
Infirmary, Recovery, the Bench for a Test) ends with its match and is never on the roster, so
nothing is cleared. Elfball has no gold: a team's "treasury" is its value within the league's
budget, which the new season keeps with the other settings. Only the league points start again.

Before the new season's schedule is drawn, a coach may withdraw his team (he leaves at the
season's change), or the commissioner may (a coach who left the server): ``withdraw``.
"""

from __future__ import annotations

from dataclasses import dataclass

from db import leagues as db_leagues
from db import seasons as db
from db import teams as db_teams
from db.models import FixtureStatus, LeaguePublic, TeamPublic

from . import authority
from .leagues import LeagueService, StandingRow

__all__ = ["SeasonStart", "SeasonSummary", "SeasonService"]


@dataclass(frozen=True)
class SeasonStart:
    """A season started: the finished one, the new one, and the teams carried over."""

    previous: LeaguePublic
    league: LeaguePublic
    teams: list[TeamPublic]


@dataclass(frozen=True)
class SeasonSummary:
    """One season of a league as its history lists it."""

    league: LeaguePublic
    teams: int
    played: int
    fixtures: int
    #: The table's leader once every fixture has a result (None before, or with no fixtures).
    champion: StandingRow | None
    current: bool


class SeasonService:
    def __init__(self, leagues: LeagueService) -> None:
        self.leagues = leagues
        self.sessions = leagues.sessions

    def season(self, guild_id: int, league: int | str, season: int | None = None) -> LeaguePublic:
        """The league's season ``season`` (None: the current one; a number names that season)."""
        with self.sessions() as s:
            return db.season_row(s, guild_id, league, season)

    def seasons(self, guild_id: int, league: int | str) -> list[SeasonSummary]:
        """Every season of the league, oldest first, with its champion once it is over."""
        with self.sessions() as s:
            rows = db.seasons_of(s, guild_id, league)
        out = []
        for lg in rows:
            views = self.leagues.fixtures(guild_id, lg.id, sync=False)
            _, table = self.leagues.standings(guild_id, lg.id)
            played = sum(1 for v in views if v.fixture.status == FixtureStatus.PLAYED)
            over = bool(views) and played == len(views)
            out.append(SeasonSummary(lg, len(table), played, len(views), table[0] if over and table else None,
                                     lg.id == rows[-1].id))
        return out

    def start(self, guild_id: int, user_id: int, league: int | str, *, moderator: bool = False,
              reason: str = "") -> SeasonStart:
        """The commissioner starts the league's next season, its current one being over."""
        lg = self.leagues.league(guild_id, league)
        stand_in = authority.require_season_starter(lg, user_id, moderator=moderator, reason=reason)
        self.leagues.sync(lg)  # a match that ended unseen is recorded first
        with self.sessions() as s:
            old, new, teams = db.start_season(session=s, guild_id=guild_id, league=lg.id, actor_id=user_id,
                                              stand_in=stand_in, reason=reason)
            # As at /league create: the new season's draw secret is fixed, and its commitment shown
            # with the season, before any team withdraws or the schedule is drawn.
            db_leagues.draw_secret(session=s, guild_id=guild_id, league=new.id)
            new = db_teams.get_league(session=s, guild_id=guild_id, league=new.id)
        return SeasonStart(old, new, teams)

    def withdraw(self, guild_id: int, user_id: int, league: int | str, team: int | str, *, moderator: bool = False,
                 reason: str = "") -> tuple[LeaguePublic, TeamPublic]:
        """A team leaves the league before its schedule is drawn: its coach's wish, or the
        commissioner's (``authority.require_withdrawal``)."""
        lg = self.leagues.league(guild_id, league)
        with self.sessions() as s:
            tm = db_teams.get_team(session=s, guild_id=guild_id, team=team)
        stand_in = authority.require_withdrawal(lg, tm, user_id, moderator=moderator, reason=reason)
        with self.sessions() as s:
            return db.withdraw_team(session=s, guild_id=guild_id, league=lg.id, team=team, actor_id=user_id,
                                    stand_in=stand_in, reason=reason)
