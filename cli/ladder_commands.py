"""``elfball ladder SERVER_ID [--coach USER_ID]``: a server's coach ratings (``/ladder`` in Discord).

Reads the database the bot uses (``ELFBALL_DB`` or ``DATABASE_URL``) read-only and prints the
server's table, best first, or one coach's rated matches, newest first. Coaches are Discord user
ids here: the console knows no display names. How ratings work: docs/league.md, "Coach ratings".
"""

from __future__ import annotations

import argparse

from service.ladder import console_lines, read_only_ladder

from .language import add_language_argument, chosen_language


def _snowflake(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a Discord id")
    return int(text)


def _ladder(args: argparse.Namespace) -> int:
    table, history = read_only_ladder(args.server, args.coach)
    print("\n".join(console_lines(table, history, chosen_language(args))))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ladder", help="a server's coach ratings from the database (as /ladder shows them)",
                       description="Prints a server's coach ratings (OpenSkill), best first, or one coach's rated "
                                   "matches with --coach. Reads the bot's database (ELFBALL_DB or DATABASE_URL) "
                                   "read-only.")
    p.add_argument("server", type=_snowflake, metavar="SERVER_ID", help="the Discord server (guild) id")
    p.add_argument("--coach", type=_snowflake, metavar="USER_ID", default=None,
                   help="one coach's rated matches (his Discord user id)")
    add_language_argument(p)
    p.set_defaults(func=_ladder)
