"""``elfball fuzz`` (many random matches, checking invariants) and ``elfball replay-check``
(one random match replayed from its commands and dice record must end in the same state).
The matches are played by ``service.fuzzing``; this module reads the options and prints."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from service.fuzzing import MAX_COMMANDS, replay_check, run_fuzz

__all__ = ["register"]

_SHOWN = 5  # violations and failures listed in full


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
def _run_replay_check(args: argparse.Namespace) -> int:
    check = replay_check(args.seed, args.max_commands, advanced=args.advanced)
    if check.crash is not None:
        print(f"seed {args.seed}: the match crashed after {check.commands} commands: {check.crash}")
        return 1
    print(
        f"seed {args.seed}: {check.teams[0]} v {check.teams[1]}, {check.commands} commands, "
        f"{check.dice_results} dice results, winner {check.winner} {check.goals[0]}-{check.goals[1]}"
    )
    if check.replay_failure is not None:
        print(f"replay failed: {check.replay_failure}")
        return 1
    if check.difference is not None:
        print(f"replay differs: {check.difference}")
        return 1
    print("replay identical: the same commands and dice give the same final state")
    return 0
