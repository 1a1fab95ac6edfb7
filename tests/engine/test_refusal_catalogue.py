"""The refusal catalogues (``engine/data/text/refusals.<lang>.json``): every key the engine and
the command parser raise is in every language with exactly the placeholders its raise gives, and
a language says a refusal from its own sentence, so rewording the English cannot break French."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from engine import refusals
from engine.abilities.counter_moves import COUNTER_MOVES
from engine.errors import IllegalCommandError, MalformedInputError
from engine import tournament
from engine.i18n import LANGUAGES, placeholders
from engine.match import RULES, SUPPORT_LIMITS
from engine.refusals import Refusal, Term, format_refusal, refusal_catalogue, side_term
from engine.setup import ZONES
from engine.state import Status

ROOT = Path(__file__).resolve().parents[2]
#: Where engine errors are raised (the store's own refusals, ``StoreError(key)``, are keyed in
#: db/text and checked by tests/test_league_i18n.py).
SOURCES = [*sorted((ROOT / "engine").rglob("*.py")), *sorted((ROOT / "service").rglob("*.py")),
           *sorted((ROOT / "db").glob("*.py"))]
#: Calls whose first argument is a refusal key: ``Refusal(key, ...)``, ``Error.of(key, ...)``,
#: the match's ``_refuse(key, rule, ...)`` and a counter move's ``cm.refuse(key, ...)``.
KEYED_CALLS = {"Refusal", "of", "_refuse", "refuse"}


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


@functools.cache  # the sources do not change during a run; four tests read the same scan (~2 s)
def raised() -> tuple[tuple[str, int, str, frozenset[str] | None], ...]:
    """(file, line, key, the value names given, or None when a ``**values`` hides them) of every
    keyed call whose key is written out; ``rule.<id>`` for a rule cited by name."""
    found = []
    for path in SOURCES:
        if path.name.startswith("ai"):
            continue  # the AI raises no refusal
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or _name(node.func) not in KEYED_CALLS or not node.args:
                continue
            if any(k.arg == "catalogue" for k in node.keywords):
                continue  # a sentence of another floor's catalogue (the parser's usages: service/text)
            key = node.args[0]
            where = (str(path.relative_to(ROOT)), node.lineno)
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names = {k.arg for k in node.keywords if k.arg not in (None, "rule")}
                hidden = any(k.arg is None for k in node.keywords)
                found.append((*where, key.value, None if hidden else frozenset(names)))
            rule = next((k.value for k in node.keywords if k.arg == "rule"), None)
            if _name(node.func) == "_refuse" and len(node.args) > 1:
                rule = node.args[1]
            if isinstance(rule, ast.Constant) and isinstance(rule.value, str):
                found.append((*where, f"rule.{rule.value}", frozenset()))
        for node in ast.walk(tree):
            where = (str(path.relative_to(ROOT)), node.lineno) if isinstance(node, ast.stmt | ast.expr) else ("", 0)
            # A rule id kept in a constant (``RULE = "tackle"``), and the store of a lookup's key.
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.lstrip("_").startswith("RULE")
                                                    for t in node.targets) and isinstance(node.value, ast.Constant) \
                    and re.fullmatch(r"[a-z_-]+", str(node.value.value)):  # an id, not a citation written out
                found.append((*where, f"rule.{node.value.value!s}", frozenset()))
            if isinstance(node, ast.Call) and _name(node.func) == "_ambiguous" and isinstance(node.args[1], ast.Constant):
                found.append((*where, str(node.args[1].value), frozenset({"text", "text2"})))
            in_engine = path.is_relative_to(ROOT / "engine")  # the store's words are its own (db/text)
            if in_engine and isinstance(node, ast.Call) and _name(node.func) == "Term" and len(node.args) == 2 and \
                    all(isinstance(a, ast.Constant) for a in node.args):
                kind, ident = (a.value for a in node.args)  # type: ignore[attr-defined]  # all() above checked both are Constants
                if kind not in ("ability", "phrase"):  # named from abilities.json / the narration
                    found.append((str(path.relative_to(ROOT)), node.lineno, f"{kind}.{ident}", frozenset()))
    return tuple(found)


def computed_keys() -> set[str]:
    """Keys built from data rather than written out at the raise."""
    keys = {f"condition.{s.value}" for s in Status} | {f"zone.{z}" for z in ZONES} | {"side.west", "side.east"}
    keys |= {f"support.{item}" for item in SUPPORT_LIMITS if item not in tournament.SUPPORT}  # a tournament refuses it
    keys |= {f"rule.{rule}" for rule in RULES}
    for cm in COUNTER_MOVES.values():
        keys.add(f"rule.{cm.rule}")
        keys |= {f"toward.{cm.toward}"} if cm.toward else set()
        keys |= {cm.missing} if cm.missing else set()
    for side in ("", "_of_side"):  # service/grammar.py: who was looked for, and where
        for where in ("", "_on_field", "_off_field"):
            keys |= {f"player.no_match{side}{where}", f"player.no_match{side}{where}_try"}
    return keys


def test_the_scan_finds_the_raises():
    keys = {key for _, _, key, _ in raised()}
    assert len(keys) > 200 and {"target.not_adjacent", "rule.tackle", "command.unknown", "roster.problems"} <= keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_raised_is_in_every_catalogue_with_its_placeholders(language):
    catalogue = refusal_catalogue(language)
    for path, line, key, names in raised():
        assert key in catalogue, f"{path}:{line}: {key} is not in refusals.{language}.json"
        if names is not None and not key.startswith("rule."):
            assert placeholders(catalogue[key]) == names, f"{path}:{line}: {key} gives {sorted(names)}"
    for key in computed_keys():
        assert key in catalogue, key


def test_every_catalogue_has_the_same_keys_and_placeholders_and_nothing_unused():
    english = refusal_catalogue("en")
    used = {key for *_, key, _ in raised()} | computed_keys()
    assert sorted(set(english) - used) == [], "sentences nobody raises"
    for language in LANGUAGES:
        other = refusal_catalogue(language)
        assert set(other) == set(english), language
        for key, sentence in english.items():
            assert placeholders(other[key]) == placeholders(sentence), (language, key)
            assert other[key].strip(), (language, key)


def test_french_is_said_from_its_own_sentence_and_values():
    error = IllegalCommandError.of("turn.last_action_taken", rule="turn", player="Imp #5", side=side_term("east"))
    assert error.refusal is not None
    assert format_refusal(error.refusal, "fr") == \
        "Imp #5 a pris la dernière action de l'Est ; choisissez un autre joueur [Déroulement du tour (p. 4)]"
    # A nested refusal and typed words are said in the language too.
    nested = Refusal("move.pickup_and", rule="move", text=Refusal("action.free_last_made"))
    assert format_refusal(nested, "fr") == ("entrer dans l'hexagone de la balle oblige à Ramasser, et il a tenté son "
                                            "dernier défi gratuit ; seul Se lancer peut prolonger son action "
                                            "[Types de défis (p. 4)]")
    assert format_refusal(Refusal("ability.missing", player="Bob", ability=Term("ability", "goalie")), "fr") == \
        "Bob n'a pas Dernier rempart"


def test_the_english_can_be_reworded_without_breaking_french(monkeypatch):
    """French never reads the English sentence: reword every English sentence and rule, and the
    French reads the same while the English reads the new words."""
    error = MalformedInputError.of("hex.off_row", text="A1", n=1, hex="H1", hex2="M1")
    tackle = IllegalCommandError.of("target.not_adjacent", rule="tackle", player="Gnome #3")
    before = {language: (format_refusal(error.refusal, language), format_refusal(tackle.refusal, language))
              for language in LANGUAGES}
    reworded = {key: "REWORDED " + sentence for key, sentence in refusal_catalogue("en").items()}
    real = refusals.refusal_catalogue
    monkeypatch.setattr(refusals, "refusal_catalogue", lambda language: reworded if language == "en" else real(language))
    assert format_refusal(error.refusal, "fr") == before["fr"][0] == "A1 est hors du terrain : la ligne 1 va de H1 à M1"
    assert format_refusal(tackle.refusal, "fr") == before["fr"][1]
    assert format_refusal(tackle.refusal, "en") == \
        "REWORDED Gnome #3 is not in an adjacent hex [REWORDED Tackle challenge (p. 7)]"


def test_an_engine_error_reads_its_english_sentence_and_keeps_its_rule_apart():
    error = IllegalCommandError.of("target.not_adjacent", rule="tackle", player="Gnome #3")
    assert str(error) == "Gnome #3 is not in an adjacent hex [Tackle challenge (p. 7)]"
    assert error.reason == "Gnome #3 is not in an adjacent hex" and error.rule == "Tackle challenge (p. 7)"
    assert MalformedInputError("a plain message").refusal is None  # internal errors may stay plain text
