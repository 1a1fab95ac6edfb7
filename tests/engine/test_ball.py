"""The loose ball and the referee (rulebook pp. 6 and 8), with scripted dice.

"If a player fails a Pick-Up or Catch challenge; or a player with the ball is knocked down or
dazed for any reason; or a player is Shoved into the hex with the ball; the ball bounces onto a
Down or Dazed player; or a player flops a Throw challenge, the ball will immediately scatter one
hex in a D6 direction (as indicated on the corners of the Elfball board). If the ball scatters to
a hex with another standing player in it, the player may attempt a Catch challenge ... A player
can choose to automatically fail this Catch challenge in which case it will bounce 1 pace in a D6
direction from his position and is still treated as a dropped ball. If the ball lands in an
unoccupied hex than it remains in that hex."

The D6 compass is fixed to the board, clockwise from the top right: 1 NE, 2 E, 3 SE, 4 SW, 5 W
(the "hex to the left" of play-by-play #1), 6 NW (G14, docs/field.md).
"""

from __future__ import annotations

import pytest
from support.builders import F, P, play as act, events, hx, position, rolls

from engine import commands as C
from engine.hexes import Direction
from engine.state import Location, Phase, Status

G12, H12, I12 = hx("G12"), hx("H12"), hx("I12")


def fumble_at(ball: str, mover_from: str, *extra: P, momentum=(0, None)):
    """``w1`` (a Midfielder, Skill 3) about to step from ``mover_from`` onto the ball."""
    return position(P("w1", "gnolls/midfielders", mover_from, "E"), *extra, ball=ball, acting="w1",
                    momentum=momentum)


class TestScatter:
    @pytest.mark.parametrize(
        ("d6", "lands"), [(1, "G11"), (2, "H12"), (3, "G13"), (4, "F13"), (5, "F12"), (6, "F11")]
    )
    def test_d6_direction_numbering(self, d6, lands):
        # w1 steps from G11 onto the ball at G12 (facing SW) and fumbles (- - -): one hex in the D6
        # direction (G11, which he left, is empty again).
        res = act(fumble_at("G12", "G11"), C.Move((G12,)), faces="- - -", d6=str(d6))
        st = res.state
        assert st.ball.hex == hx(lands) and st.ball.carrier is None
        (sc,) = events(res, "ball_scattered")
        assert sc["direction"] == Direction(d6).name
        assert G12.neighbour(Direction(d6)) == hx(lands)

    def test_five_is_the_hex_to_the_left(self):
        assert G12.neighbour(Direction(5)) == hx("F12")  # same row, one column to the left
        assert [F.compass[Direction(n)] for n in range(1, 7)] == ["NE", "E", "SE", "SW", "W", "NW"]

    def test_a_down_player_makes_it_scatter_again(self):
        st = fumble_at("G12", "G11", P("e1", "gnolls/midfielders", "H12", "W", status="down"))
        res = act(st, C.Move((G12,)), faces="- - -", d6="2 3")
        assert [(e["origin"], e["to"]) for e in events(res, "ball_scattered")] == [
            (list(G12), list(H12)), (list(H12), list(hx("H13"))),
        ]
        assert res.state.ball.hex == hx("H13")

    def test_a_dazed_player_too(self):
        st = fumble_at("G12", "G11", P("e1", "gnolls/midfielders", "H12", "W", status="dazed"))
        res = act(st, C.Move((G12,)), faces="- - -", d6="2 2")
        assert res.state.ball.hex == I12

    def test_a_standing_player_may_catch(self):
        st = fumble_at("G12", "G11", P("e1", "gnolls/strikers", "H12", "SW"))  # not facing G11
        res = act(st, C.Move((G12,)), faces="- - -", d6="2", pending=True)
        q = res.state.in_progress.question
        # East's coach decides for his player; the default is to try.
        assert (q["kind"], q["side"], q["player"], q["default"]) == ("catch", "east", "e1", "catch")
        # Skill 4, needs 2 (w1, next to him, faces SW after his step: not him): O O - - .
        res = act(st, C.Move((G12,)), faces="- - -  O O - -", d6="2", answers=["catch"])
        (ca,) = rolls(res, "catch")
        assert ca["player"] == "e1" and ca["band"] in ("exact", "extra")
        assert res.state.ball.carrier == "e1"

    def test_declining_the_catch_bounces_it_as_a_dropped_ball(self):
        st = fumble_at("G12", "G11", P("e1", "gnolls/strikers", "H12", "SW"))  # not facing G11
        res = act(st, C.Move((G12,)), faces="- - -", d6="2 2", answers=["decline"])
        assert events(res, "catch_declined") and not rolls(res, "catch")
        assert res.state.ball.hex == I12

    def test_a_failed_catch_bounces_from_the_catcher(self):
        st = fumble_at("G12", "G11", P("e1", "gnolls/strikers", "H12", "SW"))  # not facing G11
        res = act(st, C.Move((G12,)), faces="- - -  O - - -", d6="2 3", answers=["catch"])
        assert res.state.ball.hex == hx("H13")

    def test_a_carrier_who_falls_drops_it(self):
        """A failed Disengage leaves him Down, and "a player with the ball is knocked down or
        dazed for any reason" drops it."""
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E", ball=True), P("e1", "gnolls/hunters", "H12", "W"),
            acting="w1",
        )
        # Dodge 3 against Tackle 4: needs 2. O - - : Down; the ball bounces D6 = 6 to F11.
        res = act(st, C.Move((hx("F12"),)), faces="O - -", d6="6")
        st = res.state
        assert st.players["w1"].status is Status.DOWN and st.players["w1"].hex == G12
        assert st.ball.hex == hx("F11")
        assert events(res, "ball_dropped")[0]["player"] == "w1"
        assert st.phase is Phase.ACTION  # a failed (not flopped) Disengage is no SiM

    def test_own_failed_catch_of_a_loose_ball_is_no_shift(self):
        """G34: the Catch footnote's SiM is for a flopped catch, or a ball from a Throw that ends
        on the ground."""
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            P("w2", "gnolls/midfielders", "I12", "E"), acting="w1",
        )
        # Solid Hit; the ball bounces onto w2, whose catch fails (needs 2: O - -), bouncing on to
        # J12.
        res = act(st, C.Tackle("e1"), faces="O O O -  O - -", d6="2 2", answers=["catch"])
        assert res.state.ball.hex == hx("J12")
        assert res.state.phase is Phase.ACTION and not events(res, "momentum_shifted")

    def test_own_flopped_catch_is_a_shift(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            P("w2", "gnolls/midfielders", "I12", "E"), acting="w1",
        )
        res = act(st, C.Tackle("e1"), faces="O O O -  X - -", d6="2 2", answers=["catch"])
        assert res.state.players["w2"].status is Status.DOWN
        assert res.state.turn_side == "east" and events(res, "momentum_shifted")


class TestWhiteLines:
    """"Anytime a ball bounces or is thrown its movement is stopped as soon as it enters a hex
    with a white line passing through it. Bounce the ball D6 hexes in a D6 direction away from
    the hex with the white line (rolling again any D6 rolls for a direction that would bounce the
    ball where the first hex contains a white line or would allow the ball to pass through the
    white line.) Note: if a player is standing in a white lined hex and the ball will land in
    that hex roll the Catch challenge first. If that fails the ball bounces off the white line as
    if the catching player has not been in that hex.\""""

    def test_the_centre_line_stops_it_and_it_bounces_back(self):
        # A fumble at J8 sends the ball E into K8 (the centre line). From K8 every direction but
        # W is re-rolled: NE, SE, SW and NW start on the line, E would cross it into east's half.
        st = fumble_at("J8", "I8")
        res = act(st, C.Move((hx("J8"),)), faces="- - -", d6="2  1 2 3 4 6 5  3")
        (stop,) = events(res, "ball_stopped_by_line")
        assert stop["hex"] == list(hx("K8"))
        (b,) = events(res, "ball_bounced")
        assert b["rerolled"] == ["NE", "E", "SE", "SW", "NW"] and b["direction"] == "W"
        # 3 hexes west: J8 (w1 stands there: players in between do not stop it), I8, H8.
        assert b["distance"] == 3 and res.state.ball.hex == hx("H8")

    def test_the_outer_line_bounces_it_back_onto_the_field(self):
        st = fumble_at("C10", "D10")
        # W into B10 (the outer line); SW (A11, white) and W (off the field) are rolled again;
        # E for 2: C10 then D10.
        res = act(st, C.Move((hx("C10"),)), faces="- - -", d6="5  4 5 2 2")
        (b,) = events(res, "ball_bounced")
        assert b["rerolled"] == ["SW", "W"]
        assert res.state.ball.hex == hx("D10")

    def test_a_bounce_that_meets_another_line_stops_and_bounces_again(self):
        st = fumble_at("B11", "C11")
        # SW into the goal hex B12, a white line: it bounces NE for 1, back to B11, where w1
        # stands and may catch it. He declines, so as a dropped ball it scatters NW into B10, the
        # outer line, which bounces it E for 1 to C10.
        res = act(st, C.Move((hx("B11"),)), faces="- - -", d6="4  1 1  6  2 1", answers=["decline"])
        assert [e["hex"] for e in events(res, "ball_stopped_by_line")] == [list(hx("B12")), list(hx("B10"))]
        assert res.state.ball.hex == hx("C10")

    def test_a_standing_player_on_the_line_catches_first(self):
        st = fumble_at("J8", "I8", P("e1", "gnolls/strikers", "K8", "W"))
        # Into K8, where e1 stands: he catches first (Skill 4, needs 2 + 1: w1 faces him): O O O -.
        res = act(st, C.Move((hx("J8"),)), faces="- - -  O O O -", d6="2", answers=["catch"])
        assert res.state.ball.carrier == "e1"
        assert not events(res, "ball_bounced")

    def test_if_he_fails_it_bounces_off_the_line_as_if_he_were_not_there(self):
        st = fumble_at("J8", "I8", P("e1", "gnolls/strikers", "K8", "W"))
        # The catch fails: no 1-pace scatter from the catcher, but a line bounce: W for 2 -> I8.
        res = act(st, C.Move((hx("J8"),)), faces="- - -  O - - -", d6="2  5 2", answers=["catch"])
        assert not [e for e in events(res, "ball_scattered") if e["origin"] == list(hx("K8"))]
        (b,) = events(res, "ball_bounced")
        assert b["origin"] == list(hx("K8")) and res.state.ball.hex == hx("I8")

    def test_declining_on_the_line_also_bounces_off_the_line(self):
        st = fumble_at("J8", "I8", P("e1", "gnolls/strikers", "K8", "W"))
        res = act(st, C.Move((hx("J8"),)), faces="- - -", d6="2  5 2", answers=["decline"])
        (b,) = events(res, "ball_bounced")
        assert (b["direction"], b["distance"]) == ("W", 2) and res.state.ball.hex == hx("I8")


class TestShoveOntoTheBall:
    def test_a_player_shoved_into_the_balls_hex_drops_it_no_pick_up(self):
        """"If the shove forces the opponent into a hex with the ball, it is treated as a dropped
        ball"; "being shoved does not count as moving into the hex" (no Pick-up)."""
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E"), P("e1", "gnolls/midfielders", "H12", "W"),
            ball="I12", acting="w1",
        )
        res = act(st, C.Shove("e1"), faces="O - -", d6="1")
        st = res.state
        assert st.players["e1"].hex == I12
        assert not rolls(res, "pickup")
        (sc,) = events(res, "ball_scattered")
        assert sc["origin"] == list(I12) and st.ball.hex == hx("I11")


class TestReferee:
    """"Any player who enters a hex with the white line running through it around the outside
    of the playing field at any point (including being shoved into the hex) is immediately forced
    to leave the playing field and sit on the Bench for the rest of the Test. If the player had
    the ball, he is ejected by the referee for the remainder of the game ... grabs the ball from
    the ejected player and places it on the yellow dot in the face-off hex ... If there is already
    a player in the middle hex, the referee hands the ball to this player (no challenge roll
    needed.) Any player who enters the goal circle hex at any point (including being shoved into
    the hex) without holding the ball is immediately forced to leave the playing field and sit on
    the Bench for the rest of the Test. If the player had the ball and enters or is shoved into
    his own goal hex then he is immediately forced to leave the playing field and the ball
    bounces to an adjacent hex.\""""

    def test_walking_onto_the_outer_line(self):
        st = position(P("w1", "gnolls/midfielders", "C10", "W"), P("e1", "gnolls/midfielders", "N12"), acting="w1")
        res = act(st, C.Move((hx("B10"),)))
        st = res.state
        assert st.players["w1"].location is Location.SENT_OFF and st.players["w1"].hex is None
        assert st.turn_side == "east" and st.phase is Phase.TURN  # his action is over

    def test_a_carrier_on_the_outer_line_is_ejected_and_the_ball_goes_to_the_centre(self):
        st = position(
            P("w1", "gnolls/midfielders", "C10", "W", ball=True), P("e1", "gnolls/midfielders", "N12"), acting="w1",
        )
        res = act(st, C.Move((hx("B10"),)))
        st = res.state
        assert st.players["w1"].location is Location.EJECTED
        assert st.ball.hex == F.ball_spot and st.ball.carrier is None
        assert events(res, "ball_to_centre")

    def test_the_referee_hands_it_to_a_player_on_the_centre_dot(self):
        st = position(
            P("w1", "gnolls/midfielders", "C10", "W", ball=True), P("e1", "gnolls/midfielders", "K12"), acting="w1",
        )
        res = act(st, C.Move((hx("B10"),)))
        assert res.state.ball.carrier == "e1" and not rolls(res)

    def test_a_shoved_carrier_play_resumes_for_the_shover(self):
        """G39: the acting player's action goes on, with no SiM."""
        st = position(
            P("w1", "gnolls/midfielders", "D10", "W"), P("e1", "gnolls/midfielders", "C10", "E", ball=True),
            acting="w1", jog=4,
        )
        res = act(st, C.Shove("e1"), faces="O - -")
        st = res.state
        assert st.players["e1"].location is Location.EJECTED
        assert st.ball.hex == F.ball_spot
        assert st.phase is Phase.ACTION and st.action.jog_left == 3 and not events(res, "momentum_shifted")

    def test_a_shove_onto_the_outer_line_benches_for_the_test(self):
        st = position(
            P("w1", "gnolls/midfielders", "D10", "W"), P("e1", "gnolls/midfielders", "C10", "E"), acting="w1",
        )
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].location is Location.SENT_OFF

    @pytest.mark.parametrize(("start", "goal"), [("C12", "B12"), ("S12", "T12")])
    def test_a_goal_hex_without_the_ball(self, start, goal):
        facing = "W" if goal == "B12" else "E"
        st = position(P("w1", "gnolls/midfielders", start, facing), P("e1", "gnolls/midfielders", "N12"), acting="w1")
        st = act(st, C.Move((hx(goal),))).state
        assert st.players["w1"].location is Location.SENT_OFF

    def test_shoved_into_a_goal_hex_without_the_ball(self):
        st = position(
            P("w1", "gnolls/midfielders", "D12", "W"), P("e1", "gnolls/midfielders", "C12", "E"), acting="w1",
        )
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].location is Location.SENT_OFF

    def test_a_carrier_in_his_own_goal_leaves_and_the_ball_bounces(self):
        st = position(
            P("w1", "gnolls/midfielders", "C12", "W", ball=True), P("e1", "gnolls/midfielders", "N12"), acting="w1",
        )
        # He leaves; "the ball bounces to an adjacent hex": a 1-hex scatter, D6 = 2 -> C12.
        res = act(st, C.Move((hx("B12"),)), d6="2")
        st = res.state
        assert st.players["w1"].location is Location.SENT_OFF
        assert st.ball.hex == hx("C12") and st.ball.carrier is None
        (sc,) = events(res, "ball_scattered")
        assert sc["origin"] == list(hx("B12"))

    def test_the_opponents_goal_with_the_ball_is_where_you_score(self):
        st = position(
            P("w1", "gnolls/midfielders", "S12", "E", ball=True), P("e1", "gnolls/midfielders", "N12"), acting="w1",
        )
        st = act(st, C.Move((hx("T12"),))).state
        assert st.players["w1"].on_field and st.ball.carrier == "w1"
