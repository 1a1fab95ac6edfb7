"""What the league site says of a season's rounds (issue 34): a double forfeit ruled at a deadline,
the deadlines of fixtures still to play, one table per division, and which season it is."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from support.leagues import ALICE, BOB, CAROL, DAVE, GUILD, season
from support.pages import Page

from service.deadlines import Deadlines, unix
from service.leagues import LeagueService
from service.matches import MatchService
from service.site import build_site

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
MOD = 99


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
