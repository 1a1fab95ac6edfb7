"""The rulebook's two play-by-play examples, step by step with the book's dice (TC5, TC6).

The figures were lost, so the positions are rebuilt to satisfy every number the text gives:
who is adjacent, who faces whom, and the successes needed at each step.
"""

from __future__ import annotations

from support.builders import P, act, hx, position, rolls

from engine import commands as C
from engine.hexes import Direction
from engine.state import Status


def need_of(r: dict) -> int:
    need = r["roll"]["need"]
    return max(1, need["base"] + sum(m["value"] for m in need["modifiers"]))


class TestPlayByPlay1:
    """A Dryad frees the ball from an Imp (TC5). Timberline Elves are west, Night Elves east."""

    def start(self):
        return position(
            P("w1", "timberline-elves/dryads", "F14", "E"),  # the Dryad
            P("w2", "timberline-elves/hunters", "I12", "W"),  # the team-mate who will face the Imp
            P("e1", "night-elves/strikers", "E14", "E"),  # the Striker facing her
            P("e2", "night-elves/imps", "G13", "E", ball=True),  # the Imp, holding the ball
            acting="w1",
            jog=5,
        )

    def test_step_by_step(self):
        st = self.start()
        # Disengage from the Striker: Dodge 4, needs Tackle 2 - 2 -> 1. X O O - : net 1.
        res = act(st, C.Move((hx("G14"),)), faces="X O O -")
        (dis,) = rolls(res, "disengage")
        assert need_of(dis) == 1 and dis["net"] == 1 and dis["band"] == "exact"
        st = res.state
        assert st.players["w1"].hex == hx("G14")
        assert st.action.jog_left == 4  # the step cost 1, the Disengage nothing
        assert st.momentum == 0

        # Shove the Imp: Might 4, needs Might 2 - 2 -> 1. O O O - : 3, so 2 Momentum.
        res = act(st, C.Shove("e2"), faces="O O O -")
        (sh,) = rolls(res, "shove")
        assert need_of(sh) == 1 and sh["net"] == 3
        st = res.state
        assert (st.momentum, st.momentum_side) == (2, "west")
        assert st.action.jog_left == 3
        assert st.players["e2"].hex == hx("H12")  # pushed one hex straight away
        assert st.players["e2"].facing is Direction.E  # keeps his facing
        assert st.ball.carrier == "e2"

        # Move into the hex the Imp left: Jog 2.
        st = act(st, C.Move((hx("G13"),))).state
        assert st.action.jog_left == 2

        # Tackle: no Impact (Might 4 > 2). Tackle 1 die; needs 5 - 2 - 1 (team-mate facing the
        # Imp) - 1 (from his rear) = 1; he holds the ball, so no +1. A blank, replaced with a
        # counter by a bull's-eye: exactly 1, a Slide Tackle. The ball bounces D6 = 5: left.
        res = act(st, C.Tackle("e2"), faces="- O", d6="5", answers=[[0]])
        (tk,) = rolls(res, "tackle")
        assert need_of(tk) == 1
        labels = {m["label"] for m in tk["roll"]["need"]["modifiers"]}
        assert labels == {"team-mate facing the target", "from the rear"}
        assert tk["result"] == "Slide Tackle" and tk["net"] == 1
        assert not any(e.kind == "challenge_rolled" and e.challenge == "impact" for e in res.events)
        st = res.state
        assert st.players["w1"].status is Status.DOWN and st.players["e2"].status is Status.DOWN
        assert st.ball.carrier is None and st.ball.hex == hx("G12")  # the hex to the left of the Imp
        assert st.momentum == 1 and st.action.jog_left == 1

        # Stand up: Down, Grit 4 -> 5 - 4 = 1 Jog. Her normal action is then over.
        st = act(st, C.StandUp(Direction.NW)).state
        assert st.players["w1"].status is Status.STANDING and st.action.jog_left == 0

        # Dash with her last counter: 1 die, needs 1: a bull's-eye. No Momentum from a Dash.
        res = act(st, C.Dash(1), faces="O")
        st = res.state
        assert st.momentum == 0 and st.action.dash == "granted"

        # Move one hex onto the ball (the Imp is Down: no Disengage) and pick it up: Skill 2,
        # needs 1: O - .
        res = act(st, C.Move((hx("G12"),)), faces="O -")
        (pu,) = rolls(res, "pickup")
        assert need_of(pu) == 1 and pu["band"] == "exact"
        assert not rolls(res, "disengage")
        st = res.state
        assert st.ball.carrier == "w1" and st.players["w1"].hex == hx("G12")
        assert st.action.jog_left == 0 and st.momentum == 0 and st.action.dash == "done"

        res = act(st, C.EndAction(Direction.E))
        st = res.state
        assert st.turn_side == "east" and st.last_moved["west"] == "w1"
        assert not any(e.kind == "momentum_shifted" for e in res.events)  # no SiM
        assert st.players["e2"].status is Status.DOWN


class TestPlayByPlay2:
    """Thunder Hammer Dwarves against the Black Widows: shove, wobbly throw, a forced re-roll
    turns the interception into a flop, the catch (TC6). Dwarves are west."""

    def start(self):
        return position(
            P("w1", "dwarves-thunder-hammer/dwarves", "D13", "E", ball=True),  # the thrower
            P("w2", "dwarves-thunder-hammer/dwarves", "H13", "W"),  # the receiver, 4 hexes away
            P("e1", "black-widows/widowmaker", "E12", "SW"),  # the Widowmaker, facing him
            P("e2", "black-widows/hunters", "E13", "W"),  # the Hunter, adjacent and facing him
            P("e3", "black-widows/midfielders", "F13", "E"),  # a Midfielder under the string
            P("e4", "black-widows/strikers", "G12", "SW"),  # facing the Midfielder
            acting="w1",
            jog=4,  # the text has 3 left after the Shove (G48)
        )

    def test_step_by_step(self):
        st = self.start()
        # Shove the Widowmaker: Might 4; needs 3 - 2 + 1 (the Hunter facing the Dwarf) = 2.
        res = act(st, C.Shove("e1"), faces="O O O -")
        (sh,) = rolls(res, "shove")
        assert need_of(sh) == 2 and sh["net"] == 3 and sh["extra"] == 1
        st = res.state
        assert (st.momentum, st.action.jog_left) == (1, 3)
        assert st.players["e1"].hex == hx("E11")

        # Throw to the Dwarf 4 hexes away: short (he has challenged), so max 6 and +2 beyond 3;
        # +1 for the Hunter facing him: needs 4 with 3 dice. * * O, the stars give O and - :
        # 4 successes, exactly: wobbly. He keeps his counter for later (answer: no re-roll).
        # The Black Widows send the Midfielder: Skill 3, needs 2 - 1 = 1: O O X, success; the
        # Dwarf coach forces a re-roll of a bull's-eye: X. 1 success, 2 flops: she is Down.
        # The receiver chooses to catch (he may let it drop, p. 7): Skill 3, needs 2: O O - .
        res = act(
            st,
            C.Throw(hx("H13")),
            faces="* * O O -  O O X  X  O O -",
            answers=[[], "e3", [0], "catch"],
        )
        (th,) = rolls(res, "throw")
        assert need_of(th) == 4 and th["net"] == 4 and th["result"] == "a bit wobbly"
        (ic,) = rolls(res, "intercept")
        assert need_of(ic) == 1 and ic["band"] == "flop"
        (ca,) = rolls(res, "catch")
        assert need_of(ca) == 2 and ca["band"] == "exact"
        st = res.state
        assert st.players["e3"].status is Status.DOWN
        assert st.ball.carrier == "w2"
        assert st.momentum == 0 and st.action.jog_left == 2
        assert st.turn_side == "west" and st.action is not None  # no SiM: his action goes on
        assert st.players["w1"].facing is Direction.E

    def test_the_interceptor_is_the_intercepting_coachs_choice(self):
        st = self.start()
        st = act(st, C.Shove("e1"), faces="O O O -").state
        res = act(st, C.Throw(hx("H13")), faces="* * O O -", answers=[[]])
        q = res.state.in_progress.question
        assert q["kind"] == "interceptor" and q["side"] == "east"
        assert set(q["options"]) == {"e2", "e3", None}
