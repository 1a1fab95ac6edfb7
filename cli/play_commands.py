"""``elfball fuzz`` (many random matches, checking invariants) and ``elfball replay-check``
(one random match replayed from its commands and dice record must end in the same state)."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from engine import commands as C
from engine.dice import ReplayDice, SeededDice
from engine.fuzz import MAX_COMMANDS, play_random_match
from engine.match import TeamEntry, apply, new_match
from engine.rosters import default_roster
from engine.state import MatchState

__all__ = ["register", "FuzzSummary", "GuardedDice", "dice_limit", "run_fuzz", "replay", "entries_of", "first_difference"]

_SHOWN = 5  # violations and failures listed in full


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


def register(subparsers: Any) -> None:
    f = subparsers.add_parser(
        "fuzz",
        help="play random matches and check the engine's invariants",
        description="Play N random matches (random team lists, a random legal-command coach) with seeds "
        "S, S+1, ..., checking every invariant after every command. A match still running after "
        "--max-commands commands is conceded by the fuzzer. Exits 1 if any invariant broke or the "
        "engine raised; the seed repeats the match.",
    )
    f.add_argument("--matches", type=int, default=100, metavar="N", help="matches to play (default 100)")
    f.add_argument(
        "--advanced", action="store_true",
        help="Advanced Rules teams: learned abilities, team support, extra players, advanced injuries",
    )
    f.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first match (default 0)")
    f.add_argument(
        "--max-commands", type=int, default=MAX_COMMANDS, metavar="M",
        help=f"commands before the fuzzer concedes a match (default {MAX_COMMANDS})",
    )
    f.set_defaults(func=_run_fuzz)

    r = subparsers.add_parser(
        "replay-check",
        help="replay a random match from its commands and dice and compare",
        description="Play one random match, recording every command and every dice result, then replay it "
        "from scratch (new match, the same commands, the recorded dice) and check that the final "
        "state is identical. Exits 0 if it is, 1 if not.",
    )
    r.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the match (default 0)")
    r.add_argument(
        "--max-commands", type=int, default=MAX_COMMANDS, metavar="M",
        help=f"commands before the fuzzer concedes (default {MAX_COMMANDS})",
    )
    r.add_argument("--advanced", action="store_true", help="the match elfball fuzz --advanced plays with this seed")
    r.set_defaults(func=_run_replay_check)


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


def _traceback_summary(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)[-3:]
    where = " <- ".join(f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno} {f.name}" for f in reversed(frames))
    return f"{type(exc).__name__}: {exc} (at {where})"


def run_fuzz(matches: int, seed: int = 0, max_commands: int = MAX_COMMANDS, *, progress: Any = None,
             advanced: bool = False) -> FuzzSummary:
    """Play ``matches`` random matches with seeds ``seed`` .. ``seed + matches - 1``."""
    out = FuzzSummary()
    step = max(1, matches // 10)
    start = time.perf_counter()
    for i in range(matches):
        s = seed + i
        try:
            dice = GuardedDice(s, dice_limit(max_commands))
            state, report = play_random_match(s, dice=dice, max_commands=max_commands, advanced=advanced)
        except Exception as exc:  # noqa: BLE001 - the fuzzer reports every crash with its seed
            out.failures.append((s, _traceback_summary(exc)))
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


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def _run_fuzz(args: argparse.Namespace) -> int:
    if args.matches < 1:
        print("elfball fuzz: --matches must be at least 1", file=sys.stderr)
        return 2
    if args.max_commands < 1:
        print("elfball fuzz: --max-commands must be at least 1", file=sys.stderr)
        return 2
    s = run_fuzz(args.matches, args.seed, args.max_commands, progress=sys.stderr, advanced=args.advanced)
    secs = max(s.seconds, 1e-9)
    last = args.seed + args.matches - 1
    lines = [
        f"matches:    {s.matches} (seeds {args.seed}-{last})",
        f"commands:   {s.commands}",
        f"violations: {len(s.violations)}",
    ]
    lines += [f"  seed {seed}: {text}" for seed, text in s.violations[:_SHOWN]]
    if len(s.violations) > _SHOWN:
        lines.append(f"  ... and {len(s.violations) - _SHOWN} more")
    lines.append(f"crashes:    {len(s.failures)}")
    lines += [f"  seed {seed}: {text}" for seed, text in s.failures[:_SHOWN]]
    if len(s.failures) > _SHOWN:
        lines.append(f"  ... and {len(s.failures) - _SHOWN} more")
    lines.append(f"ended by goals: {s.by_goal} ({_pct(s.by_goal, s.matches)})")
    lines.append(f"ended by the fuzzer's concession cap ({args.max_commands} commands): {s.by_cap} ({_pct(s.by_cap, s.matches)})")
    for reason, n in sorted(s.other.items()):
        lines.append(f"ended otherwise ({reason}): {n}")
    lines.append(f"speed: {s.matches / secs:.2f} matches/s, {s.commands / secs:.0f} commands/s ({s.seconds:.1f}s)")
    if s.failures:
        seed = s.failures[0][0]
        flag = " --advanced" if args.advanced else ""
        lines.append(f"repeat a crash: elfball replay-check --seed {seed} --max-commands {args.max_commands}{flag}")
    print("\n".join(lines))
    return 0 if s.ok else 1


# --- replay-check ----------------------------------------------------------------------------
def entries_of(state: MatchState) -> tuple[TeamEntry, TeamEntry]:
    """The team entries a match was created with, read back from its state (default rosters)."""
    w, e = state.teams["west"], state.teams["east"]
    return TeamEntry(w.name, default_roster(w.list_id)), TeamEntry(e.name, default_roster(e.list_id))


def replay(state: MatchState, record: list[tuple[str, C.Command]], dice: Any,
           entries: tuple[TeamEntry, TeamEntry] | None = None) -> MatchState:
    """Create the match ``state`` came from again (from ``entries``, by default its default
    rosters) and apply the recorded commands with ``dice``."""
    west, east = entries or entries_of(state)
    st = new_match(west, east, dice, options=state.options).state
    for side, command in record:
        st = apply(st, command, dice, by=side).state  # type: ignore[arg-type]
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


def _run_replay_check(args: argparse.Namespace) -> int:
    record: list[tuple[str, C.Command]] = []
    dice = GuardedDice(args.seed, dice_limit(args.max_commands))
    try:
        original, report = play_random_match(args.seed, dice=dice, max_commands=args.max_commands, record=record,
                                             advanced=args.advanced)
    except Exception as exc:  # noqa: BLE001
        print(f"seed {args.seed}: the match crashed after {len(record)} commands: {_traceback_summary(exc)}")
        return 1
    results = dice.record_json()
    print(
        f"seed {args.seed}: {report.teams[0]} v {report.teams[1]}, {report.commands} commands, "
        f"{len(results)} dice results, winner {report.winner} {report.goals[0]}-{report.goals[1]}"
    )
    source = ReplayDice(results)
    try:
        replayed = replay(original, record, source, entries=report.entries)
    except Exception as exc:  # noqa: BLE001
        print(f"replay failed: {_traceback_summary(exc)}")
        return 1
    diff = first_difference(original.to_dict(), replayed.to_dict())
    if diff is None and not source.exhausted:
        diff = "the replay left recorded dice results unused"
    if diff is not None:
        print(f"replay differs: {diff}")
        return 1
    print("replay identical: the same commands and dice give the same final state")
    return 0
