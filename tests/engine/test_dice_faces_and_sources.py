"""Challenge die faces, the face parser, and the injectable dice sources."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import (
    DiceSource,
    Face,
    ReplayDice,
    ScriptedDice,
    SeededDice,
    parse_faces,
    record_from_json,
    record_to_json,
)
from engine.errors import DiceScriptError, ElfballError, MalformedInputError

X, B, S, O = Face.FLOP, Face.BLANK, Face.STAR, Face.BULLSEYE  # noqa: E741 - the faces as the rulebook prints them


class TestFaces:
    @pytest.mark.parametrize(
        ("pips", "face"), [(1, X), (2, B), (3, B), (4, S), (5, O), (6, O)]
    )
    def test_d6_substitute(self, pips: int, face: Face) -> None:
        assert Face.from_d6(pips) is face

    @pytest.mark.parametrize("pips", [0, 7, -1, True, 2.0, "3"])
    def test_d6_out_of_range(self, pips: object) -> None:
        with pytest.raises(MalformedInputError):
            Face.from_d6(pips)  # type: ignore[arg-type]

    def test_symbols(self) -> None:
        assert [f.symbol for f in Face] == ["X", "-", "*", "O"]

    def test_successes_by_mode(self) -> None:
        assert [f.successes() for f in Face] == [0, 0, 1, 1]
        assert [f.successes(star2=True) for f in Face] == [0, 0, 2, 1]


class TestParseFaces:
    def test_symbols_spaced(self) -> None:
        assert parse_faces("X - * O") == (X, B, S, O)

    def test_compact_and_separators(self) -> None:
        assert parse_faces("X-*O") == (X, B, S, O)
        assert parse_faces("x, -; *  o") == (X, B, S, O)

    def test_names_and_en_dash(self) -> None:
        assert parse_faces("flop blank star bullseye") == (X, B, S, O)
        assert parse_faces(["Flop", "–", "STAR", "bull's-eye"]) == (X, B, S, O)
        assert parse_faces([X, "O"]) == (X, O)

    def test_empty_is_no_dice(self) -> None:
        assert parse_faces("") == ()
        assert parse_faces([]) == ()

    @pytest.mark.parametrize("text", ["X - Q", "hit", "X7", "5"])
    def test_malformed_quotes_input(self, text: str) -> None:
        with pytest.raises(MalformedInputError) as info:
            parse_faces(text)
        assert repr(text) in str(info.value)

    def test_non_text_token(self) -> None:
        with pytest.raises(MalformedInputError):
            parse_faces([X, 5])  # type: ignore[list-item]

    @given(st.lists(st.sampled_from(list(Face))))
    def test_symbols_round_trip(self, faces: list[Face]) -> None:
        assert parse_faces(" ".join(f.symbol for f in faces)) == tuple(faces)
        assert parse_faces("".join(f.symbol for f in faces)) == tuple(faces)


class TestScriptedDice:
    def test_returns_script_in_order_and_records(self) -> None:
        dice = ScriptedDice(faces="X * O", d6=[5, 2])
        assert dice.face() is X
        assert dice.d6() == 5
        assert dice.face() is S
        assert dice.face() is O
        assert dice.d6() == 2
        assert dice.exhausted
        assert dice.record == [("face", X), ("d6", 5), ("face", S), ("face", O), ("d6", 2)]

    def test_runs_out_of_faces(self) -> None:
        dice = ScriptedDice(faces="X -", d6=[3])
        dice.face(), dice.face()
        with pytest.raises(DiceScriptError, match="ran out of Challenge dice faces.*#3.*X -"):
            dice.face()
        assert dice.unused_d6 == (3,)

    def test_runs_out_of_d6(self) -> None:
        dice = ScriptedDice(faces="O")
        with pytest.raises(DiceScriptError, match="ran out of D6"):
            dice.d6()
        assert dice.unused_faces == (O,)
        assert not dice.exhausted

    def test_bad_script(self) -> None:
        with pytest.raises(MalformedInputError):
            ScriptedDice(d6=[7])
        with pytest.raises(MalformedInputError):
            ScriptedDice(faces="X Y")

    def test_is_an_elfball_error(self) -> None:
        with pytest.raises(ElfballError):
            ScriptedDice().face()


class TestSeededDice:
    def test_same_seed_same_rolls(self) -> None:
        a, b = SeededDice(42), SeededDice(42)
        rolls_a = [(a.face(), a.d6()) for _ in range(50)]
        rolls_b = [(b.face(), b.d6()) for _ in range(50)]
        assert rolls_a == rolls_b
        assert a.record == b.record

    def test_different_seeds_differ(self) -> None:
        a, b = SeededDice(1), SeededDice(2)
        assert [a.face() for _ in range(40)] != [b.face() for _ in range(40)]

    def test_does_not_touch_global_random(self) -> None:
        import random

        random.seed(0)
        expected = random.random()
        random.seed(0)
        dice = SeededDice(5)
        for _ in range(10):
            dice.face()
            dice.d6()
        assert random.random() == expected

    def test_face_frequencies(self) -> None:
        dice = SeededDice(2024)
        counts = {f: 0 for f in Face}
        n = 60_000
        for _ in range(n):
            counts[dice.face()] += 1
        for face, p in ((X, 1 / 6), (B, 2 / 6), (S, 1 / 6), (O, 2 / 6)):
            sigma = (p * (1 - p) / n) ** 0.5
            assert abs(counts[face] / n - p) < 5 * sigma
        assert all(1 <= dice.d6() <= 6 for _ in range(200))

    def test_sources_are_dice_sources(self) -> None:
        for source in (SeededDice(1), ScriptedDice(), ReplayDice([])):
            assert isinstance(source, DiceSource)


class TestRecordAndReplay:
    def test_json_shape_and_round_trip(self) -> None:
        dice = ScriptedDice(faces="X O", d6=[5])
        dice.face(), dice.d6(), dice.face()
        data = dice.record_json()
        assert data == [["face", "X"], ["d6", 5], ["face", "O"]]
        assert json.loads(json.dumps(data)) == data
        assert record_from_json(data) == dice.record
        assert record_to_json(record_from_json(data)) == data

    def test_replay_reproduces_a_seeded_run(self) -> None:
        seeded = SeededDice(99)
        original = [seeded.face() if i % 3 else seeded.d6() for i in range(30)]
        replay = ReplayDice(json.loads(json.dumps(seeded.record_json())))
        again = [replay.face() if i % 3 else replay.d6() for i in range(30)]
        assert again == original
        assert replay.exhausted
        assert replay.record == seeded.record

    def test_replay_accepts_face_values(self) -> None:
        replay = ReplayDice([("face", S), ("d6", 1)])
        assert (replay.face(), replay.d6()) == (S, 1)

    def test_replay_divergence_names_both_kinds(self) -> None:
        replay = ReplayDice([["face", "X"], ["d6", 4]])
        replay.face()
        with pytest.raises(DiceScriptError, match=r"diverged at result #2.*Challenge die.*D6 \(4\)"):
            replay.face()

    def test_replay_runs_out(self) -> None:
        replay = ReplayDice([["d6", 4]])
        replay.d6()
        with pytest.raises(DiceScriptError, match="replay ran out.*only 1"):
            replay.d6()

    @pytest.mark.parametrize(
        "bad",
        [[["face", "Q"]], [["d6", 0]], [["coin", 1]], [["face"]], ["face"], [["d6", "5"]]],
    )
    def test_malformed_records(self, bad: list[object]) -> None:
        with pytest.raises(MalformedInputError):
            record_from_json(bad)  # type: ignore[arg-type]
