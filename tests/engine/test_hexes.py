"""Hex maths: neighbours, distance, lines, facing, the passing string."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import MalformedInputError
from engine.hexes import (
    Direction,
    Hex,
    distance,
    direction_between,
    disc,
    front_hexes,
    in_front_half_plane,
    is_in_front,
    line,
    nearest_direction,
    ray,
    rear_hexes,
    ring,
    string_hexes,
)

coords = st.integers(min_value=-15, max_value=15)
hexes = st.builds(Hex, coords, coords)
directions = st.sampled_from(list(Direction))


def test_d6_five_is_the_hex_to_the_left():
    # Play-by-play #1: "5 = the hex to the left" (G14).
    c = Hex(0, 0)
    left = c.neighbour(Direction(5))
    assert Direction(5) is Direction.W
    assert left.center()[1] == pytest.approx(c.center()[1])
    assert left.center()[0] < c.center()[0]


def test_compass_runs_clockwise_from_north_east():
    angles = []
    for d in Direction:
        x, y = d.vector
        angles.append(math.degrees(math.atan2(y, x)) % 360)  # y down: clockwise on screen
    assert angles == sorted(angles, key=lambda a: (a - 300) % 360)
    assert [d.name for d in Direction] == ["NE", "E", "SE", "SW", "W", "NW"]


@pytest.mark.parametrize(
    "text,expected",
    [("NE", Direction.NE), ("w", Direction.W), ("5", Direction.W), (2, Direction.E), ("south-west", Direction.SW), ("left", Direction.W)],
)
def test_direction_parse(text, expected):
    assert Direction.parse(text) is expected


@pytest.mark.parametrize("text", ["N", "7", "0", "up", ""])
def test_direction_parse_rejects(text):
    with pytest.raises(MalformedInputError):
        Direction.parse(text)


@given(hexes)
def test_six_distinct_neighbours_at_distance_one(h):
    ns = h.neighbours()
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)
    assert all(direction_between(h, h.neighbour(d)) is d for d in Direction)
    assert all(math.dist(h.center(), n.center()) == pytest.approx(1.0) for n in ns)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(directions)
def test_direction_arithmetic(d):
    assert d.opposite.opposite is d
    assert d.clockwise().counterclockwise() is d
    assert d.clockwise(6) is d
    assert Hex(0, 0).neighbour(d).neighbour(d.opposite) == Hex(0, 0)


@given(hexes, hexes)
def test_line_is_a_shortest_connected_path(a, b):
    pts = line(a, b)
    assert pts[0] == a and pts[-1] == b
    assert len(pts) == distance(a, b) + 1
    assert all(distance(p, q) == 1 for p, q in zip(pts, pts[1:]))


@given(hexes, directions, st.integers(0, 12))
def test_ray_goes_straight(h, d, n):
    pts = ray(h, d, n)
    assert len(pts) == n
    assert all(distance(h, p) == i + 1 for i, p in enumerate(pts))
    if n:
        assert line(h, pts[-1]) == [h, *pts]


@given(hexes, st.integers(0, 6))
def test_ring_and_disc(h, r):
    rg = ring(h, r)
    assert len(rg) == max(1, 6 * r) == len(set(rg))
    assert all(distance(h, x) == r for x in rg)
    assert len(set(disc(h, r))) == 3 * r * (r + 1) + 1


@given(hexes, directions)
def test_front_and_rear_split_the_neighbours(h, facing):
    front, rear = set(front_hexes(h, facing)), set(rear_hexes(h, facing))
    assert len(front) == 3 and len(rear) == 3
    assert front | rear == set(h.neighbours())
    assert h.neighbour(facing) in front and h.neighbour(facing.opposite) in rear
    assert all(is_in_front(h, facing, x) for x in front)
    assert not any(is_in_front(h, facing, x) for x in rear)
    assert not is_in_front(h, facing, h.neighbour(facing).neighbour(facing))  # not adjacent


@given(hexes, directions)
def test_front_hexes_lie_in_the_front_half_plane(h, facing):
    assert all(in_front_half_plane(h, facing, x) for x in front_hexes(h, facing))
    assert not in_front_half_plane(h, facing, h.neighbour(facing.opposite))
    assert not in_front_half_plane(h, facing, h)


def test_throw_direction_allows_exactly_ninety_degrees():
    # Facing E, a target straight "up" the board is at 90 degrees: allowed (G8).
    h = Hex(0, 0)
    straight_up = Hex(1, -2)  # centre (0, -sqrt 3)
    assert h.center()[0] == pytest.approx(straight_up.center()[0])
    assert in_front_half_plane(h, Direction.E, straight_up)
    assert not in_front_half_plane(h, Direction.E, Hex(-1, -2))  # up and slightly back


def test_nearest_direction_and_ties():
    assert nearest_direction(Hex(0, 0), Hex(5, 0)) == [Direction.E]
    tie = nearest_direction(Hex(0, 0), Hex(1, -2))  # straight up: between NE and NW
    assert set(tie) == {Direction.NE, Direction.NW}
    assert nearest_direction(Hex(0, 0), Hex(0, 0)) == []


def test_string_along_a_row_touches_only_that_row():
    assert string_hexes(Hex(0, 0), Hex(4, 0)) == [Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert string_hexes(Hex(0, 0), Hex(4, 0), include_ends=True)[0] == Hex(0, 0)


def test_string_along_an_edge_touches_both_sides():
    # Straight up from the centre runs along the edge between (0,-1) and (1,-1).
    touched = set(string_hexes(Hex(0, 0), Hex(1, -2)))
    assert {Hex(0, -1), Hex(1, -1)} <= touched


def test_thicker_string_touches_more():
    a, b = Hex(-3, 0), Hex(3, -1)
    thin = set(string_hexes(a, b, half_width=0.0))
    thick = set(string_hexes(a, b, half_width=0.3))
    assert thin < thick


@given(hexes, hexes)
def test_string_is_symmetric_and_covers_the_hex_line(a, b):
    ab = string_hexes(a, b)
    assert set(ab) == set(string_hexes(b, a))
    assert set(line(a, b)[1:-1]) <= set(ab)
    # Ordered from the thrower outwards.
    ds = [round(math.dist(a.center(), h.center()), 9) for h in ab]
    assert ds == sorted(ds)
    # A string only touches hexes next to the ones the line passes through.
    near = {n for h in line(a, b) for n in disc(h, 2)}
    assert set(ab) <= near
