"""The command grammar shared by the console, scenarios and the bot."""

from __future__ import annotations

import pytest
from support.builders import acting_dryad as st, hx, P, position

from engine import commands as C
from engine.errors import AmbiguousInputError, MalformedInputError, OffFieldError
from engine.hexes import Direction
from engine.state import Phase
from service.grammar import help_text, parse, resolve_player


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


# --- Advanced rules: abilities, support, the wizard, and the questions they ask -----------------
from engine.state import InProgress  # noqa: E402


def asking(state, kind, side="west", **fields):
    """``state`` paused on a question of ``kind`` (what the engine's ``ctx.ask`` leaves behind)."""
    state.in_progress = InProgress({"name": "end_action"}, side, question={"kind": kind, "side": side, **fields})
    return state


def test_moves_paid_with_an_ability_and_moves_of_another_player():
    s = st()
    assert parse("move NE NE with beeline", s, "west") == C.Move((hx("F13"), hx("G12")), None, "beeline")
    assert parse("move G14 facing W with Lead Pass", s, "west") == C.Move((hx("G14"),), Direction.W, "lead-pass")
    # The path of another player starts from his hex.
    assert parse("lead w2 NE NE", s, "west") == C.Move((hx("I11"), hx("J10")), None, "lead-pass", "w2")
    assert parse("swarm #2 W facing E", s, "west") == C.Move((hx("H12"),), Direction.E, "swarm", "w2")
    assert parse("move E with swarm player w2", s, "west") == C.Move((hx("J12"),), None, "swarm", "w2")
    # Naming the acting player himself is the ordinary move.
    assert parse("move E with teammate player w1", s, "west") == C.Move((hx("G14"),), None, "teammate")


def test_react_moves_a_player_out_of_sequence_without_an_acting_player():
    s = position(P("w5", "night-elves/strikers", "K12", "E"), P("e1", "gnolls/hunters", "M12", "W"), turn="west")
    assert s.acting_player is None
    assert parse("react w5 NE E", s, "west") == C.Move((hx("K11"), hx("L11")), None, "react", "w5")
    with pytest.raises(MalformedInputError, match="nobody is acting"):
        parse("move NE with react", s, "west")


def test_tackle_abilities_and_a_cheapshot_on_a_down_opponent():
    s = st()
    s.players["e1"].status = s.players["e1"].status.__class__("down")
    assert parse("tackle e2 steal", s, "west") == C.Tackle("e2", "steal")
    assert parse("tackle imp with cutblock", s, "west") == C.Tackle("e2", "cutblock")
    assert parse("pummel e2", s, "west") == C.Tackle("e2", "pummel")
    assert parse("cheapshot #1", s, "west") == C.Tackle("e1", "cheapshot")  # Down, but on the field
    assert parse("tackle e2", s, "west") == C.Tackle("e2")


def test_dash_sprint_cheer_and_the_out_of_sequence_abilities():
    s = st()
    assert parse("sprint", s, "west") == C.Dash(sprint=True)
    assert parse("dash sprint", s, "west") == C.Dash(0, True)
    assert parse("cheer", s, "west") == C.Cheer()
    assert parse("quickling w2", s, "west") == C.Quickling("w2")
    assert parse("taunt w2 imp 2", s, "west") == C.Taunt("w2", "e2", 2)
    with pytest.raises(MalformedInputError, match="COUNTERS"):
        parse("taunt w2 imp", s, "west")


def test_potions_for_players_anywhere_and_the_wizards_spells():
    s = st()
    assert parse("potion w3", s, "west") == C.DrinkPotion("w3")  # on the Bench
    assert parse("drink #1", s, "west") == C.DrinkPotion("w1")
    assert parse("spell system shock imp", s, "west") == C.CastSpell("system_shock", "e2")
    assert parse("cast system_shock #1", s, "west") == C.CastSpell("system_shock", "e1")
    assert parse("spell inferno H12", s, "west") == C.CastSpell("inferno", None, hx("H12"))
    assert parse("spell transformation e1", s, "west") == C.CastSpell("transformation", "e1")
    assert parse("spell frog w2", s, "west") == C.CastSpell("transformation", "w2")  # his own player, by id
    with pytest.raises(MalformedInputError, match="no spell"):
        parse("spell fireball e1", s, "west")


@pytest.mark.parametrize("kind,options,line,value", [
    ("clipping_retry", ["retry", "stay"], "retry", "retry"),
    ("clipping_retry", ["retry", "stay"], "answer STAY", "stay"),
    ("plough", ["plough", "stay"], "plough", "plough"),
    ("keg", ["use", "keep"], "use", "use"),
    ("keg", ["use", "keep"], "keep", "keep"),
    # Bankshot's last option is None: the bounce direction is rolled as usual ("roll" or "none").
    ("bankshot_direction", ["NE", "E", "SE", None], "roll", None),
    ("bankshot_direction", ["NE", "E", "SE", None], "answer roll", None),
    ("bankshot_direction", ["NE", "E", "SE", None], "none", None),
    ("bankshot_direction", ["NE", "E", "SE", None], "answer northeast", "NE"),
    ("bankshot_direction", ["NE", "E", "SE", None], "se", "SE"),
    ("bankshot_distance", [-1, 0, 1], "answer -1", -1),
    ("bankshot_distance", [-1, 0, 1], "+1", 1),
    ("bankshot_distance", [-1, 0, 1], "answer 0", 0),
    ("taunt_facing", ["NE", "E"], "face E", "E"),
    ("potion_ability", ["steady", "buff", "agile", "lead-pass"], "answer Agile", "agile"),
    ("potion_ability", ["steady", "buff", "agile", "lead-pass"], "lead pass", "lead-pass"),
    ("potion_veteran", ["steady+sprinter", "agile+focused", "agile+bankshot"], "answer focused and agile", "agile+focused"),
    ("potion_veteran", ["steady+sprinter", "agile+focused", "agile+bankshot"], "agile+bankshot", "agile+bankshot"),
    ("potion_attribute", ["jog", "might", "skill"], "answer Might", "might"),
    ("interceptor", ["e2", None], "answer nobody", None),
])
def test_answers_to_the_new_questions_pick_one_of_the_options(kind, options, line, value):
    s = asking(st(), kind, options=options)
    got = parse(line, s, "west")
    assert got == C.Answer(value) and type(got.value) is type(value)


def test_a_dice_question_of_an_ability_is_answered_like_a_momentum_reroll():
    s = asking(st(), "ability_reroll", eligible=[0, 2], max=1, ability="agile")
    assert parse("reroll 2", s, "west") == C.Answer((2,))
    assert parse("keep", s, "west") == C.Answer(())
    assert parse("answer 0", s, "west") == C.Answer((0,))


def test_a_wrong_answer_lists_the_options_readably():
    s = asking(st(), "potion_veteran", options=["agile+focused", "agile+bankshot"])
    with pytest.raises(MalformedInputError, match="Agile \\+ Focused, Agile \\+ Bankshot"):
        parse("answer sprinter", s, "west")
    with pytest.raises(MalformedInputError, match="no question"):
        parse("retry", st(), "west")
    with pytest.raises(MalformedInputError, match="choose one of"):
        parse("teleport", s, "west")  # not a command either: the options are the useful hint


def test_help_names_the_new_verbs():
    text = help_text()
    for verb in ("with ABILITY", "lead PLAYER", "cutblock", "sprint", "cheer", "quickling", "taunt", "potion", "spell",
                 "answer VALUE"):
        assert verb in text, verb


# --- hostile text: other digits, long lines, names with spaces and accents -----------------------
def test_place_and_replace_read_a_name_with_spaces_then_the_hex_and_facing():
    s = position(P("w1", "timberline-elves/hunters", None), P("w2", "timberline-elves/hunters", None),
                 P("w10", "timberline-elves/hunters", None), phase=Phase.SETUP)
    for pid in ("w1", "w2", "w10"):
        s.players[pid].name = f"Hunter #{pid[1:]}"
    assert parse("place Hunter #1 J12 E", s, "west") == C.Place("w1", hx("J12"), Direction.E)
    assert parse("place hunter #10 J12 NO", s, "west") == C.Place("w10", hx("J12"), Direction.NW)
    assert parse("replace Hunter #2 A12 SO", s, "west") == C.Replace("w2", hx("A12"), Direction.SW)
    with pytest.raises(AmbiguousInputError, match="'Hunter' could be w1 Hunter #1, w2 Hunter #2, w10 Hunter #10"):
        parse("place Hunter J12 E", s, "west")


def test_paths_read_the_french_compass_letters_and_refuse_other_words():
    s = st()
    assert parse("move O NO", s, "west") == C.Move((hx("E14"), hx("D13")))
    assert parse("move NE facing SO", s, "west") == C.Move((hx("F13"),), Direction.SW)
    with pytest.raises(MalformedInputError, match="'fly' is neither a hex nor a direction"):
        parse("move NE fly", s, "west")


@pytest.mark.parametrize("line", ["unplace ²", "unplace #③", "dash ²", "taunt w2 imp ٣", "reroll ²", "end ²",
                                  "place w1 J١٢ E", "throw K1٢", "act ²"])
def test_digits_other_than_0_9_are_refused_cleanly(line):
    with pytest.raises(MalformedInputError):
        parse(line, st(), "west")
    s = asking(st(), "ability_reroll", eligible=[0, 2], max=1, ability="agile")
    with pytest.raises(MalformedInputError, match="digits 0-9"):
        parse("answer ²", s, "west")
    s = asking(st(), "bankshot_distance", options=[-1, 0, 1])
    with pytest.raises(MalformedInputError, match="digits 0-9"):
        parse("answer ١", s, "west")


def test_a_line_longer_than_max_input_is_refused():
    from service.grammar import MAX_INPUT

    assert parse("move " + "E " * 10, st(), "west").path  # a long path is still far below the cap
    with pytest.raises(MalformedInputError, match=f"at most {MAX_INPUT}"):
        parse("move " + "E " * MAX_INPUT, st(), "west")


def test_the_console_refuses_unplace_with_a_superscript_digit(tmp_path, monkeypatch, capsys):
    """``echo 'unplace ²' | elfball local`` was a traceback."""
    import io

    from cli.main import main

    monkeypatch.setattr("sys.stdin", io.StringIO("unplace ²\nunplace ③\nconcede\n"))
    assert main(["local", "--db", str(tmp_path / "local.db"), "--out", str(tmp_path / "boards"), "--quiet",
                 "--ai", "east"]) == 0
    out = capsys.readouterr().out
    assert "refused: write numbers with the digits 0-9, not '²'" in out
    assert "refused: write numbers with the digits 0-9, not '③'" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("spec", [
    {"id": "w²", "position": "timberline-elves/hunters"},
    {"id": "w٣", "position": "timberline-elves/hunters"},
    {"id": "w1", "position": "timberline-elves/hunters", "hex": "K12", "facing": "²"},
    {"id": "w1", "position": "timberline-elves/hunters", "hex": "K١٢"},
    {"id": "w1", "position": "timberline-elves/hunters", "attributes": {"might": "³"}},
])
def test_a_scenario_reads_numbers_written_with_0_9_only(spec):
    from engine.field import standard_field
    from service.scenario import build_state, player_from_spec

    with pytest.raises(MalformedInputError):
        player_from_spec(spec, standard_field())
    with pytest.raises(MalformedInputError, match="momentum counters: '²' is not a whole number"):
        build_state({"players": [], "momentum": {"counters": "²"}})
    assert build_state({"players": [], "momentum": {"counters": "2"}}).momentum == 2
