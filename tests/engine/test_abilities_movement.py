"""Abilities that move players for Momentum counters, act out of sequence or Dash again
(rulebook pp. 12-14; analysis G40, G41, G46, G47), with scripted dice.

"This player may spend Momentum counters instead of Jog to move closer to ... Each counter
spent allows this player to move one hex if the player does not need to Disengage to move."
"""

from __future__ import annotations

import pytest
from support.builders import F, P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.dice import ScriptedDice
from engine.hexes import Direction, Hex, direction_between
from engine.legal import legal_commands
from engine.match import apply, pending
from engine.state import Location, Phase, Status

G12, H12, I12, J12, K12, F12 = hx("G12"), hx("H12"), hx("I12"), hx("J12"), hx("K12"), hx("F12")
FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")  # so east has somebody to act after a SiM
FAR = "Q7"  # the ball, out of the way


def mover(ability: str, *extra: P, momentum=(3, "west"), ball: str | None = FAR, position_id="gnolls/midfielders",
          **flags):
    """West's ``w1`` (with ``ability``) at G12 facing E, acting."""
    return position(
        P("w1", position_id, "G12", "E", abilities=(ability,)), FAR_EAST, *extra,
        ball=ball, acting="w1", momentum=momentum, **flags,
    )


def after_sim(*players: P, momentum=(3, "west"), ball: str = FAR):
    """West's turn has just begun after east's Shift in Momentum: the out-of-sequence window."""
    st = position(*players, FAR_EAST, ball=ball, momentum=momentum, turn="west")
    st.after_sim = True
    return st


def spent(res) -> list[int]:
    return [e["amount"] for e in events(res, "momentum_spent")]


# --- Momentum-paid movement: the shared rules (with Ruthless) ---------------------------------
class TestRuthless:
    """"This player may spend Momentum counters instead of Jog to move closer to a Down or Dazed
    opponent." (p. 13)"""

    def start(self, *extra: P, momentum=(3, "west"), **kw):
        return mover("ruthless", P("e1", "gnolls/strikers", "K12", "W", status="down"), *extra, momentum=momentum, **kw)

    def test_each_hex_costs_a_counter_and_no_jog(self):
        st = self.start()
        res = act(st, C.Move((H12, I12), ability="ruthless"))
        w1 = res.state.players["w1"]
        assert w1.hex == I12 and w1.facing is Direction.E
        assert res.state.momentum == 1 and spent(res) == [1, 1]
        assert res.state.action.jog_left == st.action.jog_left and res.state.action.moved
        assert events(res, "ability_used")[0]["effect"] == "counter_move"

    def test_a_dazed_opponent_counts(self):
        st = mover("ruthless", P("e1", "gnolls/strikers", "K12", "W", status="dazed"))
        assert act(st, C.Move((H12,), ability="ruthless")).state.players["w1"].hex == H12

    def test_every_step_must_bring_him_closer(self):
        st = self.start()
        refused(st, C.Move((F12,), ability="ruthless"), match="Ruthless.*closer to a Down or Dazed opponent")
        # The first step is fine, the second goes sideways: the whole command is refused.
        refused(st, C.Move((H12, H12.neighbour(Direction.NE)), ability="ruthless"), match="closer")

    def test_only_toward_a_fallen_opponent(self):
        st = mover("ruthless", P("e1", "gnolls/strikers", "K12", "W"))
        refused(st, C.Move((H12,), ability="ruthless"), match="no opponent is Down or Dazed")

    def test_not_when_he_must_disengage(self):
        st = self.start(P("e2", "gnolls/strikers", "F12", "E"))  # faces G12
        refused(st, C.Move((H12,), ability="ruthless"), match="Disengage")

    def test_the_counters_must_be_his_teams(self):
        refused(self.start(momentum=(1, "west")), C.Move((H12, I12), ability="ruthless"), match="2 Momentum")
        refused(self.start(momentum=(3, "east")), C.Move((H12,), ability="ruthless"), match="west has 0")

    def test_he_needs_the_ability(self):
        st = mover("teammate", P("e1", "gnolls/strikers", "K12", "W", status="down"))
        refused(st, C.Move((H12,), ability="ruthless"), match="does not have Ruthless")

    def test_an_unknown_ability_is_malformed(self):
        from engine.errors import MalformedInputError

        with pytest.raises(MalformedInputError):
            apply(self.start(), C.Move((H12,), ability="agile"), ScriptedDice(), by="west")

    def test_mixed_with_jog_moves(self):
        st = self.start()
        st = act(st, C.Move((H12,), ability="ruthless")).state
        st = act(st, C.Move((H12.neighbour(Direction.SE),))).state
        assert st.action.jog_left == 5 and st.momentum == 2

    def test_even_after_his_free_last_challenge(self):
        st = self.start(jog=0, free_challenge_used=True)
        refused(st, C.Move((H12,)), match="normal action is over")
        assert act(st, C.Move((H12,), ability="ruthless")).state.players["w1"].hex == H12

    def test_not_after_a_long_throw_nor_while_a_dash_hex_is_pending(self):
        refused(self.start(long_throw=True), C.Move((H12,), ability="ruthless"), match="7 or more")
        refused(self.start(dash="granted"), C.Move((H12,), ability="ruthless"), match="Dash")

    def test_into_the_ball_hex_he_must_pick_up(self):
        st = self.start(ball="I12")
        res = act(st, C.Move((H12, I12), ability="ruthless"), faces="O - -", answers=[[]])
        assert res.state.ball.carrier == "w1" and rolls(res, "pickup")
        assert res.state.action.jog_left == st.action.jog_left - 1  # the Pick-up costs its pace
        refused(st, C.Move((H12, I12, J12), ability="ruthless"), match="end the path there")

    def test_the_referee_still_watches(self):
        st = position(
            P("w1", "gnolls/midfielders", "C12", "W", abilities=("ruthless",)),
            P("e1", "gnolls/strikers", "A13", "E", status="down", location="field"), FAR_EAST,
            ball=FAR, acting="w1", momentum=(2, "west"),
        )
        res = act(st, C.Move((hx("B12"),), ability="ruthless"))
        assert res.state.players["w1"].location is Location.SENT_OFF
        assert res.state.turn_side == "east"  # his action ended when he left the field


class TestGoalieBeelineTeammate:
    def test_goalie_toward_his_own_goal(self):
        """"move closer to the goal circle his team is defending" (p. 13): west defends B12."""
        st = mover("goalie")
        assert act(st, C.Move((F12,), ability="goalie")).state.players["w1"].hex == F12
        refused(st, C.Move((H12,), ability="goalie"), match="Goalie.*goal circle his team defends")

    def test_beeline_toward_the_opposing_carrier(self):
        """"move closer to the opposing ball carrier" (p. 13)."""
        st = mover("beeline", P("e1", "gnolls/strikers", "K12", "W", ball=True), ball=None)
        assert act(st, C.Move((H12, I12), ability="beeline")).state.players["w1"].hex == I12
        refused(st, C.Move((F12,), ability="beeline"), match="opposing ball carrier")

    def test_beeline_needs_an_opposing_carrier(self):
        st = mover("beeline", P("e1", "gnolls/strikers", "K12", "W"), P("w2", "gnolls/strikers", "K14", "W", ball=True),
                   ball=None)
        refused(st, C.Move((H12,), ability="beeline"), match="no opponent holds the ball")

    def test_teammate_toward_another_player_of_his_team(self):
        """"move closer to another player from his team" (p. 13)."""
        st = mover("teammate", P("w2", "gnolls/strikers", "K12", "W", status="down"))
        assert act(st, C.Move((H12,), ability="teammate")).state.players["w1"].hex == H12
        refused(st, C.Move((F12,), ability="teammate"), match="Teammate.*another player of his team")


class TestBurstAndShamble:
    def test_burst_any_way_once_he_gained_the_ball(self):
        """"When a player with Burst gets possession of the ball from a Pick-up challenge or use
        of the Steal ability he may spend Momentum counters instead of Jog to move." (p. 14)"""
        st = mover("burst", burst=True)
        res = act(st, C.Move((F12, F12.neighbour(Direction.W)), ability="burst"))
        assert res.state.players["w1"].hex == hx("E12") and res.state.momentum == 1

    def test_burst_needs_the_pick_up_or_steal_first(self):
        refused(mover("burst"), C.Move((H12,), ability="burst"), match="Pick-up or a Steal")

    def test_burst_still_not_through_a_disengage(self):
        st = mover("burst", P("e2", "gnolls/strikers", "F12", "E"), burst=True)
        refused(st, C.Move((H12,), ability="burst"), match="Disengage")

    def test_shamble_two_counters_a_hex_ignoring_disengage(self):
        """"Each two counters spent allow this player to move one hex ignoring any Disengage
        challenge that would be required." (p. 14)"""
        st = mover("shamble", P("e2", "gnolls/strikers", "F12", "E"), momentum=(4, "west"))
        res = act(st, C.Move((H12, I12), ability="shamble"))
        assert res.state.players["w1"].hex == I12 and not rolls(res, "disengage")
        assert spent(res) == [2, 2] and res.state.momentum == 0

    def test_shamble_needs_two_counters_a_hex(self):
        refused(mover("shamble", momentum=(3, "west")), C.Move((H12, I12), ability="shamble"), match="cost 4")


class TestSwarm:
    """"During this player's action any standing player on his team with the Little Guy type may
    spend Momentum counters instead of Jog to move closer to any player from his team with an
    equal or lesser Might ... Multiple players may be moved" (p. 13); lesser than the moving
    Little Guy's Might (G40)."""

    def start(self, *extra: P, swarm=True, momentum=(4, "west")):
        return position(
            P("w1", "night-elves/imps", "G12", "E", abilities=("swarm",) if swarm else ()),
            P("w2", "night-elves/imps", "N12", "W"),  # Might 2
            P("w3", "gnolls/hunters", "Q12", "W"),  # Might 3
            FAR_EAST, *extra, ball=FAR, acting="w1", momentum=momentum,
        )

    def test_another_little_guy_moves_toward_a_lighter_team_mate(self):
        res = act(self.start(), C.Move((hx("M12"), hx("L12")), ability="swarm", player="w2"))
        st = res.state
        assert st.players["w2"].hex == hx("L12") and st.momentum == 2
        assert st.action.player == "w1" and st.action.jog_left == 7  # still w1's action, his Jog untouched
        (used,) = events(res, "ability_used")
        assert used["player"] == "w1" and used["target"] == "w2"
        assert all(e["jog_left"] is None for e in events(res, "player_moved"))

    def test_not_toward_a_heavier_team_mate(self):
        refused(self.start(), C.Move((hx("O12"),), ability="swarm", player="w2"), match="equal or lesser Might")

    def test_several_may_move_and_the_swarmer_himself(self):
        st = self.start(P("w4", "gnomes/gnomes", "K16", "W"))  # a Gnome: Might 3, may approach the Hunter
        st = act(st, C.Move((hx("M12"),), ability="swarm", player="w2")).state
        st = act(st, C.Move((hx("K15"),), ability="swarm", player="w4")).state
        st = act(st, C.Move((H12,), ability="swarm")).state
        assert st.players["w1"].hex == H12 and st.momentum == 1

    def test_only_little_guys(self):
        refused(self.start(), C.Move((hx("P12"),), ability="swarm", player="w3"), match="not a Little Guy")

    def test_only_during_the_action_of_a_player_with_swarm(self):
        refused(self.start(swarm=False), C.Move((hx("M12"),), ability="swarm", player="w2"), match="does not have Swarm")

    def test_others_may_not_enter_the_ball_hex(self):
        st = self.start()
        st.ball.hex = hx("M12")
        refused(st, C.Move((hx("M12"),), ability="swarm", player="w2"), match="ball's hex")

    def test_a_fallen_little_guy_does_not_move(self):
        st = self.start()
        st.players["w2"].status = Status.DOWN
        refused(st, C.Move((hx("M12"),), ability="swarm", player="w2"), match="not standing")


class TestLeadPass:
    """"This player may spend Momentum counters to allow a player from his team that successfully
    catches a ball he has thrown to immediately move after catching the ball ... The player with
    Lead Pass can finish his action after the catching player has finished moving." (p. 14)"""

    def thrown(self, lead_pass=True):
        st = position(
            P("w1", "gnolls/strikers", "G12", "E", ball=True, abilities=("lead-pass",) if lead_pass else ()),
            P("w2", "gnolls/strikers", "J12", "W"), FAR_EAST, acting="w1",
        )
        res = act(st, C.Throw(J12), faces="O O O -")  # a perfect spiral, +2 counters
        assert res.state.ball.carrier == "w2" and res.state.momentum == 2
        return res.state

    def test_the_catcher_moves_any_way_then_the_thrower_goes_on(self):
        st = self.thrown()
        assert st.action.lead_pass == "w2"
        res = act(st, C.Move((K12, K12.neighbour(Direction.NE)), ability="lead-pass", player="w2"))
        st = res.state
        assert st.players["w2"].hex == K12.neighbour(Direction.NE) and st.ball.carrier == "w2"
        assert st.momentum == 0 and st.action.player == "w1"
        (used,) = events(res, "ability_used")
        assert used["player"] == "w1" and used["ability"] == "lead-pass" and used["target"] == "w2"
        st = act(st, C.Move((H12,))).state  # the thrower finishes his action
        assert st.action.lead_pass is None

    def test_the_chance_ends_when_the_thrower_acts(self):
        st = act(self.thrown(), C.Face(Direction.NE)).state
        refused(st, C.Move((K12,), ability="lead-pass", player="w2"), match="just caught his throw")

    def test_not_without_the_ability(self):
        st = self.thrown(lead_pass=False)
        assert st.action.lead_pass is None
        refused(st, C.Move((K12,), ability="lead-pass", player="w2"), match="Lead Pass")

    def test_only_the_catcher(self):
        st = position(
            P("w1", "gnolls/strikers", "G12", "E", ball=True, abilities=("lead-pass",)),
            P("w2", "gnolls/strikers", "J12", "W"), P("w3", "gnolls/strikers", "J14", "W"), FAR_EAST, acting="w1",
        )
        st = act(st, C.Throw(J12), faces="O O O -").state
        refused(st, C.Move((hx("K14"),), ability="lead-pass", player="w3"), match="who caught the throw")

    def test_still_no_disengage(self):
        st = self.thrown()
        st.players["e9"].hex, st.players["e9"].facing = K12, Direction.W  # faces J12
        refused(st, C.Move((hx("J13"),), ability="lead-pass", player="w2"), match="Disengage")


class TestReact:
    """"this player may spend Momentum counters out of sequence when his team earns a Shift in
    Momentum ... This movement does not count as the team's action and a different player may
    take the team's action if desired." (p. 14)"""

    def start(self, **kw):
        return after_sim(P("w1", "gnolls/safeties", "G12", "E", abilities=("react",)),
                         P("w2", "gnolls/strikers", "G16", "E"), **kw)

    def test_moves_out_of_sequence_then_anybody_acts(self):
        st = self.start()
        res = act(st, C.Move((F12, F12.neighbour(Direction.W)), ability="react", player="w1"))
        st = res.state
        assert st.phase is Phase.TURN and st.turn_side == "west" and st.momentum == 1
        assert st.players["w1"].hex == hx("E12") and st.after_sim
        assert act(st, C.StartAction("w1")).state.action.player == "w1"
        assert act(st, C.StartAction("w2")).state.action.player == "w2"

    def test_only_after_the_other_teams_shift(self):
        st = self.start()
        st.after_sim = False
        refused(st, C.Move((F12,), ability="react", player="w1"), match="out of sequence")
        refused(st, C.Move((F12,)), match="no player is acting")

    def test_not_during_an_action(self):
        st = act(self.start(), C.StartAction("w2")).state
        refused(st, C.Move((F12,), ability="react", player="w1"), match="out of sequence")

    def test_not_without_react(self):
        refused(self.start(), C.Move((hx("F16"),), ability="react", player="w2"), match="does not have React")

    def test_not_onto_the_ball(self):
        refused(self.start(ball="F12"), C.Move((F12,), ability="react", player="w1"), match="ball's hex")

    def test_not_by_the_other_team(self):
        refused(self.start(), C.Move((F12,), ability="react", player="w1"), by="east", match="west's turn")


# --- Taunt ------------------------------------------------------------------------------------
class TestTaunt:
    """"This player may attempt to change the facing of an opponent within 6 hexes to be looking
    in his direction ... just like a Dash ... If you flop this challenge, you lose all Momentum
    counters ... instead of becoming Down. Not getting enough successes means the Taunt has no
    effect." (p. 13)"""

    def start(self, target_hex="K12", momentum=(3, "west")):
        return after_sim(P("w1", "night-elves/imps", "G12", "E", abilities=("taunt",)),
                         P("e1", "gnolls/strikers", target_hex, "E"), momentum=momentum)

    def test_success_turns_the_target_to_face_him(self):
        res = act(self.start(), C.Taunt("w1", "e1", 2), faces="O -", answers=[[]])
        st = res.state
        assert st.players["e1"].facing is Direction.W and st.momentum == 1
        (roll,) = rolls(res, "taunt")
        assert roll["attribute"] == "momentum" and need_of(roll) == 1
        assert events(res, "taunted") == [{"kind": "taunted", "player": "w1", "target": "e1", "facing": "W"}]
        assert st.phase is Phase.TURN and st.after_sim and not events(res, "momentum_gained")

    def test_failure_no_effect(self):
        res = act(self.start(), C.Taunt("w1", "e1", 3), faces="- - -")
        assert res.state.players["e1"].facing is Direction.E and res.state.momentum == 0
        assert events(res, "taunted")[0]["facing"] is None

    def test_flop_loses_every_counter_nobody_falls(self):
        res = act(self.start(momentum=(5, "west")), C.Taunt("w1", "e1", 1), faces="X")
        st = res.state
        assert st.momentum == 0 and st.players["w1"].standing and st.players["e1"].facing is Direction.E
        assert st.phase is Phase.TURN and st.turn_side == "west" and not events(res, "momentum_shifted")

    def test_the_counters_left_may_replace_its_dice(self):
        res = act(self.start(), C.Taunt("w1", "e1", 1), faces="- O", answers=[[0]])
        assert res.state.players["e1"].facing is Direction.W and res.state.momentum == 1

    def test_repeatable(self):
        st = self.start()
        st = act(st, C.Taunt("w1", "e1", 1), faces="O", answers=[[]]).state
        st.players["e1"].facing = Direction.E
        st = act(st, C.Taunt("w1", "e1", 1), faces="O", answers=[[]]).state
        assert st.players["e1"].facing is Direction.W and st.momentum == 1

    def test_exactly_between_two_sides_the_taunting_coach_chooses(self):
        """G41: on an exact tie the taunting coach decides."""
        target = Hex(0, 0)
        taunter = Hex(1, -2)  # straight north of the target: between NE and NW
        st = after_sim(P("w1", "night-elves/imps", F.format(taunter), "E", abilities=("taunt",)),
                       P("e1", "gnolls/strikers", F.format(target), "E"), momentum=(1, "west"))
        res = act(st, C.Taunt("w1", "e1", 1), faces="O", pending=True)
        q = res.state.in_progress.question
        assert q["kind"] == "taunt_facing" and q["side"] == "west" and sorted(q["options"]) == ["NE", "NW"]
        assert C.Answer("NW") in legal_commands(res.state, "west")
        res = apply(res.state, C.Answer("NW"), ScriptedDice(), by="west")
        assert res.state.players["e1"].facing is Direction.NW

    def test_range_six_hexes_no_line_of_sight(self):
        st = self.start(target_hex="M12")  # 6 hexes
        assert act(st, C.Taunt("w1", "e1", 3), faces="O - -").state.players["e1"].facing is Direction.W
        refused(self.start(target_hex="N12"), C.Taunt("w1", "e1", 1), match="more than 6 hexes")

    def test_refusals(self):
        st = self.start()
        refused(st, C.Taunt("w1", "e1", 4), match="1 to 3 Momentum")
        st2 = self.start()
        st2.after_sim = False
        refused(st2, C.Taunt("w1", "e1", 1), match="out of sequence")
        st3 = after_sim(P("w1", "night-elves/imps", "G12", "E"), P("e1", "gnolls/strikers", "K12", "E"))
        refused(st3, C.Taunt("w1", "e1", 1), match="does not have Taunt")
        st4 = self.start()
        st4.players["e1"].status = Status.DOWN
        refused(st4, C.Taunt("w1", "e1", 1), match="standing opponent")


# --- Quickling --------------------------------------------------------------------------------
class TestQuickling:
    """"If this player takes his action after a Shift in Momentum, he may double the current
    number of Momentum counters (this may occur before use of the Taunt ability)." (p. 13)"""

    def start(self, momentum=(2, "west")):
        return after_sim(P("w1", "night-elves/imps", "G12", "E", abilities=("quickling", "taunt")),
                         P("w2", "gnolls/strikers", "G16", "E"), P("e1", "gnolls/strikers", "K12", "E"),
                         momentum=momentum)

    def test_doubles_and_commits_him_to_the_action(self):
        res = act(self.start(), C.Quickling("w1"))
        st = res.state
        assert st.momentum == 4 and st.committed_actor == "w1"
        assert events(res, "ability_used")[0]["effect"] == "double_counters"
        assert pending(st).default[0] == C.StartAction("w1")
        refused(st, C.StartAction("w2"), match="w1|Imp")
        st = act(st, C.StartAction("w1")).state
        assert st.committed_actor is None and st.momentum == 4 and st.action.player == "w1"

    def test_the_track_holds_at_most_six(self):
        assert act(self.start(momentum=(4, "west")), C.Quickling("w1")).state.momentum == 6

    def test_taunt_may_follow(self):
        st = act(self.start(), C.Quickling("w1")).state
        st = act(st, C.Taunt("w1", "e1", 1), faces="O", answers=[[]]).state
        assert st.players["e1"].facing is Direction.W and st.momentum == 3

    def test_once_per_turn(self):
        st = act(self.start(), C.Quickling("w1")).state
        refused(st, C.Quickling("w1"), match="already")

    def test_only_after_the_other_teams_shift_and_only_if_he_can_act(self):
        st = self.start()
        st.after_sim = False
        refused(st, C.Quickling("w1"), match="out of sequence")
        st = self.start()
        st.last_moved["west"] = "w1"
        refused(st, C.Quickling("w1"), match="take the action")
        refused(self.start(momentum=(0, "west")), C.Quickling("w1"), match="no counters")
        st = after_sim(P("w1", "night-elves/imps", "G12", "E"), P("w2", "gnolls/strikers", "G16", "E"))
        refused(st, C.Quickling("w1"), match="does not have Quickling")


# --- Sprinter ---------------------------------------------------------------------------------
class TestSprinter:
    """"You may perform the Dash challenge as many times per action as you want without having or
    paying Momentum ... uses his Jog attribute to determine how many challenge dice ... (maximum
    of 6). The number of successes needed ... is equal to number of Dash challenges the player has
    attempted this action plus 1." (p. 12)"""

    def start(self, momentum=(0, None), **attrs):
        """An Imp (Jog 7) with no Jog left."""
        return position(
            P("w1", "night-elves/imps", "G12", "E", abilities=("sprinter",), attributes=attrs or None), FAR_EAST,
            ball=FAR, acting="w1", jog=0, momentum=momentum,
        )

    def test_jog_dice_and_rising_needs(self):
        res = act(self.start(), C.Dash(sprint=True), faces="O O - - - -")  # Jog 7: 6 dice
        (roll,) = rolls(res, "dash")
        assert len(roll["roll"]["dice"]) == 6 and roll["attribute"] == "jog" and need_of(roll) == 2
        assert events(res, "dash_granted") and res.state.action.sprints == 1
        st = act(res.state, C.Move((H12,))).state  # the Dash's hex
        res = act(st, C.Dash(sprint=True), faces="O O O - - -")
        assert need_of(rolls(res, "dash")[0]) == 3 and res.state.action.dash == "granted"
        assert res.state.momentum == 0  # no counters spent nor earned

    def test_dice_are_his_jog(self):
        res = act(self.start(jog=4), C.Dash(sprint=True), faces="O O - -")
        assert len(rolls(res, "dash")[0]["roll"]["dice"]) == 4

    def test_failure_down_and_a_shift(self):
        res = act(self.start(), C.Dash(sprint=True), faces="O - - - - -")
        assert res.state.players["w1"].status is Status.DOWN and res.state.turn_side == "east"

    def test_flop_dazed(self):
        res = act(self.start(), C.Dash(sprint=True), faces="X X - - - -")
        assert res.state.players["w1"].status is Status.DAZED and res.state.turn_side == "east"

    def test_not_while_the_last_dash_is_unused(self):
        st = act(self.start(), C.Dash(sprint=True), faces="O O - - - -").state
        refused(st, C.Dash(sprint=True), match="last Dash")

    def test_he_may_also_make_one_momentum_dash(self):
        """G46."""
        st = act(self.start(momentum=(2, "west")), C.Dash(sprint=True), faces="O O - - - -", answers=[[]]).state
        st = act(st, C.Move((H12,))).state
        st = act(st, C.Dash(1), faces="O", answers=[[]]).state
        assert st.action.dash == "granted" and st.momentum == 1
        st = act(st, C.Move((I12,))).state
        refused(st, C.Dash(1), match="one Dash per action")
        act(st, C.Dash(sprint=True), faces="O O O - - -", answers=[[]])

    def test_not_without_the_ability_nor_with_counters(self):
        st = position(P("w1", "night-elves/imps", "G12", "E"), FAR_EAST, ball=FAR, acting="w1", jog=0)
        refused(st, C.Dash(sprint=True), match="does not have Sprinter")
        refused(self.start(momentum=(2, "west")), C.Dash(2, sprint=True), match="spends no Momentum")

    def test_an_ordinary_player_still_dashes_once(self):
        st = position(P("w1", "night-elves/imps", "G12", "E"), FAR_EAST, ball=FAR, acting="w1", jog=0,
                      momentum=(3, "west"))
        st = act(st, C.Dash(1), faces="O", answers=[[]]).state
        st = act(st, C.Move((H12,))).state
        refused(st, C.Dash(1), match="one Dash per action")


# --- legal commands ---------------------------------------------------------------------------
class TestLegal:
    def test_ability_moves_are_listed_one_hex_at_a_time(self):
        st = mover("ruthless", P("e1", "gnolls/strikers", "K12", "W", status="down"))
        legal = legal_commands(st, "west")
        assert C.Move((H12,), ability="ruthless") in list(legal)
        assert C.Move((F12,), ability="ruthless") not in list(legal)

    def test_swarm_and_lead_pass_movers(self):
        st = TestSwarm().start()
        assert C.Move((hx("M12"),), ability="swarm", player="w2") in list(legal_commands(st, "west"))
        st = TestLeadPass().thrown()
        assert C.Move((K12,), ability="lead-pass", player="w2") in list(legal_commands(st, "west"))

    def test_out_of_sequence_commands(self):
        st = TestQuickling().start()
        legal = list(legal_commands(st, "west"))
        assert C.Quickling("w1") in legal and C.Taunt("w1", "e1", 2) in legal
        assert C.Taunt("w1", "e1", 3) not in legal
        st = TestReact().start()
        assert C.Move((F12,), ability="react", player="w1") in list(legal_commands(st, "west"))
        st.after_sim = False
        assert not [c for c in legal_commands(st, "west") if isinstance(c, C.Move)]

    def test_sprint_dash(self):
        st = TestSprinter().start()
        assert C.Dash(sprint=True) in list(legal_commands(st, "west"))

    def test_commands_round_trip(self):
        for cmd in (C.Move((H12,), ability="swarm", player="w2"), C.Taunt("w1", "e1", 2), C.Quickling("w1"),
                    C.Dash(sprint=True)):
            assert C.command_from_dict(cmd.to_dict()) == cmd


def test_facing_helper_sanity():
    assert direction_between(F12, G12) is Direction.E
