"""A command's transaction reads what its post needs (``service.posts.read_ahead``): the poster's
plan uses that read and no transaction of its own, unless this process wrote the match's post
since or the match moved on, when it reads again; either way the plan is the one a fresh read
gives."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from service import posts
from support.databases import statements_on
from service.match_rules import MatchSide
from service.matches import MatchService

WEST, EAST = 301, 302


@pytest.fixture
def svc(sessions) -> Iterator[MatchService]:
    service = MatchService(sessions=sessions, render=False)
    service.start(guild_id=1, channel_id=9, west=MatchSide(WEST, team_list="gnolls"),
                  east=MatchSide(EAST, team_list="sarcos"), seed="read-ahead")
    yield service
    service.close()


@pytest.fixture
def statements(sessions) -> Iterator[list[str]]:
    with sessions() as s:
        engine = s.get_bind()
    with statements_on(engine) as seen:
        yield seen


def _command(svc: MatchService):
    m = svc.current(9)
    user = WEST if m.deciding_side == "west" else EAST
    return user, svc.act(9, user, svc.read(9, user, "auto"))


def _fresh(svc: MatchService, out, actor: int) -> posts.Plan:
    return posts.plan_for(svc.sessions, out.match, out.state, actor_user_id=actor)[0]


def test_the_plan_of_a_command_reads_nothing_more(svc: MatchService, statements: list[str]) -> None:
    user, out = _command(svc)
    assert out.post_read is not None and out.post_read.version == out.match.version
    statements.clear()
    ahead, _ = posts.plan_for(svc.sessions, out.match, out.state, actor_user_id=user, read=out.post_read)
    assert statements == []
    assert ahead == _fresh(svc, out, user) and statements  # the same plan as a read of its own


def test_a_post_written_since_the_read_is_read_again(svc: MatchService, statements: list[str]) -> None:
    user, first = _command(svc)
    plan, _ = posts.plan_for(svc.sessions, first.match, first.state, actor_user_id=user, read=first.post_read)
    # Another command's read is taken while the first one's post is still on its way...
    user2, second = _command(svc)
    # ...and the first post is recorded after it: the second read must not be trusted.
    posts.record(svc.sessions, first.match, 9, plan.live, 555)
    statements.clear()
    again, _ = posts.plan_for(svc.sessions, second.match, second.state, actor_user_id=user2, read=second.post_read)
    assert any("match_posts" in q for q in statements)
    assert again == _fresh(svc, second, user2)


def test_a_read_of_another_version_is_read_again(svc: MatchService, statements: list[str]) -> None:
    user, first = _command(svc)
    _, second = _command(svc)
    statements.clear()
    plan, _ = posts.plan_for(svc.sessions, second.match, second.state, actor_user_id=user, read=first.post_read)
    assert any("match_events" in q for q in statements)
    assert plan == _fresh(svc, second, user)
