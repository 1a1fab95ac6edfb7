"""``elfball bot``: run the Discord bot (needs DISCORD_TOKEN)."""

from __future__ import annotations

import argparse


def _run(args: argparse.Namespace) -> int:
    from bot.app import main

    return main()


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bot", help="run the Discord bot (DISCORD_TOKEN; ELFBALL_DEV_GUILD for instant sync in one server)",
                       description="Run the Discord bot. Needs DISCORD_TOKEN; ELFBALL_DEV_GUILD=<server id> syncs the "
                       "commands to that server instantly. Matches are stored in ELFBALL_DB (SQLite, default "
                       "./elfball.db) or DATABASE_URL (PostgreSQL).")
    p.set_defaults(func=_run)
