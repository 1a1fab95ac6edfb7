"""The AI coach's heuristic: each player's best plan, by the exact odds.

Every estimate comes from the ``Board`` (``ai.board``): the exact challenge odds and the same
needs the challenges compute (facing modifiers, contact modifiers, the Disengage need).
Positions are judged by ``Weights``: rough chances of scoring the next goal. The coach
(``ai.coach``) asks it, in the order it decides:

- **Face-off** (``faceoff``): the Pick-up or a Tackle on the opposing face-off player,
  whichever the odds favour.
- **Turn** (who acts, ``turn_plans``): we hold the ball: the carrier if he may act and has
  something to do (else he keeps his turn), otherwise the supporter whose hit (on an opponent
  who threatens the carrier) or run (ahead of the carrier, towards the goal, out of harm's way)
  gains most; the ball is loose: the player most likely to reach it and pick it up, or to clear
  an opponent facing it; they hold it: the player most likely to knock the carrier down (Impact
  first if weaker, rear hexes and team-mates facing the target help), else a blocker between
  him and our goal. A Replacement (``replacement``) when short of players and nothing pressing.
- **Action** (``player_plan``): paths are planned hex by hex within the Jog left, weighing each
  Disengage by its odds and never stepping on a line that would send the player off. A carrier
  ends in the goal hex when he can, else takes the best of: advance (to a hex the next opponent
  is unlikely to tackle him in), a short pass to a team-mate better placed (throw, interception
  and catch odds; a miss is a Shift in Momentum), or a Dash into the goal.

The hard coach's search compares a plan's command with the heuristic's next best ones
(``alternatives``). Pure: no I/O, no clock, no dice.
"""

from __future__ import annotations

from engine import (
    SHORT_THROW_MAX,
    ActionState,
    Command,
    Dash,
    Direction,
    EndAction,
    FaceoffContact,
    FaceoffPickup,
    Hex,
    Location,
    Move,
    Player,
    Replace,
    Shove,
    Status,
    Tackle,
    Throw,
    challenge_refusal,
    direction_between,
    distance,
    simple_choices,
    stand_cost,
    stand_refusal,
)

from .board import Board, Plan, hex_distance, need_tackle, neighbours, toward

__all__ = ["QUIET", "alternatives", "candidates", "faceoff", "player_plan", "replacement", "role", "turn_plans"]

#: Plans that change little: a turn spent on them may go to a Replacement instead.
QUIET = frozenset({"support", "stay", "block", "hold", "approach", "wait"})


# --- one player's plan ------------------------------------------------------------------------
def player_plan(b: Board, p: Player, a: ActionState | None) -> Plan | None:
    """The best thing ``p`` can do with his (next) action, and its value."""
    budget = _budget(b, p, a)
    if budget < 0:
        return None
    can_challenge = a is None or _challenge_ok(a)
    if b.carrier is not None and b.carrier.id == p.id:
        return _carrier_plan(b, p, a, budget)
    if b.loose is not None:
        return _loose_plan(b, p, a, budget, can_challenge)
    if b.carrier is not None and b.carrier.side != b.side:
        return _defend_plan(b, p, a, budget, can_challenge)
    return _support_plan(b, p, a, budget, can_challenge)


def _budget(b: Board, p: Player, a: ActionState | None) -> int:
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


def _paces(a: ActionState | None, budget: int) -> int:
    """Paces a player may walk now: one after a granted Dash (its Dash move), else ``budget``."""
    return 1 if a is not None and a.dash == "granted" else budget


def _challenge_ok(a: ActionState) -> bool:
    """May the acting player still challenge (the engine's own rule)?"""
    return challenge_refusal(a) is None


def _walk(path: tuple[Hex, ...], face: Direction | None, a: ActionState | None) -> Command:
    if not path:
        return EndAction(face)
    return Move(path, face)


# --- the carrier ------------------------------------------------------------------------------
def _carrier_plan(b: Board, p: Player, a: ActionState | None, budget: int) -> Plan:
    st = b.state
    assert p.hex is not None
    start = p.hex
    if start == b.goal:
        return Plan(2.0, EndAction(), "score")
    acts_next = len(st.on_field(b.side)) == 1
    k = b.k
    dash_left = a is not None and a.dash == "granted"
    reach = b.reach(p, start, _paces(a, budget), k=k, goal_ok=True)
    if b.goal in reach:
        pr, path = reach[b.goal]
        if pr >= 0.5 or not path:
            return Plan(1.0 + pr, _walk(path, None, a), "score")
    can_challenge = a is None or _challenge_ok(a)
    dash_ok = k > 0 and not dash_left and (a is None or a.dash == "none")
    receivers: list[tuple[float, Player, Hex]] = []  # (value of his holding the ball, he, his hex)
    if can_challenge:
        for m in st.on_field(b.side):
            if m.id != p.id and m.status is Status.STANDING and m.hex is not None:
                receivers.append((b.hold_value(m, m.hex, m.facing, acts_next=True), m, m.hex))
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
        if dash_ok and hex_distance(e, b.goal) == 1 and budget - len(path) <= 0:
            ub = 1.0
        for rv, _, mh in receivers:
            if hex_distance(e, mh) <= SHORT_THROW_MAX:
                ub = max(ub, rv)
                break
        scored.append((pr * ub + (1 - pr) * lost, e))
    scored.sort(key=lambda t: (-t[0], t[1]))
    best: Plan | None = None
    for ub, e in scored:
        if best is not None and ub <= best.value:
            break
        pr, path = reach[e]
        if e == b.goal:
            plan = Plan(1.0 + pr, _walk(path, None, a), "score")
            if best is None or plan.value > best.value:
                best = plan
            continue
        floor = -1.0 if best is None else (best.value - (1 - pr) * lost) / pr
        face = b.best_facing(p, e)
        value = b.hold_value(p, e, face, acts_next=acts_next)
        cmd = _walk(path, face, a)
        note = "carry"
        jog_after = budget - len(path)
        # The Dash into the goal from the last hex.
        if dash_ok and hex_distance(e, b.goal) == 1 and b.goal not in b.occ and jog_after <= 0:
            for c in range(1, k + 1):
                pd = b.p(c, 1, k - c) * b.leave(p, e, k - c)
                v = pd + (1 - pd) * b.lost_value(p, e)
                if v > value:
                    value, note = v, "dash"
                    cmd = _walk(path, None, a) if path else Dash(c)
        # A short pass to a better placed team-mate.
        if can_challenge and jog_after >= 0:
            for rv, m, mh in receivers:
                if rv <= max(value, floor) or hex_distance(e, mh) > SHORT_THROW_MAX:
                    continue
                miss = b.w.loose_sim * b.lost_value(m, mh) / b.w.dropped
                bound = b.throw_bound(p, e, mh, k)
                if bound * rv + (1 - bound) * miss <= max(value, floor):
                    continue
                pc = b.pass_chance(p, e, m, k)
                v = pc * rv + (1 - pc) * miss
                if v > value:
                    value, note = v, "pass"
                    cmd = _walk(path, None, a) if path else Throw(mh)
        plan = Plan(pr * value + (1 - pr) * lost, cmd, note)
        if best is None or plan.value > best.value:
            best = plan
    assert best is not None
    return best


# --- the loose ball ---------------------------------------------------------------------------
def _loose_plan(b: Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> Plan:
    assert p.hex is not None and b.loose is not None
    ball = b.loose
    k = b.k
    start = p.hex
    reach = b.reach(p, start, _paces(a, budget), k=k, ball_ok=True)
    best = Plan(0.0, EndAction(toward(start, ball) if start != ball else None), "wait")
    if ball in reach:
        pr, path = reach[ball]
        need = b.pickup_need(p, ball)
        pp = b.p(p.skill, need, k)
        jog_after = budget - len(path)
        value = pr * pp * (0.55 + 0.04 * max(0, jog_after) - 0.01 * distance(ball, b.goal))
        best = Plan(0.3 + value, Move(path), "pick up")
    # Otherwise close in: next to the ball, facing it, as near as possible.
    approach = Plan(-1.0, best.command)
    scored = []
    for e, (pr, _path) in reach.items():
        if e == ball:
            continue
        d = hex_distance(e, ball)
        v = 0.25 / (1 + d) + (0.03 if d == 1 else 0.0)
        scored.append((pr * v, v, e))
    scored.sort(key=lambda t: (-t[0], t[2]))
    for ub, v, e in scored:
        if ub <= approach.value:
            break
        pr, path = reach[e]
        face = toward(e, ball)
        v = pr * (v - 0.05 * b.threat(p, e, face, carrying=False))
        if v > approach.value:
            approach = Plan(v, _walk(path, face, a), "approach")
    # Dash onto the ball when the Jog is spent and the ball is next to him.
    if (a is not None and a.dash == "none" and k > 0 and budget <= 0 and distance(start, ball) == 1
            and ball not in b.occ):
        need = b.pickup_need(p, ball)
        for c in range(1, k + 1):
            v = b.p(c, 1, k - c) * b.leave(p, start, k - c) * b.p(p.skill, need, k - c) * 0.55
            if 0.3 + v > best.value:
                best = Plan(0.3 + v, Dash(c), "dash to the ball")
    pick = best if best.note in ("pick up", "dash to the ball") else None
    chance = pick.value - 0.3 if pick is not None else 0.0
    if pick is not None and (chance >= 0.12 or pick.note == "dash to the ball"):
        return pick
    # Clear the ball: knock down (or push away) an opponent who faces its hex: he adds one
    # to our Pick-up and is about to try his own.
    clear: Plan | None = None
    if can_challenge:
        for hit in _clearing_hits(b, p, a, budget):
            if clear is None or hit.value > clear.value:
                clear = hit
    if clear is not None and clear.value >= 0.05 and clear.value >= chance:
        return Plan(0.3 + 0.5 * clear.value, clear.command, "clear the ball")
    near = hex_distance(start, ball) <= 1
    if pick is not None and chance > 0.02 and (near or approach.value <= 0):
        return pick  # a poor chance beats standing round the ball for ever
    if approach.value > 0:
        return Plan(0.1 + approach.value * 0.5, approach.command, approach.note)
    return best


def _clearing_hits(b: Board, p: Player, a: ActionState | None, budget: int) -> list[Plan]:
    """``p``'s best hit on each opponent who faces the loose ball (he adds one to our
    Pick-up and is about to try his own): a knock-down, or a Shove away from the ball."""
    assert b.loose is not None
    tackle_ok = not (a is not None and a.impact_tackle_used)
    hits = (_hits(b, p, a, budget, o, tackle_ok, gain=0.5, away_from=b.loose)
            for o in b.facing(b.loose, p.side, mates=False))
    return [h for h in hits if h is not None]


# --- they hold the ball -----------------------------------------------------------------------
def _defend_plan(b: Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> Plan:
    carrier = b.carrier
    assert carrier is not None and carrier.hex is not None and p.hex is not None
    k = b.k
    tackled = a is not None and a.impact_tackle_used
    hits = _hits(b, p, a, budget, carrier, can_challenge and not tackled)
    if hits is not None and hits.value >= 0.08:
        return Plan(0.5 + hits.value, hits.command, hits.note)
    # Block: stand between the carrier and our goal, facing him, close enough to hit next.
    reach = b.reach(p, p.hex, budget, k=k)
    cd = hex_distance(carrier.hex, b.own_goal)
    best = Plan(-1.0, EndAction(toward(p.hex, carrier.hex)), "hold")
    for e, (pr, path) in reach.items():
        de = hex_distance(e, carrier.hex)
        if de <= 1:
            continue
        face = toward(e, carrier.hex)
        goal_side = hex_distance(e, b.own_goal) < cd
        v = 0.2 - 0.02 * max(0, de - 2) + (0.08 if goal_side else 0.0) - 0.02 * max(0, de - 1 - p.jog)
        v *= pr
        if v > best.value:
            best = Plan(v, _walk(path, face, a), "block")
    idle = isinstance(best.command, EndAction)
    if hits is not None and (hits.value > best.value or (idle and hits.value >= 0.02)):
        return Plan(0.5 + hits.value, hits.command, hits.note)  # a long shot beats waiting
    return Plan(0.1 + 0.5 * max(0.0, best.value), best.command, best.note)


def _hits(b: Board, p: Player, a: ActionState | None, budget: int, target: Player,
          tackle_ok: bool, *, gain: float = 1.0, away_from: Hex | None = None) -> Plan | None:
    """The best way for ``p`` to knock ``target`` down (or off the field) this action.
    With ``away_from``, a Shove that pushes him out of that hex's neighbourhood counts too."""
    assert p.hex is not None and target.hex is not None
    if a is not None and not _challenge_ok(a):
        return None
    k = b.k
    if a is not None and a.dash in ("moved", "done"):
        return None
    reach = b.reach(p, p.hex, _paces(a, budget), k=k)
    best: Plan | None = None
    for e in neighbours(target.hex):
        if e not in reach:
            continue
        pr, path = reach[e]
        i_need, t_need = need_tackle(b, p, e, target)
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
                and hex_distance(beyond, away_from) > 1):  # type: ignore[arg-type]  # beyond is on the field (info is not None)
            options.append((0.8 * b.p(p.might, i_need, k), "shove"))
        for chance, how in options:
            v = pr * chance * gain
            if best is None or v > best.value:
                cmd: Command
                if path:
                    cmd = Move(path)
                else:
                    cmd = Tackle(target.id) if how == "tackle" else Shove(target.id)
                best = Plan(v, cmd, how)
    # A Dash buys one more challenge when the Jog is spent.
    if (best is None and a is not None and a.dash == "none" and k > 0 and budget <= 0
            and distance(p.hex, target.hex) <= 2):
        return Plan(0.05, Dash(min(k, 3)), "dash to hit")
    return best


# --- we hold the ball, someone else acts ------------------------------------------------------
def _support_plan(b: Board, p: Player, a: ActionState | None, budget: int, can_challenge: bool) -> Plan:
    carrier = b.carrier
    assert carrier is not None and carrier.hex is not None and p.hex is not None
    k = b.k
    base = b.hold_value(carrier, carrier.hex, carrier.facing, acts_next=True)
    tackled = a is not None and a.impact_tackle_used
    best: Plan | None = None
    # Hit whoever makes the carrier's life hardest: his threat, his Disengage.
    for o in b.state.on_field(b.opp):
        if o.status is not Status.STANDING or o.hex is None or hex_distance(o.hex, p.hex) > budget + 1:
            continue
        gain = b.hold_value(carrier, carrier.hex, carrier.facing, acts_next=True, removed=frozenset({o.id})) - base
        if gain <= 0.01:
            continue
        hit = _hits(b, p, a, budget, o, can_challenge and not tackled, gain=gain)
        if hit is not None and (best is None or hit.value > best.value):
            best = hit
    # Or run to a receiving spot near the goal, in the attacking half, out of harm's way.
    reach = b.reach(p, p.hex, budget, k=k)
    spot = Plan(-1.0, EndAction(b.best_facing(p, p.hex)), "stay")
    half = b.opp
    scored = []
    for e, (pr, _path) in reach.items():
        dg = hex_distance(e, b.goal)
        v = 0.3 - 0.02 * dg
        if b.fld.info(e).half == half:
            v += 0.05
        if dg <= p.jog:
            v += 0.05
        dc = hex_distance(e, carrier.hex)
        if dc <= carrier.jog + SHORT_THROW_MAX:
            v += 0.03
        if dg < hex_distance(carrier.hex, b.goal) and 2 <= dc <= 4:
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
            spot = Plan(v, _walk(path, face, a), "support")
    spot_gain = 0.02 * max(0.0, spot.value)
    if best is not None and best.value > spot_gain:
        return Plan(0.3 + best.value, best.command, best.note)
    return Plan(0.3 + spot_gain, spot.command, spot.note)


# --- who acts ---------------------------------------------------------------------------------
def turn_plans(b: Board, actors: list[Player]) -> list[tuple[float, str, Plan]]:
    """(value, player id, plan) of the players worth planning for at a turn, best first. When
    the carrier would only stand there, his team-mates are planned for instead: one of them
    acts, and the carrier keeps his turn for the next action."""
    plans: list[tuple[float, str, Plan]] = []
    for p in candidates(b, actors):
        plan = player_plan(b, p, None)
        if plan is not None:
            plans.append((plan.value, p.id, plan))
    carrier = b.carrier
    if (len(plans) == 1 and carrier is not None and plans[0][1] == carrier.id
            and isinstance(plans[0][2].command, EndAction) and len(actors) > 1):
        plans = []
        for p in actors:
            if p.id != carrier.id:
                plan = player_plan(b, p, None)
                if plan is not None:
                    plans.append((plan.value, p.id, plan))
    plans.sort(key=lambda t: (-t[0], t[1]))
    return plans


def candidates(b: Board, actors: list[Player]) -> list[Player]:
    """The players worth planning for: the carrier when he may act; else those who can get
    to the ball (or the opposing carrier) this action, or failing that the two nearest."""
    carrier = b.carrier
    if carrier is not None and carrier.side == b.side:
        return [carrier] if carrier in actors else actors
    target = b.loose if b.loose is not None else (carrier.hex if carrier is not None else None)
    if target is None:
        return actors
    ranked = sorted(actors, key=lambda p: (hex_distance(p.hex, target), p.id))  # type: ignore[arg-type]  # actors stand on the field
    reach_to = 0 if b.loose is not None else 1  # onto the ball, or next to the carrier
    near = [p for p in ranked if hex_distance(p.hex, target) - reach_to <= p.jog]  # type: ignore[arg-type]  # actors stand on the field
    return near or ranked[:2]


def replacement(b: Board) -> Command | None:
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
    h = min(free, key=lambda h: (hex_distance(h, ball), h.r, h.q))
    return Replace(p.id, h, toward(h, ball))


# --- face-off ---------------------------------------------------------------------------------
def faceoff(b: Board) -> Command:
    """The face-off player's choice: the Pick-up, or a Tackle on the opposing face-off player
    (from a path round the circle) when its odds and the Pick-up after it favour it."""
    fld, side = b.fld, b.side
    (mine_hex,) = fld.setup_hexes(side, "faceoff")
    (theirs_hex,) = fld.setup_hexes(b.opp, "faceoff")
    me, them = b.occ.get(mine_hex), b.occ.get(theirs_hex)
    if me is None:
        return FaceoffPickup()
    if b.state.options.simple_faceoff:
        return _simple_faceoff(b, mine_hex, theirs_hex)
    spot = fld.ball_spot
    need = b.pickup_need(me, spot)
    p_pick = b.p(me.skill, need, b.k)
    best: Command = FaceoffPickup()
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
        i_need, t_need = need_tackle(b, me, end, them)
        knock = b.p(me.tackle, t_need, b.k)
        if me.might < them.might:
            knock *= b.p(me.might, i_need, b.k)
        v = knock * (0.15 + 0.85 * after) + (1 - knock) * 0.5 * p_pick
        if v > best_v + 1e-9:
            best, best_v = FaceoffContact(path, "tackle"), v
    return best


def _simple_faceoff(b: Board, mine_hex: Hex, theirs_hex: Hex) -> Command:
    """The simplified face-off: the ball when he may take it, else the knock-down from the
    first path that reaches the opponent."""
    if "pickup" in simple_choices(b.state, b.fld):
        return FaceoffPickup()
    interior = [h for h in b.fld.circle_hexes("centre") if h != b.fld.ball_spot and h not in b.occ]
    paths: list[tuple[Hex, ...]] = [()] + [(a,) for a in interior if distance(a, mine_hex) == 1]
    paths += [(a, c) for a in interior if distance(a, mine_hex) == 1 for c in interior if c != a and distance(a, c) == 1]
    for path in paths:
        if distance(path[-1] if path else mine_hex, theirs_hex) == 1:
            return FaceoffContact(path, "tackle")
    return FaceoffPickup()


# --- what the search compares (the hard level) ------------------------------------------------
def role(b: Board, p: Player) -> str:
    """Whose command the acting player gives: "carrier", "loose" (the ball is loose), "support"
    (a team-mate of our carrier) or "defend" (against their carrier)."""
    if b.carrier is None:
        return "loose"
    if b.carrier.id == p.id:
        return "carrier"
    return "support" if b.carrier.side == b.side else "defend"


def alternatives(b: Board, p: Player, a: ActionState, role: str) -> list[Command]:
    """The heuristic's next best commands for the acting player of ``role`` (see ``role``),
    best first: what the hard coach's search compares with the heuristic's own choice."""
    return {"carrier": _carrier_alternatives, "support": _support_alternatives,
            "defend": _defend_alternatives, "loose": _loose_alternatives}[role](b, p, a)


def _carrier_alternatives(b: Board, p: Player, a: ActionState) -> list[Command]:
    """Other commands for the carrier, best first by the heuristic's own values: walk to
    another hex (facing the nearest threat), pass from where he stands, stay put."""
    assert p.hex is not None
    budget = _budget(b, p, a)
    out: list[tuple[float, Command]] = []
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
            out.append((v, _walk(path, face, a)))
    if _challenge_ok(a):
        for m in b.state.on_field(b.side):
            if m.id != p.id and m.status is Status.STANDING and m.hex is not None and hex_distance(p.hex, m.hex) <= SHORT_THROW_MAX:
                pc = b.pass_chance(p, p.hex, m, b.k)
                if pc > 0.2:
                    out.append((pc * b.hold_value(m, m.hex, m.facing, acts_next=True), Throw(m.hex)))
    out.sort(key=lambda t: -t[0])
    return [c for _, c in out]


def _loose_alternatives(b: Board, p: Player, a: ActionState) -> list[Command]:
    """Other commands by a loose ball: onto it (the surest path), knock down or push away
    an opponent who faces it, stand next to it (the safest hexes first), or wait."""
    assert p.hex is not None and b.loose is not None
    ball = b.loose
    budget = _budget(b, p, a)
    out: list[Command] = []
    if budget < 0:
        return out
    reach = b.reach(p, p.hex, _paces(a, budget), k=b.k, ball_ok=True)
    if ball in reach and reach[ball][1]:
        out.append(Move(reach[ball][1]))
    if _challenge_ok(a):
        out += [hit.command for hit in _clearing_hits(b, p, a, budget)]
    beside = sorted((-pr * (1 - b.threat(p, e, toward(e, ball), carrying=False)), len(path), e)
                    for e, (pr, path) in reach.items() if e != ball and hex_distance(e, ball) == 1 and path)
    out += [Move(reach[e][1], toward(e, ball)) for _, _, e in beside[:2]]
    out.append(EndAction(toward(p.hex, ball) if p.hex != ball else None))
    return out


def _support_alternatives(b: Board, p: Player, a: ActionState) -> list[Command]:
    """Other commands for a team-mate of our carrier: stand guard next to him (facing the
    nearest opponent), nearest first, or stay put."""
    carrier = b.carrier
    assert carrier is not None and carrier.hex is not None and p.hex is not None
    budget = _budget(b, p, a)
    out: list[tuple[float, Command]] = []
    if budget >= 0:
        reach = b.reach(p, p.hex, budget, k=b.k)
        for e in neighbours(carrier.hex):
            if e in reach:
                pr, path = reach[e]
                out.append((pr - 0.01 * len(path), _walk(path, b.best_facing(p, e), a)))
    out.sort(key=lambda t: -t[0])
    return [c for _, c in out] + [EndAction(b.best_facing(p, p.hex))]


def _defend_alternatives(b: Board, p: Player, a: ActionState) -> list[Command]:
    """Other commands against their carrier: go for him from another hex (nearest first),
    hit him from here, or block between him and our goal."""
    carrier = b.carrier
    assert carrier is not None and carrier.hex is not None and p.hex is not None
    out: list[Command] = []
    if _challenge_ok(a):
        if hex_distance(p.hex, carrier.hex) == 1:
            out += [Tackle(carrier.id), Shove(carrier.id)]
        budget = _budget(b, p, a)
        if budget >= 0:
            reach = b.reach(p, p.hex, budget, k=b.k)
            spots = sorted((-reach[e][0], len(reach[e][1]), e) for e in neighbours(carrier.hex) if e in reach)
            out += [Move(reach[e][1]) for _, _, e in spots if reach[e][1]]
    return out
