"""AI levels (issue 22): ``easy`` is the heuristic, ``hard`` also uses every Advanced option.

The options are counted from the events of AI-v-AI Advanced matches (``ai.options``):
30 matches between teams that learn the rarer abilities first show every option at least once,
20 matches drawn as ``elfball fuzz --advanced`` draws them show the common ones; neither level
ever falls back on a refused plan. The hard level plays without its search here: the search only
picks who acts (``tests/ai/test_ai_search.py``), and is many times slower. About 20 seconds here.
"""

from __future__ import annotations

import random

import pytest

from ai import LEVELS, OPTIONS, AICoach, ability_rich_entry, count_options, make_ai, play_match
from engine.dice import SeededDice
from engine.rosters import team_list
from engine.state import RuleOptions


def test_levels_are_easy_and_hard_and_nothing_else():
    assert LEVELS == ("easy", "hard")
    assert make_ai("hard").level == "hard" and make_ai("easy").level == "easy"
    assert AICoach().level == "easy"  # the default stays today's coach
    with pytest.raises(ValueError, match="unknown AI level"):
        make_ai("impossible")


@pytest.mark.slow
def test_hard_uses_every_advanced_option_in_30_matches_of_ability_rich_teams():
    fallbacks: list[int] = []
    _, uses = count_options(30, seed=0, level="hard", rich=True, search=False, fallbacks=fallbacks)
    missing = [o for o in OPTIONS if not uses[o]]
    assert not missing, f"never used: {missing} ({dict(uses)})"
    assert sum(fallbacks) == 0


@pytest.mark.slow
def test_hard_uses_the_common_options_in_20_matches_of_random_advanced_teams():
    fallbacks: list[int] = []
    _, uses = count_options(20, seed=0, level="hard", search=False, fallbacks=fallbacks)
    for o in ("tackle ability", "potion", "wizard", "cheer", "keg", "replacement"):
        assert uses[o], f"{o} never used ({dict(uses)})"
    assert sum(fallbacks) == 0


def test_easy_keeps_to_the_heuristic_options():
    _, uses = count_options(8, seed=0, level="easy", rich=True)
    for o in ("ability move", "tackle ability", "react", "taunt", "quickling", "potion", "wizard"):
        assert not uses[o], f"easy used {o}"
    assert uses["cheer"]  # cheers were the heuristic's already


@pytest.mark.slow
def test_hard_against_easy_is_legal_and_repeatable():
    def one() -> tuple:
        west, east = ability_rich_entry(team_list("gnomes")), ability_rich_entry(team_list("orcs"))
        coaches = {"west": make_ai("hard", random.Random(1)), "east": make_ai("easy", random.Random(2))}
        s = play_match(west, east, coaches, SeededDice(7), options=RuleOptions(goals_to_win=1, advanced=True),
                       check_invariants=True)
        assert not s.violations and not s.capped
        assert coaches["west"].fallbacks == coaches["east"].fallbacks == 0
        return s.winner, s.goals, s.commands

    assert one() == one()


def test_wilson_interval_matches_the_textbook_values():
    from service.simulate import wilson

    lo, hi = wilson(70, 100)
    assert round(lo, 3) == 0.604 and round(hi, 3) == 0.781
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


@pytest.mark.slow
def test_simulate_pits_two_levels_with_sides_swapped_and_prints_the_interval(capsys):
    from service.simulate import LevelStats, simulate
    from cli.main import main

    level_stats: dict[str, LevelStats] = {}
    _, summaries = simulate(2, 5, levels=("hard", "easy"), advanced=True, level_stats=level_stats)
    assert level_stats[""].matches == 2 == sum(s.matches for k, s in level_stats.items() if k)
    # The hard coach coached the west team in the first match, the east team in the second.
    coached = sorted(s.team for k, s in level_stats.items() if k for _ in range(s.matches))
    assert coached == sorted([summaries[0].teams[0], summaries[1].teams[1]])
    assert main(["simulate", "--west-level", "hard", "--east-level", "easy", "--matches", "2", "--seed", "1",
                 "--mirror"]) == 0
    out = capsys.readouterr().out
    assert "hard against easy" in out and "95% interval" in out and "All" in out


def test_local_takes_the_ai_level():
    from cli.main import build_parser

    args = build_parser().parse_args(["local", "--ai-level", "easy"])
    assert args.ai_level == "easy"
    assert build_parser().parse_args(["local"]).ai_level == "hard"
