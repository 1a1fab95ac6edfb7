"""Lessons played as matches in the member's thread (issue 35): the goal judged on the state,
the try closed, progress kept, and only the member's own thread."""

from __future__ import annotations

import pytest

from db.errors import NotAllowedError
from service.lessons import LessonService
from service.match_rules import MatchSide, rebuild
from service.matches import MatchService
from service.refusal import Refused

GUILD, ALICE, BOB = 1, 101, 102
THREAD, BOB_THREAD, PARENT = 500, 501, 50


@pytest.fixture
def learn(database, small_book) -> LessonService:
    svc = LessonService(MatchService(render=False))
    svc.remember_thread(guild_id=GUILD, user_id=ALICE, parent_id=PARENT, thread_id=THREAD)
    svc.remember_thread(guild_id=GUILD, user_id=BOB, parent_id=PARENT, thread_id=BOB_THREAD)
    return svc


def _play(learn: LessonService, line: str, user: int = ALICE, channel: int = THREAD):
    m = learn.matches.current(channel)
    return learn.matches.act(channel, user, learn.matches.read(channel, user, line, match=m), match=m)


def test_a_lesson_starts_in_the_members_thread_hot_seat(learn) -> None:
    out = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="throw-and-catch")
    assert out.lesson is not None and (out.lesson.lesson_id, out.lesson.status, out.lesson.tries) == (
        "throw-and-catch", "started", 1)
    m = out.match
    assert (m.west_coach_id, m.east_coach_id, m.deadline) == (ALICE, ALICE, None)
    assert out.state.ball.carrier == "w1" and out.state.action is not None
    assert learn.thread_for(guild_id=GUILD, user_id=ALICE, parent_id=PARENT) == THREAD


def test_the_solution_reaches_the_goal_with_the_stated_dice(learn) -> None:
    learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="throw-and-catch")
    first = _play(learn, "throw I12")
    assert first.lesson is not None and first.lesson.status == "playing"
    out = _play(learn, "keep")
    assert out.lesson is not None and out.lesson.status == "done" and out.lesson.next_id is None
    assert out.state.ball.carrier == "w2"
    assert not out.match.active  # closed: the thread is free for the next lesson
    assert learn.matches.current_or_none(THREAD) is None
    p = learn.progress(guild_id=GUILD, user_id=ALICE)
    assert p.done == {"throw-and-catch"} and p.current == "throw-and-catch" and p.next_id == "walk"


def test_a_wrong_try_is_over_and_counted_then_tried_again(learn) -> None:
    learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    out = _play(learn, "end")
    assert out.lesson is not None and out.lesson.status == "try_over" and not out.match.active
    assert learn.progress(guild_id=GUILD, user_id=ALICE).done == frozenset()
    again = learn.restart(guild_id=GUILD, channel_id=THREAD, user_id=ALICE)
    assert again.lesson is not None and (again.lesson.lesson_id, again.lesson.tries) == ("walk", 2)
    done = _play(learn, "move G12 H12")
    assert done.lesson is not None and done.lesson.status == "done" and done.lesson.next_id == "throw-and-catch"
    p = learn.progress(guild_id=GUILD, user_id=ALICE)
    assert p.done == {"walk"} and p.tries == {"walk": 2} and p.next_id == "throw-and-catch"


def test_starting_again_closes_the_running_try(learn) -> None:
    first = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    second = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="throw-and-catch")
    assert second.match.id != first.match.id
    assert learn.matches.snapshot(first.match.id).match.status == "abandoned"


def test_an_undo_in_a_lesson_returns_to_the_lessons_position(learn) -> None:
    """The lesson's match replays from its own position, not from a new match's."""
    out = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    _play(learn, "move G12")
    back = learn.matches.undo(THREAD, ALICE)
    assert back.state.players["w1"].hex == out.state.players["w1"].hex
    assert back.lesson is not None and back.lesson.status == "playing"
    with learn.matches.sessions() as s:
        assert rebuild(session=s, match_id=out.match.id).players["w1"].hex == out.state.players["w1"].hex
    assert _play(learn, "move G12 H12").lesson.status == "done"


def test_only_the_member_plays_his_lessons(learn) -> None:
    learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    with pytest.raises(NotAllowedError):  # Bob may not start one in Alice's thread
        learn.start(guild_id=GUILD, channel_id=THREAD, user_id=BOB, lesson_id="walk")
    with pytest.raises(NotAllowedError):  # nor in a thread that is nobody's lessons thread
        learn.start(guild_id=GUILD, channel_id=999, user_id=BOB, lesson_id="walk")
    with pytest.raises(Exception, match="coach"):  # nor move Alice's players
        _play(learn, "move G12", user=BOB)
    assert learn.matches.current(THREAD).version == 0


def test_a_real_match_is_never_closed_by_a_lesson(learn) -> None:
    learn.matches.start(guild_id=GUILD, channel_id=THREAD, west=MatchSide(ALICE, team_list="gnolls"),
                        east=MatchSide(BOB, team_list="night-elves"), seed="s")
    with pytest.raises(Refused) as refused:
        learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    assert refused.value.key == "refuse.lesson_channel_busy"
    assert learn.matches.current(THREAD).active


def test_an_ordinary_match_carries_no_lesson(learn) -> None:
    learn.matches.start(guild_id=GUILD, channel_id=77, west=MatchSide(ALICE, team_list="gnolls"),
                        east=MatchSide(BOB, team_list="night-elves"), seed="s")
    out = learn.matches.status(77)
    assert out.lesson is None
    assert learn.lesson_of(out.match) is None


def test_an_unknown_lesson_is_refused(learn) -> None:
    with pytest.raises(Refused) as refused:
        learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="nope")
    assert refused.value.key == "refuse.lesson_unknown"
    assert learn.matches.current_or_none(THREAD) is None


def test_a_lessons_dice_are_not_offered_for_verification(learn) -> None:
    """Its dice were stated, not drawn from its committed seed: a check would only mislead."""
    from db.errors import InvalidInputError
    from service.verify import load_record

    out = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=ALICE, lesson_id="walk")
    _play(learn, "end")
    with learn.matches.sessions() as s, pytest.raises(InvalidInputError, match="lesson"):
        load_record(session=s, match_id=out.match.id)
