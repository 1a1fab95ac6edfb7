"""The scenario sandbox a commissioner settles disputes with (docs/scenarios.md): starts in set-up
and at the face-off, the deciding coach's legal commands with their odds, the state as it stands
while a question waits, and ``elfball scenario --check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from engine.errors import MalformedInputError
from engine.field import standard_field
from engine.state import Phase
from service.grammar import parse
from service.scenario import build_state, load_scenario, run_scenario
from service.scenario_tools import check_expect
from support import ROOT

F = standard_field()


def scenario(name: str) -> dict:
    return load_scenario(ROOT / "scenarios" / name)


def write(tmp_path: Path, data: dict) -> str:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    return str(f)


class TestCheck:
    def test_each_difference_is_printed_and_the_exit_code_is_1(self, tmp_path, capsys):
        data = scenario("rulebook/play-by-play-1.json")
        data["expect"] = {**data["expect"], "carrier": "e9", "momentm": 1}
        assert main(["scenario", "--check", write(tmp_path, data)]) == 1
        out = capsys.readouterr().out
        assert "carrier: expected 'e9', got 'w1'" in out and "unknown key 'momentm'" in out
        assert "2 difference(s)" in out

    def test_a_file_without_expect_is_not_a_pass(self, tmp_path, capsys):
        data = scenario("rulebook/disengage-example.json")
        del data["expect"]
        assert main(["scenario", "--check", write(tmp_path, data)]) == 2
        assert "no expect block" in capsys.readouterr().out

    def test_a_refusal_is_a_difference_unless_expected(self):
        data = scenario("sandbox/setup-facing-refused.json")
        assert check_expect(data, run_scenario(data), F) == []
        data["expect"] = {"phase": "setup"}
        (diff,) = check_expect(data, run_scenario(data), F)
        assert diff.startswith("error:") and "face" in diff

    def test_leftover_dice_are_a_difference(self):
        data = scenario("rulebook/disengage-example.json")
        data["dice"]["faces"] += " O"
        assert any("unused dice" in d for d in check_expect(data, run_scenario(data), F))


class TestStarts:
    def test_in_setup_the_second_team_places_then_the_faceoff_is_rolled(self):
        st = build_state(scenario("sandbox/setup-second-team.json"))
        assert (st.phase, st.setup_side, st.first_setup_side) == (Phase.SETUP, "east", "west")
        res = run_scenario(scenario("sandbox/setup-second-team.json"))
        assert res.state.faceoff_winner == "west" and res.error is None

    def test_at_the_faceoff_the_winner_chooses(self):
        st = build_state(scenario("sandbox/faceoff-winner-chooses.json"))
        assert (st.phase, st.faceoff_winner, st.turn_side) == (Phase.FACEOFF, "east", "east")

    @pytest.mark.parametrize("change, words", [
        ({"setup_side": "north"}, "setup_side is west or east"),
        ({"phase": "turn", "turn": "west"}, "only goes with"),
    ])
    def test_malformed_setup_keys_say_why(self, change, words):
        data = {**scenario("sandbox/setup-second-team.json"), **change}
        with pytest.raises(MalformedInputError, match=words):
            build_state(data)

    def test_a_faceoff_start_needs_its_two_players(self):
        data = scenario("sandbox/faceoff-winner-chooses.json")
        data["players"] = [p for p in data["players"] if p["id"] != "e1"]
        with pytest.raises(MalformedInputError, match="J12 and L12"):
            build_state(data)


class TestLegal:
    def test_every_line_reads_back_to_a_legal_command_with_its_odds(self):
        data = scenario("rulebook/disengage-example.json")
        data["commands"], data["dice"] = [], {}
        res = run_scenario(data)
        legal = res.to_dict()["legal"]
        assert legal["side"] == "west"
        kinds = legal["kinds"]
        assert {"move", "face", "tackle", "shove", "end_action"} <= set(kinds)
        for entries in kinds.values():
            for e in entries:
                assert e.get("grammar", True), e
                parse(e["command"], res.state, "west", F)  # the console accepts every line
        # Leaving H12 past two facing opponents: Dodge 4 dice, 2 needed (the rulebook's example).
        (g13,) = [e for e in kinds["move"] if e["command"] == "move G13"]
        assert g13["odds"] == [{"challenge": "disengage", "dice": 4, "need": 2, "success": 0.517, "flop": 0.1165}]

    def test_setup_placements_are_grouped_with_their_facings(self):
        res = run_scenario({**scenario("sandbox/setup-second-team.json"), "commands": [], "dice": {}})
        places = res.to_dict()["legal"]["kinds"]["place"]
        (faceoff,) = [e for e in places if e["command"] == "place e1 L12 FACING"]
        assert faceoff["facings"] == ["SW", "W", "NW"]  # a face-off player faces the ball

    def test_the_faceoff_winners_choices_carry_their_odds(self):
        res = run_scenario({**scenario("sandbox/faceoff-winner-chooses.json"), "commands": [], "dice": {}})
        kinds = res.to_dict()["legal"]["kinds"]
        assert kinds["faceoff_pickup"][0]["odds"][0] == {"challenge": "pickup", "dice": 3, "need": 2, "success": 0.4167,
                                                          "flop": 0.1327}
        assert all(e["odds"] for e in kinds["faceoff_contact"])


def test_while_a_question_waits_the_state_is_the_position_as_it_stands():
    data = scenario("rulings/fr-catch-footnote.json")
    data["commands"], data["dice"] = ["tackle e2"], {"faces": "O O - -", "d6": [2]}
    res = run_scenario(data)
    out = res.to_dict()
    assert out["pending"]["kind"] == "catch" and out["legal"]["kinds"]["answer"] == [{"command": "catch"},
                                                                                  {"command": "decline"}]
    shown = {p["id"]: p for p in out["state"]["players"]}
    # The events told that the carrier fell and the ball flew: the output state says the same.
    assert shown["e2"]["status"] == "down" and out["state"]["ball"]["carrier"] is None
    # The run goes on from the paused position all the same.
    assert res.state.in_progress is not None


def test_a_scenario_may_name_the_rules_edition_of_a_stored_match():
    data = scenario("rulings/psycho-pummel.json")
    assert build_state(data).options.edition == 3  # the current edition (issue 32)
    data["rules"] = {"edition": 1}
    data["dice"]["faces"] = "O - - - -  - -"  # edition 1 rolled the Ogre's 5 dice
    assert run_scenario(data).error is None
