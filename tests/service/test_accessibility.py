"""The board in words and the picture's alt text (service/accessibility.py, render/describe.py), and
the screen-reader preference reaching the match service's outcomes."""

from __future__ import annotations

import pytest

from support.builders import P, position

from service.match_rules import MatchSide
from db.settings import update_coach_preferences
from service.accessibility import CLOSE_UP_DEFAULT, alt_text, board_words, close_up_wanted
from service.drawing import Drawing
from service.lookup import close_up_picture
from service.refusal import Refused
from service.matches import AI_COACH_ID, MatchService


def small_position():
    return position(
        P("w1", "gnolls/hunters", "K12", "E"),
        P("w2", "gnolls/strikers", "J12", "NE"),
        P("e1", "sarcos/hunters", "L12", "W"),
        P("e2", "sarcos/strikers", "K11", "SW", status="down"),
        P("e3", "sarcos/strikers"),
        ball="K13", acting="w1", jog=4, momentum=(2, "west"),
    )


EXPECTED = """\
West (West) 0 – 0 East (East); first to 1 goal wins.
Test 1.
Now: West's turn: Hunter w1 is acting, 4 Jog left.
Momentum: 2, held by West (West).
Ball: on the ground on K13.
West on the field (West, round tokens): 2 players.
  #1 Hunter w1 [H] (w1) on K12, facing east, standing, acting, 4 Jog left.
  #2 Striker w2 [S] (w2) on J12, facing north-east, standing.
West off the field: Bench: nobody.
East on the field (East, square tokens): 2 players.
  #1 Hunter e1 [H] (e1) on L12, facing west, standing.
  #2 Striker e2 [S] (e2) on K11, facing south-west, Down.
East off the field: Bench: #3 Striker e3.
Around Hunter w1 (K12): north-east K11 East #2 Striker e2 (e2), Down; east L12 East #1 Hunter e1 (e1), standing, \
facing west; south-east K13 the ball, loose; south-west J13 empty; west J12 West #2 Striker w2 (w2), standing, \
facing north-east; north-west J11 empty."""


def test_the_words_for_a_small_position():
    assert board_words(small_position()) == EXPECTED


def test_around_a_player_on_the_edge_names_the_hexes_off_the_field():
    st = position(P("w1", "gnolls/hunters", "K1", "E"), acting="w1", jog=4)
    last = board_words(st).splitlines()[-1]
    assert last == ("Around Hunter w1 (K1): north-east: off the field; east L1 empty; south-east L2 empty; "
                    "south-west K2 empty; west J1 empty; north-west: off the field.")


def test_alt_text_has_the_score_the_test_and_whose_decision():
    st = small_position()
    assert alt_text(st) == ("Elfball board: West 0 – 0 East, Test 1. West's turn: Hunter w1 is acting, 4 Jog left. "
                            "Momentum 2 (West). Ball loose on K13.")
    assert len(alt_text(st, "x" * 5000)) == 1024


def test_outcomes_carry_the_words_only_for_a_screen_reader_coachs_match(sessions):
    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=7, west=MatchSide(101, team_list="gnolls"),
                    east=MatchSide(AI_COACH_ID, team_list="sarcos"), seed="a11y")
    assert out.description is None
    with sessions() as s:
        update_coach_preferences(session=s, user_id=101, screen_reader=True)
    out = svc.status(7)
    assert out.description == board_words(out.state)
    out = svc.act(7, 101, svc.read(7, 101, "auto"))
    assert out.description is not None and "West on the field (Gnolls" in out.description
    out = svc.concede(7, 101)
    assert out.finished and out.description is None  # nothing left to decide: the final post has the result


EXPECTED_FR = """\
West (Ouest) 0 – 0 East (Est) ; le premier à 1 but gagne.
Test 1.
Maintenant : Tour de West : Hunter w1 agit, 4 de Mouvement restant.
Temps fort : 2, tenu par l'Ouest (West).
Ballon : au sol en K13.
Ouest sur le terrain (West, pions ronds) : 2 joueurs.
  n°1 Hunter w1 [H] (w1) en K12, face à l'est, debout, agit, 4 de Mouvement restant.
  n°2 Striker w2 [S] (w2) en J12, face au nord-est, debout.
Ouest hors du terrain : Banc : personne.
Est sur le terrain (East, pions carrés) : 2 joueurs.
  n°1 Hunter e1 [H] (e1) en L12, face à l'ouest, debout.
  n°2 Striker e2 [S] (e2) en K11, face au sud-ouest, à terre.
Est hors du terrain : Banc : n°3 Striker e3.
Autour de Hunter w1 (K12) : au nord-est K11 Est n°2 Striker e2 (e2), à terre ; à l'est L12 Est n°1 Hunter e1 (e1), \
debout, face à l'ouest ; au sud-est K13 le ballon, libre ; au sud-ouest J13 vide ; à l'ouest J12 Ouest n°2 Striker w2 \
(w2), debout, face au nord-est ; au nord-ouest J11 vide."""


def test_the_words_for_a_small_position_in_french():
    assert board_words(small_position(), language="fr") == EXPECTED_FR
    assert board_words(small_position(), language="en") == EXPECTED


def test_alt_text_in_french():
    assert alt_text(small_position(), language="fr") == (
        "Plateau d'Elfball : West 0 – 0 East, Test 1. Tour de West : Hunter w1 agit, 4 de Mouvement restant. "
        "Temps fort 2 (Ouest). Ballon libre en K13.")


def test_around_a_player_on_the_edge_in_french():
    st = position(P("w1", "gnolls/hunters", "K1", "E"), acting="w1", jog=4)
    last = board_words(st, language="fr").splitlines()[-1]
    assert last == ("Autour de Hunter w1 (K1) : au nord-est : hors du terrain ; à l'est L1 vide ; au sud-est L2 vide ; "
                    "au sud-ouest K2 vide ; à l'ouest J1 vide ; au nord-ouest : hors du terrain.")


def test_the_close_up_on_demand_is_the_positions_and_stays_in_its_server(sessions):
    svc = MatchService(sessions=sessions, render=False)
    drawing = Drawing()
    out = svc.start(guild_id=1, channel_id=8, west=MatchSide(101, team_list="gnolls"),
                    east=MatchSide(AI_COACH_ID, team_list="sarcos"), seed="zoom")
    out = svc.act(8, 101, svc.read(8, 101, "auto"))
    match_id = out.match.id
    # Nobody chose: board posts carry the board alone (issue 33), the close-up is asked for.
    assert not close_up_wanted(sessions, 1, 101) and CLOSE_UP_DEFAULT is False
    picture = close_up_picture(match_id, guild_id=1, drawing=drawing, language="fr", sessions=sessions)
    assert picture is not None
    data, alt = picture
    assert data == drawing.close_up(svc.status(8).state, events=out.events, language="fr")[0]
    assert alt.startswith("Gros plan")
    with pytest.raises(Refused):  # another server's match: not shown
        close_up_picture(match_id, guild_id=2, drawing=drawing, sessions=sessions)
    svc.concede(8, 101)
    assert close_up_picture(match_id, guild_id=1, drawing=drawing, sessions=sessions) is None  # nothing to decide


def test_a_command_reads_both_coaches_preferences_once(sessions):
    """The outcome asks whether either coach wants the board in words and whether the deciding
    one wants the close-up: one read of both in the command's own transaction, then none."""
    from db.settings import forget_remembered
    from support.databases import statements_on

    svc = MatchService(sessions=sessions, close_ups=True)
    svc.start(guild_id=1, channel_id=8, west=MatchSide(201, team_list="gnolls"),
              east=MatchSide(202, team_list="sarcos"), seed="prefs")
    with sessions() as s:
        update_coach_preferences(session=s, user_id=202, screen_reader=True)
        engine = s.get_bind()
    forget_remembered(engine)  # as a minute after either coach's last command
    try:
        with statements_on(engine) as seen:
            out = svc.act(8, 201, svc.read(8, 201, "auto"))
    finally:
        svc.close()
    assert out.description is not None  # the east coach's screen reader was read
    reads = [s for s in seen if "coach_preferences" in s and s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1, reads
