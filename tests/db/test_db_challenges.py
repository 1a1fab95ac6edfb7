"""Challenges and abandon votes in tables of their own: nothing lost, everything answered once.

Each race lines real threads up on a barrier (``db_support.race``), each with its own session,
on SQLite (WAL, as in production) and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.databases import count, race, session

from db import abandon, challenges, matches
from db.errors import (
    ChallengePendingError,
    InvalidInputError,
    MatchNotActiveError,
    NoChallengeError,
    NotAllowedError,
    UnknownTeamError,
)
from service import authority, match_rules
from service.match_rules import MatchSide
from engine.state import RuleOptions

NOW = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
LAPSE = timedelta(hours=1)
GUILD = 1


def propose(s, channel: int, challenger: int = 11, opponent: int = 22, *, now: datetime = NOW, team: str = "orcs"):
    return challenges.propose_challenge(session=s, guild_id=GUILD, channel_id=channel, challenger_id=challenger,
                                        opponent_id=opponent, team=team, options={"goals_to_win": 1}, now=now,
                                        lapse_after=LAPSE)


def start_match(s, ch, team: str = "gnomes"):
    return match_rules.create_match(session=s, guild_id=ch.guild_id, channel_id=ch.channel_id,
                                west=MatchSide(ch.challenger_id, team_list=ch.team),
                                east=MatchSide(ch.opponent_id, team_list=team), options=ch.options)


# --- challenges ---------------------------------------------------------------------------------
def test_twenty_challenges_in_twenty_channels_at_once_are_all_kept(db_engine) -> None:
    results = race(db_engine, lambda s, i: propose(s, 100 + i, challenger=1000 + i, opponent=2000 + i), 20)
    assert [type(r).__name__ for r in results] == ["ChallengePublic"] * 20, results
    assert count(db_engine, "challenges") == 20
    with session(db_engine) as s:
        for i in range(20):
            ch = challenges.pending_challenge(session=s, channel_id=100 + i, now=NOW)
            assert (ch.challenger_id, ch.opponent_id, ch.options) == (1000 + i, 2000 + i, {"goals_to_win": 1})
            assert ch.expires_at == NOW + LAPSE and ch.created_at == NOW and ch.version == 0


def test_five_challenges_in_one_channel_at_once_keep_exactly_one(db_engine) -> None:
    results = race(db_engine, lambda s, i: propose(s, 7, challenger=1000 + i, opponent=2000 + i), 5)
    kept = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, ChallengePendingError)]
    assert len(kept) == 1 and len(refused) == 4, results
    assert count(db_engine, "challenges") == 1
    winner = kept[0]
    for error in refused:  # each loser is told who was first, and until when
        assert error.values["challenger"] == winner.challenger_id and error.values["opponent"] == winner.opponent_id
        assert error.expires_at == NOW + LAPSE and error.values["lapses"] == int((NOW + LAPSE).timestamp())
        assert str(error) == (f"<@{winner.challenger_id}> has already challenged <@{winner.opponent_id}> in this channel;"
                              f" the challenge lapses <t:{int((NOW + LAPSE).timestamp())}:R>")
        assert error.text("fr").startswith(f"<@{winner.challenger_id}> a déjà défié <@{winner.opponent_id}> dans ce salon")


def test_a_lapsed_challenge_is_ignored_then_replaced(db_engine) -> None:
    with session(db_engine) as s:
        old = propose(s, 7)
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW + LAPSE - timedelta(seconds=1)) == old
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW + LAPSE) is None
        with pytest.raises(ChallengePendingError):
            propose(s, 7, challenger=33, now=NOW + timedelta(minutes=59))
        with pytest.raises(NoChallengeError):
            challenges.consume_challenge(session=s, challenge_id=old.id, version=0, user_id=22, now=NOW + LAPSE)
        later = NOW + 2 * LAPSE
        new = propose(s, 7, challenger=33, opponent=44, now=later)
        assert new.id != old.id and (new.challenger_id, new.expires_at) == (33, later + LAPSE)
        assert challenges.pending_challenge(session=s, channel_id=7, now=later) == new
        # The old challenge's button answers nothing, even if it still names the channel.
        with pytest.raises(NoChallengeError):
            challenges.withdraw_challenge(session=s, challenge_id=old.id, version=0, user_id=22, now=later)
    assert count(db_engine, "challenges") == 1


def test_ids_are_never_reused(db_engine) -> None:
    with session(db_engine) as s:
        first = propose(s, 7)
        challenges.withdraw_challenge(session=s, challenge_id=first.id, version=0, user_id=11, now=NOW)
        assert propose(s, 7).id > first.id


def test_only_the_opponent_accepts_and_either_member_may_decline(db_engine) -> None:
    with session(db_engine) as s:
        ch = propose(s, 7)
        for user, version in ((11, 0), (99, 0), (22, 1)):  # the challenger, a stranger, a stale version
            with pytest.raises(NoChallengeError, match="there is no challenge to you in this channel"):
                challenges.consume_challenge(session=s, challenge_id=ch.id, version=version, user_id=user, now=NOW)
        with pytest.raises(NoChallengeError, match="there is no challenge from or to you in this channel") as refused:
            challenges.withdraw_challenge(session=s, challenge_id=ch.id, version=0, user_id=99, now=NOW)
        assert refused.value.text("fr") == "il n'y a pas de défi de vous ou pour vous dans ce salon"
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW) == ch  # nothing changed
        assert challenges.withdraw_challenge(session=s, challenge_id=ch.id, version=0, user_id=11, now=NOW) == ch
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW) is None
        declined = propose(s, 7)
        assert challenges.withdraw_challenge(session=s, challenge_id=declined.id, version=0, user_id=22, now=NOW) == declined
    assert count(db_engine, "challenges") == 0


def test_refused_proposals_write_nothing(db_engine) -> None:
    with session(db_engine) as s:
        with pytest.raises(InvalidInputError, match="you cannot challenge yourself"):
            propose(s, 7, challenger=11, opponent=11)
        with pytest.raises(InvalidInputError, match="a team name has at most 100 characters"):
            propose(s, 7, team="x" * 101)
        with pytest.raises(InvalidInputError, match="give the team a name"):
            propose(s, 7, team="  ")
        kept = challenges.propose_challenge(session=s, guild_id=GUILD, channel_id=8, challenger_id=1, opponent_id=2,
                                            team=" orcs ", options=RuleOptions(goals_to_win=3), now=NOW,
                                            lapse_after=LAPSE)
        assert kept.team == "orcs" and kept.options == RuleOptions(goals_to_win=3).to_dict()
    assert count(db_engine, "challenges") == 1


def test_accepting_starts_the_match_in_the_same_transaction(db_engine) -> None:
    with session(db_engine) as s:
        ch = propose(s, 7)
        taken = challenges.consume_challenge(session=s, challenge_id=ch.id, version=0, user_id=22, now=NOW)
        with pytest.raises(UnknownTeamError):  # the match cannot start: the challenge stands
            match_rules.create_match(session=s, guild_id=GUILD, channel_id=7, west=MatchSide(11, team="no such team"),
                                 east=MatchSide(22, team_list="gnomes"))
        s.rollback()
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW) == ch
        taken = challenges.consume_challenge(session=s, challenge_id=ch.id, version=0, user_id=22, now=NOW)
        started = start_match(s, taken).match
        assert (started.west_coach_id, started.east_coach_id, started.options["goals_to_win"]) == (11, 22, 1)
        assert challenges.pending_challenge(session=s, channel_id=7, now=NOW) is None
    assert count(db_engine, "challenges") == 0


@pytest.mark.parametrize("decliner", [22, 11])
def test_accept_racing_decline_exactly_one_wins(db_engine, decliner) -> None:
    """The opponent's accept against his own decline (two clicks) or the challenger's withdrawal."""
    for round in range(4):
        channel = 50 + round
        with session(db_engine) as s:
            ch = propose(s, channel)

        def answer(s, i, ch=ch):
            if i == 0:
                taken = challenges.consume_challenge(session=s, challenge_id=ch.id, version=0, user_id=22, now=NOW)
                return ("accepted", start_match(s, taken).match.id)
            challenges.withdraw_challenge(session=s, challenge_id=ch.id, version=0, user_id=decliner, now=NOW)
            return ("declined", None)

        results = race(db_engine, answer, 2)
        wins = [r for r in results if isinstance(r, tuple)]
        assert len(wins) == 1 and sum(isinstance(r, NoChallengeError) for r in results) == 1, results
        with session(db_engine) as s:
            assert challenges.pending_challenge(session=s, channel_id=channel, now=NOW) is None
            active = matches.active_match(session=s, channel_id=channel)
            assert (active.id if active else None) == wins[0][1]
    assert count(db_engine, "challenges") == 0


# --- abandon votes ------------------------------------------------------------------------------
def new_match(s, channel: int = 9, west: int = 11, east: int = 22):
    return match_rules.create_match(session=s, guild_id=GUILD, channel_id=channel, west=MatchSide(west, team_list="orcs"),
                                east=MatchSide(east, team_list="gnomes")).match


COACHES = frozenset({11, 22})


def test_two_coaches_voting_at_once_abandon_the_match_exactly_once(db_engine) -> None:
    for round in range(5):
        with session(db_engine) as s:
            m = new_match(s, channel=60 + round)
        results = race(db_engine, lambda s, i, m=m: abandon.vote_abandon(session=s, match_id=m.id, user_id=(11, 22)[i],
                                                                         coaches=COACHES, reason="both coaches agreed"), 2)
        assert all(isinstance(r, abandon.AbandonVote) for r in results), results
        assert sorted(r.complete for r in results) == [False, True], results
        done = next(r for r in results if r.complete)
        assert done.voters == COACHES and done.match.status == "abandoned" and done.match.seed is not None
        waiting = next(r for r in results if not r.complete)
        assert waiting.match is None and len(waiting.voters) == 1
        with session(db_engine) as s:
            assert matches.get_match(session=s, match_id=m.id).status == "abandoned"
            kinds = [e.kind for e in matches.match_events(session=s, match_id=m.id)]
            assert kinds == ["create", "abandon"]
            assert matches.match_events(session=s, match_id=m.id)[1].events == [
                {"kind": "abandoned", "reason": "both coaches agreed"}]


def test_a_vote_counts_once_and_a_vote_on_an_ended_match_is_refused(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        for _ in range(2):
            first = abandon.vote_abandon(session=s, match_id=m.id, user_id=11, coaches=COACHES, reason="agreed")
            assert (first.voters, first.complete, first.match) == (frozenset({11}), False, None)
        assert abandon.abandon_voters(session=s, match_id=m.id) == {11}
        # Who may vote, the service asks first (service.authority), before the store counts a vote.
        with pytest.raises(NotAllowedError, match=f"only the coaches of match #{m.id} can vote to end it") as stranger:
            authority.require_match_coach(m, 99)
        assert stranger.value.text("fr") == f"seuls les entraîneurs de la partie n°{m.id} peuvent voter pour l'arrêter ; un membre avec « Gérer le serveur » peut l'arrêter aussitôt"
        last = abandon.vote_abandon(session=s, match_id=m.id, user_id=22, coaches=COACHES, reason="agreed")
        assert last.complete and last.match.status == "abandoned"
        with pytest.raises(MatchNotActiveError, match=f"match #{m.id} is abandoned"):
            abandon.vote_abandon(session=s, match_id=m.id, user_id=22, coaches=COACHES, reason="agreed")
        # Against the AI coach, the one human's vote is enough.
        solo = new_match(s, channel=10)
        alone = abandon.vote_abandon(session=s, match_id=solo.id, user_id=11, coaches=frozenset({11}), reason="alone")
        assert alone.complete and alone.match.status == "abandoned"
    assert count(db_engine, "abandon_votes") == 3


def test_votes_go_with_their_match(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        abandon.vote_abandon(session=s, match_id=m.id, user_id=11, coaches=COACHES, reason="agreed")
    with db_engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM match_events")
        conn.exec_driver_sql("DELETE FROM matches")
    assert count(db_engine, "abandon_votes") == 0


# --- the dice secret committed with the challenge ----------------------------------------------------
def test_the_challenge_commits_a_sealed_secret_and_the_accept_adds_entropy(db_engine) -> None:
    from sqlalchemy import text

    from db.seeds import is_sealed
    from engine.dice.commit import commitment_of, committed_part, entropy_part

    with session(db_engine) as s:
        ch = challenges.propose_challenge(session=s, guild_id=GUILD, channel_id=7, challenger_id=11, opponent_id=22,
                                          team="orcs", options={}, now=NOW, lapse_after=LAPSE, entropy="c123")
        assert len(ch.dice_commitment) == 64 and ch.entropy == "c123"
        assert "dice_secret" not in ch.model_dump()  # the public row never carries it
        stored = s.execute(text("SELECT dice_secret FROM challenges")).scalar_one()
        assert is_sealed(stored)  # a database reader learns nothing before the reveal
        seed = challenges.challenge_seed(session=s, challenge_id=ch.id, entropy="a456")
        assert entropy_part(seed) == "c123.a456" and commitment_of(seed) == ch.dice_commitment
        challenges.consume_challenge(session=s, challenge_id=ch.id, version=0, user_id=22, now=NOW)
        m = match_rules.create_match(session=s, guild_id=GUILD, channel_id=7, west=MatchSide(11, team_list="orcs"),
                                 east=MatchSide(22, team_list="gnomes"), seed=seed).match
        # The match keeps the same commitment, its entropy in public and the secret sealed.
        assert (m.seed_commitment, m.dice_entropy, m.seed) == (ch.dice_commitment, "c123.a456", None)
        assert is_sealed(s.execute(text("SELECT dice_seed FROM matches")).scalar_one())
        over = matches.abandon(session=s, match_id=m.id, reason="test")
        # Revealed at the end: the whole seed, whose committed part matches the challenge's post.
        assert over.seed == seed and commitment_of(committed_part(over.seed)) == ch.dice_commitment
        assert not is_sealed(s.execute(text("SELECT dice_seed FROM matches")).scalar_one())


def test_a_challenge_made_before_secrets_were_committed_lets_the_match_draw_its_own(db_engine) -> None:
    from sqlalchemy import text

    with session(db_engine) as s:
        ch = propose(s, 8)
        s.execute(text("UPDATE challenges SET dice_secret = '', dice_commitment = ''"))
        s.commit()
        assert challenges.challenge_seed(session=s, challenge_id=ch.id, entropy="a1") is None


def test_an_answer_is_recorded_once_before_the_seed_and_a_second_one_keeps_it(db_engine) -> None:
    from engine.dice.commit import entropy_part

    with session(db_engine) as s:
        ch = challenges.propose_challenge(session=s, guild_id=GUILD, channel_id=9, challenger_id=11, opponent_id=22,
                                          team="orcs", options={}, now=NOW, lapse_after=LAPSE, entropy="c-00aa")
        with pytest.raises(NoChallengeError):  # only the challenged member answers a member's challenge
            challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=11, entropy="a1", now=NOW)
        first = challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=22,
                                         entropy="a-11bb", now=NOW)
        assert first.accept_entropy == "a-11bb" and first.version == ch.version + 1
        again = challenges.record_answer(session=s, challenge_id=ch.id, version=first.version, user_id=22,
                                         entropy="a-22cc", now=NOW)
        assert again.accept_entropy == "a-11bb"  # a retry draws the same dice
        assert entropy_part(challenges.challenge_seed(session=s, challenge_id=ch.id)) == "c-00aa.a-11bb"


def test_a_challenge_to_the_ai_coach_is_answered_by_its_challenger(db_engine) -> None:
    with session(db_engine) as s:
        ch = challenges.propose_challenge(session=s, guild_id=GUILD, channel_id=10, challenger_id=11, opponent_id=0,
                                          team="orcs", options={}, now=NOW, lapse_after=LAPSE, entropy="c5",
                                          ai_level="hard", ai_team="gnolls")
        assert (ch.ai_level, ch.ai_team) == ("hard", "gnolls")
        ch = challenges.record_answer(session=s, challenge_id=ch.id, version=ch.version, user_id=11, entropy="s6", now=NOW)
        gone = challenges.consume_challenge(session=s, challenge_id=ch.id, version=ch.version, user_id=11, now=NOW)
        assert gone.accept_entropy == "s6"
