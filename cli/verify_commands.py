"""``elfball verify``: check a finished match's dice against its revealed seed.

From the database (``--match ID``; ``ELFBALL_DB`` or ``DATABASE_URL`` as the bot uses) or from
an exported record (``--file``); ``--export FILE`` writes the record as JSON, for a
commissioner to check on his own machine. Exit code 0: verified; 1: the record does not hold
(the first difference is printed); 2: no such match, an active match, or an unreadable file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.language import add_language_argument, chosen_language
from service.console import StoreError, console_text
from service.exports import match_record
from service.jsonfile import read_json
from service.verify import record_from_json, verify

#: Match ids are the database's INTEGER (PostgreSQL's is 32 bits).
MAX_ID = 2**31 - 1


def match_id(text: str) -> int:
    """``--match``: a match number the database can hold, refused by argparse otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or not 1 <= int(text) <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a match number (1 to {MAX_ID})")
    return int(text)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.file:
            record = record_from_json(read_json(args.file, "record"))
        else:
            record = match_record(args.match)  # read-only: checking never writes
    except (StoreError, ValueError) as exc:  # ValueError: not JSON, not a record
        print(f"elfball verify: {exc}", file=sys.stderr)
        return 2
    if args.export:
        export = Path(args.export)
        if export.is_dir() or not export.parent.is_dir():
            print(f"elfball verify: cannot write {args.export}: not a file in an existing folder", file=sys.stderr)
            return 2
    language = chosen_language(args)
    tx = console_text(language)
    if args.export:
        Path(args.export).write_text(json.dumps(record.to_json(), indent=1), encoding="utf-8")
        print(tx.t("verify.exported", match=record.match_id, path=args.export))
    info = record.info
    if info.get("west"):
        status = str(info.get("status", "?"))
        print(tx.t("verify.match", match=record.match_id, west=info["west"], east=info["east"],
                   status=tx.get(f"verify.status.{status}", status)))
    print(tx.t("verify.seed", seed=record.seed))
    print(tx.t("verify.commitment_line", commitment=record.commitment))
    verdict = verify(record)
    print(verdict.summary(language))
    return 0 if verdict.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="check a finished match's every roll against its revealed dice seed",
        description="Replays a finished match from its log with the dice its revealed seed gives, and confirms "
                    "the seed's secret matches the commitment published before the coaches added their entropy, every "
                    "recorded roll (post-match potions included) and the final "
                    "state. The match comes from the database (ELFBALL_DB or DATABASE_URL) or an exported file.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--match", type=match_id, metavar="ID", help="a finished or abandoned match in the database")
    src.add_argument("--file", metavar="RECORD.json", help="a record exported with --export or by /match verify")
    p.add_argument("--export", metavar="OUT.json", help="also write the match's record to this file")
    add_language_argument(p)
    p.set_defaults(func=_run)
