"""The board in words and the picture's alt text (service/accessibility.py, render/describe.py), and
the screen-reader preference reaching the match service's outcomes."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from builders import P, position
from sqlmodel import Session

from db.engine import make_engine
from db.matches import MatchSide
from db.migrate import upgrade
from db.settings import update_coach_preferences
from service.accessibility import alt_text, board_words
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


@pytest.fixture
def sessions(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a11y.db'}")
    upgrade(engine)

    @contextmanager
    def scope():
        with Session(engine, expire_on_commit=False) as s:
            yield s

    yield scope
    engine.dispose()


def test_outcomes_carry_the_words_only_for_a_screen_reader_coachs_match(sessions):
    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=7, west=MatchSide(101, team_list="gnolls"),
                    east=MatchSide(AI_COACH_ID, team_list="sarcos"), seed="a11y")
    assert out.description is None
    with sessions() as s:
        update_coach_preferences(session=s, user_id=101, screen_reader=True)
    out = svc.status(7)
    assert out.description == board_words(out.state)
    out = svc.act(7, 101, "auto")
    assert out.description is not None and "West on the field (Gnolls" in out.description
    out = svc.concede(7, 101)
    assert out.finished and out.description is None  # nothing left to decide: the final post has the result
