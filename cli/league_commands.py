"""``elfball league export LEAGUE OUT_DIR``: the league's static website (docs/league.md).

Reads the database the bot uses (``ELFBALL_DB`` or ``DATABASE_URL``) read-only, and writes the
pages, pictures and match records into ``OUT_DIR`` (made if missing), ready for any static host.
The pages are in the league's language (its server's chosen one, else English) unless
``--language`` says otherwise. Exit code 2: no such league, a name several servers use, or a
folder that cannot be written.
"""

from __future__ import annotations

import argparse
import sys

from service.console import LANGUAGES
from service.exports import SiteError, export_league


def _export(args: argparse.Namespace) -> int:
    try:  # exporting never writes: a copy of the database will do
        site = export_league(args.league, args.out_dir, guild_id=args.guild, language=args.language,
                             season=args.season)
    except SiteError as exc:
        print(f"elfball league export: {exc}", file=sys.stderr)
        return 2
    league = site.league
    matches = sum(1 for p in site.files if p.startswith("matches/") and p.endswith(".html"))
    print(f"{league.name}: {len(site.pages)} pages ({matches} matches), {len(site.files)} files, "
          f"{site.size / 1e6:.1f} MB, in {site.language}, written to {args.out_dir}; open index.html")
    return 0


def _guild(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a server id")
    return int(text)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("league", help="a league from the database: export its website",
                       description="League commands that read the bot's database (ELFBALL_DB or DATABASE_URL).")
    verbs = p.add_subparsers(dest="league_command", metavar="VERB", required=True)
    e = verbs.add_parser(
        "export",
        help="write the league's static website (standings, teams, every match with its replay) into a folder",
        description="Writes the league's website into OUT_DIR: the standings with their tie-breaks, results, "
                    "fixtures and leaders; a page per team (roster, injuries, XP, match history, team sheet); a "
                    "page per played match (log, final board, a replay of every action, the dice seed and how "
                    "to check it). Static files only: publish the folder on any static host. The same database "
                    "gives the same files.",
    )
    e.add_argument("league", metavar="LEAGUE", help="the league's name or number")
    e.add_argument("out_dir", metavar="OUT_DIR", help="the folder to write (made if missing; files are overwritten)")
    e.add_argument("--guild", type=_guild, metavar="SERVER_ID",
                   help="the Discord server (guild) id, when several servers have a league of that name")
    e.add_argument("--language", choices=LANGUAGES, default=None,
                   help="the pages' language (default: the league's server language, else English)")
    e.add_argument("--season", type=int, metavar="N", default=None,
                   help="one season of the league (default: its current one; /league seasons lists them)")
    e.set_defaults(func=_export)
