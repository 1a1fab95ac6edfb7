"""chance_at_least: the odds a re-roll prompt shows (n fresh dice reaching a net threshold)."""

from __future__ import annotations

import pytest

from engine.dice.odds import chance_at_least, odds


@pytest.mark.parametrize("n", range(0, 13))
@pytest.mark.parametrize("need", [1, 2, 3, 5])
@pytest.mark.parametrize("star2", [False, True])
def test_agrees_with_the_exact_odds_for_positive_needs(n, need, star2):
    assert chance_at_least(n, need, star2=star2) == pytest.approx(odds(n, need, star2=star2).success, abs=1e-12)


def test_thresholds_at_or_below_zero():
    assert chance_at_least(0, 0) == 1.0
    # One die nets -1 only on a flop: P(net >= 0) = 5/6.
    assert chance_at_least(1, 0) == pytest.approx(5 / 6)
    assert chance_at_least(2, -2) == 1.0
    assert chance_at_least(3, -1) > chance_at_least(3, 0) > chance_at_least(3, 1)
