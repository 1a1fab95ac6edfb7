"""The rules' refusals in the coach's language.

The engine refuses in English (``IllegalCommandError("Gnome #3 is not in an adjacent hex",
rule="Tackle challenge (p. 7)")`` reads ``"... [Tackle challenge (p. 7)]"``) and stays so: it is
language-neutral code and the tests match its text. ``translate_refusal`` turns such a message
into another language from ``engine/data/text/refusals.<lang>.json``:

- ``patterns``: English template -> translation. Placeholders match a part of the message and
  carry it over: ``{player…}`` a player's name, ``{hex…}`` a hex (``K11``), ``{n…}`` a number,
  ``{side…}`` ``west``/``east`` (translated through ``sides``), ``{text…}`` any words (kept as
  written, or translated as a rule/ability name, a refusal or a narration ``phrase``). A name
  may carry a suffix (``{player2}``, ``{n3}``) to tell several apart.
- ``rules``: the rulebook section a refusal cites, by its name without the page
  (``"Tackle challenge"`` -> ``"Défi Plaquer"``); the page is kept. Abilities cited as rules
  take their names from the ``translations`` of ``engine/data/abilities.json``.

A message of several lines (a team's problems: a heading, then ``- `` one problem a line) is
translated line by line. Besides the engine's and the command parser's, the patterns know the
refusals a coach meets building a team or creating a match (the rules string, the store's team,
roster and channel checks), which are written the same way.

A message no pattern matches stays in English (its rule still translated), so a gap shows the
engine's own words, never an error. Pure: reading package data is all it does.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources

from .i18n import DEFAULT, load, phrase

__all__ = ["translate_refusal", "translate_rule", "is_translated"]

_FIELD = re.compile(r"\{(player|hex|n|side|text)(\d*)\}")
_KINDS = {
    "player": r"[^;:,()\[\]]+?",
    "hex": r"[A-Z]\d{1,2}",
    "n": r"-?\d+",
    "side": r"west|east",
    "text": r".*?",
}
_RULE = re.compile(r"^(?P<body>.*) \[(?P<rule>[^\[\]]+)\]$", re.S)
_PAGE = re.compile(r"^(?P<name>.*?)(?P<page>,? \(?p\. \d+\)?)?$")


def _compile(template: str) -> re.Pattern[str]:
    out, at = [], 0
    for m in _FIELD.finditer(template):
        out.append(re.escape(template[at:m.start()]))
        out.append(f"(?P<{m.group(1)}{m.group(2)}>{_KINDS[m.group(1)]})")
        at = m.end()
    out.append(re.escape(template[at:]))
    return re.compile("".join(out) + r"\Z", re.S)


@cache
def _catalogue(language: str) -> tuple[list[tuple[re.Pattern[str], str]], dict[str, str], dict[str, str]]:
    path = resources.files("engine").joinpath(f"data/text/refusals.{language}.json")
    if language == DEFAULT or not path.is_file():
        return [], {}, {}
    data = json.loads(path.read_text(encoding="utf-8"))
    patterns = [(_compile(en), tr) for en, tr in data["patterns"].items()]
    return patterns, {**_ability_names(language), **data["rules"]}, data["sides"]


def _ability_names(language: str) -> dict[str, str]:
    """Abilities cited as rules (``"Goalie (p. 13)"``): their names from ``abilities.json``."""
    raw = json.loads(resources.files("engine").joinpath("data/abilities.json").read_text(encoding="utf-8"))
    items = raw if isinstance(raw, list) else raw.get("abilities", list(raw.values()))
    return {a["name"]: a["translations"][language]["name"] for a in items
            if isinstance(a, dict) and language in a.get("translations", {})}


def translate_rule(rule: str, language: str) -> str:
    """A rulebook section (``"Tackle challenge (p. 7)"``) in ``language``, its page kept."""
    _, rules, _ = _catalogue(language)
    m = _PAGE.match(rule)
    assert m is not None  # the pattern matches any string
    name = rules.get(m.group("name"))
    return rule if name is None else name + (m.group("page") or "")


def _body(body: str, language: str) -> str | None:
    patterns, rules, sides = _catalogue(language)
    for pattern, template in patterns:
        m = pattern.match(body)
        if m is None:
            continue
        values = {}
        for key, value in m.groupdict().items():
            if key.startswith("side"):
                value = sides.get(value, value)
            elif key.startswith("text"):
                value = rules.get(value) or _body(value, language) or phrase(load("engine", "data/text", language), value)
            values[key] = value
        return template.format(**values)
    return None


def translate_refusal(message: str, language: str) -> str:
    """``message`` (an engine or parser refusal, with its ``[rule]`` if any) in ``language``;
    the English message when the language is English or no pattern knows it."""
    if language == DEFAULT or not message:
        return message
    if "\n" in message:
        return "\n".join(_line(line, language) for line in message.split("\n"))
    m = _RULE.match(message)
    body, rule = (m.group("body"), m.group("rule")) if m else (message, None)
    text = _body(body, language)
    if text is None:
        text = body
    return f"{text} [{translate_rule(rule, language)}]" if rule else text


def _line(line: str, language: str) -> str:
    """One line of a message of several: a ``- `` item keeps its dash."""
    if line.startswith("- "):
        return "- " + translate_refusal(line[2:], language)
    return translate_refusal(line, language) if line else line


def is_translated(message: str, language: str) -> bool:
    """Whether a pattern knows the message's sentence (its rule aside); every line of it."""
    if "\n" in message:
        return all(is_translated(line.removeprefix("- "), language) for line in message.split("\n") if line)
    m = _RULE.match(message)
    return _body(m.group("body") if m else message, language) is not None
