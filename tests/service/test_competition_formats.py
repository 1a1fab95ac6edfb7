"""The formats' schedules as pure functions (``service.formats``): how many ties and rounds,
byes, seeding, the ruling for a drawn knockout tie, Swiss pairings without repeats."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db.leagues import SETTING_CHOICES
from service import formats
from service.formats import Pairing
from service.leagues import round_robin


def test_the_store_and_the_formats_know_the_same_words() -> None:
    assert SETTING_CHOICES == {"format": formats.FORMATS, "seeding": formats.SEEDINGS, "draw_rule": formats.DRAW_RULES}


# --- the draw ------------------------------------------------------------------------------------
def test_the_draw_is_a_permutation_fixed_by_its_secret() -> None:
    ids = [3, 9, 14, 27, 30]
    once = formats.draw_order(ids, "secret-a")
    assert sorted(once) == ids and formats.draw_order(list(reversed(ids)), "secret-a") == once
    assert any(formats.draw_order(ids, f"secret-{i}") != once for i in range(5)), "another secret, another order"
    # Seeds first, in the commissioner's order; the rest in the draw's order.
    seeded = formats.seeded_order(ids, [27, 3], "secret-a")
    assert seeded[:2] == [27, 3] and seeded[2:] == [t for t in once if t not in (27, 3)]


# --- knockout ------------------------------------------------------------------------------------
def test_a_seeded_bracket_of_eight_meets_one_v_eight_and_four_v_five() -> None:
    assert formats.seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert formats.seed_positions(16)[:4] == [1, 16, 8, 9]
    order = [101, 102, 103, 104, 105, 106, 107, 108]  # seed 1 first
    places = formats.bracket(order)
    seeds = {t: i + 1 for i, t in enumerate(order)}
    due = formats.knockout_due(places, {}, seeds)
    assert [(seeds[p.home], seeds[p.away], p.slot) for p in due] == [(1, 8, 0), (4, 5, 1), (2, 7, 2), (3, 6, 3)]
    assert {p.round for p in due} == {1} and formats.knockout_rounds(8) == 3


def test_byes_go_to_the_top_seeds_of_a_field_that_is_no_power_of_two() -> None:
    order = [1, 2, 3, 4, 5]
    places = formats.bracket(order)
    assert places == [1, None, 4, 5, 2, None, 3, None]  # seeds 1, 2, 3 have a bye
    seeds = {t: t for t in order}
    due = formats.knockout_due(places, {}, seeds)
    # 4 v 5 in the first round; 2 and 3 both had byes, so their quarter... semi-final is due at once.
    assert due == [Pairing(1, 4, 5, 1), Pairing(2, 2, 3, 1)]
    winners = {(1, 1): 5}
    assert formats.knockout_due(places, winners, seeds) == [Pairing(2, 1, 5, 0), Pairing(2, 2, 3, 1)]
    winners |= {(2, 0): 5, (2, 1): 2}
    assert formats.knockout_due(places, winners, seeds) == [Pairing(3, 2, 5, 0)]  # the higher seed at home
    assert formats.knockout_champion(places, winners) is None
    assert formats.knockout_champion(places, winners | {(3, 0): 5}) == 5


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 33), upsets=st.lists(st.booleans(), min_size=40, max_size=40))
def test_a_knockout_of_n_teams_plays_n_minus_one_ties(n: int, upsets: list[bool]) -> None:
    order = list(range(1, n + 1))
    places, seeds = formats.bracket(order), {t: t for t in order}
    winners: dict[tuple[int, int], int] = {}
    played: list[Pairing] = []
    while (due := formats.knockout_due(places, winners, seeds)):
        for p in due:
            assert seeds[p.home] < seeds[p.away], "the higher seed is at home"
            winners[(p.round, p.slot)] = p.away if upsets[len(played) % 40] else p.home
            played.append(p)
    assert len(played) == n - 1
    assert max(p.round for p in played) == formats.knockout_rounds(n) == math.ceil(math.log2(n))
    assert formats.knockout_champion(places, winners) in order
    byes = formats.bracket_size(n) - n
    assert sum(1 for p in played if p.round == 1) == n - formats.bracket_size(n) // 2 == (n - byes) // 2
    if not any(upsets[: len(played)]):
        assert formats.knockout_champion(places, winners) == 1


def test_a_drawn_knockout_tie_follows_the_league_s_ruling() -> None:
    seeds = {7: 1, 8: 2}
    assert formats.knockout_winner(8, 7, 2, 1, None, "replay", seeds) == (8, "score")
    assert formats.knockout_winner(8, 7, 2, 1, "home", "replay", seeds) == (7, "conceded")
    assert formats.knockout_winner(8, 7, 1, 1, None, "replay", seeds) == (None, "replay")
    assert formats.knockout_winner(8, 7, 1, 1, None, "higher_seed", seeds) == (7, "higher_seed")
    # The coin comes from the match's revealed seed: the same seed, the same side, anyone can check.
    heads = next(f"seed{i}" for i in range(50) if formats.coin(f"seed{i}") == 0)
    tails = next(f"seed{i}" for i in range(50) if formats.coin(f"seed{i}") == 1)
    assert formats.knockout_winner(8, 7, 0, 0, None, "coin", seeds, heads) == (8, "coin")
    assert formats.knockout_winner(8, 7, 0, 0, None, "coin", seeds, tails) == (7, "coin")
    # A drawn result with no match behind it (a commissioner's) has no coin: the higher seed.
    assert formats.knockout_winner(8, 7, 0, 0, None, "coin", seeds, None) == (7, "higher_seed")


# --- Swiss ---------------------------------------------------------------------------------------
def test_a_swiss_first_round_pairs_the_top_half_with_the_bottom_half() -> None:
    found = formats.swiss_pairings([1, 2, 3, 4, 5, 6, 7, 8], {}, set())
    assert found is not None
    pairs, bye = found
    assert [(p.home, p.away) for p in pairs] == [(1, 5), (2, 6), (3, 7), (4, 8)] and bye is None
    pairs, bye = formats.swiss_pairings([1, 2, 3, 4, 5], {}, set()) or ([], None)
    assert bye == 5 and [(p.home, p.away) for p in pairs] == [(1, 3), (2, 4)]


def test_swiss_pairs_on_points_and_never_twice() -> None:
    points = {1: 3, 2: 3, 3: 0, 4: 0}
    pairs, bye = formats.swiss_pairings([1, 2, 3, 4], points, {frozenset((1, 3)), frozenset((2, 4))}, rnd=2) or ([], 0)
    assert [(p.round, p.home, p.away) for p in pairs] == [(2, 1, 2), (2, 3, 4)] and bye is None
    # Leaders who met already: each plays the best team he has not met.
    met = {frozenset((1, 3)), frozenset((2, 4)), frozenset((1, 2)), frozenset((3, 4))}
    pairs, _ = formats.swiss_pairings([1, 2, 3, 4], {1: 6, 2: 3, 3: 3, 4: 0}, met, rnd=3) or ([], 0)
    assert sorted(tuple(sorted((p.home, p.away))) for p in pairs) == [(1, 4), (2, 3)]
    # Nothing left to pair without a repeat: None, and the Swiss ends.
    assert formats.swiss_pairings([1, 2], {}, {frozenset((1, 2))}) is None


def test_the_swiss_table_breaks_ties_by_buchholz() -> None:
    points = {1: 3, 2: 3, 3: 3, 4: 0}
    opponents = {1: [4], 2: [3], 3: [2], 4: [1]}
    assert formats.swiss_order([1, 2, 3, 4], points, opponents)[:2] == [2, 3]  # they met a team with points


def test_the_swiss_rounds_default_and_limit() -> None:
    assert [formats.swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]
    assert formats.swiss_rounds(4, 9) == 3 and formats.max_swiss_rounds(5) == 5


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 14), data=st.data())
def test_swiss_rounds_never_repeat_a_pair_and_nobody_plays_twice_a_round(n: int, data: st.DataObject) -> None:
    teams = list(range(1, n + 1))
    rounds = data.draw(st.integers(1, formats.max_swiss_rounds(n)), label="rounds")
    points = dict.fromkeys(teams, 0)
    opponents: dict[int, list[int]] = {t: [] for t in teams}
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    homes: dict[int, int] = dict.fromkeys(teams, 0)
    for rnd in range(1, rounds + 1):
        ranked = formats.swiss_order(teams, points, opponents)
        found = formats.swiss_pairings(ranked, points, met, set(byes), homes, rnd=rnd)
        if found is None:
            # A pairing without a repeat always exists while fewer than n // 2 rounds are played
            # (Dirac: what is left of the field is dense enough); later the Swiss may end early.
            assert rnd > n // 2
            break
        pairs, bye = found
        playing = [t for p in pairs for t in (p.home, p.away)]
        assert len(playing) == len(set(playing)), "every team plays at most once a round"
        assert set(playing) | ({bye} if bye is not None else set()) == set(teams)
        assert (bye is not None) == (n % 2 == 1)
        if bye is not None:
            assert bye not in byes or len(set(byes)) == n, "a bye goes to a team that had none"
            byes.append(bye)
            points[bye] += 3
        for p in pairs:
            pair = frozenset((p.home, p.away))
            assert pair not in met, "no two teams meet twice"
            assert p.round == rnd
            met.add(pair)
            homes[p.home] += 1
            opponents[p.home].append(p.away)
            opponents[p.away].append(p.home)
            result = data.draw(st.sampled_from(["home", "away", "draw"]))
            if result == "draw":
                points[p.home] += 1
                points[p.away] += 1
            else:
                points[p.home if result == "home" else p.away] += 3
    assert len(met) <= len(list(combinations(teams, 2)))


def test_the_fingerprint_names_the_draw() -> None:
    a = [Pairing(1, 1, 2), Pairing(1, 3, 4)]
    assert formats.fingerprint(a) == formats.fingerprint(list(a))
    assert formats.fingerprint(a) != formats.fingerprint([Pairing(1, 1, 3), Pairing(1, 2, 4)])
    assert formats.fingerprint(a, [5]) != formats.fingerprint(a)


@pytest.mark.parametrize("n", [2, 3, 5, 8])
def test_round_robin_is_the_same_as_before(n: int) -> None:
    assert round_robin(list(range(n))) == formats.round_robin(list(range(n)))


# --- double elimination ----------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 20), upsets=st.lists(st.booleans(), min_size=64, max_size=64))
def test_a_double_elimination_puts_every_team_but_the_champion_out_at_its_second_loss(
        n: int, upsets: list[bool]) -> None:
    order = list(range(1, n + 1))
    places, seeds = formats.bracket(order), {t: t for t in order}
    winners: dict[tuple[int, int], int] = {}
    losses = dict.fromkeys(order, 0)
    played: list[Pairing] = []
    while (due := formats.knockout_due(places, winners, seeds, double=True)):
        playing = [t for p in due for t in (p.home, p.away)]
        assert len(playing) == len(set(playing)), "a team is in one open tie at a time"
        for p in due:
            assert losses[p.home] < 2 and losses[p.away] < 2, "a team out plays no more"
            won = p.away if upsets[len(played) % 64] else p.home
            winners[(p.round, p.slot)] = won
            losses[p.away if won == p.home else p.home] += 1
            played.append(p)
    champion = formats.knockout_champion(places, winners, double=True)
    assert champion in order and losses[champion] <= 1
    assert all(losses[t] == 2 for t in order if t != champion)
    assert len(played) in (2 * n - 2, 2 * n - 1), "2n - 2 ties, and a second grand final if needed"
    final = max(p.round for p in played if p.slot == formats.GRAND_FINAL)
    assert final == formats.knockout_rounds(n, double=True)


def test_a_double_elimination_of_four_and_its_second_grand_final() -> None:
    places, seeds = formats.bracket([1, 2, 3, 4]), {1: 1, 2: 2, 3: 3, 4: 4}
    assert formats.knockout_due(places, {}, seeds, double=True) == [Pairing(1, 1, 4, 0), Pairing(1, 2, 3, 1)]
    winners = {(1, 0): 1, (1, 1): 2}
    # Round 2: the winners' final, and the first round's losers in the losers' bracket.
    assert formats.knockout_due(places, winners, seeds, double=True) == [
        Pairing(2, 1, 2, 0), Pairing(2, 3, 4, formats.LOSERS)]
    winners |= {(2, 0): 1, (2, formats.LOSERS): 3}
    assert formats.knockout_due(places, winners, seeds, double=True) == [Pairing(3, 2, 3, formats.LOSERS)]
    winners |= {(3, formats.LOSERS): 3}
    assert formats.knockout_due(places, winners, seeds, double=True) == [Pairing(4, 1, 3, formats.GRAND_FINAL)]
    # The losers' bracket's team wins the grand final: both have lost once, so it is played again.
    winners |= {(4, formats.GRAND_FINAL): 3}
    assert formats.knockout_champion(places, winners, double=True) is None
    assert formats.knockout_due(places, winners, seeds, double=True) == [Pairing(5, 1, 3, formats.GRAND_FINAL + 1)]
    assert formats.knockout_champion(places, winners | {(5, formats.GRAND_FINAL + 1): 3}, double=True) == 3
    # Had the winners' bracket's team won the grand final, it would be over.
    done = {k: v for k, v in winners.items() if k != (4, formats.GRAND_FINAL)} | {(4, formats.GRAND_FINAL): 1}
    assert formats.knockout_due(places, done, seeds, double=True) == []
    assert formats.knockout_champion(places, done, double=True) == 1
