"""Abilities that change dice, modifiers and the ball (Advanced rules, pp. 12-14), scripted dice.

Re-rolls (Steady, Buff, Grapple, Nimble, Agile, Resilient) come right after the roll and before
any Momentum, once per action each, and may rescue a flop (G26). Slippery and Focused ignore one
opposing player's modifier; Helping Hand gives -1 without facing (G42); Cover and Everlasting
forbid forced re-rolls; Rally and Rugged cheapen standing up; Reach widens interceptions;
Bankshot steers a throw's bounce off a line; Scramble allows a long throw after moving (+1);
Bullet and Hotdog double Momentum; a Pick-up arms Burst.
"""

from __future__ import annotations

import pytest
from support.builders import F, P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.abilities.rerolls import offer_ability_reroll, reroll_ability
from engine.abilities.slippery import ignore_one_opponent
from ai import AICoach
from engine.challenges.base import Spec
from engine.context import Ctx, NeedAnswer
from engine.dice import ChallengeRoll, Modifier, Need, ScriptedDice
from engine.hexes import Direction, distance
from engine.legal import legal_commands
from engine.narrate import describe_question
from engine.state import Location, Phase, Status

G12, H12, D12 = hx("G12"), hx("H12"), hx("D12")
FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")  # so east has somebody to act after a SiM


def near(label: str, d: Direction) -> str:
    """The label of the hex next to ``label`` in direction ``d``."""
    return F.format(hx(label).neighbour(d))


def mods(roll: dict) -> dict[str, int]:
    return {m["label"]: m["value"] for m in roll["roll"]["need"]["modifiers"]}


def question(res) -> dict:
    assert res.state.in_progress is not None, "a question was expected"
    return res.state.in_progress.question


def replaced(roll: dict) -> list[str]:
    return [d.get("reason") for d in roll["roll"]["dice"] if d["origin"] == "replacement"]


def used(res) -> list[tuple[str, str, str]]:
    return [(e["player"], e["ability"], e["effect"]) for e in events(res, "ability_used")]


def carrier(*abilities: str, at: str = "G12", facing: str = "W", momentum=(0, None), extra=(), **flags):
    """West's Striker ``w1`` (Jog 6, Skill 4, Dodge 4) holding the ball, acting."""
    return position(P("w1", "gnolls/strikers", at, facing, ball=True, abilities=abilities), FAR_EAST, *extra,
                    acting="w1", momentum=momentum, **flags)


def picker(*abilities: str, extra=(), momentum=(0, None)):
    """West's Striker ``w1`` at G12, the ball on H12 next to him."""
    return position(P("w1", "gnolls/strikers", "G12", "E", abilities=abilities), FAR_EAST, *extra,
                    ball="H12", acting="w1", momentum=momentum)


def contact(attacker: str = "gnolls/hunters", target: str = "gnolls/strikers", *extra: P, attacker_abilities=(),
            target_abilities=(), momentum=(0, None)):
    """West's ``w1`` at G12 facing E, acting; east's ``e1`` at H12 facing him, with the ball."""
    return position(P("w1", attacker, "G12", "E", abilities=attacker_abilities),
                    P("e1", target, "H12", "W", ball=True, abilities=target_abilities), FAR_EAST, *extra,
                    acting="w1", momentum=momentum)


# -- re-roll abilities ---------------------------------------------------------------------------


class TestWhichRerollAbility:
    @pytest.mark.parametrize(
        ("challenge", "attribute", "ability"),
        [("dash", "momentum", "steady"), ("dash", "jog", "steady"), ("impact", "might", "buff"),
         ("shove", "might", "buff"), ("tackle", "tackle", "grapple"), ("tackle", "might", "buff"),
         ("disengage", "dodge", "nimble"), ("impact", "dodge", "nimble"), ("pickup", "skill", "agile"),
         ("intercept", "skill", "agile"), ("injury", "grit", "resilient"), ("injury", "grit as 6", "resilient"),
         ("taunt", "momentum", None)],
    )
    def test_the_spec_decides(self, challenge, attribute, ability):
        """Steady goes with the Dash whatever it rolls (a Sprinter rolls Jog dice); the others
        with the attribute; a Punishing Hit is still a Grit challenge."""
        assert reroll_ability(Spec(challenge, "w1", attribute, 3, Need(1))) == ability


class TestAgile:
    def test_it_rescues_a_flopped_pick_up(self):
        """G26: ability replacements come before the flop test."""
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -", pending=True)
        q = question(res)
        assert (q["kind"], q["side"], q["player"], q["ability"], q["challenge"]) == (
            "ability_reroll", "west", "w1", "agile", "pickup")
        assert (q["eligible"], q["max"], q["default"]) == ([0, 1, 2, 3], 1, [])
        assert ChallengeRoll.from_dict(q["roll"]).flopped
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -  O", answers=[[0]])
        (pu,) = rolls(res, "pickup")
        assert pu["band"] == "exact" and replaced(pu) == ["ability"]
        assert used(res) == [("w1", "agile", "reroll")]
        st = res.state
        assert st.ball.carrier == "w1" and st.phase is Phase.ACTION and "w1:agile" in st.once

    def test_declined_it_stays_available(self):
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -", d6="2", answers=[[]])
        assert rolls(res, "pickup")[0]["band"] == "flop" and not used(res)
        assert res.state.players["w1"].status is Status.DOWN and res.state.turn_side == "east"

    def test_once_per_action(self):
        st = picker("agile", extra=(P("w2", "gnolls/midfielders", "E12", "E"),))
        st = act(st, C.Move((H12,)), faces="- - - -  O", answers=[[0]]).state
        assert st.ball.carrier == "w1"
        # The throw in the same action: no second Agile question.
        res = act(st, C.Throw(hx("E12")), faces="- - - -", d6="1 1")
        assert rolls(res, "throw")[0]["band"] == "failure" and not used(res)

    def test_the_next_action_may_use_it_again(self):
        st = picker("agile")
        st.once = ["w1:agile"]
        st = act(st, C.EndAction()).state
        assert st.once == []

    def test_no_question_without_the_ability(self):
        res = act(picker(), C.Move((H12,)), faces="O - - -")
        assert rolls(res, "pickup")[0]["band"] == "exact"

    def test_before_the_momentum_offer(self):
        res = act(picker("agile", momentum=(2, "west")), C.Move((H12,)), faces="X - - -  -", answers=[[0]],
                  pending=True)
        q = question(res)
        assert q["kind"] == "reroll"  # the counters come after the ability
        assert q["eligible"] == [1, 2, 3]  # the replacement die is not replaced again


class TestOtherRerolls:
    def test_steady_on_a_dash(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("steady",)), FAR_EAST, acting="w1",
                      momentum=(1, "west"))
        res = act(st, C.Dash(1), faces="X  O", answers=[[0]])
        (da,) = rolls(res, "dash")
        assert da["band"] == "exact" and replaced(da) == ["ability"]
        assert res.state.action.dash == "granted" and used(res) == [("w1", "steady", "reroll")]

    def test_buff_on_a_shove(self):
        st = contact("gnolls/midfielders", attacker_abilities=("buff",))
        res = act(st, C.Shove("e1"), faces="X - -  O", answers=[[0]])
        (sh,) = rolls(res, "shove")
        assert sh["band"] == "exact" and events(res, "player_shoved")
        assert used(res) == [("w1", "buff", "reroll")]

    def test_grapple_on_a_tackle(self):
        st = contact(attacker_abilities=("grapple",))
        res = act(st, C.Tackle("e1"), faces="O - - -  O", d6="1", answers=[[1]])  # the carrier drops it
        (tk,) = rolls(res, "tackle")
        assert tk["result"] == "Slide Tackle" and used(res) == [("w1", "grapple", "reroll")]

    def test_grapple_is_not_buff(self):
        """A Might roll is not a Tackle roll: Grapple gives nothing on the Shove."""
        st = contact("gnolls/midfielders", attacker_abilities=("grapple",))
        res = act(st, C.Shove("e1"), faces="- - -")
        assert rolls(res, "shove")[0]["band"] == "failure"

    def test_nimble_on_a_disengage(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("nimble",)),
                      P("e1", "gnolls/hunters", "H12", "W"), FAR_EAST, acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O - - -  O", answers=[[1]])
        (de,) = rolls(res, "disengage")
        assert de["band"] == "exact" and res.state.players["w1"].hex == hx("F12")
        assert used(res) == [("w1", "nimble", "reroll")]

    def test_resilient_is_asked_of_the_injured_players_coach(self):
        """Punishing Hit: Injury at Grit 6, during west's action; east's coach decides."""
        st = contact(target_abilities=("resilient",))
        res = act(st, C.Tackle("e1"), faces="O O O O  X O O - - -", pending=True)
        q = question(res)
        assert (q["kind"], q["side"], q["player"], q["ability"], q["challenge"]) == (
            "ability_reroll", "east", "e1", "resilient", "injury")
        res = act(st, C.Tackle("e1"), faces="O O O O  X O O - - -  O", d6="1", answers=[[0]])
        (inj,) = rolls(res, "injury")
        assert inj["net"] == 3 and replaced(inj) == ["ability"]
        assert res.state.players["e1"].location is Location.SENT_OFF  # not the Infirmary
        assert "e1:resilient" in res.state.once

    def test_resilient_once_per_any_players_action(self):
        st = contact(target_abilities=("resilient",))
        spec = Spec("injury", "e1", "grit as 6", 6, Need(1))
        roll = ChallengeRoll.roll(6, Need(1), ScriptedDice(faces="X X - - - -"))
        with pytest.raises(NeedAnswer):
            offer_ability_reroll(Ctx(st, ScriptedDice()), spec, roll)
        st.once.append("e1:resilient")
        assert offer_ability_reroll(Ctx(st, ScriptedDice()), spec, roll) is roll

    def test_no_player_no_question(self):
        """The Hired Gun Wizard's rolls have no player behind them."""
        st = contact()
        roll = ChallengeRoll.roll(2, Need(1), ScriptedDice(faces="X -"))
        assert offer_ability_reroll(Ctx(st, ScriptedDice()), Spec("inferno", "wizard", "might", 2, Need(1)), roll) is roll


class TestBuffInTheFaceoff:
    def position(self, west=("buff",), east=()):
        st = position(
            P("w1", "gnolls/midfielders", "J12", "E", abilities=west), P("w2", "gnolls/midfielders", "D12", "E"),
            P("e1", "gnolls/midfielders", "L12", "W", abilities=east), P("e2", "gnolls/midfielders", "R12", "W"),
            phase=Phase.SETUP,
        )
        st.setup_side, st.first_setup_side = "east", "west"
        return st

    def test_buff_rescues_a_flopped_faceoff_and_again_after_a_tie(self):
        st = self.position()
        res = act(st, C.SetupDone(), faces="X - -  O - -", by="east", pending=True)
        q = question(res)
        assert (q["kind"], q["side"], q["player"], q["ability"], q["challenge"]) == (
            "ability_reroll", "west", "w1", "buff", "faceoff")
        # Die 0 again: O, a tie at 1; the tie is a new face-off roll, so Buff is offered again.
        res = act(st, C.SetupDone(), faces="X - -  O - -  O   O - -  O - -  O", by="east", answers=[[0], [1]])
        assert [f["result"] for f in events(res, "faceoff_rolled")] == ["tie", "west"]
        assert used(res) == [("w1", "buff", "reroll")] * 2
        assert res.state.faceoff_winner == "west"

    def test_west_first_then_east(self):
        res = act(self.position(east=("buff",)), C.SetupDone(), faces="- - -  - - -  O  O   O - -  - - -", by="east",
                  answers=[[0], [0], [], []])
        assert used(res) == [("w1", "buff", "reroll"), ("e1", "buff", "reroll")]
        assert [f["result"] for f in events(res, "faceoff_rolled")] == ["tie", "west"]
        res = act(self.position(east=("buff",)), C.SetupDone(), faces="- - -  - - -  O", by="east",
                  answers=[[0], []])
        assert res.state.faceoff_winner == "west"

    def test_without_buff_no_question(self):
        res = act(self.position(west=()), C.SetupDone(), faces="O - -  - - -", by="east")
        assert res.state.faceoff_winner == "west"


# -- modifiers --------------------------------------------------------------------------------------


class TestFocused:
    def test_one_opponent_facing_is_ignored(self):
        e1 = P("e1", "gnolls/midfielders", near("G12", Direction.E), "W")
        e2 = P("e2", "gnolls/midfielders", near("G12", Direction.NE), "SW")
        res = act(carrier("focused", extra=(e1, e2)), C.Throw(D12), faces="O - - -", d6="1 1")
        (th,) = rolls(res, "throw")
        assert mods(th) == {"opponents facing": 2, "Focused: one opponent ignored": -1}
        assert need_of(th) == 2

    def test_nothing_to_ignore(self):
        res = act(carrier("focused"), C.Throw(D12), faces="O - - -")
        assert mods(rolls(res, "throw")[0]) == {}

    def test_without_focused(self):
        e1 = P("e1", "gnolls/midfielders", near("G12", Direction.E), "W")
        res = act(carrier(extra=(e1,)), C.Throw(D12), faces="O - - -", d6="1 1")
        assert mods(rolls(res, "throw")[0]) == {"opponent facing": 1}


class TestSlippery:
    def test_ignore_one_opponent(self):
        need = Need(2, (Modifier("team-mate facing", -1), Modifier("2 more opponents facing", 2)))
        assert ignore_one_opponent(need).unclamped == 2
        assert ignore_one_opponent(Need(2, (Modifier("from the rear", -1),))) == Need(2, (Modifier("from the rear", -1),))

    def test_one_of_several_opponents_is_ignored(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("slippery",)),
                      P("e1", "gnolls/hunters", "H12", "W"), P("e2", "gnolls/hunters", near("G12", Direction.NE), "SW"),
                      FAR_EAST, acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O O - -")
        (de,) = rolls(res, "disengage")
        assert mods(de) == {"more opponent facing": 1, "Slippery: one opponent ignored": -1}
        assert need_of(de) == 2 and de["band"] == "exact"

    def test_auto_success_when_the_need_is_zero_or_less(self):
        """Tackle 2 - 2 = 0 "before it is normally increased to the one success required"."""
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("slippery",)),
                      P("e1", "gnolls/strikers", "H12", "W"), P("e2", "gnolls/strikers", near("G12", Direction.NE), "SW"),
                      FAR_EAST, acting="w1")
        res = act(st, C.Move((hx("F12"),)))
        assert not rolls(res) and used(res) == [("w1", "slippery", "auto_disengage")]
        assert res.state.players["w1"].hex == hx("F12")

    def test_without_slippery_he_rolls(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "H12", "W"), FAR_EAST,
                      acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O - - -")
        assert need_of(rolls(res, "disengage")[0]) == 1

    def test_a_lone_tackler_is_the_challenge_not_a_modifier(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("slippery",)),
                      P("e1", "gnolls/hunters", "H12", "W"), FAR_EAST, acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O O - -")
        assert mods(rolls(res, "disengage")[0]) == {}


class TestHelpingHand:
    def test_an_adjacent_helper_not_facing_gives_minus_one(self):
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.NE), "NE", abilities=("helping-hand",))
        res = act(carrier(extra=(w2,)), C.Throw(D12), faces="O - - -")
        assert mods(rolls(res, "throw")[0]) == {"Helping Hand": -1}

    def test_not_counted_twice_when_facing(self):
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.NE), "SW", abilities=("helping-hand",))
        res = act(carrier(extra=(w2,)), C.Throw(D12), faces="O - - -")
        assert mods(rolls(res, "throw")[0]) == {"team-mate facing": -1}

    def test_a_down_helper_does_not_help(self):
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.NE), "NE", status="down", abilities=("helping-hand",))
        res = act(carrier(extra=(w2,)), C.Throw(D12), faces="O - - -")
        assert mods(rolls(res, "throw")[0]) == {}

    def test_on_a_disengage(self):
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.W), "W", abilities=("helping-hand",))
        st = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/hunters", "H12", "W"), w2, FAR_EAST,
                      acting="w1")
        res = act(st, C.Move((hx(near("G12", Direction.SW)),)), faces="O - - -")
        assert mods(rolls(res, "disengage")[0]) == {"Helping Hand": -1}

    def test_contact_a_helper_next_to_the_attacker(self):
        """G42: adjacent to the acting team-mate, whoever he faces."""
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.W), "W", abilities=("helping-hand",))
        res = act(contact("gnolls/hunters", "gnolls/strikers", w2), C.Tackle("e1"), faces="- - - -")
        assert mods(rolls(res, "tackle")[0]) == {"Helping Hand": -1}

    def test_contact_not_counted_twice(self):
        """Next to both and facing the target: the ordinary -1 only."""
        w2 = P("w2", "gnolls/midfielders", near("G12", Direction.NE), "SE", abilities=("helping-hand",))
        res = act(contact("gnolls/hunters", "gnolls/strikers", w2), C.Tackle("e1"), faces="- - - -")
        assert mods(rolls(res, "tackle")[0]) == {"team-mate facing the target": -1}

    def test_contact_a_helper_next_to_the_target_only_needs_to_face_him(self):
        w2 = P("w2", "gnolls/midfielders", near("H12", Direction.E), "E", abilities=("helping-hand",))
        res = act(contact("gnolls/hunters", "gnolls/strikers", w2), C.Tackle("e1"), faces="- - - -")
        assert mods(rolls(res, "tackle")[0]) == {}


class TestNoForcedRerolls:
    def lane(self, *abilities: str):
        e1 = P("e1", "gnolls/strikers", "E12", "NE", abilities=abilities)
        return carrier(extra=(P("w2", "gnolls/midfielders", "D12", "W"), e1), momentum=(1, "west"))

    def test_cover_forbids_forcing_a_re_roll_of_his_interception(self):
        res = act(self.lane("cover"), C.Throw(D12), faces="O - - -  O O - -", answers=[[], "e1"])
        assert res.state.ball.carrier == "e1" and res.state.momentum == 1

    def test_without_cover_the_thrower_may_force_one(self):
        res = act(self.lane(), C.Throw(D12), faces="O - - -  O O - -", answers=[[], "e1"], pending=True)
        assert question(res)["kind"] == "force_reroll"


# -- standing up ----------------------------------------------------------------------------------


class TestStandingUp:
    @pytest.mark.parametrize(
        ("status", "abilities", "cost", "effects"),
        [("dazed", (), 6, []), ("dazed", ("rally",), 3, ["rally"]), ("down", ("rally",), 3, []),
         ("down", ("rugged",), 2, ["rugged"]), ("dazed", ("rally", "rugged"), 2, ["rally", "rugged"])],
    )
    def test_the_cost(self, status, abilities, cost, effects):
        """Striker, Grit 2: 5 - Grit from Down, 8 - Grit from Dazed; Rally stands from Dazed as
        if Down; Rugged counts Grit one higher."""
        st = position(P("w1", "gnolls/strikers", "G12", "E", status=status, abilities=abilities), FAR_EAST,
                      acting="w1", jog=6)
        res = act(st, C.StandUp())
        assert res.state.action.jog_left == 6 - cost
        assert [a for _, a, _ in used(res)] == effects

    def test_rugged_saves_nothing_at_zero(self):
        st = position(P("w1", "gnolls/midfielders", "G12", "E", status="down", abilities=("rugged",),
                        attributes={"grit": 6}), FAR_EAST, acting="w1", jog=6)
        res = act(st, C.StandUp())
        assert res.state.action.jog_left == 6 and not used(res)

    def test_rally_makes_a_stand_affordable(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", status="dazed"), FAR_EAST, acting="w1", jog=4)
        refused(st, C.StandUp(), match="costs 6")
        st.players["w1"].abilities = ("rally",)
        assert act(st, C.StandUp()).state.players["w1"].standing


# -- the ball -------------------------------------------------------------------------------------


class TestReach:
    def lane(self, *extra: P):
        # The string from G12 to D12 touches G12, F12, E12 and D12.
        return carrier(extra=(P("w2", "gnolls/midfielders", "D12", "W"), *extra))

    def test_next_to_the_string(self):
        e2 = P("e2", "gnolls/strikers", "E11", "SE", abilities=("reach",))
        res = act(self.lane(e2), C.Throw(D12), faces="O O - -", pending=True)
        assert question(res)["options"] == ["e2", None]

    def test_next_to_the_throwers_hex(self):
        h = next(n for n in G12.neighbours() if distance(n, hx("F12")) > 1)
        e2 = P("e2", "gnolls/strikers", F.format(h), "E", abilities=("reach",))
        res = act(self.lane(e2), C.Throw(D12), faces="O O - -", pending=True)
        assert question(res)["options"] == ["e2", None]

    def test_without_reach_only_under_the_string(self):
        e2 = P("e2", "gnolls/strikers", "E11", "SE")
        res = act(self.lane(e2), C.Throw(D12), faces="O O - -")
        assert res.state.ball.carrier == "w2"

    def test_not_too_far(self):
        e2 = P("e2", "gnolls/strikers", "E10", "SE", abilities=("reach",))
        res = act(self.lane(e2), C.Throw(D12), faces="O O - -")
        assert res.state.ball.carrier == "w2"

    def test_the_interception_is_his_usual_skill_challenge(self):
        e2 = P("e2", "gnolls/strikers", "E11", "SE", abilities=("reach",))
        res = act(self.lane(e2), C.Throw(D12), faces="O O - -  O O - -", answers=["e2", []])
        assert res.state.ball.carrier == "e2" and need_of(rolls(res, "intercept")[0]) == 2


class TestBankshot:
    """F7 -> M7: the throw stops on the centre line at J7. Without Bankshot the bounce is rolled;
    from J7, NW runs J6 I5 I4 H3 into the outer line at H2, where it bounces again."""

    def test_he_chooses_the_direction_and_the_distance(self):
        st = carrier("bankshot", at="F7", facing="E", extra=(P("w2", "gnolls/midfielders", "I9", "E"),))
        res = act(st, C.Throw(hx("M7")), faces="O O O O", pending=True)
        q = question(res)
        assert (q["kind"], q["side"], q["player"], q["hex"], q["default"]) == (
            "bankshot_direction", "west", "w1", "J7", None)
        assert q["options"] == ["SW", "W", "NW", None]
        res = act(st, C.Throw(hx("M7")), faces="O O O O", d6="1", answers=["SW"], pending=True)
        q = question(res)
        assert (q["kind"], q["rolled"], q["options"], q["default"]) == ("bankshot_distance", 1, [0, 1], 0)
        # SW 2 hexes: J8, I9 — w2's hex; a perfect spiral is caught "even if bounced off a line".
        res = act(st, C.Throw(hx("M7")), faces="O O O O", d6="1", answers=["SW", 1])
        (b,) = events(res, "ball_bounced")
        assert (b["direction"], b["distance"]) == ("SW", 2)
        assert res.state.ball.carrier == "w2" and res.state.phase is Phase.ACTION
        assert [e for _, _, e in used(res)] == ["bounce_direction", "bounce_distance"]

    def test_rolled_as_usual_if_he_lets_it(self):
        st = carrier("bankshot", at="F7", facing="E")
        res = act(st, C.Throw(hx("M7")), faces="O O O O", d6="5 3", answers=[None, -1])
        (b,) = events(res, "ball_bounced")
        assert (b["direction"], b["distance"]) == ("W", 2)
        assert res.state.ball.hex == hx("H7") and [e for _, _, e in used(res)] == ["bounce_distance"]

    def test_only_the_first_line(self):
        st = carrier("bankshot", at="F7", facing="E")
        # NW 5 reaches the outer line at H2: that bounce is rolled (D6 direction, D6 hexes).
        res = act(st, C.Throw(hx("M7")), faces="O O O O", d6="5  3 1", answers=["NW", 0])
        bounces = events(res, "ball_bounced")
        assert [(b["direction"], b["origin"]) for b in bounces][0] == ("NW", list(hx("J7")))
        assert len(bounces) == 2 and bounces[1]["origin"] == list(hx("H2"))

    def test_a_failed_catch_on_the_line(self):
        """A team-mate standing on the line tries to catch first; then the ball bounces off it."""
        st = carrier("bankshot", at="F7", facing="E", extra=(P("w2", "gnolls/midfielders", "J7", "W"),))
        res = act(st, C.Throw(hx("J7")), faces="O O O -  - - -", d6="2", answers=["catch", "W", 0])  # wobbly, dropped
        assert res.state.ball.hex == hx("H7") and [e for _, _, e in used(res)] == ["bounce_direction"]

    def test_not_a_scatter(self):
        st = carrier("bankshot", at="F7", facing="E")
        res = act(st, C.Throw(hx("M7")), faces="X - - -", d6="2")
        assert not used(res) and res.state.turn_side == "east"

    def test_without_bankshot(self):
        st = carrier(at="F7", facing="E")
        res = act(st, C.Throw(hx("M7")), faces="O O O O", d6="5 2")
        assert res.state.ball.hex == hx("H7")


class TestScramble:
    """F12 -> G4: eight hexes, no line on the way."""

    def moved(self, *abilities: str, extra=()):
        return act(carrier(*abilities, at="G12", extra=extra), C.Move((hx("F12"),))).state

    def test_a_long_throw_after_moving_needs_one_more(self):
        res = act(self.moved("scramble"), C.Throw(hx("G4")), faces="O O - -")
        (th,) = rolls(res, "throw")
        assert mods(th) == {"Scramble": 1} and need_of(th) == 2 and th["band"] == "exact"

    def test_nothing_may_follow_it(self):
        st = self.moved("scramble", extra=(P("w2", "gnolls/midfielders", "G4", "SE"),))
        st = act(st, C.Throw(hx("G4")), faces="O O O -").state  # a perfect spiral: caught
        assert st.ball.carrier == "w2" and st.phase is Phase.ACTION
        refused(st, C.Move((hx("E12"),)), match="7 or more")

    def test_a_stationary_long_throw_is_ordinary(self):
        res = act(carrier("scramble", at="F12"), C.Throw(hx("G4")), faces="O - - -")
        assert mods(rolls(res, "throw")[0]) == {}

    def test_without_scramble_refused(self):
        refused(self.moved(), C.Throw(hx("G4")), match="7 or more")


# -- Momentum ------------------------------------------------------------------------------------


class TestDoubleMomentum:
    def test_bullet(self):
        w2 = P("w2", "gnolls/midfielders", "D12", "W")
        res = act(carrier("bullet", extra=(w2,)), C.Throw(D12), faces="O O O -")
        st = res.state
        assert (st.momentum, st.momentum_side) == (4, "west")
        assert used(res) == [("w1", "bullet", "double_momentum")]

    def test_without_bullet(self):
        w2 = P("w2", "gnolls/midfielders", "D12", "W")
        assert act(carrier(extra=(w2,)), C.Throw(D12), faces="O O O -").state.momentum == 2

    def test_bullet_on_an_exact_throw_earns_nothing(self):
        w2 = P("w2", "gnolls/midfielders", "D12", "W")
        res = act(carrier("bullet", extra=(w2,)), C.Throw(D12), faces="O - - -  O O -", answers=["catch"])
        assert res.state.momentum == 0 and not used(res)

    def test_hotdog(self):
        st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("hotdog",)),
                      P("e1", "gnolls/strikers", "H12", "W"), FAR_EAST, acting="w1")
        res = act(st, C.Move((hx("F12"),)), faces="O O - -")
        assert res.state.momentum == 2 and used(res) == [("w1", "hotdog", "double_momentum")]

    def test_hotdog_is_not_for_throws(self):
        w2 = P("w2", "gnolls/midfielders", "D12", "W")
        assert act(carrier("hotdog", extra=(w2,)), C.Throw(D12), faces="O O O -").state.momentum == 2


class TestBurstTrigger:
    def test_a_pick_up_during_his_action(self):
        res = act(picker(), C.Move((H12,)), faces="O - - -")
        assert res.state.action.burst is True

    def test_a_failed_pick_up(self):
        res = act(picker(), C.Move((H12,)), faces="- - - -", d6="2")
        assert res.state.action is None or res.state.action.burst is False

    def test_not_by_moving(self):
        assert act(picker(), C.Move((hx("G11"),))).state.action.burst is False


# -- coaches, UI and AI ---------------------------------------------------------------------------


class TestQuestions:
    def test_candidate_answers(self):
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -", pending=True)
        answers = [c.value for c in legal_commands(res.state, "west") if isinstance(c, C.Answer)]
        assert answers == [(), (0,), (1,), (2,), (3,)]
        res = act(carrier("bankshot", at="F7", facing="E"), C.Throw(hx("M7")), faces="O O O O", d6="1",
                  answers=["SW"], pending=True)
        assert [c.value for c in legal_commands(res.state, "west") if isinstance(c, C.Answer)] == [0, 1]

    def test_the_ai_answers_without_falling_back(self):
        coach = AICoach()
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -", pending=True)
        assert coach.choose(res.state, "west") == C.Answer((0,))
        res = act(carrier("bankshot", at="F7", facing="E"), C.Throw(hx("M7")), faces="O O O O", pending=True)
        assert coach.choose(res.state, "west") == C.Answer(None)
        assert coach.fallbacks == 0

    def test_described(self):
        res = act(picker("agile"), C.Move((H12,)), faces="X - - -", pending=True)
        text = describe_question(question(res), res.state)
        assert text.startswith("West: use Agile to re-roll one die of ")
        assert "Pick-up" in text
        res = act(carrier("bankshot", at="F7", facing="E"), C.Throw(hx("M7")), faces="O O O O", pending=True)
        assert "J7" in describe_question(question(res), res.state)
        res = act(carrier("bankshot", at="F7", facing="E"), C.Throw(hx("M7")), faces="O O O O", d6="3",
                  answers=["SW"], pending=True)
        assert describe_question(question(res), res.state).endswith("rolled 3 hexes; change it by −1, +0, or +1?")


def test_the_step_preview_knows_a_slippery_player_rolls_nothing():
    from engine.preview import step_previews

    st = position(P("w1", "gnolls/strikers", "G12", "E", abilities=("slippery",)),
                  P("e1", "gnolls/strikers", "H12", "W"), FAR_EAST, acting="w1")
    assert step_previews(st, hx("F12")) == []
    st.players["w1"].abilities = ()
    assert [pv.challenge for pv in step_previews(st, hx("F12"))] == ["disengage"]


MINE = ("steady", "buff", "grapple", "nimble", "agile", "resilient", "slippery", "focused", "helping-hand", "cover",
        "rally", "rugged", "reach", "bankshot", "scramble", "bullet", "hotdog")


@pytest.mark.parametrize("seed", [3, 8])
def test_matches_with_these_abilities_keep_every_invariant(seed):
    """A random coach against the AI, every player with about half of these abilities."""
    import random

    from engine.dice import SeededDice
    from engine.fuzz import RandomCoach, invariant_violations
    from engine.match import PlayerEntry, TeamEntry, apply, new_match, pending
    from engine.rosters import all_team_lists, default_roster
    from engine.state import RuleOptions

    rng = random.Random(seed)

    def entry(team):
        roster = default_roster(team)
        n = sum(count for _, count in roster.entries)
        learned = [PlayerEntry(abilities=tuple(a for a in MINE if rng.random() < 0.5)) for _ in range(n)]
        return TeamEntry(team.name, roster, players=tuple(learned))

    w, e = rng.sample(all_team_lists(), 2)
    dice = SeededDice(seed)
    st = new_match(entry(w), entry(e), dice, options=RuleOptions(goals_to_win=1)).state
    ai = AICoach(rng=rng)
    coaches = {"west": RandomCoach(rng), "east": ai}
    asked = set()
    for _ in range(400):
        if st.phase is Phase.MATCH_OVER:
            break
        side = pending(st).side
        if st.in_progress is not None:
            asked.add(st.in_progress.question["kind"])
            describe_question(st.in_progress.question, st)
        st = apply(st, coaches[side].choose(st, side, F), dice, by=side).state
        assert invariant_violations(st) == []
    assert "ability_reroll" in asked and ai.fallbacks == 0
