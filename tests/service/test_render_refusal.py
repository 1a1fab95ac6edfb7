"""``service.refusals.render_refusal``: the one place a refusal becomes words in a coach's language,
for the bot and the console alike."""

from __future__ import annotations

from db.errors import MatchChangedError, MatchNotActiveError
from engine import IllegalCommandError, MalformedInputError, Term, side_term
from engine.teambuilding import Problem, TeamBuildingError
from service.refusals import render_refusal


def test_an_engine_refusal_is_said_from_its_key_in_each_language():
    error = IllegalCommandError.of("answer.other_side", rule="action", side=side_term("west"))
    assert render_refusal(error, "en") == str(error) == "this question is for west's coach [Actions & challenges (p. 3)]"
    assert render_refusal(error, "fr") == "cette question est pour l'entraîneur de l'Ouest [Actions et défis (p. 3)]"


def test_the_parser_refusals_are_keyed_too():
    error = MalformedInputError.of("command.unknown", text="'fly'")
    assert render_refusal(error, "en") == "no command 'fly'; type help for the list"
    assert render_refusal(error, "fr") == "pas de commande 'fly' ; tapez help pour la liste"


def test_the_store_and_team_building_say_theirs():
    finished = MatchNotActiveError("match_status", match=3, status=Term("status", "finished"))
    assert str(finished) == "match #3 is finished"
    assert render_refusal(finished, "fr") == "la partie n°3 est terminée"
    limit = TeamBuildingError(Problem("teambuilding.max_players", n=12))
    assert render_refusal(limit, "en") == str(limit)
    assert render_refusal(limit, "fr") != str(limit)


def test_a_plain_message_takes_the_callers_phrases_first_then_the_services():
    assert render_refusal(MatchChangedError(), "fr") == "la partie a changé entre-temps, réessayez"  # keyed
    plain = ValueError("the match changed, try again")
    assert render_refusal(plain, "fr") == "la partie a changé, réessayez"  # the service's phrase
    mine = {"phrase.the match changed, try again": "à moi"}
    assert render_refusal(plain, "fr", phrases=mine) == "à moi"
    assert render_refusal("something nobody wrote down", "fr") == "something nobody wrote down"
