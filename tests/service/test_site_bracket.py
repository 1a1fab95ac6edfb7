"""A knockout's website has its bracket (templates/bracket.html): every round, the byes, the
scores, who went through and why, and the champion; a Swiss's standings count its byes."""

from __future__ import annotations

import re

import pytest

from service.leagues import LeagueService
from service.matches import MatchService
from service.site import build_site
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, team

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ERIN = 15
TEAMS = {ALICE: ("Moonblades", "night elves"), BOB: ("Gnashers", "gnolls"), CAROL: ("Tinkers", "gnomes"),
         DAVE: ("Widows", "black widows"), ERIN: ("Starlings", "night elves")}


@pytest.fixture
def league(database):
    return LeagueService(MatchService(render=False), render=False)


def entered(league: LeagueService, **settings) -> None:
    league.create(GUILD, ALICE, "Elf Cup", settings)
    for c, (name, lst) in TEAMS.items():
        team(c, name, lst)
        league.join(GUILD, c, "Elf Cup", name)


def result(league: LeagueService, fixture_id: int, home: int, away: int) -> None:
    league.correct(GUILD, ALICE, fixture_id, home_score=home, away_score=away, reason="played at the club")


def test_a_knockout_site_shows_its_bracket_and_champion(league) -> None:
    entered(league, format="knockout", draw_rule="higher_seed")
    first = league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Moonblades", "Gnashers", "Tinkers", "Widows", "Starlings"])
    by_pair = {(v.home, v.away): v.id for v in first}
    result(league, by_pair[("Widows", "Starlings")], 0, 1)
    result(league, by_pair[("Gnashers", "Tinkers")], 1, 1)  # drawn: the higher seed, Gnashers
    for _ in range(2):
        for v in league.fixtures(GUILD, "Elf Cup"):
            if not v.fixture.played:
                result(league, v.id, 2, 0)
    site = build_site(league.league(GUILD, "Elf Cup"), language="en", replays=False)
    page = site.files["bracket.html"].decode()
    assert "Champion: Moonblades" in page
    # Every page links to it, and the league page's banner names the final's winner.
    index = site.files["index.html"].decode()
    assert 'href="bracket.html"' in index
    banner = index[index.index('class="champion"'):]
    assert "Moonblades" in banner[: banner.index("</p>")]
    assert 'href="../bracket.html"' in next(v.decode() for k, v in site.files.items() if k.startswith("teams/") and k.endswith(".html"))
    for heading in ("Quarter-finals", "Semi-finals", "Final"):
        assert f">{heading}</h2>" in page
    assert page.count("through on a bye") == 3
    assert "drawn: the higher seed goes through" in page and "A drawn tie sends the higher seed through." in page
    french = build_site(league.league(GUILD, "Elf Cup"), language="fr", replays=False).files["bracket.html"].decode()
    assert "Vainqueur : Moonblades" in french and ">Finale</h2>" in french


def test_a_round_robin_site_has_no_bracket_and_a_swiss_counts_its_byes(league) -> None:
    entered(league, format="swiss", swiss_rounds=1)
    views = league.schedule(GUILD, ALICE, "Elf Cup")
    for v in views:
        result(league, v.id, 1, 0)
    site = build_site(league.league(GUILD, "Elf Cup"), language="en", replays=False)
    assert "bracket.html" not in site.files
    bye = league.progress(GUILD, "Elf Cup").byes[1][0]
    _lg, rows = league.standings(GUILD, "Elf Cup")
    assert next(r for r in rows if r.name == bye).points == 3
    index = site.files["index.html"].decode()
    row = index[index.index(f">{bye}</a>"):]
    assert re.search(r"<td[^>]*>3</td>$", row[: row.index("</tr>")]), "the bye's win points are in the site's table"


def test_a_double_elimination_site_shows_both_brackets(league) -> None:
    entered(league, format="double_elimination", draw_rule="higher_seed")
    league.schedule(GUILD, ALICE, "Elf Cup", seeds=["Moonblades", "Gnashers", "Tinkers", "Widows", "Starlings"])
    while todo := [v for v in league.fixtures(GUILD, "Elf Cup") if not v.fixture.played]:
        for v in todo:
            result(league, v.id, 1, 0)
    page = build_site(league.league(GUILD, "Elf Cup"), language="en", replays=False).files["bracket.html"].decode()
    assert "winners&#39; bracket</h2>" in page and "losers&#39; bracket</h2>" in page and ">Grand final</h2>" in page
    assert "Champion: Moonblades" in page and "second match" not in page
