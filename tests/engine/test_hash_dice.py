"""HashDice: a match's dice from a secret seed and a position, resumable and recomputable."""

from __future__ import annotations

from collections import Counter

from engine.dice import Face, HashDice, ReplayDice
from engine.fuzz import play_random_match


def test_resuming_at_an_offset_continues_the_same_sequence():
    whole = HashDice("secret")
    seq = [whole.d6() for _ in range(40)]
    later = HashDice("secret", offset=25)
    assert [later.d6() for _ in range(15)] == seq[25:]


def test_faces_use_the_d6_mapping_and_other_seeds_differ():
    a, b = HashDice("one"), HashDice("one")
    assert [a.face() for _ in range(30)] == [Face.from_d6(b.d6()) for _ in range(30)]
    assert [HashDice("one").d6() for _ in range(1)] * 30 != [HashDice("two", offset=i).d6() for i in range(30)]


def test_roughly_uniform():
    src = HashDice(b"\x00\x01")
    counts = Counter(src.d6() for _ in range(30_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(4_500 < n < 5_500 for n in counts.values())


def test_a_match_played_on_hash_dice_replays_from_the_drawn_results():
    dice = HashDice("audit-me")
    record: list = []
    state, report = play_random_match(3, dice=dice, max_commands=300, record=record)
    assert not report.violations
    # Every result the match drew, in order, replays it command by command.
    replay = ReplayDice(dice.record)
    state2, _ = play_random_match(3, dice=replay, max_commands=300)
    assert state2.to_dict() == state.to_dict()
    assert state.dice_drawn == len(dice.record)
