"""The face-off (rulebook p. 3), with scripted dice.

"Each Team Manager rolls a Face-off challenge. The player with the highest number of successes
(including zero if your opponent flopped) has won the face-off. In the event of a tie, roll
another face-off. Continue rolling tie-break face-offs until either one player wins or both
players flop. A player who flops a face-off challenge has tripped and is placed Down on the
field. If both players flop the face-off, a new face-off is started with the same starting setup
for each team."

The face-off dice are rolled west first, then east, when the second team finishes its set-up.
"""

from __future__ import annotations

import pytest
from support.builders import F, P, play as act, events, hx, need_of, position, refused, rolls

from engine import commands as C
from engine.state import Phase, Status

J11, K11, J12, J13, K13, L12 = (hx(x) for x in ("J11", "K11", "J12", "J13", "K13", "L12"))


def faceoff_position(west: str = "gnolls/midfielders", east: str = "gnolls/midfielders", *extra: P):
    """Both teams set up (face-off player and guardian each); east is about to finish."""
    st = position(
        P("w1", west, "J12", "E"), P("w2", "gnolls/midfielders", "D12", "E"),
        P("e1", east, "L12", "W"), P("e2", "gnolls/midfielders", "R12", "W"),
        *extra, phase=Phase.SETUP,
    )
    st.setup_side, st.first_setup_side = "east", "west"
    return st


def faceoff(st, faces: str):
    return act(st, C.SetupDone(), faces=faces, by="east")


class TestWinning:
    def test_the_most_net_successes_wins(self):
        res = faceoff(faceoff_position(), "O O -  O - -")
        st = res.state
        assert st.phase is Phase.FACEOFF and st.faceoff_winner == "west" and st.turn_side == "west"
        (fo,) = events(res, "faceoff_rolled")
        assert fo["result"] == "west"
        assert all(p.status is Status.STANDING for p in st.on_field())

    def test_east_can_win(self):
        st = faceoff(faceoff_position(), "- - -  * - -  O").state  # a star and its re-roll: 2
        assert st.faceoff_winner == "east"

    def test_zero_beats_a_flop_and_the_flopper_is_down(self):
        res = faceoff(faceoff_position(), "- - -  X - -")
        st = res.state
        assert st.faceoff_winner == "west"
        assert st.players["e1"].status is Status.DOWN
        assert st.players["w1"].status is Status.STANDING

    def test_ties_are_rolled_again(self):
        res = faceoff(faceoff_position(), "O - -  O - -   O X O  O - -   - - -  O - -")
        assert [e["result"] for e in events(res, "faceoff_rolled")] == ["tie", "tie", "east"]
        assert res.state.faceoff_winner == "east"
        assert all(p.status is Status.STANDING for p in res.state.on_field())

    def test_both_flop_a_new_face_off_with_the_same_set_up(self):
        st0 = faceoff_position()
        res = faceoff(st0, "X - -  X X O   O - -  - - -")
        assert [e["result"] for e in events(res, "faceoff_rolled")] == ["both_flopped", "west"]
        st = res.state
        assert st.faceoff_winner == "west"
        # Nobody is left Down by the double flop, and nobody moved.
        for pid in ("w1", "w2", "e1", "e2"):
            assert st.players[pid].status is Status.STANDING
            assert st.players[pid].hex == st0.players[pid].hex

    def test_extra_successes_earn_nothing(self):
        """"Note: Extra successes do not earn Momentum counters"."""
        res = faceoff(faceoff_position(), "O O O  X - -")
        assert res.state.momentum == 0
        assert not events(res, "momentum_gained")
        assert not rolls(res)  # the face-off is not an ordinary challenge roll


class TestMightBonus:
    """"If the winning face-off player's Might was less than the opposing player's than he
    receives one Momentum counter ... for each point of Might difference before performing this
    free challenge" (TC9)."""

    @pytest.mark.parametrize(
        ("west", "east", "faces", "bonus"),
        [
            ("desert-dogs/throwers", "desert-dogs/defender", "O -  - - - -", 2),  # TC9
            ("night-elves/imps", "deadlings/deadwood", "O -  - - - - - -", 4),
            ("desert-dogs/defender", "desert-dogs/throwers", "O - - -  - -", 0),  # the stronger won
            ("gnolls/midfielders", "gnolls/midfielders", "O - -  - - -", 0),
        ],
    )
    def test_counters_per_point_of_might_difference(self, west, east, faces, bonus):
        res = faceoff(faceoff_position(west, east), faces)
        st = res.state
        assert st.faceoff_winner == "west"
        assert (st.momentum, st.momentum_side) == (bonus, "west")
        (won,) = events(res, "faceoff_won")
        assert won["momentum"] == bonus

    def test_the_bonus_comes_before_the_free_challenge(self):
        st = faceoff(faceoff_position("desert-dogs/throwers", "desert-dogs/defender"), "O -  - - - -").state
        assert st.momentum == 2
        # The free Pick-up: Skill 4, needs 1 + 1 (the east face-off player faces the ball hex);
        # O O O - is 3, one extra: 3 counters in all. The counters already on the track could
        # have been spent on this roll (the question is asked; the coach declines).
        res = act(st, C.FaceoffPickup(), faces="O O O -", answers=[[]])
        assert res.state.ball.carrier == "w1"
        assert (res.state.momentum, res.state.momentum_side) == (3, "west")


class TestFreeChallenge:
    """"The winner may either: move up to two hexes as long as the hexes are empty and inside
    the face-off yellow circle to throw either a Shove or Tackle challenge against his face-off
    opponent, or advance into the hex with the ball and attempt a Pick-up challenge"."""

    def won(self, west="gnolls/midfielders", east="gnolls/midfielders", faces="O - -  - - -", *extra: P):
        st = faceoff(faceoff_position(west, east, *extra), faces).state
        assert st.faceoff_winner == "west"
        return st

    def test_pick_up(self):
        st = self.won()
        res = act(st, C.FaceoffPickup(), faces="O O -")
        st = res.state
        assert st.players["w1"].hex == F.ball_spot and st.ball.carrier == "w1"
        (pu,) = rolls(res, "pickup")
        # Skill 3, needs 1, +1 for the opposing face-off player, who faces the ball's hex.
        assert need_of(pu) == 2 and pu["result"] == "picked up"
        assert st.phase is Phase.TURN and st.turn_side == "west" and st.action is None

    @pytest.mark.parametrize("path", [(J11, K11), (J13, K13)])
    def test_two_free_hexes_then_a_shove(self, path):
        st = self.won()
        res = act(st, C.FaceoffContact(path, "shove"), faces="O O -")
        st = res.state
        assert st.players["w1"].hex == path[-1]
        # Shoved one hex straight away from the winner, keeping his facing.
        assert st.players["e1"].hex != L12 and st.players["e1"].facing.name == "W"
        (sh,) = rolls(res, "shove")
        assert need_of(sh) == 1 and sh["extra"] == 1
        assert (st.momentum, st.momentum_side) == (1, "west")  # the free challenge earns normally
        assert st.phase is Phase.TURN and st.turn_side == "west"

    def test_a_free_tackle_with_impact_first_when_weaker(self):
        # A Striker (Might 3) against a Defender (Might 4): Impact first (Might, needs 4 - 2 = 2),
        # then the Tackle (Tackle 2, needs Dodge 2 - 2 + 1 (no ball) = 1).
        st = self.won("gnolls/strikers", "desert-dogs/defender", "O - -  - - - -")
        assert st.momentum == 1  # the Might difference
        res = act(st, C.FaceoffContact((J11, K11), "tackle"), faces="O O -  O O", answers=[[], []])
        (imp,) = rolls(res, "impact")
        (tk,) = rolls(res, "tackle")
        assert need_of(imp) == 2 and imp["band"] == "exact"
        assert need_of(tk) == 1 and tk["result"] == "Solid Hit"
        assert res.state.players["e1"].status is Status.DOWN
        assert res.state.momentum == 1  # a Solid Hit earns nothing (only beyond N + 3)

    def test_a_flopped_free_challenge_does_not_shift_momentum(self):
        """FO6: "any Momentum earned during the face-off or from the free challenge can be used
        during this first action (even if ... the face-off player flopped the free challenge)"."""
        st = self.won("desert-dogs/throwers", "desert-dogs/defender", "O -  - - - -")
        assert st.momentum == 2
        # Shove a Might 4 Defender with Might 2: needs 2. X - : flopped, the shover is Down.
        res = act(st, C.FaceoffContact((J11, K11), "shove"), faces="X -")
        st = res.state
        assert st.players["w1"].status is Status.DOWN  # the physical result applies
        assert not events(res, "momentum_shifted")
        assert (st.momentum, st.momentum_side) == (2, "west")
        assert st.phase is Phase.TURN and st.turn_side == "west"
        # Any west player takes the first action and keeps the counters.
        res = act(st, C.StartAction("w2"))
        assert (res.state.momentum, res.state.momentum_side) == (2, "west")
        assert not events(res, "momentum_reset")

    def test_a_fumbled_free_pick_up_does_not_shift_momentum(self):
        st = self.won("desert-dogs/throwers", "desert-dogs/defender", "O -  - - - -")
        # Skill 4, needs 2: - - - - fumbles (west keeps its counters: no re-roll); the ball
        # bounces D6 = 2 (E) onto the east face-off player at L12, who may catch it (he declines,
        # and it bounces on: D6 = 2 to M12).
        res = act(st, C.FaceoffPickup(), faces="- - - -", d6="2 2", answers=[[], "decline"])
        st = res.state
        assert st.ball.hex == hx("M12")
        assert (st.momentum, st.momentum_side) == (2, "west")
        assert st.turn_side == "west" and st.phase is Phase.TURN

    def test_the_face_off_winner_may_take_the_first_action(self):
        st = self.won()
        st = act(st, C.FaceoffPickup(), faces="O O -").state
        assert st.last_moved["west"] is None
        res = act(st, C.StartAction("w1"))
        assert res.state.action.player == "w1" and res.state.action.jog_left == 6

    def test_the_free_challenge_costs_no_jog(self):
        st = self.won()
        st = act(st, C.FaceoffContact((J11, K11), "shove"), faces="- - -").state
        assert st.players["w1"].hex == K11 and st.players["e1"].hex == L12  # failed: not moved
        st = act(st, C.StartAction("w1")).state
        assert st.action.jog_left == st.players["w1"].jog


class TestFreeChallengeRefusals:
    def won(self, faces="O - -  - - -", *extra: P):
        st = faceoff(faceoff_position("gnolls/midfielders", "gnolls/midfielders", *extra), faces).state
        assert st.faceoff_winner == "west"
        return st

    def test_only_the_winner_chooses(self):
        st = self.won()
        refused(st, C.FaceoffPickup(), by="east", match="won the face-off")
        refused(st, C.StartAction("w2"), by="west", match="faceoff phase")

    @pytest.mark.parametrize(
        ("labels", "why"),
        [
            (("J11", "K11", "L11"), "up to two hexes"),
            (("K12", "L11"), "not an empty hex inside"),  # the ball's hex is the Pick-up
            (("I11", "J10"), "not an empty hex inside"),  # the circle's line: outside the interior
            (("J11",), "not adjacent"),  # from J11 the opponent is still two hexes away
            ((), "not adjacent"),
            (("K11",), "not next to"),  # not a path of steps
        ],
    )
    def test_paths_outside_the_rule(self, labels, why):
        st = self.won()
        refused(st, C.FaceoffContact(tuple(hx(x) for x in labels), "shove"), by="west", match=why)

    def test_the_hexes_must_be_empty(self):
        st = self.won("O - -  - - -", P("w3", "gnolls/midfielders", "J11", "E"))
        refused(st, C.FaceoffContact((J11, K11), "tackle"), by="west", match="not empty")

    def test_a_down_opponent_leaves_only_the_pick_up(self):
        """He "flops ... and is placed Down", and a Shove or Tackle needs a standing target (G54)."""
        st = self.won("- - -  X - -")
        assert st.players["e1"].status is Status.DOWN
        refused(st, C.FaceoffContact((J11, K11), "tackle"), by="west", match="Down")
        act(st, C.FaceoffPickup(), faces="O - -")
