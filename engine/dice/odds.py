"""Exact challenge odds, with or without Momentum replacements: computed, not sampled.

Every die contributes D = (stars rolled) + (-1, 0 or +1 for a final X, blank or bull's-eye) to
the net, so a roll with n dice is the sum of n independent copies of D. In the standard mode
D has no upper bound (star chains), but P(D = d) = 6^-(d+2) + 2·6^-(d+1) + 2·6^-d (last term
for d >= 1), so every probability is a finite sum over powers of 1/6 plus an exact tail
(1 minus the finite sum). Values that cannot change the answer are lumped into one absorbing
"or more" cell. The arithmetic runs on integers over a power of 6, and only the results
become ``Fraction``s.

Momentum is modelled as the policy a careful coach follows: spend counters one at a time,
first on the dice rolled as X, then on those rolled blank, only while the roll is neither a
success nor flopped; stop when it succeeds or flops, or counters or such dice run out. Only
the dice rolled for the attribute qualify, each once; a replacement is a fresh die (its stars
roll again). A flopped roll is final, and F > S is the same as net < 0, so the state of the
policy is just (net, X dice left to replace, blank dice left to replace).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial
from typing import Any

from engine.dice.challenge import MOMENTUM_CAP, Need
from engine.errors import MalformedInputError

__all__ = ["ExactOdds", "MAX_DICE", "MAX_MOMENTUM", "MOMENTUM_CAP", "Odds", "clear_cache", "odds"]

MAX_DICE = 12
MAX_MOMENTUM = 6  # the Momentum track runs 0-6

_SIXTH = Fraction(1, 6)
# Components of a result vector: flop, failure, extra 0..5, extra 6+, counters spent.
_FLOP, _FAIL, _EXTRA0, _SPENT = 0, 1, 2, 2 + MOMENTUM_CAP + 1
_WIDTH = _SPENT + 1

_Vector = tuple[int, ...]  # integer weights over a power of 6; the last cell means "this or more"


@dataclass(frozen=True)
class ExactOdds:
    success: Fraction
    flop: Fraction
    fail: Fraction  #: failure without a flop
    extra: tuple[Fraction, ...]  #: P(extra = 0..5) then P(extra >= 6); they sum to ``success``
    counters_spent: Fraction  #: expected Momentum counters the policy spends


@dataclass(frozen=True)
class Odds:
    """Outcome probabilities of one challenge; floats for display, ``exact`` for proofs."""

    dice: int
    need: int  #: successes needed, after clamping to at least 1
    star2: bool
    momentum: int
    exact: ExactOdds

    @property
    def success(self) -> float:
        return float(self.exact.success)

    @property
    def flop(self) -> float:
        return float(self.exact.flop)

    @property
    def fail(self) -> float:
        return float(self.exact.fail)

    @property
    def extra(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.exact.extra)

    @property
    def counters_spent(self) -> float:
        return float(self.exact.counters_spent)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "need": self.need,
            "star2": self.star2,
            "momentum": self.momentum,
            "success": self.success,
            "flop": self.flop,
            "fail": self.fail,
            "extra": list(self.extra),
            "counters_spent": self.counters_spent,
        }


def odds(dice: int, need: int | Need, *, star2: bool = False, momentum: int = 0) -> Odds:
    """Exact odds of a challenge with ``dice`` dice needing ``need`` successes.

    ``need`` below 1 counts as 1, as in play. ``momentum`` counters are spent by the policy in
    the module docstring. Results are cached.
    """
    if isinstance(dice, bool) or not isinstance(dice, int) or not 0 <= dice <= MAX_DICE:
        raise MalformedInputError.of("odds.dice", n=MAX_DICE, text=repr(dice))
    if isinstance(momentum, bool) or not isinstance(momentum, int) or not 0 <= momentum <= MAX_MOMENTUM:
        raise MalformedInputError.of("odds.momentum", n=MAX_MOMENTUM, text=repr(momentum))
    if isinstance(need, Need):
        wanted = need.value
    elif isinstance(need, bool) or not isinstance(need, int):
        raise MalformedInputError.of("dice.need_whole", text=repr(need))
    else:
        wanted = max(1, need)
    return _odds(dice, wanted, bool(star2), momentum)


def clear_cache() -> None:
    """Forget every cached result (for cold-start benchmarks)."""
    for cached in (_odds, _fresh_vector, _sum_table, _others_table, _transient, _policy):
        cached.cache_clear()


@lru_cache(maxsize=4096)
def _odds(n: int, need: int, star2: bool, momentum: int) -> Odds:
    sums, e_sum = _sum_table(need, star2)
    initial = [0] * _WIDTH
    for s, w in enumerate(sums[n]):
        if w:
            net = s - n
            if s == len(sums[n]) - 1:
                initial[_EXTRA0 + MOMENTUM_CAP] += w  # lumped: net >= need + 6 by construction
            elif net < 0:
                initial[_FLOP] += w
            elif net < need:
                initial[_FAIL] += w
            else:
                initial[_EXTRA0 + min(net - need, MOMENTUM_CAP)] += w
    denominator = 6 ** (n * e_sum)
    if momentum == 0:
        result = [Fraction(w, denominator) for w in initial]
    else:
        # The transient mass (0 <= net < need) goes through the Momentum policy instead.
        transient, e_init = _transient(n, need, star2)
        policy, e_rep = _policy(need, star2)
        grouped: dict[tuple[int, int, int], int] = {}
        for (net, rx, rb), w in transient.items():
            x_left = min(rx, momentum)
            key = (net, x_left, min(rb, momentum - x_left))
            grouped[key] = grouped.get(key, 0) + w
        acc = [0] * _WIDTH
        for (net, x_left, b_left), w in grouped.items():
            scale = w * 6 ** ((momentum - x_left - b_left) * e_rep)
            for c, v in enumerate(policy[net, x_left, b_left]):
                if v:
                    acc[c] += scale * v
        initial[_FAIL] = 0
        rest = 6 ** (n * e_init + momentum * e_rep)
        result = [Fraction(a, denominator) + Fraction(b, rest) for a, b in zip(initial, acc)]
    extra = tuple(result[_EXTRA0 : _EXTRA0 + MOMENTUM_CAP + 1])
    exact = ExactOdds(sum(extra, Fraction(0)), result[_FLOP], result[_FAIL], extra, result[_SPENT])
    return Odds(n, need, star2, momentum, exact)


def _p_fresh(star2: bool, d: int) -> Fraction:
    """P(D = d): the net one freshly rolled die adds (its stars, then its final face)."""
    if star2:
        return {-1: _SIXTH, 0: 2 * _SIXTH, 1: 2 * _SIXTH, 2: _SIXTH}.get(d, Fraction(0))
    if d < -1:
        return Fraction(0)
    if d == -1:
        return _SIXTH
    # (d+1 stars then X) + (d stars then blank) + (d-1 stars then bull's-eye); k stars followed
    # by a given non-star face has probability 6^-k times that face's 1/6 or 2/6.
    p = _SIXTH ** (d + 2) + 2 * _SIXTH ** (d + 1)
    return p + 2 * _SIXTH**d if d >= 1 else p


def _vector(pmf: Callable[[int], Fraction], total: Fraction, top: int) -> tuple[_Vector, int]:
    """Weights of values 0..top-1 and the lumped tail at ``top``, as integers over 6**e."""
    weights = [pmf(v) for v in range(top)]
    weights.append(total - sum(weights, Fraction(0)))
    e = 0
    while any((w * 6**e).denominator != 1 for w in weights):
        e += 1
    return tuple(int(w * 6**e) for w in weights), e


def _convolve(u: _Vector, v: _Vector, top: int) -> _Vector:
    """Distribution of the sum, values capped at the absorbing cell ``top``."""
    out = [0] * (top + 1)
    v_total = sum(v)
    for i, a in enumerate(u):
        if not a:
            continue
        if i >= top:
            out[top] += a * v_total
            continue
        for j, b in enumerate(v):
            if b:
                out[min(i + j, top)] += a * b
    return tuple(out)


@lru_cache(maxsize=256)
def _fresh_vector(star2: bool, top: int) -> tuple[_Vector, int]:
    """D + 1 (never negative), values 0..top with "top or more" lumped."""
    return _vector(lambda v: _p_fresh(star2, v - 1), Fraction(1), top)


@lru_cache(maxsize=256)
def _sum_table(need: int, star2: bool) -> tuple[tuple[_Vector, ...], int]:
    """For n = 0..MAX_DICE, the distribution of (net + n) over n dice, and the per-die exponent.

    Shifting every die by +1 makes the partial sums non-negative, so a cell lumped at
    ``need + 6 + MAX_DICE`` can never come back below need + 6 after the shift is undone.
    """
    top = need + MOMENTUM_CAP + MAX_DICE
    die, e = _fresh_vector(star2, top)
    table = [tuple([1] + [0] * top)]
    for _ in range(MAX_DICE):
        table.append(_convolve(table[-1], die, top))
    return tuple(table), e


@lru_cache(maxsize=256)
def _others_table(need: int, star2: bool) -> tuple[tuple[_Vector, ...], int]:
    """For r dice that show a bull's-eye or a star, the distribution of their net (unnormalised,
    mass 1/2 per die), up to ``need + MAX_DICE`` lumped: the momentum policy only needs
    nets below ``need`` plus at most MAX_DICE flops."""
    top = need + MAX_DICE

    def pmf(v: int) -> Fraction:
        bull = 2 * _SIXTH if v == 1 else Fraction(0)
        star = Fraction(1) if star2 and v == 2 else Fraction(0)
        if not star2:
            star = _p_fresh(False, v - 1)  # the star's success, then a fresh die: 1 + D
        return bull + _SIXTH * star

    g, e = _vector(pmf, Fraction(1, 2), top)
    table = [tuple([1] + [0] * top)]
    for _ in range(MAX_DICE):
        table.append(_convolve(table[-1], g, top))
    return tuple(table), e


@lru_cache(maxsize=1024)
def _transient(n: int, need: int, star2: bool) -> tuple[dict[tuple[int, int, int], int], int]:
    """Weights of (net, X dice, blank dice) over rolls that are neither success nor flop.

    X and blank counts are capped at MAX_MOMENTUM (no more can ever be replaced). The weights
    share the exponent ``n * e`` returned with them.
    """
    others, e = _others_table(need, star2)
    out: dict[tuple[int, int, int], int] = {}
    for a in range(n + 1):
        for b in range(n - a + 1):
            r = n - a - b
            ways = factorial(n) // (factorial(a) * factorial(b) * factorial(r))
            # X weighs 1/6, blank 2/6: lift both to the others' exponent e.
            coeff = ways * 2**b * 6 ** ((a + b) * (e - 1))
            dist = others[r]
            key_ab = (min(a, MAX_MOMENTUM), min(b, MAX_MOMENTUM))
            for net in range(need):
                w = dist[net + a]
                if w:
                    key = (net, *key_ab)
                    out[key] = out.get(key, 0) + coeff * w
    return out, e


@lru_cache(maxsize=256)
def _policy(need: int, star2: bool) -> tuple[dict[tuple[int, int, int], _Vector], int]:
    """Outcome vectors of the Momentum policy from (net, X left, blanks left).

    A state with j = X left + blanks left replacements to go has the exponent ``j * e``.
    """
    top = need + MOMENTUM_CAP + 1  # D + 1 >= top means the new net is at least need + 6
    die, e = _fresh_vector(star2, top)
    failure = tuple(1 if c == _FAIL else 0 for c in range(_WIDTH))
    table: dict[tuple[int, int, int], _Vector] = {}
    for j in range(MAX_MOMENTUM + 1):
        unit = 6 ** (max(j - 1, 0) * e)
        for x_left in range(j + 1):
            b_left = j - x_left
            for net in range(need):
                if j == 0:
                    table[net, x_left, b_left] = failure
                    continue
                bonus = 1 if x_left else 0  # replacing an X also removes that flop
                after = (x_left - 1, b_left) if x_left else (x_left, b_left - 1)
                vec = [0] * _WIDTH
                for v, w in enumerate(die):
                    if not w:
                        continue
                    vec[_SPENT] += w * unit
                    new = net + bonus + v - 1
                    if v == top or new >= need:
                        vec[_EXTRA0 + min(new - need, MOMENTUM_CAP)] += w * unit
                    elif new < 0:
                        vec[_FLOP] += w * unit
                    else:
                        for c, sub in enumerate(table[(new, *after)]):
                            if sub:
                                vec[c] += w * sub
                table[net, x_left, b_left] = tuple(vec)
    return table, e


@lru_cache(maxsize=1024)
def chance_at_least(dice: int, threshold: int, *, star2: bool = False) -> float:
    """P(the net of ``dice`` freshly rolled dice is at least ``threshold``), exactly.

    What a re-roll prompt needs: replacing k dice of a roll succeeds when the kept dice's net
    plus the k new dice's net reaches the successes needed, i.e. threshold = need - kept net.
    """
    if dice < 0:
        raise ValueError("dice must be 0 or more")
    # A die takes at most 1 off the net, so a partial sum at or above threshold + dice can no
    # longer fall below the threshold: every such value is lumped into one cell.
    top = max(threshold, 0) + dice + 1
    dist = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for v, p in dist.items():
            if v >= top:
                nxt[top] = nxt.get(top, Fraction(0)) + p
                continue
            left = Fraction(1)
            for d in range(-1, top - v):
                q = _p_fresh(star2, d)
                if q:
                    nxt[v + d] = nxt.get(v + d, Fraction(0)) + p * q
                    left -= q
            nxt[top] = nxt.get(top, Fraction(0)) + p * left  # every larger net lumped
        dist = nxt
    return float(sum((p for v, p in dist.items() if v >= threshold), Fraction(0)))
