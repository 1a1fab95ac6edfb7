"""Reading a JSON file someone handed us (a scenario, a saved state, a match record).

Everything that can go wrong before the content is even looked at becomes one
``MalformedInputError`` naming the file: it is missing or a folder, it is not UTF-8, it is not
JSON, it nests deeper than any of our files (Python's parser would hit its recursion limit),
it is bigger than any of our files, or a number in it is a NaN, an infinity or has thousands of
digits (``int()`` refuses those with a ``ValueError``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine import MalformedInputError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "read_json", "parse_json", "depth"]

#: A finished match's record is a few MB; nothing we read comes near this.
MAX_BYTES = 64 * 1024 * 1024
#: How deep objects and lists may nest (a match state nests about 6 deep).
MAX_DEPTH = 64


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def depth(value: Any) -> int:
    """How deep ``value``'s lists and objects nest, without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _lone_surrogate(value: Any) -> str | None:
    """The first text in ``value`` (a key or a value) that UTF-8 cannot encode: JSON lets a file
    write ``"\\udcff"``, which is no character and fails wherever the text is printed."""
    todo = [value]
    while todo:
        item = todo.pop()
        texts = [item] if isinstance(item, str) else list(item) if isinstance(item, dict) else []
        for text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:
                return text
        if isinstance(item, (list, dict)):
            todo.extend(item.values() if isinstance(item, dict) else item)
    return None


def parse_json(text: str, what: str) -> Any:
    """``text`` as JSON, or a ``MalformedInputError`` saying what is wrong with it."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise MalformedInputError(f"{what} is not JSON: {exc}") from None
    except RecursionError:
        raise MalformedInputError(f"{what} nests lists or objects too deeply") from None
    except ValueError as exc:  # a number of thousands of digits, NaN or Infinity
        reason = "a number of thousands of digits" if "digits" in str(exc) else str(exc)[:80]
        raise MalformedInputError(f"{what} holds a number out of range: {reason}") from None
    if depth(data) > MAX_DEPTH:
        raise MalformedInputError(f"{what} nests lists or objects more than {MAX_DEPTH} deep")
    bad = _lone_surrogate(data)
    if bad is not None:
        raise MalformedInputError(f"{what} holds text with a lone surrogate, which is no character: {ascii(bad)[:40]}")
    return data


def read_json(path: str | Path, what: str) -> Any:
    """The JSON in file ``path`` (``what`` names it in a refusal: "scenario", "state file")."""
    p = Path(path)
    try:
        if p.is_dir():
            raise MalformedInputError(f"{what} {path} is a folder, not a file")
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise MalformedInputError(f"{what} {path} is {size // 2**20} MB, more than any {what} ({MAX_BYTES // 2**20} MB)")
        raw = p.read_bytes()
    except OSError as exc:
        raise MalformedInputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise MalformedInputError(f"{what} {path} is not UTF-8 text (byte {exc.start})") from None
    return parse_json(text, f"{what} {path}")
