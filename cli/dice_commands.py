"""``elfball odds`` (exact challenge odds) and ``elfball roll`` (a seeded challenge roll)."""

from __future__ import annotations

import argparse
import json
import secrets
from typing import Any

from service.console import MalformedInputError
from service.reference import MAX_DICE, MAX_MOMENTUM, MOMENTUM_CAP, odds, roll_challenge

_DIE_MODES = "--star2: the optional rule where a star counts 2 successes and is not rolled again"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "odds",
        help="exact odds of a challenge",
        description="Exact probabilities of a challenge: success, flop, failure and extra successes. "
        "With --momentum K the roller spends up to K counters replacing X dice, then blanks, "
        "while the roll is neither a success nor flopped.",
    )
    p.add_argument("dice", type=int, metavar="DICE", help=f"dice rolled (0-{MAX_DICE})")
    p.add_argument("need", type=int, metavar="NEED", help="successes needed (below 1 counts as 1)")
    p.add_argument("--star2", action="store_true", help=_DIE_MODES)
    p.add_argument("--momentum", type=int, default=0, metavar="K", help=f"Momentum counters (0-{MAX_MOMENTUM})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_odds)

    r = subparsers.add_parser(
        "roll",
        help="roll a challenge with seeded dice",
        description="Roll a challenge, resolving stars, and print the dice and the outcome. "
        "The seed is printed so the roll can be repeated.",
    )
    r.add_argument("dice", type=int, metavar="DICE", help=f"dice rolled (0-{MAX_DICE})")
    r.add_argument("need", type=int, metavar="NEED", help="successes needed (below 1 counts as 1)")
    r.add_argument("--seed", type=int, default=None, metavar="N", help="seed for the dice (random if omitted)")
    r.add_argument("--star2", action="store_true", help=_DIE_MODES)
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.set_defaults(func=_run_roll)


def _clamp_note(need: int) -> str | None:
    if need >= 1:
        return None
    return f"note: need {need} counts as 1 (a challenge always needs at least 1 success)"


def _pct(p: float) -> str:
    return f"{100 * p:6.2f}%"


def _run_odds(args: argparse.Namespace) -> int:
    result = odds(args.dice, args.need, star2=args.star2, momentum=args.momentum)
    if args.json:
        data = result.to_dict()
        data["need_requested"] = args.need
        print(json.dumps(data))
        return 0
    mode = "star = 2 successes" if args.star2 else "stars roll again"
    spend = f"up to {args.momentum} Momentum" if args.momentum else "no Momentum"
    lines = [f"{result.dice} dice, need {result.need} ({mode}, {spend})"]
    note = _clamp_note(args.need)
    if note:
        lines.append(note)
    lines += [
        f"  success {_pct(result.success)}",
        f"  failure {_pct(result.fail)}",
        f"  flop    {_pct(result.flop)}",
    ]
    labels = [f"{i}" for i in range(MOMENTUM_CAP)] + [f"{MOMENTUM_CAP}+"]
    lines.append("  extra successes: " + "  ".join(f"{lab}: {_pct(p).strip()}" for lab, p in zip(labels, result.extra)))
    if args.momentum:
        lines.append(f"  counters spent on average: {result.counters_spent:.2f}")
    print("\n".join(lines))
    return 0


def _run_roll(args: argparse.Namespace) -> int:
    if not 0 <= args.dice <= MAX_DICE:
        raise MalformedInputError(f"a challenge here rolls 0 to {MAX_DICE} dice, got {args.dice}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    rolled = roll_challenge(args.dice, args.need, seed, star2=args.star2)
    roll = rolled.roll
    if args.json:
        print(json.dumps({
            "seed": seed,
            "dice": args.dice,
            "need": roll.need.value,
            "star2": args.star2,
            "faces": rolled.faces,
            "successes": roll.successes,
            "flops": roll.flops,
            "net": roll.net,
            "band": roll.band.value,
            "extra": roll.extra,
            "outcome": rolled.outcome,
            "roll": roll.to_dict(),
            "record": rolled.record,
        }))
        return 0
    lines = [f"seed {seed} (repeat with --seed {seed})"]
    note = _clamp_note(args.need)
    if note:
        lines.append(note)
    lines += [
        f"{args.dice} dice, need {roll.need.value}: {rolled.faces}",
        f"successes {roll.successes}, flops {roll.flops}, net {roll.net}",
        f"outcome: {rolled.outcome}",
    ]
    print("\n".join(lines))
    return 0
