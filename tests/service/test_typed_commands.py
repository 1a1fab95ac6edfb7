"""The bot's slash commands built option by option (``service.typed``): each option read alone and
strictly, so that no option stands for another (``player:"w2 F7 E"`` once placed w2 on F7)."""

from __future__ import annotations

import pytest
from support.builders import P, hx, position

from engine import commands as C
from engine.errors import AmbiguousInputError, ElfballError, InvalidCoordinateError, MalformedInputError, OffFieldError
from engine.hexes import Direction
from engine.state import InProgress, Phase
from service import typed
from service.grammar import MAX_INPUT, parse
from service.refusals import render_refusal as refusal_text

NAMES = {"w1": "Hunter #1", "w2": "Hunter #2", "w10": "Hunter #10", "w3": "Amélie", "e1": "Imp #1", "e2": "Imp #2"}


def named(state):
    """Real matches name players ``Hunter #1`` (scenarios ``Hunter w1``); coaches may rename them."""
    for pid, name in NAMES.items():
        if pid in state.players:
            state.players[pid].name = name
    return state


def setup():
    """West sets up: three Hunters and Amélie on the Bench, east's Imps too."""
    return named(position(
        P("w1", "timberline-elves/hunters", None), P("w2", "timberline-elves/hunters", None),
        P("w10", "timberline-elves/hunters", None), P("w3", "timberline-elves/dryads", None),
        P("e1", "night-elves/imps", None), P("e2", "night-elves/imps", None), phase=Phase.SETUP))


def action():
    """Hunter #1 acts on F14; Hunter #2 on I12; Amélie on the Bench; two Imps on the field."""
    return named(position(
        P("w1", "timberline-elves/hunters", "F14", "E"), P("w2", "timberline-elves/hunters", "I12", "W"),
        P("w10", "timberline-elves/hunters", "K16", "W"), P("w3", "timberline-elves/dryads", None),
        P("e1", "night-elves/imps", "G14", "W"), P("e2", "night-elves/imps", "G13", "E", ball=True),
        acting="w1", jog=5))


def refusal(err, call, *, match=None):
    """The ``err`` refusing ``call``, in words a French coach reads in French too (a keyed
    refusal, said from the French catalogue)."""
    with pytest.raises(err, match=match) as info:
        call()
    assert info.value.refusal is not None or refusal_text(info.value, "fr") != str(info.value), str(info.value)
    return info.value


def refused(err, call, *, match=None):
    """``call`` is refused with ``err``: its English text."""
    return str(refusal(err, call, match=match))


# --- the good cases ------------------------------------------------------------------------------
def test_setup_place_reads_a_name_with_spaces_an_id_and_the_french_compass_letters():
    s = setup()
    assert typed.place(s, "west", player="Hunter #1", hex="J12", facing="E") == C.Place("w1", hx("J12"), Direction.E)
    assert typed.place(s, "west", player="hunter #1", hex="j12", facing="NO") == C.Place("w1", hx("J12"), Direction.NW)
    assert typed.place(s, "west", player="Hunter #10", hex="J12", facing="SO").player == "w10"  # not #1 again
    assert typed.place(s, "west", player="w2", hex="J12", facing="O").facing is Direction.W
    assert typed.place(s, "west", player=" #2 ", hex="J12", facing="west").player == "w2"
    assert typed.replace(s, "west", player="Hunter #2", hex="A12", facing="E") == C.Replace("w2", hx("A12"), Direction.E)


def test_names_ignore_case_and_accents():
    s = setup()
    for ref in ("Amélie", "amelie", "AMELIE", "amélie", "AMÉLIE"):
        assert typed.potion(s, "west", player=ref) == C.DrinkPotion("w3")


def test_every_builder_makes_its_engine_command():
    s = action()
    assert typed.act(s, "west", player="Hunter #2") == C.StartAction("w2")
    assert typed.move(s, "west", path="G14 G13") == C.Move((hx("G14"), hx("G13")))
    assert typed.move(s, "west", path="E, NE", facing="W") == C.Move((hx("G14"), hx("G13")), Direction.W)
    assert typed.move(s, "west", path="NE NE", ability="Lead Pass", player="Hunter #2") == \
        C.Move((hx("I11"), hx("J10")), None, "lead-pass", "w2")
    assert typed.move(s, "west", path="E", ability="teammate", player="w1") == C.Move((hx("G14"),), None, "teammate")
    assert typed.face(s, "west", direction="SW") == C.Face(Direction.SW)
    assert typed.throw(s, "west", target="K12") == C.Throw(hx("K12"), None)
    assert typed.throw(s, "west", target="K12", long=True) == C.Throw(hx("K12"), True)
    assert typed.tackle(s, "west", target="Imp #2") == C.Tackle("e2")
    assert typed.tackle(s, "west", target="e1", use="Steal") == C.Tackle("e1", "steal")
    assert typed.tackle(s, "west", target="#1", use="cheapshot") == C.Tackle("e1", "cheapshot")
    assert typed.shove(s, "west", target="imp #1") == C.Shove("e1")
    assert typed.stand(s, "west") == C.StandUp(None)
    assert typed.stand(s, "west", facing="NE") == C.StandUp(Direction.NE)
    assert typed.dash(s, "west", counters=2) == C.Dash(2)
    assert typed.dash(s, "west", counters="3") == C.Dash(3)
    assert typed.dash(s, "west", sprint=True) == C.Dash(sprint=True)
    assert typed.cheer(s, "west") == C.Cheer()
    assert typed.quickling(s, "west", player="w2") == C.Quickling("w2")
    assert typed.taunt(s, "west", player="Hunter #2", target="Imp #1", counters=2) == C.Taunt("w2", "e1", 2)
    assert typed.potion(s, "west", player="Amélie") == C.DrinkPotion("w3")
    assert typed.spell(s, "west", spell="system_shock", target="Imp #2") == C.CastSpell("system_shock", "e2")
    assert typed.spell(s, "west", spell="inferno", hex="H12") == C.CastSpell("inferno", None, hx("H12"))
    assert typed.spell(s, "west", spell="transformation", target="Hunter #2") == C.CastSpell("transformation", "w2")
    assert typed.end(s, "west") == C.EndAction(None)
    assert typed.end(s, "west", facing="NO") == C.EndAction(Direction.NW)


def test_face_answers_a_question_that_asks_for_a_direction():
    s = action()
    s.in_progress = InProgress({"name": "end_action"}, "west", question={"kind": "taunt_facing", "side": "west",
                                                                          "options": ["NE", "E"]})
    assert typed.face(s, "west", direction="E") == C.Answer("E")
    refused(MalformedInputError, lambda: typed.face(s, "west", direction="W"), match="choose one of: NE, E")


# --- no option stands for another ------------------------------------------------------------------
def test_a_player_option_cannot_carry_a_hex_and_a_facing():
    s = setup()
    text = refused(MalformedInputError, lambda: typed.place(s, "west", player="w2 F7 E", hex="Z99", facing="W"))
    assert text.startswith("no player of west matches 'w2 F7 E'; try one of: w1 Hunter #1, w2 Hunter #2")
    refused(OffFieldError, lambda: typed.place(s, "west", player="w2", hex="Z99", facing="W"), match="Z99 is off the field")
    refused(MalformedInputError, lambda: typed.replace(s, "west", player="w2 A12 E", hex="A12", facing="E"))
    s = action()
    refused(MalformedInputError, lambda: typed.taunt(s, "west", player="w2 e1 2", target="e1", counters=1))
    refused(MalformedInputError, lambda: typed.tackle(s, "west", target="e2 steal"))
    refused(MalformedInputError, lambda: typed.move(s, "west", path="E", player="w2 NE"))


def test_a_hex_or_a_facing_option_is_exactly_one():
    s = setup()
    refused(InvalidCoordinateError, lambda: typed.place(s, "west", player="w1", hex="J12 K12", facing="E"), match="J12 K12")
    refused(MalformedInputError, lambda: typed.place(s, "west", player="w1", hex="J12", facing="E facing W"))
    refused(MalformedInputError, lambda: typed.place(s, "west", player="w1", hex="J12", facing="NE NE"))
    s = action()
    refused(OffFieldError, lambda: typed.throw(s, "west", target="Z99"), match="Z99")
    refused(OffFieldError, lambda: typed.spell(s, "west", spell="inferno", hex="Z99"), match="Z99")
    refused(MalformedInputError, lambda: typed.end(s, "west", facing="W and more"))


def test_a_path_has_hexes_and_directions_only():
    s = action()
    refused(MalformedInputError, lambda: typed.move(s, "west", path="E facing W"),
            match="'facing' is neither a hex nor a direction")
    refused(MalformedInputError, lambda: typed.move(s, "west", path="NE with beeline"), match="'with'")
    refused(MalformedInputError, lambda: typed.move(s, "west", path="NE player w2"), match="'player'")
    refused(OffFieldError, lambda: typed.move(s, "west", path="G14 Z99"), match="Z99")
    refused(MalformedInputError, lambda: typed.move(s, "west", path="   "), match="usage: move")
    refused(MalformedInputError, lambda: typed.move(s, "west", path="E", ability="beeline player w4"),
            match="no ability")
    refused(MalformedInputError, lambda: typed.tackle(s, "west", target="e2", use="steal e1"),
            match="unknown Tackle ability")


def test_an_option_the_command_does_not_use_is_refused_not_ignored():
    s = action()
    refused(MalformedInputError, lambda: typed.spell(s, "west", spell="inferno", target="e1", hex="H12"), match="usage: spell")
    refused(MalformedInputError, lambda: typed.spell(s, "west", spell="system_shock", target="e1", hex="H12"),
            match="usage: spell")
    refused(MalformedInputError, lambda: typed.spell(s, "west", spell="fireball", target="e1"), match="no spell")
    refused(MalformedInputError, lambda: typed.dash(s, "west", counters=2, sprint=True), match="usage: dash")
    refused(MalformedInputError, lambda: typed.dash(s, "west"), match="usage: dash")


# --- players: one, or a refusal naming the candidates ---------------------------------------------
def test_an_ambiguous_name_lists_the_candidates_by_id_and_name():
    s = setup()
    error = refusal(AmbiguousInputError, lambda: typed.place(s, "west", player="hunter", hex="J12", facing="E"))
    assert str(error) == "'hunter' could be w1 Hunter #1, w2 Hunter #2, w10 Hunter #10: use the id"
    assert refusal_text(error, "fr") == \
        "'hunter' peut désigner w1 Hunter #1, w2 Hunter #2, w10 Hunter #10 : utilisez l'identifiant"


def test_the_candidates_are_filtered_and_at_most_ten():
    s = action()
    # /act wants west's players on the field: Amélie (Bench) and the Imps are not offered.
    error = refusal(MalformedInputError, lambda: typed.act(s, "west", player="ogre"))
    assert str(error) == "no player of west on the field matches 'ogre'; try one of: w1 Hunter #1, w2 Hunter #2, w10 Hunter #10"
    assert refusal_text(error, "fr") == ("aucun joueur de l'Ouest sur le terrain ne correspond à "
                                                             "'ogre' ; essayez : w1 Hunter #1, w2 Hunter #2, w10 Hunter #10")
    text = refused(MalformedInputError, lambda: typed.tackle(s, "west", target="Hunter #2"))
    assert "of east on the field" in text and "Imp #1" in text and "Hunter" not in text.split("try one of")[1]
    crowd = position(*(P(f"w{i}", "timberline-elves/hunters", None) for i in range(1, 13)), phase=Phase.SETUP)
    error = refusal(AmbiguousInputError, lambda: typed.place(crowd, "west", player="hunter", hex="J12", facing="E"))
    text = str(error)
    assert text.count(", ") == 9 and text.endswith("w10 Hunter w10 (and 2 more): use the id")
    assert refusal_text(error, "fr").endswith("(et 2 de plus) : utilisez l'identifiant")


@pytest.mark.parametrize("ref", ["🏈", "⚽🏈", "#", "  -  ", "!!!", "\u200b"])
def test_text_without_a_letter_or_digit_names_nobody(ref):
    s = action()
    text = refused(MalformedInputError, lambda: typed.act(s, "west", player=ref))
    assert text.startswith("name a player by his id (w3) or his name") or text.startswith("usage: act")
    refused(MalformedInputError, lambda: parse(f"act {ref}", s, "west"))


@pytest.mark.parametrize("digit", ["²", "③", "٣", "۳", "३", "௩"])
def test_digits_other_than_0_9_are_refused_never_read(digit):
    s = action()
    refused(MalformedInputError, lambda: typed.dash(s, "west", counters=digit), match="digits 0-9")
    refused(MalformedInputError, lambda: typed.taunt(s, "west", player="w2", target="e1", counters=digit))
    refused(MalformedInputError, lambda: typed.act(s, "west", player=digit), match="digits 0-9")
    refused(MalformedInputError, lambda: typed.end(s, "west", facing=digit), match="not a direction")
    refused(InvalidCoordinateError, lambda: typed.throw(s, "west", target=f"K1{digit}"))
    refused(MalformedInputError, lambda: parse(f"unplace {digit}", setup(), "west"))
    refused(MalformedInputError, lambda: parse(f"dash {digit}", s, "west"))
    refused(MalformedInputError, lambda: parse(f"face {digit}", s, "west"))


def test_an_option_has_at_most_max_input_characters():
    s = action()
    refused(MalformedInputError, lambda: typed.act(s, "west", player="w" * (MAX_INPUT + 1)),
            match=f"that text has {MAX_INPUT + 1} characters")
    refused(MalformedInputError, lambda: typed.move(s, "west", path="E " * 300))


# --- by the slash command's name ----------------------------------------------------------------
def test_a_request_carries_the_options_to_the_position():
    s = setup()
    request = typed.Request("setup place", player="Hunter #1", hex="J12", facing="E")
    assert request.build(s, "west") == C.Place("w1", hx("J12"), Direction.E)
    assert request == typed.Request("setup place", player="Hunter #1", hex="J12", facing="E")
    assert repr(request) == "Request('setup place', player='Hunter #1', hex='J12', facing='E')"
    assert typed.build("act", action(), "west", player="w2") == C.StartAction("w2")
    assert typed.Request("undo").is_undo and not request.is_undo
    with pytest.raises(MalformedInputError, match="undo is answered by the match service"):
        typed.Request("undo").build(s, "west")
    with pytest.raises(ValueError, match="no slash command"):
        typed.Request("fly")
    assert set(typed.BUILDERS) == {"setup place", "act", "move", "face", "throw", "tackle", "shove", "stand", "dash",
                                   "cheer", "quickling", "taunt", "potion", "spell", "end", "replace"}


def test_every_builder_refuses_in_elfball_errors_only():
    """Junk in every text option of every builder: a command or an ElfballError, nothing else."""
    junk = ["", " ", "🏈", "²", "Z99", "w2 F7 E", "facing W", "x" * 600, "\x00", "e1", "NE", "3", "-1", "#"]
    s = action()
    texts = {"player", "hex", "facing", "path", "ability", "direction", "target", "use", "spell"}
    required = {"setup place": dict(player="w1", hex="J12", facing="E"), "act": dict(player="w1"), "move": dict(path="E"),
                "face": dict(direction="E"), "throw": dict(target="K12"), "tackle": dict(target="e1"),
                "shove": dict(target="e1"), "stand": {}, "dash": dict(counters=1), "cheer": {},
                "quickling": dict(player="w2"), "taunt": dict(player="w2", target="e1", counters=1),
                "potion": dict(player="w3"), "spell": dict(spell="system_shock", target="e1"), "end": {},
                "replace": dict(player="w3", hex="A12", facing="E")}
    for name, good in required.items():
        assert isinstance(typed.build(name, s, "west", **good), C.Command), name
        for option in set(good) & texts | ({"facing"} if name in ("stand", "end", "move") else set()):
            for value in junk:
                try:
                    got = typed.build(name, s, "west", **{**good, option: value})
                except ElfballError:
                    continue
                assert isinstance(got, C.Command), (name, option, value)


def test_the_line_the_bot_joins_today_is_refused_too():
    """Until the bot builds its commands here, the grammar reads the joined line: the player is
    every word before the last two, so the spilled hex and facing make him unknown."""
    s = setup()
    refused(MalformedInputError, lambda: parse("place w2 F7 E Z99 W", s, "west"), match="no player of west matches 'w2 F7 E'")
    assert parse("place Hunter #1 J12 E", s, "west") == C.Place("w1", hx("J12"), Direction.E)
    refused(MalformedInputError, lambda: parse("act 🏈", action(), "west"), match="name a player")
