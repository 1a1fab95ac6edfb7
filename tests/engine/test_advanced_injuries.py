"""Advanced Injury results (p. 8), Rugged and Everlasting (p. 13), with scripted dice.

"Flop: ... Advanced: Player suffers a career-ending injury and is permanently removed from the
team. Place him in the Infirmary." "0 Successes: ... Advanced: Player suffers a lasting injury.
The Player's attribute with the most points is reduced permanently by one point. Team Manager
of the player can choose in cases of tied attribute amounts. Place him in the Infirmary."
The rest of the table is the Basic one.
"""

from __future__ import annotations

from support.builders import P, events, position, rolls
from support.builders import play as act

from engine import commands as C
from engine.challenges import injury as injury_module
from engine.state import Location, RuleOptions, Status

FAR_EAST = P("e9", "gnolls/midfielders", "Q17", "W")
# A Hunter (Tackle 4) on a Midfielder without the ball (need 3 - 2 + 1 = 2): four
# bull's-eyes are a Punishing Hit, an Injury challenge with 6 dice.
PUNISHING = "O O O O "


def hit(*, advanced: bool = True, attributes: dict | None = None, abilities: tuple[str, ...] = ()):
    return position(
        P("w1", "gnolls/hunters", "G12", "E"),
        P("e1", "gnolls/midfielders", "H12", "W", attributes=attributes, abilities=abilities),
        FAR_EAST, ball="Q7", acting="w1", options=RuleOptions(advanced=advanced),
    )


class TestAdvancedResults:
    def test_a_flop_is_a_career_ending_injury(self):
        res = act(hit(), C.Tackle("e1"), faces=PUNISHING + "X X - - - -")
        e1 = res.state.players["e1"]
        assert e1.location is Location.INFIRMARY
        assert e1.injury == {"kind": "career_ending"}
        assert events(res, "injury_recorded") == [
            {"kind": "injury_recorded", "player": "e1", "outcome": "career_ending", "attributes": []}
        ]
        assert rolls(res, "injury")[0]["result"] == "career-ending injury"

    def test_no_success_is_a_lasting_injury_on_the_highest_attribute(self):
        res = act(hit(), C.Tackle("e1"), faces=PUNISHING + "X O - - - -")
        e1 = res.state.players["e1"]
        assert e1.location is Location.INFIRMARY
        assert e1.injury == {"kind": "lasting", "attributes": ["jog"]}  # Midfielder 6/3/3/3/3/3
        assert events(res, "injury_recorded")[0]["attributes"] == ["jog"]
        assert e1.jog == 6, "the league lowers it after the match"

    def test_tied_highest_attributes_are_all_listed_for_his_coach(self):
        res = act(hit(attributes={"skill": 6, "grit": 6}), C.Tackle("e1"), faces=PUNISHING + "- - - - - -")
        assert res.state.players["e1"].injury == {"kind": "lasting", "attributes": ["jog", "skill", "grit"]}

    def test_one_success_is_out_for_the_game_without_a_record(self):
        res = act(hit(), C.Tackle("e1"), faces=PUNISHING + "O - - - - -")
        e1 = res.state.players["e1"]
        assert e1.location is Location.INFIRMARY and e1.injury is None
        assert not events(res, "injury_recorded")

    def test_two_successes_as_in_the_basic_rules(self):
        res = act(hit(), C.Tackle("e1"), faces=PUNISHING + "O O - - - -")
        assert res.state.players["e1"].location is Location.RECOVERY

    def test_basic_rules_record_nothing(self):
        res = act(hit(advanced=False), C.Tackle("e1"), faces=PUNISHING + "X X - - - -")
        e1 = res.state.players["e1"]
        assert e1.location is Location.INFIRMARY and e1.injury is None
        assert not events(res, "injury_recorded")


class TestRugged:
    """Rugged: "may treat 3 or more successes on a Grit challenge as being placed Down"."""

    def test_three_successes_are_only_down(self):
        res = act(hit(abilities=("rugged",)), C.Tackle("e1"), faces=PUNISHING + "O O O - - -")
        e1 = res.state.players["e1"]
        assert e1.on_field and e1.status is Status.DOWN
        assert events(res, "ability_used")[0]["ability"] == "rugged"

    def test_four_successes_are_down_not_dazed(self):
        res = act(hit(abilities=("rugged",)), C.Tackle("e1"), faces=PUNISHING + "O O O O - -")
        assert res.state.players["e1"].status is Status.DOWN

    def test_two_successes_are_still_recovery(self):
        res = act(hit(abilities=("rugged",)), C.Tackle("e1"), faces=PUNISHING + "O O - - - -")
        assert res.state.players["e1"].location is Location.RECOVERY
        assert not events(res, "ability_used")

    def test_without_rugged_three_successes_send_him_off(self):
        res = act(hit(), C.Tackle("e1"), faces=PUNISHING + "O O O - - -")
        assert res.state.players["e1"].location is Location.SENT_OFF


class TestEverlasting:
    """Everlasting: the injury Spec forbids forced re-rolls (the flag's effect is in base.py)."""

    def specs(self, monkeypatch, abilities):
        seen = []
        real = injury_module.resolve

        def spy(ctx, spec, **kw):
            seen.append(spec)
            return real(ctx, spec, **kw)

        monkeypatch.setattr(injury_module, "resolve", spy)
        act(hit(abilities=abilities), C.Tackle("e1"), faces=PUNISHING + "O O O O O -")
        return seen

    def test_everlasting_sets_no_forced_rerolls(self, monkeypatch):
        assert self.specs(monkeypatch, ("everlasting",))[0].no_forced_rerolls

    def test_others_may_be_forced(self, monkeypatch):
        assert not self.specs(monkeypatch, ())[0].no_forced_rerolls


class TestEverlastingInPlay:
    """With counters in hand the tackling coach is offered a forced re-roll of the Injury dice
    (p. 5) — unless the injured player has Everlasting (p. 14)."""

    def start(self, abilities: tuple[str, ...] = ()):
        return position(
            P("w1", "gnolls/hunters", "G12", "E"),
            P("e1", "gnolls/midfielders", "H12", "W", abilities=abilities),
            FAR_EAST, ball="Q7", acting="w1", momentum=(2, "west"), options=RuleOptions(advanced=True),
        )

    def test_an_ordinary_player_s_injury_dice_may_be_forced(self):
        # The Tackle's own re-roll offer is declined ([]); the Injury roll then asks West again.
        res = act(self.start(), C.Tackle("e1"), faces=PUNISHING + "O O O O O -", answers=[[]], pending=True)
        q = res.state.in_progress.question
        assert q["kind"] == "force_reroll" and q["challenge"] == "injury" and q["side"] == "west"

    def test_everlasting_is_never_forced(self):
        res = act(self.start(("everlasting",)), C.Tackle("e1"), faces=PUNISHING + "O O O O O -", answers=[[]])
        assert res.state.in_progress is None
        assert res.state.players["e1"].status is Status.DOWN  # 5 successes: Down
