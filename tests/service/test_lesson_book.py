"""Every lesson of the book (issue 35): its solution reaches its goal and its wrong try ends
without it, both in the console's run and through the bot's machinery (a match in the member's
thread); its rule reference is a section of docs/rules.md; its texts exist in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service import lesson_book
from service.lesson_book import Lesson, LessonRun, lessons
from service.lessons import LessonService
from service.matches import MatchService

RULES_MD = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"^###? ([0-9]+(?:\.[0-9]+)?)[. ]", RULES_MD, re.MULTILINE))
BOOK = lessons()
GUILD, LEARNER, THREAD, PARENT = 1, 7, 700, 70


@pytest.mark.parametrize("lesson", BOOK, ids=[x.id for x in BOOK])
def test_the_solution_reaches_the_goal_and_the_wrong_try_does_not(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    assert run.play_all(lesson.solution) == "done", run.narrate(run.events)
    assert len(run.events) > 0
    wrong = LessonRun(lesson)
    assert wrong.play_all(lesson.wrong) == "try_over", wrong.narrate(wrong.events)


@pytest.mark.parametrize("lesson", BOOK, ids=[x.id for x in BOOK])
def test_the_rule_it_quotes_is_explained_in_rules_md(lesson: Lesson) -> None:
    assert str(lesson.rule["rules_md"]) in SECTIONS
    assert int(lesson.rule["page"]) > 0 and lesson.rule["section"]
    for key in lesson_book.TEXT_KEYS:
        assert lesson.text(key, "en") and lesson.text(key, "fr")
        assert lesson.text(key, "fr") != lesson.text(key, "en") or len(lesson.text(key, "en")) < 12


@pytest.fixture
def learn(database) -> LessonService:
    svc = LessonService(MatchService(render=False))
    svc.remember_thread(guild_id=GUILD, user_id=LEARNER, parent_id=PARENT, thread_id=THREAD)
    return svc


@pytest.mark.parametrize("lesson", BOOK, ids=[x.id for x in BOOK])
def test_played_as_a_match_in_the_members_thread(learn: LessonService, lesson: Lesson) -> None:
    """The solution typed as the member types it, each command through the match service; the
    lesson's match ends done and the member's progress says so."""
    out = learn.start(guild_id=GUILD, channel_id=THREAD, user_id=LEARNER, lesson_id=lesson.id)
    for line in lesson.solution:
        m = learn.matches.current(THREAD)
        out = learn.matches.act(THREAD, LEARNER, learn.matches.read(THREAD, LEARNER, line, match=m), match=m)
        assert out.lesson is not None
        if out.lesson.status != "playing":
            break
    assert out.lesson is not None and out.lesson.status == "done"
    assert lesson.id in learn.progress(guild_id=GUILD, user_id=LEARNER).done


def test_the_book_teaches_what_the_issue_names_in_order() -> None:
    """Issue 35's list: the Basic track first, in the order a newcomer meets the rules, then the
    rulebook's own examples, then the Advanced track."""
    basic = ["moving-and-facing", "jog-and-dash", "picking-up", "throw-and-catch", "interception",
             "impact-and-tackle", "shove", "injuries-and-bench", "momentum-counters", "shift-in-momentum",
             "faceoff", "scoring"]
    ids = [x.id for x in BOOK]
    assert ids[: len(basic)] == basic
    assert [x for x in ids if x.startswith("rulebook-")] == ids[len(basic): len(basic) + 5]
    assert ids[-4:] == ["abilities", "team-support", "potions", "wizard"]
    assert [x.track for x in BOOK[-4:]] == ["advanced"] * 4 and all(x.scenario.get("rules") for x in BOOK[-4:])


def test_the_book_ships_with_the_package() -> None:
    """The lessons are package data (a deployment installs the package, not the repository)."""
    import tomllib

    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "lesson_files/*.json" in pyproject["tool"]["setuptools"]["package-data"]["service"]
    assert lesson_book.LESSON_DIR.is_dir() and not lesson_book.LESSON_DIR.is_symlink()


def test_lessons_are_numbered_by_their_place_in_the_book() -> None:
    """The file's NN only orders the files (the tracks leave gaps): the member reads 1 to N."""
    assert [lesson_book.number(x.id) for x in BOOK] == list(range(1, len(BOOK) + 1))
    assert lesson_book.next_lesson(BOOK[-1].id) is None
    assert all(lesson_book.next_lesson(a.id) == b for a, b in zip(BOOK, BOOK[1:]))
