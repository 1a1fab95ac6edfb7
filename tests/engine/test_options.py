"""Rule options and profiles (issue 10): the rules string, the profiles, the options' storage,
and the match-level Optional Rules (OP1 timed game, OP2 double player movement, OP4 simplified
face-off, OP5/OP6 optional teams and extra players), each against its text, with scripted dice.
The French variants are in tests/engine/test_options_french.py, tournaments in test_tournament.py.
"""

from __future__ import annotations

import pytest
from support.builders import P, events, hx, position, refused, rolls
from support.builders import play as act

from engine import commands as C
from engine.dice import ScriptedDice
from engine.errors import MalformedInputError
from engine.match import TeamEntry, new_match
from engine.options import PROFILES, VARIANTS, describe, parse_rules, profile, roster_options, rules_string, variant
from engine.rosters import default_roster, validate_basic_team
from engine.state import Deck, MatchState, Phase, RuleOptions, Status


class TestRulesString:
    def test_words_turn_options_on(self):
        o = parse_rules("goals=2 timed double star2 fr_failed_disengage_sim")
        assert (o.goals_to_win, o.timed, o.double, o.star2) == (2, True, True, True)
        assert o.variants == ("fr_failed_disengage_sim",) and variant(o, "fr_failed_disengage_sim")
        assert not variant(o, "fr_dash")

    def test_a_timed_game_has_no_goal_limit_unless_asked(self):
        """"If you would rather play Elfball for a timed game instead of the first to 1, 2 or 3
        goals"."""
        assert parse_rules("timed").goals_to_win == 0
        assert parse_rules("timed goals=1").goals_to_win == 1

    def test_profiles(self):
        assert parse_rules("beginner") == profile("beginner")
        b = profile("beginner")
        assert b.simple_faceoff and b.star2 and b.profile == "beginner"
        fr = parse_rules("profile=fr-0.0.6")
        assert fr.variants == tuple(VARIANTS) and fr.profile == "fr-0.0.6"
        t = profile("tournament")
        assert t.tournament and t.timed and t.simple_faceoff and t.star2 and t.goals_to_win == 1
        assert set(PROFILES) == {"standard", "beginner", "fr-0.0.6", "tournament"}

    def test_a_profile_then_single_changes(self):
        o = parse_rules("fr no-fr_dash double")
        assert "fr_dash" not in o.variants and o.double and len(o.variants) == len(VARIANTS) - 1

    def test_the_french_double_movement_turns_double_movement_on(self):
        assert parse_rules("fr_double_momentum").double

    def test_extras(self):
        assert parse_rules("extras=none").extra_players == ()
        assert parse_rules("extras=impcrusher").extra_players == ("impcrusher",)
        assert not roster_options(parse_rules("extras=none")).allow_extra_players
        assert not roster_options(parse_rules("no-optional_teams")).allow_optional_teams

    @pytest.mark.parametrize("text", ["goals=4", "bogus", "extras=troll", "profile=nope", "goals=0", "tournament no-timed"])
    def test_refusals(self, text):
        with pytest.raises(MalformedInputError):
            parse_rules(text)

    @pytest.mark.parametrize("text", ["", "goals=3 double", "fr no-fr_dash", "tournament turns=30", "beginner extras=none",
                                      "timed decks=2 fr_timed_any_turn", "no-optional_teams clock=24"])
    def test_the_rules_string_of_options_reads_back_the_same(self, text):
        o = parse_rules(text)
        assert parse_rules(rules_string(o)) == o

    def test_describe(self):
        text = describe(parse_rules("goals=2 double fr_dash"))
        assert "first to 2 goals" in text and "double player movement" in text and "fr_dash" in text
        assert "no goal limit" in describe(parse_rules("timed"))


class TestStorage:
    def test_round_trip(self):
        o = parse_rules("fr double timed extras=impcrusher")
        assert RuleOptions.from_dict(o.to_dict()) == o

    def test_an_old_state_without_the_new_fields_loads(self):
        st = position(P("w1", "gnolls/hunters", "G12"), turn="west")
        d = st.to_dict()
        d["options"] = {"goals_to_win": 1, "star2": False, "clock_hours": 0, "advanced": False}
        back = MatchState.from_dict(d)
        # Made before rules editions existed: it keeps edition 1's rulings (docs/rules.md, introduction).
        assert back.options == RuleOptions(edition=1) and back.deck is None and back.turn_actors == []

    def test_a_state_with_a_deck_and_a_turn_round_trips(self):
        st = position(P("w1", "gnolls/hunters", "G12"), P("w2", "gnolls/hunters", "G14"), turn="west",
                      options=parse_rules("timed double"))
        st.turn_actors, st.turn_carrier, st.turn_stood, st.turns = ["w1"], "w1", True, 7
        assert st.deck is not None and st.deck.left == 52
        assert MatchState.from_dict(st.to_dict()).to_dict() == st.to_dict()


def _entry(team: str, lineup: str | None = None, **kw) -> TeamEntry:
    roster = validate_basic_team(team, lineup, options=roster_options(RuleOptions())) if lineup else default_roster(team)
    return TeamEntry(team, roster, **kw)


class TestOptionalTeamsAndExtraPlayers:
    """OP5 (Orcs, Ratmen) and OP6 (Samhaino Horror, Impcrusher) are "optional rules and teams
    ... [that] need to be agreed upon by both you and your opponent"."""

    def test_orcs_play_unless_the_match_leaves_them_out(self):
        new_match(_entry("orcs"), _entry("gnolls"), ScriptedDice(d6=[1, 2]))
        with pytest.raises(MalformedInputError, match="optional team list"):
            new_match(_entry("orcs"), _entry("gnolls"), ScriptedDice(d6=[1, 2]), options=parse_rules("no-optional_teams"))

    def test_an_impcrusher_needs_the_extra_players(self):
        lineup = "1 impcrusher, 3 gnomes, 1 gnomish contraption, 5 gnomes"
        roster = validate_basic_team("gnomes", lineup, options=roster_options(RuleOptions()))
        entry = TeamEntry("Gnomes", roster)
        new_match(entry, _entry("gnolls"), ScriptedDice(d6=[1, 2]))
        with pytest.raises(MalformedInputError, match="extra player"):
            new_match(entry, _entry("gnolls"), ScriptedDice(d6=[1, 2]), options=parse_rules("extras=samhaino-horror"))


# --- OP1: the timed game -------------------------------------------------------------------------------
def _timed(rules: str = "timed", cards: int = 52, **kw) -> MatchState:
    st = position(P("w1", "gnolls/hunters", "G12"), P("w2", "gnolls/hunters", "G16"),
                  P("e1", "gnolls/hunters", "Q12", "W"), P("e2", "gnolls/hunters", "Q16", "W"),
                  turn="west", options=parse_rules(rules), **kw)
    st.faceoff_winner = "west"
    assert st.deck is not None
    st.deck = Deck({"plain": cards})
    return st


def _pass_turn(st: MatchState, player: str):
    res = act(st, C.StartAction(player))
    return act(res.state, C.EndAction())


class TestTimedGame:
    """"Each time the player that lost the face-off finishes his team's turn remove one card
    from the deck. When you run out of cards, the game is finished.\""""

    def test_only_the_face_off_losers_turns_take_a_card(self):
        res = _pass_turn(_timed(), "w1")  # west won the face-off
        assert res.state.deck.left == 52 and not events(res, "card_drawn")
        res = _pass_turn(res.state, "e1")
        assert res.state.deck.left == 51 and events(res, "card_drawn")[0]["left"] == 51

    def test_the_french_text_takes_a_card_every_turn(self):
        """FR 43: "À chaque fois qu'un joueur termine son tour retirer une carte"."""
        res = _pass_turn(_timed("timed fr_timed_any_turn"), "w1")
        assert res.state.deck.left == 51

    def test_the_last_card_ends_the_game_level_is_a_draw(self):
        st = _timed(cards=1)
        st.turn_side = "east"
        res = _pass_turn(st, "e1")
        assert res.state.phase is Phase.MATCH_OVER and res.state.winner == "draw"
        assert events(res, "match_ended")[0]["reason"] == "the deck ran out"

    def test_the_leader_wins_when_the_deck_runs_out(self):
        st = _timed(cards=1)
        st.turn_side = "east"
        st.teams["west"].score = 2
        assert _pass_turn(st, "e1").state.winner == "west"

    def test_a_goal_does_not_end_a_timed_game_without_a_goal_limit(self):
        st = position(P("w1", "gnolls/hunters", "S12", "E", ball=True), P("e1", "gnolls/hunters", "Q16", "W"),
                      acting="w1", options=parse_rules("timed"))
        st.faceoff_winner = "east"
        res = act(st, C.Move((hx("T12"),)))
        res = act(res.state, C.EndAction())
        assert res.state.teams["west"].score == 1 and res.state.phase is Phase.TEST_OVER
        assert res.state.deck.left == 51  # the scoring turn was the face-off loser's

    def test_a_turn_limit_ends_the_game(self):
        st = _timed("timed turns=1")
        assert _pass_turn(st, "w1").state.end_reason == "the turn limit was reached"

    def test_no_deck_without_the_option(self):
        st = position(P("w1", "gnolls/hunters", "G12"), P("e1", "gnolls/hunters", "Q12", "W"), turn="west")
        assert st.deck is None
        assert not events(_pass_turn(st, "w1"), "card_drawn")


# --- OP2: double player movement ----------------------------------------------------------------------
def _double(rules: str = "double", momentum=(0, None), **extra) -> MatchState:
    return position(
        P("w1", "gnolls/hunters", "G12", ball=extra.pop("w1_ball", False)), P("w2", "gnolls/hunters", "G16"),
        P("w3", "gnolls/hunters", "G8"),
        P("e1", "gnolls/hunters", "Q12", "W"), P("e2", "gnolls/hunters", "Q16", "W"),
        turn="west", options=parse_rules(rules), momentum=momentum, **extra,
    )


class TestDoubleMovement:
    """"two players may be moved instead of just one each team turn unless the first player
    suffers a Shift in Momentum. You do not choose the second player to be moved until the
    first has completed his action.\""""

    def test_a_second_player_after_the_first(self):
        res = _pass_turn(_double(), "w1")
        st = res.state
        assert st.phase is Phase.TURN and st.turn_side == "west" and st.turn_actors == ["w1"]
        assert events(res, "second_action") == [{"kind": "second_action", "side": "west", "first": "w1"}]
        refused(st, C.StartAction("w1"), match="took west's last action")
        res = _pass_turn(st, "w2")
        assert res.state.turn_side == "east" and res.state.phase is Phase.TURN

    def test_the_second_player_may_be_passed_on(self):
        st = _pass_turn(_double(), "w1").state
        res = act(st, C.EndAction())
        assert res.state.turn_side == "east" and res.state.last_moved["west"] == "w1"

    def test_passing_needs_a_first_player(self):
        refused(_double(), C.EndAction(), match="pick the player")

    def test_a_shift_in_momentum_ends_the_turn(self):
        st = position(P("w1", "gnolls/hunters", "G12"), P("w2", "gnolls/hunters", "G16"),
                      P("e1", "gnolls/hunters", "H12", "W"), P("e2", "gnolls/hunters", "Q16", "W"),
                      acting="w1", options=parse_rules("double"))
        res = act(st, C.Shove("e1"), faces="X X X")  # flopped: Down, SiM
        assert res.state.turn_side == "east" and not events(res, "second_action")

    def test_without_the_option_one_player(self):
        res = _pass_turn(_double("standard"), "w1")
        assert res.state.turn_side == "east"

    def test_the_marker_goes_to_the_carrier_if_he_moved(self):
        """"The player marked with the last moved marker is always the player holding the
        ball at the start of the turn (if he was one of the two players to move) otherwise the
        first player moved receives the last moved marker.\""""
        st = _pass_turn(_double(w1_ball=True), "w2").state
        st = _pass_turn(st, "w1").state
        assert st.last_moved["west"] == "w1"
        st2 = _pass_turn(_pass_turn(_double(), "w2").state, "w1").state
        assert st2.last_moved["west"] == "w2"

    def test_the_counters_left_go_to_the_second_player(self):
        """G56 and FR 44: "Tout Temps fort gagné par le premier joueur et non utilisé peut être
        utilisé par le second joueur"."""
        st = _double(momentum=(3, "west"))
        st = _pass_turn(st, "w1").state
        res = act(st, C.StartAction("w2"))
        assert (res.state.momentum, res.state.momentum_side) == (3, "west")

    def test_a_lone_player_has_no_second(self):
        st = position(P("w1", "gnolls/hunters", "G12"), P("e1", "gnolls/hunters", "Q12", "W"), turn="west",
                      options=parse_rules("double"))
        assert _pass_turn(st, "w1").state.turn_side == "east"


# --- OP4: the simplified face-off ----------------------------------------------------------------------
def _faceoff(west: str, east: str = "gnolls/midfielders", rules: str = "beginner") -> MatchState:
    st = position(
        P("w1", west, "J12", "E"), P("w2", "gnolls/midfielders", "D12", "E"),
        P("e1", east, "L12", "W"), P("e2", "gnolls/midfielders", "R12", "W"),
        phase=Phase.SETUP, options=parse_rules(rules),
    )
    st.setup_side, st.first_setup_side = "east", "west"
    return st


SIX_WEST = "O O - - - -  O - - - - -"  # 2 net against 1: west wins on six dice each


class TestSimplifiedFaceoff:
    def test_six_dice_each_whatever_the_might(self):
        res = act(_faceoff("night-elves/imps"), C.SetupDone(), faces=SIX_WEST, by="east")
        (fo,) = events(res, "faceoff_rolled")
        assert len(fo["west"]["dice"]) == 6 and len(fo["east"]["dice"]) == 6
        assert res.state.faceoff_winner == "west"
        assert res.state.momentum == 0  # no Momentum for the weaker winner (the section it replaces)

    def test_skill_over_might_takes_the_ball(self):
        st = act(_faceoff("night-elves/strikers"), C.SetupDone(), faces=SIX_WEST, by="east").state  # Might 3, Skill 4
        refused(st, C.FaceoffContact((), "tackle"), by="west", match="gives him the ball")
        res = act(st, C.FaceoffPickup(), by="west")
        assert res.state.ball.carrier == "w1" and res.state.players["w1"].hex == hx("J12")
        assert not rolls(res) and res.state.phase is Phase.TURN and res.state.turn_side == "west"

    def test_might_over_skill_knocks_the_opponent_down(self):
        st = act(_faceoff("timberline-elves/dryads"), C.SetupDone(), faces=SIX_WEST, by="east").state  # Might 4, Skill 2
        refused(st, C.FaceoffPickup(), by="west", match="tackle his opponent")
        refused(st, C.FaceoffContact((), "shove"), by="west", match="no Shove")
        res = act(st, C.FaceoffContact((hx("J11"), hx("K11")), "tackle"), by="west")
        assert res.state.players["e1"].status is Status.DOWN and not rolls(res)
        assert res.state.players["w1"].hex == hx("K11") and res.state.ball.carrier is None

    def test_equal_might_and_skill_choose(self):
        st = act(_faceoff("gnolls/midfielders"), C.SetupDone(), faces=SIX_WEST, by="east").state
        assert act(st, C.FaceoffPickup(), by="west").state.ball.carrier == "w1"
        contact = C.FaceoffContact((hx("J13"), hx("K13")), "tackle")
        assert act(st, contact, by="west").state.players["e1"].status is Status.DOWN

    def test_a_flopped_loser_leaves_the_ball(self):
        st = act(_faceoff("timberline-elves/dryads"), C.SetupDone(), faces="O - - - - -  X - - - - -", by="east").state
        assert st.players["e1"].status is Status.DOWN
        assert act(st, C.FaceoffPickup(), by="west").state.ball.carrier == "w1"

    def test_star_is_two_successes_in_the_beginner_profile(self):
        res = act(_faceoff("gnolls/midfielders"), C.SetupDone(), faces="* - - - - -  O O X - - -", by="east")
        assert res.state.faceoff_winner == "west"  # 2 against 2 - 1


class TestLeagueRules:
    """A league chooses its rules once; each fixture plays them (service.leagues.match_options)."""

    def settings(self, **kw):
        from db.leagues import DEFAULT_SETTINGS, clean_settings

        return {**DEFAULT_SETTINGS, **clean_settings(kw)}

    def test_the_rules_string_is_checked_and_normalised(self):
        from db.errors import InvalidInputError
        from db.leagues import clean_settings

        assert clean_settings({"rules": "fr double"})["rules"] == "profile=fr-0.0.6 double"
        with pytest.raises(InvalidInputError, match="unknown rule"):
            clean_settings({"rules": "bogus"})

    def test_fixtures_play_the_league_rules_under_the_advanced_rules(self):
        from service.leagues import match_options

        o = match_options(self.settings(rules="beginner double", goals_to_win=2, clock_hours=24))
        assert o.simple_faceoff and o.double and o.advanced and o.goals_to_win == 2 and o.clock_hours == 24
        assert match_options(self.settings(rules="timed", goals_to_win=2)).goals_to_win == 0
        assert match_options(self.settings(rules="goals=3", goals_to_win=2)).goals_to_win == 3
        assert match_options(self.settings()) == RuleOptions(advanced=True, goals_to_win=2)  # a league plays to 2 (p. 3)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["beginner", "fr", "tournament double fr_dash", "timed double goals=2 fr_shove_limit",
                                   "fr advanced double"])
def test_the_ai_plays_whole_matches_under_each_profile(rules):
    """AI against AI with every position checked: the options never leave a match stuck or
    broken, and the AI never falls back on a refused command."""
    from ai import AICoach, play_match
    from engine.dice import SeededDice

    coaches = {"west": AICoach(), "east": AICoach()}
    s = play_match("gnolls", "valkyries", coaches, SeededDice(11), options=parse_rules(rules), check_invariants=True,
                   max_commands=2500)
    assert not s.violations and not s.capped and s.winner is not None
    assert coaches["west"].fallbacks == coaches["east"].fallbacks == 0


def test_the_board_in_words_tells_a_timed_game():
    from engine.events import MatchStarted
    from engine.narrate import describe as narrate_event
    from render import describe as board_in_words

    st = _timed(cards=30)
    st.options = parse_rules("timed")
    assert "a timed game, no goal limit; 30 cards left." in board_in_words(st)
    assert narrate_event(MatchStarted("A", "B", 0)) == "A (West) v B (East): a timed game with no goal limit."
