"""A lost dice key, in the services (issue 30, "The key"): a match whose seal no longer opens
is abandoned without a reveal, marked "dice unverifiable" for every checker, and a league
fixture so abandoned goes back to the schedule with new secrets and is played again."""

from __future__ import annotations

import pytest
from support.leagues import ALICE, BOB, CAROL, GUILD, three_teams

from cli.main import main
from db.engine import session_scope
from db.errors import InvalidInputError, UnusableDatabaseError
from db.seeds import SECRET_ENV, new_secret
from service.leagues import CommitmentNotPosted, LeagueService
from service.match_rules import MatchSide
from service.matches import MatchService, dice_unverifiable
from service.verify import load_record


def _first(league: LeagueService):  # noqa: ANN202
    three_teams(league)
    return min((v for c in (ALICE, BOB, CAROL) for v in league.next_fixtures(GUILD, c)), key=lambda v: v.id)


def test_a_league_fixture_abandoned_with_its_key_lost_is_scheduled_again_and_played(database, monkeypatch) -> None:
    league = LeagueService(MatchService(render=False), render=False)
    fixture = _first(league)
    league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s1")
    monkeypatch.setenv(SECRET_ENV, new_secret())  # the key is lost
    with pytest.raises(UnusableDatabaseError, match="sealed with another key"):
        league.matches.concede(500, fixture.home_coach)
    gone = league.matches.abandon(500, None, "abandoned by a moderator")
    assert gone.status == "abandoned" and gone.seed is None and dice_unverifiable(gone)
    assert league.matches.current_or_none(500) is None
    league.sync(league.league(GUILD, fixture.fixture.league_id))
    again = league.fixture(GUILD, fixture.id).fixture
    assert again.status == "scheduled" and again.dice_commitment != fixture.fixture.dice_commitment
    # Drawn under the new key and posted before it is played again (issue 30: a re-drawn
    # fixture's commitment is public before any entropy): it plays, and ends with a reveal that verifies.
    league.commitments_shown([league.fixture(GUILD, fixture.id)])
    view, out = league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s2")
    assert out.match.seed_commitment == again.dice_commitment
    ended = league.matches.concede(500, view.away_coach)
    assert ended.match.status == "finished" and not dice_unverifiable(ended.match)


def test_a_fixture_drawn_under_a_lost_key_gets_fresh_secrets_posted_before_it_is_played(database, monkeypatch) -> None:
    """Its sealed secrets no longer open: nobody played with them, so the first ``/league play``
    draws new ones and posts them (starting nothing), and the next starts the fixture."""
    league = LeagueService(MatchService(render=False), render=False)
    fixture = _first(league)
    league.commitments_shown([fixture])  # the schedule's post
    monkeypatch.setenv(SECRET_ENV, new_secret())  # the key is lost
    with pytest.raises(CommitmentNotPosted) as posted:
        league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s1")
    fresh = posted.value.view.fixture
    assert fresh.dice_commitment != fixture.fixture.dice_commitment
    assert fresh.potion_commitment != fixture.fixture.potion_commitment
    assert league.matches.current_or_none(500) is None
    league.commitments_shown([posted.value.view])
    view, out = league.play(GUILD, 500, fixture.home_coach, fixture.id, entropy="s2")
    assert out.match.seed_commitment == fresh.dice_commitment
    ended = league.matches.concede(500, view.away_coach)
    assert ended.match.status == "finished" and not dice_unverifiable(ended.match)


def test_checkers_say_a_lost_keys_match_is_unverifiable(database, monkeypatch, capsys) -> None:
    svc = MatchService(render=False)
    m = svc.start(guild_id=1, channel_id=7, west=MatchSide(ALICE, team_list="gnolls"),
                  east=MatchSide(BOB, team_list="sarcos")).match
    monkeypatch.setenv(SECRET_ENV, new_secret())
    assert not svc.vote_abandon(7, ALICE).complete
    vote = svc.vote_abandon(7, BOB)  # both coaches: the last vote ends it, without a reveal
    assert vote.complete and vote.match is not None and dice_unverifiable(vote.match)
    with session_scope() as s, pytest.raises(InvalidInputError) as refused:
        load_record(session=s, match_id=m.id)
    assert "dice are unverifiable" in str(refused.value) and "dés sont invérifiables" in refused.value.text("fr")
    monkeypatch.setenv("ELFBALL_DB", database.url.database)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["verify", "--match", str(m.id)]) == 2
    assert f"match #{m.id} was abandoned after its dice key was lost" in capsys.readouterr().err
