"""The engine's contract with its callers: refusals, coaches, answers, legal commands, pending
defaults and serialisation.

* An illegal command raises ``IllegalCommandError`` naming the rulebook section (``rule``) and
  leaves the state exactly as it was (``apply`` never mutates its input).
* ``legal_commands(state, side)`` lists exactly what ``apply`` accepts: checked on positions
  reached by random play (``engine.fuzz.RandomCoach``), hypothesis choosing the matches.
* ``pending(state)`` always offers a default that is legal.
* ``MatchState.from_dict(state.to_dict())`` round-trips exactly at every step, including while a
  question is pending, and a paused resolution resumes identically after the round trip.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from support.builders import P, hx, position, refused
from support.builders import play as act
from hypothesis import given, settings
from hypothesis import strategies as strat

from engine import commands as C
from engine.dice import ScriptedDice, SeededDice
from engine.errors import DiceScriptError, IllegalCommandError, MalformedInputError
from engine.field import standard_field
from engine.fuzz import RandomCoach, invariant_violations
from engine.hexes import Direction
from engine.legal import candidate_commands, legal_commands
from engine.match import RULES, TeamEntry, apply, check, new_match, pending
from engine.rosters import all_team_lists, default_roster
from engine.state import MatchState, Phase, RuleOptions

FIELD = standard_field()
RULE_NAME = re.compile(r"\(p\. \d+\)$")


# --- refusals --------------------------------------------------------------------------------
def action_position(**kw):
    return position(
        P("w1", "gnolls/hunters", "G12", "E", ball=True), P("w2", "gnolls/midfielders", "E12", "E"),
        P("e1", "gnolls/strikers", "H12", "W"), P("e2", "gnolls/midfielders", "Q17", "W"),
        acting="w1", **kw,
    )


ILLEGAL = [
    # (description, position factory, command, by)
    ("a second Tackle", lambda: act(action_position(), C.Tackle("e1"), faces="- - - -").state, C.Tackle("e1"), "west"),
    ("a Dash without counters", action_position, C.Dash(1), "west"),
    ("a Move beyond the Jog", lambda: action_position(jog=1), C.Move((hx("G11"), hx("F11"))), "west"),
    ("a throw to an opponent", action_position, C.Throw(hx("H12")), "west"),
    ("standing while standing", action_position, C.StandUp(), "west"),
    ("a Replacement during an action", action_position, C.Replace("w2", hx("E5"), Direction.E), "west"),
    ("a face-off choice in a turn", action_position, C.FaceoffPickup(), "west"),
    ("an answer with no question", action_position, C.Answer([]), "west"),
    ("the wrong coach in an action", action_position, C.EndAction(), "east"),
    ("the wrong coach in a turn", lambda: position(P("w1", "gnolls/midfielders", "G12"), P("e1", "gnolls/midfielders", "N12"), turn="west"),
     C.StartAction("e1"), "east"),
    ("another team's player", lambda: position(P("w1", "gnolls/midfielders", "G12"), P("e1", "gnolls/midfielders", "N12"), turn="west"),
     C.StartAction("e1"), "west"),
]


@pytest.mark.parametrize(("what", "make", "command", "by"), ILLEGAL, ids=[x[0] for x in ILLEGAL])
def test_an_illegal_command_names_its_rule_and_changes_nothing(what, make, command, by):
    st = make()
    before = json.dumps(st.to_dict(), sort_keys=True)
    err = refused(st, command, by=by)
    assert RULE_NAME.search(err.rule), err.rule
    assert err.rule in err.args[0] and err.reason
    assert json.dumps(st.to_dict(), sort_keys=True) == before
    # check() gives the same refusal without rolling anything.
    with pytest.raises(IllegalCommandError) as info:
        check(st, command, by=by)  # type: ignore[arg-type]
    assert info.value.rule == err.rule


def test_every_rule_name_quotes_a_page():
    assert all(RULE_NAME.search(r) for r in RULES.values())


def test_malformed_input_is_not_a_rule_refusal():
    st = action_position()
    with pytest.raises(MalformedInputError):
        apply(st, C.Move((hx("I12"),)), SeededDice(1), by="west")  # not a path of steps
    with pytest.raises(MalformedInputError):
        apply(st, C.Tackle("x9"), SeededDice(1), by="west")
    with pytest.raises(MalformedInputError):
        apply(st, C.EndAction(), SeededDice(1), by="north")  # type: ignore[arg-type]


def test_a_resolution_that_fails_midway_changes_nothing():
    """apply() works on a copy: even a resolution that dies after moving pieces (here the
    scripted dice run out before the loose ball's scatter) leaves its input untouched."""
    st = action_position()
    st.ball.carrier, st.ball.hex = "e1", None
    before = st.to_dict()
    with pytest.raises(DiceScriptError):
        apply(st, C.Tackle("e1"), ScriptedDice("O O O -"), by="west")  # Solid Hit, then a D6
    assert st.to_dict() == before


# --- answers ------------------------------------------------------------------------------------
class TestAnswers:
    def paused(self):
        """West spends counters on a Tackle: the question is west's (dice 0-3, at most 2)."""
        st = action_position(momentum=(2, "west"))
        res = act(st, C.Tackle("e1"), faces="O - - -", pending=True)
        q = res.state.in_progress.question
        assert (q["kind"], q["side"], q["eligible"], q["max"]) == ("reroll", "west", [0, 1, 2, 3], 2)
        return res.state

    def test_the_state_reports_a_decision(self):
        st = self.paused()
        assert st.current_phase is Phase.DECISION and st.phase is Phase.ACTION
        p = pending(st)
        assert (p.side, p.kind) == ("west", "reroll")

    def test_wrong_side(self):
        refused(self.paused(), C.Answer([0]), by="east", match="west's coach")

    def test_more_dice_than_counters(self):
        refused(self.paused(), C.Answer([0, 1, 2]), by="west", match="at most 2")

    def test_an_ineligible_die(self):
        refused(self.paused(), C.Answer([7]), by="west", match="only dice")

    def test_no_die_twice(self):
        st = self.paused()
        st2 = act(st, C.Answer([1]), faces="-", by="west", pending=True).state
        q = st2.in_progress.question
        assert 1 not in q["eligible"] and q["max"] == 1
        refused(st2, C.Answer([1]), by="west", match="only dice")

    def test_not_a_list_of_dice(self):
        with pytest.raises(MalformedInputError):
            apply(self.paused(), C.Answer(["a"]), SeededDice(1), by="west")

    def test_other_commands_wait_for_the_answer(self):
        refused(self.paused(), C.EndAction(), by="west", match="answer the pending question")
        refused(self.paused(), C.Shove("e1"), by="west", match="answer the pending question")

    def test_an_option_question(self):
        st = position(
            P("w1", "gnolls/strikers", "G12", "W", ball=True), P("w2", "gnolls/midfielders", "D12", "W"),
            P("e1", "gnolls/strikers", "E12", "NE"), acting="w1",
        )
        st = act(st, C.Throw(hx("D12")), faces="O - - -", pending=True).state
        q = st.in_progress.question
        assert q["kind"] == "interceptor" and q["options"] == ["e1", None]
        refused(st, C.Answer("e2"), by="east", match="choose one of")
        refused(st, C.Answer("e1"), by="west", match="east's coach")
        assert act(st, C.Answer(None), faces="O O -", by="east", answers=["catch"]).state.ball.carrier == "w2"


# --- legal commands, pending defaults and serialisation on random positions -----------------------
def random_walk(seed: int, steps: int, goals: int = 1):
    """Yield (state, side, rng) along a random match between random team lists."""
    rng = random.Random(seed)
    w, e = rng.sample(all_team_lists(), 2)
    dice = SeededDice(seed)
    options = RuleOptions(goals_to_win=goals, star2=seed % 5 == 0)
    st = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice,
                   options=options).state
    coach = RandomCoach(rng)
    for _ in range(steps):
        if st.phase is Phase.MATCH_OVER:
            return
        side = pending(st).side
        assert side is not None
        yield st, side, rng
        st = apply(st, coach.choose(st, side, FIELD), dice, by=side).state


def _same(a: MatchState, b: MatchState) -> bool:
    return a.to_dict() == b.to_dict()


def assert_round_trip(st: MatchState) -> None:
    d = st.to_dict()
    back = MatchState.from_dict(json.loads(json.dumps(d)))
    assert back == st
    assert back.to_dict() == d


def assert_legal_matches_apply(st: MatchState, side: str, rng: random.Random) -> None:
    lc = legal_commands(st, side)  # type: ignore[arg-type]
    legal = list(lc)
    assert legal, f"no legal command for {side} in {st.current_phase}"
    before = st.to_dict()
    # Every kind of legal command, up to 3 of each (a carrier has hundreds of throw targets).
    kinds: dict[type, list[C.Command]] = {}
    for cmd in legal:
        kinds.setdefault(type(cmd), []).append(cmd)
    for cmds in kinds.values():
        for cmd in rng.sample(cmds, min(3, len(cmds))):
            apply(st, cmd, SeededDice(rng.randrange(10**6)), by=side)  # type: ignore[arg-type]
            check(st, cmd, by=side)  # type: ignore[arg-type]
            assert cmd in lc
    candidates = candidate_commands(st, side)  # type: ignore[arg-type]
    rng.shuffle(candidates)
    unlisted = [c for c in candidates[:40] if not lc.is_legal(c)][:3]
    for cmd in unlisted:
        with pytest.raises((IllegalCommandError, MalformedInputError)):
            apply(st, cmd, SeededDice(1), by=side)  # type: ignore[arg-type]
    other = "east" if side == "west" else "west"
    for cmd in rng.sample(legal, min(2, len(legal))):
        if isinstance(cmd, (C.Concede, C.StartTest)):
            continue  # either coach may concede, or start the next Test
        with pytest.raises((IllegalCommandError, MalformedInputError)):
            apply(st, cmd, SeededDice(1), by=other)  # type: ignore[arg-type]
    assert st.to_dict() == before  # nothing above touched the position


def assert_defaults_are_legal(st: MatchState, rng: random.Random) -> None:
    p = pending(st)
    if st.phase is Phase.MATCH_OVER:
        return
    assert p.default, f"no default for {p.kind}"
    cur = st
    for cmd in p.default:
        cur = apply(cur, cmd, SeededDice(rng.randrange(10**6)), by=p.side).state  # type: ignore[arg-type]
        if cur.in_progress is not None or cur.phase is Phase.MATCH_OVER:
            break


def assert_resumes_after_round_trip(st: MatchState, side: str) -> None:
    """A paused resolution, saved and loaded, continues exactly as the original would."""
    if st.in_progress is None:
        return
    answer = pending(st).default[0]
    back = MatchState.from_dict(json.loads(json.dumps(st.to_dict())))
    a = apply(st, answer, SeededDice(99), by=side)  # type: ignore[arg-type]
    b = apply(back, answer, SeededDice(99), by=side)  # type: ignore[arg-type]
    assert _same(a.state, b.state)
    assert [e.to_dict() for e in a.events] == [e.to_dict() for e in b.events]


@pytest.mark.slow
@settings(max_examples=5, deadline=None, derandomize=True)
@given(seed=strat.integers(min_value=0, max_value=10**6), goals=strat.sampled_from([1, 2]))
def test_random_positions(seed, goals):
    for st, side, rng in random_walk(seed, 100, goals):
        assert not invariant_violations(st, FIELD)
        assert_round_trip(st)
        assert_legal_matches_apply(st, side, rng)
        assert_defaults_are_legal(st, rng)
        assert_resumes_after_round_trip(st, side)


def test_a_whole_match_round_trips_at_every_step():
    """Every state of a complete random match (466 commands), questions included."""
    seen_pending = False
    last = None
    for st, _side, _rng in random_walk(9, 2000):
        assert_round_trip(st)
        seen_pending |= st.in_progress is not None
        last = st
    assert seen_pending and last is not None


def test_a_finished_test_and_match_round_trip():
    st = position(
        P("w1", "gnolls/strikers", "S13", "E", ball=True), P("e1", "gnolls/midfielders", "N12", "W"),
        P("e2", "gnolls/midfielders", location="recovery"), acting="w1", options=RuleOptions(goals_to_win=2),
    )
    st = act(st, C.Move((hx("T12"),))).state
    st = act(st, C.EndAction()).state
    assert st.phase is Phase.TEST_OVER
    assert_round_trip(st)
    st = act(st, C.Concede(), by="east").state
    assert st.phase is Phase.MATCH_OVER
    assert_round_trip(st)
