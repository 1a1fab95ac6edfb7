"""Magic Potions (p. 11), with scripted dice.

"You may use one or more potions on any player not on the field before setting up for any
Test, during a Test or after the last goal is scored. To use a potion, roll two Challenge dice
and consult this table ... a player may only take one potion per game." The faces of each row
are a reconstruction (engine/data/potions.json, rules-analysis A3).
"""

from __future__ import annotations

import pytest
from support.builders import P, events, position, refused
from support.builders import play as act

from engine import commands as C
from engine.abilities import has
from engine.dice import Face
from engine.legal import legal_commands
from engine.state import Location, Phase
from engine.support.potions import row_for

POTIONS = {"west": {"potions": 3}}
ON_FIELD = (P("w1", "gnolls/hunters", "G5", "E"), P("e1", "gnolls/midfielders", "N12", "W"))


def bench(*players: P, phase: Phase = Phase.TURN, support=POTIONS, **kw):
    """West's turn; w2 a Hunter on the Bench unless other players are given."""
    st = position(*ON_FIELD, *(players or (P("w2", "gnolls/hunters"),)), phase=phase, turn="west", support=support, **kw)
    return st


def drink(st, faces: str, pid: str = "w2", answers=None, by: str = "west", **kw):
    return act(st, C.DrinkPotion(pid), faces=faces, answers=answers, by=by, **kw)


def test_the_table_reads_the_pair_in_either_order():
    assert row_for(Face.BLANK, Face.BULLSEYE) is row_for(Face.BULLSEYE, Face.BLANK)
    rows = {row_for(a, b)["result"] for a in Face for b in Face}
    assert rows == {"dies", "seizure", "coma", "woozy", "locked", "healed", "boost", "enhanced", "veteran", "strength"}


class TestTheRows:
    def test_drinking_uses_a_potion_and_his_one_potion_of_the_game(self):
        res = drink(bench(), "- *")
        w2 = res.state.players["w2"]
        assert w2.potion_used and res.state.teams["west"].available("potions") == 2
        assert events(res, "support_used") == [
            {"kind": "support_used", "side": "west", "item": "potions", "player": "w2", "left": 2}
        ]
        assert events(res, "potion_drunk") == [
            {"kind": "potion_drunk", "player": "w2", "faces": ["-", "*"], "result": "healed", "gained": []}
        ]
        assert (res.state.phase, res.state.turn_side) == (Phase.TURN, "west"), "it is not his team's action"

    def test_he_dies(self):
        res = drink(bench(), "X X")
        w2 = res.state.players["w2"]
        assert w2.location is Location.INFIRMARY and w2.injury == {"kind": "dead"}
        assert events(res, "injury_recorded")[0]["outcome"] == "dead"

    def test_a_seizure_is_the_game_and_a_lasting_injury(self):
        res = drink(bench(), "- X")
        w2 = res.state.players["w2"]
        assert w2.location is Location.INFIRMARY
        assert w2.injury == {"kind": "lasting", "attributes": ["jog"]}  # Hunter 6/3/4/3/2/3

    def test_a_seizure_on_an_uncured_lasting_injury_counts_two(self):
        st = bench(P("w2", "gnolls/hunters", location="infirmary"))
        st.players["w2"].injury = {"kind": "lasting", "attributes": ["jog"]}
        assert drink(st, "X -").state.players["w2"].injury == {"kind": "lasting", "attributes": ["jog"], "count": 2}

    def test_a_coma_cures_nothing(self):
        st = bench(P("w2", "gnolls/hunters", location="recovery"))
        res = drink(st, "* X")
        assert res.state.players["w2"].location is Location.INFIRMARY

    @pytest.mark.parametrize("where, after", [("bench", Location.RECOVERY), ("infirmary", Location.INFIRMARY)])
    def test_woozy(self, where, after):
        st = bench(P("w2", "gnolls/hunters", location=where))
        st.players["w2"].injury = {"kind": "career_ending"} if where == "infirmary" else None
        res = drink(st, "X O")
        assert res.state.players["w2"].location is after
        assert res.state.players["w2"].injury == ({"kind": "career_ending"} if where == "infirmary" else None)

    def test_locked_up_cures_a_lasting_injury_and_goes_to_recovery(self):
        st = bench(P("w2", "gnolls/hunters", location="infirmary"))
        st.players["w2"].injury = {"kind": "lasting", "attributes": ["jog"]}
        res = drink(st, "- -")
        w2 = res.state.players["w2"]
        assert w2.location is Location.RECOVERY and w2.injury is None
        assert events(res, "injury_recorded") == [{"kind": "injury_recorded", "player": "w2", "outcome": "cured", "attributes": []}]

    def test_a_career_ending_injury_is_not_cured(self):
        """G50: a cure "does not undo death or a career-ending flop, because those players are
        off the roster"."""
        st = bench(P("w2", "gnolls/hunters", location="infirmary"))
        st.players["w2"].injury = {"kind": "career_ending"}
        res = drink(st, "O -", answers=["nimble"])
        w2 = res.state.players["w2"]
        assert w2.location is Location.INFIRMARY and w2.injury == {"kind": "career_ending"}
        assert not events(res, "injury_recorded")

    @pytest.mark.parametrize("where", ["infirmary", "recovery", "sent_off", "bench"])
    def test_healed_back_to_the_bench(self, where):
        res = drink(bench(P("w2", "gnolls/hunters", location=where)), "* -")
        assert res.state.players["w2"].location is Location.BENCH
        assert not events(res, "injury_recorded")

    def test_a_boost_one_general_basic_ability_for_this_game(self):
        st = bench(P("w2", "gnolls/hunters", location="infirmary", abilities=("steady",)))
        res = drink(st, "O -", pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["player"]) == ("potion_ability", "west", "w2")
        assert q["options"] == ["buff", "grapple", "nimble", "agile", "resilient"] and q["default"] == "buff"
        res = drink(st, "O -", answers=["agile"])
        w2 = res.state.players["w2"]
        assert w2.location is Location.BENCH and w2.potion_abilities == ("agile",) and has(w2, "agile")
        assert w2.abilities == ("steady",)
        assert events(res, "potion_drunk")[0]["gained"] == ["agile"]

    def test_enhanced_two_of_them(self):
        res = drink(bench(), "* *", answers=["nimble"], pending=True)
        assert "nimble" not in res.state.in_progress.question["options"]
        res = drink(bench(), "* *", answers=["nimble", "grapple"])
        assert res.state.players["w2"].potion_abilities == ("nimble", "grapple")

    def test_a_veteran_a_basic_and_its_advanced_ability(self):
        st = bench(P("w2", "gnolls/hunters", abilities=("agile", "slippery")))
        res = drink(st, "O *", pending=True)
        q = res.state.in_progress.question
        assert q["kind"] == "potion_veteran"
        # Both must be new: no Skill pair (he has Agile), no Dodge pair (he has Slippery).
        assert q["options"] == ["steady+sprinter", "buff+bonecrusher", "grapple+psycho", "resilient+rugged"]
        res = drink(st, "O *", answers=["grapple+psycho"])
        assert res.state.players["w2"].potion_abilities == ("grapple", "psycho")

    def test_strength_plus_one_to_an_attribute_at_most_six(self):
        st = bench(P("w2", "gnolls/hunters", attributes={"jog": 6, "grit": 5}))
        res = drink(st, "O O", pending=True)
        assert res.state.in_progress.question["options"] == ["might", "tackle", "dodge", "skill", "grit"]
        res = drink(st, "O O", answers=["grit"])
        w2 = res.state.players["w2"]
        assert w2.grit == 6 and w2.potion_abilities == ("+1 grit",)
        assert events(res, "potion_drunk")[0]["gained"] == ["+1 grit"]

    def test_a_lasting_injury_ignores_the_potions_plus_one(self):
        from engine.challenges.injury import highest_attributes

        st = bench(P("w2", "gnolls/hunters", attributes={"jog": 5, "tackle": 5}))
        w2 = drink(st, "O O", answers=["jog"]).state.players["w2"]
        assert (w2.jog, highest_attributes(w2)) == (6, ("jog", "tackle"))

    def test_a_giant_frogs_gains_wait_for_his_own_profile(self):
        st = bench(P("w2", "gnolls/hunters", location="infirmary"))
        st.players["w2"].frog = {"type": "hunter", "attributes": [6, 3, 4, 3, 2, 3], "abilities": [], "potion_abilities": []}
        w2 = drink(st, "O O", answers=["might"]).state.players["w2"]
        assert w2.frog["attributes"] == [6, 4, 4, 3, 2, 3] and w2.frog["potion_abilities"] == ["+1 might"]


class TestWhoAndWhen:
    def test_one_potion_per_player_per_game(self):
        st = drink(bench(), "* -").state
        refused(st, C.DrinkPotion("w2"), match="one potion per game")

    def test_as_many_as_the_team_bought(self):
        st = bench(support={"west": {"potions": 1}})
        st.teams["west"].used["potions"] = 1
        refused(st, C.DrinkPotion("w2"), match="have been used")
        refused(bench(support=None), C.DrinkPotion("w2"), match="no Magic Potions")

    def test_not_on_the_field(self):
        refused(bench(), C.DrinkPotion("w1"), match="on the field")

    def test_not_the_impcrusher_the_dead_or_the_ejected(self):
        refused(bench(P("w2", "extra/impcrusher")), C.DrinkPotion("w2"), match="may not use magic potions")
        st = bench(P("w2", "gnolls/hunters", location="infirmary"))
        st.players["w2"].injury = {"kind": "dead"}
        refused(st, C.DrinkPotion("w2"), match="dead")
        refused(bench(P("w2", "gnolls/hunters", location="ejected")), C.DrinkPotion("w2"), match="ejected")

    def test_only_for_his_own_team(self):
        refused(bench(), C.DrinkPotion("w2"), by="east", match="plays for west")

    def test_on_his_own_turn_not_during_an_action(self):
        st = bench()
        st.turn_side = "east"
        refused(st, C.DrinkPotion("w2"), by="west", match="own turn")
        st = position(*ON_FIELD, P("w2", "gnolls/hunters"), acting="w1", support=POTIONS)
        refused(st, C.DrinkPotion("w2"), match="not possible now")

    def test_before_his_own_set_up(self):
        st = bench(phase=Phase.SETUP)
        st.setup_side = "west"
        assert drink(st, "* -").state.players["w2"].potion_used
        st.setup_side = "east"
        refused(st, C.DrinkPotion("w2"), by="west", match="setting up")

    def test_between_tests_by_either_coach(self):
        st = bench(phase=Phase.TEST_OVER)
        assert drink(st, "* -").state.players["w2"].potion_used

    def test_after_the_last_goal(self):
        st = bench(phase=Phase.MATCH_OVER)
        res = drink(st, "O -", answers=["agile"])
        assert res.state.players["w2"].potion_abilities == ("agile",)
        refused(st, C.Concede(), by="east", match="over")
        refused(st, C.StartTest(), by="west", match="over")
        assert C.DrinkPotion("w2") in legal_commands(st, "west")
        assert not list(legal_commands(st, "east"))

    def test_legal_commands_list_the_players_off_the_field(self):
        st = bench(P("w2", "gnolls/hunters"), P("w3", "gnolls/hunters", location="infirmary"))
        assert legal_commands(st, "west").of(C.DrinkPotion) == [C.DrinkPotion("w2"), C.DrinkPotion("w3")]
