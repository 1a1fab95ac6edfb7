"""The lessons of ``/learn`` and ``elfball learn``: short positions that teach Elfball by doing.

A lesson is a file in ``service/lesson_files/`` (docs/lessons.md gives its format): a position
written with a scenario's keys, the dice the lesson states (so a catch that must succeed does),
a goal written with a scenario's ``expect`` keys, and its texts in English and French (title,
goal, hint, explanation with the rulebook's page and section). The goal is the engine's state,
never what was typed: it is checked after each command, and a try is over without it when the
action ends (or the decision passes to the other team).

``LessonRun`` plays a lesson without any database (the console, the tests); the bot plays it as a
match in the member's thread (``service.lessons``), with the same checks (``judge``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from engine import (
    DieFace,
    Event,
    MatchState,
    Phase,
    Side,
    StatedDice,
    apply,
    narrate_events,
    pending,
    standard_field,
    team_list,
)

from .grammar import parse
from .jsonfile import read_json
from .refusal import Refused
from .scenario import build_state
from .scenario_check import check_position
from .scenario_tools import EXPECT_KEYS, ScenarioResult, check_expect

__all__ = ["LessonNote", "LESSON_DIR", "TEXT_KEYS", "TRACKS", "Lesson", "Verdict", "LessonRun", "judge", "lessons", "lesson",
           "next_lesson", "number", "load_lesson", "stated_dice"]

#: Where the lessons are kept (shipped with the package).
LESSON_DIR = Path(__file__).resolve().parent / "lesson_files"
TEXT_KEYS = ("title", "goal", "hint", "explain")
TRACKS = ("basic", "advanced")
LANGUAGES = ("en", "fr")
#: The events that end a try when a lesson names none: the action is over.
DEFAULT_ENDS_ON = ("action_ended", "turn_passed")
#: Scenario keys a lesson's position may not carry: the lesson states them itself.
_NOT_POSITION = ("dice", "commands", "expect")

Verdict = Literal["playing", "done", "try_over"]


@dataclass(frozen=True)
class LessonNote:
    """Where a lesson played as a match stands, on the outcome of each command
    (``service.matches.Outcome.lesson``): ``started`` (just posted), ``playing``, ``done`` (the
    goal reached: ``next_id`` is the next lesson, if any) or ``try_over`` (the action ended
    without it: the hint, and try again). ``tries``: the member's tries of it, this one included."""

    lesson_id: str
    status: Literal["started", "playing", "done", "try_over"]
    next_id: str | None = None
    tries: int = 1


@dataclass(frozen=True)
class Lesson:
    """One lesson, read and checked from its file."""

    id: str
    track: str
    order: int
    texts: Mapping[str, Mapping[str, str]]
    #: The rulebook's page and section, and the section of docs/rules.md that explains it.
    rule: Mapping[str, Any]
    side: Side
    scenario: Mapping[str, Any]
    #: The stated dice, in the order the engine draws them (faces and D6 results).
    dice: tuple[Any, ...]
    expect: Mapping[str, Any]
    ends_on: tuple[str, ...]
    solution: tuple[str, ...]
    wrong: tuple[str, ...]

    def text(self, key: str, language: str = "en") -> str:
        """The lesson's ``key`` text (title, goal, hint, explain) in ``language``; English if it
        has none in that language."""
        words = self.texts[key]
        return words.get(language) or words["en"]

    def start_state(self) -> MatchState:
        """The lesson's position, as a fresh state; a team the lesson does not name is called
        after its team list ("Gnolls"), as a friendly match's is, rather than "West"."""
        teams = {side: {"name": team_list(str(t["list"])).name, **t} for side, t in self.scenario["teams"].items()}
        return build_state({**self.scenario, "teams": teams})

    @property
    def rule_reference(self) -> str:
        """``p. 7, Catching`` (the English rulebook's page and section)."""
        return f"p. {self.rule['page']}, {self.rule['section']}"


def stated_dice(lesson: Lesson, seed: str, offset: int = 0) -> StatedDice:
    """The lesson's dice: its stated results, then the seed's (``engine.StatedDice``)."""
    return StatedDice(lesson.dice, seed, offset)


def _texts(data: Mapping[str, Any], name: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for key in TEXT_KEYS:
        words = data.get(key)
        if not isinstance(words, Mapping) or not all(isinstance(words.get(lang), str) and words[lang].strip()
                                                      for lang in LANGUAGES):
            raise ValueError(f"{name}: {key!r} needs an English and a French text")
        out[key] = {lang: str(words[lang]).strip() for lang in words}
    return out


def _dice(values: Iterable[Any], name: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            if not 1 <= v <= 6:
                raise ValueError(f"{name}: a D6 result is 1-6, not {v}")
            out.append(v)
        elif isinstance(v, str):
            out.append(DieFace.parse(v))
        else:
            raise ValueError(f"{name}: a stated die is one face (\"O\", \"-\", \"X\", \"*\") or a D6 result, not {v!r}")
    return tuple(out)


def _lines(values: Any, name: str, key: str) -> tuple[str, ...]:
    if not isinstance(values, Sequence) or isinstance(values, str) or not all(isinstance(v, str) for v in values):
        raise ValueError(f"{name}: {key!r} is a list of commands")
    return tuple(values)


def load_lesson(path: Path) -> Lesson:
    """A lesson from its file ``NN-<id>.json``, checked (texts in both languages, a position the
    engine accepts, a goal with known keys); ``ValueError`` naming what is wrong."""
    m = re.fullmatch(r"([0-9]{2})-([a-z0-9-]+)\.json", path.name)
    if m is None:
        raise ValueError(f"{path.name}: a lesson file is named NN-<id>.json")
    data = read_json(path, "lesson")
    if not isinstance(data, Mapping):
        raise ValueError(f"{path.name}: a lesson is a JSON object")
    name = path.name
    if data.get("id") != m.group(2):
        raise ValueError(f"{name}: its id must be {m.group(2)!r}, as its file name says")
    if data.get("track") not in TRACKS:
        raise ValueError(f"{name}: track is one of {TRACKS}")
    scenario = data.get("scenario")
    if not isinstance(scenario, Mapping) or any(k in scenario for k in _NOT_POSITION):
        raise ValueError(f"{name}: 'scenario' holds the position only (no {', '.join(_NOT_POSITION)})")
    teams = scenario.get("teams")
    if not isinstance(teams, Mapping) or not all(isinstance(teams.get(s), Mapping) and teams[s].get("list")
                                                 for s in ("west", "east")):
        raise ValueError(f"{name}: each team of the position names its team list")
    expect = data.get("expect")
    if not isinstance(expect, Mapping) or not expect or any(k not in EXPECT_KEYS or k == "refused" for k in expect):
        raise ValueError(f"{name}: 'expect' is the goal, with the keys of a scenario's expect block")
    rule = data.get("rule")
    if not isinstance(rule, Mapping) or not {"page", "section", "rules_md"} <= set(rule):
        raise ValueError(f"{name}: 'rule' gives the page, section and rules_md")
    side = data.get("side", "west")
    if side not in ("west", "east"):
        raise ValueError(f"{name}: side is west or east")
    lesson = Lesson(
        id=m.group(2), track=str(data["track"]), order=int(m.group(1)), texts=_texts(data, name), rule=dict(rule),
        side=side, scenario=dict(scenario), dice=_dice(data.get("dice", ()), name), expect=dict(expect),
        ends_on=tuple(data.get("ends_on", DEFAULT_ENDS_ON)), solution=_lines(data.get("solution"), name, "solution"),
        wrong=_lines(data.get("wrong"), name, "wrong"))
    state = lesson.start_state()
    check_position(state, standard_field())
    if judge(lesson, state, []) != "playing":
        raise ValueError(f"{name}: the goal must not hold before the learner plays, nor the try be over")
    return lesson


@cache
def _book(directory: Path) -> tuple[Lesson, ...]:
    found = sorted(directory.glob("*.json")) if directory.is_dir() else []
    book = tuple(sorted((load_lesson(p) for p in found), key=lambda x: x.order))
    ids = [x.id for x in book]
    if len(set(ids)) != len(ids) or len({x.order for x in book}) != len(book):
        raise ValueError(f"{directory}: two lessons share an id or a number")
    return book


def lessons() -> list[Lesson]:
    """Every lesson, in order (the Basic track first)."""
    return sorted(_book(LESSON_DIR), key=lambda x: (TRACKS.index(x.track), x.order))


def lesson(lesson_id: str) -> Lesson:
    """The lesson ``lesson_id``; ``Refused("refuse.lesson_unknown")`` if there is none."""
    for x in _book(LESSON_DIR):
        if x.id == lesson_id:
            return x
    raise Refused("refuse.lesson_unknown", lesson=lesson_id)


def number(lesson_id: str) -> int:
    """The lesson's place in the book, from 1 (its file's NN only orders the files: the tracks
    leave gaps between them)."""
    return [x.id for x in lessons()].index(lesson(lesson_id).id) + 1


def next_lesson(lesson_id: str) -> Lesson | None:
    """The lesson after ``lesson_id`` in order, None after the last."""
    book = lessons()
    i = number(lesson_id)
    return book[i] if i < len(book) else None


# --- judging a try ----------------------------------------------------------------------------
def judge(lesson: Lesson, state: MatchState, events: Sequence[Event], view: MatchState | None = None) -> Verdict:
    """Where a try stands after a command: ``done`` when the goal holds (the state and the try's
    events, as a scenario's ``expect``), ``try_over`` when the action ended without it (an
    ``ends_on`` event, the decision gone to the other team's turn, or the match over), else
    ``playing``."""
    result = ScenarioResult(state)
    result.events, result.view = list(events), view
    if not check_expect({"expect": lesson.expect}, result, standard_field()):
        return "done"
    if state.phase is Phase.MATCH_OVER or any(e.kind in lesson.ends_on for e in events):
        return "try_over"
    p = pending(state)
    if p.side is not None and p.side != lesson.side and p.kind in ("turn", "action", "setup", "faceoff", "test_over"):
        return "try_over"
    return "playing"


@dataclass
class LessonRun:
    """A lesson played without a database: the console's ``elfball learn`` and the tests."""

    lesson: Lesson
    seed: str = "lesson"
    state: MatchState = field(init=False)
    events: list[Event] = field(default_factory=list)
    verdict: Verdict = "playing"

    def __post_init__(self) -> None:
        self.state = self.lesson.start_state()

    def play(self, line: str) -> list[Event]:
        """Apply one command in the console grammar for whoever must decide (the learner answers
        the other team's questions too); the new events. Engine refusals propagate."""
        if self.verdict != "playing":
            raise Refused("refuse.lesson_over")
        side = pending(self.state).side or self.lesson.side
        cmd = parse(line, self.state, side, standard_field())
        res = apply(self.state, cmd, stated_dice(self.lesson, self.seed, self.state.dice_drawn), by=side)
        self.state = res.state
        self.events.extend(res.events)
        self.verdict = judge(self.lesson, self.state, self.events, res.view)
        return list(res.events)

    def narrate(self, events: Sequence[Event], language: str = "en") -> list[str]:
        """What ``events`` tell, in ``language`` (as a match's post says it)."""
        return narrate_events(list(events), self.state, language=language)

    def play_all(self, lines: Iterable[str]) -> Verdict:
        """Play ``lines`` until the try is decided; the verdict."""
        for line in lines:
            if self.verdict != "playing":
                break
            self.play(line)
        return self.verdict

