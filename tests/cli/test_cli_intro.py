"""``elfball intro`` through the real dispatcher: the tour shows the engine's own data."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from cli.field_commands import LEGEND
from cli.intro_command import ODDS_DICE, ODDS_NEEDS, TRY_LINE, odds_cell
from cli.main import COMMAND_MODULES, main
from engine.dice.odds import odds
from engine.field import standard_field
from engine.rosters import all_team_lists


@pytest.fixture
def intro(capsys: pytest.CaptureFixture[str]) -> str:
    code = main(["intro"])
    out, err = capsys.readouterr()
    assert code == 0
    assert err == ""
    return out


def _odds_rows(out: str) -> dict[int, list[str]]:
    """The odds table as {dice: [cell for need 1..4]}."""
    rows: dict[int, list[str]] = {}
    for line in out.splitlines():
        m = re.fullmatch(r"(\d) (?:die|dice)\s+((?:\s*\d+\.\d%){4})", line)
        if m:
            rows[int(m.group(1))] = m.group(2).split()
    return rows


def test_intro_is_the_first_command() -> None:
    assert COMMAND_MODULES[0] == "cli.intro_command"


def test_intro_shows_the_whole_field_map_and_its_legend(intro: str) -> None:
    assert standard_field().ascii_map() in intro
    assert LEGEND in intro
    centre_row = " 12  # G o g o . . . o c @ c o . . . o g o G #"
    assert centre_row in intro.splitlines()
    assert "367 hexes" in intro


def test_one_die_needing_one_success_is_exactly_17_in_36(intro: str) -> None:
    # A bull's-eye (2/6), or a star (1/6) whose re-roll is not an X (5/6): 12/36 + 5/36.
    assert odds(1, 1).exact.success == Fraction(17, 36)
    rows = _odds_rows(intro)
    assert rows[1][0] == odds_cell(Fraction(17, 36)) == "47.2%"


def test_odds_table_covers_1_to_6_dice_and_needs_1_to_4(intro: str) -> None:
    rows = _odds_rows(intro)
    assert sorted(rows) == list(ODDS_DICE) == [1, 2, 3, 4, 5, 6]
    assert "need 1  need 2  need 3  need 4" in intro
    for dice, cells in rows.items():
        assert cells == [odds_cell(odds(dice, need).exact.success) for need in ODDS_NEEDS]
    assert rows[4][1] == "51.7%"  # the same figure as `elfball odds 4 2`
    # More dice never hurt; a higher need never helps.
    for dice in ODDS_DICE:
        values = [float(c.rstrip("%")) for c in rows[dice]]
        assert values == sorted(values, reverse=True)


def test_dice_faces_line(intro: str) -> None:
    line = next(ln for ln in intro.splitlines() if ln.startswith("X flop"))
    for face in ("X flop", "blank", "star", "bull's-eye"):
        assert face in line


def test_every_team_list_is_named_with_the_count(intro: str) -> None:
    teams = all_team_lists()
    flat = " ".join(intro.split())  # names may wrap across lines
    assert f"{len(teams)} team lists" in flat
    for team in teams:
        assert team.name in flat, team.name
    assert "Orcs and Ratmen optional" in flat


def test_ends_with_the_try_line(intro: str) -> None:
    assert intro.rstrip("\n").splitlines()[-1] == TRY_LINE
    assert TRY_LINE == (
        "Try: elfball field --hex K12 · elfball odds 4 2 · elfball roll 4 2 · "
        "elfball teams · elfball team night-elves"
    )


def test_every_suggested_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    for suggestion in TRY_LINE.removeprefix("Try: ").split(" · "):
        argv = suggestion.split()[1:]
        assert main(argv) == 0, suggestion
        out, err = capsys.readouterr()
        assert out and not err, suggestion


def test_fits_one_screen(intro: str) -> None:
    lines = intro.splitlines()
    assert len(lines) <= 50
    assert max(len(ln) for ln in lines if ln != TRY_LINE) <= 96
