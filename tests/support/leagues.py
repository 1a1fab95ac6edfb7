"""A league of coaches for the league tests: their ids, their teams, a season scheduled, a
fixture started or ended with a change to its final state, a player given XP.

The same server and coaches serve every league test (ids 1, 11-14); a test builds the
``LeagueService`` it needs (``league`` fixture) and passes it in.
"""

from __future__ import annotations

from sqlmodel import select

from db import teams as db_teams
from db.engine import session_scope
from db.models import Team
from service.leagues import LeagueService

GUILD, ALICE, BOB, CAROL, DAVE = 1, 11, 12, 13, 14


def team(coach: int, name: str, lst: str = "night elves") -> None:
    """A team of ``coach`` on the server, from team list ``lst``."""
    with session_scope() as s:
        db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list=lst)


def season(league: LeagueService, *coaches: int) -> list:
    """The Elf Cup (budget 180), Alice commissioner, with a team of each coach: its schedule."""
    league.create(GUILD, ALICE, "Elf Cup", {"budget": 180})
    names = {ALICE: "Moonblades", BOB: "Gnashers", CAROL: "Tinkers", DAVE: "Widows"}
    lists = {ALICE: "night elves", BOB: "gnolls", CAROL: "gnomes", DAVE: "black widows"}
    for c in coaches:
        team(c, names[c], lists[c])
        league.join(GUILD, c, "elf cup", names[c])
    return league.schedule(GUILD, ALICE, "Elf Cup")


def start(league: LeagueService, channel: int = 500):
    """Alice plays her first fixture in ``channel``."""
    mine = league.next_fixtures(GUILD, ALICE)
    return league.play(GUILD, channel, ALICE, mine[0].id)


def finish_with(league: LeagueService, change) -> tuple:
    """Start a fixture, end it by concession with the listener off, change the final state as the
    engine's Advanced rules would have, then hand it to the league."""
    view, _ = start(league)
    league.matches.on_finish.clear()
    out = league.matches.concede(500, view.away_coach)
    state = out.state.copy()
    change(state)
    league.match_finished(out.match, state)
    return view, state


def three_teams(league: LeagueService) -> None:
    """Alice's Moonblades, Bob's Gnashers and Carol's Tinkers in the Elf Cup, scheduled."""
    league.create(GUILD, ALICE, "Elf Cup")
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes")):
        with session_scope() as s:
            db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list=lst)
        league.join(GUILD, coach, "Elf Cup", name)
    league.schedule(GUILD, ALICE, "Elf Cup")


def give_xp(team_name: str, number: int, xp: int) -> None:
    """Player ``number`` of the team named ``team_name`` now has ``xp`` experience."""
    with session_scope() as s:
        team = s.exec(select(Team).where(Team.name == team_name)).one()
        p = next(p for p in team.players if p.number == number)
        p.xp = xp
        s.add(p)
        s.commit()
