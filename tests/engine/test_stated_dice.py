"""A lesson's dice (``engine.StatedDice``): the stated results by position, the seed's elsewhere,
and resumable from a stored offset like ``HashDice``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import DieFace, HashDice, StatedDice

HIT, X = DieFace.BULLSEYE, DieFace.FLOP


def test_stated_results_come_first_then_the_seeds() -> None:
    d = StatedDice([HIT, 4, X], "seed")
    assert (d.face(), d.d6()) == (HIT, 4)
    # Position 2 states a face; a D6 asked there is the seed's result 2, not the face.
    h = HashDice("seed", offset=2)
    assert d.d6() == h.d6()
    assert d.face() == h.face()  # past the stated ones: the seed's
    assert d.position == 4


def test_a_stored_lesson_resumes_its_dice_from_the_offset() -> None:
    whole = StatedDice([HIT, HIT, 3], "s")
    rolled = [whole.face(), whole.face(), whole.d6(), whole.face()]
    resumed = StatedDice([HIT, HIT, 3], "s", offset=2)
    assert [resumed.d6(), resumed.face()] == rolled[2:]


@given(st.lists(st.sampled_from(["face", "d6"]), max_size=12), st.integers(0, 6))
def test_without_stated_dice_it_is_the_seeds_dice(kinds: list[str], offset: int) -> None:
    a, b = StatedDice([], "k", offset), HashDice("k", offset)
    assert [getattr(a, k)() for k in kinds] == [getattr(b, k)() for k in kinds]
