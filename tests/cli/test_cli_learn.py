"""``elfball learn``: the lessons at the terminal, judged as /learn judges them (issue 35)."""

from __future__ import annotations

import io

import pytest

from cli.main import main


def _learn(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["learn", "--quiet", *args])
    return code, capsys.readouterr().out


def test_lists_the_lessons_in_order(small_book, capsys) -> None:
    assert main(["learn", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.index("walk") < out.index("throw-and-catch") and "Basic" in out


def test_a_wrong_try_shows_the_hint_then_the_goal_moves_on(small_book, monkeypatch, capsys) -> None:
    # end (wrong try) -> Enter (try again) -> the solution -> Enter (the next lesson) -> its solution
    code, out = _learn(monkeypatch, capsys, "end\n\nmove G12 H12\n\nthrow I12\nkeep\n")
    assert code == 0
    assert out.count("Lesson 1 of 2: Walk") == 2  # started again after the wrong try
    assert "Not this time" in out and "Hint: Throw to the hex your team-mate stands on." in out
    assert out.count("Goal reached!") == 2
    assert "Lesson 2 of 2: A throw and its catch" in out
    assert "That was the last lesson" in out


def test_refused_commands_and_the_hint_leave_the_try_going(small_book, monkeypatch, capsys) -> None:
    code, out = _learn(monkeypatch, capsys, "move Z99\nhint\nquit\n", "throw-and-catch")
    assert code == 0 and "refused:" in out and "Hint:" in out and "Goal reached!" not in out


def test_french(small_book, monkeypatch, capsys) -> None:
    code, out = _learn(monkeypatch, capsys, "indice\nquitter\n", "walk", "--lang", "fr")
    assert "Leçon 1 sur 2 : Marcher" in out and "Indice :" in out


def test_an_unknown_lesson_is_named(small_book, capsys) -> None:
    assert main(["learn", "nope"]) == 2
    assert "no lesson nope" in capsys.readouterr().out
