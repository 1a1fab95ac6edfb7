"""The AI coach's Advanced options: what ``AICoach(level="hard")`` adds to the heuristic.

The heuristic (``ai.heuristic``) plans an action with ordinary moves and challenges. These helpers
take its choice and use what the Advanced Rules offer when it helps (pp. 11-14, 19):

- **Potions** on players off the field whose injury they may cure (the 1-in-4 bad rows hurt a
  player who is out anyway far less than a fit one).
- **Out of sequence** after the other team's Shift in Momentum: Quickling doubles the counters
  when its player is the one who should act; Taunt turns an opponent who faces our carrier or
  the loose ball; React steps a player towards what matters while a counter stays for the action.
- **The Wizard** when they hold the ball and no hit of ours is as likely to knock it loose.
- **Tackle abilities**: Steal on a carrier, Cutblock when the Impact is the hard part, Pummel
  when half the Might rolls better, a Cheapshot instead of ending next to a fallen opponent.
- **Ability moves** (counters instead of Jog): when the plan would end the action, a paid step
  that brings the mover closer to the ball, the opposing carrier or the goal.

Cheers, kegs and Replacements were already the heuristic's. Every command returned here has
passed the engine's own check (``engine.is_legal``); None means "the heuristic's choice stands".
"""

from __future__ import annotations

from engine import (
    COUNTER_MOVES,
    LITTLE_GUY,
    TAUNT_RANGE,
    CastSpell,
    Command,
    DrinkPotion,
    EndAction,
    Field,
    Hex,
    Location,
    MatchState,
    Move,
    Phase,
    Player,
    Quickling,
    Side,
    Status,
    Tackle,
    Taunt,
    distance,
    front_hexes,
    has_ability,
    is_legal,
    nearest_direction,
)

from .board import Board, Plan, need_tackle

__all__ = ["out_of_sequence", "potion", "refine_action", "wizard"]

#: The Wizard's casting Skill (Optional Rules, p. 19).
WIZARD_SKILL = 5
#: How much worse (in the heuristic's values) a Quickling's plan may be than the best one for
#: the doubled counters to make up for it.
QUICKLING_MARGIN = 0.1


_ok = is_legal  # (state, cmd, side, field): the engine's own check


# --- potions -----------------------------------------------------------------------------------
def potion(state: MatchState, side: Side, fld: Field) -> Command | None:
    """A potion for an injured player off the field (a cure brings him back), if any."""
    team = state.teams[side]
    if not team.available("potions"):
        return None
    hurt = [p for p in state.team_players(side)
            if not p.on_field and not p.potion_used and p.location in (Location.INFIRMARY, Location.RECOVERY)
            and (p.injury or {}).get("kind") != "dead"]
    # The best player first: he is the one worth curing.
    hurt.sort(key=lambda p: (-(p.tackle + p.jog + p.might + p.skill), p.id))
    for p in hurt:
        cmd = DrinkPotion(p.id)
        if _ok(state, cmd, side, fld):
            return cmd
    return None


# --- out of sequence ---------------------------------------------------------------------------
def _key_hexes(b: Board) -> list[Hex]:
    """Hexes an opponent should not face: our carrier's, or the loose ball's."""
    if b.carrier is not None and b.carrier.side == b.side and b.carrier.hex is not None:
        return [b.carrier.hex]
    if b.loose is not None:
        return [b.loose]
    return []


def _objective(b: Board, mover: Player) -> tuple[Hex, int] | None:
    """Where ``mover`` wants to be and how near it he may stand: the loose ball (next to it, as
    only the acting player may enter it), the opposing carrier (next to him), or the goal."""
    if b.loose is not None:
        return b.loose, 1
    if b.carrier is not None and b.carrier.side != b.side and b.carrier.hex is not None:
        return b.carrier.hex, 1
    return b.goal, 0


def out_of_sequence(b: Board, plans: list[tuple[float, str, Plan]]) -> Command | None:
    """Quickling, Taunt or React in the window after the other team's SiM (``plans``: the
    heuristic's (value, player, plan) for each player who may act, best first)."""
    st, side, fld = b.state, b.side, b.fld
    if not st.after_sim:
        return None
    held = st.momentum if st.momentum_side == side else 0
    if not held:
        return None
    # Quickling: double the counters, when a player who has it is (nearly) the one who should act;
    # it commits him to the action.
    if plans and st.committed_actor is None and held < 6:
        for value, pid, _ in plans:
            if value < plans[0][0] - QUICKLING_MARGIN:
                break
            if has_ability(st.players[pid], "quickling"):
                quick = Quickling(pid)
                if _ok(st, quick, side, fld):
                    return quick
    # Taunt: turn an opponent facing our carrier or the loose ball towards the taunter (with
    # two counters), or one who faces a team-mate next to him (with one).
    taunters = [p for p in st.on_field(side) if p.hex is not None and p.standing and has_ability(p, "taunt")]
    if taunters:
        keys = _key_hexes(b)
        mates = [m.hex for m in st.on_field(side) if m.hex is not None]
        for protect, counters in ((keys, min(held, 2)), (mates, 1)):
            taunt = _taunt(b, taunters, protect, counters)
            if taunt is not None:
                return taunt
    # React: one paid step towards the objective, keeping a counter for the action.
    if held >= 2:
        best: tuple[int, str, Command] | None = None
        for p in st.on_field(side):
            if p.hex is None or not p.standing or not has_ability(p, "react"):
                continue
            aim = _objective(b, p)
            if aim is None:
                continue
            goal, near = aim
            now = distance(p.hex, goal)
            if now <= near:
                continue
            for h in p.hex.neighbours():
                gain = now - distance(h, goal)
                if gain <= 0 or h == b.loose or distance(h, goal) < near:
                    continue
                step = Move((h,), ability="react", player=p.id)
                if (best is None or gain > best[0]) and _ok(st, step, side, fld):
                    best = (gain, p.id, step)
        if best is not None:
            return best[2]
    return None


def _taunt(b: Board, taunters: list[Player], protect: list[Hex], counters: int) -> Command | None:
    """A Taunt that turns an opponent facing one of ``protect`` away from all of them."""
    st = b.state
    if not protect or counters <= 0:
        return None
    for o in st.on_field(b.opp):
        if o.hex is None or o.facing is None or not o.standing:
            continue
        if not any(k in front_hexes(o.hex, o.facing) for k in protect):
            continue
        for t in taunters:
            if t.hex == o.hex or distance(t.hex, o.hex) > TAUNT_RANGE:  # type: ignore[arg-type]  # taunters stand on the field
                continue
            turned = nearest_direction(o.hex, t.hex)  # type: ignore[arg-type]  # taunters stand on the field
            if not turned or any(k in front_hexes(o.hex, d) for d in turned for k in protect):
                continue  # facing the taunter he would still face what we protect
            cmd = Taunt(t.id, o.id, counters)
            if _ok(st, cmd, b.side, b.fld):
                return cmd
    return None


# --- the Wizard --------------------------------------------------------------------------------
def wizard(b: Board, top: Plan | None) -> Command | None:
    """A spell on the opposing carrier when it is likelier to knock the ball loose than the best
    hit of the heuristic's plan (``top``)."""
    st, side, fld = b.state, b.side, b.fld
    if not st.teams[side].available("wizard"):
        return None
    c = b.carrier
    if c is None or c.side == side or c.hex is None:
        return None
    hit = top.value - 0.5 if top is not None and top.note in ("tackle", "shove") else 0.0
    options: list[tuple[float, Command]] = [
        # System Shock: Skill 5 against his Might - 1, +2 as he holds the ball; Down or worse.
        (b.p(WIZARD_SKILL, c.might - 1 + 2), CastSpell("system_shock", target=c.id)),
        # Transformation: Skill 5, needs 2; a frog drops the ball.
        (b.p(WIZARD_SKILL, 2), CastSpell("transformation", target=c.id)),
    ]
    # Inferno: Dodge, needs 2; only more than needed avoids the flames. Not on our own players.
    if not any(m.hex is not None and distance(m.hex, c.hex) <= 1 for m in st.on_field(side)):
        options.append((1.0 - b.p(c.dodge, 3), CastSpell("inferno", hex=c.hex)))
    options.sort(key=lambda t: -t[0])
    for chance, cmd in options:
        if chance >= 0.3 and chance > hit and _ok(st, cmd, side, fld):
            return cmd
    return None


# --- during an action --------------------------------------------------------------------------
def _tackle_use(b: Board, p: Player, target: Player, cmd: Tackle) -> Command:
    st, side, fld = b.state, b.side, b.fld
    if target.hex is None or not target.standing:
        return cmd
    k = b.k
    i_need, t_need = need_tackle(b, p, p.hex, target)  # type: ignore[arg-type]  # the acting player stands on the field
    impact = b.p(p.might, i_need, k) if p.might < target.might else 1.0
    plain = impact * b.p(p.tackle, t_need, k)
    choices: list[tuple[float, str]] = []
    if has_ability(p, "steal") and st.ball.carrier == target.id:
        choices.append((b.p(p.tackle, t_need, k) + 0.2, "steal"))  # no Impact, and the ball is ours
    if has_ability(p, "cutblock") and target.might > p.might and target.id == st.ball.carrier:
        choices.append((b.p(p.tackle, t_need, k) - 0.1, "cutblock"))  # he goes Down: only for the ball
    if has_ability(p, "pummel"):
        half = p.might // 2
        pi = b.p(p.might, i_need, k) if half < target.might else 1.0
        choices.append((pi * b.p(half, t_need - 1, k), "pummel"))  # +1 success unless 0 or a flop
    choices.sort(key=lambda t: -t[0])
    for value, use in choices:
        if value <= plain + 0.03:
            break
        better = Tackle(target.id, use)
        if _ok(st, better, side, fld):
            return better
    return cmd


def _cheapshot(b: Board, p: Player) -> Command | None:
    if not has_ability(p, "cheapshot") or p.hex is None:
        return None
    for h in p.hex.neighbours():
        o = b.occ.get(h)
        if o is not None and o.side != b.side and o.status is not Status.STANDING:
            cmd = Tackle(o.id, "cheapshot")
            if _ok(b.state, cmd, b.side, b.fld):
                return cmd
    return None


def _paid_step(b: Board, p: Player) -> Command | None:
    """A step paid with counters (an ability move) that brings its mover closer to his
    objective, keeping a counter for re-rolls unless the step scores."""
    st, side, fld = b.state, b.side, b.fld
    held = b.k
    if not held:
        return None
    movers: list[tuple[Player, str | None, str]] = []
    for ability in COUNTER_MOVES:
        if ability not in ("swarm", "lead-pass", "react") and has_ability(p, ability):
            movers.append((p, None, ability))
    if has_ability(p, "swarm"):
        movers += [(m, m.id, "swarm") for m in st.on_field(side)
                   if m.type == LITTLE_GUY and m.standing and m.id != p.id]
    lead = st.action.lead_pass if st.action else None
    if lead is not None and st.players[lead].on_field:
        movers.append((st.players[lead], lead, "lead-pass"))
    best: tuple[int, Command] | None = None
    for m, mid, ability in movers:
        if m.hex is None:
            continue
        carrying = st.ball.carrier == m.id
        goal, near = (b.goal, 0) if carrying else (_objective(b, m) or (b.goal, 0))
        if ability == "goalie" and b.carrier is not None and b.carrier.side != side and b.carrier.hex is not None:
            # Goalie steps towards our goal: worth it to get between the carrier and it.
            goal, near = b.own_goal, max(0, distance(b.carrier.hex, b.own_goal) - 1)
        now = distance(m.hex, goal)
        if now <= near:
            continue
        for h in m.hex.neighbours():
            after = distance(h, goal)
            gain = now - after
            if gain <= 0 or after < near or (h == b.loose and mid is not None):
                continue
            scores = carrying and h == goal
            if held < 2 and not (scores or after <= near):
                continue  # the last counter is kept for a re-roll unless the step arrives
            score = gain + (10 if scores else 0)
            cmd = Move((h,), ability=ability, player=mid)
            if (best is None or score > best[0]) and _ok(st, cmd, side, fld):
                best = (score, cmd)
    return best[1] if best is not None else None


def refine_action(b: Board, p: Player, cmd: Command) -> Command:
    """The heuristic's command for the acting player ``p``, with his abilities put to use."""
    if isinstance(cmd, Tackle) and cmd.use is None:
        return _tackle_use(b, p, b.state.players[cmd.target], cmd)
    if isinstance(cmd, EndAction) and b.state.phase is Phase.ACTION:
        return _cheapshot(b, p) or _paid_step(b, p) or cmd
    return cmd
