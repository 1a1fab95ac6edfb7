"""Entry point of the ``elfball`` console script.

Each sub-command lives in its own module that exposes ``register(subparsers)``; the module
sets ``func`` on its parser, which receives the parsed arguments and returns an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that contribute sub-commands, in the order ``elfball --help`` lists them.
COMMAND_MODULES = (
    "cli.intro_command",
    "cli.local_commands",
    "cli.bot_commands",
    "cli.field_commands",
    "cli.dice_commands",
    "cli.team_commands",
    "cli.play_commands",
    "cli.ai_commands",
    "cli.scenario_commands",
    "cli.render_commands",
    "cli.verify_commands",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="elfball",
        description="Elfball 2nd edition: rules engine, dice odds and team lists.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    from engine.errors import ElfballError

    try:
        return int(args.func(args) or 0)
    except ElfballError as exc:
        print(f"elfball {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
