"""A league's dice are committed with the schedule and checked after (issue 17).

Each fixture's match secret and post-match potion secret are drawn and sealed when the schedule
is made, their SHA-256 shown in the fixtures list; the coach who starts the fixture adds his
entropy; the potion dice stay secret until both teams are done with potions, then the report
reveals their seed and ``verify`` checks every potion die against it. Real ``HashDice``: no die
is scripted here, so what is checked is what the bot would do.
"""

from __future__ import annotations

import copy
import hashlib

from sqlalchemy import text
from support.leagues import ALICE, BOB, CAROL, GUILD, three_teams

from db import leagues as db_leagues
from db.engine import session_scope
from db.seeds import is_sealed
from engine.state import Location
from service.leagues import LeagueService
from service.matches import MatchService
from service.verify import load_record, verify

LASTING = {"kind": "lasting", "attributes": ["jog"]}


def _league(database) -> LeagueService:  # noqa: ANN001
    return LeagueService(MatchService(render=False), render=False)


def _first(league: LeagueService):  # noqa: ANN202
    three_teams(league)
    return min((v for c in (ALICE, BOB, CAROL) for v in league.next_fixtures(GUILD, c)), key=lambda v: v.id)


def test_the_schedule_commits_each_fixtures_dice_and_the_start_adds_the_coachs_entropy(database) -> None:
    league = _league(database)
    fixture = _first(league)
    f = fixture.fixture
    assert len(f.dice_commitment) == 64 and len(f.potion_commitment) == 64 and f.dice_commitment != f.potion_commitment
    # Shown before anybody can start it; the secrets themselves are sealed in the database.
    assert f"`{f.dice_commitment[:16]}…`" in fixture.line(mention=False)
    with session_scope() as s:
        stored = s.execute(text("SELECT dice_secret, potion_secret FROM league_fixtures WHERE id = :i"), {"i": f.id}).one()
    assert all(is_sealed(v) for v in stored)
    view, out = league.play(GUILD, 500, fixture.home_coach, f.id, entropy="s777")
    assert (out.match.seed_commitment, out.match.dice_entropy) == (f.dice_commitment, "s777")


def test_an_abandoned_fixture_is_played_again_with_new_secrets(database) -> None:
    league = _league(database)
    fixture = _first(league)
    league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s1")
    gone = league.matches.abandon(500, None, "the pitch flooded")
    league.sync(league.league(GUILD, fixture.fixture.league_id))
    again = league.fixture(GUILD, fixture.id).fixture
    # The abandoned match revealed its secret: the replay must not reuse it.
    assert again.status == "scheduled" and again.dice_commitment != fixture.fixture.dice_commitment
    assert hashlib.sha256(gone.seed.split("+")[0].encode()).hexdigest() == fixture.fixture.dice_commitment


def test_potion_dice_are_committed_revealed_when_both_teams_are_done_and_verified(database) -> None:
    league = _league(database)
    fixture = _first(league)
    league.support(GUILD, fixture.home_coach, fixture.home, "potion", 1)
    view, started = league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s42")
    league.matches.on_finish.clear()
    out = league.matches.concede(500, view.away_coach)
    state = copy.deepcopy(out.state)
    state.teams["west"].support = {"potions": 1}
    for pid in ("w2", "w3"):
        state.players[pid].location, state.players[pid].injury = Location.INFIRMARY, dict(LASTING)
    league.match_finished(out.match, state)
    (am,) = league.open_aftermaths(GUILD, view.home_coach)
    commitment = fixture.fixture.potion_commitment
    assert any(f"sha256 `{commitment}`" in ln and "`s42.west`" in ln for ln in am.lines), am.lines
    with session_scope() as s:
        assert load_record(session=s, match_id=out.match.id).potions[0]["seed"] is None  # still secret
    am = league.drink(am.aftermath.id, am.aftermath.version, view.home_coach, "w2")
    while any(o.kind == "question" for o in am.offers):  # the potion gave an ability: pick the first
        offer = next(o for o in am.offers if o.kind == "question")
        am = league.answer(am.aftermath.id, am.aftermath.version, view.home_coach, offer.options[0][1])
    assert am.aftermath.potions_done
    (revealed,) = [ln for ln in am.lines if "Potion dice seed revealed" in ln]
    seed = revealed.split("`")[1]
    secret, entropy = seed.split("+")
    assert hashlib.sha256(secret.encode()).hexdigest() == commitment and entropy == "s42.west"

    with session_scope() as s:
        record = load_record(session=s, match_id=out.match.id)
    # Both reports share the secret (each joins its own side); the away team drank nothing.
    report, away = record.potions
    assert report["seed"] == seed and report["steps"] and report["steps"][0]["dice"]
    assert away["side"] == "east" and away["seed"] == f"{secret}+s42.east" and away["steps"] == []
    verdict = verify(record)
    assert verdict.ok, verdict.mismatch
    # Every potion die is checked: a changed face, or a potion drunk again from a later die, fails.
    potion_dice = sum(len(step["dice"]) for step in report["steps"])
    assert verdict.dice >= potion_dice > 0
    forged = copy.deepcopy(record)
    die = forged.potions[0]["steps"][0]["dice"][0]
    die[1] = {"O": "X", "X": "O", "-": "*", "*": "-"}.get(die[1], die[1]) if die[0] == "face" else die[1] % 6 + 1
    bad = verify(forged)
    assert not bad.ok and bad.mismatch.what == "dice" and "potions (west)" in bad.mismatch.command
    skipped = copy.deepcopy(record)
    skipped.potions[0]["steps"][0]["offset"] += 2
    bad = verify(skipped)
    assert not bad.ok and bad.mismatch.key == "verify.mismatch.potion_offset"
    other = copy.deepcopy(record)
    other.potions[0]["seed"] = "0" * 64 + "+s42.west"
    bad = verify(other)
    assert not bad.ok and bad.mismatch.what == "commitment"
    # The record survives a round trip through its JSON file.
    from service.verify import record_from_json

    assert verify(record_from_json(record.to_json())).ok
    with session_scope() as s:
        assert db_leagues.aftermath_seed(session=s, aftermath_id=am.aftermath.id) == seed
