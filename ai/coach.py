"""The AI coach: a heuristic policy that plays Elfball by the exact odds.

``AICoach().choose(state, side)`` returns one command for the decision ``side`` owes now
(``engine.match.pending``). It never rolls and never guesses: every estimate comes from the
exact challenge odds (``engine.dice.odds``) and from the same needs the challenges compute
(facing modifiers, contact modifiers, the Disengage need). Every command it returns has passed
``engine.match.check``; a plan the engine would refuse falls back to the pending default, then
to ``EndAction`` (``AICoach.fallbacks`` counts those, and the tests keep it at zero).

The policy, in the order it decides:

- **Set-up**: the automatic set-up, then done. **Face-off**: the Pick-up or a Tackle on the
  opposing face-off player, whichever the odds favour.
- **Turn** (who acts): we hold the ball: the carrier if he may act and has something to do
  (else he keeps his turn), otherwise the supporter whose hit (on an opponent who threatens
  the carrier) or run (ahead of the carrier, towards the goal, out of harm's way) gains most;
  the ball is loose: the player most likely to reach it and pick it up, or to clear an
  opponent facing it; they hold it: the player most likely to knock the carrier down (Impact
  first if weaker, rear hexes and team-mates facing the target help), else a blocker between
  him and our goal. A Replacement when short of players and nothing pressing.
- **Action**: paths are planned hex by hex within the Jog left, weighing each Disengage by its
  odds and never stepping on a line that would send the player off. A carrier ends in the goal
  hex when he can, else takes the best of: advance (to a hex the next opponent is unlikely to
  tackle him in), a short pass to a team-mate better placed (throw, interception and catch
  odds; a miss is a Shift in Momentum), or a Dash into the goal. Down players stand up first.
  Positions are judged by ``Weights``: rough chances of scoring the next goal.
- **Questions**: own re-rolls replace X dice, then blanks, one at a time, while the roll fails
  and the counters can still turn it; forced re-rolls strike the successes of an opponent's
  Intercept or Catch; the interceptor is the best-odds candidate; a loose ball is caught
  unless catching is all risk.

Every action ends: the policy never issues a bare ``Face``, stands up at most once per action,
and a hard cap on commands per action ends it with ``EndAction``.

Pure: no I/O, no clock. Given its inputs (and the optional ``random.Random``, used only to
break exact ties between players) it always returns the same command. ``play_match`` runs one
match between two coaches, for the simulator, the tests and the benchmark.
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol

from . import commands as C
from .challenges.throw import SHORT_MAX as SHORT_THROW
from .dice import DiceSource
from .dice.odds import MAX_DICE, odds
from .events import Event, PlayerRemoved
from .field import Field, Side, other_side, standard_field
from .hexes import (
    Direction,
    Hex,
    direction_between,
    distance,
    front_hexes,
    is_in_front,
    line,
    segment_touches_hex,
)
from .legal import is_legal
from .match import TeamEntry, apply, new_match, pending
from .movement import stand_cost, stand_refusal
from .rosters import TeamList, default_roster
from .state import ActionState, Location, MatchState, Phase, Player, RuleOptions, Status

if TYPE_CHECKING:
    from .ai_search import SearchSettings

__all__ = ["AICoach", "Coach", "Weights", "MatchSummary", "play_match", "make_ai", "LEVELS", "MAX_COMMANDS_PER_ACTION"]

#: The levels a coach may pick (``AICoach(level=...)``, ``make_ai``).
LEVELS = ("easy", "hard")

#: After this many commands in one action the coach ends it, whatever it had planned.
MAX_COMMANDS_PER_ACTION = 24


@dataclass(frozen=True)
class Weights:
    """The policy's judgement of positions, as rough chances of scoring the next goal.

    Only their order matters. They were tuned by matches against the random coach and by
    head-to-head AI-vs-AI matches between two settings (``AICoach(weights=...)``)."""

    held: float = 0.15  #: we hold the ball, however far from the goal
    dropped: float = 0.12  #: our carrier fell far from our goal (less the nearer it is)
    loose_sim: float = 0.10  #: a pass went astray and the opponents take the Momentum
    gamma: float = 0.45  #: per action of Jog the carrier still needs to reach the goal
    threat: float = 0.8  #: how much of the next opponent's best hit on the carrier to fear


def _dist(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def _nb(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` (memoised: the planner asks for them constantly)."""
    n = _NEIGHBOURS.get(h)
    if n is None:
        n = _NEIGHBOURS[h] = h.neighbours()
    return n


_VECTORS = tuple((d, d.vector) for d in Direction)


def _toward(a: Hex, b: Hex, default: Direction = Direction.E) -> Direction:
    """The facing from ``a`` closest in bearing to ``b`` (``default`` when they coincide)."""
    if a == b:
        return default
    dq, dr = b[0] - a[0], b[1] - a[1]
    x, y = dq + dr / 2.0, dr * 0.8660254037844386
    best, best_dot = default, -1e18
    for d, (vx, vy) in _VECTORS:
        dot = x * vx + y * vy
        if dot > best_dot + 1e-9:
            best, best_dot = d, dot
    return best


_OPEN: weakref.WeakKeyDictionary[Field, frozenset[Hex]] = weakref.WeakKeyDictionary()


def _open_hexes(fld: Field) -> frozenset[Hex]:
    """Hexes anyone may walk on: on the field, off the outer line, not a goal."""
    hexes = _OPEN.get(fld)
    if hexes is None:
        hexes = _OPEN[fld] = frozenset(
            h for h in fld.hexes if not fld.info(h).edge_line and fld.info(h).goal is None
        )
    return hexes


@lru_cache(maxsize=8192)
def _chance(dice: int, need: int, star2: bool, momentum: int) -> tuple[float, float, float]:
    """(success, flop, exact) of a challenge, with the Momentum policy of the odds module."""
    dice = max(0, min(dice, MAX_DICE))
    o = odds(dice, max(1, need), star2=star2, momentum=max(0, min(momentum, 6)))
    return o.success, o.flop, o.extra[0]


@lru_cache(maxsize=2)
def _fresh_die(star2: bool) -> tuple[tuple[int, float], ...]:
    """(net, chance) of one new die: X -1, blank 0, bull's-eye +1, a star 1 + a new die."""
    if star2:
        return ((-1, 1 / 6), (0, 2 / 6), (1, 2 / 6), (2, 1 / 6))
    out = [(-1, 1 / 6)]
    for d in range(0, 7):
        out.append((d, 6.0 ** -(d + 2) + 2 * 6.0 ** -(d + 1) + (2 * 6.0**-d if d >= 1 else 0.0)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _rescue(net: int, need: int, xs: int, blanks: int, counters: int, star2: bool) -> float:
    """Chance that replacing X dice, then blanks, one at a time turns a roll of ``net``
    successes (``need`` needed) into a success, stopping when it succeeds or flops (net < 0:
    no more Momentum then) or the counters or such dice run out."""
    if net >= need:
        return 1.0
    if net < 0 or counters <= 0 or xs + blanks <= 0:
        return 0.0
    bonus, rest = (1, (xs - 1, blanks)) if xs else (0, (xs, blanks - 1))
    return sum(pr * _rescue(net + bonus + d, need, *rest, counters - 1, star2) for d, pr in _fresh_die(star2))


#: Plans that change little: a turn spent on them may go to a Replacement instead.
_QUIET = frozenset({"support", "stay", "block", "hold", "approach", "wait"})


@dataclass(frozen=True)
class _Plan:
    value: float
    command: C.Command
    note: str = ""


class _Board:
    """One decision's view of the position: occupancy, the ball, the goals, the odds."""

    def __init__(self, state: MatchState, side: Side, fld: Field, weights: Weights | None = None) -> None:
        self.state, self.side, self.fld = state, side, fld
        self.w = weights or Weights()
        self.opp: Side = other_side(side)
        self.goal = fld.goals[self.opp]  # the goal we attack
        self.own_goal = fld.goals[side]
        self.occ: dict[Hex, Player] = state.occupancy()
        self.star2 = state.options.star2
        self.k = state.momentum if state.momentum_side == side else 0
        self.carrier = state.carrier()
        self.loose: Hex | None = state.ball.hex if state.ball.carrier is None else None
        self.ball: Hex | None = state.ball_hex()
        opps = state.on_field(self.opp)
        last = state.last_moved.get(self.opp)
        #: The opponents who may take the next action (all but their last actor).
        self.next_opps = opps if len(opps) == 1 else [o for o in opps if o.id != last]
        self._attackers_cache: list[tuple[Player, Hex, int, float]] | None = None
        self._threat_cache: dict[tuple, float] = {}
        self._pass_cache: dict[tuple, float] = {}
        self._facing_cache: dict[tuple, Direction] = {}
        self._leave_cache: dict[tuple, float] = {}
        self._reach_cache: dict[tuple, dict[Hex, tuple[float, tuple[Hex, ...]]]] = {}
        #: The hexes each standing player faces (his 3 front hexes).
        self.front: dict[str, frozenset[Hex]] = {
            o.id: frozenset(front_hexes(h, o.facing))
            for h, o in self.occ.items()
            if o.status is Status.STANDING and o.facing is not None
        }

    # -- odds --------------------------------------------------------------------------------
    def p(self, dice: int, need: int, k: int = 0) -> float:
        return _chance(dice, need, self.star2, k)[0]

    def pf(self, dice: int, need: int, k: int = 0) -> tuple[float, float, float]:
        return _chance(dice, need, self.star2, k)

    # -- who faces whom ----------------------------------------------------------------------
    def facing(self, h: Hex, side: Side, *, mates: bool, exclude: str | None = None,
               removed: frozenset[str] = frozenset()) -> list[Player]:
        """Standing players adjacent to ``h`` who face it: ``side``'s team-mates or opponents."""
        out = []
        occ, front = self.occ, self.front
        for n in _nb(h):
            o = occ.get(n)
            if o is None or (o.side == side) != mates or o.id == exclude or o.id in removed:
                continue
            f = front.get(o.id)
            if f is not None and h in f:
                out.append(o)
        return out

    def leave(self, p: Player, h: Hex, k: int = 0, removed: frozenset[str] = frozenset()) -> float:
        """Chance ``p`` gets away from ``h`` (1 when no standing opponent faces it)."""
        key = (p.id, h, k, removed)
        cached = self._leave_cache.get(key)
        if cached is not None:
            return cached
        opps = self.facing(h, p.side, mates=False, removed=removed)
        if not opps:
            value = 1.0
        else:
            mates = len(self.facing(h, p.side, mates=True, exclude=p.id))
            need = max(o.tackle for o in opps) - 2 + (len(opps) - 1) - mates
            value = self.p(p.dodge, need, k)
        self._leave_cache[key] = value
        return value

    def pickup_need(self, p: Player, h: Hex) -> int:
        return 1 + len(self.facing(h, p.side, mates=False)) - len(self.facing(h, p.side, mates=True, exclude=p.id))

    # -- where a player may walk -------------------------------------------------------------
    def walkable(self, y: Hex, p: Player, *, ball_ok: bool, goal_ok: bool) -> bool:
        info = self.fld.get(y)
        if info is None or info.edge_line:
            return False
        if info.goal is not None and not (goal_ok and y == self.fld.goals[other_side(p.side)]):
            return False
        o = self.occ.get(y)
        if o is not None and o.id != p.id:
            return False
        if y == self.loose and not ball_ok:
            return False
        return True

    def reach(self, p: Player, start: Hex, budget: int, *, k: int = 0, ball_ok: bool = False,
              goal_ok: bool = False, removed: frozenset[str] = frozenset()) -> dict[Hex, tuple[float, tuple[Hex, ...]]]:
        """Every hex ``p`` can walk to from ``start`` in at most ``budget`` paces, with the
        likeliest path there (the product of its Disengage chances). The loose ball's hex and
        the goal end a path; a path never enters the outer line, nor a goal without the ball."""
        key = (p.id, start, budget, k, ball_ok, goal_ok, removed)
        cached = self._reach_cache.get(key)
        if cached is None:
            cached = self._reach_cache[key] = self._reach(p, start, budget, k, ball_ok, goal_ok, removed)
        return cached

    def _reach(self, p: Player, start: Hex, budget: int, k: int, ball_ok: bool, goal_ok: bool,
               removed: frozenset[str]) -> dict[Hex, tuple[float, tuple[Hex, ...]]]:
        open_ = _open_hexes(self.fld)
        occ, loose, pid = self.occ, self.loose, p.id
        goal = self.fld.goals[other_side(p.side)] if goal_ok else None
        best: dict[Hex, tuple[float, tuple[Hex, ...]]] = {start: (1.0, ())}
        # Each layer extends exactly the paths one pace shorter (kept as they were found, so a
        # hex improved later in the same layer cannot lengthen a path past the budget).
        frontier: dict[Hex, tuple[float, tuple[Hex, ...]]] = {start: (1.0, ())}
        for _ in range(max(0, budget)):
            nxt: dict[Hex, tuple[float, tuple[Hex, ...]]] = {}
            for x, (pr, path) in frontier.items():
                if x != start and (x == loose or x == goal):
                    continue
                q = pr * self.leave(p, x, k, removed)
                if q <= 0.0:
                    continue
                for y in _nb(x):
                    if y in open_:
                        o = occ.get(y)
                        if (o is not None and o.id != pid) or (y == loose and not ball_ok):
                            continue
                    elif y != goal or y in occ:
                        continue
                    cur = best.get(y)
                    if cur is None or q > cur[0] + 1e-9:
                        best[y] = nxt[y] = (q, path + (y,))
            frontier = nxt
            if not frontier:
                break
        return best

    # -- danger ------------------------------------------------------------------------------
    def _attackers(self) -> list[tuple[Player, Hex, int, float]]:
        """The opponents who may act next: (player, hex, paces available, chance to get away)."""
        if self._attackers_cache is None:
            out = []
            for o in self.next_opps:
                if o.hex is None:
                    continue
                avail = o.jog
                if o.status is not Status.STANDING:
                    avail -= stand_cost(self.state, o)
                    if avail < 0:
                        continue
                go = self.leave(o, o.hex) if o.status is Status.STANDING else 1.0
                out.append((o, o.hex, avail, go))
            self._attackers_cache = out
        return self._attackers_cache

    def threat(self, target: Player, h: Hex, facing: Direction | None, *, carrying: bool,
               removed: frozenset[str] = frozenset()) -> float:
        """Chance the opponents' next action knocks ``target`` (standing at ``h``) off his feet
        or off the field: the best single try among the opponents who may act next."""
        key = (target.id, h, facing, carrying, removed)
        cached = self._threat_cache.get(key)
        if cached is not None:
            return cached
        attackers = [t for t in self._attackers() if t[0].id not in removed and t[0].id != target.id
                     and _dist(t[1], h) - 1 <= t[2]]
        best = 0.0
        if attackers:
            front = set(front_hexes(h, facing)) if facing is not None else set(_nb(h))
            free: list[tuple[Hex, bool, bool]] = []  # hex, in front, a shove from it ejects
            for n in _nb(h):
                info = self.fld.get(n)
                if info is None or info.edge_line or info.goal is not None:
                    continue
                o = self.occ.get(n)
                if o is not None and o.id != target.id and o.side == target.side:
                    continue
                dirn = direction_between(n, h)
                beyond = h.neighbour(dirn) if dirn is not None else None
                binfo = self.fld.get(beyond) if beyond is not None else None
                eject = binfo is not None and binfo.edge_line and beyond not in self.occ
                free.append((n, n in front, eject))
            for o, oh, avail, go in attackers:
                front_steps = rear_steps = eject_front = eject_rear = 99
                for a, in_front, eject in free:
                    occupant = self.occ.get(a)
                    if occupant is not None and occupant.id != o.id:
                        continue
                    d = _dist(oh, a)
                    if in_front:
                        front_steps = min(front_steps, d)
                        if eject:
                            eject_front = min(eject_front, d)
                    else:
                        rear_steps = min(rear_steps, d)
                        if eject:
                            eject_rear = min(eject_rear, d)
                steps = min(front_steps, rear_steps)
                if steps > avail:
                    continue
                rear = 1 if rear_steps <= avail else 0
                if steps == 0 or o.status is not Status.STANDING:
                    go = 1.0
                need = target.dodge - 2 + (0 if carrying else 1) - rear
                pt = self.p(o.tackle, need)
                if o.might < target.might:
                    pt *= self.p(o.might, target.might - 2 - rear)
                # A shove into the outer line sends the target off (a carrier is ejected).
                ps = 0.0
                if eject_rear <= avail:
                    ps = self.p(o.might, target.might - 3)
                elif eject_front <= avail:
                    ps = self.p(o.might, target.might - 2)
                best = max(best, go * max(pt, ps))
        self._threat_cache[key] = best
        return best

    def best_facing(self, p: Player, h: Hex) -> Direction:
        """Face the nearest opponent who could come for him (else the goal he attacks)."""
        key = (p.side, h)
        cached = self._facing_cache.get(key)
        if cached is None:
            cached = self._facing_cache[key] = self._best_facing(p, h)
        return cached

    def _best_facing(self, p: Player, h: Hex) -> Direction:
        foes = [o for o in self.next_opps if o.hex is not None and o.hex != h]
        if foes:
            o = min(foes, key=lambda o: (_dist(o.hex, h), o.id))  # type: ignore[arg-type]
            return _toward(h, o.hex)  # type: ignore[arg-type]
        goal = self.fld.goals[other_side(p.side)]
        return _toward(h, goal, p.facing or Direction.E)

    # -- the ball carrier's prospects --------------------------------------------------------
    def hold_value(self, holder: Player, h: Hex, facing: Direction | None, *, acts_next: bool,
                   removed: frozenset[str] = frozenset()) -> float:
        """How good it is that ``holder`` keeps the ball at ``h`` facing ``facing``: a rough
        chance of scoring next. He keeps it unless the next opponent's best hit on him lands
        (twice over if he may not act next); kept, it is worth more the fewer actions of Jog he
        needs to the goal and the likelier he gets away from his hex; lost, it is worth more the
        farther from our own goal it happens."""
        kept = self.hold_bound(holder, h, acts_next=acts_next)
        if kept >= 1.0:
            return 1.0
        t = self.w.threat * self.threat(holder, h, facing, carrying=True, removed=removed)
        safe = (1 - t) * (1 - (0 if acts_next else 0.5 * t))
        kept *= 0.7 + 0.3 * self.leave(holder, h, removed=removed)
        return safe * kept + (1 - safe) * self.lost_value(holder, h)

    def hold_bound(self, holder: Player, h: Hex, *, acts_next: bool) -> float:
        """The value of keeping the ball at ``h`` in no danger: an upper bound of
        ``hold_value``, cheap to compute."""
        d = _dist(h, self.fld.goals[other_side(holder.side)])
        if d == 0:
            return 1.0
        w = self.w
        return w.held + (1 - w.held) * w.gamma ** (d / max(1, holder.jog) + (0 if acts_next else 1))

    def lost_value(self, holder: Player, h: Hex) -> float:
        """The value of losing the ball at ``h``: worse the nearer our own goal."""
        return self.w.dropped * min(1.0, _dist(h, self.fld.goals[holder.side]) / 12)

    def pass_chance(self, thrower: Player, origin: Hex, receiver: Player, k: int) -> float:
        """Chance a short throw from ``origin`` ends in ``receiver``'s hands."""
        key = (thrower.id, origin, receiver.id, k)
        cached = self._pass_cache.get(key)
        if cached is None:
            cached = self._pass_cache[key] = self._pass_chance(thrower, origin, receiver, k)
        return cached

    def throw_need(self, thrower: Player, origin: Hex, dist: int) -> int:
        opps = len(self.facing(origin, thrower.side, mates=False))
        mates = len(self.facing(origin, thrower.side, mates=True, exclude=thrower.id))
        return 1 + opps - mates + (2 if dist * 2 > SHORT_THROW else 0)

    def throw_bound(self, thrower: Player, origin: Hex, target: Hex, k: int) -> float:
        """The Throw's own chance: an upper bound of the pass's, cheap to compute."""
        dist = _dist(origin, target)
        return self.p(thrower.skill, self.throw_need(thrower, origin, dist), k)

    def _pass_chance(self, thrower: Player, origin: Hex, receiver: Player, k: int) -> float:
        target = receiver.hex
        assert target is not None
        dist = distance(origin, target)
        if not 1 <= dist <= SHORT_THROW:
            return 0.0
        for h in line(origin, target)[1:]:
            info = self.fld.get(h)
            if info is None or info.white_line:
                return 0.0
        success, _, exact = self.pf(thrower.skill, self.throw_need(thrower, origin, dist), k)
        if dist == 1:
            caught = success
        else:
            cn = 2 + len(self.facing(target, receiver.side, mates=False)) - len(
                self.facing(target, receiver.side, mates=True, exclude=receiver.id))
            caught = (success - exact) + exact * self.p(receiver.skill, cn, k)
        return caught * (1 - self.intercept_risk(thrower, origin, target))

    def intercept_risk(self, thrower: Player, origin: Hex, target: Hex) -> float:
        """The best Intercept chance of an opponent the passing string would touch."""
        dist = distance(origin, target)
        pa, pb = origin.center(), target.center()
        risk = 0.0
        for h, o in self.occ.items():
            if o.side == thrower.side or o.status is not Status.STANDING or h in (origin, target):
                continue
            if distance(h, origin) + distance(h, target) > dist + 2 or not segment_touches_hex(pa, pb, h):
                continue
            need = 2 + len(self.facing(h, o.side, mates=False)) - len(self.facing(h, o.side, mates=True, exclude=o.id))
            risk = max(risk, self.p(o.skill, need))
        return risk


def _need_tackle(b: _Board, attacker: Player, a: Hex, target: Player,
                 removed: frozenset[str] = frozenset()) -> tuple[int, int]:
    """The (Impact, Tackle) needs of ``attacker`` hitting ``target`` from hex ``a``."""
    assert target.hex is not None and target.facing is not None
    helpers = [o for o in b.facing(target.hex, attacker.side, mates=True, exclude=attacker.id, removed=removed)
               if o.hex != a]
    others = [o for o in b.facing(a, attacker.side, mates=False, removed=removed) if o.id != target.id]
    rear = 0 if is_in_front(target.hex, target.facing, a) else 1
    mods = -len(helpers) + len(others) - rear
    holding = b.state.ball.carrier == target.id
    return target.might - 2 + mods, target.dodge - 2 + mods + (0 if holding else 1)


@dataclass
class AICoach:
    """A heuristic Elfball coach that uses the exact odds. See the module docstring."""

    rng: random.Random | None = None
    max_commands_per_action: int = MAX_COMMANDS_PER_ACTION
    weights: Weights = field(default_factory=Weights)
    #: "easy": the heuristic alone (basic moves and challenges, cheers, kegs, Replacements);
    #: "hard": it also uses every Advanced option (``engine.ai_advanced``) and searches the
    #: turn's choice, the carrier's commands and the commands by a loose ball by sampling the
    #: dice (``engine.ai_search``).
    level: str = "easy"
    #: Search the turn's choice (``engine.ai_search``): None for the level's default (hard only).
    search: bool | None = None
    search_settings: SearchSettings = field(default_factory=lambda: _default_settings())
    #: Seeds the search's dice samples (with the position), so a match repeats exactly.
    seed: int = 0
    #: Decisions whose plan the engine refused (or whose planning failed), replaced by a safe
    #: legal command; ``last_error`` keeps the last planning failure. Both are for tests.
    fallbacks: int = field(default=0, init=False)
    last_error: str | None = field(default=None, init=False)
    _action_key: tuple | None = field(default=None, init=False, repr=False)
    _action_count: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown AI level {self.level!r}: one of {', '.join(LEVELS)}")

    @property
    def searching(self) -> bool:
        return self.level == "hard" if self.search is None else self.search

    @property
    def advanced(self) -> bool:
        """Does this coach use the Advanced options (abilities, support)?"""
        return self.level != "easy"

    # -- the front door ----------------------------------------------------------------------
    def choose(self, state: MatchState, side: Side, field: Field | None = None) -> C.Command:
        """The command ``side``'s coach gives now. Always legal (checked before returning)."""
        fld = field or standard_field()
        pend = pending(state)
        if pend.side != side:
            raise ValueError(f"{side} has no decision to make now ({pend.kind} is for {pend.side})")
        try:
            cmd = self._decide(state, side, fld, pend.kind, pend.question)
        except Exception as exc:  # a planning bug must not stop a match: fall back, and say so
            cmd, self.last_error = None, f"{type(exc).__name__}: {exc}"
        if cmd is None or not self._ok(state, cmd, side, fld):
            self.fallbacks += 1
            cmd = self._fallback(state, side, fld, pend.default)
        if state.phase is Phase.ACTION and state.in_progress is None:
            self._count(state)
        return cmd

    def _fallback(self, state: MatchState, side: Side, fld: Field, default: tuple[C.Command, ...]) -> C.Command:
        """A safe legal command when the plan was refused: the pending default, else the end
        of the action, else the first legal command there is."""
        for candidate in (*default[:1], C.EndAction(), C.AutoSetup(), C.StartTest()):
            if self._ok(state, candidate, side, fld):
                return candidate
        from .legal import legal_commands

        for c in legal_commands(state, side, fld):
            if not isinstance(c, C.Concede):
                return c
        return C.Concede()

    _ok = staticmethod(is_legal)  # (state, cmd, side, field): the engine's own check

    def _same_action(self, state: MatchState) -> bool:
        """Is this the action of our previous command (one command later)?"""
        key = (state.test, state.turn_side, state.action.player if state.action else None)
        last = self._action_key
        return last is not None and last[:3] == key and state.seq - last[3] <= 1

    def _count(self, state: MatchState) -> None:
        self._action_count = self._action_count + 1 if self._same_action(state) else 1
        self._action_key = (state.test, state.turn_side, state.action.player if state.action else None, state.seq)

    def _commands_so_far(self, state: MatchState) -> int:
        return self._action_count if self._same_action(state) else 0

    def _decide(self, state: MatchState, side: Side, fld: Field, kind: str, q: dict | None) -> C.Command | None:
        if q is not None:  # every question; the kinds it has no policy for get their default
            return C.Answer(self._answer(state, side, fld, q))
        if self.advanced and kind in ("setup", "test_over", "turn"):
            from .ai_advanced import potion

            drink = potion(state, side, fld)
            if drink is not None:
                return drink
        if kind == "setup":
            on = state.on_field(side)
            return C.SetupDone() if on and self._ok(state, C.SetupDone(), side, fld) else C.AutoSetup()
        if kind == "test_over":
            return C.StartTest()
        b = _Board(state, side, fld, self.weights)
        if kind == "faceoff":
            return self._faceoff(b)
        if kind == "turn":
            return self._turn(b)
        if kind == "action":
            if self._commands_so_far(state) >= self.max_commands_per_action:
                return C.EndAction()
            return self._action(b)
        return None

    # -- questions ---------------------------------------------------------------------------
    def _answer(self, state: MatchState, side: Side, fld: Field, q: dict) -> object:
        kind = q["kind"]
        if kind == "reroll":
            counters = state.momentum if state.momentum_side == side else 0
            return self._reroll(q, counters, state.options.star2)
        if kind == "force_reroll":
            return self._force_reroll(state, q)
        if kind == "ability_reroll":
            return self._ability_reroll(q)
        if kind == "interceptor":
            return self._interceptor(state, side, fld, q)
        if kind == "catch":
            return self._catch(state, side, fld, q)
        if kind == "keg":
            return "use"  # asked only when it helps, and the Barrels are back next Test
        return q.get("default")

    @staticmethod
    def _roll(q: dict):  # type: ignore[no-untyped-def]
        from .dice import ChallengeRoll

        return ChallengeRoll.from_dict(q["roll"])

    def _reroll(self, q: dict, counters: int, star2: bool) -> tuple[int, ...]:
        """Own roll: while it fails and is not flopped, replace one X (else one blank) at a
        time, so each new die is seen before the next counter goes, and only if the counters
        can still turn it (by the exact odds of the same policy). A roll that succeeds is
        kept. An Injury roll of ours is pushed until it keeps the player on the field."""
        roll = self._roll(q)
        eligible = list(q["eligible"])
        if not eligible or roll.flopped:
            return ()
        faces = {i: roll.dice[i].face.symbol for i in eligible}
        xs = [i for i in eligible if faces[i] == "X"]
        blanks = [i for i in eligible if faces[i] == "-"]
        if q.get("challenge") == "injury":
            if roll.net >= 4:
                return ()
        elif roll.succeeded:
            return ()
        elif _rescue(roll.net, roll.need.value, len(xs), len(blanks), counters, star2) < 0.05:
            return ()  # the counters cannot turn it: keep them
        for picks in (xs, blanks):
            if picks:
                return (picks[0],)
        return ()

    def _ability_reroll(self, q: dict) -> tuple[int, ...]:
        """A free re-roll (Agile, Buff...): replace an X, else a blank, of a roll that fails or
        flops (an ability may rescue a flop), or of an Injury roll that would take him off."""
        roll = self._roll(q)
        if q.get("challenge") == "injury":
            if roll.net >= 4 and not roll.flopped:
                return ()
        elif roll.succeeded:
            return ()
        for face in ("X", "-"):
            picks = [i for i in q["eligible"] if roll.dice[i].face.symbol == face]
            if picks:
                return (picks[0],)
        return ()

    def _force_reroll(self, state: MatchState, q: dict) -> tuple[int, ...]:
        """An opponent's roll in our action: strike successes of a good Intercept or Catch (and
        of an Injury roll that would leave him on the field)."""
        roll = self._roll(q)
        eligible = list(q["eligible"])
        good = [i for i in eligible if roll.dice[i].face.symbol in ("O", "*")]
        if not good:
            return ()
        challenge = q.get("challenge")
        if challenge in ("intercept", "catch", "pickup"):
            if not roll.succeeded:
                return ()
            n = min(q["max"], len(good), roll.net - roll.need.value + 1)
            return tuple(good[: max(1, n)])
        if challenge == "injury" and roll.net >= 2 and not roll.flopped:
            action = state.action
            if action is not None and (action.jog_left == 0 or action.normal_over):
                return tuple(good[: q["max"]])
        return ()

    def _interceptor(self, state: MatchState, side: Side, fld: Field, q: dict) -> str | None:
        b = _Board(state, side, fld, self.weights)
        best, best_p = None, 0.0
        for pid in q["options"]:
            if pid is None:
                continue
            p = state.players[pid]
            assert p.hex is not None
            need = 2 + len(b.facing(p.hex, side, mates=False)) - len(b.facing(p.hex, side, mates=True, exclude=pid))
            s, flop, _ = b.pf(p.skill, need)
            score = s - 0.25 * flop
            if score > best_p + 1e-12:
                best, best_p = pid, score
        return best if best_p > 0.02 else None

    def _catch(self, state: MatchState, side: Side, fld: Field, q: dict) -> str:
        p = state.players[q["player"]]
        if p.hex is None:
            return "catch"
        b = _Board(state, side, fld, self.weights)
        need = 2 + len(b.facing(p.hex, side, mates=False)) - len(b.facing(p.hex, side, mates=True, exclude=p.id))
        k = b.k if state.turn_side == side else 0
        s, flop, _ = b.pf(p.skill, need, k)
        return "catch" if s >= 0.05 or s >= flop else "decline"

    # -- face-off ----------------------------------------------------------------------------
    def _faceoff(self, b: _Board) -> C.Command:
        fld, side = b.fld, b.side
        (mine_hex,) = fld.setup_hexes(side, "faceoff")
        (theirs_hex,) = fld.setup_hexes(b.opp, "faceoff")
        me, them = b.occ.get(mine_hex), b.occ.get(theirs_hex)
        if me is None:
            return C.FaceoffPickup()
        if b.state.options.simple_faceoff:
            return self._simple_faceoff(b, mine_hex, theirs_hex)
        spot = fld.ball_spot
        need = b.pickup_need(me, spot)
        p_pick = b.p(me.skill, need, b.k)
        best: C.Command = C.FaceoffPickup()
        best_v = p_pick + (1 - p_pick) * 0.3
        if them is None or them.status is not Status.STANDING:
            return best
        interior = [h for h in fld.circle_hexes("centre") if h != spot and h not in b.occ]
        paths: list[tuple[Hex, ...]] = [()]
        paths += [(a,) for a in interior if distance(a, mine_hex) == 1]
        paths += [(a, c) for a in interior if distance(a, mine_hex) == 1 for c in interior
                  if c != a and distance(a, c) == 1]
        after = b.p(me.skill, 1, 0)  # the Pick-up of the first action, nobody facing the ball
        for path in paths:
            end = path[-1] if path else mine_hex
            if distance(end, theirs_hex) != 1:
                continue
            i_need, t_need = _need_tackle(b, me, end, them)
            knock = b.p(me.tackle, t_need, b.k)
            if me.might < them.might:
                knock *= b.p(me.might, i_need, b.k)
            v = knock * (0.15 + 0.85 * after) + (1 - knock) * 0.5 * p_pick
            if v > best_v + 1e-9:
                best, best_v = C.FaceoffContact(path, "tackle"), v
        return best

    def _simple_faceoff(self, b: _Board, mine_hex: Hex, theirs_hex: Hex) -> C.Command:
        """The simplified face-off: the ball when he may take it, else the knock-down from the
        first path that reaches the opponent."""
        from .faceoff import simple_choices

        if "pickup" in simple_choices(b.state, b.fld):
            return C.FaceoffPickup()
        interior = [h for h in b.fld.circle_hexes("centre") if h != b.fld.ball_spot and h not in b.occ]
        paths: list[tuple[Hex, ...]] = [()] + [(a,) for a in interior if distance(a, mine_hex) == 1]
        paths += [(a, c) for a in interior if distance(a, mine_hex) == 1 for c in interior if c != a and distance(a, c) == 1]
        for path in paths:
            if distance(path[-1] if path else mine_hex, theirs_hex) == 1:
                return C.FaceoffContact(path, "tackle")
        return C.FaceoffPickup()

    # -- choosing who acts -------------------------------------------------------------------
    def _turn(self, b: _Board) -> C.Command:
        from .turns import eligible_actors

        st = b.state
        actors = eligible_actors(st, b.side)
        plans: list[tuple[float, str, _Plan]] = []
        for p in self._candidates(b, actors):
            plan = self._player_plan(b, p, None)
            if plan is not None:
                plans.append((plan.value, p.id, plan))
        carrier = b.carrier
        if (len(plans) == 1 and carrier is not None and plans[0][1] == carrier.id
                and isinstance(plans[0][2].command, C.EndAction) and len(actors) > 1):
            # The carrier would only stand there: a team-mate acts instead, and the carrier
            # keeps his turn for the next action.
            plans = []
            for p in actors:
                if p.id != carrier.id:
                    plan = self._player_plan(b, p, None)
                    if plan is not None:
                        plans.append((plan.value, p.id, plan))
        plans.sort(key=lambda t: (-t[0], t[1]))
        repl = self._replacement(b)
        if repl is not None:
            short = 6 - len(st.on_field(b.side))
            quiet = not plans or plans[0][2].note in _QUIET
            if quiet and (short >= 2 or not plans or plans[0][2].note in ("support", "stay")):
                return repl
        if not plans:
            return C.StartAction(actors[0].id) if actors else (repl or C.EndAction())
        top = [t for t in plans if t[0] >= plans[0][0] - 1e-12]
        pick = self.rng.choice(top) if self.rng is not None and len(top) > 1 else plans[0]
        if self.advanced:
            from .ai_advanced import out_of_sequence, wizard

            extra = out_of_sequence(self, b, plans) or wizard(self, b, pick[2])
            if extra is not None:
                return extra
        if self.searching and len(actors) > 1:
            return C.StartAction(self._search_actor(b, actors, plans, pick[1]))
        return C.StartAction(pick[1])

    def _search_actor(self, b: _Board, actors: list[Player], plans: list[tuple[float, str, _Plan]],
                      pick: str) -> str:
        """The hard level: the heuristic's pick and its next best players (every player who may
        act is planned for) played out by sampling (``engine.ai_search``)."""
        from .ai_search import best_actor

        planned = {pid for _, pid, _ in plans}
        more = list(plans)
        for p in actors:
            if p.id not in planned:
                plan = self._player_plan(b, p, None)
                if plan is not None:
                    more.append((plan.value, p.id, plan))
        more.sort(key=lambda t: (-t[0], t[1]))
        ranked = [pick] + [pid for _, pid, _ in more if pid != pick]
        policy = self._rollout_policy(b.side)

        return best_actor(b.state, b.side, b.fld, ranked, self.seed, policy, self.search_settings)

    def _rollout_policy(self, side: Side) -> Callable[[MatchState, Side, Field], C.Command]:
        """The search's samples: our commands by the heuristic of our level (no search), the
        opponents' by the level ``search_settings.opponent`` (the easy heuristic by default)."""
        mine, theirs = self.level, self.search_settings.opponent

        def policy(state: MatchState, s: Side, fld: Field) -> C.Command:
            return AICoach(level=mine if s == side else theirs, search=False).choose(state, s, fld)

        return policy

    @staticmethod
    def _candidates(b: _Board, actors: list[Player]) -> list[Player]:
        """The players worth planning for: the carrier when he may act; else those who can get
        to the ball (or the opposing carrier) this action, or failing that the two nearest."""
        carrier = b.carrier
        if carrier is not None and carrier.side == b.side:
            return [carrier] if carrier in actors else actors
        target = b.loose if b.loose is not None else (carrier.hex if carrier is not None else None)
        if target is None:
            return actors
        ranked = sorted(actors, key=lambda p: (_dist(p.hex, target), p.id))  # type: ignore[arg-type]
        reach_to = 0 if b.loose is not None else 1  # onto the ball, or next to the carrier
        near = [p for p in ranked if _dist(p.hex, target) - reach_to <= p.jog]  # type: ignore[arg-type]
        return near or ranked[:2]

    def _replacement(self, b: _Board) -> C.Command | None:
        """A Replacement: the best Bench player, on the free entry hex nearest the ball."""
        st, side, fld = b.state, b.side, b.fld
        if len(st.on_field(side)) >= 6:
            return None
        bench = [p for p in st.team_players(side) if p.location is Location.BENCH]
        free = [h for h in fld.replacement_hexes(side) if h not in b.occ and h != b.loose]
        if not bench or not free:
            return None
        p = max(bench, key=lambda p: (p.tackle + p.jog + p.might + p.skill, -p.number))
        ball = b.ball or fld.ball_spot
        h = min(free, key=lambda h: (_dist(h, ball), h.r, h.q))
        return C.Replace(p.id, h, _toward(h, ball))

    # -- one player's plan -------------------------------------------------------------------
    def _budget(self, b: _Board, p: Player, a: ActionState | None) -> int:
        """Paces ``p`` can still walk this action (after standing up, if he is Down)."""
        if a is None:
            jog = p.jog
            surcharge = False
        else:
            if a.normal_over or a.long_throw:
                return 0
            jog, surcharge = a.jog_left, a.surcharge
            if a.dash != "none":
                return 0
        if p.status is not Status.STANDING:
            if (a is not None and a.stood_up) or stand_refusal(b.state):
                return -1
            jog -= stand_cost(b.state, p)
        return jog - (1 if surcharge else 0)

    def _player_plan(self, b: _Board, p: Player, a: ActionState | None) -> _Plan | None:
        """The best thing ``p`` can do with his (next) action, and its value."""
        budget = self._budget(b, p, a)
        if budget < 0:
            return None
        can_challenge = a is None or _challenge_ok(a)
        if b.carrier is not None and b.carrier.id == p.id:
            return self._carrier_plan(b, p, a, budget)
        if b.loose is not None:
            return self._loose_plan(b, p, a, budget, can_challenge)
        if b.carrier is not None and b.carrier.side != b.side:
            return self._defend_plan(b, p, a, budget, can_challenge)
        return self._support_plan(b, p, a, budget, can_challenge)

    # The first command of a plan, once the player acts: stand, else the plan's own command.
    def _action(self, b: _Board) -> C.Command:
        st = b.state
        a = st.action
        p = st.acting_player
        assert a is not None and p is not None and p.hex is not None
        if st.teams[b.side].available("cheerleaders") and self._ok(st, C.Cheer(), b.side, b.fld):
            return C.Cheer()  # once per Test each: a free counter at the start of an action
        if p.status is not Status.STANDING:
            if not a.stood_up and not a.normal_over and stand_cost(st, p) <= a.jog_left and not stand_refusal(st):
                face = _toward(p.hex, b.ball) if b.ball and b.ball != p.hex else None
                return C.StandUp(face)
            return C.EndAction()
        plan = self._player_plan(b, p, a)
        cmd = C.EndAction() if plan is None else plan.command
        if self.advanced:
            from .ai_advanced import refine_action

            cmd = refine_action(b, p, cmd)
        if self.searching and self.search_settings.commands > 1 and plan is not None and plan.note != "score":
            role = self._role(b, p)
            if role in self.search_settings.roles:
                cmd = self._search_command(b, p, a, cmd, role)
        return cmd

    @staticmethod
    def _role(b: _Board, p: Player) -> str:
        if b.carrier is None:
            return "loose"
        if b.carrier.id == p.id:
            return "carrier"
        return "support" if b.carrier.side == b.side else "defend"

    def _search_command(self, b: _Board, p: Player, a: ActionState, cmd: C.Command, role: str) -> C.Command:
        """The hard level: the command of ``role`` (the carrier, or by a loose ball) against its
        alternatives, each played out by sampling (``engine.ai_search``)."""
        from .ai_search import best_command

        cands = [cmd]
        alternatives = {"carrier": self._carrier_alternatives, "support": self._support_alternatives,
                        "defend": self._defend_alternatives, "loose": self._loose_alternatives}[role]
        for alt in alternatives(b, p, a):
            if alt not in cands and self._ok(b.state, alt, b.side, b.fld):
                cands.append(alt)
            if len(cands) >= self.search_settings.commands:
                break
        if len(cands) <= 1:
            return cmd
        policy = self._rollout_policy(b.side)

        return best_command(b.state, b.side, b.fld, cands, self.seed, policy, self.search_settings)

    def _support_alternatives(self, b: _Board, p: Player, a: ActionState) -> list[C.Command]:
        """Other commands for a team-mate of our carrier: stand guard next to him (facing the
        nearest opponent), nearest first, or stay put."""
        carrier = b.carrier
        assert carrier is not None and carrier.hex is not None and p.hex is not None
        budget = self._budget(b, p, a)
        out: list[tuple[float, C.Command]] = []
        if budget >= 0:
            reach = b.reach(p, p.hex, budget, k=b.k)
            for e in _nb(carrier.hex):
                if e in reach:
                    pr, path = reach[e]
                    out.append((pr - 0.01 * len(path), self._walk(path, b.best_facing(p, e), a)))
        out.sort(key=lambda t: -t[0])
        return [c for _, c in out] + [C.EndAction(b.best_facing(p, p.hex))]

    def _defend_alternatives(self, b: _Board, p: Player, a: ActionState) -> list[C.Command]:
        """Other commands against their carrier: go for him from another hex (nearest first),
        hit him from here, or block between him and our goal."""
        carrier = b.carrier
        assert carrier is not None and carrier.hex is not None and p.hex is not None
        out: list[C.Command] = []
        if _challenge_ok(a):
            if _dist(p.hex, carrier.hex) == 1:
                out += [C.Tackle(carrier.id), C.Shove(carrier.id)]
            budget = self._budget(b, p, a)
            if budget >= 0:
                reach = b.reach(p, p.hex, budget, k=b.k)
                spots = sorted((-reach[e][0], len(reach[e][1]), e) for e in _nb(carrier.hex) if e in reach)
                out += [C.Move(reach[e][1]) for _, _, e in spots if reach[e][1]]
        return out

    def _loose_alternatives(self, b: _Board, p: Player, a: ActionState) -> list[C.Command]:
        """Other commands by a loose ball: onto it (the surest path), knock down or push away
        an opponent who faces it, stand next to it (the safest hexes first), or wait."""
        assert p.hex is not None and b.loose is not None
        ball = b.loose
        budget = self._budget(b, p, a)
        out: list[C.Command] = []
        if budget < 0:
            return out
        reach = b.reach(p, p.hex, _paces(a, budget), k=b.k, ball_ok=True)
        if ball in reach and reach[ball][1]:
            out.append(C.Move(reach[ball][1]))
        if _challenge_ok(a):
            out += [hit.command for hit in self._clearing_hits(b, p, a, budget)]
        beside = sorted((-pr * (1 - b.threat(p, e, _toward(e, ball), carrying=False)), len(path), e)
                        for e, (pr, path) in reach.items() if e != ball and _dist(e, ball) == 1 and path)
        out += [C.Move(reach[e][1], _toward(e, ball)) for _, _, e in beside[:2]]
        out.append(C.EndAction(_toward(p.hex, ball) if p.hex != ball else None))
        return out

    def _carrier_alternatives(self, b: _Board, p: Player, a: ActionState) -> list[C.Command]:
        """Other commands for the carrier, best first by the heuristic's own values: walk to
        another hex (facing the nearest threat), pass from where he stands, stay put."""
        assert p.hex is not None
        budget = self._budget(b, p, a)
        out: list[tuple[float, C.Command]] = []
        acts_next = len(b.state.on_field(b.side)) == 1
        if budget >= 0:
            reach = b.reach(p, p.hex, _paces(a, budget), k=b.k, goal_ok=True)
            lost = b.lost_value(p, p.hex)
            bounds = sorted(((pr * b.hold_bound(p, e, acts_next=acts_next) + (1 - pr) * lost, e)
                             for e, (pr, _) in reach.items() if e != b.goal), key=lambda t: (-t[0], t[1]))
            for _, e in bounds[:8]:
                pr, path = reach[e]
                face = b.best_facing(p, e)
                v = pr * b.hold_value(p, e, face, acts_next=acts_next) + (1 - pr) * lost
                out.append((v, self._walk(path, face, a)))
        if _challenge_ok(a):
            for m in b.state.on_field(b.side):
                if m.id != p.id and m.status is Status.STANDING and m.hex is not None and _dist(p.hex, m.hex) <= SHORT_THROW:
                    pc = b.pass_chance(p, p.hex, m, b.k)
                    if pc > 0.2:
                        out.append((pc * b.hold_value(m, m.hex, m.facing, acts_next=True), C.Throw(m.hex)))
        out.sort(key=lambda t: -t[0])
        return [c for _, c in out]

    # -- the carrier -------------------------------------------------------------------------
    def _carrier_plan(self, b: _Board, p: Player, a: ActionState | None, budget: int) -> _Plan:
        st = b.state
        assert p.hex is not None
        start = p.hex
        if start == b.goal:
            return _Plan(2.0, C.EndAction(), "score")
        acts_next = len(st.on_field(b.side)) == 1
        k = b.k
        dash_left = a is not None and a.dash == "granted"
        reach = b.reach(p, start, _paces(a, budget), k=k, goal_ok=True)
        if b.goal in reach:
            pr, path = reach[b.goal]
            if pr >= 0.5 or not path:
                return _Plan(1.0 + pr, self._walk(path, None, a), "score")
        can_challenge = a is None or _challenge_ok(a)
        dash_ok = k > 0 and not dash_left and (a is None or a.dash == "none")
        receivers = []
        if can_challenge:
            for m in st.on_field(b.side):
                if m.id != p.id and m.status is Status.STANDING and m.hex is not None:
                    receivers.append((b.hold_value(m, m.hex, m.facing, acts_next=True), m))
            receivers.sort(key=lambda t: (-t[0], t[1].id))
            receivers = receivers[:3]
        # Upper bounds first, so only promising hexes get the full (costlier) evaluation.
        lost = b.lost_value(p, start)
        scored = []
        for e, (pr, path) in reach.items():
            if e == b.goal:
                scored.append((1.0 + pr, e))
                continue
            ub = b.hold_bound(p, e, acts_next=acts_next)
            if dash_ok and _dist(e, b.goal) == 1 and budget - len(path) <= 0:
                ub = 1.0
            for rv, m in receivers:
                if _dist(e, m.hex) <= SHORT_THROW:  # type: ignore[arg-type]
                    ub = max(ub, rv)
                    break
            scored.append((pr * ub + (1 - pr) * lost, e))
        scored.sort(key=lambda t: (-t[0], t[1]))
        best: _Plan | None = None
        for ub, e in scored:
            if best is not None and ub <= best.value:
                break
            pr, path = reach[e]
            if e == b.goal:
                plan = _Plan(1.0 + pr, self._walk(path, None, a), "score")
                if best is None or plan.value > best.value:
                    best = plan
                continue
            floor = -1.0 if best is None else (best.value - (1 - pr) * lost) / pr
            face = b.best_facing(p, e)
            value = b.hold_value(p, e, face, acts_next=acts_next)
            cmd = self._walk(path, face, a)
            note = "carry"
            jog_after = budget - len(path)
            # The Dash into the goal from the last hex.
            if dash_ok and _dist(e, b.goal) == 1 and b.goal not in b.occ and jog_after <= 0:
                for c in range(1, k + 1):
                    pd = b.p(c, 1, k - c) * b.leave(p, e, k - c)
                    v = pd + (1 - pd) * b.lost_value(p, e)
                    if v > value:
                        value, note = v, "dash"
                        cmd = self._walk(path, None, a) if path else C.Dash(c)
            # A short pass to a better placed team-mate.
            if can_challenge and jog_after >= 0:
                for rv, m in receivers:
                    if rv <= max(value, floor) or _dist(e, m.hex) > SHORT_THROW:  # type: ignore[arg-type]
                        continue
                    miss = b.w.loose_sim * b.lost_value(m, m.hex) / b.w.dropped  # type: ignore[arg-type]
                    bound = b.throw_bound(p, e, m.hex, k)  # type: ignore[arg-type]
                    if bound * rv + (1 - bound) * miss <= max(value, floor):
                        continue
                    pc = b.pass_chance(p, e, m, k)
                    v = pc * rv + (1 - pc) * miss
                    if v > value:
                        value, note = v, "pass"
                        cmd = self._walk(path, None, a) if path else C.Throw(m.hex)  # type: ignore[arg-type]
            plan = _Plan(pr * value + (1 - pr) * lost, cmd, note)
            if best is None or plan.value > best.value:
                best = plan
        assert best is not None
        return best

    @staticmethod
    def _walk(path: tuple[Hex, ...], face: Direction | None, a: ActionState | None) -> C.Command:
        if not path:
            return C.EndAction(face)
        return C.Move(path, face)

    # -- the loose ball ----------------------------------------------------------------------
    def _loose_plan(self, b: _Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> _Plan:
        assert p.hex is not None and b.loose is not None
        ball = b.loose
        k = b.k
        start = p.hex
        reach = b.reach(p, start, _paces(a, budget), k=k, ball_ok=True)
        best = _Plan(0.0, C.EndAction(_toward(start, ball) if start != ball else None), "wait")
        if ball in reach:
            pr, path = reach[ball]
            need = b.pickup_need(p, ball)
            pp = b.p(p.skill, need, k)
            jog_after = budget - len(path)
            value = pr * pp * (0.55 + 0.04 * max(0, jog_after) - 0.01 * distance(ball, b.goal))
            best = _Plan(0.3 + value, C.Move(path), "pick up")
        # Otherwise close in: next to the ball, facing it, as near as possible.
        approach = _Plan(-1.0, best.command)
        scored = []
        for e, (pr, path) in reach.items():
            if e == ball:
                continue
            d = _dist(e, ball)
            v = 0.25 / (1 + d) + (0.03 if d == 1 else 0.0)
            scored.append((pr * v, v, e))
        scored.sort(key=lambda t: (-t[0], t[2]))
        for ub, v, e in scored:
            if ub <= approach.value:
                break
            pr, path = reach[e]
            face = _toward(e, ball)
            v = pr * (v - 0.05 * b.threat(p, e, face, carrying=False))
            if v > approach.value:
                approach = _Plan(v, self._walk(path, face, a), "approach")
        # Dash onto the ball when the Jog is spent and the ball is next to him.
        if (a is not None and a.dash == "none" and k > 0 and budget <= 0 and distance(start, ball) == 1
                and ball not in b.occ):
            need = b.pickup_need(p, ball)
            for c in range(1, k + 1):
                v = b.p(c, 1, k - c) * b.leave(p, start, k - c) * b.p(p.skill, need, k - c) * 0.55
                if 0.3 + v > best.value:
                    best = _Plan(0.3 + v, C.Dash(c), "dash to the ball")
        pick = best if best.note in ("pick up", "dash to the ball") else None
        chance = pick.value - 0.3 if pick is not None else 0.0
        if pick is not None and (chance >= 0.12 or pick.note == "dash to the ball"):
            return pick
        # Clear the ball: knock down (or push away) an opponent who faces its hex: he adds one
        # to our Pick-up and is about to try his own.
        clear: _Plan | None = None
        if can_challenge:
            for hit in self._clearing_hits(b, p, a, budget):
                if clear is None or hit.value > clear.value:
                    clear = hit
        if clear is not None and clear.value >= 0.05 and clear.value >= chance:
            return _Plan(0.3 + 0.5 * clear.value, clear.command, "clear the ball")
        near = _dist(start, ball) <= 1
        if pick is not None and chance > 0.02 and (near or approach.value <= 0):
            return pick  # a poor chance beats standing round the ball for ever
        if approach.value > 0:
            return _Plan(0.1 + approach.value * 0.5, approach.command, approach.note)
        return best

    def _clearing_hits(self, b: _Board, p: Player, a: ActionState | None, budget: int) -> list[_Plan]:
        """``p``'s best hit on each opponent who faces the loose ball (he adds one to our
        Pick-up and is about to try his own): a knock-down, or a Shove away from the ball."""
        assert b.loose is not None
        tackle_ok = not (a is not None and a.impact_tackle_used)
        hits = (self._hits(b, p, a, budget, o, tackle_ok, gain=0.5, away_from=b.loose)
                for o in b.facing(b.loose, p.side, mates=False))
        return [h for h in hits if h is not None]

    # -- they hold the ball ------------------------------------------------------------------
    def _defend_plan(self, b: _Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> _Plan:
        carrier = b.carrier
        assert carrier is not None and carrier.hex is not None and p.hex is not None
        k = b.k
        tackled = a is not None and a.impact_tackle_used
        hits = self._hits(b, p, a, budget, carrier, can_challenge and not tackled)
        if hits is not None and hits.value >= 0.08:
            return _Plan(0.5 + hits.value, hits.command, hits.note)
        # Block: stand between the carrier and our goal, facing him, close enough to hit next.
        reach = b.reach(p, p.hex, budget, k=k)
        cd = _dist(carrier.hex, b.own_goal)
        best = _Plan(-1.0, C.EndAction(_toward(p.hex, carrier.hex)), "hold")
        for e, (pr, path) in reach.items():
            de = _dist(e, carrier.hex)
            if de <= 1:
                continue
            face = _toward(e, carrier.hex)
            goal_side = _dist(e, b.own_goal) < cd
            v = 0.2 - 0.02 * max(0, de - 2) + (0.08 if goal_side else 0.0) - 0.02 * max(0, de - 1 - p.jog)
            v *= pr
            if v > best.value:
                best = _Plan(v, self._walk(path, face, a), "block")
        idle = isinstance(best.command, C.EndAction)
        if hits is not None and (hits.value > best.value or (idle and hits.value >= 0.02)):
            return _Plan(0.5 + hits.value, hits.command, hits.note)  # a long shot beats waiting
        return _Plan(0.1 + 0.5 * max(0.0, best.value), best.command, best.note)

    def _hits(self, b: _Board, p: Player, a: ActionState | None, budget: int, target: Player,
              tackle_ok: bool, *, gain: float = 1.0, away_from: Hex | None = None) -> _Plan | None:
        """The best way for ``p`` to knock ``target`` down (or off the field) this action.
        With ``away_from``, a Shove that pushes him out of that hex's neighbourhood counts too."""
        assert p.hex is not None and target.hex is not None
        if a is not None and not _challenge_ok(a):
            return None
        k = b.k
        if a is not None and a.dash in ("moved", "done"):
            return None
        reach = b.reach(p, p.hex, _paces(a, budget), k=k)
        best: _Plan | None = None
        for e in _nb(target.hex):
            if e not in reach:
                continue
            pr, path = reach[e]
            i_need, t_need = _need_tackle(b, p, e, target)
            impact = b.p(p.might, i_need, k) if p.might < target.might else 1.0
            options = []
            if tackle_ok:
                s, _, _ = b.pf(p.tackle, t_need, k)
                options.append((impact * s, "tackle"))
            dirn = direction_between(e, target.hex)
            beyond = target.hex.neighbour(dirn) if dirn is not None else None
            info = b.fld.get(beyond) if beyond is not None else None
            if info is not None and beyond not in b.occ and (info.edge_line or info.goal == target.side):
                options.append((b.p(p.might, i_need, k), "shove"))
            elif (away_from is not None and info is not None and beyond not in b.occ and beyond != away_from
                    and _dist(beyond, away_from) > 1):  # type: ignore[arg-type]
                options.append((0.8 * b.p(p.might, i_need, k), "shove"))
            for chance, how in options:
                v = pr * chance * gain
                if best is None or v > best.value:
                    cmd: C.Command
                    if path:
                        cmd = C.Move(path)
                    else:
                        cmd = C.Tackle(target.id) if how == "tackle" else C.Shove(target.id)
                    best = _Plan(v, cmd, how)
        # A Dash buys one more challenge when the Jog is spent.
        if (best is None and a is not None and a.dash == "none" and k > 0 and budget <= 0
                and distance(p.hex, target.hex) <= 2):
            return _Plan(0.05, C.Dash(min(k, 3)), "dash to hit")
        return best

    # -- we hold the ball, someone else acts ------------------------------------------------
    def _support_plan(self, b: _Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> _Plan:
        carrier = b.carrier
        assert carrier is not None and carrier.hex is not None and p.hex is not None
        k = b.k
        base = b.hold_value(carrier, carrier.hex, carrier.facing, acts_next=True)
        tackled = a is not None and a.impact_tackle_used
        best: _Plan | None = None
        # Hit whoever makes the carrier's life hardest: his threat, his Disengage.
        for o in b.state.on_field(b.opp):
            if o.status is not Status.STANDING or o.hex is None or _dist(o.hex, p.hex) > budget + 1:
                continue
            gain = b.hold_value(carrier, carrier.hex, carrier.facing, acts_next=True, removed=frozenset({o.id})) - base
            if gain <= 0.01:
                continue
            hit = self._hits(b, p, a, budget, o, can_challenge and not tackled, gain=gain)
            if hit is not None and (best is None or hit.value > best.value):
                best = hit
        # Or run to a receiving spot near the goal, in the attacking half, out of harm's way.
        reach = b.reach(p, p.hex, budget, k=k)
        spot = _Plan(-1.0, C.EndAction(b.best_facing(p, p.hex)), "stay")
        half = b.opp
        scored = []
        for e, (pr, path) in reach.items():
            dg = _dist(e, b.goal)
            v = 0.3 - 0.02 * dg
            if b.fld.info(e).half == half:
                v += 0.05
            if dg <= p.jog:
                v += 0.05
            dc = _dist(e, carrier.hex)
            if dc <= carrier.jog + SHORT_THROW:
                v += 0.03
            if dg < _dist(carrier.hex, b.goal) and 2 <= dc <= 4:
                v += 0.06  # ahead of the carrier: a blocker now, a receiver later
            scored.append((v * pr, v, e))
        scored.sort(key=lambda t: (-t[0], t[2]))
        for ub, v, e in scored:
            if ub <= spot.value:
                break
            pr, path = reach[e]
            face = b.best_facing(p, e)
            v = pr * (v - 0.15 * b.threat(p, e, face, carrying=True))
            if v > spot.value:
                spot = _Plan(v, self._walk(path, face, a), "support")
        spot_gain = 0.02 * max(0.0, spot.value)
        if best is not None and best.value > spot_gain:
            return _Plan(0.3 + best.value, best.command, best.note)
        return _Plan(0.3 + spot_gain, spot.command, spot.note)


_POTION_QUESTIONS = ("potion_ability", "potion_veteran", "potion_attribute")  # the default gains something


def _paces(a: ActionState | None, budget: int) -> int:
    """Paces a player may walk now: one after a granted Dash (its Dash move), else ``budget``."""
    return 1 if a is not None and a.dash == "granted" else budget


def _challenge_ok(a: ActionState) -> bool:
    from .actions import challenge_refusal

    return challenge_refusal(a) is None


# --- running matches -----------------------------------------------------------------------
@dataclass
class MatchSummary:
    """What one simulated match came to."""

    teams: tuple[str, str]  # team list ids (west, east)
    winner: str | None  # "west", "east", "draw", or None when the command cap ended it
    goals: tuple[int, int]
    #: Players of each side an Injury roll took off the field (``player_removed`` events whose
    #: reason starts "injured": the Infirmary, Recovery, or the Bench for the rest of the Test).
    injuries: tuple[int, int]
    commands: int
    capped: bool
    violations: list[str] = field(default_factory=list)


def make_ai(level: str = "hard", rng: random.Random | None = None, *, seed: int = 0) -> AICoach:
    """An AI coach of ``level`` ("easy" or "hard"); ValueError for any other level."""
    return AICoach(rng, level=level, seed=seed)


def _default_settings():  # type: ignore[no-untyped-def]
    from .ai_search import SearchSettings

    return SearchSettings()


class Coach(Protocol):
    """Anything that gives a side's commands: ``AICoach``, ``engine.fuzz.RandomCoach``..."""

    def choose(self, state: MatchState, side: Side, field: Field) -> C.Command: ...


def play_match(
    west: TeamList | str | TeamEntry,
    east: TeamList | str | TeamEntry,
    coaches: Mapping[Side, Coach],
    dice: DiceSource,
    *,
    goals_to_win: int = 1,
    max_commands: int = 3000,
    field: Field | None = None,
    check_invariants: bool = False,
    options: RuleOptions | None = None,
    on_command: Callable[[MatchState, Side, C.Command, list[Event]], None] | None = None,
) -> MatchSummary:
    """Play one match between two coaches (objects with ``choose(state, side, field)``).

    A team is a team list (its default roster) or a ``TeamEntry`` (an Advanced team with
    abilities and support); ``options`` (rule profiles, optional rules, the Advanced rules)
    replace ``goals_to_win``'s default options.
    Stops at the end of the match or after ``max_commands`` commands (then ``capped``).
    With ``check_invariants`` every position is checked (``engine.fuzz.invariant_violations``).
    """
    from .rosters import team_list

    def entry(team: TeamList | str | TeamEntry) -> TeamEntry:
        if isinstance(team, TeamEntry):
            return team
        tl = team_list(team)
        return TeamEntry(tl.name, default_roster(tl))

    fld = field or standard_field()
    we, ee = entry(west), entry(east)
    wl, el = we.roster.team, ee.roster.team
    res = new_match(we, ee, dice, options=options or RuleOptions(goals_to_win=goals_to_win), field=fld)
    state = res.state
    injuries = {"west": 0, "east": 0}
    violations: list[str] = []
    if check_invariants:
        from .fuzz import invariant_violations
    n = 0
    while state.phase is not Phase.MATCH_OVER and n < max_commands:
        side = pending(state).side
        assert side is not None
        cmd = coaches[side].choose(state, side, fld)
        res = apply(state, cmd, dice, by=side, field=fld)
        n += 1
        for ev in res.events:
            if isinstance(ev, PlayerRemoved) and ev.reason.startswith("injured"):
                injuries[state.players[ev.player].side] += 1
        state = res.state
        if check_invariants:
            violations += [f"after command {n} ({cmd.name} by {side}): {v}" for v in invariant_violations(state, fld)]
        if on_command is not None:
            on_command(state, side, cmd, res.events)
    over = state.phase is Phase.MATCH_OVER
    return MatchSummary(
        teams=(wl.id, el.id),
        winner=state.winner if over else None,
        goals=(state.teams["west"].score, state.teams["east"].score),
        injuries=(injuries["west"], injuries["east"]),
        commands=n,
        capped=not over,
        violations=violations,
    )
