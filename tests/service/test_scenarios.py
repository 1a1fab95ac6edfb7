"""Scenario files run as a user would: the rulebook's examples (scenarios/rulebook/*.json) and
the Advanced rules through the console grammar (scenarios/advanced/*.json), each checking the
rulebook's effect in its ``expect``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from engine.errors import MalformedInputError
from service.scenario import build_state, load_scenario, run_scenario
from support import ROOT

FILES = sorted((ROOT / "scenarios").rglob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_every_scenario_file_holds_its_expect_block(path: Path, capsys):
    """The rulebook's examples, the Advanced rules, the sandbox starts and the rulings, each
    checked as a commissioner would: ``elfball scenario --check FILE``."""
    assert load_scenario(path).get("expect"), "every stored scenario states what it shows"
    code = main(["scenario", "--check", str(path)])
    assert code == 0, capsys.readouterr().out


#: The console lines the Advanced scenarios must show working against the engine's real questions.
ADVANCED_LINES = ("cheer", "tackle e2 steal", "move NE with beeline", "lead w2 NE", "react w5 NE", "taunt w3 e1 2",
                  "potion w9", "answer agile", "spell inferno K12", "retry", "plough", "use", "NE", "-1", "reroll 0")


def test_the_advanced_scenarios_cover_the_grammar_of_the_advanced_rules():
    lines = set()
    for path in (ROOT / "scenarios" / "advanced").glob("*.json"):
        lines.update(c if isinstance(c, str) else c["command"] for c in load_scenario(path)["commands"])
    assert set(ADVANCED_LINES) <= lines, set(ADVANCED_LINES) - lines


def test_there_is_a_scenario_for_every_rulebook_example():
    names = {p.stem for p in FILES}
    assert {"pickup-example-1", "pickup-example-2", "disengage-example", "catch-example",
            "play-by-play-1", "play-by-play-2"} <= names


def test_cli_prints_json_and_exits_2_on_a_refusal(tmp_path, capsys):
    assert main(["scenario", str(ROOT / "scenarios/rulebook/disengage-example.json")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["error"] is None and out["state"]["players"] and out["narration"]
    bad = load_scenario(ROOT / "scenarios/rulebook/disengage-example.json")
    bad["commands"] = ["tackle e1", "move G13"]  # a tackle rolls dice the file does not state
    bad["dice"] = {"faces": "O"}
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    assert main(["scenario", str(f)]) == 2
    out = json.loads(capsys.readouterr().out)
    assert "ran out" in out["error"] or "unused" in out["error"] or "tackle" in out["error"]


def test_leftover_dice_are_reported():
    data = load_scenario(ROOT / "scenarios/rulebook/disengage-example.json")
    data["dice"]["faces"] += " O"
    assert "unused dice" in run_scenario(data).error


def test_malformed_scenarios_say_why(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("{nope")
    with pytest.raises(MalformedInputError):
        load_scenario(f)
    with pytest.raises(MalformedInputError):
        build_state({"players": [{"id": "x1", "position": "gnolls/hunters", "hex": "K12"}]})
    with pytest.raises(MalformedInputError):
        build_state({"players": [{"id": "w1", "position": "gnolls/hunters", "location": "field"}]})


def test_bankshot_may_leave_the_direction_to_the_dice_with_roll():
    """The grammar's ``roll`` answers the real Bankshot question, whose option is None (it was
    refused: "choose one of: NE, E, SE, none")."""
    data = load_scenario(ROOT / "scenarios/advanced/bankshot.json")
    data["commands"] = ["throw G7", "roll", "0"]
    data["dice"]["d6"] = [1, 2]  # NE, 2 hexes: onto the Midfielder at L5 again
    res = run_scenario(data)
    assert res.error is None, res.error
    assert res.state.ball.carrier == "w2"
    assert [e.effect for e in res.events if e.kind == "ability_used"] == []
