"""What the league site says of a season's rounds (issue 34): a double forfeit ruled at a deadline,
the deadlines of fixtures still to play, one table per division, and which season it is."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, season, team
from support.pages import Page

from service.deadlines import Deadlines, unix
from service.leagues import LeagueService
from service.matches import MatchService
from service.seasons import SeasonService
from service.site import build_site

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
MOD = 99
ERIN = 15


@pytest.fixture
def clock() -> list[datetime]:
    return [NOW]


@pytest.fixture
def league(database, clock) -> LeagueService:
    return LeagueService(MatchService(render=False, clock=lambda: clock[0]), render=False)


def test_a_double_forfeit_is_said_as_both_teams_forfeiting(league, clock) -> None:
    season(league, ALICE, BOB, CAROL, DAVE)
    dl = Deadlines(league)
    _lg, when, _ = dl.set_round(GUILD, ALICE, "Elf Cup", 1, "in 2 days", channel_id=500)
    clock[0] = when + timedelta(hours=1)
    theirs = next(v for v in league.fixtures(GUILD, "Elf Cup")
                  if v.fixture.round == 1 and ALICE not in (v.home_coach, v.away_coach))
    both = dl.rule(GUILD, ALICE, theirs.id, "both", unix(when))
    assert both.fixture.conceded_by == "both"
    for language, said, wrong in (("en", "both teams forfeited", "conceded"), ("fr", "forfait des deux équipes", "abandon")):
        site = build_site(league.league(GUILD, "Elf Cup"), language=language, replays=False)
        index = Page(site.files["index.html"].decode())
        (row,) = [r for r in index.tables["results"][1:] if r[1] == theirs.home]
        assert said in row[2] and wrong not in row[2], row
        # Each team's history says a loss, not a 0-0 draw.
        for team_id, name in ((both.fixture.home_team_id, theirs.home), (both.fixture.away_team_id, theirs.away)):
            page = site.files[f"teams/{team_id}.html"].decode()
            line = page[page.index(f'data-fixture="{theirs.id}"'):]
            line = line[: line.index("</li>")]
            assert said in line, (name, line)
            assert ("lost 0–0" if language == "en" else "défaite 0–0") in line, line
    table = list(csv.DictReader(io.StringIO(site.files["results.csv"].decode())))
    assert [r["conceded_by"] for r in table if int(r["fixture"]) == theirs.id] == ["both"]


def test_the_fixtures_to_play_show_their_round_deadline_in_both_languages(league) -> None:
    season(league, ALICE, BOB, CAROL, DAVE)
    _lg, when, views = Deadlines(league).set_round(GUILD, ALICE, "Elf Cup", 1, "2026-12-04 20:00", channel_id=500)
    assert when == datetime(2026, 12, 4, 20, 0, tzinfo=UTC) and len(views) == 2
    for language, said in (("en", "to play by 2026-12-04 20:00 UTC"), ("fr", "à jouer avant le 2026-12-04 20:00 UTC")):
        site = build_site(league.league(GUILD, "Elf Cup"), language=language, replays=False)
        items = Page(site.files["index.html"].decode()).lists["fixtures"]
        dated = [line for line in items if said in line]
        assert len(dated) == 2, items
        assert len(items) == 6 and sum("UTC" in line for line in items) == 2  # the later rounds have none


def test_a_league_in_divisions_shows_one_table_per_division_with_points_on_every_row(league) -> None:
    league.create(GUILD, ALICE, "Elf Cup", {"format": "divisions", "divisions": 2})
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes"), (DAVE, "Widows", "black widows"),
                             (ERIN, "Starlings", "night elves")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Elf Cup", name)
    for v in league.schedule(GUILD, ALICE, "Elf Cup"):
        league.correct(GUILD, ALICE, v.id, home_score=1, away_score=0, reason="played at the club")
    divisions = league.division_standings(GUILD, "Elf Cup")
    assert sorted(len(d) for d in divisions) == [2, 3]
    for language, word in (("en", "Division"), ("fr", "Poule")):
        site = build_site(league.league(GUILD, "Elf Cup"), language=language, replays=False)
        html = site.files["index.html"].decode()
        chunks = html.split('<table class="standings">')[1:]
        assert len(chunks) == 2, "one table per division"
        for number, (chunk, rows) in enumerate(zip(chunks, divisions, strict=True), start=1):
            table = Page('<table class="standings">' + chunk[: chunk.index("</table>") + 8]).tables["standings"]
            assert [r[1] for r in table[1:]] == [r.name for r in rows]
            assert [r[0] for r in table[1:]] == [str(i) for i in range(1, len(rows) + 1)]  # ranked in the division
            assert [r[-1] for r in table[1:]] == [str(r.points) for r in rows]
            assert chunk.count('<td class="pts">') == len(rows) and chunk.count('class="pts"') == len(rows) + 1
            assert f"<caption>{word} {number} · " in chunk
        assert (3, f"{word} 1") in Page(html).headings and (3, f"{word} 2") in Page(html).headings
    feed = json.loads(site.files["standings.json"])
    assert feed["divisions"] == [[r.team_id for r in d] for d in divisions]


def test_a_later_season_is_named_with_the_previous_seasons_champion(league) -> None:
    season(league, ALICE, BOB, CAROL)
    first = league.league(GUILD, "Elf Cup")
    single = build_site(first, language="en", replays=False).files["index.html"].decode()
    assert "Season 1" not in single  # a league of one season says nothing of seasons
    for v in league.fixtures(GUILD, "Elf Cup"):
        home_wins = "Moonblades" == v.home
        league.correct(GUILD, ALICE, v.id, home_score=2 if home_wins else 0, away_score=0 if home_wins else 2,
                       reason="played at the club")
    _lg, rows = league.standings(GUILD, "Elf Cup")
    champion = rows[0].name
    SeasonService(league).start(GUILD, ALICE, "Elf Cup")
    for language, said, before, after in (
            ("en", "Season 2.", f"Season 1's champions: {champion}.", "Season 2 followed it."),
            ("fr", "Saison 2.", f"Champions de la saison 1 : {champion}.", "La saison 2 l'a suivie.")):
        html = build_site(league.league(GUILD, "Elf Cup"), language=language, replays=False).files["index.html"].decode()
        text = unescape(html[html.index('class="season"'):])
        text = text[: text.index("</p>")]
        assert said in text and before in text, text
        old = build_site(league.league(GUILD, first.id), language=language, replays=False).files["index.html"].decode()
        text = unescape(old[old.index('class="season"'):])
        text = text[: text.index("</p>")]
        assert ("Season 1." if language == "en" else "Saison 1.") in text and after in text, text


def test_a_knockout_tie_drawn_later_shows_its_deadline_in_the_bracket_and_fixtures(league, clock) -> None:
    league.create(GUILD, ALICE, "Elf Cup", {"format": "knockout", "round_days": 3})
    for coach, name, lst in ((ALICE, "Moonblades", "night elves"), (BOB, "Gnashers", "gnolls"),
                             (CAROL, "Tinkers", "gnomes"), (DAVE, "Widows", "black widows")):
        team(coach, name, lst)
        league.join(GUILD, coach, "Elf Cup", name)
    semis = league.schedule(GUILD, ALICE, "Elf Cup")
    Deadlines(league).set_default_rounds(GUILD, ALICE, "Elf Cup", channel_id=500)
    clock[0] = NOW + timedelta(days=1)
    for v in semis:
        league.correct(GUILD, ALICE, v.id, home_score=2, away_score=0, reason="played at the club")
    for language, said in (("en", "to play by 2026-12-01 12:00 UTC"), ("fr", "à jouer avant le 2026-12-01 12:00 UTC")):
        site = build_site(league.league(GUILD, "Elf Cup"), language=language, replays=False)
        final = unescape(site.files["bracket.html"].decode())
        final = final[final.index('id="round-2-final"'):]
        assert said in final[: final.index("</li>")]
        (line,) = Page(site.files["index.html"].decode()).lists["fixtures"]
        assert said in line
