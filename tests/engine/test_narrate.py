"""Narration: every event reads as a sentence; challenges show every term of the roll."""

from __future__ import annotations

import pytest
from support.builders import P, act, hx, position

from engine import commands as C
from engine import events as E
from engine.dice import ChallengeRoll, Need, ScriptedDice
from engine.dice.challenge import Modifier
from engine.hexes import Hex
from engine.match import apply
from engine.narrate import HANDLED_KINDS, TEXT, Narrator, describe, describe_question, describe_roll, narrate


def disengage_position(momentum=(0, None)):
    """A Dryad (Dodge 4) between a Midfielder (Tackle 3) and a Striker (Tackle 2), both facing her."""
    st = position(
        P("w1", "timberline-elves/dryads", "F14", "E"),
        P("e1", "black-widows/midfielders", "G14", "W"),
        P("e2", "black-widows/strikers", "E14", "E"),
        acting="w1",
        jog=5,
        momentum=momentum,
    )
    st.players["w1"].name = "Dryad w1"
    return st


class TestChallenges:
    def test_disengage_shows_attribute_dice_need_with_every_modifier_faces_net_and_outcome(self):
        res = act(disengage_position(), C.Move((hx("F13"),)), faces="X O O O")
        assert narrate(res.events, res.state) == [
            "Disengage — Dryad w1, Dodge 4 dice, need 2 (Tackle 3 − 2, +1 more opponent facing): "
            "flop, hit, hit, hit → 2: success (gets away)",
            "Dryad w1 moves from F14 to F13 (Jog 4 left).",
        ]

    def test_star_rerolls_and_momentum_replacements_are_shown(self):
        # The flop is replaced with a counter; the new die is a star, which rolls a hit.
        res = act(disengage_position((2, "west")), C.Move((hx("F13"),)), faces="X O - O  *  O", answers=[[0], []])
        lines = narrate(res.events, res.state)
        assert lines[0] == "West spends 1 Momentum to replace dice (1 left)."
        assert lines[1] == (
            "Disengage — Dryad w1, Dodge 4 dice, need 2 (Tackle 3 − 2, +1 more opponent facing): "
            "flop re-rolled to star > hit, hit, blank, hit → 4: success, 2 extra (gets away)"
        )

    def test_a_need_below_one_is_shown_clamped(self):
        st = position(
            P("w1", "timberline-elves/dryads", "F14", "E"),
            P("w2", "timberline-elves/dryads", "F13", "SW"),  # a team-mate facing her
            P("e2", "black-widows/strikers", "E14", "E"),  # Tackle 2
            acting="w1",
        )
        res = act(st, C.Move((hx("F15"),)), faces="O - - -")
        assert "need 1 (Tackle 2 − 2, −1 team-mate facing = −1, counts as 1)" in narrate(res.events, res.state)[0]

    def test_a_tackle_names_its_band(self):
        st = position(
            P("w1", "black-widows/hunters", "F14", "E"),
            P("e1", "black-widows/strikers", "G14", "W", ball=True),
            acting="w1",
        )
        st.players["w1"].name, st.players["e1"].name = "Hunter w1", "Striker e1"
        res = act(st, C.Tackle("e1"), faces="O O O -", d6="2")
        assert narrate(res.events, res.state) == [
            "Tackle — Hunter w1 on Striker e1, Tackle 4 dice, need 2 (Dodge 4 − 2): "
            "hit, hit, hit, blank → 3: success, 1 extra (Solid Hit)",
            "Striker e1 is Down (Solid Hit).",
            "Striker e1 drops the ball at G14.",
            "The ball scatters east from G14 to H14.",
            "The ball comes to rest at H14.",
        ]

    def test_a_bare_roll(self):
        roll = ChallengeRoll.roll(3, 1, ScriptedDice("* O X -"))
        assert describe_roll(roll) == "star > blank, hit, flop → 1: success"
        assert describe_roll(roll.to_dict()) == describe_roll(roll)


class TestMatchEvents:
    def test_a_flop_shifts_momentum(self):
        res = act(disengage_position((2, "west")), C.Move((hx("F13"),)), faces="X X - -")
        assert narrate(res.events, res.state)[1:] == [
            "Dryad w1 is Dazed (failed to Disengage).",
            "Dryad w1's action ends with a Shift in Momentum.",
            "Shift in Momentum (flopped disengage): East takes over 2 counters.",
        ]

    def test_a_goal(self):
        st = position(P("w1", "black-widows/strikers", "S12", "E", ball=True), acting="w1")
        st.players["w1"].name = "Striker w1"
        st = act(st, C.Move((hx("T12"),))).state
        res = act(st, C.EndAction())
        assert narrate(res.events, res.state) == [
            "Striker w1's action ends.",
            "GOAL! Striker w1 scores for West: West 1 – 0 East.",
            "Match over: West wins (goal).",
        ]


class TestQuestions:
    def test_momentum_on_own_roll(self):
        res = apply(disengage_position((2, "west")), C.Move((hx("F13"),)), ScriptedDice("X - O O"), by="west")
        q = res.state.in_progress.question
        assert describe_question(q, res.state) == (
            "West: spend Momentum to re-roll dice of Dryad w1's Disengage? eligible dice 0 (flop), 1 (blank), "
            "2 (hit), 3 (hit); up to 2 counters — rolled flop, blank, hit, hit → 1, "
            "need 2 (Tackle 3 − 2, +1 more opponent facing)"
        )

    def test_interceptor_and_catch(self):
        st = position(P("e2", "black-widows/hunters", "E13"), P("e3", "black-widows/midfielders", "F13"))
        q = {"kind": "interceptor", "side": "east", "options": ["e2", "e3", None], "default": None}
        assert describe_question(q, st) == "East: choose an interceptor: Hunter e2, Midfielder e3, or none"
        st.players["e2"].name = "Hunter #2"
        assert describe_question(q, st).startswith("East: choose an interceptor: e2 Hunter #2, Midfielder e3")
        q = {"kind": "catch", "side": "east", "player": "e3", "options": ["catch", "decline"], "default": "catch"}
        assert describe_question(q, st) == "East: Midfielder e3 may catch the ball: catch or decline?"

    def test_force_reroll(self):
        roll = ChallengeRoll.roll(2, Need(2, (Modifier("1 opponent facing", 1),)), ScriptedDice("O O"))
        q = {"kind": "force_reroll", "side": "west", "player": "e3", "challenge": "intercept", "roll": roll.to_dict(),
             "eligible": [0, 1], "max": 1, "default": []}
        assert describe_question(q) == (
            "West: spend Momentum to force a re-roll of dice of e3's Intercept? eligible dice 0 (hit), 1 (hit); "
            "up to 1 counter — rolled hit, hit → 2, need 3 (base 2, +1 1 opponent facing)"
        )


# --- every event type ---------------------------------------------------------------------
_ROLL = ChallengeRoll.roll(2, Need(1), ScriptedDice("O X")).to_dict()
H, H2 = Hex(0, 0), Hex(1, 0)

SAMPLES: dict[str, list[E.Event]] = {
    "match_started": [E.MatchStarted("Elves", "Dwarves", 1), E.MatchStarted("Elves", "Dwarves", 2),
                      E.MatchStarted("Elves", "Dwarves", 0)],
    "dice_off_rolled": [E.DiceOffRolled(((3, 3), (2, 5)), "west")],
    "test_started": [E.TestStarted(2, "east")],
    "goal_scored": [E.GoalScored("east", "e1", (0, 1))],
    "test_lost": [E.TestLost("west", (0, 1))],
    "match_ended": [E.MatchEnded("west", "goal"), E.MatchEnded("draw", "no face-off")],
    "conceded": [E.Conceded("west")],
    "player_placed": [E.PlayerPlaced("w1", H, "NE")],
    "player_unplaced": [E.PlayerUnplaced("w1")],
    "setup_completed": [E.SetupCompleted("east")],
    "faceoff_rolled": [E.FaceoffRolled("w1", "e1", _ROLL, _ROLL, r) for r in ("west", "east", "tie", "both_flopped")],
    "faceoff_won": [E.FaceoffWon("west", "w1", 0), E.FaceoffWon("east", "e1", 2)],
    "recovered": [E.Recovered("w2")],
    "action_started": [E.ActionStarted("w1", 5)],
    "action_ended": [E.ActionEnded("w1", False), E.ActionEnded("w1", True)],
    "turn_passed": [E.TurnPassed("west", "no player on the field")],
    "second_action": [E.SecondAction("west", "w1")],
    "card_drawn": [E.CardDrawn("west", "plain", 40, 0), E.CardDrawn("east", "joker", 12, 3), E.CardDrawn("west", "face", 3, 1)],
    "replacement_made": [E.ReplacementMade("w3", H)],
    "player_moved": [E.PlayerMoved("w1", H, H2, 3), E.PlayerMoved("w1", H, H2, None)],
    "player_turned": [E.PlayerTurned("w1", "SW")],
    "player_stood_up": [E.PlayerStoodUp("w1", 2, 1)],
    "player_fell": [E.PlayerFell("w1", "down", "Solid Hit"), E.PlayerFell("w1", "dazed", "flop")],
    "player_shoved": [E.PlayerShoved("e1", H, H2), E.PlayerShoved("e1", H, None)],
    "player_removed": [E.PlayerRemoved("e1", loc, "injured") for loc in ("bench", "sent_off", "recovery", "infirmary", "ejected")],
    "challenge_rolled": [
        E.ChallengeRolled(c, "w1", a, _ROLL, "exact", 1, 0, target="e1" if c in ("tackle", "shove", "impact") else None,
                          result="done")
        for c, a in (("pickup", "skill"), ("tackle", "tackle"), ("shove", "might"), ("impact", "might"),
                     ("disengage", "dodge"), ("dash", "momentum"), ("injury", "grit as 6"), ("throw", "skill"))
    ],
    "dash_granted": [E.DashGranted("w1")],
    "momentum_gained": [E.MomentumGained("west", 2, 3, "shove"), E.MomentumGained("west", 1, 1, "face-off against a stronger player")],
    "momentum_spent": [E.MomentumSpent("west", 1, 0, "Dash")],
    "momentum_shifted": [E.MomentumShifted("east", 0, "flopped pickup"), E.MomentumShifted("east", 1, "failed Dash")],
    "momentum_reset": [E.MomentumReset("west"), E.MomentumReset(None)],
    "ball_thrown": [E.BallThrown("w1", H2, 4, False, H2), E.BallThrown("w1", H2, 9, True, H)],
    "ball_scattered": [E.BallScattered(H, "W", H2)],
    "ball_stopped_by_line": [E.BallStoppedByLine(H)],
    "ball_bounced": [E.BallBounced(H, "E", 3, H2), E.BallBounced(H, "E", 1, H2, ("W", "NW"))],
    "ball_landed": [E.BallLanded(H)],
    "ball_picked_up": [E.BallPickedUp("w1")],
    "ball_caught": [E.BallCaught("w1", how) for how in ("catch", "automatic", "perfect spiral", "interception",
                                                        "handed by the referee", "something new")],
    "ball_dropped": [E.BallDropped("w1", H)],
    "catch_declined": [E.CatchDeclined("w1")],
    "interception_declined": [E.InterceptionDeclined("east", ("e1", "e2"))],
    "ball_to_centre": [E.BallToCentre(H, "referee")],
    "ability_used": [E.AbilityUsed("w1", "agile", "reroll"), E.AbilityUsed("w1", "cutblock", "no_impact", "e2")],
    "support_used": [E.SupportUsed("west", "cheerleaders", None, 3), E.SupportUsed("east", "kegs", "e2", 1)],
    "referee_check": [E.RefereeCheck("west", "impcrusher", "O", False), E.RefereeCheck("west", "bribe_goal_hex", "X", True, ("w1",))],
    "experience_gained": [E.ExperienceGained("west", ("w1", "w2"), 1, "goal")],
    "injury_recorded": [E.InjuryRecorded("w1", "career_ending"), E.InjuryRecorded("w1", "lasting", ("might", "tackle"))],
    "potion_drunk": [E.PotionDrunk("w1", ("X", "X"), "dies"), E.PotionDrunk("w1", ("-", "O"), "boost", ("agile",))],
    "spell_cast": [E.SpellCast("west", "system_shock", "e2"), E.SpellCast("east", "inferno", None, H)],
    "player_transformed": [E.PlayerTransformed("w1", "giant_frog"), E.PlayerTransformed("w1", "himself")],
    "taunted": [E.Taunted("w1", "e2", "E"), E.Taunted("w1", "e2", None)],
}


def test_every_event_type_has_a_sample_and_a_narration_branch():
    assert set(SAMPLES) == set(E.EVENT_TYPES)
    assert HANDLED_KINDS == set(E.EVENT_TYPES)


@pytest.mark.parametrize("kind", sorted(E.EVENT_TYPES))
def test_every_event_reads_as_a_sentence(kind):
    st = position(P("w1", "timberline-elves/dryads", "F14"), P("e1", "black-widows/strikers", "G14"))
    for event in SAMPLES[kind]:
        assert isinstance(event, E.EVENT_TYPES[kind])
        for s in (st, None):  # without a state, players are named by id
            text = describe(event, s)
            assert text and "{" not in text and "None" not in text, text


def test_player_names_come_from_the_state():
    st = position(P("w1", "timberline-elves/dryads", "F14"))
    assert describe(E.BallPickedUp("w1"), st) == "Dryad w1 picks up the ball."
    assert describe(E.BallPickedUp("w1")) == "w1 picks up the ball."


def test_another_catalogue_changes_the_words_not_the_code():
    fr = Narrator({"event.ball_picked_up": "{player} ramasse le ballon.", "face.O": "cible"})
    assert fr.describe(E.BallPickedUp("w1")) == "w1 ramasse le ballon."
    assert fr.faces(ChallengeRoll.roll(1, 1, ScriptedDice("O"))) == "cible"
    assert set(TEXT) <= set(fr.text)


def test_templates_are_all_formattable():
    n = Narrator()
    for key, template in TEXT.items():
        assert template.count("{") == template.count("}"), key
    assert n.count("dice", 1) == "1 die" and n.count("dice", 3) == "3 dice"
