"""Tournament play (the French text's "JOUER EN TOURNOIS"): the event deck drawn with the
match's dice, its Momentum, the end of the game, the scoring and the team limits."""

from __future__ import annotations

import pytest
from support.builders import P, events, position
from support.builders import play as act

from engine import commands as C
from engine.clock import draw_index
from engine.context import Ctx
from engine.dice import ScriptedDice
from engine.errors import MalformedInputError
from engine.match import TeamEntry, new_match
from engine.options import profile
from engine.rosters import default_roster
from engine.state import Deck, Location, Phase
from engine.tournament import check_entries, score, team_points


def tournament(cards: dict[str, int]):
    st = position(P("w1", "gnolls/hunters", "G12"), P("w2", "gnolls/hunters", "G16"),
                  P("e1", "gnolls/hunters", "Q12", "W"), P("e2", "gnolls/hunters", "Q16", "W"),
                  turn="west", options=profile("tournament"))
    st.faceoff_winner = "west"
    st.deck = Deck(dict(cards))
    return st


def west_turn(st, d6: str = ""):
    st = act(st, C.StartAction("w1")).state
    return act(st, C.EndAction(), d6=d6)


class TestEventDeck:
    """"Chaque figure (du Valet à l'As) donne +1 Temps fort au joueur pour ce tour. Chaque Joker
    donne +3 Temps fort ... Toutes les autres cartes (2 à 10) sont traitées comme Aucun
    Événement Inhabituel"."""

    def test_a_face_card_gives_one_counter_for_the_turn(self):
        res = west_turn(tournament({"plain": 1, "face": 1}), d6="2")  # index 1 of 2: the face card
        (card,) = events(res, "card_drawn")
        assert (card["side"], card["card"], card["momentum"], card["left"]) == ("east", "face", 1, 1)
        assert (res.state.momentum, res.state.momentum_side) == (1, "east")

    def test_a_joker_gives_three(self):
        res = west_turn(tournament({"plain": 1, "joker": 1}), d6="2")
        assert res.state.momentum == 3

    def test_no_unusual_event_counts_for_the_scoring(self):
        res = west_turn(tournament({"plain": 3}))  # one kind left: no roll needed
        assert res.state.deck.no_event == {"west": 0, "east": 1} and res.state.momentum == 0

    def test_the_game_ends_when_the_last_card_is_used(self):
        st = west_turn(tournament({"plain": 1})).state  # east draws the last card
        st = act(st, C.StartAction("e1")).state
        res = act(st, C.EndAction())
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "draw"
        assert res.state.end_reason == "the deck ran out"

    def test_the_tournament_profile_deals_54_cards(self):
        res = new_match(TeamEntry("A", default_roster("gnolls")), TeamEntry("B", default_roster("orcs")),
                        ScriptedDice(d6=[1, 2]), options=profile("tournament"))
        assert res.state.deck.cards == {"plain": 36, "face": 16, "joker": 2}


class TestDrawing:
    def ctx(self, d6):
        st = tournament({"plain": 1})
        return Ctx(st, ScriptedDice(d6=d6))

    def test_rejection_sampling(self):
        # 5 cards, one die: a 6 (value 5) is rolled again; a 3 is index 2.
        assert draw_index(self.ctx([6, 3]), 5) == 2

    def test_two_dice_for_up_to_36(self):
        # (4 - 1) * 6 + (2 - 1) = 19 < 36 - 36 % 20 = 20: index 19.
        assert draw_index(self.ctx([4, 2]), 20) == 19

    def test_three_dice_for_54(self):
        # 54 divides 216: nothing is rolled again; 6 6 6 reads 215, the last card.
        assert draw_index(self.ctx([6, 6, 6]), 54) == 53


class TestScoring:
    """"100 points pour une victoire + (nombre de cartes restante dans la pioche divisée par 5)";
    "1 point pour chaque carte 'Aucun Événement Inhabituel' en cas d'égalité ou de défaite";
    "2 points pour chaque joueur adverse mit hors jeu, dans la zone de repos ou à l'infirmerie"."""

    def test_win_loss_and_casualties(self):
        st = tournament({"plain": 12})
        st.deck.no_event = {"west": 4, "east": 6}
        st.winner, st.phase = "west", Phase.MATCH_OVER
        st.players["e1"].location = Location.INFIRMARY
        st.players["e2"].location = Location.SENT_OFF
        st.players["w2"].location = Location.RECOVERY
        assert score(st) == {"west": 100 + 2 + 4, "east": 6 + 2}

    def test_a_draw(self):
        st = tournament({"plain": 3})
        st.deck.no_event = {"west": 1, "east": 2}
        st.winner = "draw"
        assert score(st) == {"west": 1, "east": 2}

    def test_nothing_before_the_end(self):
        assert score(tournament({"plain": 3})) == {"west": 0, "east": 0}


class TestTeamLimits:
    """"Utiliser 120 à 150 Points d'équipe. Une équipe doit toujours avoir au moins 6
    joueurs." "Les potions magique sont limitées à 2 au lieu de 3.\""""

    def test_a_basic_team_is_150_points(self):
        entry = TeamEntry("A", default_roster("gnolls"))
        assert team_points(entry) == 150
        check_entries(entry)

    def test_potions(self):
        with pytest.raises(MalformedInputError, match="at most 2 potions"):
            check_entries(TeamEntry("A", default_roster("gnolls"), support=(("potions", 3),)))

    def test_over_150_points(self):
        with pytest.raises(MalformedInputError, match="120 to 150"):
            check_entries(TeamEntry("A", default_roster("gnolls"), support=(("cheerleaders", 1),)))

    def test_new_match_checks_them(self):
        entry = TeamEntry("A", default_roster("gnolls"), support=(("potions", 3),))
        with pytest.raises(MalformedInputError):
            new_match(entry, TeamEntry("B", default_roster("orcs")), ScriptedDice(d6=[1, 2]), options=profile("tournament"))
