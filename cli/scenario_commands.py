"""``elfball scenario FILE.json``: play a position with stated dice and print the result as JSON;
``--check`` compares the result with the file's ``expect`` block instead (docs/scenarios.md)."""

from __future__ import annotations

import argparse
import json
import sys

from service.reference import standard_field
from service.scenario import load_scenario, run_scenario
from service.scenario_tools import check_expect


def _run(args: argparse.Namespace) -> int:
    data = load_scenario(args.file)
    result = run_scenario(data)
    if args.check:
        return _check(args.file, data, result)
    out = result.to_dict()
    if args.brief:
        out = {k: out[k] for k in ("narration", "pending", "legal", "error")}
    print(json.dumps(out, indent=2 if args.pretty or args.brief else None))
    if result.error:  # also where a refusal is looked for, in one line
        print(f"elfball scenario: {result.error}", file=sys.stderr)
    return 2 if result.error else 0


def _check(path: str, data: dict, result) -> int:
    """Print each difference from ``expect``; 0 only when every expectation holds."""
    if not data.get("expect"):
        print(f"{path}: no expect block to check")
        return 2
    differences = check_expect(data, result, standard_field())
    for d in differences:
        print(f"{path}: {d}")
    if differences:
        print(f"{path}: {len(differences)} difference(s)")
        return 1
    print(f"{path}: every expectation holds ({len(data['expect'])} keys)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "scenario",
        help="play a scenario file (position, dice, commands) and print the result as JSON, or --check it",
        description="Play a scenario: a position, the exact dice and a list of commands in the console "
        "grammar (docs/scenarios.md). Prints the resulting state, events, narration, the pending "
        "decision and the deciding coach's legal commands as JSON; exits 2 if a command was refused "
        "or dice were left over. With --check, compares the result with the file's expect block, "
        "prints each difference and exits 0 only when all hold (1 otherwise, 2 without an expect block).",
    )
    p.add_argument("file", help="a scenario JSON file, e.g. scenarios/rulebook/play-by-play-1.json")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument("--brief", action="store_true", help="only the narration, the pending decision, the legal commands and any error")
    p.add_argument("--check", action="store_true", help="compare with the file's expect block; exit 0 only when all hold")
    p.set_defaults(func=_run)
