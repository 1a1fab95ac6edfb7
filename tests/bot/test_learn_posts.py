"""The lines and buttons of ``/learn`` (``bot.learn.posts``) without Discord: both languages say
everything, the buttons survive a restart (their custom ids), and they fit Discord's limits."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from bot.learn.posts import CUSTOM_ID, LessonButton, header, progress_lines, verdict_text, verdict_view
from service.lesson_book import lesson
from service.lessons import LessonNote, Progress


def catalogue(language: str) -> dict[str, str]:
    return json.loads(resources.files("bot").joinpath(f"locales/{language}.json").read_text(encoding="utf-8"))


def test_every_learn_text_is_in_english_and_in_french():
    en, fr = catalogue("en"), catalogue("fr")
    learn = {k for k in en if k.startswith(("learn.", "refuse.learn_", "refuse.lesson_"))}
    assert len(learn) > 30 and learn <= set(fr)
    assert {k for k in fr if k.startswith(("learn.", "refuse.learn_", "refuse.lesson_"))} <= set(en)
    assert "perm.create_private_threads" in en and "perm.create_private_threads" in fr


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_lesson_posts_in_both_languages(small_book, language):
    top = header(lesson("walk"), language, tries=2)
    assert ("Marchez jusqu'en H12." if language == "fr" else "Walk to H12.") in top
    assert "p. 7" in top and "§7.4" in top and ("Essai 2." if language == "fr" else "Try 2.") in top
    done = verdict_text(LessonNote("walk", "done", next_id="throw-and-catch"), language)
    assert ("Réception" if language == "fr" else "Catching") in done
    over = verdict_text(LessonNote("throw-and-catch", "try_over"), language)
    assert ("Lancez vers la case" if language == "fr" else "Throw to the hex") in over


def test_the_buttons_carry_what_they_do_and_fit_discords_limits(small_book):
    done = verdict_view(LessonNote("walk", "done", next_id="throw-and-catch"), "fr")
    ids = [item.custom_id for item in done.children]  # type: ignore[attr-defined]
    assert ids == [f"{CUSTOM_ID}:next:throw-and-catch", f"{CUSTOM_ID}:again:walk", f"{CUSTOM_ID}:all"]
    last = verdict_view(LessonNote("throw-and-catch", "done"), "en")
    labels = [item.item.label for item in last.children]  # type: ignore[attr-defined]
    assert labels == ["Try again", "All lessons", "Play the AI coach (easy)"]
    over = verdict_view(LessonNote("walk", "try_over"), "en")
    assert [item.item.label for item in over.children] == ["Try again", "All lessons"]  # type: ignore[attr-defined]
    for view in (done, last, over):
        for item in view.children:
            assert len(item.custom_id) <= 100 and len(item.item.label) <= 80  # type: ignore[attr-defined]
            assert LessonButton.__discord_ui_compiled_template__.fullmatch(item.custom_id)  # type: ignore[attr-defined]


def test_the_progress_ticks_what_is_done_and_names_the_next(small_book):
    mine = Progress(frozenset({"walk"}), {"walk": 1, "throw-and-catch": 3}, "throw-and-catch", "throw-and-catch")
    lines = progress_lines(mine, "en")
    assert lines[0] == "📚 **Your lessons** — 1/2 done"
    assert "✅ 01. Walk (1 tries)" in lines and "▶️ 02. A throw and its catch (3 tries)" in lines
    assert lines[-1].startswith("▶️ Next: **A throw and its catch**")
    finished = progress_lines(Progress(frozenset({"walk", "throw-and-catch"}), {}, None, None), "fr")
    assert finished[-1].startswith("🎓 Tout est fait")


def test_the_last_lesson_of_the_real_book_says_it_is_the_last():
    """Numbered by its place in the book, not its file's NN (the tracks leave gaps)."""
    from service.lesson_book import lessons

    book = lessons()
    total = len(book)
    assert f"{total}/{total}" in header(book[-1], "en")
    lines = progress_lines(Progress(frozenset(), {}, None, book[0].id), "en")
    assert any(line.endswith(f"{total:02d}. {book[-1].text('title', 'en')}") for line in lines)
