"""``elfball verify``: check a finished match's dice against its revealed seed.

From the database (``--match ID``; ``ELFBALL_DB`` or ``DATABASE_URL`` as the bot uses) or from
an exported record (``--file``); ``--export FILE`` writes the record as JSON, for a
commissioner to check on his own machine. ``--commitment HEX`` (and ``--entropy TEXT``): what a
coach copied from the match's first post in Discord; only then does it say "Verified" (without
it, the record is only shown consistent with itself, which its writer could forge).

Exit code 0: verified (or, without ``--commitment``, consistent); 1: the record does not hold
(the first difference is printed); 2: no such match, an active match, an unreadable, malformed
or oversized file, or a commitment or entropy that is not one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cli.language import add_language_argument, chosen_language
from service.console import StoreError, console_text
from service.exports import match_record
from service.verify import posted_commitment, posted_entropy, quoted, read_record, verify

#: Match ids are the database's INTEGER (PostgreSQL's is 32 bits).
MAX_ID = 2**31 - 1


def match_id(text: str) -> int:
    """``--match``: a match number the database can hold, refused by argparse otherwise."""
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or not 1 <= int(text) <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a match number (1 to {MAX_ID})")
    return int(text)


def _run(args: argparse.Namespace) -> int:
    language = chosen_language(args)
    tx = console_text(language)
    posted = entropy = None
    if args.commitment is not None:
        posted = posted_commitment(args.commitment)
        if posted is None:
            print(f"elfball verify: {tx.t('verify.bad_commitment', given=quoted(args.commitment, 80))}", file=sys.stderr)
            return 2
    if args.entropy is not None:
        entropy = posted_entropy(args.entropy)
        if entropy is None:
            print(f"elfball verify: {tx.t('verify.bad_entropy', given=quoted(args.entropy, 80))}", file=sys.stderr)
            return 2
        if posted is None:
            print(f"elfball verify: {tx.t('verify.entropy_needs_commitment')}", file=sys.stderr)
            return 2
    try:
        if args.file:
            record = read_record(args.file)
        else:
            record = match_record(args.match)  # read-only: checking never writes
    except (StoreError, ValueError) as exc:  # ValueError: not JSON, not a record, too big
        print(f"elfball verify: {quoted(str(exc), 400)}", file=sys.stderr)
        return 2
    if args.export:
        export = Path(args.export)
        if export.is_dir() or not export.parent.is_dir():
            print(f"elfball verify: cannot write {args.export}: not a file in an existing folder", file=sys.stderr)
            return 2
    if args.export:
        Path(args.export).write_text(json.dumps(record.to_json(), indent=1), encoding="utf-8")
        print(tx.t("verify.exported", match=record.match_id, path=args.export))
    info = record.info
    if info.get("west"):
        status = str(info.get("status", "?"))
        print(tx.t("verify.match", match=record.match_id, west=quoted(str(info["west"]), 80),
                   east=quoted(str(info.get("east")), 80), status=quoted(tx.get(f"verify.status.{status}", status), 40)))
    print(tx.t("verify.seed", seed=record.seed))
    print(tx.t("verify.commitment_line", commitment=record.commitment))
    if posted is not None:
        print(tx.t("verify.posted_line", commitment=posted))
    if entropy is not None:
        print(tx.t("verify.posted_entropy_line", entropy=entropy))
    verdict = verify(record, posted=posted, posted_entropy=entropy)
    print(verdict.summary(language))
    if verdict.ok and posted is None:
        print(tx.t("verify.hint_cli"))
    return 0 if verdict.ok else 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "verify",
        help="check a finished match's every roll against its revealed dice seed",
        description="Replays a finished match from its log with the dice its revealed seed gives, and checks "
                    "every recorded roll (post-match potions included) and the final state. With --commitment (the "
                    "hex of the \"Dice commitment: sha256 ...\" line the bot posted in Discord before the coaches "
                    "added their entropy) it also checks that the seed's secret is the one committed there, and with "
                    "--entropy that the seed's entropy is the one posted; without them it only shows the record "
                    "consistent with itself. The match comes from the database (ELFBALL_DB or DATABASE_URL) or an "
                    "exported file.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--match", type=match_id, metavar="ID", help="a finished or abandoned match in the database")
    src.add_argument("--file", metavar="RECORD.json", help="a record exported with --export or by /match verify")
    p.add_argument("--commitment", metavar="HEX",
                   help="the commitment posted in Discord with the challenge (64 hex digits, or at least the first 16)")
    p.add_argument("--entropy", metavar="TEXT", help="the entropy posted in the match's first post (with --commitment)")
    p.add_argument("--export", metavar="OUT.json", help="also write the match's record to this file")
    add_language_argument(p)
    p.set_defaults(func=_run)
