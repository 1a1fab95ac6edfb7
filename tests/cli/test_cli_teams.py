"""``elfball teams`` and ``elfball team NAME [--check LINEUP]`` through the dispatcher."""

from __future__ import annotations

import json

import pytest

import cli.main
from cli.main import main


@pytest.fixture(autouse=True)
def only_team_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sibling command modules are built separately; these tests need only ours.
    monkeypatch.setattr(cli.main, "COMMAND_MODULES", ("cli.team_commands",))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_teams_lists_every_team_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "teams")
    assert code == 0
    for name in ("Black Widows", "Thunder Hammer Dwarves", "Black Rock Dwarves", "Siringit", "Ratmen"):
        assert name in out
    rows = {line.split("  ")[0]: line.split() for line in out.splitlines() if "  " in line}
    assert rows["Siringit"][-1] == "8"  # positions
    assert rows["Orcs"][-2:] == ["6", "yes"]
    assert "Impcrusher" in out and "Samhaino Horror" in out


def test_teams_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "teams", "--json")
    data = json.loads(out)
    assert code == 0
    assert len(data["teams"]) == 19
    assert {t["id"] for t in data["teams"] if t["optional"]} == {"orcs", "ratmen"}
    assert {e["id"] for e in data["extra_players"]} == {"extra/samhaino-horror", "extra/impcrusher"}


def test_teams_without_optional_lists(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "teams", "--no-optional-teams")
    assert "Orcs" not in out and "Ratmen" not in out and "Valkyries" in out


def test_team_shows_positions_profiles_and_default_lineup(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "team", "night elves")
    assert code == 0
    assert out.startswith("Night Elves (night-elves)")
    imps = next(line for line in out.splitlines() if line.startswith("0-8"))
    assert imps.split() == ["0-8", "Imps", "7", "2", "2", "5", "3", "2", "Little", "Guy"]
    assert "Default lineup: 2 Hunters, 6 Imps, 2 Strikers" in out


def test_team_shows_its_extra_player(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "team", "gnomes")
    assert "Impcrusher (in a Gnomish Contraptions slot): 5/5/5/4/1/1 Monster, innate Cheapshot" in out


def test_team_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "team", "siringit", "--json")
    data = json.loads(out)
    assert code == 0 and data["id"] == "siringit"
    tantor = next(p for p in data["positions"] if p["name"] == "Tantor")
    assert tantor["max"] == 1 and tantor["type"] == "monster"
    assert list(tantor["attributes"].values()) == [4, 6, 4, 2, 1, 4]
    assert sum(data["default_lineup"].values()) == 10


def test_ambiguous_team_exits_2_naming_both_clans(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "team", "dwarves")
    assert code == 2 and out == ""
    assert "Thunder Hammer Dwarves" in err and "Black Rock Dwarves" in err


def test_unknown_team_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "team", "Nite Elves")
    assert code == 2 and "did you mean Night Elves" in err


def test_check_valid_lineup(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "team", "NightElves", "--check", "6 imps, 2 hunters, 2 strikers")
    assert code == 0
    assert out.strip() == "Valid Basic team. Night Elves: 2 Hunters, 6 Imps, 2 Strikers (10 players)"


def test_check_invalid_lineup_exits_2_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "team", "night elves", "--check", "5 imps, 3 hunters, 2 strikers")
    assert code == 2 and out == ""
    assert err.strip() == "elfball team: Night Elves may field at most 2 Hunters (you asked for 3)"


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "team", "night elves", "--check", "imps x6, hunters 2, strikers 2", "--json")
    assert code == 0
    assert json.loads(out) == {
        "valid": True,
        "team": "night-elves",
        "players": [
            {"position": "night-elves/hunters", "name": "Hunters", "count": 2},
            {"position": "night-elves/imps", "name": "Imps", "count": 6},
            {"position": "night-elves/strikers", "name": "Strikers", "count": 2},
        ],
        "total": 10,
    }
    code, out, _ = run(capsys, "team", "night elves", "--check", "9 imps, 3 hunters", "--json")
    assert code == 2
    data = json.loads(out)
    assert data["valid"] is False and len(data["problems"]) == 3


def test_check_extra_players_and_optional_flags(capsys: pytest.CaptureFixture[str]) -> None:
    lineup = "horror, 3 hunters, 3 midfielders, 2 safeties, 1 thrower"
    assert run(capsys, "team", "samhaino", "--check", lineup)[0] == 2
    assert run(capsys, "team", "samhaino", "--check", lineup, "--extra-players")[0] == 0
    ratmen = "3 couriers, 2 mid, 2 saf, 1 thr, 2 wrat"
    code, _, err = run(capsys, "team", "ratmen", "--check", ratmen, "--no-optional-teams")
    assert code == 2 and "optional team list" in err
