"""Entry point of the ``elfball`` console script.

Each sub-command lives in its own module that exposes ``register(subparsers)``; the module
sets ``func`` on its parser, which receives the parsed arguments and returns an exit code.

A refusal (the rules', the store's, a file's or the database's) is one line on stderr and exit
code 2. Each command validates what it reads first; an exception that still gets through is a
bug, reported as an incident (one line, exit code 70; ``ELFBALL_DEBUG=1`` adds the traceback).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
import uuid
from collections.abc import Sequence

from service.console import ElfballError, StoreError

#: The exit code of a refusal, and of a bug (``EX_SOFTWARE`` of sysexits.h).
REFUSED = 2
INCIDENT = 70

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
    "cli.backup_commands",
    "cli.key_commands",
    "cli.league_commands",
    "cli.ladder_commands",
    "cli.learn_commands",
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
    try:
        return int(args.func(args) or 0)
    except (ElfballError, StoreError) as exc:
        print(f"elfball {args.command}: {exc}", file=sys.stderr)
        return REFUSED
    except Exception as exc:  # noqa: BLE001 - last resort: a bug, said in one line with an id to report
        incident = uuid.uuid4().hex[:8]
        print(f"elfball {args.command}: internal error {type(exc).__name__} (incident {incident}); "
              "please report it with the command you ran", file=sys.stderr)
        if os.environ.get("ELFBALL_DEBUG"):
            traceback.print_exc()
        return INCIDENT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
