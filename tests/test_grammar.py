"""The command grammar shared by the console, scenarios and the bot."""

from __future__ import annotations

import pytest
from builders import P, hx, position

from engine import commands as C
from engine.errors import AmbiguousInputError, MalformedInputError, OffFieldError
from engine.hexes import Direction
from engine.state import Phase
from service.grammar import help_text, parse, resolve_player


def st():
    return position(
        P("w1", "timberline-elves/dryads", "F14", "E"),
        P("w2", "timberline-elves/hunters", "I12", "W"),
        P("w3", "timberline-elves/hunters", None),
        P("e1", "night-elves/strikers", "E14", "E"),
        P("e2", "night-elves/imps", "G13", "E", ball=True),
        acting="w1",
        jog=5,
    )


def test_move_by_hexes_and_by_directions():
    s = st()
    assert parse("move G14 G13", s, "west") == C.Move((hx("G14"), hx("G13")))
    assert parse("move E NE facing W", s, "west") == C.Move((hx("G14"), hx("G13")), Direction.W)
    assert parse("go g14", s, "west") == C.Move((hx("G14"),))


def test_players_by_id_number_or_name():
    s = st()
    assert parse("tackle e2", s, "west") == C.Tackle("e2")
    assert parse("shove #2", s, "west") == C.Shove("e2")  # a number means an opponent here
    assert parse("tackle imp", s, "west") == C.Tackle("e2")
    with pytest.raises(AmbiguousInputError):
        resolve_player(s, "hunter", side="west")
    with pytest.raises(MalformedInputError):
        resolve_player(s, "ogre", side="east")


def test_answers_and_the_rest():
    s = st()
    assert parse("reroll 0 2", s, "west") == C.Answer((0, 2))
    assert parse("keep", s, "west") == C.Answer(())
    assert parse("intercept none", s, "east") == C.Answer(None)
    assert parse("intercept imp", s, "east") == C.Answer("e2")
    assert parse("catch", s, "east") == C.Answer("catch")
    assert parse("decline", s, "east") == C.Answer("decline")
    assert parse("throw K12 long", s, "west") == C.Throw(hx("K12"), True)
    assert parse("dash 2", s, "west") == C.Dash(2)
    assert parse("end nw", s, "west") == C.EndAction(Direction.NW)
    assert parse("stand", s, "west") == C.StandUp(None)


def test_setup_verbs():
    s = position(P("w1", "timberline-elves/dryads", None), phase=Phase.SETUP)
    assert parse("place w1 J12 E", s, "west") == C.Place("w1", hx("J12"), Direction.E)
    assert parse("auto", s, "west") == C.AutoSetup()
    assert parse("done", s, "west") == C.SetupDone()


@pytest.mark.parametrize("line,err", [
    ("", MalformedInputError), ("jump", MalformedInputError), ("move", MalformedInputError),
    ("move Z99", OffFieldError), ("dash lots", MalformedInputError), ("throw K12 far", MalformedInputError),
    ("place w1 J12", MalformedInputError),
])
def test_mistakes_say_how(line, err):
    with pytest.raises(err):
        parse(line, st(), "west")


def test_help_lists_every_verb():
    text = help_text()
    for verb in ("place", "move", "throw", "tackle", "reroll", "intercept", "concede"):
        assert verb in text
    assert help_text("move").startswith("move HEX|DIR")
