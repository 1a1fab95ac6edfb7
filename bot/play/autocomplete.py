"""The play commands' autocomplete: suggestions only, the engine checks whatever is submitted.

``completer(make)`` turns ``make(state, side, typed, namespace, language) -> [(label, value)]``
into a discord.py autocomplete callback that reads the channel's match in a worker thread (the
event loop never waits on the database) and keeps Discord's limits (25 choices, 100 characters).
Each maker offers what the engine allows first, then what a coach might mean.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.app import elfball
from bot.common.i18n import tr
from service.grammar import parse_path, resolve_player
from service.matches import MatchService
from service.vocabulary import (
    Direction,
    ElfballError,
    MatchState,
    Side,
    StoreError,
    distance,
    language_of,
    legal_commands,
    standard_field,
)
from service.vocabulary import commands as C

__all__ = ["Maker", "completer", "state_for", "player_label", "players_to_act", "path_suggestions", "throw_targets",
           "opponents_adjacent", "tackle_targets", "movers", "quicklings", "taunters", "taunt_targets", "potion_drinkers",
           "spell_targets", "spell_hexes", "bench", "setup_hexes", "replacement_hexes"]

F = standard_field()


def state_for(interaction: discord.Interaction) -> tuple[Any, MatchState, Side]:
    """The channel's match, its state and the member's side in it (blocking: a worker thread's)."""
    service: MatchService = elfball(interaction).service
    m = service.current(interaction.channel_id or 0)
    return m, m.engine_state(), service.side_of(m, interaction.user.id)


#: ``make(state, side, typed, namespace, language)``: (label, value) pairs.
Maker = Callable[..., list[tuple[str, str]]]


async def _complete(interaction: discord.Interaction, current: str, make: Maker) -> list[app_commands.Choice[str]]:
    """Suggestions only: whatever the coach submits is checked again by the engine. ``make``
    also gets the options typed so far (``interaction.namespace``: the player who moves, the
    spell being cast)."""
    def work() -> list[tuple[str, str]]:
        try:
            m, state, side = state_for(interaction)
        except (StoreError, ElfballError):
            return []
        return make(state, side, current, interaction.namespace, language_of(interaction.locale))

    pairs = await asyncio.to_thread(work)
    cur = current.strip().lower()
    ranked = [p for p in pairs if cur in p[0].lower() or cur in p[1].lower()] if cur else pairs
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in ranked[:25]]


def completer(make: Maker) -> Callable[..., Any]:
    """An autocomplete callback (discord.py wants a coroutine function) for ``make``."""

    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, make)

    return autocomplete



def players_to_act(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    first = [c.player for c in legal_commands(state, side).of(C.StartAction)]
    rest = [p.id for p in state.team_players(side) if p.id not in first]
    return [(player_label(state, pid, lang), pid) for pid in first + rest]


def player_label(state: Any, pid: str, lang: str = "en") -> str:
    """``Hunter #2 — K11, Down``: a player for a list, where he is and how."""
    p = state.players[pid]
    where = F.format(p.hex) if p.hex else tr(lang, f"where.{p.location.value}")
    status = "" if p.status.value == "standing" else ", " + tr(lang, f"status.{p.status.value}")
    return f"{p.name} — {where}{status}"


def path_suggestions(state: Any, side: str, current: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    mover = getattr(ns, "player", None)
    if mover:  # Lead Pass, Swarm, React: the path starts from the player who moves
        try:
            p = resolve_player(state, str(mover), side=side, on_field=True)
        except ElfballError:
            return []
    if p is None or p.hex is None:
        return []
    tokens = current.split()
    try:
        at = parse_path(tokens, p.hex)[-1] if tokens else p.hex
    except ElfballError:
        return []
    prefix = (" ".join(tokens) + " ") if tokens else ""
    out = []
    for d in Direction:
        h = at.neighbour(d)
        if h in F and state.player_at(h) is None:
            out.append((f"{prefix}{F.format(h)}  ({tr(lang, 'dir.' + d.name)})", f"{prefix}{F.format(h)}"))
    return out


def throw_targets(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    legal = legal_commands(state, side)  # type: ignore[arg-type]  # side is the deciding side, known to be set here
    mates = [(tr(lang, "complete.throw_target", player=q.name, hex=F.format(q.hex), distance=distance(p.hex, q.hex)),
              F.format(q.hex))
             for q in state.on_field(side) if q.id != p.id and q.hex is not None and C.Throw(q.hex) in legal]
    return mates


def opponents_adjacent(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    return [(player_label(state, o.id, lang), o.id) for o in state.on_field() if o.side != side and o.hex is not None
            and distance(o.hex, p.hex) == 1 and o.standing]


def legal_first(state: Any, legal: list[str], rest: list[str], lang: str = "en") -> list[tuple[str, str]]:
    """Players the engine offers first, then the others a coach might mean."""
    ordered = list(dict.fromkeys([*legal, *rest]))
    return [(player_label(state, pid, lang), pid) for pid in ordered]


def tackle_targets(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Legal tackles first (with a Tackle ability too); then every adjacent opponent, standing or
    not (a Cheapshot takes a Down or Dazed one)."""
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    legal = [c.target for c in legal_commands(state, side).of(C.Tackle)]
    near = [o.id for o in state.on_field() if o.side != side and o.hex is not None and distance(o.hex, p.hex) == 1]
    return legal_first(state, legal, near, lang)


def movers(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Move) if c.player]
    return legal_first(state, legal, [p.id for p in state.on_field(side)], lang)


def quicklings(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Quickling)]
    return legal_first(state, legal, [p.id for p in state.on_field(side)], lang)


def taunters(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Taunt)]
    return legal_first(state, legal, [p.id for p in state.on_field(side)], lang)


def taunt_targets(state: Any, side: str, _cur: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Opponents within 6 hexes of the taunter chosen so far (the engine's candidates first)."""
    taunter = str(getattr(ns, "player", "") or "")
    legal = [c.target for c in legal_commands(state, side).of(C.Taunt) if c.player == taunter]
    me = state.players.get(taunter)
    near = [o.id for o in state.on_field() if o.side != side and o.hex is not None
            and (me is None or me.hex is None or distance(o.hex, me.hex) <= 6)]
    return legal_first(state, legal, near, lang)


def potion_drinkers(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.DrinkPotion)]
    return legal_first(state, legal, [p.id for p in state.team_players(side) if p.location.value != "field"], lang)


def spell_targets(state: Any, side: str, _cur: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    spell = str(getattr(ns, "spell", "") or "")
    legal = [c.target for c in legal_commands(state, side).of(C.CastSpell) if c.target and c.spell == spell]
    foes = [p.id for p in state.on_field() if p.side != side]
    mine = [p.id for p in state.on_field(side)] if spell == "transformation" else []
    return legal_first(state, legal, foes + mine, lang)


def spell_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Inferno: the engine's hexes, else the hexes of opposing players."""
    legal = [c.hex for c in legal_commands(state, side).of(C.CastSpell) if c.hex is not None]
    foes = [p.hex for p in state.on_field() if p.side != side and p.hex is not None]
    out = []
    for h in dict.fromkeys([*legal, *foes]):
        who = state.player_at(h)
        out.append((F.format(h) + (f" ({who.name})" if who else ""), F.format(h)))  # names need no words
    return out


def bench(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    return [(player_label(state, p.id, lang), p.id) for p in state.team_players(side) if p.location.value in ("bench", "field")]


def setup_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    out = []
    for zone in ("faceoff", "guardian", "rover-north", "rover-south"):
        for h in F.setup_hexes(side, zone):
            if state.player_at(h) is None:
                out.append((f"{F.format(h)} ({tr(lang, 'zone.' + zone)})", F.format(h)))
    return out


def replacement_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    return [(F.format(h), F.format(h)) for h in sorted(F.replacement_hexes(side)) if state.player_at(h) is None]
