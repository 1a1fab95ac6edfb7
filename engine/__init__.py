"""Pure Elfball rules: field, hex maths, dice, team lists and (later) the match state machine.

No Discord, no database, no files beyond the packaged data, no clock: every random result
comes from an injected dice source, so a match is a deterministic function of its commands
and dice.
"""

from .errors import (
    AmbiguousInputError,
    DiceScriptError,
    ElfballError,
    IllegalCommandError,
    InvalidCoordinateError,
    MalformedInputError,
    OffFieldError,
    RosterError,
)
from .field import Field, HexInfo, standard_field
from .hexes import Direction, Hex, distance

__all__ = [
    "AmbiguousInputError",
    "DiceScriptError",
    "Direction",
    "ElfballError",
    "Field",
    "Hex",
    "HexInfo",
    "IllegalCommandError",
    "InvalidCoordinateError",
    "MalformedInputError",
    "OffFieldError",
    "RosterError",
    "distance",
    "standard_field",
]

# Used by the console's service functions
from .commands import Command
from .dice import ChallengeRoll, ReplayDice, SeededDice, odds
from .dice.odds import MAX_DICE, MAX_MOMENTUM, MOMENTUM_CAP
from .dice.stringify import PlainStringifier, outcome_text
from .events import Event
from .field import Side
from .fuzz import MAX_COMMANDS, play_random_match, random_advanced_entry
from .i18n import DEFAULT as DEFAULT_LANGUAGE
from .i18n import LANGUAGES, Catalogue, language_of
from .match import TeamEntry, apply, new_match, pending
from .narrate import narrate as narrate_events
from .options import describe as describe_rules
from .options import parse_rules
from .rosters import (
    RULE_EXTRA_PLAYERS,
    RULE_OPTIONAL_TEAMS,
    ExtraPlayer,
    RosterOptions,
    TeamList,
    TeamRoster,
    TeamValidationError,
    all_team_lists,
    default_roster,
    extra_players,
    team_list,
    validate_basic_team,
)
from .state import MatchState, Phase, RuleOptions

__all__ += [
    "Command",
    "ChallengeRoll",
    "ReplayDice",
    "SeededDice",
    "odds",
    "MAX_DICE",
    "MAX_MOMENTUM",
    "MOMENTUM_CAP",
    "PlainStringifier",
    "outcome_text",
    "Event",
    "Side",
    "MAX_COMMANDS",
    "play_random_match",
    "random_advanced_entry",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "Catalogue",
    "language_of",
    "TeamEntry",
    "apply",
    "new_match",
    "pending",
    "narrate_events",
    "describe_rules",
    "parse_rules",
    "RULE_EXTRA_PLAYERS",
    "RULE_OPTIONAL_TEAMS",
    "ExtraPlayer",
    "RosterOptions",
    "TeamList",
    "TeamRoster",
    "TeamValidationError",
    "all_team_lists",
    "default_roster",
    "extra_players",
    "team_list",
    "validate_basic_team",
    "MatchState",
    "Phase",
    "RuleOptions",
]
