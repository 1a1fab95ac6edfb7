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
from engine.i18n import Catalogue
from service.verify import MatchRecord, load_record, record_from_json, verify


def _from_database(match_id: int) -> MatchRecord:
    from db import migrate
    from db.engine import session_scope

    migrate.upgrade()
    with session_scope() as s:
        return load_record(session=s, match_id=match_id)


def _run(args: argparse.Namespace) -> int:
    from db.errors import StoreError

    try:
        if args.file:
            record = record_from_json(json.loads(Path(args.file).read_text()))
        else:
            record = _from_database(args.match)
    except (StoreError, OSError, ValueError) as exc:  # ValueError: not JSON, not a record
        print(f"elfball verify: {exc}", file=sys.stderr)
        return 2
    language = chosen_language(args)
    tx = Catalogue("service", "text", language)
    if args.export:
        Path(args.export).write_text(json.dumps(record.to_json(), indent=1))
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


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "verify",
        help="check a finished match's every roll against its revealed dice seed",
        description="Replays a finished match from its log with the dice its revealed seed gives, and confirms "
                    "the seed matches the commitment published at the start, every recorded roll and the final "
                    "state. The match comes from the database (ELFBALL_DB or DATABASE_URL) or an exported file.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--match", type=int, metavar="ID", help="a finished or abandoned match in the database")
    src.add_argument("--file", metavar="RECORD.json", help="a record exported with --export or by /match verify")
    p.add_argument("--export", metavar="OUT.json", help="also write the match's record to this file")
    add_language_argument(p)
    p.set_defaults(func=_run)
