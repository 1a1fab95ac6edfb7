"""``elfball bot``: run the Discord bot (needs DISCORD_TOKEN); ``elfball sync-commands``: push the
command tree to Discord now (operators: the bot itself syncs only when the tree changed)."""

from __future__ import annotations

import argparse


def _run(args: argparse.Namespace) -> int:
    from bot.app import main

    return main()


def _sync(args: argparse.Namespace) -> int:
    from bot.app import sync_commands

    return sync_commands(args.guild)


def _snowflake(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 2**63:
        raise argparse.ArgumentTypeError(f"{text!r} is not a Discord server id (digits, e.g. 123456789012345678)")
    return int(text)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bot", help="run the Discord bot (DISCORD_TOKEN; ELFBALL_DEV_GUILD for instant sync in one server)",
                       description="Run the Discord bot. Needs DISCORD_TOKEN; ELFBALL_DEV_GUILD=<server id> syncs the "
                       "commands to that server instantly. Matches are stored in ELFBALL_DB (SQLite, default "
                       "./elfball.db) or DATABASE_URL (PostgreSQL). Commands are synced when the tree changed, by one "
                       "process of several.")
    p.set_defaults(func=_run)
    s = sub.add_parser("sync-commands", help="push the slash commands to Discord now (globally, or to one server)",
                       description="Log in with DISCORD_TOKEN over HTTP only, sync the command tree whatever the stored "
                       "digest says, and leave. --guild ID syncs to one server (instant); globally Discord may take "
                       "up to an hour to show changes.")
    s.add_argument("--guild", type=_snowflake, default=None, help="a server id: sync there only")
    s.set_defaults(func=_sync)
