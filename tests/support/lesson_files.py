"""A small lesson book for the lessons' own tests, apart from the real one (service/lesson_files)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service import lesson_book

#: A throw to a team-mate in I12 who catches it (the catch example's position, p. 7), with
#: every die stated a bull's-eye.
CATCH: dict[str, Any] = {
    "id": "throw-and-catch",
    "track": "basic",
    "title": {"en": "A throw and its catch", "fr": "Une passe et sa réception"},
    "goal": {"en": "Throw the ball to your team-mate in I12.", "fr": "Passez le ballon à votre coéquipier en I12."},
    "hint": {"en": "Throw to the hex your team-mate stands on.", "fr": "Lancez vers la case de votre coéquipier."},
    "explain": {"en": "He caught it (p. 7, Catching).", "fr": "Il l'a attrapé (p. 7, Réception)."},
    "rule": {"page": 7, "section": "Catching", "rules_md": "7.4"},
    "scenario": {
        "teams": {"west": {"list": "gnolls"}, "east": {"list": "night-elves"}},
        "players": [
            {"id": "w1", "position": "middle-kingdoms/throwers", "hex": "F12", "facing": "E", "ball": True},
            {"id": "w2", "position": "gnolls/midfielders", "hex": "I12", "facing": "W"},
            {"id": "e1", "position": "night-elves/strikers", "hex": "J12", "facing": "W"},
        ],
        "momentum": {"counters": 3, "side": "west"},
        "acting": {"player": "w1", "jog": 6},
    },
    "dice": ["O", "O", "O", "O", "O", "O", "O", "O"],
    "expect": {"carrier": "w2"},
    "solution": ["throw I12", "keep"],
    "wrong": ["end"],
}

#: Walk w1 two hexes east (no dice at all).
WALK: dict[str, Any] = {
    **CATCH,
    "id": "walk",
    "title": {"en": "Walk", "fr": "Marcher"},
    "goal": {"en": "Walk to H12.", "fr": "Marchez jusqu'en H12."},
    "dice": [],
    "expect": {"hex": {"w1": "H12"}},
    "solution": ["move G12 H12"],
    "wrong": ["end"],
}


def write_book(directory: Path, *books: dict[str, Any]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for n, data in enumerate(books, 1):
        (directory / f"{n:02d}-{data['id']}.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def small_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The lesson book is WALK then CATCH, for this test only."""
    directory = tmp_path / "lessons"
    write_book(directory, WALK, CATCH)
    monkeypatch.setattr(lesson_book, "LESSON_DIR", directory)
    return directory
