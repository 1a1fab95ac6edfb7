"""The rules' words the bot speaks: hexes, sides, commands, abilities, rule options, errors,
the questions a panel asks of a state (legal commands, odds, previews) and the catalogues.

The bot's door is the service: it never imports ``engine`` or ``db`` itself (the layer
contract in ``pyproject.toml``), so the engine's names it needs to build commands, label
buttons and read states pass through here, unchanged. Nothing here decides or stores.
"""

from __future__ import annotations

from db.errors import StoreError
from engine import (
    ABILITIES,
    EXTRA_PLAYERS,
    LANGUAGES,
    RULES_EDITION,
    SUPPORT_COSTS,
    SUPPORT_LIMITS,
    SUPPORT_NAMES,
    VARIANTS,
    Ability,
    Catalogue,
    Direction,
    ElfballError,
    Field,
    Hex,
    MarkdownStringifier,
    MatchEnded,
    MatchState,
    Pending,
    RuleOptions,
    Side,
    basic_of,
    contact_previews,
    describe_rules,
    die_faces,
    distance,
    extra_players,
    language_of,
    legal_commands,
    odds,
    parse_rules,
    pending,
    phrase,
    reroll_chance,
    roll_succeeded,
    standard_field,
    step_previews,
    team_list,
    throw_preview,
    worst_dice,
)
from engine import DEFAULT_LANGUAGE as DEFAULT
from engine import load_text as load
from engine import tournament_score as score

from . import commands

__all__ = [
    "ABILITIES", "Ability", "basic_of", "Catalogue", "commands", "contact_previews", "DEFAULT", "describe_rules",
    "die_faces", "Direction", "distance", "ElfballError", "EXTRA_PLAYERS", "extra_players", "Field", "Hex",
    "LANGUAGES", "language_of", "legal_commands", "load", "MarkdownStringifier", "MatchEnded", "MatchState", "odds",
    "parse_rules", "Pending", "pending", "phrase", "reroll_chance", "roll_succeeded", "RULES_EDITION", "RuleOptions",
    "score", "Side", "standard_field", "step_previews", "StoreError", "SUPPORT_COSTS", "SUPPORT_LIMITS",
    "SUPPORT_NAMES", "team_list", "throw_preview", "VARIANTS", "worst_dice",
]
