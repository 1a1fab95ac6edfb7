"""What a coach may do now: the legal commands, as python-chess's ``legal_moves`` does it.

Candidates are generated per phase and kept only if the same validator ``apply`` uses accepts
them, so "listed here" and "accepted by apply" cannot drift apart. Moves are listed one hex at
a time (a path is a chain of legal steps); throws list every reachable team-mate and empty hex.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from . import commands as C
from .abilities import has
from .abilities.counter_moves import COUNTER_MOVES, LITTLE_GUY
from .abilities.taunt import RANGE as TAUNT_RANGE
from .challenges.tackle import USES as TACKLE_USES
from .errors import ElfballError
from .field import Field, Side, standard_field
from .hexes import Direction, disc, distance
from .match import VALIDATORS, check
from .setup import ZONES
from .state import Location, MatchState, Phase, Player

__all__ = ["LegalCommands", "legal_commands", "candidate_commands", "is_legal"]

_C = TypeVar("_C", bound=C.Command)


class LegalCommands:
    """The legal commands of one coach: iterable, countable, ``in``-testable."""

    def __init__(self, state: MatchState, side: Side, field: Field | None = None) -> None:
        self.state, self.side = state, side
        self.field = field or standard_field()
        self._cache: list[C.Command] | None = None

    def _list(self) -> list[C.Command]:
        if self._cache is None:
            self._cache = [c for c in _candidates(self.state, self.field, self.side) if self._ok(c)]
        return self._cache

    def _ok(self, c: C.Command) -> bool:
        try:
            if isinstance(c, (C.Answer, C.Concede)):
                check(self.state, c, by=self.side, field=self.field)
            else:
                VALIDATORS[type(c)](self.state, self.field, c, self.side)
        except ElfballError:
            return False
        return True

    def __iter__(self) -> Iterator[C.Command]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())

    def __bool__(self) -> bool:
        if self._cache is not None:
            return bool(self._cache)
        return any(self._ok(c) for c in _candidates(self.state, self.field, self.side))

    def __contains__(self, c: object) -> bool:
        if not isinstance(c, C.Command):
            return False
        try:
            check(self.state, c, by=self.side, field=self.field)
        except ElfballError:
            return False
        return True

    def of(self, kind: type[_C]) -> list[_C]:
        """The legal commands of one kind, validating only that kind's candidates."""
        if self._cache is not None:
            return [c for c in self._cache if isinstance(c, kind)]
        return [c for c in _candidates(self.state, self.field, self.side, kind) if isinstance(c, kind) and self._ok(c)]

    def first(self, kind: type[_C], where: Callable[[_C], bool] = lambda c: True) -> _C | None:
        """The first legal command of ``kind`` (in ``of``'s order) that ``where`` accepts, or None:
        candidates are validated only until one is found (a face-off lists ~70 contacts, each
        a costly check, where a panel asks only whether a Shove or a Tackle is possible)."""
        if self._cache is not None:
            return next((c for c in self._cache if isinstance(c, kind) and where(c)), None)
        return next((c for c in _candidates(self.state, self.field, self.side, kind)
                     if isinstance(c, kind) and where(c) and self._ok(c)), None)

    def is_legal(self, c: C.Command) -> bool:
        """Like ``in`` for a command taken from ``candidate_commands``."""
        return self._ok(c)


def is_legal(state: MatchState, cmd: C.Command, side: Side, field: Field | None = None) -> bool:
    """Whether ``side`` may give ``cmd`` now (the engine's own check, without applying it)."""
    try:
        check(state, cmd, by=side, field=field or standard_field())
    except ElfballError:
        return False
    return True


def legal_commands(state: MatchState, side: Side, field: Field | None = None) -> LegalCommands:
    return LegalCommands(state, side, field)


def candidate_commands(state: MatchState, side: Side, field: Field | None = None) -> list[C.Command]:
    """Every command worth checking now (a superset of the legal ones, cheap to build)."""
    return list(_candidates(state, field or standard_field(), side))


def _answers(state: MatchState, side: Side) -> Iterator[C.Command]:
    ip = state.in_progress
    assert ip is not None
    q = ip.question or {}
    if q.get("side") != side:
        return
    if "eligible" in q:  # choosing dice: Momentum re-rolls, ability re-rolls
        yield C.Answer(())
        for i in q["eligible"]:
            yield C.Answer((i,))
        if q["max"] > 1:
            yield C.Answer(tuple(q["eligible"][: q["max"]]))
    else:
        for o in q["options"]:
            yield C.Answer(o)


def _steps(p: Player, ability: str, mover: str | None = None) -> Iterator[C.Command]:
    """Ability moves one hex at a time, like ordinary moves."""
    assert p.hex is not None
    for h in p.hex.neighbours():
        yield C.Move((h,), ability=ability, player=mover)


def _counter_moves(state: MatchState, side: Side, actor: Player) -> Iterator[C.Command]:
    """Moves paid with counters during an action (engine/abilities/counter_moves.py)."""
    for ability in COUNTER_MOVES:
        if ability not in ("swarm", "lead-pass", "react") and has(actor, ability):
            yield from _steps(actor, ability)
    if has(actor, "swarm"):
        for p in state.on_field(side):
            if p.type == LITTLE_GUY and p.standing:
                yield from _steps(p, "swarm", p.id)
    lead = state.action.lead_pass if state.action else None
    if lead is not None and state.players[lead].on_field:
        yield from _steps(state.players[lead], "lead-pass", lead)


def _out_of_sequence(state: MatchState, side: Side) -> Iterator[C.Command]:
    """After the other team's Shift in Momentum: React, Taunt and Quickling."""
    held = state.momentum if state.momentum_side == side else 0
    for p in state.on_field(side):
        if p.hex is None or not p.standing:
            continue
        if has(p, "quickling"):
            yield C.Quickling(p.id)
        if not held:
            continue
        if has(p, "react"):
            yield from _steps(p, "react", p.id)
        if has(p, "taunt"):
            for o in state.on_field():
                if o.side != side and o.hex is not None and distance(o.hex, p.hex) <= TAUNT_RANGE:
                    for k in range(1, held + 1):
                        yield C.Taunt(p.id, o.id, k)
def _potions(state: MatchState, side: Side) -> Iterator[C.Command]:
    if state.teams[side].available("potions"):
        for p in state.team_players(side):
            if not p.on_field and not p.potion_used:
                yield C.DrinkPotion(p.id)


def _spells(state: MatchState, side: Side) -> Iterator[C.Command]:
    """One spell per target: System Shock on each opponent, Transformation on each player,
    Inferno on every hex with a player in it or next to it."""
    hexes: set = set()
    for p in state.on_field():
        if p.side != side:
            yield C.CastSpell("system_shock", target=p.id)
        yield C.CastSpell("transformation", target=p.id)
        assert p.hex is not None
        hexes.update((p.hex, *p.hex.neighbours()))
    for h in sorted(hexes):
        yield C.CastSpell("inferno", hex=h)


def _candidates(state: MatchState, fld: Field, side: Side, kind: type | None = None) -> Iterator[C.Command]:
    """Candidates for ``side``; with ``kind``, the costly families of other kinds are skipped
    (a carrier has ~900 throw targets; a set-up ~1000 placements)."""

    def want(t: type) -> bool:
        return kind is None or kind is t

    if state.in_progress is not None:
        yield from _answers(state, side)
        if state.phase is not Phase.MATCH_OVER:
            yield C.Concede()
        return
    phase = state.phase
    p: Player | None  # a player of this side, bound by several branches below
    if phase in (Phase.SETUP, Phase.TURN, Phase.TEST_OVER, Phase.MATCH_OVER) and want(C.DrinkPotion):
        yield from _potions(state, side)
    if phase is Phase.MATCH_OVER:
        return
    if phase is Phase.SETUP and state.setup_side == side:
        for p in state.team_players(side):
            if p.location is Location.FIELD:
                yield C.Unplace(p.id)
            if p.location in (Location.BENCH, Location.FIELD) and want(C.Place):
                for zone in ZONES:
                    for h in fld.setup_hexes(side, zone):
                        for d in Direction:
                            yield C.Place(p.id, h, d)
        yield C.AutoSetup()
        yield C.SetupDone()
    elif phase is Phase.FACEOFF and state.faceoff_winner == side:
        yield C.FaceoffPickup()
        interior = [h for h in fld.circle_hexes("centre") if h != fld.ball_spot]
        paths: list[tuple] = [()]
        paths += [(a,) for a in interior]
        paths += [(a, b) for a in interior for b in interior if a != b]
        for path in paths if want(C.FaceoffContact) else ():
            for challenge in ("shove", "tackle"):
                yield C.FaceoffContact(path, challenge)
    elif phase is Phase.TURN and state.turn_side == side:
        for p in state.on_field(side):
            yield C.StartAction(p.id)
        if state.after_sim:
            yield from _out_of_sequence(state, side)
        bench = [p for p in state.team_players(side) if p.location is Location.BENCH]
        if bench and len(state.on_field(side)) < 6 and want(C.Replace):
            for p in bench:
                for h in sorted(fld.replacement_hexes(side)):
                    for d in Direction:
                        yield C.Replace(p.id, h, d)
        if state.teams[side].available("wizard") and want(C.CastSpell):
            yield from _spells(state, side)
        if state.turn_actors:
            yield C.EndAction()  # double movement: no second player
    elif phase is Phase.ACTION and state.turn_side == side:
        p = state.acting_player
        assert p is not None and p.hex is not None
        if state.teams[side].available("cheerleaders"):
            yield C.Cheer()
        for h in p.hex.neighbours():
            yield C.Move((h,))
        for d in Direction:
            if d is not p.facing:
                yield C.Face(d)
        yield C.StandUp()
        if state.ball.carrier == p.id and want(C.Throw):
            for h in disc(p.hex, 18):
                if h in fld and h != p.hex:
                    yield C.Throw(h)
                    if distance(h, p.hex) <= 6:
                        yield C.Throw(h, long=True)  # a stationary short throw declared long (G10)
        uses = [u for u in TACKLE_USES if has(p, u)]
        for o in state.on_field():
            if o.side != side:
                # On a Down or Dazed opponent a Tackle is a Cheapshot: list it once, by its name.
                if o.standing:
                    yield C.Tackle(o.id)
                for u in uses:
                    yield C.Tackle(o.id, u)
                yield C.Shove(o.id)
        if state.momentum_side == side:
            for k in range(1, state.momentum + 1):
                yield C.Dash(k)
            yield from _counter_moves(state, side, p)
        if has(p, "sprinter"):
            yield C.Dash(sprint=True)
        yield C.EndAction()
    elif phase is Phase.TEST_OVER:
        yield C.StartTest()
    yield C.Concede()
