"""A small league season with real matches in it, for the website's tests (issue 23), the
standings its fixtures give, and the Chromium the browser tests and the README's pictures use.

Three teams, a single round robin (three fixtures): the first ``played`` are played by the AI
coach on both sides for a number of commands (setup, face-off, actions: real boards to replay,
with the dice the match's own secret seed gives), then conceded by the away coach if still on;
the rest are left to play. What the matches leave (injuries, abilities) is settled by the first
choice offered, abilities put off ("later").
"""

from __future__ import annotations

import os

from db import leagues as db_leagues
from db import teams as db_teams
from db.engine import session_scope
from engine.match import pending
from service.leagues import LeagueService
from service.matches import MatchService

GUILD = 4242
ALICE, BOB, CAROL = 21, 22, 23
TEAMS = {ALICE: ("Moonblades", "night elves"), BOB: ("Gnashers", "gnolls"), CAROL: ("Tinkers", "gnomes")}
LEAGUE = "Elf Cup"
#: Debian's headless Chromium (Playwright drives it; it never downloads a browser).
CHROMIUM = os.environ.get("ELFBALL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def seeded_league(commands: int = 40, *, played: int = 2, guild: int = GUILD,
                  coaches: tuple[int, int, int] = (ALICE, BOB, CAROL)) -> LeagueService:
    """The league on the process-wide database (``database`` fixture): ``played`` fixtures each
    played for up to ``commands`` AI commands then conceded by the away coach. The first coach is
    the commissioner."""
    league = LeagueService(MatchService(render=False), render=False)
    league.create(guild, coaches[0], LEAGUE, {"budget": 180})
    for coach, (name, lst) in zip(coaches, TEAMS.values()):
        with session_scope() as s:
            db_teams.create_team(session=s, guild_id=guild, coach_id=coach, name=name, team_list=lst)
        league.join(guild, coach, LEAGUE, name)
    league.schedule(guild, coaches[0], LEAGUE)
    for channel in range(played):
        fixture = next(v for v in league.fixtures(guild, LEAGUE) if v.fixture.status == "scheduled")
        coach = fixture.home_coach
        _view, out = league.play(guild, 900 + channel, coach, fixture.id)
        coaches = {"west": fixture.home_coach, "east": fixture.away_coach}
        for _ in range(commands):
            side = pending(out.state).side
            if side is None or out.finished:
                break
            out = league.matches.act(900 + channel, coaches[side], league.matches.build(900 + channel, coaches[side], lambda st, sd: league.matches.ai.choose(st, sd)))
        if not out.finished:
            league.matches.concede(900 + channel, fixture.away_coach)
        for coach_id in coaches.values():  # settle what the match left (injuries: the first choice)
            for am in league.open_aftermaths(guild, coach_id):
                while am.offers:
                    offer = am.offers[0]
                    a = am.aftermath
                    if offer.kind == "potion":
                        am = league.potions_done(a.id, a.version, coach_id)
                    elif offer.kind == "injury":
                        am = league.choose_injury(a.id, a.version, coach_id, int(offer.key), offer.options[0][1])
                    elif offer.kind == "advance":
                        am = league.advance(guild, a.id, a.version, coach_id, int(offer.key), "later")
                    else:
                        am = league.answer(a.id, a.version, coach_id, offer.options[0][1])
    return league


def expected_table(league_id: int) -> list[list[str]]:
    """The standings computed from the fixture rows alone: 3/1/0 points, then the tie-breaks."""
    with session_scope() as s:
        fixtures = db_leagues.fixtures(session=s, league_id=league_id)
        teams = {t.id: t.name for t in db_leagues.league_teams(session=s, league_id=league_id)}
    t = {tid: dict(p=0, w=0, d=0, l=0, gf=0, ga=0, cas=0) for tid in teams}
    for f in fixtures:
        if f.status != "played":
            continue
        for me, gf, ga, cas in ((f.home_team_id, f.home_score, f.away_score, f.home_casualties),
                                (f.away_team_id, f.away_score, f.home_score, f.away_casualties)):
            r = t[me]
            r["p"] += 1
            r["gf"] += gf
            r["ga"] += ga
            r["cas"] += cas
            r["w" if gf > ga else "d" if gf == ga else "l"] += 1
    order = sorted(t, key=lambda tid: (-(3 * t[tid]["w"] + t[tid]["d"]), -(t[tid]["gf"] - t[tid]["ga"]), -t[tid]["gf"],
                                       -t[tid]["cas"], teams[tid].lower()))
    return [[str(i), teams[tid], *(str(t[tid][k]) for k in ("p", "w", "d", "l", "gf", "ga")),
             f"{t[tid]['gf'] - t[tid]['ga']:+d}", str(t[tid]["cas"]), str(3 * t[tid]["w"] + t[tid]["d"])]
            for i, tid in enumerate(order, 1)]
