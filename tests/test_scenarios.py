"""The rulebook's examples as scenario files (scenarios/rulebook/*.json), run as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from engine.errors import MalformedInputError
from engine.field import standard_field
from service.scenario import build_state, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "scenarios").rglob("*.json"))
F = standard_field()


def _need(r: dict) -> int:
    n = r["roll"]["need"]
    return max(1, n["base"] + sum(m["value"] for m in n["modifiers"]))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_rulebook_scenario(path: Path):
    data = load_scenario(path)
    res = run_scenario(data)
    assert res.error is None, res.error
    exp = data["expect"]
    st = res.state
    if "carrier" in exp:
        assert st.ball.carrier == exp["carrier"]
    if "ball" in exp:
        assert st.ball.carrier is None and F.format(st.ball.hex) == exp["ball"]
    if "momentum" in exp:
        assert st.momentum == exp["momentum"]
    if "turn" in exp:
        assert st.turn_side == exp["turn"]
    if "jog" in exp:
        assert st.action is not None and st.action.jog_left == exp["jog"]
    for pid, status in exp.get("status", {}).items():
        assert st.players[pid].status.value == status
    for pid, label in exp.get("hex", {}).items():
        assert F.format(st.players[pid].hex) == label
    rolled = {e.challenge: e.to_dict() for e in res.events if e.kind == "challenge_rolled"}
    for challenge, n in exp.get("need", {}).items():
        assert _need(rolled[challenge]) == n, challenge


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
