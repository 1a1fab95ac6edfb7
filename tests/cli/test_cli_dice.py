"""``elfball odds`` and ``elfball roll`` through the real dispatcher."""

from __future__ import annotations

import json
import re

import pytest

from cli.main import main
from engine.dice import ChallengeRoll, ReplayDice, odds


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestOdds:
    def test_json_is_one_object_with_the_probabilities(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "odds", "4", "2", "--json")
        assert code == 0 and err == ""
        data = json.loads(out)
        expected = odds(4, 2)
        assert data["dice"] == 4 and data["need"] == 2
        assert data["star2"] is False and data["momentum"] == 0
        assert data["success"] == pytest.approx(expected.success)
        assert data["flop"] == pytest.approx(expected.flop)
        assert data["fail"] == pytest.approx(expected.fail)
        assert data["extra"] == pytest.approx(list(expected.extra))
        assert data["success"] + data["flop"] + data["fail"] == pytest.approx(1)

    def test_json_with_options(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "odds", "3", "2", "--star2", "--momentum", "2", "--json")
        data = json.loads(out)
        assert code == 0
        assert data["star2"] is True and data["momentum"] == 2
        assert data["success"] == pytest.approx(odds(3, 2, star2=True, momentum=2).success)
        assert 0 < data["counters_spent"] <= 2

    def test_text(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "odds", "1", "1", "--star2")
        assert code == 0
        assert "1 dice, need 1" in out
        assert re.search(r"success\s+50\.00%", out)
        assert re.search(r"flop\s+16\.67%", out)
        assert re.search(r"failure\s+33\.33%", out)
        assert "6+:" in out

    def test_text_with_momentum_shows_counters(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "odds", "3", "3", "--momentum", "3")
        assert "up to 3 Momentum" in out
        assert "counters spent on average" in out

    def test_need_below_one_is_clamped_with_a_note(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "odds", "3", "-1")
        assert code == 0
        assert "need -1 counts as 1" in out
        code, out, _ = run(capsys, "odds", "3", "0", "--json")
        data = json.loads(out)
        assert data["need"] == 1 and data["need_requested"] == 0

    @pytest.mark.parametrize(
        ("argv", "fragment"),
        [
            (["odds", "13", "2"], "0 to 12 dice"),
            (["odds", "-1", "2"], "0 to 12 dice"),
            (["odds", "3", "2", "--momentum", "7"], "0 to 6"),
        ],
    )
    def test_out_of_range_is_exit_2(self, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
        code, out, err = run(capsys, *argv)
        assert code == 2
        assert out == ""
        assert fragment in err and err.startswith("elfball odds:")

    def test_not_a_number_is_an_argparse_error(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as info:
            main(["odds", "three", "2"])
        assert info.value.code == 2
        assert "invalid int value" in capsys.readouterr().err


class TestRoll:
    def test_seeded_roll_is_reproducible_and_prints_the_seed(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, first, _ = run(capsys, "roll", "5", "2", "--seed", "11")
        assert code == 0
        _, second, _ = run(capsys, "roll", "5", "2", "--seed", "11")
        assert first == second
        assert "seed 11" in first and "--seed 11" in first
        assert re.search(r"successes \d+, flops \d+, net -?\d+", first)
        assert re.search(r"outcome: (flop|failure|success, exactly|success, \d+ extra → Momentum \+\d)", first)

    def test_without_seed_prints_one_that_reproduces_the_roll(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "roll", "6", "3")
        match = re.search(r"seed (\d+)", out)
        assert match
        _, again, _ = run(capsys, "roll", "6", "3", "--seed", match.group(1))
        assert again == out

    def test_json_matches_the_engine(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "roll", "4", "2", "--seed", "3", "--json")
        assert code == 0
        data = json.loads(out)
        roll = ChallengeRoll.from_dict(data["roll"])
        assert (roll.successes, roll.flops, roll.net, roll.band.value) == (
            data["successes"], data["flops"], data["net"], data["band"],
        )
        assert ChallengeRoll.roll(4, 2, ReplayDice(data["record"])) == roll
        assert data["seed"] == 3

    def test_faces_include_star_rerolls(self, capsys: pytest.CaptureFixture[str]) -> None:
        # Find a seed whose roll shows a star, then check its re-roll is printed after ">".
        for seed in range(200):
            _, out, _ = run(capsys, "roll", "6", "1", "--seed", str(seed), "--json")
            data = json.loads(out)
            if any(d["origin"] == "star" for d in data["roll"]["dice"]):
                assert ">" in data["faces"]
                _, text, _ = run(capsys, "roll", "6", "1", "--seed", str(seed))
                assert data["faces"] in text
                return
        pytest.fail("no star in 200 seeded rolls of 6 dice")

    def test_star2_has_no_rerolls(self, capsys: pytest.CaptureFixture[str]) -> None:
        for seed in range(30):
            _, out, _ = run(capsys, "roll", "6", "1", "--seed", str(seed), "--star2", "--json")
            data = json.loads(out)
            assert len(data["roll"]["dice"]) == 6
            assert data["roll"]["star2"] is True

    def test_zero_dice_is_a_failure(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "roll", "0", "1", "--seed", "1")
        assert code == 0
        assert "no dice" in out and "outcome: failure" in out

    def test_out_of_range(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, _, err = run(capsys, "roll", "13", "1")
        assert code == 2 and "0 to 12 dice" in err
