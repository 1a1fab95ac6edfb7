"""The AI coach: plays Elfball for a side, by the exact odds, at two levels ("easy", "hard").

The rest of the project uses the names below (``from ai import AICoach``); the modules behind
them, each readable alone, import each other in one direction:

- ``board``: one decision's view of the position (``Board``), a player's plan (``Plan``), the
  ``Weights`` that judge positions;
- ``heuristic``: each player's best plan (face-off, who acts, what he does);
- ``questions``: answers to the engine's questions (re-rolls, interceptions, catches);
- ``advanced``: the Advanced options the hard coach adds (abilities, potions, the Wizard);
- ``judge``: how good a position is (``evaluate``, the learned ``win_chance``);
- ``search``: the hard coach's play-outs under sampled dice;
- ``coach``: ``AICoach``, which puts them together, and its levels;
- ``play``: one match between two coaches (``play_match``);
- ``options``: which Advanced options AI coaches use, counted from their matches.

The AI uses the rules engine only through its front door (``from engine import ...``).
``Weights`` and ``Coach`` are here as the types of ``AICoach(weights=...)`` and ``play_match``'s
coaches.
"""

from .board import Weights
from .coach import LEVELS, MAX_COMMANDS_PER_ACTION, AICoach, make_ai
from .judge import FEATURES, evaluate, features, win_chance
from .options import OPTIONS, ability_rich_entry, count_options
from .play import Coach, MatchSummary, play_match
from .search import MAX_ROLLOUT, SearchSettings, best_actor, best_command

__all__ = [
    "AICoach",
    "Coach",
    "FEATURES",
    "LEVELS",
    "MAX_COMMANDS_PER_ACTION",
    "MAX_ROLLOUT",
    "MatchSummary",
    "OPTIONS",
    "SearchSettings",
    "Weights",
    "ability_rich_entry",
    "best_actor",
    "best_command",
    "count_options",
    "evaluate",
    "features",
    "make_ai",
    "play_match",
    "win_chance",
]
