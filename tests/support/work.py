"""Work counted, not timed: how many Python function calls a call makes.

A test that must catch a blow-up (a decision that explores too much, a text read once per
ability) counts calls instead of reading a clock, so a busy machine cannot fail it and the
count is the same on every run. Work done inside C (a regular expression, ``sorted``) is not
counted; benchmarks/ measure the time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

Errors = type[BaseException] | tuple[type[BaseException], ...]


def counted(fn: Callable[..., Any], *args: Any) -> tuple[Any, int]:
    """``fn(*args)`` and the number of Python function calls it made (an exception it raises
    goes through)."""
    calls = 0

    def profile(_frame: object, event: str, _arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(previous)
    return result, calls


def calls_made(fn: Callable[..., Any], *args: Any, ignore: Errors = ()) -> int:
    """The Python function calls ``fn(*args)`` makes once warm (it runs once first, so that the
    caches a first call fills do not count); an exception of ``ignore`` ends it like a result."""

    def quietly() -> None:
        try:
            fn(*args)
        except ignore:
            pass

    quietly()
    return counted(quietly)[1]
