"""``elfball key new``: print a fresh dice key to give as ``ELFBALL_SECRET``; ``elfball key check``:
check the dice key the bot would use with this environment's database, as it does at start.

Exit code 0: a key printed, or the key is usable; 2: refused (a weak ``ELFBALL_SECRET``, an
empty or damaged key file, PostgreSQL without ``ELFBALL_SECRET``), with what to do.
"""

from __future__ import annotations

import argparse
import sys

from cli.language import add_language_argument, chosen_language
from service.console import console_text
from service.dicekey import SECRET_ENV, check_key, new_secret


def _new(args: argparse.Namespace) -> int:
    print(new_secret())
    print(console_text(chosen_language(args)).t("key.new_hint", env=SECRET_ENV), file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> int:
    tx = console_text(chosen_language(args))
    where = check_key()  # a refusal is a StoreError: one line and exit code 2 (cli.main)
    if where == SECRET_ENV:
        print(tx.t("key.check_env", env=SECRET_ENV))
    elif where == "memory":
        print(tx.t("key.check_memory"))
    else:
        print(tx.t("key.check_file", path=where))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("key", help="the dice key: make a new one (key new), or check the bot's (key check)",
                       description="The key that seals the dice of live matches (see docs/operating.md, The dice "
                                   "key). 'key new' prints a fresh 256-bit key for ELFBALL_SECRET; 'key check' checks "
                                   "the key the bot would use with this environment's database, as it does at start.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="print a fresh key (64 hex digits) for ELFBALL_SECRET")
    add_language_argument(new)
    new.set_defaults(func=_new)
    check = actions.add_parser("check", help="check the dice key of this environment's database, as the bot does at start")
    add_language_argument(check)
    check.set_defaults(func=_check)
