"""The standard field as data: shape, flags, zones, coordinates (docs/field.md)."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidCoordinateError, OffFieldError
from engine.field import standard_field
from engine.hexes import Direction, Hex, distance, front_hexes, is_in_front
from support import ROOT

F = standard_field()


def mirror_x(h: Hex) -> Hex:
    """West <-> east: x -> -x."""
    return Hex(-h.q - h.r, h.r)


def mirror_y(h: Hex) -> Hex:
    """North <-> south: y -> -y."""
    return Hex(h.q + h.r, -h.r)


def test_field_is_a_disc_21_hexes_across():
    assert len(F) == 367
    for h in F.hexes:
        x, y = h.center()
        assert math.hypot(x, y) <= 10 + 1e-9
    # Every hex whose centre lies inside the circle is on the field: a disc, not a hexagon.
    for q in range(-25, 26):
        for r in range(-13, 14):
            h = Hex(q, r)
            x, y = h.center()
            assert (h in F) == (math.hypot(x, y) <= 10 + 1e-9)
    centre_row = F.row(0)
    assert len(centre_row) == 21
    assert [F.format(h)[0] for h in centre_row] == list("ABCDEFGHIJKLMNOPQRSTU")
    # A hexagon-shaped region of radius 10 would stop at 10 steps from the centre; the disc
    # reaches 11 steps (rows 1 and 23), and 21 rows x 21 columns would be a rhombus.
    assert max(distance(h, F.ball_spot) for h in F.hexes) == 11
    assert len(F.rows()) == 23


def test_field_is_mirror_symmetric():
    for h in F.hexes:
        i, m, n = F.info(h), F.info(mirror_x(h)), F.info(mirror_y(h))
        swap = {"west": "east", "east": "west", None: None}
        assert (m.edge_line, m.centre_line, m.rim, m.ball_spot) == (i.edge_line, i.centre_line, i.rim, i.ball_spot)
        assert m.half == swap[i.half] and m.goal == swap[i.goal]
        assert (m.circle or "").replace("east", "X").replace("west", "east").replace("X", "west") == (i.circle or "")
        assert (n.edge_line, n.centre_line, n.goal, n.half, n.rim) == (i.edge_line, i.centre_line, i.goal, i.half, i.rim)


def test_outer_white_line_is_the_outermost_ring():
    for h in F.hexes:
        assert F.info(h).edge_line == any(n not in F for n in h.neighbours())
    assert sum(F.info(h).edge_line for h in F.hexes) == 66


def test_centre_line_divides_the_halves():
    for h in F.hexes:
        x, _ = h.center()
        info = F.info(h)
        assert info.centre_line == (abs(x) <= 0.5)
        assert info.half == ("west" if x < 0 else "east" if x > 0 else None)
    # Every path from one half to the other crosses a centre-line hex (so does every pass, B6).
    west = {h for h in F.hexes if F.info(h).half == "west" and not F.info(h).centre_line}
    east = {h for h in F.hexes if F.info(h).half == "east" and not F.info(h).centre_line}
    assert not any(n in east for h in west for n in h.neighbours())


def test_ball_spot_goals_and_circles():
    assert F.format(F.ball_spot) == "K12"
    assert F.goals == {"west": F.parse("B12"), "east": F.parse("T12")}
    for side, g in F.goals.items():
        info = F.info(g)
        assert info.goal == side and info.white_line and info.half == side
        # "at the edge of each side of the field": next to the outer line.
        assert any(F.info(n).edge_line for n in g.neighbours())
    names = {c["name"] for c in F.circles}
    assert len(names) == 9  # the centre, 2 goal, 2 guardian and 4 rover circles (F2)
    assert {c["colour"] for c in F.circles if c["name"].startswith("goal")} == {"white"}


def test_set_up_zones_hold_exactly_six_players():
    for side in ("west", "east"):
        faceoff = F.setup_hexes(side, "faceoff")
        guardian = F.setup_hexes(side, "guardian")
        north, south = F.setup_hexes(side, "rover-north"), F.setup_hexes(side, "rover-south")
        assert len(faceoff) == 1 and len(guardian) == 1
        assert len(north) == 7 and len(south) == 7
        for h in faceoff + guardian + north + south:
            info = F.info(h)
            assert info.half == side and not info.any_line
        # The face-off player can face the ball: it is one of his front hexes (S5).
        (fo,) = faceoff
        assert any(F.ball_spot in front_hexes(fo, d) for d in Direction)
        # The guardian circle is "in front of" his own goal.
        assert distance(guardian[0], F.goals[side]) == 2


def test_face_off_winner_reaches_the_opponent_in_two_free_hexes():
    # FO4: two empty hexes inside the circle, then a Shove or Tackle needs the opponent in front.
    (west,) = F.setup_hexes("west", "faceoff")
    (east,) = F.setup_hexes("east", "faceoff")
    interior = set(F.circle_hexes("centre")) - {F.ball_spot}
    two_steps = {b for a in west.neighbours() if a in interior for b in a.neighbours() if b in interior}
    assert any(
        is_in_front(h, d, east) for h in two_steps for d in Direction
    )


def test_stairways():
    for side in ("west", "east"):
        stairs = F.stairways[side]
        assert len(stairs) == 2
        for st_ in stairs:
            assert F.info(st_.anchor).edge_line and F.info(st_.anchor).half == side
            assert len(st_.entry) == 12
            for h in st_.entry:
                info = F.info(h)
                assert distance(h, st_.anchor) <= 3 and not info.white_line and info.half == side
    assert len(F.replacement_hexes("west")) == 24


@given(st.sampled_from(sorted(F.hexes)))
def test_labels_round_trip(h):
    label = F.format(h)
    assert F.parse(label) == h
    assert F.parse(label.lower()) == h
    assert F.parse(f"  {label[0]} {label[1:]} ") == h


def test_labels_are_unique_and_rows_run_top_to_bottom():
    labels = [F.format(h) for h in F.hexes]
    assert len(set(labels)) == len(labels)
    assert F.format(F.parse("K1")) == "K1" and F.parse("K1").r == -11
    assert F.parse("K23").r == 11
    # Odd-r rows sit half a hex to the right of the letter's position in even-r rows.
    assert F.parse("K11").center()[0] == pytest.approx(0.5)
    assert F.parse("K12").center()[0] == pytest.approx(0.0)


@pytest.mark.parametrize("text", ["", "11K", "KK", "K", "K123", "12", "K1.5", "é4"])
def test_malformed_coordinates(text):
    with pytest.raises(InvalidCoordinateError) as err:
        F.parse(text)
    assert "column letter" in str(err.value)


@pytest.mark.parametrize(
    "text,message",
    [("A1", "row 1 runs from H1 to M1"), ("Z5", "columns run A-U"), ("K24", "rows 1-23"), ("A14", "row 14 runs from B14 to T14")],
)
def test_off_field_coordinates_say_why(text, message):
    with pytest.raises(OffFieldError) as err:
        F.parse(text)
    assert message in str(err.value)


def test_generated_data_is_current():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_field.py"), "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_docs_map_matches_the_data():
    doc = (ROOT / "docs" / "field.md").read_text()
    assert F.ascii_map() in doc
