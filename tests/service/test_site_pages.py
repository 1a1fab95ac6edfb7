"""What the league site gathers beyond the boards (issue 34): a match's summary, players' careers,
the champion, corrected results, the league's rules, coaches' names and the data feeds.

The summary and careers are checked on scripted events (who scored, who hurt whom, what became of
him); the rest on a seeded league whose results the commissioner sets, read back from the pages.
"""

from __future__ import annotations

import csv
import io
import json
from types import SimpleNamespace

import pytest

from db import leagues as db_leagues
from db.engine import session_scope
from engine import event_from_dict
from service.site import build_site, find_league
from service.site.pages import careers, match_summary
from support.builders import acting_dryad
from support.league_site import ALICE, BOB, CAROL, GUILD, LEAGUE, seeded_league
from support.pages import Page

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: A match: w1 acts, scores; e1 acts and injures w2 (out for the game); w3 acts and gives e2 a
#: lasting injury; w1 scores again.
EVENTS = [event_from_dict(e) for e in (
    {"kind": "action_started", "player": "w1", "jog": 4},
    {"kind": "goal_scored", "side": "west", "player": "w1", "score": [1, 0]},
    {"kind": "action_ended"},
    {"kind": "action_started", "player": "e1", "jog": 4},
    {"kind": "player_removed", "player": "w2", "location": "infirmary", "reason": "injured (tackle)"},
    {"kind": "action_ended"},
    {"kind": "action_started", "player": "w3", "jog": 4},
    {"kind": "player_removed", "player": "e2", "location": "infirmary", "reason": "injured (tackle)"},
    {"kind": "injury_recorded", "player": "e2", "outcome": "lasting", "attributes": ["dodge"]},
    {"kind": "player_removed", "player": "e1", "location": "bench", "reason": "sent off"},
    {"kind": "action_ended"},
    {"kind": "action_started", "player": "w1", "jog": 4},
    {"kind": "goal_scored", "side": "west", "player": "w1", "score": [2, 0]},
)]


def test_the_summary_says_who_scored_and_who_hurt_whom_with_what_became_of_him(database) -> None:
    fixture = SimpleNamespace(id=999_999)  # no post-match report stored for it
    summary = match_summary(EVENTS, acting_dryad(), fixture, {"west": "Oaks", "east": "Imps"}, "en", session_scope)
    assert summary.scorers == [{"name": "Dryad w1", "team": "Oaks", "goals": 2}]
    assert summary.casualties == [
        {"name": "Hunter w2", "team": "Oaks", "by": "hurt by Striker e1 (Imps)",
         "outcome": "to the Infirmary for the rest of the match"},
        {"name": "Imp e2", "team": "Imps", "by": "hurt by Hunter w3 (Oaks)", "outcome": "a lasting injury"},
    ]
    assert summary.reports == []
    french = match_summary(EVENTS, acting_dryad(), fixture, {"west": "Oaks", "east": "Imps"}, "fr", session_scope)
    assert french.casualties[1]["by"] == "blessé par Hunter w3 (Oaks)"
    assert french.casualties[1]["outcome"] == "une blessure durable"


def test_careers_count_matches_goals_and_injuries_caused_and_suffered() -> None:
    first = SimpleNamespace(id=1, lineup={"west": [11, 12, 13], "east": [21, 22]})
    second = SimpleNamespace(id=2, lineup={"west": [21, 22], "east": [11, 12, 13]})  # the sides swap
    again = [event_from_dict(e) for e in (
        {"kind": "action_started", "player": "w1", "jog": 4},  # 21 hurts 12 (e2 this time)
        {"kind": "player_removed", "player": "e2", "location": "infirmary", "reason": "injured (shove)"},
        {"kind": "goal_scored", "side": "west", "player": "w1", "score": [1, 0]},
    )]
    got = careers([(first, EVENTS), (second, again)])
    assert (got[11].matches, got[11].goals, got[11].caused, got[11].suffered) == (2, 2, 0, 0)
    assert (got[12].matches, got[12].caused, got[12].suffered) == (2, 0, 2)  # hurt in both
    assert (got[13].caused, got[21].caused, got[21].goals, got[22].suffered) == (1, 2, 1, 1)
    assert got[11].fixtures == [1, 2]


def test_a_finished_season_names_its_champion_marks_corrections_and_gives_its_data(database) -> None:
    league = seeded_league(played=0)
    fixtures = league.fixtures(GUILD, LEAGUE)
    scores = {fixtures[0].id: (3, 0), fixtures[1].id: (1, 1), fixtures[2].id: (0, 2)}
    for v in fixtures:
        home, away = scores[v.id]
        league.correct(GUILD, ALICE, v.id, home_score=home, away_score=away, reason="played on the table")
    names = {ALICE: "Alice A.", BOB: "Bob", CAROL: "  "}  # a blank name is no name
    site = build_site(find_league(LEAGUE), coaches=names.get)
    index = Page(site.files["index.html"].decode())
    html = site.files["index.html"].decode()
    with session_scope() as s:
        rows = db_leagues.fixtures(session=s, league_id=find_league(LEAGUE).id)
    standings = index.tables["standings"][1:]
    top = standings[0]
    assert f"Champions: {top[1]} (coach " in html and f"), {top[-1]} points. The season is over." in html
    assert all("corrected" in r[2] for r in index.tables["results"][1:])
    assert "the commissioner set or corrected this result" in html
    assert sorted(index.lists["coaches"]) == sorted(
        f"{name}: {coach}" for name, coach in (("Moonblades", "Alice A."), ("Gnashers", "Bob"),
                                               ("Tinkers", "a coach (name not known at export)")))
    assert "Team budget" in html and "180" in html and "Every fixture plays with:" in html

    feed = json.loads(site.files["standings.json"])
    assert [[str(r["rank"]), r["team"], str(r["played"]), str(r["won"]), str(r["drawn"]), str(r["lost"]),
             str(r["goals_for"]), str(r["goals_against"]), f"{r['goal_difference']:+d}", str(r["casualties"]),
             str(r["points"])] for r in feed["standings"]] == standings
    assert feed["champion"] == feed["standings"][0]["team_id"]
    assert {r["team"]: r["coach"] for r in feed["standings"]} == {"Moonblades": "Alice A.", "Gnashers": "Bob", "Tinkers": None}
    table = list(csv.DictReader(io.StringIO(site.files["results.csv"].decode())))
    assert [(int(r["fixture"]), int(r["home_score"]), int(r["away_score"]), r["corrected"]) for r in table] == \
        [(f.id, *scores[f.id], "yes") for f in sorted(rows, key=lambda f: (f.round, f.id))]

    # In French too.
    fr = build_site(find_league(LEAGUE), language="fr")
    assert "Champions : " in fr.files["index.html"].decode() and "corrigé" in fr.files["index.html"].decode()


def test_no_champion_while_fixtures_are_left(database) -> None:
    league = seeded_league(played=0)
    first = league.fixtures(GUILD, LEAGUE)[0]
    league.correct(GUILD, ALICE, first.id, home_score=1, away_score=0, reason="walkover")
    site = build_site(find_league(LEAGUE))
    assert "Champions" not in site.files["index.html"].decode()
    assert json.loads(site.files["standings.json"])["champion"] is None


def test_how_a_former_player_left_and_a_fixture_deadline_are_said() -> None:
    from datetime import datetime, timezone

    from engine import Catalogue
    from service.site.pages import deadline_of, left_how

    en, fr = (Catalogue("service", "text", lang) for lang in ("en", "fr"))
    dead = SimpleNamespace(status="dead", injuries=[{"kind": "lasting", "attribute": "dodge"}, {"kind": "dead", "match": 40}])
    assert left_how(dead, {40: 7}, en) == "dead, in match #7"
    assert left_how(dead, {40: 7}, fr) == "mort, au match n° 7"
    assert left_how(SimpleNamespace(status="retired", injuries=[]), {}, en) == "retired (career-ending injury)"
    when = datetime(2026, 12, 1, 18, 30, tzinfo=timezone.utc)
    assert deadline_of(SimpleNamespace(deadline=when)) == "2026-12-01 18:30 UTC"
    assert deadline_of(SimpleNamespace()) == "" and deadline_of(SimpleNamespace(deadline=None)) == ""
