"""Argument types shared by the sub-commands: numbers refused by argparse when out of range,
before anything reads them (a table id must fit the database, a picture width the memory)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["int_in", "TABLE_IDS", "WIDTHS"]

#: Discord ids and the console's tables are stored as 64-bit integers.
TABLE_IDS = (0, 2**63 - 1)
#: Board pictures from a thumbnail to a poster.
WIDTHS = (100, 4000)


def int_in(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number (ASCII digits) from ``low`` to ``high``."""

    def parse(text: str) -> int:
        digits = text[1:] if text[:1] == "-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 20 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a whole number from {low} to {high}")
        return int(text)

    parse.__name__ = "number"
    return parse
