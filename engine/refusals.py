"""Refusals as a key and values, said in each language from a catalogue keyed the same way.

A refusal is data, not English: ``Refusal("target.not_adjacent", rule="tackle", player="Gnome #3")``
(an engine error carries one: ``IllegalCommandError.of("target.not_adjacent", rule=..., player=...)``).
Every language says it from its own catalogue, ``engine/data/text/refusals.<lang>.json`` (English
included), a flat JSON object like the narration's (``en.json``), so one tool reads them all:

- ``<area>.<refusal>``: the sentence, a ``str.format`` template over the refusal's values
  (``"target.not_adjacent": "{player} is not in an adjacent hex"``);
- ``rule.<id>``: the rulebook section a refusal cites, page included (``"Tackle challenge (p. 7)"``),
  shown after the sentence in brackets;
- ``<kind>.<id>`` for the words a value names (``side.west``, ``condition.dazed``).

A floor above keeps its own refusals beside its code in the same format and gives its
``Refusal`` that ``catalogue`` (the store's ``db/text/refusals.<lang>.json``, the parser's usages
in ``service/text``); this formatter says them all.

Why JSON keyed by refusal id rather than gettext catalogues through Babel: the project's other
catalogues (the narration, ``service/text``, ``bot/locales``) are already flat JSON keyed by id
with ``{name}`` placeholders, checked by the same tests (every key in every language, the same
placeholders); a second toolchain (``.po``/``.mo``, extraction, compilation) would buy plural
forms we do not use and keys made of English text, which is the very thing that broke here.

A value is said as written (a player's name, a hex, a number), or, when it needs words of its
own, typed: a ``Term`` (a side, an ability, a narration phrase, a word of the catalogue) or a
nested ``Refusal`` (or an error carrying one); a ``Joined`` lists several. English is one
language among others: ``str`` of an engine error is ``format_refusal(refusal, "en")``, and French
never passes through the English sentence, so rewording the English cannot break it.
Pure: reading package data is all it does.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from .i18n import DEFAULT, LANGUAGES, load, phrase

__all__ = ["Catalogue", "Refusal", "Term", "Joined", "format_refusal", "cite", "refusal_catalogue", "side_term", "ability_term", "phrase_term"]


@dataclass(frozen=True)
class Term:
    """A word each language names itself: ``kind`` ``side`` (``west``), ``ability`` (its id, named
    from ``data/abilities.json``), ``phrase`` (a narration phrase, from the narration catalogue),
    or any other kind the refusal catalogue lists as ``<kind>.<id>`` (``status.played``)."""

    kind: str
    id: str


@dataclass(frozen=True)
class Joined:
    """Several values said one after the other, ``sep`` between them (``"- "`` lines, a list)."""

    items: tuple[Any, ...]
    sep: str = ", "
    prefix: str = ""


#: A catalogue: language -> its flat ``{key: template}`` (a language it lacks reads English).
Catalogue = Callable[[str], Mapping[str, str]]


@dataclass(frozen=True, init=False)
class Refusal:
    """Why something is refused: a catalogue ``key``, the ``values`` its sentence names, and the
    rulebook section it cites (``rule``, a ``rule.<id>`` of the engine's catalogue), if any.
    ``catalogue`` is where its sentence and words are kept: the engine's by default; a floor
    above keeps its own beside its code (the store's ``db/text``) in the same format."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None
    catalogue: Catalogue | None = None

    def __init__(self, key: str, /, *, rule: str | None = None, catalogue: Catalogue | None = None,
                 **values: Any) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "catalogue", catalogue)

    def cited(self, rule: str) -> Refusal:
        """The same refusal citing ``rule`` (a helper's reason, cited by the rule that raised it)."""
        return Refusal(self.key, rule=rule, catalogue=self.catalogue, **self.values)

    def __str__(self) -> str:
        return format_refusal(self, DEFAULT)


def side_term(side: str) -> Term:
    return Term("side", str(side))


def ability_term(ability_id: str) -> Term:
    return Term("ability", ability_id)


def phrase_term(text: str) -> Term:
    return Term("phrase", text)


@cache
def refusal_catalogue(language: str) -> Mapping[str, str]:
    """``engine/data/text/refusals.<language>.json``; a language we do not have reads English."""
    return load("engine", "data/text", f"refusals.{language if language in LANGUAGES else DEFAULT}")


@cache
def _ability_names(language: str) -> Mapping[str, str]:
    raw = json.loads(resources.files("engine").joinpath("data/abilities.json").read_text(encoding="utf-8"))
    names = {}
    for a in raw["abilities"]:
        names[a["id"]] = a.get("translations", {}).get(language, {}).get("name", a["name"])
    return names


def _template(key: str, language: str, catalogue: Catalogue | None = None) -> str:
    # Looked up at each call (not bound once) so that a test may stand in for the catalogue.
    of = catalogue or refusal_catalogue
    found = of(language).get(key)
    # A key no catalogue has is said as written (the tests fail on it; a coach still reads it).
    return of(DEFAULT).get(key, key) if found is None else found


def _value(value: Any, language: str, catalogue: Catalogue | None) -> Any:
    if isinstance(value, Refusal):
        return format_refusal(value, language)
    if isinstance(getattr(value, "refusal", None), Refusal):  # an error that carries its refusal
        return format_refusal(value.refusal, language)
    if isinstance(value, Joined):
        return value.prefix + value.sep.join(str(_value(v, language, catalogue)) for v in value.items)
    if isinstance(value, Term):
        if value.kind == "ability":
            return _ability_names(language).get(value.id, value.id)
        if value.kind == "phrase":
            return phrase(load("engine", "data/text", language), value.id)
        of = catalogue or refusal_catalogue
        word = f"{value.kind}.{value.id}"
        return of(language).get(word) or of(DEFAULT).get(word, value.id)  # a word nobody listed: as given
    return value


def cite(rule: str, language: str) -> str:
    """The rulebook section ``rule`` (an id, ``"tackle"``) in ``language``, page included."""
    return _template(f"rule.{rule}", language)


def format_refusal(refusal: Refusal, language: str) -> str:
    """``refusal`` in ``language``: its sentence from that language's catalogue, each value said
    in that language too, and its rule cited in brackets."""
    values = {name: _value(v, language, refusal.catalogue) for name, v in refusal.values.items()}
    text = _template(refusal.key, language, refusal.catalogue).format(**values)
    return f"{text} [{cite(refusal.rule, language)}]" if refusal.rule else text
