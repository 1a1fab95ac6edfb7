"""Any text at all, at several moments of a match, is read as a command or refused with an
``ElfballError``: never another exception (``'unplace ²'`` was a traceback), and never slowly
(a 6,000-character answer to a catch question took 1.5 s of CPU)."""

from __future__ import annotations

import pytest
from support.builders import P, position
from support.work import calls_made
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import commands as C
from engine.errors import ElfballError, MalformedInputError
from engine.state import InProgress, Phase
from service import typed
from service.grammar import MAX_INPUT, VERBS, answer_value, match_option, parse


def _setup():
    return position(P("w1", "timberline-elves/hunters", None), P("w2", "timberline-elves/dryads", None),
                    P("e1", "night-elves/imps", None), phase=Phase.SETUP)


def _action():
    return position(P("w1", "timberline-elves/hunters", "F14", "E"), P("w2", "timberline-elves/dryads", "I12", "W"),
                    P("w3", "timberline-elves/hunters", None), P("e1", "night-elves/imps", "G14", "W"),
                    P("e2", "night-elves/strikers", "G13", "E", ball=True), acting="w1", jog=5)


def _asking(kind, options, side="east"):
    s = _action()
    s.in_progress = InProgress({"name": "throw"}, side, question={"kind": kind, "side": side, "options": options})
    return s


def _reroll():
    s = _action()
    s.in_progress = InProgress({"name": "tackle"}, "west", question={"kind": "ability_reroll", "side": "west",
                                                                     "eligible": [0, 2], "max": 1})
    return s


#: Where the grammar may be: the set-up, an action, a catch, an interceptor, a dice question,
#: a question whose options are numbers or abilities.
POSITIONS = {
    "setup": (_setup, "west"),
    "action": (_action, "west"),
    "catch": (lambda: _asking("catch", ["catch", "decline"]), "east"),
    "interceptor": (lambda: _asking("interceptor", ["e1", "e2", None]), "east"),
    "reroll": (_reroll, "west"),
    "distance": (lambda: _asking("bankshot_distance", [-1, 0, 1], "west"), "west"),
    "veteran": (lambda: _asking("potion_veteran", ["agile+focused", "steady+sprinter"], "west"), "west"),
}
BUILT = {name: make() for name, (make, _) in POSITIONS.items()}

#: Words the grammar knows, so that the text reaches past the first word.
WORDS = sorted({v.name for v in VERBS} | {a for v in VERBS for a in v.aliases} | {
    "w1", "w2", "e1", "#1", "3", "-1", "+1", "K12", "Z99", "F14", "NE", "NO", "SO", "O", "facing", "with", "player",
    "long", "steal", "beeline", "lead", "pass", "inferno", "system", "shock", "none", "keep", "catch", "decline",
    "agile+focused", "and", "Hunter", "#", "²", "③", "٣", "🏈", "Amélie"})
#: Characters that broke or may break a reader: other digits, controls, combining marks, wide letters.
ODD = "²³①③٣۳३௩\x00\x07\x1b\x1f\x7f\u200b\u202e\u0301ＥＮ＃\ufeff\t\r\n"
TEXTS = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=st.sampled_from(ODD + "abcKNEW0123456789 #+-,"), max_size=60),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(alphabet=st.sampled_from(ODD + "aek19 "), max_size=4)),
             max_size=8).map(" ".join),
    st.builds(lambda w, n: (w + " ") * n, st.sampled_from(WORDS), st.integers(50, 400)),
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(sorted(POSITIONS)), text=TEXTS)
def test_any_text_is_a_command_or_a_refusal(where, text):
    state, side = BUILT[where], POSITIONS[where][1]
    try:
        got = parse(text, state, side)
    except ElfballError:
        return
    assert isinstance(got, C.Command)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, builder=st.sampled_from(["setup place", "act", "move", "tackle", "taunt", "spell", "dash", "end"]))
def test_any_option_text_is_a_command_or_a_refusal(text, builder):
    good = {"setup place": dict(player="w1", hex="J12", facing="E"), "act": dict(player="w1"), "move": dict(path="E"),
            "tackle": dict(target="e1"), "taunt": dict(player="w2", target="e1", counters=1),
            "spell": dict(spell="transformation", target="e1"), "dash": dict(counters=1), "end": dict(facing="E")}[builder]
    state = BUILT["setup" if builder == "setup place" else "action"]
    for option in good:
        try:
            got = typed.build(builder, state, "west", **{**good, option: text})
        except ElfballError:
            continue
        assert isinstance(got, C.Command)


def test_a_long_line_is_refused_at_once():
    for where, (_, side) in POSITIONS.items():
        line = "agile " * 1000
        try:
            parse(line, BUILT[where], side)
        except MalformedInputError as exc:
            assert str(exc) == f"that text has 6000 characters; a command or an option has at most {MAX_INPUT}"
        else:
            raise AssertionError(where)
        # Refused before it is read: the same few calls as for any text over the cap.
        assert calls_made(parse, line, BUILT[where], side, ignore=ElfballError) < 20


def test_a_6000_character_answer_is_read_in_linear_time():
    """Past the length cap too: every word of an answer once looked up every ability's names."""
    answers = ["agile " * 1000, "st " * 2000, "ab " * 2000, " ".join(f"word{i}" for i in range(800))[:6000],
               "agile+focused," * 428, "Hunter " * 857]
    for where in ("catch", "interceptor", "veteran", "distance", "reroll"):
        state = BUILT[where]
        for text in answers:
            assert len(text) >= 5990
            # A few calls per character (3 at most today); reading the ability catalogue again
            # for each word made about 300.
            options = state.in_progress.question.get("options", ())
            assert calls_made(answer_value, state, text, ignore=ElfballError) < 10 * len(text), (where, text[:20])
            assert calls_made(match_option, state, options, text, ignore=ElfballError) < 10 * len(text), (where, text[:20])
