"""What the bot posted for each match, and the slash-command sync claim: racing processes never
roll a board back, claim an owed board twice, or sync twice.

Races line real threads up on a barrier (``db_support.race``), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from support.databases import count, race, session

from db import bot_state, posts
from service import match_rules
from service.match_rules import MatchSide

NOW = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
CLAIM = timedelta(minutes=2)


def new_match(s, channel: int = 9):
    return match_rules.create_match(session=s, guild_id=1, channel_id=channel, west=MatchSide(11, team_list="orcs"),
                                east=MatchSide(22, team_list="gnomes")).match


def save(s, match_id: int, version: int, *, message: int | None = None, first: int = 0, closed: bool = False) -> bool:
    return posts.save_post(session=s, match_id=match_id, channel_id=9, message_id=message or 1000 + version, side=None,
                           first_version=first, shown_version=version, header=f"board v{version}", closed=closed)


# --- saving ------------------------------------------------------------------------------------
def test_a_post_is_saved_and_never_goes_back_to_an_older_version(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        assert posts.get_post(session=s, match_id=m.id) is None
        assert save(s, m.id, 3, first=1)
        assert not save(s, m.id, 2)  # an older outcome posted late
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.shown_version, post.first_version, post.message_id, post.header) == (3, 1, 1003, "board v3")
        assert (post.channel_id, post.side, post.closed, post.owed) == (9, None, False, False)
        assert save(s, m.id, 3, message=77, first=1)  # the same version again (an edit) is saved
        assert save(s, m.id, 5, first=1, closed=True)
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.shown_version, post.closed, post.message_id) == (5, True, 1005)
        assert post.updated_at.tzinfo is not None


def test_save_post_never_goes_backwards_under_racing_writers(db_engine) -> None:
    for round in range(4):
        with session(db_engine) as s:
            m = new_match(s, channel=30 + round)
        versions = list(range(12))
        random.Random(round).shuffle(versions)
        if round % 2 == 0:  # the newest released first: the writers after it must all lose
            versions.remove(11)
            versions.insert(0, 11)
        results = race(db_engine, lambda s, i, m=m, versions=versions: save(s, m.id, versions[i]), len(versions))
        assert all(isinstance(r, bool) for r in results), results
        assert results[versions.index(11)] is True  # the newest is always saved
        with session(db_engine) as s:
            post = posts.get_post(session=s, match_id=m.id)
        # The newest board, whole: its message and header were never mixed with an older one's.
        assert (post.shown_version, post.message_id, post.header) == (11, 1011, "board v11"), results
    assert count(db_engine, "match_posts") == 4


# --- owed posts ---------------------------------------------------------------------------------
def test_an_owed_board_is_claimed_posted_and_saved(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        assert save(s, m.id, 2)
        assert posts.mark_owed(session=s, match_id=m.id, channel_id=9, version=4, now=NOW)
        post = posts.get_post(session=s, match_id=m.id)
        # The debt is noted; what the message shows is kept.
        assert (post.owed, post.owed_since, post.owed_version) == (True, NOW, 4)
        assert (post.shown_version, post.message_id, post.header) == (2, 1002, "board v2")
        assert posts.mark_owed(session=s, match_id=m.id, channel_id=9, version=5, now=NOW + CLAIM)
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.owed_since, post.owed_version) == (NOW, 5)  # owed since the first failure
        assert not posts.mark_owed(session=s, match_id=m.id, channel_id=9, version=2, now=NOW)  # already shown

        assert posts.claim_owed(session=s, match_id=m.id, now=NOW, until=NOW + CLAIM)
        assert not posts.claim_owed(session=s, match_id=m.id, now=NOW + CLAIM, until=NOW + 2 * CLAIM)  # still held
        assert posts.owed_posts(session=s, now=NOW + CLAIM, limit=10) == []
        # The claimer died: once the claim runs out the board is owed again.
        [(match, owed)] = posts.owed_posts(session=s, now=NOW + CLAIM + timedelta(seconds=1), limit=10)
        assert (match.id, owed.match_id, owed.claimed_until) == (m.id, m.id, NOW + CLAIM)

        assert save(s, m.id, 4)  # an older board than the one owed: the debt stays
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.owed, post.owed_version, post.claimed_until, post.shown_version) == (True, 5, NOW + CLAIM, 4)
        assert save(s, m.id, 5)  # the owed board: paid, the claim is over
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.owed, post.owed_since, post.owed_version, post.claimed_until) == (False, None, None, None)
        assert not posts.claim_owed(session=s, match_id=m.id, now=NOW + 9 * CLAIM, until=NOW + 10 * CLAIM)


def test_a_board_never_posted_is_owed_with_no_message(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        assert posts.mark_owed(session=s, match_id=m.id, channel_id=9, version=0, now=NOW)
        post = posts.get_post(session=s, match_id=m.id)
        assert (post.message_id, post.channel_id, post.first_version, post.shown_version, post.header) == \
            (None, 9, 0, -1, "")
        assert save(s, m.id, 0, first=0)
        assert not posts.get_post(session=s, match_id=m.id).owed


def test_owed_posts_oldest_first_finished_matches_included(db_engine) -> None:
    with session(db_engine) as s:
        ms = [new_match(s, channel=20 + i) for i in range(4)]
        over = match_rules.submit(session=s, match_id=ms[2].id, by_side="west", actor_user_id=11,
                              command={"name": "concede"})
        assert over.match.status == "finished"
        for i, when in ((0, 3), (1, 1), (2, 2)):  # ms[3] owes nothing
            posts.mark_owed(session=s, match_id=ms[i].id, channel_id=20 + i, version=1, now=NOW + timedelta(minutes=when))
        owed = posts.owed_posts(session=s, now=NOW, limit=10)
        assert [(m.id, p.match_id) for m, p in owed] == [(ms[i].id, ms[i].id) for i in (1, 2, 0)]
        assert owed[1][0].status == "finished" and owed[1][0].seed is not None
        assert [m.id for m, _ in posts.owed_posts(session=s, now=NOW, limit=1, offset=1)] == [ms[2].id]
        assert posts.claim_owed(session=s, match_id=ms[1].id, now=NOW, until=NOW + CLAIM)
        assert [m.id for m, _ in posts.owed_posts(session=s, now=NOW, limit=10)] == [ms[2].id, ms[0].id]


def test_claim_owed_has_exactly_one_winner_among_racing_claimers(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        posts.mark_owed(session=s, match_id=m.id, channel_id=9, version=1, now=NOW)
    for round in range(3):  # each round's claim has run out by the next
        at = NOW + round * 2 * CLAIM
        results = race(db_engine, lambda s, i, at=at: posts.claim_owed(session=s, match_id=m.id, now=at, until=at + CLAIM), 8)
        assert sorted(results) == [False] * 7 + [True], results


def test_posts_go_with_their_match(db_engine) -> None:
    with session(db_engine) as s:
        m = new_match(s)
        save(s, m.id, 0)
    with db_engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM match_events")
        conn.exec_driver_sql("DELETE FROM matches")
    assert count(db_engine, "match_posts") == 0


# --- the slash-command sync ------------------------------------------------------------------
def test_claim_command_sync_has_exactly_one_winner(db_engine) -> None:
    for digest in ("abc", "def"):  # no row yet, then a row holding the old digest
        results = race(db_engine, lambda s, i, digest=digest: bot_state.claim_command_sync(session=s, key="commands",
                                                                                digest=digest), 8)
        assert sorted(results) == [False] * 7 + [True], results
        with session(db_engine) as s:
            assert bot_state.get_state(session=s, key="commands").value == digest
    assert count(db_engine, "bot_state") == 1


def test_a_failed_sync_is_released_and_claimed_again(db_engine) -> None:
    with session(db_engine) as s:
        assert bot_state.claim_command_sync(session=s, key="commands", digest="abc")
        assert not bot_state.claim_command_sync(session=s, key="commands", digest="abc")  # the next start: synced
        assert bot_state.claim_command_sync(session=s, key="commands", digest="def")
        assert not bot_state.release_command_sync(session=s, key="commands", digest="abc")  # not ours any more
        assert bot_state.release_command_sync(session=s, key="commands", digest="def")  # our sync failed
        assert bot_state.get_state(session=s, key="commands") is None
        assert bot_state.claim_command_sync(session=s, key="commands", digest="def")  # so the next start retries
        assert bot_state.claim_command_sync(session=s, key="other", digest="def")  # keys are independent
