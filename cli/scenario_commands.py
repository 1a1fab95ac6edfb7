"""``elfball scenario FILE.json``: play a position with stated dice and print the result as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from service.scenario import load_scenario, run_scenario


def _run(args: argparse.Namespace) -> int:
    result = run_scenario(load_scenario(args.file))
    out = result.to_dict()
    if args.brief:
        out = {k: out[k] for k in ("narration", "pending", "error")}
    print(json.dumps(out, indent=2 if args.pretty or args.brief else None))
    if result.error:  # also where a refusal is looked for, in one line
        print(f"elfball scenario: {result.error}", file=sys.stderr)
    return 2 if result.error else 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "scenario",
        help="play a scenario file (position, dice, commands) and print the result as JSON",
        description="Play a scenario: a position, the exact dice and a list of commands in the console "
        "grammar (docs/scenarios.md). Prints the resulting state, events, narration and the pending "
        "decision as JSON; exits 2 if a command was refused or dice were left over.",
    )
    p.add_argument("file", help="a scenario JSON file, e.g. scenarios/rulebook/play-by-play-1.json")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.add_argument("--brief", action="store_true", help="only the narration, the pending decision and any error")
    p.set_defaults(func=_run)
