"""Team support (p. 11), the extra players (p. 19) and experience (pp. 8 and 12), with
scripted dice: Cheerleaders, Zlurpee Kegs, the Bribed Referee, the Impcrusher's referee check,
fielding the Samhaino Horror and the Impcrusher, and Experience Points."""

from __future__ import annotations

import pytest
from support.builders import F, P, events, hx, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.dice import ScriptedDice
from engine.hexes import Direction
from engine.match import TeamEntry, new_match
from engine.rosters import RosterOptions, validate_basic_team
from engine.state import Location, Phase, RuleOptions, Status

FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")
EAST_GOAL, WEST_GOAL = F.goals["east"], F.goals["west"]
PUNISHING = "O O O O "  # Hunter on a Midfielder without the ball: Punishing Hit, Injury with 6 dice


# --- Cheerleaders ------------------------------------------------------------------------
class TestCheerleaders:
    """"Each Cheerleader may be used once per Test at the beginning of an action to add one
    Momentum counter to the Momentum track.\""""

    def start(self, n: int = 2, **kw):
        return position(P("w1", "gnolls/hunters", "G12", "E"), FAR_EAST, acting="w1", support={"west": {"cheerleaders": n}}, **kw)

    def test_a_cheer_adds_one_counter(self):
        res = act(self.start(), C.Cheer())
        assert (res.state.momentum, res.state.momentum_side) == (1, "west")
        assert events(res, "support_used") == [
            {"kind": "support_used", "side": "west", "item": "cheerleaders", "player": None, "left": 1}
        ]
        assert events(res, "momentum_gained")[0]["source"] == "cheerleader"

    def test_several_cheer_at_the_start_of_one_action_each_once_per_test(self):
        res = act(self.start(), C.Cheer())
        res = act(res.state, C.Cheer())
        assert res.state.momentum == 2
        refused(res.state, C.Cheer(), match="once per Test")

    def test_only_at_the_beginning_of_the_action(self):
        res = act(self.start(), C.Move((hx("H12"),)))
        refused(res.state, C.Cheer(), match="beginning of an action")

    def test_turning_first_is_still_the_beginning(self):
        res = act(self.start(), C.Face(Direction.NE))
        assert act(res.state, C.Cheer()).state.momentum == 1

    def test_a_team_without_cheerleaders(self):
        st = position(P("w1", "gnolls/hunters", "G12", "E"), FAR_EAST, acting="w1")
        refused(st, C.Cheer(), match="no Cheerleaders")

    def test_not_on_a_full_track(self):
        refused(self.start(momentum=(6, "west")), C.Cheer(), match="full")

    def test_not_by_the_other_team(self):
        refused(self.start(), C.Cheer(), by="east", match="turn")

    def test_they_cheer_again_next_test(self):
        st = position(P("w1", "gnolls/hunters"), P("e1", "gnolls/hunters"), phase=Phase.TEST_OVER,
                      support={"west": {"cheerleaders": 2, "kegs": 1}})
        st.teams["west"].used.update(cheerleaders=2, kegs=1, potions=1)
        res = act(st, C.StartTest(), by="west")
        assert res.state.teams["west"].used == {"potions": 1}  # potions are per game


# --- Zlurpee Kegs --------------------------------------------------------------------------
class TestKegs:
    """"you may add 1 success to any Injury challenge during the game that you do not Flop and
    do not roll 0 successes. Each Barrel may be used once per Test.\""""

    def hit(self, kegs: int = 2, used: int = 0):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("e1", "gnolls/midfielders", "H12", "W"), FAR_EAST,
            ball="Q7", acting="w1", support={"east": {"kegs": kegs}},
        )
        st.teams["east"].used["kegs"] = used
        return st

    def test_a_keg_turns_recovery_into_the_bench(self):
        res = act(self.hit(), C.Tackle("e1"), faces=PUNISHING + "O O - - - -", answers=["use", "keep"])
        assert res.state.players["e1"].location is Location.SENT_OFF
        assert res.state.teams["east"].used["kegs"] == 1
        assert events(res, "support_used") == [
            {"kind": "support_used", "side": "east", "item": "kegs", "player": "e1", "left": 1}
        ]
        assert rolls(res, "injury")[0]["net"] == 3

    def test_the_injured_players_coach_is_asked(self):
        res = act(self.hit(), C.Tackle("e1"), faces=PUNISHING + "O O - - - -", pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["player"], q["options"], q["default"]) == ("keg", "east", "e1", ["use", "keep"], "keep")

    def test_both_barrels_on_one_roll(self):
        res = act(self.hit(), C.Tackle("e1"), faces=PUNISHING + "O O - - - -", answers=["use", "use"])
        assert res.state.players["e1"].status is Status.DAZED and res.state.players["e1"].on_field
        assert res.state.teams["east"].available("kegs") == 0

    def test_keeping_it(self):
        res = act(self.hit(), C.Tackle("e1"), faces=PUNISHING + "O O - - - -", answers=["keep"])
        assert res.state.players["e1"].location is Location.RECOVERY
        assert res.state.teams["east"].available("kegs") == 2

    @pytest.mark.parametrize("injury", ["X X - - - -", "X O - - - -", "O O O O O -", "O O O O O O"])
    def test_not_offered_on_a_flop_on_zero_or_when_it_changes_nothing(self, injury):
        act(self.hit(), C.Tackle("e1"), faces=PUNISHING + injury)  # no question pending

    def test_not_offered_once_both_are_used_this_test(self):
        res = act(self.hit(used=2), C.Tackle("e1"), faces=PUNISHING + "O O - - - -")
        assert res.state.players["e1"].location is Location.RECOVERY

    def test_a_team_without_kegs(self):
        act(self.hit(kegs=0), C.Tackle("e1"), faces=PUNISHING + "O O - - - -")


# --- the Bribed Referee ------------------------------------------------------------------------
BRIBE = {"west": {"bribed_referee": 1}}


class TestBribedRefereeSetup:
    """"allows you to set up a player with a Type of Monster in the face-off circle\""""

    def setup(self, support=None):
        st = position(P("w1", "samhaino/deadwood"), P("e1", "gnolls/midfielders"), phase=Phase.SETUP, support=support)
        st.setup_side = st.first_setup_side = "west"
        return st

    def test_a_monster_may_face_off(self):
        res = act(self.setup(BRIBE), C.Place("w1", hx("J12"), Direction.E), by="west")
        assert res.state.players["w1"].hex == hx("J12")

    def test_not_without_the_bribe(self):
        refused(self.setup(), C.Place("w1", hx("J12"), Direction.E), by="west", match="Monster")

    def test_not_once_the_referee_has_had_enough(self):
        st = self.setup(BRIBE)
        st.teams["west"].used["bribe_void"] = 1
        refused(st, C.Place("w1", hx("J12"), Direction.E), by="west", match="Monster")

    def test_a_team_of_monsters_can_face_off_with_a_bribe(self):
        from engine.setup import can_face_off

        assert can_face_off(self.setup(BRIBE), "west") and not can_face_off(self.setup(), "west")


class TestBribedRefereeGoalHexes:
    """"allows your players without the ball to end an action inside either goal circle hex\""""

    def walk(self, support=None, ball=False):
        st = position(P("w1", "gnolls/hunters", "B11", "SW", ball=ball), FAR_EAST, acting="w1", support=support)
        return act(st, C.Move((WEST_GOAL,)))

    def test_he_stays_in_the_goal_hex(self):
        res = self.walk(BRIBE)
        assert res.state.players["w1"].hex == WEST_GOAL

    def test_without_the_bribe_he_is_sent_off(self):
        assert self.walk().state.players["w1"].location is Location.SENT_OFF

    def test_not_with_the_ball_into_his_own_goal(self):
        res = act(position(P("w1", "gnolls/hunters", "B11", "SW", ball=True), FAR_EAST, acting="w1", support=BRIBE),
                  C.Move((WEST_GOAL,)), d6="2")
        assert res.state.players["w1"].location is Location.SENT_OFF


class TestBribedRefereeCheck:
    """"before your first action after the face-off with a Monster Type player or at the start
    of any turn by your team where you have a player inside a goal circle hex, roll one
    Challenge die. If you flop ... The rule-breaking player is ejected for the remainder of the
    game, your team loses the ability to perform anything this turn (this counts as a SiM) and
    you may not break either of these rules for the remainder of the game.\""""

    def end_east_action(self, face: str = "", *extra: P, momentum=(0, None)):
        st = position(
            P("w1", "gnolls/hunters", F.format(EAST_GOAL), "W"), P("w2", "gnolls/hunters", "D5", "E"),
            P("e1", "gnolls/midfielders", "N12", "W"), *extra, acting="e1", support=BRIBE, momentum=momentum,
        )
        return act(st, C.EndAction(), faces=face)

    def test_the_referee_lets_it_go(self):
        res = self.end_east_action("-")
        assert events(res, "referee_check") == [
            {"kind": "referee_check", "side": "west", "reason": "bribe_goal_hex", "face": "-", "flopped": False, "players": []}
        ]
        assert res.state.phase is Phase.TURN and res.state.turn_side == "west"
        assert res.state.players["w1"].hex == EAST_GOAL

    def test_a_flop_ejects_him_and_west_loses_the_turn(self):
        res = self.end_east_action("X", momentum=(3, "east"))
        st = res.state
        assert st.players["w1"].location is Location.EJECTED
        assert st.teams["west"].used["bribe_void"] == 1
        assert (st.turn_side, st.phase, st.after_sim) == ("east", Phase.TURN, True)
        assert events(res, "momentum_shifted")[0]["to_side"] == "east"
        assert events(res, "referee_check")[0]["players"] == ["w1"]

    def test_no_roll_without_a_reason(self):
        st = position(P("w1", "gnolls/hunters", "D12", "W"), P("e1", "gnolls/midfielders", "N12", "W"), acting="e1", support=BRIBE)
        res = act(st, C.EndAction())
        assert not events(res, "referee_check")

    def test_once_void_a_goal_hex_sends_him_off_again(self):
        st = position(P("w1", "gnolls/hunters", "B11", "SW"), FAR_EAST, acting="w1", support=BRIBE)
        st.teams["west"].used["bribe_void"] = 1
        assert act(st, C.Move((WEST_GOAL,))).state.players["w1"].location is Location.SENT_OFF

    def test_one_roll_covers_the_face_off_monster_and_the_goal_hex(self):
        st = position(
            P("w1", "gnolls/hunters", F.format(EAST_GOAL), "W"), P("w3", "samhaino/deadwood", "J11", "E"),
            P("e1", "gnolls/midfielders", "N12", "W"), acting="e1", support=BRIBE,
        )
        st.teams["west"].used["bribe_faceoff_check"] = 3
        res = act(st, C.EndAction(), faces="X")
        check = events(res, "referee_check")
        assert len(check) == 1 and check[0]["reason"] == "bribe_faceoff_monster"
        assert sorted(check[0]["players"]) == ["w1", "w3"]
        assert res.state.players["w3"].location is Location.EJECTED

    def face_off(self, support):
        st = position(P("w1", "samhaino/deadwood", "J12", "E"), P("e1", "gnolls/midfielders", "L12", "W"),
                      phase=Phase.SETUP, support=support)
        st.setup_side, st.first_setup_side = "east", "west"
        # Might 6 against 3: west wins; the Pick-up fails and the ball scatters west (d6 5).
        res = act(st, C.SetupDone(), faces="O O O - - - - - -", by="east")
        return res.state

    def test_after_a_monster_face_off_he_is_checked_before_the_first_action(self):
        st = self.face_off(BRIBE)
        assert st.teams["west"].used["bribe_faceoff_check"] == 1
        res = act(st, C.FaceoffPickup(), faces="- X", d6="5", by="west")
        assert events(res, "referee_check")[0]["reason"] == "bribe_faceoff_monster"
        assert res.state.players["w1"].location is Location.EJECTED
        assert res.state.turn_side == "east"

    def test_the_check_is_made_once(self):
        res = act(self.face_off(BRIBE), C.FaceoffPickup(), faces="- O", d6="5", by="west")
        assert "bribe_faceoff_check" not in res.state.teams["west"].used
        assert res.state.turn_side == "west"


# --- the Impcrusher and the Samhaino Horror ------------------------------------------------------
class TestExtraPlayersInAMatch:
    def test_both_can_be_fielded(self):
        on = RosterOptions(allow_extra_players=True)
        gnomes = validate_basic_team("gnomes", "8 gnomes, 1 contraption, 1 impcrusher", options=on)
        samhaino = validate_basic_team("samhaino", "1 horror, 3 hunters, 3 midfielders, 2 safeties, 1 thrower", options=on)
        res = new_match(TeamEntry("G", gnomes), TeamEntry("S", samhaino), ScriptedDice(d6=[1, 2]))
        players = {p.position: p for p in res.state.players.values()}
        imp, horror = players["extra/impcrusher"], players["extra/samhaino-horror"]
        assert (imp.type, imp.abilities, imp.jog, imp.might, imp.grit) == ("monster", ("cheapshot",), 5, 5, 1)
        assert (horror.type, horror.tackle, horror.grit) == ("defender", 5, 6)


class TestImpcrusher:
    """"after each turn where the Impcrusher was the player taking the action, roll a Challenge
    dice. On a Flop, the Referee has decided to ban the Impcrusher from the field.\""""

    def acting(self, pid: str = "w1", ball: bool = False, at: str = "G12"):
        return position(
            P("w1", "extra/impcrusher", at, "E", ball=ball), P("w2", "gnolls/hunters", "G5", "E"), FAR_EAST,
            ball=None if ball else "Q7", acting=pid,
        )

    def test_a_check_after_his_action(self):
        res = act(self.acting(), C.EndAction(), faces="-")
        assert events(res, "referee_check")[0] == {
            "kind": "referee_check", "side": "west", "reason": "impcrusher", "face": "-", "flopped": False, "players": []
        }
        assert res.state.players["w1"].on_field

    def test_a_flop_bans_him(self):
        res = act(self.acting(), C.EndAction(), faces="X")
        assert res.state.players["w1"].location is Location.EJECTED
        assert res.state.turn_side == "east"

    def test_a_banned_carrier_drops_the_ball(self):
        res = act(self.acting(ball=True), C.EndAction(), faces="X", d6="2")
        assert res.state.ball.carrier is None and res.state.ball.hex == hx("H12")

    def test_not_after_another_players_action(self):
        res = act(self.acting("w2"), C.EndAction())
        assert not events(res, "referee_check")

    def test_not_after_an_action_that_scores(self):
        st = self.acting(ball=True, at="S12")
        res = act(act(st, C.Move((EAST_GOAL,))).state, C.EndAction())
        assert events(res, "goal_scored") and not events(res, "referee_check")


# --- Experience ----------------------------------------------------------------------------------
class TestExperience:
    """"Every time your team scores a goal give every player on your team that is still on the
    playing field one Experience Point." The Impcrusher "may not gain experience points".\""""

    def scoring(self, advanced: bool = True):
        st = position(
            P("w1", "gnolls/hunters", "S12", "E", ball=True), P("w2", "gnolls/hunters", "G5", "E"),
            P("w3", "extra/impcrusher", "G9", "E"), P("w4", "gnolls/hunters"), FAR_EAST,
            acting="w1", options=RuleOptions(advanced=advanced, goals_to_win=2),
        )
        return act(act(st, C.Move((EAST_GOAL,))).state, C.EndAction())

    def test_a_goal_gives_each_player_on_the_field_one_point(self):
        res = self.scoring()
        xp = {pid: p.xp for pid, p in res.state.players.items()}
        assert xp == {"w1": 1, "w2": 1, "w3": 0, "w4": 0, "e9": 0}
        assert events(res, "experience_gained") == [
            {"kind": "experience_gained", "side": "west", "players": ["w1", "w2"], "amount": 1, "reason": "goal"}
        ]

    def test_not_in_a_basic_match(self):
        res = self.scoring(advanced=False)
        assert not events(res, "experience_gained") and res.state.players["w1"].xp == 0

    def test_a_concession_gives_the_other_team_a_point_except_in_the_infirmary(self):
        st = position(
            P("w1", "gnolls/hunters", "G12", "E"), P("w2", "gnolls/hunters"), P("w3", "gnolls/hunters", location="infirmary"),
            P("w4", "extra/impcrusher"), P("e1", "gnolls/hunters", "N12", "W"),
            acting="w1", options=RuleOptions(advanced=True),
        )
        res = act(st, C.Concede(), by="east")
        assert {pid: p.xp for pid, p in res.state.players.items()} == {"w1": 1, "w2": 1, "w3": 0, "w4": 0, "e1": 0}
        assert events(res, "experience_gained")[0]["reason"] == "concession"
