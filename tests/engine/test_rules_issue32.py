"""Issue 32: a wobbly throw's receiver may decline the Catch, a Magic Potion does not undo the
referee, and Psycho's "(maximum of 6)" (docs/rules.md 7.4, 13.6, 11.5), with scripted dice.
The first two change what the engine did: rules edition 2 (a match stored before them) keeps the
old behaviour, so its replay still verifies."""

from __future__ import annotations

import pytest
from support.builders import F, P, events, hx, need_of, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.hexes import Direction
from engine.state import Location, MatchState, Phase, RuleOptions

E12, G12 = hx("E12"), hx("G12")
MIDFIELDER = "gnolls/midfielders"  # Might 3, Skill 3
EDITION_2 = RuleOptions(edition=2)


def thrower(*extra: P, at: str = "G12", facing: str = "W", options: RuleOptions | None = None) -> MatchState:
    """West's Striker ``w1`` (Skill 4) holding the ball, acting; an east player far away."""
    return position(P("w1", "gnolls/strikers", at, facing, ball=True), P("e9", MIDFIELDER, "Q17", "W"), *extra,
                    acting="w1", options=options)


class TestAWobblyThrowsReceiverMayDecline:
    """"A standing player who has a ball land in his hex from a wobbly throw or bouncing ball may
    attempt to perform a Catch challenge to catch the ball. A player can choose to automatically
    fail a catch roll in which case it will bounce 1 pace in a D6 direction from his position and
    is treated as a dropped ball." (Catching the Ball, p. 7)"""

    def wobbly(self, **kw) -> MatchState:
        # w2 two hexes from the thrower: not adjacent, so the wobbly pass needs a Catch roll.
        return thrower(P("w2", MIDFIELDER, "E12", "E"), **kw)

    def test_the_receiver_is_asked_and_his_catch_is_rolled(self):
        res = act(self.wobbly(), C.Throw(E12), faces="O - - -", pending=True)
        assert rolls(res, "throw")[0]["result"] == "a bit wobbly" and not rolls(res, "catch")
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["player"], q["options"], q["default"]) == (
            "catch", "west", "w2", ["catch", "decline"], "catch")
        res = act(self.wobbly(), C.Throw(E12), faces="O - - -  O O -", answers=["catch"])
        (ca,) = rolls(res, "catch")
        assert need_of(ca) == 2 and res.state.ball.carrier == "w2" and res.state.phase is Phase.ACTION

    def test_declining_bounces_it_one_pace_as_a_dropped_ball(self):
        # No Catch roll; the ball bounces D6 = 1 (NE) from E12 and no team-mate holds it: a SiM.
        res = act(self.wobbly(), C.Throw(E12), faces="O - - -", d6="1", answers=["decline"])
        assert events(res, "catch_declined") == [{"kind": "catch_declined", "player": "w2"}]
        assert not rolls(res, "catch")
        assert res.state.ball.hex == E12.neighbour(Direction.NE) and res.state.ball.carrier is None
        assert res.state.turn_side == "east"

    def test_on_a_white_line_a_declined_catch_bounces_off_the_line(self):
        """"if a player is standing in a white lined hex and the ball will land in that hex roll the
        Catch challenge first. If that fails the ball bounces off the white line" (p. 6)."""
        st = thrower(P("w2", MIDFIELDER, "J7", "W"), at="F7", facing="E")
        # 4 hexes: +2, needs 3; O O O - is exactly 3: wobbly. Declined: the line bounces it W for 2.
        res = act(st, C.Throw(hx("J7")), faces="O O O -", d6="5 2", answers=["decline"])
        assert events(res, "catch_declined") and not rolls(res, "catch")
        assert F.format(res.state.ball.hex) == "H7" and res.state.turn_side == "east"

    def test_no_roll_no_question(self):
        """A perfect spiral and a wobbly pass to a player next to the thrower are caught
        automatically: there is no catch roll to fail."""
        spiral = act(thrower(P("w2", MIDFIELDER, "E12", "E")), C.Throw(E12), faces="O O - -")
        adjacent = act(thrower(P("w2", MIDFIELDER, "F12", "E")), C.Throw(hx("F12")), faces="O - - -")
        for res in (spiral, adjacent):
            assert res.state.ball.carrier == "w2" and not rolls(res, "catch")

    def test_edition_2_rolled_the_catch_at_once(self):
        res = act(self.wobbly(options=EDITION_2), C.Throw(E12), faces="O - - -  O O -")
        assert len(rolls(res, "catch")) == 1 and res.state.ball.carrier == "w2"


class TestAPotionDoesNotUndoTheReferee:
    """Referee (p. 8): a player who enters the outer white line "is immediately forced to leave the
    playing field and sit on the Bench for the rest of the Test". Magic Potion Table (p. 11): "The
    player is fully cured of ANY injury he suffered previously this game. Place him in Bench area."
    A sending-off is not an injury: the potion does not end it."""

    def shoved_out(self, options: RuleOptions | None = None) -> MatchState:
        """East's e1 shoves w2 from C10 into the outer line (B10); then it is West's turn."""
        st = position(
            P("w1", MIDFIELDER, "G12", "E"), P("w2", MIDFIELDER, "C10", "E"), P("e1", MIDFIELDER, "D10", "W"),
            P("e2", MIDFIELDER, "N12", "W"), acting="e1", support={"west": {"potions": 1}}, options=options,
        )
        res = act(st, C.Shove("w2"), faces="O - -")
        assert [e["reason"] for e in events(res, "player_removed")] == ["entered the outer white line"]
        return act(res.state, C.EndAction(), by="east").state

    def test_cured_he_still_sits_out_the_test(self):
        st = self.shoved_out()
        assert st.referee_benched == ["w2"] and st.turn_side == "west"
        res = act(st, C.DrinkPotion("w2"), faces="* -", by="west")  # "healed": the Bench
        w2 = res.state.players["w2"]
        assert events(res, "potion_drunk")[0]["result"] == "healed"
        assert w2.potion_used and w2.location is Location.SENT_OFF
        refused(res.state, C.Replace("w2", hx("E5"), Direction.SE), by="west")

    def test_he_gains_what_the_row_gives(self):
        # "A bit of a boost ... gains one new Basic ability": the gain is not a cure.
        res = act(self.shoved_out(), C.DrinkPotion("w2"), faces="- O", by="west", answers=["agile"])
        w2 = res.state.players["w2"]
        assert w2.potion_abilities == ("agile",) and w2.location is Location.SENT_OFF

    def test_the_locked_up_row_still_puts_him_in_recovery(self):
        # "Due to weakness from the potion, he is placed in the Recovery area."
        res = act(self.shoved_out(), C.DrinkPotion("w2"), faces="- -", by="west")
        assert res.state.players["w2"].location is Location.RECOVERY

    def test_the_next_test_he_is_back(self):
        st = act(self.shoved_out(), C.DrinkPotion("w2"), faces="* -", by="west").state
        st.phase, st.last_scorer = Phase.TEST_OVER, "west"
        st = act(st, C.StartTest(), by="west").state
        assert st.players["w2"].location is Location.BENCH and st.referee_benched == []

    def test_a_goal_circle_hex_is_the_referee_too(self):
        st = position(P("w1", MIDFIELDER, "S12", "E"), P("e1", MIDFIELDER, "N12", "W"), acting="w1")
        res = act(st, C.Move((hx("T12"),)))
        assert res.state.players["w1"].location is Location.SENT_OFF and res.state.referee_benched == ["w1"]

    def test_after_a_real_injury_the_potion_still_cures(self):
        """Injury, 3 successes: "Player is placed on the Bench and must miss the rest of the Test"
        (p. 8): an injury, which the potion cures."""
        st = position(
            P("w1", MIDFIELDER, "G12", "E"), P("w2", MIDFIELDER, "J10", "E"), P("e1", "gnolls/hunters", "K10", "W"),
            P("e2", MIDFIELDER, "N12", "W"), acting="e1", support={"west": {"potions": 1}},
        )
        # A Punishing Hit (Tackle 4: O O O O, needs 2), then 6 Injury dice: 3 successes.
        res = act(st, C.Tackle("w2"), faces="O O O O  O O O - - -")
        assert res.state.players["w2"].location is Location.SENT_OFF and res.state.referee_benched == []
        st = act(res.state, C.EndAction(), by="east").state
        st = act(st, C.DrinkPotion("w2"), faces="* -", by="west").state
        assert st.players["w2"].location is Location.BENCH
        st = act(st, C.Replace("w2", hx("E5"), Direction.SE), by="west").state
        assert st.players["w2"].on_field

    def test_edition_2_brought_him_back(self):
        st = self.shoved_out(EDITION_2)
        assert st.referee_benched == []
        st = act(st, C.DrinkPotion("w2"), faces="* -", by="west").state
        assert st.players["w2"].location is Location.BENCH
        st = act(st, C.Replace("w2", hx("E5"), Direction.SE), by="west").state
        assert st.players["w2"].on_field


class TestPsychoShoveDice:
    """Psycho (p. 12): "He may also add 2 challenge dice to any Shove challenge he attempts
    (maximum of 6)." The cap bounds the dice he rolls with the bonus; the bonus is his to add, so
    a Might over 6 rolls its own dice (docs/rules.md 11.5)."""

    @pytest.mark.parametrize("might, dice", [(3, 5), (4, 6), (5, 6), (6, 6), (7, 7)])
    def test_his_shove_dice(self, might, dice):
        st = position(P("w1", MIDFIELDER, "G12", "E", abilities=("psycho",), attributes={"might": might}),
                      P("e1", MIDFIELDER, "H12", "W"), acting="w1")
        res = act(st, C.Shove("e1"), faces=" ".join(["O"] + ["-"] * (dice - 1)))
        (shove,) = rolls(res, "shove")
        assert len(shove["roll"]["dice"]) == dice
        told = [e["effect"] for e in events(res, "ability_used") if e["ability"] == "psycho"]
        assert told == (["more_shove_dice"] if dice > might else [])
