"""Magic Potions (Team support, p. 11).

"You may use one or more potions on any player not on the field before setting up for any
Test, during a Test or after the last goal is scored. To use a potion, roll two Challenge dice
and consult this table. If the roll says you gain a Basic or Advanced ability only General
Attributes abilities may be gained. Because this is potent stuff, a player may only take one
potion per game."

The table's die faces were lost with the book's images: the row for each unordered pair of
faces is a reconstruction kept as data (``engine/data/potions.json``). The two dice are read
as they fall (a star is not rolled again). The Impcrusher "may not use magic potions" (roster
data: ``uses_potions``). A dead or ejected player drinks nothing.

"Cured" clears the injury record of this game (``Player.injury``) and brings him back from the
Infirmary, Recovery or the sent-off Bench to the Bench, or to Recovery where the row says so.
A career-ending injury is not cured: that player is off the roster (G50); he stays in the
Infirmary, though he may still gain what the row gives.
A player the referee sent to the Bench "for the rest of the Test" (rules edition 3) is not
injured: a cure leaves him sitting out the Test (the "locked up" row still puts him in Recovery),
though he gains what the row gives (docs/rules.md 13.6).
Abilities and the +1 last this game only: ``Player.potion_abilities`` lists them (a "+1 might"
entry tells the league the attribute is temporary). A giant frog's gains go to his own
profile, which he gets back at the end of the Test.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..abilities import GENERAL_GROUPS, advanced_of, basic_of, general_basics
from ..challenges.injury import ATTRIBUTES, record_injury
from ..context import Ctx
from ..dice import Face
from ..events import InjuryRecorded, PotionDrunk, SupportUsed
from ..field import Side
from ..refusals import Refusal, side_term
from ..state import Location, MatchState, Phase, Player
from . import extra_rule

__all__ = ["row_for", "refusal", "drink"]

_ORDER = (Face.FLOP, Face.BLANK, Face.STAR, Face.BULLSEYE)
_UNCURED = ("dies", "seizure", "coma", "woozy")


def _key(faces: tuple[Face, Face]) -> tuple[Face, Face]:
    a, b = sorted(faces, key=_ORDER.index)
    return a, b


@cache
def _table() -> dict[tuple[Face, Face], dict[str, Any]]:
    raw = json.loads(resources.files("engine").joinpath("data/potions.json").read_text(encoding="utf-8"))
    table = {_key((Face.parse(r["faces"][0]), Face.parse(r["faces"][1]))): r for r in raw["rows"]}
    assert len(table) == 10, "potions.json: one row per unordered pair of faces"
    return table


def row_for(a: Face, b: Face) -> dict[str, Any]:
    """The table row for two faces, in either order."""
    return _table()[_key((a, b))]


def refusal(state: MatchState, player: Player, by: Side) -> Refusal | None:
    """Why ``by`` may not give ``player`` a potion now, or None."""
    if player.side != by:
        return Refusal("player.plays_for", player=player.name, side=side_term(player.side))
    team = state.teams[by]
    if not team.support.get("potions"):
        return Refusal("potion.none")
    if not team.available("potions"):
        return Refusal("potion.used", n=team.support["potions"])
    if state.phase is Phase.SETUP and state.setup_side != by:
        return Refusal("potion.setup", side=side_term(str(state.setup_side)))
    if state.phase is Phase.TURN and state.turn_side != by:
        return Refusal("potion.own_turn", side=side_term(str(state.turn_side)))
    if not extra_rule(player, "uses_potions"):
        return Refusal("potion.not_allowed", player=player.name)
    if player.potion_used:
        return Refusal("potion.one_per_game")
    if player.on_field:
        return Refusal("potion.on_field", player=player.name)
    if player.location is Location.EJECTED:
        return Refusal("player.ejected", player=player.name)
    if (player.injury or {}).get("kind") == "dead":
        return Refusal("player.dead", player=player.name)
    return None


def drink(ctx: Ctx, player: Player) -> None:
    team = ctx.state.teams[player.side]
    team.used["potions"] = team.used.get("potions", 0) + 1
    player.potion_used = True
    ctx.emit(SupportUsed(player.side, "potions", player.id, team.available("potions")))
    faces = (ctx.dice.face(), ctx.dice.face())
    result = row_for(*faces)["result"]
    cures = result not in _UNCURED and (player.injury or {}).get("kind") != "career_ending"
    if cures:
        benched = player.id in ctx.state.referee_benched  # kept out by the referee, not an injury
        if result == "locked" or not benched:
            player.location = Location.RECOVERY if result == "locked" else Location.BENCH
    gained = _gains(ctx, player, result)
    ctx.emit(PotionDrunk(player.id, (faces[0].symbol, faces[1].symbol), result, gained))
    if result in ("dies", "seizure", "coma"):
        player.location = Location.INFIRMARY
        if result != "coma":
            record_injury(ctx, player, "dead" if result == "dies" else "lasting")
    elif result == "woozy":
        if player.location is Location.BENCH:
            player.location = Location.RECOVERY
    elif cures and player.injury is not None:
        player.injury = None
        ctx.emit(InjuryRecorded(player.id, "cured"))


# --- what he gains -------------------------------------------------------------------------
def _own_abilities(player: Player) -> tuple[str, ...]:
    frog = player.frog
    if frog:
        return (*frog.get("abilities", ()), *frog.get("potion_abilities", ()))
    return (*player.abilities, *player.potion_abilities)


def _own_attribute(player: Player, name: str) -> int:
    frog = player.frog
    return int(frog["attributes"][ATTRIBUTES.index(name)]) if frog else player.attribute(name)


def _grant(player: Player, gains: tuple[str, ...], attribute: str | None = None) -> None:
    """Add this game's gains to his own profile (the saved one while he is a giant frog)."""
    frog = player.frog
    if frog:
        attributes = list(frog["attributes"])
        if attribute:
            attributes[ATTRIBUTES.index(attribute)] += 1
        player.frog = {**frog, "attributes": attributes, "potion_abilities": [*frog.get("potion_abilities", ()), *gains]}
        return
    if attribute:
        setattr(player, attribute, player.attribute(attribute) + 1)
    player.potion_abilities = (*player.potion_abilities, *gains)


def _ask(ctx: Ctx, player: Player, kind: str, options: list[str]) -> str | None:
    if not options:
        return None  # he has them all: nothing to gain
    # Gaining is the potion's effect, not a choice to decline: the default is the first option.
    return str(ctx.ask({"kind": kind, "side": player.side, "player": player.id, "options": options, "default": options[0]}))


def _gains(ctx: Ctx, player: Player, result: str) -> tuple[str, ...]:
    gained: list[str] = []
    if result in ("boost", "enhanced"):
        for _ in range(2 if result == "enhanced" else 1):
            known = (*_own_abilities(player), *gained)
            choice = _ask(ctx, player, "potion_ability", [a.id for a in general_basics() if a.id not in known])
            if choice:
                gained.append(choice)
    elif result == "veteran":
        known = _own_abilities(player)
        options = [
            f"{basic_of(g).id}+{adv.id}"
            for g in GENERAL_GROUPS
            if basic_of(g).id not in known
            for adv in advanced_of(g)
            if adv.id not in known
        ]
        choice = _ask(ctx, player, "potion_veteran", options)
        if choice:
            gained += choice.split("+")
    elif result == "strength":
        # "An Attribute cannot go higher than 6."
        choice = _ask(ctx, player, "potion_attribute", [a for a in ATTRIBUTES if _own_attribute(player, a) < 6])
        if choice:
            _grant(player, (f"+1 {choice}",), choice)
            return (f"+1 {choice}",)
    _grant(player, tuple(gained))
    return tuple(gained)
