"""The 43 abilities of the Advanced Rules (pp. 12-14): the catalogue and who may learn what.

The catalogue is data (``engine/data/abilities.json``): id, printed name, the General attribute
or player Type it belongs to, Basic or Advanced, and a one-line summary for help texts. What
each ability *does* lives beside the rule it changes, under its own name: ``abilities/steady.py``
and friends hold the hooks the challenge modules call, so ``grep -r bonecrusher engine`` finds
every place the ability acts.

Where each ability acts (``tests/engine/test_ability_catalogue.py`` checks every id is used by a rule):

- re-rolls, in ``challenges/base.resolve`` and the face-off: ``rerolls.py`` (steady, buff,
  grapple, nimble, agile, resilient);
- the successes needed: ``slippery.py``, ``focused.py``, ``helping_hand.py``, ``scramble.py``;
  no forced re-rolls: cover (``challenges/intercept.py``), everlasting (``challenges/injury.py``);
- Momentum earned: ``collision.py``, ``knockback.py``, ``malicious.py``, ``enrage.py``,
  ``earnings.py`` (bullet, hotdog);
- contact: ``cheapshot.py``, ``cutblock.py``, ``pummel.py``, ``steal.py``, ``psycho.py``,
  ``fear.py``, ``clipping.py``, ``bonecrusher.py``, ``plough.py``;
- the ball: ``reach.py``, ``bankshot.py``;
- standing up and injuries: ``standing.py`` (rally, rugged) and ``challenges/injury.py`` (rugged);
- movement paid with counters: ``counter_moves.py`` (ruthless, goalie, beeline, teammate, burst,
  shamble, swarm, lead-pass, react); out of sequence: ``taunt.py``, ``quickling.py``;
  Dashes: ``sprinter.py``.

A player's abilities are ids on ``Player.abilities`` (learned or innate, e.g. the Impcrusher's
Cheapshot) and ``Player.potion_abilities`` (for this game only, worth no team points).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..errors import MalformedInputError

__all__ = [
    "Ability",
    "ABILITIES",
    "GENERAL_GROUPS",
    "ability",
    "has",
    "learnable",
    "basic_of",
    "advanced_of",
    "general_basics",
]


@dataclass(frozen=True)
class Ability:
    id: str
    name: str
    group: str  # a General attribute ("jog" ... "grit") or a player Type ("little-guy")
    level: str  # "basic" or "advanced"
    summary: str
    #: The name and summary in other languages, ``(("fr", "Équilibre", "Une fois par…"),)``
    #: (the ``translations`` of abilities.json; a tuple keeps the record hashable).
    translations: tuple[tuple[str, str, str], ...] = ()

    def name_in(self, language: str) -> str:
        """The printed name in ``language`` (the French rulebook's, for ``fr``); English otherwise."""
        return next((n for lang, n, _ in self.translations if lang == language), self.name)

    def summary_in(self, language: str) -> str:
        return next((s for lang, _, s in self.translations if lang == language), self.summary)

    @property
    def general(self) -> bool:
        return self.group in GENERAL_GROUPS

    @property
    def basic(self) -> bool:
        return self.level == "basic"


@cache
def _load() -> dict[str, Any]:
    raw = resources.files("engine").joinpath("data/abilities.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


GENERAL_GROUPS: tuple[str, ...] = tuple(_load()["general_groups"])
def _ability(a: dict[str, Any]) -> Ability:
    extra = tuple((lang, t["name"], t["summary"]) for lang, t in a.get("translations", {}).items())
    return Ability(a["id"], a["name"], a["group"], a["level"], a["summary"], extra)


ABILITIES: dict[str, Ability] = {a["id"]: _ability(a) for a in _load()["abilities"]}


def ability(ability_id: str) -> Ability:
    try:
        return ABILITIES[ability_id]
    except KeyError:
        raise MalformedInputError.of("ability.unknown", text=repr(ability_id)) from None


def has(player: Any, ability_id: str) -> bool:
    """Whether ``player`` (an ``engine.state.Player``) can use ``ability_id`` in this match."""
    return ability_id in player.abilities or ability_id in getattr(player, "potion_abilities", ())


def basic_of(group: str) -> Ability:
    return next(a for a in ABILITIES.values() if a.group == group and a.basic)


def advanced_of(group: str) -> tuple[Ability, ...]:
    return tuple(a for a in ABILITIES.values() if a.group == group and not a.basic)


def general_basics() -> tuple[Ability, ...]:
    return tuple(basic_of(g) for g in GENERAL_GROUPS)


def learnable(player_type: str, known: tuple[str, ...] | list[str], *, race: str = "", general_only: bool = False) -> list[Ability]:
    """Abilities a player may learn now (p. 12): not already known; General ones for anybody,
    Type ones for his Type only (any Samhaino player may take Fear, G45); an Advanced ability
    only once he has the Basic ability of the same attribute or Type."""
    out = []
    for a in ABILITIES.values():
        if a.id in known:
            continue
        if not a.general:
            if general_only:
                continue
            if a.group != player_type and not (a.id == "fear" and race == "samhaino"):
                continue
        if not a.basic and basic_of(a.group).id not in known:
            continue
        out.append(a)
    return out
