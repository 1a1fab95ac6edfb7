"""The hard AI coach (issue 22): its Advanced choices in hand-made positions, the search that
picks who acts (``ai.search``), its bounded work and its repeatability. A few seconds."""

from __future__ import annotations

import random

import pytest
from support.builders import P, hx, position

from engine import commands as C
from ai import MAX_ROLLOUT, AICoach, SearchSettings, best_actor, evaluate, make_ai, play_match
from engine.dice import SeededDice
from engine.field import standard_field
from engine.hexes import distance
from engine.match import check
from engine.rosters import all_team_lists
from engine.state import Phase, RuleOptions

ADVANCED = RuleOptions(advanced=True)
F = standard_field()


def test_a_striker_with_steal_steals_the_ball_instead_of_tackling():
    st = position(
        P("w1", "gnolls/strikers", "G12", "E", abilities=("steal",)),
        P("e1", "gnolls/strikers", "H12", "W", ball=True),
        P("e2", "gnolls/midfielders", "Q16", "W"),
        acting="w1", jog=0, options=ADVANCED,
    )
    assert AICoach(level="easy").choose(st, "west") == C.Tackle("e1")
    assert make_ai("hard").choose(st, "west") == C.Tackle("e1", "steal")


def test_a_potion_goes_to_an_injured_player_and_not_to_a_fit_one():
    on_field = (P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "N12", "W"))
    fit = position(*on_field, P("w2", "gnolls/hunters"), phase=Phase.TURN, turn="west",
                   support={"west": {"potions": 2}}, options=ADVANCED)
    assert not isinstance(make_ai("hard").choose(fit, "west"), C.DrinkPotion)
    hurt = position(*on_field, P("w2", "gnolls/hunters", location="infirmary"), phase=Phase.TURN, turn="west",
                    support={"west": {"potions": 2}}, options=ADVANCED)
    assert make_ai("hard").choose(hurt, "west") == C.DrinkPotion("w2")
    assert not isinstance(AICoach(level="easy").choose(hurt, "west"), C.DrinkPotion)


def test_the_wizard_is_called_on_a_carrier_no_one_can_reach():
    st = position(
        P("w1", "gnolls/strikers", "E4", "E"),
        P("e1", "gnolls/strikers", "N12", "W", ball=True),
        phase=Phase.TURN, turn="west", support={"west": {"wizard": 1}}, options=ADVANCED,
    )
    cmd = make_ai("hard").choose(st, "west")
    assert isinstance(cmd, C.CastSpell) and (cmd.target == "e1" or cmd.hex == st.players["e1"].hex)
    assert isinstance(AICoach(level="easy").choose(st, "west"), C.StartAction)


def test_evaluate_prefers_a_goal_then_the_ball_nearer_their_goal():
    base = {"phase": Phase.TURN, "turn": "east"}
    ahead = position(P("w1", "gnolls/strikers", "N12", "E", ball=True), P("e1", "gnolls/strikers", "E4", "W"), **base)
    behind = position(P("w1", "gnolls/strikers", "G12", "E", ball=True), P("e1", "gnolls/strikers", "E4", "W"), **base)
    theirs = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "E4", "W", ball=True), **base)
    assert evaluate(ahead, "west", F) > evaluate(behind, "west", F) > evaluate(theirs, "west", F)
    assert evaluate(theirs, "east", F) > evaluate(theirs, "west", F)


def test_the_search_keeps_the_heuristics_choice_unless_a_line_does_better():
    st = position(
        P("w1", "gnolls/strikers", "G12", "E"), P("w2", "gnolls/hunters", "E5", "E"),
        P("e1", "gnolls/strikers", "N12", "W"),
        ball="I12", phase=Phase.TURN, turn="west",
    )

    def policy(state, side, fld):  # type: ignore[no-untyped-def]
        return AICoach().choose(state, side, fld)

    # w1 is two paces from the ball, w2 far away: both orders find w1.
    assert best_actor(st, "west", F, ["w1", "w2"], 0, policy) == "w1"
    assert best_actor(st, "west", F, ["w2", "w1"], 0, policy, SearchSettings(margin=0.0)) == "w1"
    assert best_actor(st, "west", F, ["w2"], 0, policy) == "w2"  # one candidate: nothing to search


@pytest.mark.slow
def test_hard_decisions_are_legal_bounded_and_repeatable(monkeypatch):
    """Each hard decision plays out at most (candidates compared) x samples x (1 + MAX_ROLLOUT x
    horizon) commands: the search's work is capped by counts, whatever the clock says
    (``benchmarks/bench_ai.py`` measures the time)."""
    import ai.search

    applied = [0]
    real_apply = ai.search.apply

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        applied[0] += 1
        return real_apply(*args, **kwargs)

    monkeypatch.setattr(ai.search, "apply", counted)
    work: list[int] = []

    class Counted:
        def __init__(self) -> None:
            self.coach = make_ai("hard", random.Random(3), seed=3)

        def choose(self, state, side, field):  # type: ignore[no-untyped-def]
            before = applied[0]
            cmd = self.coach.choose(state, side, field)
            work.append(applied[0] - before)
            check(state, cmd, by=side, field=field)
            return cmd

    def one() -> tuple:
        west, east = random.Random(3).sample(all_team_lists(), 2)
        counted_coach = Counted()
        s = play_match(west, east, {"west": counted_coach, "east": make_ai("easy")}, SeededDice(3), goals_to_win=1)
        assert counted_coach.coach.fallbacks == 0 and not s.capped
        return s.winner, s.goals, s.commands

    assert one() == one()
    settings = SearchSettings()
    bound = max(settings.candidates, settings.commands) * settings.samples * (1 + MAX_ROLLOUT * settings.horizon)
    assert max(work) <= bound
    assert sum(1 for w in work if w) > 10  # the hard coach did search: the bound was put to the test


def test_the_learned_judgement_prefers_the_ball_nearer_their_goal_and_adds_up_to_one():
    from ai import win_chance

    base = {"phase": Phase.TURN, "turn": "east"}
    ahead = position(P("w1", "gnolls/strikers", "N12", "E", ball=True), P("e1", "gnolls/strikers", "E4", "W"), **base)
    behind = position(P("w1", "gnolls/strikers", "G12", "E", ball=True), P("e1", "gnolls/strikers", "E4", "W"), **base)
    theirs = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "E4", "W", ball=True), **base)
    assert win_chance(ahead, "west", F) > win_chance(behind, "west", F) > 0.5 > win_chance(theirs, "west", F)
    for st in (ahead, behind, theirs):
        assert abs(win_chance(st, "west", F) + win_chance(st, "east", F) - 1.0) < 1e-9
    short = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "E4", "W"),
                     P("e2", "gnolls/strikers", "E6", "W"), ball="J9", **base)
    even = position(P("w1", "gnolls/strikers", "G12", "E"), P("e1", "gnolls/strikers", "E4", "W"), ball="J9", **base)
    assert win_chance(short, "west", F) < win_chance(even, "west", F)  # a player fewer on the field


def test_the_command_search_picks_the_better_of_two_commands():
    from ai import best_command

    st = position(P("w1", "gnolls/strikers", "G12", "E", ball=True), P("e1", "gnolls/strikers", "E4", "W"),
                  acting="w1", jog=5)

    def policy(state, side, fld):  # type: ignore[no-untyped-def]
        return AICoach().choose(state, side, fld)

    walk = AICoach().choose(st, "west", F)
    assert isinstance(walk, C.Move)  # the heuristic walks the carrier on towards their goal
    stay = C.EndAction()
    settings = SearchSettings(margin=0.0)
    assert best_command(st, "west", F, [stay, walk], 0, policy, settings) == walk
    assert best_command(st, "west", F, [walk, stay], 0, policy, settings) == walk
    assert best_command(st, "west", F, [stay], 0, policy, settings) == stay  # nothing to compare


def test_the_hard_carrier_compares_commands_and_repeats_itself():
    st = position(P("w1", "gnolls/strikers", "G12", "E", ball=True), P("w2", "gnolls/hunters", "J10", "E"),
                  P("e1", "gnolls/strikers", "L12", "W"), P("e2", "gnolls/strikers", "K9", "W"), acting="w1", jog=5)
    a, b = make_ai("hard", seed=4), make_ai("hard", seed=4)
    first = a.choose(st, "west", F)
    assert first == b.choose(st, "west", F)
    check(st, first, by="west", field=F)
    assert a.fallbacks == 0


def test_the_hard_player_by_a_loose_ball_weighs_taking_it_against_hitting_and_waiting(monkeypatch):
    import ai.coach as coach

    # e1 faces the ball from J12; w1 can reach the ball, hit e1, or stand beside the ball.
    st = position(P("w1", "gnolls/strikers", "G12", "E"), P("w2", "gnolls/hunters", "D8", "E"),
                  P("e1", "gnolls/strikers", "J12", "W"), P("e2", "gnolls/strikers", "P9", "W"),
                  ball="I12", acting="w1", jog=5)
    compared: list[list[C.Command]] = []
    real = coach.best_command

    def spy(state, side, fld, cands, *args):  # type: ignore[no-untyped-def]
        compared.append(list(cands))
        return real(state, side, fld, cands, *args)

    monkeypatch.setattr(coach, "best_command", spy)
    a, b = make_ai("hard", seed=5), make_ai("hard", seed=5)
    first = a.choose(st, "west", F)
    assert first == b.choose(st, "west", F) and a.fallbacks == 0
    check(st, first, by="west", field=F)
    (cands,) = compared[:1]
    ends = [c.path[-1] for c in cands if isinstance(c, C.Move)]
    ball = hx("I12")
    assert ball in ends  # onto the ball
    assert any(e != ball and distance(e, ball) == 1 for e in ends)  # beside it, or at e1's side
    assert first in cands and len(cands) >= 3
