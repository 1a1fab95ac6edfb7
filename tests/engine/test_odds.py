"""Exact challenge odds: hand-derived values, independent references, laws and a Monte Carlo check."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from math import comb, factorial, sqrt

import pytest

from engine.dice import ChallengeRoll, Face, Need, Odds, Origin, SeededDice, odds
from engine.dice.odds import MAX_DICE, MAX_MOMENTUM, MOMENTUM_CAP, clear_cache
from engine.errors import MalformedInputError

F = Fraction
SIXTH = F(1, 6)
# One fresh die in the standard mode adds D to the net: D = -1 is an X (1/6); D = 0 is a blank
# (2/6) or a star then an X (1/36); D = 1 is a bull's-eye (2/6), a star then a blank (2/36) or
# two stars then an X (1/216).
P_D = {-1: F(1, 6), 0: F(13, 36), 1: F(85, 216)}
FACE_P = {Face.FLOP: F(1, 6), Face.BLANK: F(2, 6), Face.STAR: F(1, 6), Face.BULLSEYE: F(2, 6)}


# -- values worked out by hand -------------------------------------------------------------


class TestHandValues:
    def test_one_die_need_one(self) -> None:
        # Success iff D >= 1; a flop only from an X on the first roll (a star then an X is S = F).
        o = odds(1, 1).exact
        assert o.success == 1 - P_D[-1] - P_D[0] == F(17, 36)
        assert o.flop == F(1, 6)
        assert o.fail == F(13, 36)
        # Exactly one success: D = 1. One extra: D = 2 = 1/6^4 + 2/6^3 + 2/6^2.
        assert o.extra[0] == F(85, 216)
        assert o.extra[1] == F(1, 6**4) + F(2, 6**3) + F(2, 6**2)

    def test_one_die_need_two(self) -> None:
        assert odds(1, 2).exact.success == 1 - P_D[-1] - P_D[0] - P_D[1] == F(17, 216)

    def test_star2_one_die(self) -> None:
        o = odds(1, 1, star2=True).exact
        assert (o.success, o.flop, o.fail) == (F(3, 6), F(1, 6), F(2, 6))
        assert o.extra[:2] == (F(2, 6), F(1, 6))  # bull's-eye exactly, star one extra
        assert odds(1, 2, star2=True).exact.success == F(1, 6)
        assert odds(1, 3, star2=True).exact.success == 0

    def test_one_die_with_one_counter(self) -> None:
        # An X is a flop (no Momentum); a blank is replaced by a fresh die; a star's re-roll
        # is never replaceable. success = 17/36 + 2/6 * 17/36, flop = 1/6 + 2/6 * 1/6.
        o = odds(1, 1, momentum=1).exact
        assert o.success == F(17, 36) * F(4, 3) == F(17, 27)
        assert o.flop == F(1, 6) + F(2, 6) * F(1, 6)
        assert o.counters_spent == F(2, 6)
        assert odds(1, 1, momentum=6).exact == o, "one die can be replaced only once"

    def test_two_dice_star2_need_one(self) -> None:
        # Each die adds -1, 0, +1 or +2 with weights 1, 2, 2, 1 (sixths); count ordered pairs.
        weights = {-1: 1, 0: 2, 1: 2, 2: 1}
        success = sum(weights[a] * weights[b] for a in weights for b in weights if a + b >= 1)
        flop = sum(weights[a] * weights[b] for a in weights for b in weights if a + b < 0)
        o = odds(2, 1, star2=True).exact
        assert (o.success, o.flop) == (F(success, 36), F(flop, 36)) == (F(23, 36), F(5, 36))

    def test_zero_dice(self) -> None:
        for k in (0, 3):
            o = odds(0, 1, momentum=k).exact
            assert (o.success, o.flop, o.fail, o.counters_spent) == (F(0), F(0), F(1), F(0))


# -- independent references ------------------------------------------------------------------


def negative_binomial_odds(n: int, need: int) -> tuple[F, F, tuple[F, ...]]:
    """The brief's closed form: T stars ~ NegBin(n, 1/6), final faces ~ Multinomial(n; 1/5, 2/5, 2/5)."""

    def p_t(t: int) -> F:
        return comb(t + n - 1, n - 1) * SIXTH**t * F(5, 6) ** n if n else F(int(t == 0))

    def p_at_least(m: int) -> F:
        return 1 - sum((p_t(t) for t in range(m)), F(0)) if m > 0 else F(1)

    success, flop = F(0), F(0)
    extra = [F(0)] * (MOMENTUM_CAP + 1)
    for x in range(n + 1):
        for b in range(n - x + 1):
            blanks = n - x - b
            ways = F(factorial(n), factorial(x) * factorial(b) * factorial(blanks))
            p_faces = ways * F(1, 5) ** x * F(2, 5) ** (b + blanks)
            m = need + x - b  # net = T + b - x >= need  <=>  T >= m
            success += p_faces * p_at_least(m)
            flop += p_faces * (1 - p_at_least(x - b))  # net < 0  <=>  T < x - b
            for e in range(MOMENTUM_CAP):
                if m + e >= 0:
                    extra[e] += p_faces * p_t(m + e)
            extra[MOMENTUM_CAP] += p_faces * p_at_least(m + MOMENTUM_CAP)
    return success, flop, tuple(extra)


@pytest.mark.parametrize("n", range(0, 7))
@pytest.mark.parametrize("need", [1, 2, 4])
def test_matches_negative_binomial_closed_form(n: int, need: int) -> None:
    success, flop, extra = negative_binomial_odds(n, need)
    o = odds(n, need).exact
    assert (o.success, o.flop, o.extra) == (success, flop, extra)


def brute_force(n: int, need: int, counters: int, star2: bool, depth: int) -> tuple[dict[str, F], F]:
    """Enumerate every roll (stars truncated after ``depth`` re-rolls per die) and apply the policy.

    Returns the outcome probabilities and the probability mass left out by the truncation.
    """
    # Outcomes of one die: (probability, first face, net). A star's re-roll chain is a fresh die.
    fresh: list[tuple[F, Face, int]] = [
        (FACE_P[face], face, net) for face, net in ((Face.FLOP, -1), (Face.BLANK, 0), (Face.BULLSEYE, 1))
    ]
    if star2:
        fresh.append((FACE_P[Face.STAR], Face.STAR, 2))
        lost_per_die = F(0)
    else:
        for stars in range(1, depth + 1):
            for face, net in ((Face.FLOP, -1), (Face.BLANK, 0), (Face.BULLSEYE, 1)):
                fresh.append((SIXTH**stars * FACE_P[face], Face.STAR, stars + net))
        lost_per_die = SIXTH ** (depth + 1)
    result = {"success": F(0), "flop": F(0), "fail": F(0)}

    def follow(p: F, net: int, queue: list[int], left: int) -> None:
        # queue: +1 for each X still replaceable (it also removes a flop), 0 for each blank.
        if net >= need:
            result["success"] += p
        elif net < 0:
            result["flop"] += p
        elif not left or not queue:
            result["fail"] += p
        else:
            bonus = queue[0]
            for q, _, d in fresh:
                follow(p * q, net + bonus + d, queue[1:], left - 1)

    for roll in itertools.product(fresh, repeat=n):
        p = F(1)
        for q, _, _ in roll:
            p *= q
        queue = [1 for _, f, _ in roll if f is Face.FLOP] + [0 for _, f, _ in roll if f is Face.BLANK]
        follow(p, sum(d for _, _, d in roll), queue, counters)
    return result, (n + counters) * lost_per_die


@pytest.mark.parametrize(("n", "need", "k"), [(1, 1, 1), (2, 1, 2), (2, 2, 1), (3, 2, 2), (3, 3, 3), (4, 2, 3)])
def test_star2_momentum_matches_brute_force_exactly(n: int, need: int, k: int) -> None:
    expected, lost = brute_force(n, need, k, star2=True, depth=0)
    assert lost == 0
    o = odds(n, need, star2=True, momentum=k).exact
    assert (o.success, o.flop, o.fail) == (expected["success"], expected["flop"], expected["fail"])


@pytest.mark.parametrize(("n", "need", "k"), [(1, 1, 2), (2, 1, 1), (2, 2, 1), (1, 2, 1), (2, 3, 1)])
def test_standard_momentum_within_truncation_of_brute_force(n: int, need: int, k: int) -> None:
    expected, lost = brute_force(n, need, k, star2=False, depth=6)
    o = odds(n, need, momentum=k).exact
    for key, value in (("success", o.success), ("flop", o.flop), ("fail", o.fail)):
        assert abs(value - expected[key]) <= lost, key
    assert lost < F(1, 10**4)


# -- laws ----------------------------------------------------------------------------------------

TABLE = [
    (n, need, star2, k)
    for star2 in (False, True)
    for k in range(MAX_MOMENTUM + 1)
    for need in range(1, 9)
    for n in range(MAX_DICE + 1)
]


def test_probabilities_sum_to_one_exactly() -> None:
    for n, need, star2, k in TABLE:
        o = odds(n, need, star2=star2, momentum=k).exact
        assert o.success + o.flop + o.fail == 1, (n, need, star2, k)
        assert sum(o.extra) == o.success
        assert all(0 <= p <= 1 for p in (o.success, o.flop, o.fail, *o.extra))
        assert 0 <= o.counters_spent <= k
        if k == 0:
            assert o.counters_spent == 0


def test_monotone_in_dice_need_and_momentum() -> None:
    for n, need, star2, k in TABLE:
        here = odds(n, need, star2=star2, momentum=k).exact.success
        if n < MAX_DICE:
            assert odds(n + 1, need, star2=star2, momentum=k).exact.success >= here, ("dice", n, need, star2, k)
        assert odds(n, need + 1, star2=star2, momentum=k).exact.success <= here, ("need", n, need, star2, k)
        if k < MAX_MOMENTUM:
            assert odds(n, need, star2=star2, momentum=k + 1).exact.success >= here, ("momentum", n, need, star2, k)


def test_one_die_flops_only_on_an_x() -> None:
    # A star then an X is S = F = 1: not a flop, whatever the need.
    assert {odds(1, need).exact.flop for need in range(1, 9)} == {F(1, 6)}


def test_star2_star_chain_free_mode_is_finite() -> None:
    # In star2 mode, n dice give at most 2n successes.
    assert odds(3, 6, star2=True).exact.success == F(1, 6**3)
    assert odds(3, 7, star2=True).exact.success == 0


def test_need_is_clamped_to_one() -> None:
    assert odds(3, 0) == odds(3, -4) == odds(3, 1)
    assert odds(3, -4).need == 1
    assert odds(3, Need(1, ())).exact == odds(3, 1).exact
    assert odds(3, Need(3).plus("mates", -5)) is odds(3, 1)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((13, 1), {}),
        ((-1, 1), {}),
        ((3, 1), {"momentum": 7}),
        ((3, 1), {"momentum": -1}),
        ((3, 1.5), {}),
        ((True, 1), {}),
    ],
)
def test_out_of_range_inputs(args: tuple[object, object], kwargs: dict[str, int]) -> None:
    with pytest.raises(MalformedInputError):
        odds(*args, **kwargs)  # type: ignore[arg-type]


def test_cached_and_serialisable() -> None:
    first = odds(5, 3, momentum=2)
    assert odds(5, 3, momentum=2) is first
    data = json.loads(json.dumps(first.to_dict()))
    assert data["dice"] == 5 and data["need"] == 3 and data["momentum"] == 2 and data["star2"] is False
    assert data["success"] == pytest.approx(first.success)
    assert len(data["extra"]) == MOMENTUM_CAP + 1
    assert isinstance(first, Odds)


def test_clear_cache_gives_equal_results() -> None:
    before = odds(6, 4, star2=True, momentum=3)
    clear_cache()
    after = odds(6, 4, star2=True, momentum=3)
    assert after is not before
    assert after == before


def test_large_need_is_tiny_but_exact() -> None:
    o = odds(2, 30).exact
    assert 0 < o.success < F(1, 6**20)
    assert o.success + o.flop + o.fail == 1


# -- Monte Carlo cross-check -------------------------------------------------------------------


def play_policy(dice: int, need: int, star2: bool, counters: int, source: SeededDice) -> tuple[ChallengeRoll, int]:
    """The odds module's Momentum policy, played through the real ChallengeRoll.replace."""
    roll = ChallengeRoll.roll(dice, need, source, star2=star2)
    spent = 0
    while spent < counters and not roll.succeeded and not roll.flopped:
        rolled = [(i, d.face) for i, d in enumerate(roll.dice) if d.origin is Origin.ROLLED and not d.struck]
        choice = next((i for i, f in rolled if f is Face.FLOP), None)
        if choice is None:
            choice = next((i for i, f in rolled if f is Face.BLANK), None)
        if choice is None:
            break
        assert roll.can_replace(choice)
        roll = roll.replace(choice, source)
        spent += 1
    return roll, spent


MC_CASES = [(4, 2, False, 0), (3, 2, False, 2), (5, 3, True, 3), (2, 1, False, 1), (6, 4, False, 6)]
MC_ROLLS = 40_000  # 200 000 in all


@pytest.mark.slow
@pytest.mark.parametrize(("dice", "need", "star2", "k"), MC_CASES)
def test_monte_carlo_agrees(dice: int, need: int, star2: bool, k: int) -> None:
    source = SeededDice(1000 * dice + 100 * need + 10 * k + star2)
    counts = {"success": 0, "flop": 0, "fail": 0}
    extra = [0] * (MOMENTUM_CAP + 1)
    spent_total = spent_sq = 0
    for _ in range(MC_ROLLS):
        roll, spent = play_policy(dice, need, star2, k, source)
        key = "flop" if roll.flopped else "success" if roll.succeeded else "fail"
        counts[key] += 1
        if roll.succeeded:
            extra[min(roll.extra, MOMENTUM_CAP)] += 1
        spent_total += spent
        spent_sq += spent * spent
    o = odds(dice, need, star2=star2, momentum=k)
    expected = {"success": o.success, "flop": o.flop, "fail": o.fail}
    for key, p in expected.items():
        sigma = sqrt(max(p * (1 - p), 1e-9) / MC_ROLLS)
        assert abs(counts[key] / MC_ROLLS - p) < 5 * sigma + 1e-9, key
    for e, p in enumerate(o.extra):
        sigma = sqrt(max(p * (1 - p), 1e-9) / MC_ROLLS)
        assert abs(extra[e] / MC_ROLLS - p) < 5 * sigma + 1e-9, f"extra {e}"
    mean = spent_total / MC_ROLLS
    sd = sqrt(max(spent_sq / MC_ROLLS - mean * mean, 1e-9))
    assert abs(mean - o.counters_spent) < 5 * sd / sqrt(MC_ROLLS) + 1e-9
