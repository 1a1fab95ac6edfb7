"""Random matches that check the engine: ``elfball fuzz`` (many matches, every invariant after
every command) and ``elfball replay-check`` (one match replayed from its commands and dice
record must end in the same state).

The results come back as values (``FuzzSummary``, ``ReplayCheck``); the console prints them.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import IO, Any

from engine import (
    MAX_COMMANDS,
    Command,
    MatchState,
    ReplayDice,
    SeededDice,
    Side,
    TeamEntry,
    apply,
    default_roster,
    new_match,
    play_random_match,
)

__all__ = [
    "MAX_COMMANDS",
    "FuzzSummary",
    "GuardedDice",
    "ReplayCheck",
    "dice_limit",
    "entries_of",
    "first_difference",
    "replay",
    "replay_check",
    "run_fuzz",
    "traceback_summary",
]

class GuardedDice(SeededDice):
    """``SeededDice`` that raise once a match has drawn ``limit`` results.

    Fair matches draw about one result per command; an engine stuck re-rolling forever would
    otherwise eat memory (every result is recorded) until the machine kills it.
    """

    def __init__(self, seed: int, limit: int) -> None:
        super().__init__(seed)
        self.limit = limit
        self.drawn = 0

    def _count(self) -> None:
        self.drawn += 1
        if self.drawn > self.limit:
            raise RuntimeError(f"runaway dice: more than {self.limit} results drawn in one match")

    def _next_face(self) -> Any:
        self._count()
        return super()._next_face()

    def _next_d6(self) -> int:
        self._count()
        return super()._next_d6()


def dice_limit(max_commands: int) -> int:
    return 1000 + 200 * max_commands


def traceback_summary(exc: BaseException) -> str:
    """An exception in one line, with the last three frames it came through."""
    frames = traceback.extract_tb(exc.__traceback__)[-3:]
    where = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}" for f in reversed(frames))
    return f"{type(exc).__name__}: {exc} (at {where})"


# --- fuzz ---------------------------------------------------------------------------------
@dataclass
class FuzzSummary:
    matches: int = 0
    commands: int = 0
    by_goal: int = 0
    by_cap: int = 0  # conceded by the fuzzer after max_commands
    other: dict[str, int] = field(default_factory=dict)  # other ends, by reason
    violations: list[tuple[int, str]] = field(default_factory=list)  # (seed, text)
    failures: list[tuple[int, str]] = field(default_factory=list)  # (seed, traceback summary)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.violations and not self.failures


def run_fuzz(matches: int, seed: int = 0, max_commands: int = MAX_COMMANDS, *, progress: IO[str] | None = None,
             advanced: bool = False) -> FuzzSummary:
    """Play ``matches`` random matches with seeds ``seed`` .. ``seed + matches - 1``; a line of
    progress goes to ``progress`` (a text stream) every tenth of the run."""
    out = FuzzSummary()
    step = max(1, matches // 10)
    start = time.perf_counter()
    for i in range(matches):
        s = seed + i
        try:
            dice = GuardedDice(s, dice_limit(max_commands))
            state, report = play_random_match(s, dice=dice, max_commands=max_commands, advanced=advanced)
        except Exception as exc:  # noqa: BLE001 - the fuzzer reports every crash with its seed
            out.failures.append((s, traceback_summary(exc)))
        else:
            out.commands += report.commands
            out.violations.extend((s, v) for v in report.violations)
            if report.conceded_by_fuzzer:
                out.by_cap += 1
            elif state.end_reason == "goal":
                out.by_goal += 1
            else:
                reason = state.end_reason or "unknown"
                out.other[reason] = out.other.get(reason, 0) + 1
        out.matches += 1
        if progress is not None and ((i + 1) % step == 0 or i + 1 == matches):
            elapsed = time.perf_counter() - start
            print(
                f"fuzz: {i + 1}/{matches} matches, {out.commands} commands, "
                f"{len(out.violations)} violations, {len(out.failures)} crashes, {elapsed:.1f}s",
                file=progress,
            )
    out.seconds = time.perf_counter() - start
    return out


# --- replay-check ----------------------------------------------------------------------------
def entries_of(state: MatchState) -> tuple[TeamEntry, TeamEntry]:
    """The team entries a match was created with, read back from its state (default rosters)."""
    w, e = state.teams["west"], state.teams["east"]
    return TeamEntry(w.name, default_roster(w.list_id)), TeamEntry(e.name, default_roster(e.list_id))


def replay(state: MatchState, record: list[tuple[Side, Command]], dice: Any,
           entries: tuple[TeamEntry, TeamEntry] | None = None) -> MatchState:
    """Create the match ``state`` came from again (from ``entries``, by default its default
    rosters) and apply the recorded commands with ``dice``."""
    west, east = entries or entries_of(state)
    st = new_match(west, east, dice, options=state.options).state
    for side, command in record:
        st = apply(st, command, dice, by=side).state
    return st


def first_difference(a: Any, b: Any, path: str = "state") -> str | None:
    """Where two JSON-like values first differ, e.g. ``state.players[3].hex: [1, 2] != [1, 3]``."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'the replay' if k in b else 'the original'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


@dataclass
class ReplayCheck:
    """What ``replay_check`` found: the match played (its teams, ``commands``, winner and goals,
    the dice results it drew), then exactly one of ``crash`` (the match itself failed after
    ``commands`` commands), ``replay_failure`` (its replay raised) and ``difference`` (the first
    one between the two final states) when the check fails; none when it holds."""

    seed: int
    commands: int = 0
    teams: tuple[str, str] = ("", "")
    winner: str | None = None
    goals: tuple[int, int] = (0, 0)
    dice_results: int = 0
    crash: str | None = None
    replay_failure: str | None = None
    difference: str | None = None

    @property
    def ok(self) -> bool:
        return self.crash is None and self.replay_failure is None and self.difference is None


def replay_check(seed: int, max_commands: int = MAX_COMMANDS, *, advanced: bool = False) -> ReplayCheck:
    """Play fuzz match ``seed`` recording every command and dice result, then replay it from
    scratch with the recorded dice and compare the final states."""
    record: list[tuple[Side, Command]] = []
    dice = GuardedDice(seed, dice_limit(max_commands))
    try:
        original, report = play_random_match(seed, dice=dice, max_commands=max_commands, record=record,
                                             advanced=advanced)
    except Exception as exc:  # noqa: BLE001 - reported with its seed, to repeat it
        return ReplayCheck(seed, commands=len(record), crash=traceback_summary(exc))
    results = dice.record_json()
    check = ReplayCheck(seed, commands=report.commands, teams=report.teams, winner=report.winner, goals=report.goals,
                        dice_results=len(results))
    source = ReplayDice(results)
    try:
        replayed = replay(original, record, source, entries=report.entries)
    except Exception as exc:  # noqa: BLE001 - a replay that raises is a failed check, not a crash of ours
        check.replay_failure = traceback_summary(exc)
        return check
    check.difference = first_difference(original.to_dict(), replayed.to_dict())
    if check.difference is None and not source.exhausted:
        check.difference = "the replay left recorded dice results unused"
    return check
