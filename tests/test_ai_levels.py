"""AI levels (issue 22): ``easy`` is the heuristic, ``hard`` also uses every Advanced option.

The options are counted from the events of AI-v-AI Advanced matches (``engine.ai_options``):
30 matches between teams that learn the rarer abilities first show every option at least once,
20 matches drawn as ``elfball fuzz --advanced`` draws them show the common ones; neither level
ever falls back on a refused plan. About 20 seconds here.
"""

from __future__ import annotations

import random

import pytest

from engine.ai import LEVELS, AICoach, make_ai, play_match
from engine.ai_options import OPTIONS, ability_rich_entry, count_options
from engine.dice import SeededDice
from engine.rosters import team_list
from engine.state import RuleOptions


def test_levels_are_easy_and_hard_and_nothing_else():
    assert LEVELS == ("easy", "hard")
    assert make_ai("hard").level == "hard" and make_ai("easy").level == "easy"
    assert AICoach().level == "easy"  # the default stays today's coach
    with pytest.raises(ValueError, match="unknown AI level"):
        make_ai("impossible")


def test_hard_uses_every_advanced_option_in_30_matches_of_ability_rich_teams():
    fallbacks: list[int] = []
    in_matches, uses = count_options(30, seed=0, level="hard", rich=True, fallbacks=fallbacks)
    missing = [o for o in OPTIONS if not uses[o]]
    assert not missing, f"never used: {missing} ({dict(uses)})"
    assert sum(fallbacks) == 0


def test_hard_uses_the_common_options_in_20_matches_of_random_advanced_teams():
    fallbacks: list[int] = []
    in_matches, uses = count_options(20, seed=0, level="hard", fallbacks=fallbacks)
    for o in ("tackle ability", "potion", "wizard", "cheer", "keg", "replacement"):
        assert uses[o], f"{o} never used ({dict(uses)})"
    assert sum(fallbacks) == 0


def test_easy_keeps_to_the_heuristic_options():
    in_matches, uses = count_options(8, seed=0, level="easy", rich=True)
    for o in ("ability move", "tackle ability", "react", "taunt", "quickling", "potion", "wizard"):
        assert not uses[o], f"easy used {o}"
    assert uses["cheer"]  # cheers were the heuristic's already


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
