"""Throwing, intercepting and catching (rulebook pp. 6-7), with scripted dice.

"A player with the ball may attempt to throw the ball to another player on his team. If he tries
to throw 7 or more paces away from his hex (maximum of 18), he may not move or perform a
challenge before or after the Throw challenge. If he wants to move or perform a challenge before
or after the throw he may throw up to a maximum of 6 paces. The player must throw the ball in a
direction matching his current facing using a Throw challenge (note: you can throw the ball to
empty hex on the playing field)."

Throw: Skill, needs 1; -1 per team-mate and +1 per opponent adjacent, standing and facing the
thrower; +2 for "more than half the maximum paces". Flop: the ball bounces 1 pace from the
thrower, SiM. Fewer: lands D6 paces in a D6 direction from the target, SiM unless caught by a
team-mate. Exactly: wobbly, the receiver must Catch unless he is adjacent to the thrower. More:
perfect spiral, caught automatically "(even if bounced off a line)".
"""

from __future__ import annotations

import pytest
from support.builders import F, P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.hexes import Direction, distance
from engine.state import Phase, RuleOptions, Status

G12, F12, E12, D12 = hx("G12"), hx("F12"), hx("E12"), hx("D12")


def thrower(*extra: P, at: str = "G12", facing: str = "W", momentum=(0, None), **flags):
    """West's Striker ``w1`` (Skill 4, Jog 6) holding the ball, acting; an east player far away."""
    return position(P("w1", "gnolls/strikers", at, facing, ball=True), P("e9", "gnolls/midfielders", "Q17", "W"),
                    *extra, acting="w1", momentum=momentum, **flags)


def modifiers(roll: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in roll["roll"]["need"]["modifiers"]}


class TestRange:
    """TH2, TH3 and TC12: "more than half the maximum paces" is 4-6 for a short throw and 10-18
    for a long one (G10: the thrower declares long or short; by default 7+ is long)."""

    @pytest.mark.parametrize(
        ("dist", "long", "plus"),
        [(1, False, 0), (3, False, 0), (4, False, 2), (6, False, 2),
         (7, True, 0), (9, True, 0), (10, True, 2), (18, True, 2)],
    )
    def test_the_plus_two_bands(self, dist, long, plus):
        st = thrower(at="B11")
        target = next(h for h in F.hexes if distance(hx("B11"), h) == dist and st.player_at(h) is None)
        # A flop (the ball bounces one pace from the thrower: D6 = 2 to C11) shows the need; by
        # default a throw of 7+ is long and anything shorter short.
        res = act(st, C.Throw(target), faces="X X X X", d6="2")
        (th,) = rolls(res, "throw")
        assert th["band"] == "flop"
        assert need_of(th) == 1 + plus
        assert modifiers(th).get("beyond half range", 0) == plus
        st = res.state
        assert st.ball.hex == hx("C11") and st.turn_side == "east"  # a flop is a SiM

    def test_a_stationary_five_hex_throw_declared_long_has_no_plus_two(self):
        st = thrower()
        target = next(h for h in F.hexes if distance(G12, h) == 5)
        for long, need in ((True, 1), (False, 3), (None, 3)):
            res = act(st, C.Throw(target, long=long), faces="X X X X", d6="5")
            assert need_of(rolls(res, "throw")[0]) == need

    def test_beyond_18_or_a_long_throw_after_moving_is_refused(self):
        st = thrower()
        st.players["w1"].hex = hx("B11")
        far = next(h for h in F.hexes if distance(hx("B11"), h) == 19)
        refused(st, C.Throw(far), match="maximum of 18")
        st.players["w1"].hex = G12
        st = act(st, C.Move((hx("G11"),))).state
        seven = next(h for h in F.hexes if distance(hx("G11"), h) == 7 and st.player_at(h) is None)
        refused(st, C.Throw(seven), match="7 or more")
        refused(st, C.Throw(seven, long=False), match="at most 6")
        near = next(h for h in F.hexes if distance(hx("G11"), h) == 3)
        refused(st, C.Throw(near, long=True), match="7 or more")

    def test_a_long_throw_after_a_failed_impact_is_refused(self):
        """An Impact is a challenge: "he may not move or perform a challenge before" a long
        throw, even when the Impact failed and he never left his hex."""
        st = thrower(P("e1", "desert-dogs/defender", "F12", "E"))
        st = act(st, C.Tackle("e1"), faces="O - -").state  # Might 3 vs 4: the Impact fails
        assert st.players["w1"].hex == G12 and not st.action.moved
        far = next(h for h in F.hexes if distance(G12, h) == 9 and F.info(h).half == "west")
        refused(st, C.Throw(far), match="7 or more")

    def test_a_long_throw_after_a_failed_disengage_and_standing_up(self):
        st = thrower(P("e1", "gnolls/hunters", "F12", "E"), facing="E")
        # Dodge 4 against Tackle 4: needs 2. O - - - : Down in his hex, never having left it; the
        # ball bounces (D6 = 2) to H12.
        st = act(st, C.Move((hx("H12"),)), faces="O - - -", d6="2").state
        assert st.players["w1"].status is Status.DOWN and not st.action.moved
        # The rule is about what he did, not about the ball: hand it back to him.
        st.ball.carrier, st.ball.hex = "w1", None
        st = act(st, C.StandUp(Direction.W)).state
        far = next(h for h in F.hexes if distance(G12, h) == 9 and F.info(h).half == "west")
        refused(st, C.Throw(far), match="7 or more")

    def test_nothing_after_a_long_throw(self):
        st = thrower(P("w2", "gnolls/midfielders", "D5", "E"), P("e1", "gnolls/midfielders", "H12", "E"))
        st = act(st, C.Throw(hx("D5"), long=True), faces="O O - -").state  # 7 hexes: perfect spiral
        assert st.ball.carrier == "w2" and st.phase is Phase.ACTION
        refused(st, C.Move((F12,)), match="7 or more")
        refused(st, C.Shove("e1"), match="7 or more")
        refused(st, C.Tackle("e1"), match="7 or more")
        act(st, C.EndAction())


class TestTargets:
    def test_only_the_carrier_throws(self):
        st = position(P("w1", "gnolls/strikers", "G12", "W"), acting="w1")
        refused(st, C.Throw(E12), match="does not have the ball")

    def test_not_to_an_opponent(self):
        st = thrower(P("e1", "gnolls/midfielders", "E12", "E"))
        refused(st, C.Throw(E12), match="team-mate or an empty hex")

    def test_not_to_himself(self):
        refused(thrower(), C.Throw(G12), match="another hex")

    def test_he_turns_to_throw(self):
        """"in a direction matching his current facing": facing is free at the start of a
        challenge (FA2), so he turns toward the target."""
        st = thrower(facing="E")
        res = act(st, C.Throw(E12), faces="O O - -")
        assert res.state.players["w1"].facing is Direction.W


class TestCatching:
    def test_wobbly_must_be_caught(self):
        """Rules edition 2 (a stored match) read the Throw table's "must make a Catch challenge"
        as compulsory; edition 3 asks (tests/engine/test_rules_issue32.py)."""
        st = thrower(P("w2", "gnolls/midfielders", "E12", "E"), options=RuleOptions(edition=2))
        res = act(st, C.Throw(E12), faces="O - - -  O O -")
        assert rolls(res, "throw")[0]["result"] == "a bit wobbly"
        (ca,) = rolls(res, "catch")  # no question: he may not decline a pass
        assert need_of(ca) == 2 and res.state.ball.carrier == "w2"
        assert res.state.phase is Phase.ACTION

    def test_a_dropped_wobbly_pass_bounces_from_the_catcher_and_shifts(self):
        st = thrower(P("w2", "gnolls/midfielders", "E12", "E"))
        res = act(st, C.Throw(E12), faces="O - - -  O - -", d6="1", answers=["catch"])
        assert res.state.ball.hex == E12.neighbour(Direction.NE)
        assert res.state.turn_side == "east"

    def test_wobbly_to_an_adjacent_team_mate_is_caught_automatically(self):
        st = thrower(P("w2", "gnolls/midfielders", "F12", "E"))
        res = act(st, C.Throw(F12), faces="O - - -")
        assert not rolls(res, "catch")
        assert res.state.ball.carrier == "w2"
        assert [e["how"] for e in events(res, "ball_caught")] == ["automatic"]

    def test_a_perfect_spiral_is_caught_automatically(self):
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"))
        res = act(st, C.Throw(D12), faces="O O - -")
        assert not rolls(res, "catch")
        assert res.state.ball.carrier == "w2" and res.state.momentum == 1
        assert [e["how"] for e in events(res, "ball_caught")] == ["perfect spiral"]

    def test_the_action_goes_on_after_a_short_throw(self):
        """TH7: play-by-play #2 - "the thrower may still act"."""
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"))
        st = act(st, C.Throw(D12), faces="O O - -").state
        assert st.phase is Phase.ACTION and st.action.jog_left == 5
        st = act(st, C.Move((hx("G11"), hx("H11")))).state
        assert st.action.jog_left == 3

    def test_a_flopped_throw_bounces_from_the_thrower(self):
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"))
        res = act(st, C.Throw(D12), faces="X X - -", d6="3")
        assert res.state.ball.hex == G12.neighbour(Direction.SE)
        assert not rolls(res, "catch") and res.state.turn_side == "east"


def test_tc4_the_catch_example():
    """TC4 (Catch, p. 7): Skill 3 with one adjacent forward facing opponent needs 3; three
    counters. "You roll one flop, one blank, and one success. You use two Momentum counters to
    replace the flop and blank and roll two blanks. You cannot use Momentum more than once per a
    roll so you end up with 1 success, 1 point of Momentum left, and a failed catch."
    """
    st = thrower(P("w2", "gnolls/midfielders", "E12", "E"), P("e1", "gnolls/midfielders", "D12", "E"),
                 momentum=(3, "west"))
    # The wobbly pass (the counters are kept), then the catch: X - O, replace dice 0 and 1: - - .
    # Die 2 could still be replaced with the last counter; the coach stops. The ball bounces
    # from the catcher (D6 = 1) and nobody of west caught it: the last counter goes to east.
    res = act(st, C.Throw(E12), faces="O - - -  X - O  - -", d6="1", answers=[[], "catch", [0, 1], []])
    (ca,) = rolls(res, "catch")
    assert need_of(ca) == 3 and ca["band"] == "failure" and ca["net"] == 1
    assert [d["face"] for d in ca["roll"]["dice"] if not d.get("struck")] == ["O", "-", "-"]
    assert (res.state.momentum, res.state.momentum_side) == (1, "east")


class TestMiss:
    """"Throw misses and lands D6 paces in a D6 direction from the target hex's location. SiM
    unless the ball is caught by any of your team members." A player where it lands may Catch
    (G33)."""

    def test_a_miss_lands_d6_in_a_d6_direction_from_the_target(self):
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"))
        # Needs 1: - - - - misses. D6 direction 1 (NE), D6 distance 2, counted from D12.
        res = act(st, C.Throw(D12), faces="- - - -", d6="1 2")
        landing = D12.neighbour(Direction.NE).neighbour(Direction.NE)
        assert res.state.ball.hex == landing and res.state.ball.carrier is None
        assert res.state.turn_side == "east"  # nobody of his caught it

    def test_a_team_mate_who_catches_a_miss_saves_the_action(self):
        landing = D12.neighbour(Direction.NE).neighbour(Direction.NE)
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"), P("w3", "gnolls/midfielders", F.format(landing), "SE"))
        res = act(st, C.Throw(D12), faces="- - - -  O O -", d6="1 2", answers=["catch"])
        assert res.state.ball.carrier == "w3"
        assert res.state.phase is Phase.ACTION and not events(res, "momentum_shifted")

    def test_an_opponent_who_catches_a_miss_shifts(self):
        landing = D12.neighbour(Direction.NE).neighbour(Direction.NE)
        st = thrower(P("w2", "gnolls/midfielders", "D12", "E"), P("e1", "gnolls/midfielders", F.format(landing), "SE"))
        res = act(st, C.Throw(D12), faces="- - - -  O O -", d6="1 2", answers=["catch"])
        assert res.state.ball.carrier == "e1" and res.state.turn_side == "east"


class TestCentreLine:
    """B6: the centre line is white, so a thrown ball stops on entering it and bounces back."""

    def test_no_pass_across_midfield(self):
        st = thrower(P("w2", "gnolls/midfielders", "M8", "W"), at="G8", facing="E")
        # 6 hexes: needs 3. A perfect spiral towards M8 stops at K8 and bounces: only W is legal
        # from K8 (E would cross the line; the other four start on it): 5, for 1 -> J8.
        res = act(st, C.Throw(hx("M8")), faces="O O O O", d6="5 1")
        assert [e["hex"] for e in events(res, "ball_stopped_by_line")] == [list(hx("K8"))]
        assert events(res, "ball_thrown")[0]["lands"] == list(hx("K8"))
        assert res.state.ball.hex == hx("J8") and res.state.ball.carrier is None
        assert res.state.turn_side == "east"  # no team-mate caught it

    def test_a_thrower_on_the_line_throws_from_it(self):
        """G12: the thrower's own hex does not stop the ball."""
        st = thrower(P("w2", "gnolls/midfielders", "G11", "E"), at="J11", facing="W")
        res = act(st, C.Throw(hx("G11")), faces="O O - -")
        assert not events(res, "ball_stopped_by_line")
        assert res.state.ball.carrier == "w2"

    def test_a_perfect_spiral_bounced_off_a_line_is_still_caught(self):
        st = thrower(P("w2", "gnolls/midfielders", "I11", "E"), at="G9", facing="E")
        # Stops at J9; bounces SW (J10, I11) onto w2: "even if bounced off a line".
        res = act(st, C.Throw(hx("M9")), faces="O O O O", d6="4 2")
        assert res.state.ball.carrier == "w2" and not rolls(res, "catch")
        assert res.state.phase is Phase.ACTION


class TestInterception:
    """"lay the passing string flat on the path (including any bounce off a white line) between
    the thrower's hex and the hex the ball is landing in. Any one opposing standing player
    (intercepting coach's choice) who has any part of a hex he occupies crossed by the passing
    string may attempt to intercept the ball." Intercept: Skill, needs 2. Flop: the interceptor is
    Down, "The throw is resolved as normal". Success: he catches it."""

    def lane(self, *extra: P, momentum=(0, None)):
        # The string from G12 to D12 crosses F12 and E12 only.
        return thrower(P("w2", "gnolls/midfielders", "D12", "W"), *extra, momentum=momentum)

    def test_only_standing_opponents_under_the_string(self):
        st = self.lane(
            P("e1", "gnolls/strikers", "E12", "NE"),  # under the string
            P("e2", "gnolls/strikers", "E11", "SE"),  # next to it, not under it
            P("e3", "gnolls/strikers", "F12", "NE", status="down"),  # under it, but Down
        )
        res = act(st, C.Throw(D12), faces="O O - -", pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["default"]) == ("interceptor", "east", None)
        assert q["options"] == ["e1", None]

    def test_no_question_when_the_string_touches_nobody(self):
        st = self.lane(P("e2", "gnolls/strikers", "E11", "SE"), P("w3", "gnolls/midfielders", "E12", "NE"))
        res = act(st, C.Throw(D12), faces="O O - -")
        assert res.state.ball.carrier == "w2"

    def test_declining(self):
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"))
        res = act(st, C.Throw(D12), faces="O O - -", answers=[None])
        assert events(res, "interception_declined") and res.state.ball.carrier == "w2"

    def test_a_successful_interception_shifts_and_earns_the_interceptor_nothing(self):
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"), momentum=(2, "west"))
        # West keeps its counters on the throw and on the interception; e1: Skill 4, needs 2:
        # O O O O, two extra that earn east nothing; east receives west's 2 counters.
        res = act(st, C.Throw(D12), faces="O O - -  O O O O", answers=[[], "e1", []])
        st = res.state
        assert st.ball.carrier == "e1" and [e["how"] for e in events(res, "ball_caught")] == ["interception"]
        assert (st.momentum, st.momentum_side) == (3, "east")  # 2 + the throw's 1 extra
        assert st.turn_side == "east" and st.phase is Phase.TURN

    def test_a_flopped_interception_the_throw_goes_on(self):
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"))
        res = act(st, C.Throw(D12), faces="O - - -  X X - O  O O -", answers=["e1", "catch"])
        st = res.state
        assert st.players["e1"].status is Status.DOWN
        assert st.ball.carrier == "w2"  # the wobbly pass, caught
        assert st.phase is Phase.ACTION and not events(res, "momentum_shifted")

    def test_the_thrower_may_force_a_re_roll_of_the_interception(self):
        """"You can also use Momentum counters to force an opponent to replace a die of your
        choice for any challenge rolls they make during your action" (play-by-play #2)."""
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"), momentum=(1, "west"))
        # Wobbly throw (keep the counter); e1 intercepts: O O - - is enough, but west forces die 0
        # again: - . The pass goes on to w2, who catches: O O - .
        res = act(st, C.Throw(D12), faces="O - - -  O O - -  -  O O -", answers=[[], "e1", [0], "catch"])
        (ic,) = rolls(res, "intercept")
        assert ic["band"] == "failure"
        assert [d.get("reason") for d in ic["roll"]["dice"] if d["origin"] == "replacement"] == ["forced"]
        assert res.state.ball.carrier == "w2" and res.state.momentum == 0
        assert res.state.phase is Phase.ACTION

    def test_a_failed_interception_the_throw_goes_on(self):
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"))
        res = act(st, C.Throw(D12), faces="O O - -  O - - -", answers=["e1", []])  # (keep the counter)
        assert res.state.ball.carrier == "w2" and res.state.players["e1"].standing

    def test_the_bounce_off_a_line_is_part_of_the_path(self):
        st = thrower(P("e1", "gnolls/strikers", "J10", "NE"), at="G9", facing="E")
        # G9 -> M9 stops at J9 and bounces SW through J10 (e1) to I11.
        res = act(st, C.Throw(hx("M9")), faces="O O O O", d6="4 2", pending=True)
        assert res.state.in_progress.question["options"] == ["e1", None]

    def test_no_interception_of_a_flopped_throw(self):
        st = self.lane(P("e1", "gnolls/strikers", "E12", "NE"))
        res = act(st, C.Throw(D12), faces="X - - -", d6="6")
        assert not rolls(res, "intercept") and res.state.turn_side == "east"
