"""The ability catalogue (pp. 12-14): 43 abilities, who may learn what, and every one of them
acting somewhere in the rules."""

from __future__ import annotations

import re

import pytest

from engine.abilities import ABILITIES, GENERAL_GROUPS, ability, has, learnable
from engine.errors import MalformedInputError
from support import ROOT

ENGINE = ROOT / "engine"
#: Files that name abilities without being rules: the catalogue, the AI, move listing, words.
NOT_RULES = {"abilities/__init__.py", "ai.py", "legal.py", "narrate.py", "commands.py", "teambuilding.py"}


def test_the_book_s_counts():
    assert len(ABILITIES) == 43
    assert sum(a.basic for a in ABILITIES.values()) == 16  # "Basic abilities: 16"
    assert sum(a.general for a in ABILITIES.values()) == 13  # 6 General Basic + 7 Advanced (Skill has 2)
    for group in {a.group for a in ABILITIES.values()}:
        basics = [a for a in ABILITIES.values() if a.group == group and a.basic]
        assert len(basics) == 1, group


def test_every_ability_acts_somewhere_in_the_rules():
    sources = {
        str(p.relative_to(ENGINE)): p.read_text(encoding="utf-8")
        for p in ENGINE.rglob("*.py")
        if str(p.relative_to(ENGINE)) not in NOT_RULES
    }
    missing = [a for a in ABILITIES if not any(re.search(rf'"{re.escape(a)}"', text) for text in sources.values())]
    assert missing == []


def test_an_advanced_ability_needs_the_basic_one_and_type_abilities_their_type():
    ids = {a.id for a in learnable("hunter", ())}
    assert {"steady", "buff", "cutblock"} <= ids and "sprinter" not in ids and "collision" not in ids
    assert "steal" not in ids  # a Striker ability
    ids = {a.id for a in learnable("hunter", ("cutblock", "steady"))}
    assert {"collision", "beeline", "sprinter"} <= ids and "cutblock" not in ids and "steady" not in ids


def test_any_samhaino_player_may_take_fear_but_not_the_other_undead_abilities():
    assert "fear" in {a.id for a in learnable("defender", (), race="samhaino")}
    assert "shamble" not in {a.id for a in learnable("defender", ("fear",), race="samhaino")}
    assert "fear" not in {a.id for a in learnable("defender", ())}


def test_potions_give_general_abilities_only():
    assert all(a.general for a in learnable("cheater", (), general_only=True))
    assert {g for g in GENERAL_GROUPS} == {"jog", "might", "tackle", "dodge", "skill", "grit"}


def test_has_counts_potion_abilities_and_unknown_ids_are_refused():
    class Pl:
        abilities = ("agile",)
        potion_abilities = ("buff",)

    assert has(Pl, "agile") and has(Pl, "buff") and not has(Pl, "grapple")
    with pytest.raises(MalformedInputError):
        ability("juggling")
