"""Turns, actions, Jog, Momentum, the Dash, standing up, goals, conceding and Replacements
(rulebook pp. 2-5 and 8), with scripted dice.

Whenever the acting team holds counters and its own roll is not flopped (or an opponent rolls
during its action), the engine asks whether to spend them: those questions are answered with
``[]`` (keep the counters) unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from support.builders import P, play as act, events, hx, need_of, position, refused, rolls

from engine import commands as C
from engine.hexes import Direction
from engine.state import Location, Phase, RuleOptions, Status

G12, H12, I12, F12, E12, G11, G13, H11 = (hx(x) for x in ("G12", "H12", "I12", "F12", "E12", "G11", "G13", "H11"))


def duel(tackler: str = "gnolls/hunters", target: str = "gnolls/strikers", *, ball: bool = True, jog: int = 6,
         momentum=(0, None), **flags):
    """West's ``w1`` at G12 facing east, acting; east's ``e1`` at H12 facing him."""
    return position(
        P("w1", tackler, "G12", "E"),
        P("e1", target, "H12", "W", ball=ball),
        P("w2", "gnolls/midfielders", "C7", "E"),
        P("e2", "gnolls/midfielders", "Q7", "W"),
        ball=None if ball else "Q17",
        acting="w1", jog=jog, momentum=momentum, **flags,
    )


# --- turn sequence -------------------------------------------------------------------------
class TestTurnSequence:
    """"The Team Manager of each team may select any of his players to perform an action. Play
    alternates in this fashion until a goal is scored. A Team Manager must select any one of his
    players ... except the very last player which performed an action on his team ... If a team
    has only one player on the field, then he may perform an action in consecutive turns.\""""

    def start(self, **kw):
        return position(
            P("w1", "gnolls/midfielders", "G12"), P("w2", "gnolls/midfielders", "F12"),
            P("e1", "gnolls/midfielders", "N12", "W"), P("e2", "gnolls/midfielders", "O12", "W"),
            turn="west", **kw,
        )

    def test_teams_alternate_and_the_last_mover_waits(self):
        st = self.start()
        st = act(st, C.StartAction("w1")).state
        assert st.phase is Phase.ACTION and st.action.player == "w1"
        st = act(st, C.EndAction()).state
        assert st.phase is Phase.TURN and st.turn_side == "east" and st.last_moved["west"] == "w1"
        refused(st, C.StartAction("w2"), by="west", match="east's turn")
        refused(st, C.StartAction("w1"), by="east", match="plays for west")
        st = act(st, C.StartAction("e1"), by="east").state
        st = act(st, C.EndAction(), by="east").state
        assert st.turn_side == "west"
        refused(st, C.StartAction("w1"), by="west", match="last action")
        st = act(st, C.StartAction("w2")).state
        st = act(st, C.EndAction()).state
        st = act(st, C.StartAction("e2"), by="east").state
        st = act(st, C.EndAction(), by="east").state
        act(st, C.StartAction("w1"))  # w1 may act again: w2 took west's last action

    def test_a_lone_player_acts_on_consecutive_turns(self):
        st = position(
            P("w1", "gnolls/midfielders", "G12"), P("w2", "gnolls/midfielders", location="infirmary"),
            P("e1", "gnolls/midfielders", "N12", "W"), P("e2", "gnolls/midfielders", "O12", "W"), turn="west",
        )
        st.last_moved["west"] = "w1"
        assert act(st, C.StartAction("w1")).state.action.player == "w1"

    def test_a_down_player_may_be_chosen_to_stand(self):
        st = self.start()
        st.players["w1"].status = Status.DOWN
        st.players["w2"].facing = Direction.W  # not facing him: no help
        st = act(st, C.StartAction("w1")).state
        st = act(st, C.StandUp(Direction.E)).state
        assert st.players["w1"].standing and st.action.jog_left == 6 - (5 - 3)

    def test_benched_players_do_not_act(self):
        st = self.start()
        st.players["w2"].location, st.players["w2"].hex = Location.BENCH, None
        refused(st, C.StartAction("w2"), by="west", match="not on the field")


# --- earning Momentum ------------------------------------------------------------------------
class TestEarning:
    """"Any time you attempt a challenge (other than a Dash or Face-off challenge) and roll more
    than number of needed successes, these are considered Extra Successes and allow you to move
    the Momentum counter up the track that many spaces (to a maximum of 6).\""""

    def test_extra_successes_become_counters(self):
        # Shove: Might 3 against Might 3 needs 1; O O O is 3: two extra.
        res = act(duel("gnolls/midfielders", "gnolls/midfielders", ball=False), C.Shove("e1"), faces="O O O")
        assert (res.state.momentum, res.state.momentum_side) == (2, "west")
        (gain,) = events(res, "momentum_gained")
        assert gain["amount"] == 2 and gain["source"] == "shove"

    def test_exactly_what_was_needed_earns_nothing(self):
        res = act(duel("gnolls/midfielders", "gnolls/midfielders", ball=False), C.Shove("e1"), faces="O - -")
        assert res.state.momentum == 0 and not events(res, "momentum_gained")

    def test_the_track_stops_at_6(self):
        # 5 counters, then * O O (the star rolls O): 4 successes, 3 extra -> 6, not 8.
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, momentum=(5, "west"))
        res = act(st, C.Shove("e1"), faces="* O O O", answers=[[]])
        assert res.state.momentum == 6
        (gain,) = events(res, "momentum_gained")
        assert (gain["amount"], gain["total"]) == (1, 6)

    @pytest.mark.parametrize(
        ("faces", "injury", "d6", "result", "counters"),
        [
            ("- - - -", "", "", "stiff-armed", 0),
            ("O - - -", "", "", "stiff-armed", 0),
            ("O O - -", "", "2", "Slide Tackle", 0),
            ("O O O -", "", "2", "Solid Hit", 0),
            ("O O O O", "O O O O O -", "2", "Punishing Hit", 0),
            ("* O O O O", "- -", "2", "Crippling Hit", 0),
            ("* * O O O O", "- -", "2", "Crippling Hit", 1),
        ],
    )
    def test_tackle_bands_and_their_momentum(self, faces, injury, d6, result, counters):
        """TC11: with N = 2, nets 0..6 give stiff arm twice, Slide, Solid, Punishing, Crippling (0
        Momentum), Crippling + 1: "only successes over three more than needed count as Extra
        Successes for Momentum"."""
        # A Hunter (Tackle 4, Might 3) tackles a Striker (Dodge 4, Might 3, Grit 2) who holds the
        # ball and faces him: no Impact; needs 4 - 2 = 2.
        st = duel()
        answers = [[]] if counters else []  # the Injury roll: west may force a re-roll
        res = act(st, C.Tackle("e1"), faces=f"{faces} {injury}", d6=d6, answers=answers)
        (tk,) = rolls(res, "tackle")
        assert need_of(tk) == 2 and tk["result"] == result
        assert res.state.momentum == counters
        assert len(rolls(res, "injury")) == (1 if injury else 0)
        if injury:
            (inj,) = rolls(res, "injury")
            assert inj["attribute"] == ("grit as 6" if result == "Punishing Hit" else "grit")

    def test_the_non_acting_team_earns_nothing(self):
        """Extra successes on the opponent's rolls during your action earn nobody anything
        (G24): here east catches a loose ball with two extra successes."""
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            P("e2", "gnolls/strikers", "I12", "W"), acting="w1",
        )
        # Solid Hit: the ball bounces D6 = 2 (E) onto e2, who catches: Skill 4, needs 2 (w1 is not
        # adjacent to him). O O O O: 2 extra, for nobody.
        res = act(st, C.Tackle("e1"), faces="O O O -  O O O O", d6="2", answers=["catch"])
        assert res.state.ball.carrier == "e2"
        assert res.state.momentum == 0 and not events(res, "momentum_gained")


# --- keeping, resetting and shifting Momentum ---------------------------------------------------
class TestResetAndShift:
    """"Momentum counters always return to zero at the beginning of your opponent's action
    unless a Shift in Momentum occurs in which case your opponent gains all of your remaining
    Momentum counters to use for his player's action." SiM: "Failing to pick-up the ball ...
    Failing to have one of your players catch the ball after a Throw challenge; Failing a Dash
    challenge; Flopping a challenge (if you have flopped a challenge no Momentum counters may be
    used to change this)"."""

    def test_counters_return_to_zero_without_a_shift(self):
        st = act(duel("gnolls/midfielders", "gnolls/midfielders", ball=False), C.Shove("e1"), faces="O O O").state
        assert st.momentum == 2
        res = act(st, C.EndAction())
        assert res.state.momentum == 0 and res.state.momentum_side is None
        assert events(res, "momentum_reset") and not events(res, "momentum_shifted")
        res = act(res.state, C.StartAction("e1"), by="east")
        assert res.state.momentum == 0

    def assert_shift(self, res, counters: int):
        st = res.state
        assert (st.momentum, st.momentum_side) == (counters, "east")
        assert [e["counters"] for e in events(res, "momentum_shifted")] == [counters]
        assert st.phase is Phase.TURN and st.turn_side == "east"  # the action is over
        # ... and east keeps them into its action.
        res = act(st, C.StartAction("e2"), by="east")
        assert (res.state.momentum, res.state.momentum_side) == (counters, "east")

    def test_a_failed_pick_up(self):
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E"), P("e2", "gnolls/midfielders", "Q7", "W"),
            ball="H12", acting="w1", momentum=(3, "west"),
        )
        # Skill 3, needs 1: - - - fumbles (keep the counters); the ball bounces D6 = 2 to I12.
        res = act(st, C.Move((H12,)), faces="- - -", d6="2", answers=[[]])
        assert res.state.ball.hex == I12
        self.assert_shift(res, 3)

    def test_no_spending_after_the_trigger(self):
        """G29: the triggering challenge resolves fully (here the fumbled ball bounces onto an
        opponent, who catches it), but from the trigger on the acting team may spend nothing: no
        forced re-roll on that catch, and all 3 counters pass."""
        st = position(
            P("w1", "gnolls/midfielders", "G11", "E"), P("e1", "gnolls/strikers", "H12", "SW"),
            P("e2", "gnolls/midfielders", "Q7", "W"), ball="G12", acting="w1", momentum=(3, "west"),
        )
        # The fumble (keep the counters: the roll was not yet a SiM), D6 = 2 onto e1: O O - - .
        res = act(st, C.Move((G12,)), faces="- - -  O O - -", d6="2", answers=[[], "catch"])
        assert res.state.ball.carrier == "e1"
        assert not events(res, "momentum_spent")
        self.assert_shift(res, 3)

    def test_a_flopped_challenge_no_counters_may_change_it(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, momentum=(3, "west"))
        res = act(st, C.Shove("e1"), faces="X X O")
        assert res.state.in_progress is None  # no question: a flop cannot be rescued
        assert res.state.players["w1"].status is Status.DOWN
        self.assert_shift(res, 3)

    def test_momentum_may_be_spent_while_not_flopped(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, momentum=(3, "west"))
        # O X - : one success, one flop: not a flop, net 0, fails. Replace the X and the blank.
        # (The coach is asked again while counters and replaceable dice remain: he stops.)
        res = act(st, C.Shove("e1"), faces="O X -  O -", answers=[[1, 2], []])
        (sh,) = rolls(res, "shove")
        assert sh["net"] == 2 and sh["extra"] == 1
        assert res.state.momentum == 3 - 2 + 1

    def test_a_failed_dash_down(self):
        st = duel(jog=0, momentum=(3, "west"))
        res = act(st, C.Dash(1), faces="-", answers=[[]])
        assert res.state.players["w1"].status is Status.DOWN
        self.assert_shift(res, 2)

    def test_a_flopped_dash_dazed(self):
        st = duel(jog=0, momentum=(3, "west"))
        res = act(st, C.Dash(1), faces="X")
        assert res.state.players["w1"].status is Status.DAZED
        self.assert_shift(res, 2)

    def test_a_throw_to_an_empty_hex_always_shifts(self):
        """G32: "Failing to have one of your players catch the ball after a Throw challenge" -
        even a perfect spiral to an empty hex. The counters it earned go to the opponent."""
        st = position(
            P("w1", "gnolls/strikers", "G12", "E", ball=True), P("e2", "gnolls/midfielders", "Q7", "W"),
            acting="w1",
        )
        res = act(st, C.Throw(E12), faces="O O - -")
        assert rolls(res, "throw")[0]["result"] == "perfect spiral"
        assert res.state.ball.hex == E12 and res.state.ball.carrier is None
        self.assert_shift(res, 1)

    def test_a_dropped_pass_shifts(self):
        st = position(
            P("w1", "gnolls/strikers", "G12", "W", ball=True), P("w2", "gnolls/midfielders", "E12", "E"),
            P("e2", "gnolls/midfielders", "Q7", "W"), acting="w1",
        )
        # Wobbly (exactly 1); w2 is not adjacent, so he rolls a Catch: Skill 3, needs 2: O - - fails;
        # the ball bounces D6 = 4 (SW) to D13 and stays there.
        res = act(st, C.Throw(E12), faces="O - - -  O - -", d6="4", answers=["catch"])
        assert res.state.ball.hex == hx("D13")
        self.assert_shift(res, 0)

    def test_an_opponents_flop_is_not_a_shift(self):
        """MO6: in play-by-play #2 the interceptor flops and the Dwarf's action continues."""
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            P("e2", "gnolls/strikers", "I12", "W"), acting="w1",
        )
        res = act(st, C.Tackle("e1"), faces="O O O -  X - - -", d6="2 2", answers=["catch"])
        assert res.state.players["e2"].status is Status.DOWN
        assert res.state.phase is Phase.ACTION and not events(res, "momentum_shifted")


class TestForcedRerolls:
    """"You can also use Momentum counters to force an opponent to replace a die of your choice
    for any challenge rolls they make during your action.\""""

    def test_on_an_opponents_catch(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            P("e2", "gnolls/strikers", "I12", "W"), acting="w1", momentum=(2, "west"),
        )
        # Solid Hit (keep the counters); the ball bounces onto e2, who tries to catch: O O - - ;
        # west forces a re-roll of die 0: X. 1 success, 1 flop: net 0, the catch fails and the ball
        # bounces on (D6 = 2) to J12.
        res = act(st, C.Tackle("e1"), faces="O O O -  O O - -  X", d6="2 2", answers=[[], "catch", [0], []])
        q = [e for e in events(res, "momentum_spent") if e["purpose"] == "force a re-roll"]
        assert len(q) == 1 and res.state.momentum == 1
        assert res.state.ball.hex == hx("J12")

    def test_the_question_goes_to_the_acting_coach(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            acting="w1", momentum=(2, "west"),
        )
        res = act(st, C.Tackle("e1"), faces="O O O O  O O O - - -", answers=[[]], pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["challenge"], q["player"]) == ("force_reroll", "west", "injury", "e1")
        assert q["max"] == 2
        refused(res.state, C.Answer([0]), by="east", match="west's coach")

    def test_on_an_injury(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            acting="w1", momentum=(2, "west"),
        )
        # Punishing Hit: Injury at 6 dice. O O O O O - is 5: Down. West forces two re-rolls:
        # X X -> 3 successes, 2 flops... net 1: out for the game.
        # The ball he held then bounces from his hex: D6 = 2 (E) to I12.
        res = act(st, C.Tackle("e1"), faces="O O O O  O O O O O -  X X", d6="2", answers=[[], [0, 1]])
        (inj,) = rolls(res, "injury")
        assert inj["net"] == 1
        assert res.state.players["e1"].location is Location.INFIRMARY
        assert res.state.momentum == 0
        assert res.state.ball.hex == I12


# --- Jog -----------------------------------------------------------------------------------
class TestJog:
    """"Each time a player moves from one hex to another he uses one pace of his Jog. All
    challenges (other than Dash, Disengage, Catch, Impact and Interception) require one pace of
    Jog to perform unless the challenge is the last thing you attempt during your normal action in
    which case it costs no Jog to perform." (J2: with no Jog left, one more such challenge is
    free, and it ends the normal action.)"""

    def test_each_hex_costs_one(self):
        st = position(P("w1", "gnolls/midfielders", "G12", "E"), acting="w1", jog=3)
        st = act(st, C.Move((hx("G11"), hx("F11")))).state
        assert st.action.jog_left == 1
        refused(st, C.Move((hx("E11"), hx("D11"))), match="cost 2 Jog")
        st = act(st, C.Move((hx("E11"),))).state
        assert st.action.jog_left == 0
        refused(st, C.Move((hx("D11"),)), match="0 left")

    def test_one_figure_per_hex(self):
        """G21: "hex without a player in it", "as long as the hexes are empty": no entering or
        passing through another player, and a path that enters the ball's hex ends there (the
        Pick-up is compulsory)."""
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E"), P("w2", "gnolls/midfielders", "G11", "E"),
            P("e1", "gnolls/midfielders", "G13", "E", status="down"), ball="F12", acting="w1",
        )
        refused(st, C.Move((hx("G11"),)), match="taken")
        refused(st, C.Move((G13,)), match="taken")  # a Down player still fills his hex
        refused(st, C.Move((hx("G11"), hx("G10"))), match="taken")
        refused(st, C.Move((F12, E12)), match="end the path there")

    def test_disengage_is_free_the_step_is_not(self):
        # e1 (a Striker, Tackle 2) faces w1: leaving needs a Disengage, Dodge 3, needs 1.
        st = duel(ball=False, jog=3)
        res = act(st, C.Move((F12,)), faces="O - -")
        assert rolls(res, "disengage") and res.state.action.jog_left == 2

    @pytest.mark.parametrize("challenge", ["shove", "tackle"])
    def test_contact_costs_one(self, challenge):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, jog=3)
        cmd = C.Shove("e1") if challenge == "shove" else C.Tackle("e1")
        st = act(st, cmd, faces="- - -").state
        assert st.action.jog_left == 2 and not st.action.free_challenge_used

    def test_a_throw_costs_one_and_the_catch_nothing(self):
        st = position(
            P("w1", "gnolls/strikers", "G12", "W", ball=True), P("w2", "gnolls/midfielders", "E12", "E"),
            acting="w1", jog=3,
        )
        res = act(st, C.Throw(E12), faces="O - - -  O O -", answers=["catch"])
        assert res.state.ball.carrier == "w2" and res.state.action.jog_left == 2

    def test_a_pick_up_costs_one(self):
        st = position(P("w1", "gnolls/midfielders", "G12", "E"), ball="H12", acting="w1", jog=3)
        res = act(st, C.Move((H12,)), faces="O - -")
        assert res.state.ball.carrier == "w1" and res.state.action.jog_left == 1

    def test_the_last_challenge_is_free_with_no_jog_left(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, jog=0)
        st = act(st, C.Shove("e1"), faces="- - -").state
        a = st.action
        assert a.jog_left == 0 and a.free_challenge_used
        # It was the last thing in his normal action.
        refused(st, C.Shove("e1"), match="free last challenge")
        refused(st, C.Tackle("e1"), match="free last challenge")
        refused(st, C.Move((F12,)), match="normal action is over")

    def test_a_pick_up_on_the_last_pace_is_free(self):
        st = position(P("w1", "gnolls/midfielders", "G12", "E"), ball="H12", acting="w1", jog=1)
        st = act(st, C.Move((H12,)), faces="O - -").state
        assert st.ball.carrier == "w1" and st.action.jog_left == 0 and st.action.free_challenge_used
        refused(st, C.Throw(E12), match="free last challenge")

    def test_one_pace_left_then_two_challenges(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, jog=1)
        st = act(st, C.Shove("e1"), faces="- - -").state
        assert st.action.jog_left == 0 and not st.action.free_challenge_used
        st = act(st, C.Tackle("e1"), faces="- - -").state
        assert st.action.free_challenge_used

    def test_impact_is_free_a_failed_impact_costs_a_pace_more(self):
        """Impact: "Tackle fails. You may not roll for the Tackle challenge and you must pay 1
        additional pace to continue to move or perform another challenge" (G18)."""
        # A Striker (Might 3) against a Defender (Might 4): Impact, needs 2. O - - fails.
        st = duel("gnolls/strikers", "desert-dogs/defender", ball=False, jog=3)
        st = act(st, C.Tackle("e1"), faces="O - -").state
        a = st.action
        assert a.jog_left == 3 and a.surcharge and a.impact_tackle_used
        refused(st, C.Tackle("e1"), match="once per action")
        # A move now costs 2 (and needs a Disengage: the Defender faces him).
        refused(st, C.Move((F12, E12, hx("E11"))), match="cost 4 Jog")
        st2 = act(st, C.Move((F12,)), faces="O O - -").state  # Dodge 4; Tackle 4 - 2 = 2
        assert st2.action.jog_left == 1 and not st2.action.surcharge
        # Or a Shove costs 2.
        st3 = act(st, C.Shove("e1"), faces="- - -").state
        assert st3.action.jog_left == 1 and not st3.action.surcharge

    def test_the_surcharge_with_one_pace_left(self):
        st = duel("gnolls/strikers", "desert-dogs/defender", ball=False, jog=1)
        st = act(st, C.Tackle("e1"), faces="O - -").state
        refused(st, C.Move((F12,)), match="extra pace")
        # He pays the surcharge with his last pace; the Shove is then his free last challenge.
        st = act(st, C.Shove("e1"), faces="- - -").state
        assert st.action.jog_left == 0 and st.action.free_challenge_used

    def test_no_jog_for_the_surcharge_ends_the_normal_action(self):
        st = duel("gnolls/strikers", "desert-dogs/defender", ball=False, jog=0)
        st = act(st, C.Tackle("e1"), faces="O - -").state
        refused(st, C.Shove("e1"), match="extra pace")
        assert st.phase is Phase.ACTION  # a Dash would still be possible with counters

    def test_a_flopped_impact(self):
        st = duel("gnolls/strikers", "desert-dogs/defender", ball=False, jog=3, momentum=(1, "west"))
        res = act(st, C.Tackle("e1"), faces="X - -")
        assert res.state.players["w1"].status is Status.DOWN
        assert (res.state.momentum_side, res.state.turn_side) == ("east", "east")


class TestOncePerAction:
    """"The active player may perform each challenge (other than Impact/Tackle) as many times as
    desired per action.\""""

    def test_one_tackle(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False)
        st = act(st, C.Tackle("e1"), faces="- - -").state
        refused(st, C.Tackle("e1"), match="once per action")

    def test_shoves_are_unlimited(self):
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E"), P("e1", "gnolls/midfielders", "H12", "W"),
            acting="w1",
        )
        st = act(st, C.Shove("e1"), faces="- - -").state
        st = act(st, C.Shove("e1"), faces="- - -").state
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].hex == I12 and st.action.jog_left == 3


# --- the Dash ------------------------------------------------------------------------------
class TestDash:
    """"After your normal action is ended ... and you have Momentum counters left, you can
    attempt one and only one Dash challenge ... A successful Dash challenge lets you either
    perform one additional challenge OR move one hex (including any Disengage challenge needed)
    and perform a challenge after moving. The number of Momentum counters you spend ... is used
    as the attribute." Flop: Dazed, SiM. 0 successes: Down, SiM. No Momentum from a Dash."""

    def test_counters_are_the_dice(self):
        st = duel(ball=False, jog=0, momentum=(4, "west"))
        res = act(st, C.Dash(3), faces="O O O", answers=[[]])
        (d,) = rolls(res, "dash")
        assert d["attribute"] == "momentum" and len(d["roll"]["dice"]) == 3 and need_of(d) == 1
        assert res.state.momentum == 1  # 3 spent, the 2 extra successes earn nothing
        assert res.state.action.dash == "granted"

    def test_move_one_hex_then_a_challenge_free_of_jog(self):
        st = position(
            P("w1", "gnolls/midfielders", "G12", "E"), P("e1", "gnolls/midfielders", "I12", "W"),
            acting="w1", jog=0, momentum=(1, "west"),
        )
        st = act(st, C.Dash(1), faces="O").state
        refused(st, C.Move((H12, hx("H11"))), match="one hex")
        st = act(st, C.Move((H12,))).state
        assert st.players["w1"].hex == H12 and st.action.jog_left == 0
        refused(st, C.Move((G12,)), match="Dash's move")
        st = act(st, C.Shove("e1"), faces="- - -").state  # it fails: nobody moves
        assert st.players["e1"].hex == I12 and st.action.jog_left == 0
        assert st.action.dash == "done"
        refused(st, C.Shove("e1"), match="Dash's challenge")
        refused(st, C.Dash(1), match="one Dash")

    def test_or_just_a_challenge(self):
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, jog=0, momentum=(1, "west"))
        st = act(st, C.Shove("e1"), faces="- - -", answers=[[]]).state  # the free last challenge
        st = act(st, C.Dash(1), faces="O").state
        st = act(st, C.Tackle("e1"), faces="O O -").state  # Solid Hit
        assert st.players["e1"].status is Status.DOWN and st.action.dash == "done"

    def test_the_dash_move_needs_its_disengage(self):
        st = duel(ball=False, jog=0, momentum=(1, "west"))
        st = act(st, C.Dash(1), faces="O").state
        res = act(st, C.Move((F12,)), faces="O - -")  # Dodge 3; a Striker (Tackle 2) faces him
        assert rolls(res, "disengage") and res.state.players["w1"].hex == F12

    def test_no_second_tackle_from_a_dash(self):
        """G19: the Impact/Tackle limit still holds."""
        st = duel("gnolls/midfielders", "gnolls/midfielders", ball=False, jog=0, momentum=(1, "west"))
        st = act(st, C.Tackle("e1"), faces="- - -", answers=[[]]).state
        st = act(st, C.Dash(1), faces="O").state
        refused(st, C.Tackle("e1"), match="once per action")
        act(st, C.Shove("e1"), faces="- - -")

    def test_a_dash_ends_the_normal_action(self):
        st = duel(ball=False, jog=4, momentum=(1, "west"))
        st = act(st, C.Dash(1), faces="O").state
        assert st.action.jog_left == 4
        refused(st, C.StandUp())
        refused(st, C.Move((hx("G11"), hx("F11"))), match="one hex")

    @pytest.mark.parametrize(("counters", "have"), [(0, 2), (3, 2), (1, 0)])
    def test_counters_spent_must_be_held(self, counters, have):
        st = duel(ball=False, jog=0, momentum=(have, "west" if have else None))
        refused(st, C.Dash(counters), match="Momentum counters")

    def test_the_opponents_counters_are_not_yours(self):
        st = duel(ball=False, jog=0, momentum=(3, "east"))
        refused(st, C.Dash(1), match="you have 0")

    def test_not_while_down(self):
        st = duel(ball=False, jog=0, momentum=(2, "west"))
        st.players["w1"].status = Status.DOWN
        refused(st, C.Dash(1), match="on his feet")

    def test_no_dash_after_a_long_throw(self):
        st = position(
            P("w1", "gnolls/strikers", "D12", "E", ball=True), P("w2", "gnolls/midfielders", "D5", "E"),
            acting="w1", momentum=(2, "west"),
        )
        res = act(st, C.Throw(hx("D5"), long=True), faces="O O - -", answers=[[]])
        st = res.state
        assert st.ball.carrier == "w2" and st.action.long_throw
        refused(st, C.Dash(1), match="7 or more")


# --- standing up ---------------------------------------------------------------------------
class TestStandingUp:
    """"If your player is Down he can spend 5 less his Grit attribute in Jog paces to get up ...
    Dazed ... 8 less his Grit ... Each adjacent standing team-mate facing the Down/Dazed player
    reduces the number of Jog paces needed by one and each adjacent standing opponent facing the
    Down/Dazed player increases the number of Jog paces by one. You may not get up to a standing
    position if you don't have enough Jog left. If the amount of Jog needed to stand is zero or
    less than the player may stand without spending any Jog to do so." (TC8)"""

    def stand(self, pos: str, status: str, *extra: P, jog: int | None = None):
        st = position(P("w1", pos, "G12", "E", status=status), *extra, acting="w1", jog=jog)
        return st

    @pytest.mark.parametrize(
        ("pos", "status", "cost"),
        [
            ("timberline-elves/dryads", "down", 1),  # Grit 4
            ("timberline-elves/dryads", "dazed", 4),
            ("deadlings/deadwood", "down", 0),  # Grit 5, Jog 3
            ("deadlings/deadwood", "dazed", 3),
            ("gnolls/strikers", "dazed", 6),  # Grit 2
        ],
    )
    def test_costs(self, pos, status, cost):
        st = self.stand(pos, status)
        jog = st.action.jog_left
        res = act(st, C.StandUp(Direction.W))
        st = res.state
        assert st.players["w1"].standing and st.players["w1"].facing is Direction.W
        assert st.action.jog_left == jog - cost
        (up,) = events(res, "player_stood_up")
        assert up["cost"] == cost

    def test_team_mates_help_opponents_hinder(self):
        helper = P("w2", "gnolls/midfielders", "F12", "E")  # faces G12
        not_facing = P("w3", "gnolls/midfielders", "G11", "NE")  # faces away
        opponent = P("e1", "gnolls/midfielders", "H12", "W")  # faces G12
        down_opp = P("e2", "gnolls/midfielders", "G13", "NW", status="down")  # Down: no effect
        cases = [
            ((helper,), 0),
            ((not_facing,), 1),
            ((opponent,), 2),
            ((helper, opponent), 1),
            ((down_opp,), 1),
        ]
        for extra, cost in cases:
            st = self.stand("timberline-elves/dryads", "down", *extra)
            assert act(st, C.StandUp()).state.action.jog_left == 6 - cost, extra

    def test_not_enough_jog(self):
        st = self.stand("gnolls/strikers", "dazed", P("e1", "gnolls/midfielders", "H12", "W"))
        refused(st, C.StandUp(), match="costs 7 Jog")
        st = self.stand("timberline-elves/dryads", "dazed", jog=3)
        refused(st, C.StandUp(), match="costs 4 Jog")

    def test_down_players_neither_move_nor_challenge(self):
        st = self.stand("timberline-elves/dryads", "down", P("e1", "gnolls/midfielders", "H12", "W"))
        refused(st, C.Move((F12,)), match="stand up")
        refused(st, C.Shove("e1"), match="cannot make a challenge")
        refused(st, C.Tackle("e1"), match="cannot make a challenge")
        refused(st, C.Face(Direction.W), match="stands up")

    def test_already_standing(self):
        refused(self.stand("timberline-elves/dryads", "standing"), C.StandUp(), match="already standing")


# --- goals and the end of the match -----------------------------------------------------------
class TestGoals:
    """"To score a goal, a player holding the ball must end his action in the opponent's goal
    circle hex" (p. 2); scored at the end of any action of the scoring team (G36)."""

    def at_the_goal(self, goals: int = 1):
        return position(
            P("w1", "gnolls/strikers", "S13", "E", ball=True), P("w2", "gnolls/midfielders", "H12"),
            P("e1", "gnolls/midfielders", "L12", "W"), P("e2", "gnolls/midfielders", "M12", "W"),
            acting="w1", jog=3, options=RuleOptions(goals_to_win=goals),
        )

    def test_a_goal_at_the_end_of_the_action(self):
        st = act(self.at_the_goal(), C.Move((hx("T12"),))).state
        assert st.phase is Phase.ACTION and st.teams["west"].score == 0  # not yet
        res = act(st, C.EndAction())
        (goal,) = events(res, "goal_scored")
        assert goal["side"] == "west" and goal["player"] == "w1"
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "west"
        refused(res.state, C.StartTest(), by="east", match="over")

    def test_leaving_the_goal_before_the_end_scores_nothing(self):
        st = act(self.at_the_goal(), C.Move((hx("T12"), hx("S12")))).state
        res = act(st, C.EndAction())
        assert not events(res, "goal_scored") and res.state.turn_side == "east"

    def test_a_longer_match_goes_to_the_next_test(self):
        st = act(self.at_the_goal(2), C.Move((hx("T12"),))).state
        st = act(st, C.EndAction()).state
        assert st.phase is Phase.TEST_OVER and st.teams["west"].score == 1 and st.winner is None
        assert st.momentum == 0

    def test_the_second_goal_wins(self):
        st = self.at_the_goal(2)
        st.teams["west"].score = 1
        st = act(st, C.Move((hx("T12"),))).state
        st = act(st, C.EndAction()).state
        assert st.phase is Phase.MATCH_OVER and st.winner == "west" and st.teams["west"].score == 2

    def test_a_carrier_shoved_into_the_goal_scores_at_the_end_of_his_teams_next_action(self):
        """The opponent's goal with the ball is legal; the goal counts when an action of his
        team ends (G36), not the shover's."""
        st = position(
            P("w1", "gnolls/strikers", "S12", "W", ball=True), P("w2", "gnolls/midfielders", "H12"),
            P("e1", "gnolls/midfielders", "R12", "E"), P("e2", "gnolls/midfielders", "M12", "W"),
            acting="e1",
        )
        st = act(st, C.Shove("w1"), faces="O - -").state
        assert st.players["w1"].hex == hx("T12") and st.ball.carrier == "w1"
        st = act(st, C.EndAction()).state
        assert st.teams["west"].score == 0 and st.turn_side == "west"
        st = act(st, C.StartAction("w2")).state
        res = act(st, C.EndAction())
        assert [g["player"] for g in events(res, "goal_scored")] == ["w1"]


class TestConcede:
    """"A player at any point may concede the match to his opponent ... the opposing team's
    score is adjusted so that they have scored sufficient goals to win this game.\""""

    @pytest.mark.parametrize("goals", [1, 3])
    def test_concede_in_a_turn(self, goals):
        st = position(
            P("w1", "gnolls/midfielders", "G12"), P("e1", "gnolls/midfielders", "M12"),
            turn="west", options=RuleOptions(goals_to_win=goals),
        )
        res = act(st, C.Concede(), by="east")  # not even east's turn
        st = res.state
        assert st.phase is Phase.MATCH_OVER and st.winner == "west"
        assert st.teams["west"].score == goals and st.teams["east"].score == 0
        assert events(res, "conceded")[0]["side"] == "east"
        refused(st, C.StartAction("w1"), by="west", match="over")

    def test_concede_while_a_question_is_pending(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W", ball=True),
            acting="w1", momentum=(2, "west"),
        )
        st = act(st, C.Tackle("e1"), faces="- - - -", pending=True).state
        assert st.in_progress is not None
        res = act(st, C.Concede(), by="west")
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "east"
        assert res.state.in_progress is None


# --- Replacements ------------------------------------------------------------------------------
class TestReplacements:
    """"If you have less than 6 players on the field, then for your turn instead of taking an
    action with a player on the field you may take one player from your Bench area (not Recovery
    or Infirmary areas) and place him into any hex without a player in it within 3 hexes of
    either stairway into your dugouts. This player may pick-up the ball if it is in the hex, but
    may not move or perform any other challenges this turn. This player should be marked as the
    last player moved.\""""

    def start(self, on_field: int = 5, bench_location: str | None = None, **kw):
        field_hexes = ["G12", "F12", "E12", "G10", "G14", "H12"][:on_field]
        specs = [P(f"w{i + 1}", "gnolls/midfielders", h) for i, h in enumerate(field_hexes)]
        specs.append(P("w7", "gnolls/strikers", location=bench_location))
        specs += [P("e1", "gnolls/midfielders", "N12", "W"), P("e2", "gnolls/midfielders", "O12", "W")]
        return position(*specs, turn="west", **kw)

    def test_a_replacement(self):
        st = self.start(momentum=(2, "west"))
        res = act(st, C.Replace("w7", hx("E5"), Direction.SE))
        st = res.state
        p = st.players["w7"]
        assert p.location is Location.FIELD and p.hex == hx("E5") and p.facing is Direction.SE
        assert p.standing and st.last_moved["west"] == "w7"
        assert st.turn_side == "east" and st.phase is Phase.TURN
        assert st.momentum == 0  # it replaced west's action: no SiM, the counters reset

    def test_the_replacement_is_the_last_mover(self):
        st = act(self.start(), C.Replace("w7", hx("E5"), Direction.SE)).state
        st = act(st, C.StartAction("e1"), by="east").state
        st = act(st, C.EndAction(), by="east").state
        refused(st, C.StartAction("w7"), by="west", match="last action")
        act(st, C.StartAction("w1"))

    def test_six_on_the_field_is_too_many(self):
        refused(self.start(6), C.Replace("w7", hx("E5"), Direction.E), by="west", match="fewer than 6")

    @pytest.mark.parametrize("where", ["recovery", "infirmary", "sent_off", "ejected"])
    def test_only_from_the_bench(self, where):
        refused(self.start(bench_location=where), C.Replace("w7", hx("E5"), Direction.E), by="west",
                match="not on the Bench")

    @pytest.mark.parametrize("label", ["H8", "D4", "C6", "Q6", "J5"])
    def test_within_3_of_a_stairway_and_off_the_lines(self, label):
        refused(self.start(), C.Replace("w7", hx(label), Direction.E), by="west", match="stairway")

    def test_an_empty_hex(self):
        st = self.start()
        st.players["w1"].hex = hx("E5")
        refused(st, C.Replace("w7", hx("E5"), Direction.E), by="west", match="taken")

    def test_not_during_an_action(self):
        st = act(self.start(), C.StartAction("w1")).state
        refused(st, C.Replace("w7", hx("E5"), Direction.E), by="west", match="action phase")

    def test_he_may_pick_up_the_ball_where_he_comes_on(self):
        st = self.start(ball="E5")
        res = act(st, C.Replace("w7", hx("E5"), Direction.E), faces="O - - -")
        (pu,) = rolls(res, "pickup")
        assert need_of(pu) == 1
        assert res.state.ball.carrier == "w7" and res.state.turn_side == "east"

    def test_a_fumbled_pick_up_shifts_momentum(self):
        st = self.start(ball="E5", momentum=(2, "west"))
        # Skill 4, needs 1: - - - - (keep the counters); the ball bounces D6 = 3 (SE) to F6.
        res = act(st, C.Replace("w7", hx("E5"), Direction.E), faces="- - - -", d6="3", answers=[[]])
        assert res.state.ball.hex == hx("F6")
        assert (res.state.momentum, res.state.momentum_side) == (2, "east")


def test_a_replacement_turn_scores_no_goal_but_the_next_action_does():
    """Objective of the Game (p. 2): "a player holding the ball must end his action in the
    opponent's goal circle hex"; a Replacement is made "instead of taking an action" (p. 8)."""
    from support.builders import P, act, hx, position

    from engine import commands as C
    from engine.hexes import Direction
    from engine.state import Phase

    st = position(
        P("w1", "gnolls/strikers", "T12", "E", ball=True),  # in the east goal with the ball
        P("w2", "gnolls/hunters", "K10", "E"),
        P("w3", "gnolls/hunters", None),
        P("e1", "sarcos/hunters", "M14", "W"),
        turn="west",
    )
    res = act(st, C.Replace("w3", hx("E6"), Direction.E))
    assert not any(e.kind == "goal_scored" for e in res.events)
    assert res.state.turn_side == "east"
    st = act(res.state, C.StartAction("e1")).state
    st = act(st, C.EndAction()).state
    res = act(st, C.StartAction("w2"))
    res = act(res.state, C.EndAction())
    assert any(e.kind == "goal_scored" for e in res.events)
    assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "west"
