"""What the AI coach knows about one position: the public ``Board`` and ``Plan`` types.

A ``Board`` is one decision's view of the position, seen from the side that decides: who stands
where, the ball, the goals, and the exact challenge odds (``engine.odds``) behind every estimate:
how likely a player gets away from a hex (Disengage), every hex he can walk to and the likeliest
path there (``reach``), how likely the opponents' next action knocks a player down (``threat``),
how good it is to hold the ball on a hex (``hold_value``) and how likely a short pass arrives
(``pass_chance``). Positions are judged by ``Weights``. The heuristic (``ai.heuristic``), the
judge (``ai.judge``) and the Advanced options (``ai.advanced``) all read the same board.

A ``Plan`` is what the heuristic would have a player do: its first command and its value.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache

from engine import (
    MAX_DICE,
    SHORT_THROW_MAX,
    Command,
    Direction,
    Field,
    Hex,
    MatchState,
    Player,
    Side,
    Status,
    direction_between,
    distance,
    front_hexes,
    is_in_front,
    line,
    odds,
    other_side,
    segment_touches_hex,
    stand_cost,
)

__all__ = ["Board", "Plan", "Weights", "chance", "hex_distance", "need_tackle", "neighbours", "toward"]


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


def hex_distance(a: Hex, b: Hex) -> int:
    """``engine.distance``, written out: the planner asks for it constantly."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` (memoised: the planner asks for them constantly)."""
    n = _NEIGHBOURS.get(h)
    if n is None:
        n = _NEIGHBOURS[h] = h.neighbours()
    return n


_VECTORS = tuple((d, d.vector) for d in Direction)


def toward(a: Hex, b: Hex, default: Direction = Direction.E) -> Direction:
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
def chance(dice: int, need: int, star2: bool, momentum: int) -> tuple[float, float, float]:
    """(success, flop, exact) of a challenge, with the Momentum policy of the odds module."""
    dice = max(0, min(dice, MAX_DICE))
    o = odds(dice, max(1, need), star2=star2, momentum=max(0, min(momentum, 6)))
    return o.success, o.flop, o.extra[0]


@dataclass(frozen=True)
class Plan:
    """A player's best plan for his action as the heuristic sees it: its first command, its
    value (in ``Weights``' terms, a rough chance of scoring next) and a note naming the kind of
    plan ("carry", "pass", "tackle", "block"...), which the coach and the Advanced options read."""

    value: float
    command: Command
    note: str = ""


class Board:
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
        return chance(dice, need, self.star2, k)[0]

    def pf(self, dice: int, need: int, k: int = 0) -> tuple[float, float, float]:
        return chance(dice, need, self.star2, k)

    # -- who faces whom ----------------------------------------------------------------------
    def facing(self, h: Hex, side: Side, *, mates: bool, exclude: str | None = None,
               removed: frozenset[str] = frozenset()) -> list[Player]:
        """Standing players adjacent to ``h`` who face it: ``side``'s team-mates or opponents."""
        out = []
        occ, front = self.occ, self.front
        for n in neighbours(h):
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
                for y in neighbours(x):
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
                     and hex_distance(t[1], h) - 1 <= t[2]]
        best = 0.0
        if attackers:
            front = set(front_hexes(h, facing)) if facing is not None else set(neighbours(h))
            free: list[tuple[Hex, bool, bool]] = []  # hex, in front, a shove from it ejects
            for n in neighbours(h):
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
                    d = hex_distance(oh, a)
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
            o = min(foes, key=lambda o: (hex_distance(o.hex, h), o.id))  # type: ignore[arg-type]  # foes were filtered to those on a hex
            return toward(h, o.hex)  # type: ignore[arg-type]  # foes were filtered to those on a hex
        goal = self.fld.goals[other_side(p.side)]
        return toward(h, goal, p.facing or Direction.E)

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
        d = hex_distance(h, self.fld.goals[other_side(holder.side)])
        if d == 0:
            return 1.0
        w = self.w
        return w.held + (1 - w.held) * w.gamma ** (d / max(1, holder.jog) + (0 if acts_next else 1))

    def lost_value(self, holder: Player, h: Hex) -> float:
        """The value of losing the ball at ``h``: worse the nearer our own goal."""
        return self.w.dropped * min(1.0, hex_distance(h, self.fld.goals[holder.side]) / 12)

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
        return 1 + opps - mates + (2 if dist * 2 > SHORT_THROW_MAX else 0)

    def throw_bound(self, thrower: Player, origin: Hex, target: Hex, k: int) -> float:
        """The Throw's own chance: an upper bound of the pass's, cheap to compute."""
        dist = hex_distance(origin, target)
        return self.p(thrower.skill, self.throw_need(thrower, origin, dist), k)

    def _pass_chance(self, thrower: Player, origin: Hex, receiver: Player, k: int) -> float:
        target = receiver.hex
        assert target is not None
        dist = distance(origin, target)
        if not 1 <= dist <= SHORT_THROW_MAX:
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


def need_tackle(b: Board, attacker: Player, a: Hex, target: Player,
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

