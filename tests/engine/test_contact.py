"""Impact, Tackle, Shove and Injury (rulebook pp. 7-8), with scripted dice.

"A standing player may roll a Impact/Tackle challenge against a standing adjacent opponent that
he is facing once per action. First you must compare the Might of your player with the player you
are tackling. If your player's Might is lower than your opponent's Might you must roll an Impact
challenge first to see if you hit with enough force to make a Tackle challenge."

Impact, Tackle and Shove modifiers: "Each adjacent standing team-mate forward facing your
opponent: -1. Each adjacent standing opponent forward facing your player other than the opponent
being tackled: +1. Tackling an opponent from his rear facing: -1", and for the Tackle only,
"Tackling an opponent not holding the ball: +1".
"""

from __future__ import annotations

import pytest
from support.builders import P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.hexes import Direction, direction_between
from engine.state import Location, Phase, Status

G12, H12, I12 = hx("G12"), hx("H12"), hx("I12")
FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")  # so east has somebody to act after a SiM


def contact(attacker: str = "gnolls/hunters", target: str = "gnolls/strikers", *extra: P, ball: bool = True,
            target_facing: str = "W", momentum=(0, None), jog: int | None = None):
    """West's ``w1`` at G12 facing E, acting; east's ``e1`` at H12 (with the ball by default)."""
    return position(
        P("w1", attacker, "G12", "E"), P("e1", target, "H12", target_facing, ball=ball), FAR_EAST, *extra,
        ball=None if ball else "Q7", acting="w1", momentum=momentum, jog=jog,
    )


def mods(roll: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in roll["roll"]["need"]["modifiers"]}


class TestTargets:
    def test_a_team_mate_is_not_a_target(self):
        st = contact("gnolls/hunters", "gnolls/strikers", P("w2", "gnolls/midfielders", "G11", "E"))
        refused(st, C.Tackle("w2"), match="team-mate")
        refused(st, C.Shove("w2"), match="team-mate")

    def test_only_an_adjacent_opponent(self):
        st = contact("gnolls/hunters", "gnolls/strikers", P("e2", "gnolls/midfielders", "I11", "W"))
        refused(st, C.Tackle("e2"), match="adjacent")
        refused(st, C.Shove("e2"), match="adjacent")

    @pytest.mark.parametrize("status", ["down", "dazed"])
    def test_only_a_standing_opponent(self, status):
        st = contact("gnolls/hunters", "gnolls/strikers", P("e2", "gnolls/midfielders", "G11", "W", status=status))
        refused(st, C.Tackle("e2"), match="standing opponent")
        refused(st, C.Shove("e2"), match="standing opponent")

    def test_he_turns_to_face_his_target(self):
        """The target must be one "that he is facing"; facing is chosen freely at the start of a
        challenge (FA2), so he turns toward his target first."""
        st = contact("gnolls/hunters", "gnolls/strikers", P("e2", "gnolls/midfielders", "F12", "W"))
        res = act(st, C.Shove("e2"), faces="- - -")
        assert res.state.players["w1"].facing is Direction.W


class TestImpact:
    """Impact: Might; needs the opponent's Might - 2. Flop: "Your player is Down. SiM." Fewer:
    "Tackle fails. You may not roll for the Tackle challenge and you must pay 1 additional pace
    to continue". Enough: "you may perform a Tackle challenge against him"."""

    # A Striker (Might 3, Tackle 2) against a Defender (Might 4, Dodge 2, no ball): Impact
    # needs 2; the Tackle then needs 2 - 2 + 1 (no ball) = 1.
    def start(self, **kw):
        return contact("gnolls/strikers", "desert-dogs/defender", ball=False, **kw)

    def test_equal_or_more_might_needs_no_impact(self):
        res = act(contact("gnolls/hunters", "gnolls/midfielders", ball=False), C.Tackle("e1"), faces="O O O -")
        assert not rolls(res, "impact") and rolls(res, "tackle")

    def test_success_then_the_tackle(self):
        res = act(self.start(), C.Tackle("e1"), faces="O O O  O O", answers=[[]])
        (imp,) = rolls(res, "impact")
        (tk,) = rolls(res, "tackle")
        assert need_of(imp) == 2 and imp["extra"] == 1
        assert need_of(tk) == 1 and tk["result"] == "Solid Hit"
        assert res.state.momentum == 1  # the Impact's extra success earns normally
        assert res.state.action.jog_left == 5  # the Impact is free, the Tackle costs 1

    def test_failure_no_tackle_and_a_surcharge(self):
        res = act(self.start(), C.Tackle("e1"), faces="O - -")
        assert not rolls(res, "tackle")
        a = res.state.action
        assert a.surcharge and a.jog_left == 6 and res.state.players["w1"].standing

    def test_flop_down_and_a_shift(self):
        res = act(self.start(), C.Tackle("e1"), faces="X - -")
        assert not rolls(res, "tackle")
        assert res.state.players["w1"].status is Status.DOWN
        assert res.state.turn_side == "east" and events(res, "momentum_shifted")

    def test_the_impact_uses_the_contact_modifiers(self):
        # A team-mate at H11 faces the Defender: -1; the Defender faces away (E): -1 from the
        # rear. The Impact needs 4 - 2 - 1 - 1 = 0, so 1; it has no +1 for the ball.
        helper = P("w2", "gnolls/midfielders", "H11", "SW")
        st = contact("gnolls/strikers", "desert-dogs/defender", helper, ball=False, target_facing="E")
        res = act(st, C.Tackle("e1"), faces="O - -  O -")
        (imp,) = rolls(res, "impact")
        assert mods(imp) == {"team-mate facing the target": -1, "from the rear": -1}
        assert need_of(imp) == 1


class TestTackleBands:
    """"Flop: Tackler is Down. SiM. Not getting the number of successes needed: Tackler is stiff
    armed ... Getting the number of successes needed: Slide Tackle. Both Tackler and Opponent are
    Down. ... one more ...: Solid Hit. Opponent is Down. ... two more ...: Punishing Hit. Opponent
    must roll an Injury challenge as if he had a Grit of 6. ... three more or greater ...:
    Crippling Hit. Opponent must roll an Injury challenge." A Hunter (Tackle 4) against a Striker
    (Dodge 4, Grit 2) holding the ball: needs 2."""

    def test_flop(self):
        res = act(contact(), C.Tackle("e1"), faces="X X O -")
        st = res.state
        assert st.players["w1"].status is Status.DOWN and st.players["e1"].standing
        assert st.ball.carrier == "e1" and st.turn_side == "east"

    def test_stiff_armed(self):
        st = act(contact(), C.Tackle("e1"), faces="O - - -").state
        assert st.players["w1"].standing and st.players["e1"].standing and st.ball.carrier == "e1"
        assert st.phase is Phase.ACTION

    def test_slide_tackle_both_down_and_the_ball_drops(self):
        res = act(contact(), C.Tackle("e1"), faces="O O - -", d6="2")
        st = res.state
        assert st.players["w1"].status is Status.DOWN and st.players["e1"].status is Status.DOWN
        assert st.ball.hex == I12 and st.phase is Phase.ACTION  # no SiM (play-by-play #1)

    def test_solid_hit(self):
        st = act(contact(), C.Tackle("e1"), faces="O O O -", d6="2").state
        assert st.players["w1"].standing and st.players["e1"].status is Status.DOWN
        assert st.ball.hex == I12

    def test_punishing_hit_injury_as_grit_6(self):
        res = act(contact(), C.Tackle("e1"), faces="O O O O  O O O O O -", d6="2")
        (inj,) = rolls(res, "injury")
        assert len(inj["roll"]["dice"]) == 6 and inj["attribute"] == "grit as 6"
        assert res.state.players["e1"].status is Status.DOWN

    def test_crippling_hit_injury_at_his_own_grit(self):
        res = act(contact(), C.Tackle("e1"), faces="* O O O O  O O", d6="2")
        (inj,) = rolls(res, "injury")
        assert len(inj["roll"]["dice"]) == 2 and inj["attribute"] == "grit"
        assert res.state.players["e1"].location is Location.RECOVERY

    def test_not_holding_the_ball_plus_one(self):
        res = act(contact(ball=False), C.Tackle("e1"), faces="O O - -")
        (tk,) = rolls(res, "tackle")
        assert mods(tk) == {"target not holding the ball": 1} and need_of(tk) == 3
        assert tk["result"] == "stiff-armed"


class TestInjury:
    """Basic Injury table: Flop, 0 or 1 success: out for the game (Infirmary); 2: unconscious,
    Recovery; 3: Bench for the rest of the Test; 4: Dazed; 5 or more: Down. Rolled here from a
    Punishing Hit (6 dice). The ball he held scatters from his hex either way (C4)."""

    @pytest.mark.parametrize(
        ("dice", "where"),
        [
            ("X X - - - -", Location.INFIRMARY),
            ("X O - - - -", Location.INFIRMARY),  # 0 net, not a flop
            ("O - - - - -", Location.INFIRMARY),
            ("O O - - - -", Location.RECOVERY),
            ("O O O - - -", Location.SENT_OFF),
            ("O O O O - -", Status.DAZED),
            ("O O O O O -", Status.DOWN),
            ("O O O O O O", Status.DOWN),
        ],
    )
    def test_results(self, dice, where):
        res = act(contact(), C.Tackle("e1"), faces=f"O O O O  {dice}", d6="2")
        e1 = res.state.players["e1"]
        if isinstance(where, Location):
            assert e1.location is where and e1.hex is None
        else:
            assert e1.on_field and e1.status is where and e1.hex == H12
        # The carrier's ball leaves from his hex: D6 = 2 (E) to I12.
        (sc,) = events(res, "ball_scattered")
        assert sc["origin"] == list(H12) and res.state.ball.hex == I12
        assert res.state.phase is Phase.ACTION  # the tackler's action goes on

    def test_nobody_earns_momentum_from_an_injury(self):
        res = act(contact(), C.Tackle("e1"), faces="O O O O  O O O O O O", d6="2")
        assert res.state.momentum == 0


class TestShove:
    """"A standing player may attempt a Shove challenge against a standing opponent in an
    adjacent hex that he is facing to move the opponent one hex in a straight line if no other
    player is in that hex." Might; needs the opponent's Might - 2. Flop: "Your player is Down.
    SiM." Fewer: "The opponent is not moved." Enough: "move the opponent back one hex if
    possible"."""

    def start(self, *extra: P, **kw):
        return contact("gnolls/midfielders", "gnolls/midfielders", *extra, ball=False, **kw)

    def test_success_pushes_him_straight_back_keeping_his_facing(self):
        res = act(self.start(), C.Shove("e1"), faces="O - -")
        st = res.state
        assert st.players["e1"].hex == I12 and st.players["e1"].facing is Direction.W
        assert st.players["w1"].hex == G12  # the shover stays
        (sh,) = events(res, "player_shoved")
        assert sh["to"] == list(I12)

    @pytest.mark.parametrize(
        ("at", "target", "dest"), [("G11", "H12", "H13"), ("H13", "H12", "G11"), ("G13", "G12", "F11")]
    )
    def test_the_direction_continues_the_line(self, at, target, dest):
        d = direction_between(hx(at), hx(target))
        assert hx(target).neighbour(d) == hx(dest)
        st = position(
            P("w1", "gnolls/midfielders", at, "E"), P("e1", "gnolls/midfielders", target, "W"), FAR_EAST,
            ball="Q7", acting="w1",
        )
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].hex == hx(dest)

    def test_failure_moves_nobody(self):
        st = act(self.start(), C.Shove("e1"), faces="- - -").state
        assert st.players["e1"].hex == H12 and st.phase is Phase.ACTION

    def test_flop_down_and_a_shift(self):
        res = act(self.start(), C.Shove("e1"), faces="X - -")
        assert res.state.players["w1"].status is Status.DOWN and res.state.players["e1"].hex == H12
        assert res.state.turn_side == "east"

    def test_a_blocked_shove_moves_nobody_but_earns_momentum(self):
        """G38: "if possible" - the hex behind him is taken, so he stays; the extra successes
        still count."""
        st = self.start(P("e2", "gnolls/midfielders", "I12", "W"))
        res = act(st, C.Shove("e1"), faces="O O O")
        st = res.state
        assert st.players["e1"].hex == H12 and st.players["e2"].hex == I12
        (sh,) = events(res, "player_shoved")
        assert sh["to"] is None
        assert st.momentum == 2

    def test_blocked_by_a_team_mate_too(self):
        st = self.start(P("w2", "gnolls/midfielders", "I12", "W"))
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].hex == H12

    def test_into_a_goal_hex_the_referee(self):
        st = position(
            P("w1", "gnolls/midfielders", "R12", "E"), P("e1", "gnolls/midfielders", "S12", "W"), FAR_EAST,
            ball="Q7", acting="w1",
        )
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].location is Location.SENT_OFF

    def test_a_carrier_shoved_keeps_the_ball(self):
        st = contact("gnolls/midfielders", "gnolls/midfielders")
        st = act(st, C.Shove("e1"), faces="O - -").state
        assert st.players["e1"].hex == I12 and st.ball.carrier == "e1"

    def test_no_ball_modifier_on_a_shove(self):
        res = act(self.start(), C.Shove("e1"), faces="O - -")
        assert mods(rolls(res, "shove")[0]) == {}


class TestModifiers:
    """The contact modifiers, on a Shove against a Deadwood (Might 6: needs 4 before modifiers)."""

    def shove(self, *extra: P, target_facing: str = "W"):
        st = contact("gnolls/midfielders", "deadlings/deadwood", *extra, ball=False, target_facing=target_facing)
        res = act(st, C.Shove("e1"), faces="- - -")
        (sh,) = rolls(res, "shove")
        return sh

    def test_none(self):
        sh = self.shove()
        assert mods(sh) == {} and need_of(sh) == 4

    def test_from_the_rear(self):
        # Facing E, the Deadwood's rear hexes are W, NW and SW of him: G12 is W.
        sh = self.shove(target_facing="E")
        assert mods(sh) == {"from the rear": -1}
        sh = self.shove(target_facing="NE")  # front: NW, NE, E - G12 (W) is behind
        assert mods(sh) == {"from the rear": -1}
        sh = self.shove(target_facing="SW")  # front: SE, SW, W - G12 is in front
        assert mods(sh) == {}

    def test_team_mates_facing_the_target_help(self):
        """G37: "Each adjacent standing team-mate forward facing your opponent", not you."""
        sh = self.shove(P("w2", "gnolls/midfielders", "H11", "SW"), P("w3", "gnolls/midfielders", "H13", "NW"))
        assert mods(sh) == {"team-mates facing the target": -2} and need_of(sh) == 2

    def test_team_mates_facing_the_attacker_do_not(self):
        sh = self.shove(P("w2", "gnolls/midfielders", "F12", "E"))  # next to w1, facing w1
        assert mods(sh) == {}
        sh = self.shove(P("w2", "gnolls/midfielders", "H11", "NE"))  # next to the target, facing away
        assert mods(sh) == {}
        sh = self.shove(P("w2", "gnolls/midfielders", "H11", "SW", status="down"))  # Down
        assert mods(sh) == {}

    def test_other_opponents_facing_the_attacker_hinder(self):
        sh = self.shove(P("e2", "gnolls/midfielders", "G13", "NW"), P("e3", "gnolls/midfielders", "F11", "SE"))
        assert mods(sh) == {"other opponents facing": 2} and need_of(sh) == 6

    def test_opponents_not_facing_him_do_not(self):
        sh = self.shove(P("e2", "gnolls/midfielders", "G13", "SE"))  # adjacent, facing away
        assert mods(sh) == {}
        sh = self.shove(P("e2", "gnolls/midfielders", "F11", "SE", status="dazed"))
        assert mods(sh) == {}

    def test_the_target_himself_is_not_an_other_opponent(self):
        sh = self.shove(target_facing="W")  # he faces w1, and is not counted
        assert "other opponent facing" not in mods(sh)

    def test_all_together(self):
        sh = self.shove(
            P("w2", "gnolls/midfielders", "H11", "SW"), P("e2", "gnolls/midfielders", "G13", "NW"), target_facing="E",
        )
        assert mods(sh) == {"team-mate facing the target": -1, "other opponent facing": 1, "from the rear": -1}
        assert need_of(sh) == 3

    def test_the_same_modifiers_on_a_tackle_plus_the_ball(self):
        st = contact(
            "gnolls/hunters", "gnolls/strikers", P("w2", "gnolls/midfielders", "H11", "SW"),
            P("e2", "gnolls/midfielders", "G13", "NW"), ball=False, target_facing="E",
        )
        res = act(st, C.Tackle("e1"), faces="- - - -")
        (tk,) = rolls(res, "tackle")
        assert mods(tk) == {
            "team-mate facing the target": -1, "other opponent facing": 1, "target not holding the ball": 1,
            "from the rear": -1,
        }
        assert need_of(tk) == 4 - 2 - 1 + 1 + 1 - 1
