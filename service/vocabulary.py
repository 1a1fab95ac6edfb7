"""The rules' words the bot speaks: hexes, sides, commands, abilities, rule options, errors,
the questions a panel asks of a state (legal commands, odds, previews) and the catalogues.

The bot's door is the service: it never imports ``engine`` or ``db`` itself (the layer
contract in ``pyproject.toml``), so the engine's names it needs to build commands, label
buttons and read states pass through here, unchanged. Nothing here decides or stores.
"""

from __future__ import annotations

from db.errors import StoreError
from engine import commands
from engine.abilities import ABILITIES, Ability, basic_of
from engine.dice.odds import odds
from engine.dice.stringify import MarkdownStringifier
from engine.errors import ElfballError
from engine.events import MatchEnded
from engine.field import Field, Side, standard_field
from engine.hexes import Direction, Hex, distance
from engine.i18n import DEFAULT, LANGUAGES, Catalogue, language_of, load, phrase
from engine.legal import legal_commands
from engine.match import Pending, pending
from engine.options import EXTRA_PLAYERS, VARIANTS, parse_rules
from engine.options import describe as describe_rules
from engine.preview import (
    contact_previews,
    die_faces,
    reroll_chance,
    roll_succeeded,
    step_previews,
    throw_preview,
    worst_dice,
)
from engine.rosters import extra_players, team_list
from engine.state import RULES_EDITION, MatchState, RuleOptions
from engine.teambuilding import SUPPORT_COSTS, SUPPORT_LIMITS, SUPPORT_NAMES
from engine.tournament import score

__all__ = [
    "ABILITIES", "Ability", "basic_of", "Catalogue", "commands", "contact_previews", "DEFAULT", "describe_rules",
    "die_faces", "Direction", "distance", "ElfballError", "EXTRA_PLAYERS", "extra_players", "Field", "Hex",
    "LANGUAGES", "language_of", "legal_commands", "load", "MarkdownStringifier", "MatchEnded", "MatchState", "odds",
    "parse_rules", "Pending", "pending", "phrase", "reroll_chance", "roll_succeeded", "RULES_EDITION", "RuleOptions",
    "score", "Side", "standard_field", "step_previews", "StoreError", "SUPPORT_COSTS", "SUPPORT_LIMITS",
    "SUPPORT_NAMES", "team_list", "throw_preview", "VARIANTS", "worst_dice",
]
