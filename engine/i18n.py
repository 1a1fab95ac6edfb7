"""Languages and message catalogues: one JSON file of templates per language.

A catalogue is a flat ``{key: template}`` mapping kept in a data file beside the code that uses
it (``engine/data/text/<lang>.json`` for the narration, ``service/text``, ``bot/locales``). Every
language has every key, with the same ``{placeholders}`` (tests/engine/test_i18n.py checks both), and
a lookup in another language falls back to English, so a gap shows English, never an error.

Languages are short codes (``en``, ``fr``); ``language_of`` maps Discord's locales (``fr``,
``en-US``, ``en-GB``) and user preferences onto them. Pure: reading package data is all it does.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "DEFAULT", "language_of", "load", "placeholders", "Catalogue", "phrase"]

#: The languages every catalogue has, English first (the fallback).
LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT = "en"


def language_of(locale: Any) -> str:
    """``fr`` for any French locale (``fr``, ``fr-CA``, ``Locale.french``), else English."""
    code = str(getattr(locale, "value", locale) or "").lower()
    base = code.split("-")[0].split("_")[0]
    return base if base in LANGUAGES else DEFAULT


@cache
def load(package: str, folder: str, language: str) -> dict[str, str]:
    """``<package>/<folder>/<language>.json`` as a dict (cached; callers must not mutate it)."""
    raw = resources.files(package).joinpath(f"{folder}/{language}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(raw)
    return data


def placeholders(template: str) -> set[str]:
    """The field names of a ``str.format`` template: ``"{player} uses {ability}"`` -> both."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


_NUMBER = re.compile(r"\d+")


def phrase(text: Mapping[str, str], value: str, *, missing: set[str] | None = None) -> str:
    """A free-text phrase the engine wrote in English (a cause, a reason, a modifier's label),
    in the catalogue's language: the key ``phrase.<value>``, else ``phrase.<value with each
    number as #>`` (``"2 team-mates facing"`` -> ``"phrase.# team-mates facing"``) with the
    numbers put back in order. Unknown phrases stay as written (and join ``missing``)."""
    if not value:
        return value
    exact = text.get(f"phrase.{value}")
    if exact is not None:
        return exact
    numbers = _NUMBER.findall(value)
    pattern = text.get(f"phrase.{_NUMBER.sub('#', value)}") if numbers else None
    if pattern is None:
        if missing is not None:
            missing.add(value)
        return value
    it = iter(numbers)
    return re.sub("#", lambda _: next(it, "#"), pattern)


class Catalogue:
    """One language's templates over the English ones: ``t(key, **values)``."""

    def __init__(self, package: str, folder: str, language: str = DEFAULT) -> None:
        self.language = language if language in LANGUAGES else DEFAULT
        self.text: dict[str, str] = dict(load(package, folder, DEFAULT))
        if self.language != DEFAULT:
            self.text.update(load(package, folder, self.language))

    def t(self, key: str, /, **values: Any) -> str:
        return self.text[key].format(**values)

    def get(self, key: str, default: str) -> str:
        return self.text.get(key, default)

    def __contains__(self, key: str) -> bool:
        return key in self.text
