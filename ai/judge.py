"""How good a position is for a side: the hard AI's search judges its samples here.

Two judges. ``evaluate`` is the heuristic's own estimate (the score, then the ball, then
standing players; ``SearchSettings(learned=False)``). ``win_chance``, the one the search uses,
is learned: a logistic model over a handful of features of the position
(``features``): who holds the ball, how far the carrier is from the goal he attacks (in actions
of Jog), the heuristic's own ``hold_value`` and ``threat`` for him, the loose ball and the
nearest standing player of each side, players standing and on the field, who acts next and the
Momentum. Every feature is antisymmetric (seen from the other side it changes sign), so the
model has no intercept and ``win_chance(s) + win_chance(other) == 1``.

The coefficients (``COEFS``) were fitted by ``scripts/fit_ai_eval.py`` (pure-Python Newton
iterations on a logistic regression, a small L2 penalty) on positions of AI-v-AI matches,
each labelled with the side that won the match (matches are first to one goal): run it again
to refit; it prints the constants to paste here.
"""

from __future__ import annotations

import math

from engine import Field, Hex, MatchState, Phase, Player, Side, Status, distance, other_side

from .board import Board

__all__ = ["COEFS", "FEATURES", "evaluate", "features", "nearest_standing", "win_chance"]

FEATURES = (
    "hold",  # we hold the ball (+1), they do (-1)
    "hv",  # the heuristic's hold_value of the carrier (signed: ours +, theirs -)
    "dj",  # actions of Jog the carrier needs to the goal he attacks (signed)
    "thr",  # the heuristic's threat on the carrier (signed)
    "near1",  # the carrier is one action of Jog from the goal (signed)
    "cact",  # the carrier's team acts next and he may act (signed)
    "loose_lead",  # loose ball: their nearest standing player's distance less ours, /3
    "loose_adj",  # loose ball: we have a standing player next to it (minus they)
    "loose_half",  # loose ball: in the half we attack (+1) or ours (-1)
    "standing", "on_field",  # differences, /3
    "acts_next",  # +1 we act next, -1 they do
    "momentum",  # counters we may spend (minus theirs), /3
    "score",  # goals for less goals against
)

#: Fitted by scripts/fit_ai_eval.py (see the module docstring); the order of ``FEATURES``.
#: 800 matches, seed 7, L2 1.0: 53,269 positions; held-out log loss 0.648 (0.693 for a coin).
COEFS: tuple[float, ...] = (
    -0.3501,  # hold
    +3.6558,  # hv
    -0.1080,  # dj
    -0.1077,  # thr
    +0.4118,  # near1
    +0.1491,  # cact
    +0.0465,  # loose_lead
    +0.0726,  # loose_adj
    +0.2544,  # loose_half
    +0.2117,  # standing
    +0.7470,  # on_field
    +0.0122,  # acts_next
    +0.0022,  # momentum
    +2.0000,  # score (set by hand: the fitted matches are first to one goal, never 1-0)
)


def nearest_standing(state: MatchState, side: Side, target: Hex) -> int:
    """Hexes from ``target`` to ``side``'s nearest standing player on the field (12: none)."""
    ds = [distance(p.hex, target) for p in state.on_field(side) if p.hex is not None and p.status is Status.STANDING]
    return min(ds) if ds else 12


def evaluate(state: MatchState, side: Side, fld: Field) -> float:
    """How good ``state`` is for ``side``: the score first, then the ball (a carrier near the
    goal and safe, or nearer a loose ball than the opponents), then standing players."""
    opp = other_side(side)
    value = 3.0 * (state.teams[side].score - state.teams[opp].score)
    if state.phase in (Phase.MATCH_OVER, Phase.TEST_OVER, Phase.SETUP, Phase.FACEOFF):
        return value
    carrier = state.carrier()
    if carrier is not None and carrier.hex is not None:
        holder = carrier.side
        b = Board(state, holder, fld)
        v = b.hold_value(carrier, carrier.hex, carrier.facing, acts_next=state.turn_side == holder)
        value += v if holder == side else -v
    else:
        ball = state.ball_hex()
        if ball is not None:
            lead = (nearest_standing(state, opp, ball) - nearest_standing(state, side, ball)
                    + (1 if state.turn_side == side else -1))
            value += 0.04 * max(-4, min(4, lead))
    mine = sum(1 for p in state.on_field(side) if p.status is Status.STANDING)
    theirs = sum(1 for p in state.on_field(opp) if p.status is Status.STANDING)
    value += 0.02 * (mine - theirs)
    return value


def _carrier_feats(state: MatchState, carrier: Player, fld: Field) -> tuple[float, float, float, float, float]:
    holder = carrier.side
    b = Board(state, holder, fld)
    acts_next = state.turn_side == holder
    h = carrier.hex
    assert h is not None
    hv = b.hold_value(carrier, h, carrier.facing, acts_next=acts_next)
    thr = b.threat(carrier, h, carrier.facing, carrying=True)
    dj = distance(h, fld.goals[other_side(holder)]) / max(1, carrier.jog)
    can_act = acts_next and (state.last_moved.get(holder) != carrier.id or len(state.on_field(holder)) == 1)
    return hv, min(dj, 6.0), thr, 1.0 if dj <= 1.0 else 0.0, 1.0 if can_act else 0.0


def features(state: MatchState, side: Side, fld: Field) -> list[float]:
    """The features of ``state`` seen from ``side`` (``FEATURES``' order); seen from the other
    side every one changes sign."""
    opp = other_side(side)
    f = [0.0] * len(FEATURES)
    carrier = state.carrier()
    if carrier is not None and carrier.hex is not None:
        sign = 1.0 if carrier.side == side else -1.0
        for i, v in enumerate((1.0, *_carrier_feats(state, carrier, fld))):
            f[i] = sign * v
    else:
        ball = state.ball_hex()
        if ball is not None:
            mine, theirs = nearest_standing(state, side, ball), nearest_standing(state, opp, ball)
            f[6] = max(-6, min(6, theirs - mine)) / 3
            f[7] = (1.0 if mine <= 1 else 0.0) - (1.0 if theirs <= 1 else 0.0)
            dm, dt = distance(ball, fld.goals[opp]), distance(ball, fld.goals[side])
            f[8] = 1.0 if dm < dt else (-1.0 if dt < dm else 0.0)
    on_m, on_t = state.on_field(side), state.on_field(opp)
    f[9] = (sum(p.status is Status.STANDING for p in on_m) - sum(p.status is Status.STANDING for p in on_t)) / 3
    f[10] = (len(on_m) - len(on_t)) / 3
    f[11] = 1.0 if state.turn_side == side else (-1.0 if state.turn_side == opp else 0.0)
    if state.momentum_side == side:
        f[12] = state.momentum / 3
    elif state.momentum_side == opp:
        f[12] = -state.momentum / 3
    f[13] = float(state.teams[side].score - state.teams[opp].score)
    return f


def logit(f: list[float], coefs: tuple[float, ...] | list[float] = COEFS) -> float:
    """The model's log-odds for the features ``f``."""
    return sum(c * x for c, x in zip(coefs, f))


def win_chance(state: MatchState, side: Side, fld: Field) -> float:
    """The model's chance that ``side`` wins from ``state`` (1 or 0 once the match is over)."""
    if state.phase is Phase.MATCH_OVER:
        return 1.0 if state.winner == side else (0.5 if state.winner == "draw" else 0.0)
    z = logit(features(state, side, fld))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
