"""The Hired Gun Wizard (p. 19), with scripted dice.

"The Hired Gun Wizard never sets a foot on the playing field, has a Skill attribute of 5, and
can be called upon to cast one of three spells ... Use of a Wizard is done instead of taking an
action with a player for this turn. A Wizard can earn and use Momentum." One spell per match.
"""

from __future__ import annotations

import pytest
from support.builders import P, events, hx, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.legal import legal_commands
from engine.state import Location, Phase, Status

WIZARD = {"west": {"wizard": 1}}
BENCH = (P("w5", "gnolls/hunters"), P("w6", "gnolls/hunters"), P("w7", "gnolls/hunters"))


def turn(*players: P, support=WIZARD, momentum=(0, None), **kw):
    """West's turn; w1 a Hunter at G12, e1 a Midfielder (Might 3) at H12 unless given."""
    base = players or (P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W"))
    return position(*base, *BENCH, turn="west", support=support, momentum=momentum, ball="Q7", **kw)


class TestCasting:
    def test_the_spell_is_the_turn_and_the_wizard_is_spent(self):
        st = turn()
        st.last_moved["west"] = "w1"
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="O - - - -")
        assert (res.state.turn_side, res.state.phase) == ("east", Phase.TURN)
        assert res.state.last_moved["west"] == "w1"
        assert res.state.teams["west"].available("wizard") == 0
        assert events(res, "spell_cast") == [
            {"kind": "spell_cast", "side": "west", "spell": "system_shock", "target": "e1", "hex": None}
        ]
        refused(res.state, C.CastSpell("system_shock", target="e1"), by="east", match="no Hired Gun Wizard")

    def test_one_spell_per_match(self):
        st = turn()
        st.teams["west"].used["wizard"] = 1
        refused(st, C.CastSpell("inferno", hex=hx("H12")), match="one spell")

    def test_a_team_without_a_wizard(self):
        refused(turn(support=None), C.CastSpell("inferno", hex=hx("H12")), match="no Hired Gun Wizard")

    def test_only_on_his_teams_turn(self):
        refused(turn(), C.CastSpell("inferno", hex=hx("H12")), by="east", match="turn")

    def test_not_during_an_action(self):
        st = position(P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W"), acting="w1", support=WIZARD)
        refused(st, C.CastSpell("system_shock", target="e1"), match="not possible now")

    def test_the_other_teams_counters_go_as_at_the_start_of_an_action(self):
        res = act(turn(momentum=(3, "east")), C.CastSpell("system_shock", target="e1"), faces="O - - - -")
        assert events(res, "momentum_reset")[0]["side"] == "east"

    def test_he_uses_his_teams_counters(self):
        st = turn(momentum=(2, "west"))
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="O - - - -", pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["player"]) == ("reroll", "west", "wizard:west")
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="O - - - - O", answers=[[1], []])
        assert res.state.players["e1"].status is Status.DOWN

    def test_he_earns_counters(self):
        res = act(turn(), C.CastSpell("system_shock", target="e1"), faces="O O O - -")
        assert events(res, "momentum_gained")[0] == {
            "kind": "momentum_gained", "side": "west", "amount": 1, "total": 1, "source": "system_shock"
        }

    def test_legal_commands_offer_the_spells(self):
        legal = legal_commands(turn(), "west")
        assert C.CastSpell("system_shock", target="e1") in legal.of(C.CastSpell)
        assert C.CastSpell("transformation", target="w1") in legal.of(C.CastSpell)
        assert C.CastSpell("inferno", hex=hx("H12")) in legal.of(C.CastSpell)
        assert C.CastSpell("system_shock", target="w1") not in legal.of(C.CastSpell)


class TestSystemShock:
    """Skill 5 against the opponent's Might - 1 (+2 if he holds the ball). Exactly: Down. +1:
    Dazed. +2 or more: Injury. Fewer: no effect. Flop: a random Bench player to Recovery, SiM."""

    @pytest.mark.parametrize("faces, status", [("O O - - -", Status.DOWN), ("O O O - -", Status.DAZED)])
    def test_down_or_dazed(self, faces, status):
        res = act(turn(), C.CastSpell("system_shock", target="e1"), faces=faces)
        assert res.state.players["e1"].status is status
        assert rolls(res, "system_shock")[0]["player"] == "wizard:west"

    def test_two_more_is_an_injury(self):
        # The two extra successes earn 2 counters, which west may spend on his Injury roll.
        res = act(turn(), C.CastSpell("system_shock", target="e1"), faces="O O O O - " + "O O -", answers=[[]])
        assert rolls(res, "injury") and res.state.players["e1"].location is Location.RECOVERY

    def test_fewer_is_no_effect(self):
        res = act(turn(), C.CastSpell("system_shock", target="e1"), faces="O - - - -")
        assert res.state.players["e1"].status is Status.STANDING

    def test_the_ball_grounds_him(self):
        st = turn(P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W", ball=True))
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="O O - - -")
        assert rolls(res, "system_shock")[0]["roll"]["need"] == {"base": 2, "modifiers": [{"label": "holding the elfball", "value": 2}]}
        assert res.state.players["e1"].status is Status.STANDING

    @pytest.mark.parametrize("d6, victim", [("2", "w6"), ("6", "w7"), ("1", "w5")])
    def test_a_flop_backfires_into_the_bench_and_shifts(self, d6, victim):
        res = act(turn(momentum=(2, "west")), C.CastSpell("system_shock", target="e1"), faces="X X - - -", d6=d6)
        assert res.state.players[victim].location is Location.RECOVERY
        assert [p.id for p in res.state.players.values() if p.location is Location.RECOVERY] == [victim]
        assert events(res, "momentum_shifted")[0]["to_side"] == "east"
        assert res.state.momentum == 2 and res.state.after_sim

    def test_an_uneven_share_is_rolled_again(self):
        st = turn(P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W"), P("w8", "gnolls/hunters"))
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="X - - - -", d6="5 6 2")
        # Bench w8, w5, w6, w7: a 5 or a 6 is rolled again, a 2 picks the second.
        assert res.state.players["w5"].location is Location.RECOVERY

    def test_a_backfire_with_nobody_on_the_bench(self):
        st = position(P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W"), turn="west", support=WIZARD)
        res = act(st, C.CastSpell("system_shock", target="e1"), faces="X - - - -")
        assert res.state.turn_side == "east" and not events(res, "player_removed")

    def test_only_an_opponent_on_the_field(self):
        refused(turn(), C.CastSpell("system_shock", target="w1"), match="opponent")
        refused(turn(), C.CastSpell("system_shock", target="w5"), match="not on the field")


class TestInferno:
    """Every player in the hex and the 6 around it rolls Dodge needing 2. Flop: Injury. Fewer:
    Dazed. Exactly: Down. More: he avoids the flames. No casting roll, no Momentum."""

    def area(self):
        return turn(
            P("w1", "gnolls/hunters", "I12", "E"), P("w2", "gnolls/hunters", "G5", "E"),
            P("e1", "gnolls/midfielders", "H12", "W"), P("e2", "gnolls/midfielders", "K12", "W"),
        )

    def test_everybody_in_the_seven_hexes(self):
        # e1 (the centre, H12) then w1 (I12, its E neighbour); e2 at K12 is two hexes away.
        res = act(self.area(), C.CastSpell("inferno", hex=hx("H12")), faces="O O O  O O -")
        assert [r["player"] for r in rolls(res, "inferno")] == ["e1", "w1"]
        assert res.state.players["e1"].status is Status.STANDING
        assert res.state.players["w1"].status is Status.DOWN
        assert not events(res, "momentum_gained")

    def test_fewer_is_dazed_and_a_flop_an_injury_without_a_shift(self):
        res = act(self.area(), C.CastSpell("inferno", hex=hx("H12")), faces="O - -  X X -  O O -")
        assert res.state.players["e1"].status is Status.DAZED
        assert res.state.players["w1"].location is Location.RECOVERY
        assert not events(res, "momentum_shifted") and res.state.turn_side == "east"

    def test_an_empty_area_burns_nobody(self):
        res = act(self.area(), C.CastSpell("inferno", hex=hx("D18")))
        assert not rolls(res) and res.state.turn_side == "east"

    def test_the_hex_must_be_on_the_field(self):
        from engine.hexes import Hex

        refused(self.area(), C.CastSpell("inferno", hex=Hex(30, 30)), match="off the field")


class TestTransformation:
    """Skill 5, needs 2. Success: a giant frog (7/2/4/6/0/2) until the end of the Test; a carried
    ball bounces 1 pace. Flop: backfire and SiM. Fewer: no effect."""

    def frog(self, ball: bool = False):
        st = turn(P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "H12", "W", ball=ball, abilities=("agile",)))
        return act(st, C.CastSpell("transformation", target="e1"), faces="O O - - -", d6="2" if ball else "")

    def test_he_becomes_a_giant_frog(self):
        res = self.frog()
        e1 = res.state.players["e1"]
        assert (e1.jog, e1.might, e1.tackle, e1.dodge, e1.skill, e1.grit) == (7, 2, 4, 6, 0, 2)
        assert e1.type == "monster" and e1.abilities == ()
        assert e1.frog == {"type": "midfielder", "attributes": [6, 3, 3, 3, 3, 3], "abilities": ["agile"], "potion_abilities": []}
        assert events(res, "player_transformed") == [{"kind": "player_transformed", "player": "e1", "into": "giant_frog"}]

    def test_a_carried_ball_bounces_from_him(self):
        res = self.frog(ball=True)
        assert res.state.ball.carrier is None and res.state.ball.hex == hx("I12")

    def test_he_is_himself_again_at_the_next_test(self):
        st = self.frog().state
        st.phase = Phase.TEST_OVER
        res = act(st, C.StartTest(), by="east")
        e1 = res.state.players["e1"]
        assert (e1.jog, e1.might, e1.type, e1.abilities, e1.frog) == (6, 3, "midfielder", ("agile",), None)
        assert events(res, "player_transformed")[0]["into"] == "himself"

    def test_and_at_the_end_of_the_match(self):
        res = act(self.frog().state, C.Concede(), by="east")
        assert res.state.players["e1"].frog is None and res.state.players["e1"].might == 3

    def test_a_team_mate_may_be_the_frog(self):
        res = act(turn(), C.CastSpell("transformation", target="w1"), faces="O O - - -")
        assert res.state.players["w1"].frog is not None

    def test_fewer_is_no_effect_and_a_flop_backfires(self):
        assert act(turn(), C.CastSpell("transformation", target="e1"), faces="O - - - -").state.players["e1"].frog is None
        res = act(turn(), C.CastSpell("transformation", target="e1"), faces="X - - - -", d6="1")
        assert res.state.players["w5"].location is Location.RECOVERY and events(res, "momentum_shifted")

    def test_not_a_frog_twice(self):
        st = self.frog().state
        st.turn_side = "west"
        st.teams["west"].used.clear()
        refused(st, C.CastSpell("transformation", target="e1"), match="already a giant frog")
