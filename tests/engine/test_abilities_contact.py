"""The contact abilities of the Advanced Rules (pp. 12-14), with scripted dice.

Tackle variants through ``Tackle(target, use=...)``: Cheapshot, Cutblock, Pummel, Steal. By
themselves: Psycho, Fear, Clipping, Bonecrusher, Collision, Knockback, Malicious, Enrage,
Plough. Every ability shows its effect and a case where it does not apply.
"""

from __future__ import annotations

import random

import pytest
from support.builders import F, P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from ai import AICoach
from engine.dice import SeededDice
from engine.fuzz import RandomCoach, invariant_violations
from engine.legal import legal_commands
from engine.match import PlayerEntry, TeamEntry, apply, new_match, pending
from engine.narrate import describe, describe_question
from engine.preview import contact_previews
from engine.rosters import all_team_lists, default_roster
from engine.state import Location, Phase, Status

FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")  # so east has somebody to act after a SiM
HUNTER = "gnolls/hunters"  # J6 M3 T4 D3 S2 G3
STRIKER = "gnolls/strikers"  # J6 M3 T2 D4 S4 G2
DEFENDER = "desert-dogs/defender"  # J5 M4 T4 D2 S2 G4
OGRE = "middle-kingdoms/ogres-cyclops-minotaurs"  # J5 M5 T4 D2 S1 G4


def contact(attacker: str = HUNTER, target: str = STRIKER, *extra: P, mine: tuple = (), theirs: tuple = (),
            ball: bool = True, status: str = "standing", target_facing: str = "W", momentum=(0, None),
            jog: int | None = None, **flags):
    """West's ``w1`` at G12 facing E, acting, with abilities ``mine``; east's ``e1`` at H12
    (abilities ``theirs``, with the ball by default)."""
    return position(
        P("w1", attacker, "G12", "E", abilities=mine),
        P("e1", target, "H12", target_facing, status=status, ball=ball, abilities=theirs),
        FAR_EAST, *extra, ball=None if ball else "Q7", acting="w1", momentum=momentum, jog=jog, **flags,
    )


def mods(roll: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in roll["roll"]["need"]["modifiers"]}


def used(res, ability: str) -> list[str]:
    return [e["effect"] for e in events(res, "ability_used") if e["ability"] == ability]


def rule_of(state, command) -> str:
    return refused(state, command).rule


class TestCheapshot:
    """A Down or Dazed target; no Impact; no rear or ball modifiers; Slide Tackle has no effect;
    a Dazed target hit by a Solid Hit is Down."""

    def test_a_tackle_on_a_down_player_is_a_cheapshot_with_no_impact(self):
        # The Defender (Might 4) would need an Impact; lying face-up, turned away (E), no ball:
        # no Impact, and neither the rear -1 nor the no-ball +1. Needs 2 - 2 = 0, so 1.
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), status="down", target_facing="E", ball=False)
        res = act(st, C.Tackle("e1"), faces="O O - -")
        assert not rolls(res, "impact")
        (tk,) = rolls(res, "tackle")
        assert mods(tk) == {} and need_of(tk) == 1 and tk["result"] == "Solid Hit"
        assert used(res, "cheapshot") == ["cheapshot"]
        assert res.state.players["e1"].status is Status.DOWN and res.state.action.impact_tackle_used

    def test_the_use_may_be_named(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), status="down", ball=False)
        res = act(st, C.Tackle("e1", use="cheapshot"), faces="- - - -")
        assert rolls(res, "tackle")[0]["result"] == "stiff-armed"

    def test_a_dazed_player_is_snapped_out_of_his_daze(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), status="dazed", ball=False)
        res = act(st, C.Tackle("e1"), faces="O O - -")
        assert res.state.players["e1"].status is Status.DOWN
        assert used(res, "cheapshot") == ["cheapshot", "snapped_out_of_daze"]

    def test_a_slide_tackle_has_no_effect(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), status="dazed", ball=False)
        res = act(st, C.Tackle("e1"), faces="O - - -")
        assert rolls(res, "tackle")[0]["result"] == "no effect"
        assert res.state.players["w1"].standing and res.state.players["e1"].status is Status.DAZED

    def test_a_punishing_hit_injures_as_usual(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), status="down", ball=False)
        res = act(st, C.Tackle("e1"), faces="O O O -  O O O O O -")
        (inj,) = rolls(res, "injury")
        assert len(inj["roll"]["dice"]) == 6 and inj["result"] == "shakes it off: Down"

    def test_without_the_ability_only_a_standing_opponent(self):
        st = contact(HUNTER, DEFENDER, status="down", ball=False)
        refused(st, C.Tackle("e1"), match="standing opponent")
        assert rule_of(st, C.Tackle("e1", use="cheapshot")) == "Cheapshot (p. 13)"

    def test_not_against_a_standing_opponent(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), ball=False)
        refused(st, C.Tackle("e1", use="cheapshot"), match="Down or Dazed")
        assert rule_of(st, C.Tackle("e1", use="cheapshot")) == "Cheapshot (p. 13)"

    def test_another_use_on_a_player_on_the_ground_is_refused(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot", "pummel"), status="down", ball=False)
        refused(st, C.Tackle("e1", use="pummel"), match="only be a Cheapshot")

    def test_still_the_one_tackle_of_the_action(self):
        st = contact(HUNTER, DEFENDER, P("e2", STRIKER, "G11", "W", status="down"), mine=("cheapshot",), ball=False)
        res = act(st, C.Tackle("e1"), faces="- - -")  # the Impact on the stronger Defender fails
        refused(res.state, C.Tackle("e2"), match="once per action")

    def test_it_ignores_fear(self):
        st = contact(HUNTER, DEFENDER, mine=("cheapshot",), theirs=("fear",), status="down", ball=False)
        res = act(st, C.Tackle("e1"), faces="- - - -")
        assert not rolls(res, "impact") and not used(res, "fear")


class TestCutblock:
    """After moving, against more Might: no Impact; Down afterwards whatever the result."""

    def test_no_impact_and_down_afterwards(self):
        st = contact(HUNTER, DEFENDER, mine=("cutblock",), ball=False, moved=True)
        res = act(st, C.Tackle("e1", use="cutblock"), faces="O O - -")  # needs 1: Solid Hit
        assert not rolls(res, "impact") and rolls(res, "tackle")[0]["result"] == "Solid Hit"
        assert res.state.players["e1"].status is Status.DOWN
        assert res.state.players["w1"].status is Status.DOWN
        assert used(res, "cutblock") == ["cutblock"]

    def test_down_even_when_stiff_armed(self):
        st = contact(HUNTER, DEFENDER, mine=("cutblock",), ball=False, moved=True)
        res = act(st, C.Tackle("e1", use="cutblock"), faces="- - - -")
        assert res.state.players["e1"].standing and res.state.players["w1"].status is Status.DOWN
        assert res.state.turn_side == "west"  # no SiM: his action goes on

    def test_a_carrier_drops_the_ball(self):
        st = position(
            P("w1", HUNTER, "G12", "E", ball=True, abilities=("cutblock",)), P("e1", DEFENDER, "H12", "W"), FAR_EAST,
            acting="w1", moved=True,
        )
        res = act(st, C.Tackle("e1", use="cutblock"), faces="- - - -", d6="4")
        assert events(res, "ball_dropped")[0]["player"] == "w1" and res.state.ball.carrier is None

    def test_only_after_moving(self):
        st = contact(HUNTER, DEFENDER, mine=("cutblock",), ball=False)
        refused(st, C.Tackle("e1", use="cutblock"), match="moved at least one hex")
        assert rule_of(st, C.Tackle("e1", use="cutblock")) == "Cutblock (p. 13)"

    def test_only_against_more_might(self):
        st = contact(HUNTER, STRIKER, mine=("cutblock",), moved=True)
        refused(st, C.Tackle("e1", use="cutblock"), match="more Might")

    def test_only_with_the_ability(self):
        st = contact(HUNTER, DEFENDER, ball=False, moved=True)
        refused(st, C.Tackle("e1", use="cutblock"), match="does not have Cutblock")

    def test_fear_demands_an_impact_that_earns_nothing(self):
        st = contact(HUNTER, DEFENDER, mine=("cutblock",), theirs=("fear",), ball=False, moved=True)
        res = act(st, C.Tackle("e1", use="cutblock"), faces="O O O  - - - -")  # Impact needs 2: +1
        (imp,) = rolls(res, "impact")
        assert imp["extra"] == 1 and res.state.momentum == 0
        assert used(res, "fear") == ["impact_first"]
        assert res.state.players["w1"].status is Status.DOWN

    def test_a_fear_impact_that_fails_stops_the_cutblock_before_it_is_used(self):
        st = contact(HUNTER, DEFENDER, mine=("cutblock",), theirs=("fear",), ball=False, moved=True)
        res = act(st, C.Tackle("e1", use="cutblock"), faces="O - -")
        assert not rolls(res, "tackle") and res.state.players["w1"].standing and res.state.action.surcharge


class TestPummel:
    """Half his Might as the Tackle dice, a Might roll; the halved Might decides the Impact;
    +1 success unless flopped or at 0."""

    def test_half_might_an_impact_and_one_more_success(self):
        # An Ogre (Might 5) pummels a Striker (Might 3, Dodge 4, with the ball): 2 < 3, so the
        # full-Might Impact (5 dice, needs 1) first; the Tackle (2 dice) needs 2.
        st = contact(OGRE, STRIKER, mine=("pummel",))
        res = act(st, C.Tackle("e1", use="pummel"), faces="O - - - -  O -", d6="2")
        (imp,) = rolls(res, "impact")
        assert len(imp["roll"]["dice"]) == 5
        (tk,) = rolls(res, "tackle")
        assert tk["attribute"] == "might" and len(tk["roll"]["dice"]) == 2
        assert tk["roll"]["bonus"] == 1 and tk["net"] == 2 and tk["result"] == "Slide Tackle"
        assert used(res, "pummel") == ["pummel", "plus_one_success"]

    def test_no_bonus_at_zero(self):
        res = act(contact(OGRE, STRIKER, mine=("pummel",)), C.Tackle("e1", use="pummel"), faces="O - - - -  - -")
        (tk,) = rolls(res, "tackle")
        assert "bonus" not in tk["roll"] and tk["result"] == "stiff-armed"

    def test_no_bonus_on_a_flop(self):
        res = act(contact(OGRE, STRIKER, mine=("pummel",)), C.Tackle("e1", use="pummel"), faces="O - - - -  X -")
        (tk,) = rolls(res, "tackle")
        assert "bonus" not in tk["roll"] and res.state.players["w1"].status is Status.DOWN

    def test_no_impact_when_half_might_is_enough(self):
        st = contact("siringit/tantor", STRIKER, mine=("pummel",))  # Might 6: 3 dice, 3 >= 3
        res = act(st, C.Tackle("e1", use="pummel"), faces="O O -", d6="2")
        assert not rolls(res, "impact") and rolls(res, "tackle")[0]["extra"] == 1

    def test_an_ordinary_tackle_by_a_pummeller(self):
        res = act(contact(OGRE, STRIKER, mine=("pummel",)), C.Tackle("e1"), faces="O O - -", d6="2")
        (tk,) = rolls(res, "tackle")
        assert tk["attribute"] == "tackle" and "bonus" not in tk["roll"] and not rolls(res, "impact")

    def test_only_with_the_ability(self):
        assert rule_of(contact(OGRE, STRIKER), C.Tackle("e1", use="pummel")) == "Pummel (p. 13)"


class TestSteal:
    """No Impact; exactly N: Strip (the ball scatters); N+1 or more: he takes the ball."""

    def start(self, **kw):
        # A Striker (Might 3, Tackle 2) against a Defender (Might 4, Dodge 2) holding the ball:
        # needs 2 - 2 = 0, so 1, and no Impact although the Defender is stronger.
        return contact(STRIKER, DEFENDER, mine=("steal",), **kw)

    def test_steal(self):
        res = act(self.start(), C.Tackle("e1", use="steal"), faces="O O")
        assert not rolls(res, "impact") and rolls(res, "tackle")[0]["result"] == "Steal: he takes the ball"
        assert res.state.ball.carrier == "w1" and events(res, "ball_caught")[0]["how"] == "steal"
        assert res.state.players["w1"].standing and res.state.players["e1"].standing
        assert res.state.action.burst and res.state.momentum == 0

    def test_strip(self):
        res = act(self.start(), C.Tackle("e1", use="steal"), faces="O -", d6="2")
        assert events(res, "ball_dropped")[0]["player"] == "e1" and events(res, "ball_scattered")
        assert res.state.ball.carrier is None and res.state.players["e1"].standing
        assert not res.state.action.burst

    def test_too_few_is_nothing(self):
        res = act(self.start(), C.Tackle("e1", use="steal"), faces="- -")
        assert res.state.ball.carrier == "e1" and res.state.players["w1"].standing

    def test_flop(self):
        res = act(self.start(), C.Tackle("e1", use="steal"), faces="X -", d6="")
        assert res.state.players["w1"].status is Status.DOWN and res.state.ball.carrier == "e1"
        assert events(res, "momentum_shifted")

    def test_momentum_only_beyond_three_more(self):
        res = act(self.start(), C.Tackle("e1", use="steal"), faces="* * * O O")  # 5: 4 more than 1
        assert res.state.momentum == 1 and res.state.ball.carrier == "w1"

    def test_only_against_the_carrier(self):
        st = contact(STRIKER, DEFENDER, mine=("steal",), ball=False)
        refused(st, C.Tackle("e1", use="steal"), match="does not hold the ball")
        assert rule_of(st, C.Tackle("e1", use="steal")) == "Steal (p. 14)"

    def test_fear_demands_an_impact(self):
        res = act(self.start(theirs=("fear",)), C.Tackle("e1", use="steal"), faces="O O O  O O")
        assert rolls(res, "impact")[0]["extra"] == 1 and res.state.momentum == 0
        assert res.state.ball.carrier == "w1"


class TestPsycho:
    def test_impact_with_the_opponents_might(self):
        # A Hunter (Might 3) against an Ogre (Might 5): the Impact rolls 5 dice, needs 3.
        st = contact(HUNTER, OGRE, mine=("psycho",), ball=False)
        res = act(st, C.Tackle("e1"), faces="O O O - -  - - - -")
        (imp,) = rolls(res, "impact")
        assert len(imp["roll"]["dice"]) == 5 and need_of(imp) == 3 and imp["result"] == "hits hard enough"
        assert used(res, "psycho") == ["opponent_might_dice"]

    def test_without_psycho_his_own_might(self):
        res = act(contact(HUNTER, OGRE, ball=False), C.Tackle("e1"), faces="O O -")
        assert len(rolls(res, "impact")[0]["roll"]["dice"]) == 3

    @pytest.mark.parametrize("attacker, dice", [(HUNTER, 5), (OGRE, 6), ("siringit/tantor", 6)])
    def test_two_more_shove_dice_at_most_six(self, attacker, dice):
        st = contact(attacker, STRIKER, mine=("psycho",))
        res = act(st, C.Shove("e1"), faces=" ".join("-" * dice))
        assert len(rolls(res, "shove")[0]["roll"]["dice"]) == dice

    def test_it_ignores_fear(self):
        st = contact(HUNTER, STRIKER, mine=("psycho",), theirs=("fear",))
        res = act(st, C.Tackle("e1"), faces="- - - -")
        assert not rolls(res, "impact")


class TestFear:
    def test_an_equal_might_tackler_needs_an_impact_that_earns_nothing(self):
        st = contact(HUNTER, STRIKER, theirs=("fear",))  # Might 3 against 3
        res = act(st, C.Tackle("e1"), faces="O O -  O O - -", d6="2")  # Impact needs 1: +1
        (imp,) = rolls(res, "impact")
        assert imp["extra"] == 1 and res.state.momentum == 0
        assert rolls(res, "tackle")[0]["result"] == "Slide Tackle"
        assert used(res, "fear") == ["impact_first"]

    def test_a_weaker_tackler_rolls_the_ordinary_impact(self):
        st = contact(STRIKER, DEFENDER, theirs=("fear",), ball=False)
        res = act(st, C.Tackle("e1"), faces="O O O  - -", answers=[[]])
        assert rolls(res, "impact")[0]["extra"] == 1 and res.state.momentum == 1
        assert not used(res, "fear")

    def test_a_failed_fear_impact_stops_the_tackle(self):
        res = act(contact(HUNTER, STRIKER, theirs=("fear",)), C.Tackle("e1"), faces="- - -")
        assert not rolls(res, "tackle") and res.state.action.surcharge

    def test_no_fear_no_impact(self):
        res = act(contact(HUNTER, STRIKER), C.Tackle("e1"), faces="- - - -")
        assert not rolls(res, "impact")


class TestClipping:
    """A Striker (Might 3, Dodge 4) at G12 leaves a Clipping Defender (Might 4) who faces him:
    an Impact first, with Dodge (4 dice), needing 4 - 2 = 2; then the Disengage (Tackle 4 - 2)."""

    def start(self, mover=STRIKER, clipper=DEFENDER, *extra, jog=None, clip=("clipping",)):
        return position(
            P("w1", mover, "G12", "E"), P("e1", clipper, "H12", "W", abilities=clip), FAR_EAST, *extra,
            ball="Q7", acting="w1", jog=jog,
        )

    def test_break_free_then_disengage(self):
        res = act(self.start(), C.Move((hx("F12"),)), faces="O O - -  O O - -")
        imp, dis = rolls(res)
        assert imp["challenge"] == "impact" and imp["attribute"] == "dodge" and imp["target"] == "e1"
        assert need_of(imp) == 2 and dis["challenge"] == "disengage"
        assert res.state.players["w1"].hex == hx("F12")
        assert used(res, "clipping") == ["impact_to_break_free"]

    def test_a_flop_is_down_and_a_shift(self):
        res = act(self.start(), C.Move((hx("F12"),)), faces="X - - -")
        assert res.state.players["w1"].status is Status.DOWN and res.state.players["w1"].hex == hx("G12")
        assert events(res, "momentum_shifted")

    def test_a_failure_may_be_retried_for_a_pace(self):
        res = act(self.start(), C.Move((hx("F12"),)), faces="O - - -  O O - -  O O - -", answers=["retry"])
        assert [r["challenge"] for r in rolls(res)] == ["impact", "impact", "disengage"]
        assert res.state.players["w1"].hex == hx("F12") and res.state.action.jog_left == 6 - 1 - 1

    def test_or_he_stays(self):
        st = self.start()
        first = act(st, C.Move((hx("F12"),)), faces="O - - -", pending=True)
        q = first.state.in_progress.question
        assert q["kind"] == "clipping_retry" and q["options"] == ["retry", "stay"] and q["default"] == "stay"
        assert "Clipper" in describe_question(q, st)
        res = act(st, C.Move((hx("F12"),)), faces="O - - -", answers=["stay"])
        w1 = res.state.players["w1"]
        assert w1.standing and w1.hex == hx("G12") and res.state.action.jog_left == 6
        assert res.state.turn_side == "west" and not rolls(res, "disengage")

    def test_no_retry_without_a_pace_to_spare(self):
        res = act(self.start(jog=1), C.Move((hx("F12"),)), faces="O - - -")
        assert res.state.players["w1"].hex == hx("G12") and res.state.action.jog_left == 1

    def test_not_against_a_clipper_without_more_might(self):
        res = act(self.start(mover="desert-dogs/dervish"), C.Move((hx("F12"),)), faces="O O -")  # Might 4 v 4
        assert [r["challenge"] for r in rolls(res)] == ["disengage"]

    def test_not_without_the_ability(self):
        res = act(self.start(clip=()), C.Move((hx("F12"),)), faces="O O - -")
        assert [r["challenge"] for r in rolls(res)] == ["disengage"]

    def test_might_on_a_tie_with_dodge(self):
        res = act(self.start(mover=HUNTER), C.Move((hx("F12"),)), faces="O O -  O O -")  # Might 3, Dodge 3
        assert rolls(res, "impact")[0]["attribute"] == "might"

    def test_the_strongest_of_several_clippers(self):
        ogre = P("e2", OGRE, "G11", "SW", abilities=("clipping",))  # Might 5, facing w1
        res = act(self.start(STRIKER, DEFENDER, ogre), C.Move((hx("F12"),)), faces="O O O O  O O O - ")
        (imp,) = rolls(res, "impact")
        assert imp["target"] == "e2" and mods(imp) == {"other opponent facing": 1} and need_of(imp) == 4

    def test_slippery_ignores_one_opponent_on_a_dodge_impact(self):
        # The Clipping Impact rolled with Dodge is a Dodge challenge: Slippery cancels the +1
        # of the second opponent facing him.
        ogre = P("e2", OGRE, "G11", "SW", abilities=("clipping",))
        st = position(P("w1", STRIKER, "G12", "E", abilities=("slippery",)), P("e1", DEFENDER, "H12", "W"), ogre,
                      FAR_EAST, ball="Q7", acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O O O -  O O O - ")
        (imp,) = rolls(res, "impact")
        assert imp["attribute"] == "dodge" and need_of(imp) == 3
        assert any(m["label"].startswith("Slippery") for m in imp["roll"]["need"]["modifiers"])


class TestBonecrusher:
    """A Hunter (Tackle 4) against a Striker with the ball: needs 2; Grit 2."""

    def test_a_punishing_hit_rolls_five(self):
        st = contact(HUNTER, STRIKER, mine=("bonecrusher",))
        res = act(st, C.Tackle("e1"), faces="O O O O  O O O O O", d6="2")
        (inj,) = rolls(res, "injury")
        assert len(inj["roll"]["dice"]) == 5 and used(res, "bonecrusher") == ["one_injury_die_fewer"]

    def test_a_crippling_hit_rolls_grit_minus_one(self):
        st = contact(HUNTER, STRIKER, mine=("bonecrusher",))
        res = act(st, C.Tackle("e1"), faces="O O O * O  O", d6="3")
        (inj,) = rolls(res, "injury")
        assert len(inj["roll"]["dice"]) == 1

    def test_without_it_six(self):
        res = act(contact(HUNTER, STRIKER), C.Tackle("e1"), faces="O O O O  O O O O O -", d6="2")
        assert len(rolls(res, "injury")[0]["roll"]["dice"]) == 6


class TestDoubleMomentum:
    def test_collision_doubles_a_tackle(self):
        st = contact(HUNTER, STRIKER, mine=("collision",))
        # Needs 2, rolls 6: 4 more, 1 counter, doubled; the Injury (Grit 2) sends him to Recovery.
        res = act(st, C.Tackle("e1"), faces="O O * * O O  O O", d6="2", answers=[[]])
        assert rolls(res, "tackle")[0]["extra"] == 4 and res.state.momentum == 2
        assert "double_momentum" in used(res, "collision")

    def test_collision_doubles_an_impact(self):
        st = contact(STRIKER, DEFENDER, mine=("collision",), ball=False)
        res = act(st, C.Tackle("e1"), faces="O O O  - -", answers=[[]])
        assert res.state.momentum == 2

    def test_knockback_doubles_a_shove(self):
        st = contact(HUNTER, STRIKER, mine=("knockback",))
        res = act(st, C.Shove("e1"), faces="O O O")  # needs 1: 2 more
        assert res.state.momentum == 4 and used(res, "knockback") == ["double_momentum"]

    def test_knockback_does_not_double_a_tackle(self):
        st = contact(HUNTER, STRIKER, mine=("knockback",))
        res = act(st, C.Tackle("e1"), faces="O O * * O O  O O", d6="2", answers=[[]])
        assert res.state.momentum == 1

    def test_collision_does_not_double_a_shove(self):
        res = act(contact(HUNTER, STRIKER, mine=("collision",)), C.Shove("e1"), faces="O O O")
        assert res.state.momentum == 2


class TestMalicious:
    def test_plus_one_for_a_dazed_opponent(self):
        st = contact(HUNTER, STRIKER, mine=("malicious",))
        res = act(st, C.Tackle("e1"), faces="O O O O  O O O O - -", d6="2")  # Injury net 4: Dazed
        assert res.state.players["e1"].status is Status.DAZED
        assert res.state.momentum == 1 and used(res, "malicious") == ["momentum_dazed"]

    def test_plus_two_for_an_opponent_hurt_off_the_field(self):
        st = contact(HUNTER, STRIKER, mine=("malicious",))
        res = act(st, C.Tackle("e1"), faces="O O O O  - - - - - -", d6="2")  # Injury 0: Infirmary
        assert res.state.players["e1"].location is Location.INFIRMARY
        assert res.state.momentum == 2 and used(res, "malicious") == ["momentum_injured"]

    def test_nothing_for_a_solid_hit(self):
        res = act(contact(HUNTER, STRIKER, mine=("malicious",)), C.Tackle("e1"), faces="O O O -", d6="2")
        assert res.state.momentum == 0 and not used(res, "malicious")

    def test_nothing_without_it(self):
        res = act(contact(HUNTER, STRIKER), C.Tackle("e1"), faces="O O O O  O O O O - -", d6="2")
        assert res.state.momentum == 0


class TestEnrage:
    def test_hit_on_the_opponents_turn_then_two_counters(self):
        st = contact(HUNTER, OGRE, theirs=("enrage",), ball=False)
        res = act(st, C.Shove("e1"), faces="- - -")
        assert res.state.targeted == ["e1"]
        res = act(res.state, C.EndAction())
        assert res.state.provoked == ["e1"] and res.state.turn_side == "east"
        res = act(res.state, C.StartAction("e1"))
        assert res.state.momentum == 2 and res.state.momentum_side == "east"
        assert used(res, "enrage") == ["enraged"]

    def test_a_cheapshot_counts(self):
        st = contact(HUNTER, OGRE, mine=("cheapshot",), status="down", ball=False)
        res = act(st, C.Tackle("e1"), faces="- - - -")
        assert res.state.targeted == ["e1"]

    def test_a_player_is_noted_once(self):
        res = act(contact(HUNTER, OGRE, ball=False), C.Tackle("e1"), faces="- - -")  # the Impact fails
        res = act(res.state, C.Shove("e1"), faces="- - -")
        assert res.state.targeted == ["e1"]

    def test_not_when_another_player_acts(self):
        st = contact(HUNTER, OGRE, P("e2", OGRE, "N10", "W", abilities=("enrage",)), theirs=("enrage",), ball=False)
        res = act(act(st, C.Shove("e1"), faces="- - -").state, C.EndAction())
        res = act(res.state, C.StartAction("e2"))
        assert res.state.momentum == 0 and not used(res, "enrage")

    def test_not_without_the_ability(self):
        st = contact(HUNTER, OGRE, ball=False)
        res = act(act(st, C.Shove("e1"), faces="- - -").state, C.EndAction())
        res = act(res.state, C.StartAction("e1"))
        assert res.state.momentum == 0


class TestPlough:
    """An Ogre (Might 5) shoves a Striker (Might 3): needs 1."""

    def start(self, momentum=(1, "west"), abilities=("plough",), **kw):
        return contact(OGRE, STRIKER, mine=abilities, momentum=momentum, **kw)

    def test_he_follows_into_the_hex(self):
        st = self.start()
        first = act(st, C.Shove("e1"), faces="O - - - -", answers=[[]], pending=True)  # no re-roll
        q = first.state.in_progress.question
        assert q["kind"] == "plough" and q["default"] == "stay" and "Plough" in describe_question(q, st)
        res = act(st, C.Shove("e1"), faces="O - - - -", answers=[[], "plough"])
        assert res.state.players["w1"].hex == hx("H12") and res.state.players["e1"].hex == hx("I12")
        assert res.state.momentum == 0 and res.state.action.jog_left == 5 - 1 - 1
        assert used(res, "plough") == ["plough"] and events(res, "player_moved")

    def test_he_may_stay(self):
        res = act(self.start(), C.Shove("e1"), faces="O - - - -", answers=[[], "stay"])
        assert res.state.players["w1"].hex == hx("G12") and res.state.momentum == 1

    def test_not_without_a_counter(self):
        res = act(self.start(momentum=(0, None)), C.Shove("e1"), faces="O - - - -")
        assert res.state.players["e1"].hex == hx("I12")

    def test_not_when_nobody_moved(self):
        blocker = P("e2", STRIKER, "I12", "W")
        st = contact(OGRE, STRIKER, blocker, mine=("plough",), momentum=(2, "west"))
        res = act(st, C.Shove("e1"), faces="O - - - -", answers=[[]])
        assert events(res, "player_shoved")[0]["to"] is None

    def test_not_without_the_ability(self):
        res = act(self.start(abilities=()), C.Shove("e1"), faces="O - - - -", answers=[[]])
        assert res.state.players["w1"].hex == hx("G12")


class TestOffered:
    def test_legal_commands_list_the_uses(self):
        st = contact(HUNTER, DEFENDER, P("e2", STRIKER, "G11", "W", status="down"),
                     mine=("cheapshot", "cutblock", "steal", "pummel"), moved=True)
        tackles = set(legal_commands(st, "west").of(C.Tackle))
        assert C.Tackle("e2", "cheapshot") in tackles and C.Tackle("e2") not in tackles
        assert {C.Tackle("e1"), C.Tackle("e1", "cutblock"), C.Tackle("e1", "pummel"), C.Tackle("e1", "steal")} <= tackles

    def test_and_only_those_he_has(self):
        st = contact(HUNTER, DEFENDER, P("e2", STRIKER, "G11", "W", status="down"), moved=True)
        assert set(legal_commands(st, "west").of(C.Tackle)) == {C.Tackle("e1")}

    def test_an_unknown_use_is_malformed(self):
        from engine.errors import MalformedInputError
        from engine.dice import ScriptedDice

        with pytest.raises(MalformedInputError):
            apply(contact(), C.Tackle("e1", use="bite"), ScriptedDice(), by="west")

    def test_previews_follow_the_abilities(self):
        st = contact(OGRE, STRIKER, mine=("pummel", "psycho"))
        w1, e1 = st.players["w1"], st.players["e1"]
        impact, tackle = contact_previews(st, w1, e1, "tackle", "pummel")
        # Psycho's Impact rolls the Striker's Might 3, not the Ogre's 5 (docs/rules.md 11.5).
        assert impact.dice == 3 and tackle.dice == 2 and tackle.need == 2
        assert contact_previews(st, w1, e1, "shove")[0].dice == 6

    def test_every_new_text_reads(self):
        st = contact(HUNTER, STRIKER)
        from engine import events as E

        for effect in ("cheapshot", "cutblock", "pummel", "steal_attempt", "plus_one_success", "snapped_out_of_daze",
                       "impact_first", "opponent_might_dice", "more_shove_dice", "double_momentum",
                       "one_injury_die_fewer", "momentum_dazed", "momentum_injured", "enraged",
                       "impact_to_break_free", "plough"):
            text = describe(E.AbilityUsed("w1", "cheapshot", effect, "e1"), st)
            assert "_" not in text, text
        assert describe(E.BallCaught("w1", "steal"), st) == "Hunter w1 steals the ball!"


ALL = ("cheapshot", "cutblock", "pummel", "steal", "psycho", "fear", "clipping", "bonecrusher", "collision",
       "knockback", "malicious", "enrage", "plough")


def _entry(team, rng: random.Random) -> TeamEntry:
    """Each player with a random half of the contact abilities (all of them would let Psycho
    hide Fear everywhere)."""
    roster = default_roster(team)
    n = sum(count for _, count in roster.entries)
    return TeamEntry(team.name, roster, players=tuple(PlayerEntry(abilities=tuple(rng.sample(ALL, 7))) for _ in range(n)))


@pytest.mark.parametrize("seed", range(4))
def test_random_matches_with_every_contact_ability(seed):
    """Random coaches (and the AI on odd seeds) with contact abilities on every player: every
    command applies, and every invariant holds."""
    rng = random.Random(seed)
    w, e = rng.sample(all_team_lists(), 2)
    dice = SeededDice(seed)
    state = new_match(_entry(w, rng), _entry(e, rng), dice).state
    coach, ai = RandomCoach(rng, purpose=0.8), AICoach()
    for _ in range(600):
        if state.phase is Phase.MATCH_OVER:
            break
        side = pending(state).side
        cmd = ai.choose(state, side) if seed % 2 and side == "east" else coach.choose(state, side, F)
        state = apply(state, cmd, dice, by=side).state
        assert not invariant_violations(state, F)

