"""Pure Elfball rules: the match state machine, its commands and events, the field and hex
maths, dice, team lists and team building, and the texts that narrate and preview a match.

No Discord, no database, no files beyond the packaged data, no clock: every random result
comes from an injected dice source, so a match is a deterministic function of its commands
and dice.

This module is the engine's front door: the rest of the project (the AI, the drawing, the
store, the service) imports these names, ``from engine import apply, Move``, and never an
engine submodule. Everything not listed here is the engine's own. Where two submodules use the
same short name, the door gives each a clear one (``describe_rules``, ``DieFace``...).
"""

# The match: set it up, apply a command, check one without rolling, the pending decision.
from .entries import SUPPORT_LIMITS, PlayerEntry, TeamEntry
from .legal import LegalCommands, legal_commands
from .match import Pending, Result, apply, check, new_match, pending

# The state and its parts.
from .state import RULES_EDITION, ActionState, Ball, Location, MatchState, Phase, Player, RuleOptions, Status, Team

# Commands (what a coach does) and events (what happened).
from .commands import (
    Answer,
    AutoSetup,
    CastSpell,
    Cheer,
    Command,
    Concede,
    Dash,
    DrinkPotion,
    EndAction,
    Face,
    FaceoffContact,
    FaceoffPickup,
    Move,
    Place,
    Quickling,
    Replace,
    SetupDone,
    Shove,
    StandUp,
    StartAction,
    StartTest,
    Tackle,
    Taunt,
    Throw,
    Undo,
    Unplace,
    command_from_dict,
)
from .events import Event, MatchEnded, event_from_dict
from .events import (  # the ones the drawing reads
    BallBounced,
    BallScattered,
    BallStoppedByLine,
    BallThrown,
    PlayerMoved,
    PlayerPlaced,
    PlayerShoved,
    ReplacementMade,
)

# Errors: every refusal and bad input is an ElfballError.
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

# The field and hex maths.
from .field import SIDES, Field, HexInfo, Side, other_side, standard_field
from .hexes import HEX_CIRCUMRADIUS, Direction, Hex, direction_between, distance
from .setup import ZONES as SETUP_ZONES

# Dice: sources (seeded, hashed, scripted, replayed), committed seeds, challenge rolls and their text.
from .dice import ChallengeRoll, DiceSource, HashDice, Need, ReplayDice, ScriptedDice, SeededDice, StatedDice
from .dice import Face as DieFace
from .dice.commit import commitment_of, committed_part, entropy_part, join_seed, valid_entropy
from .dice.stringify import MarkdownStringifier, PlainStringifier, outcome_text

# Odds and previews: the chance of a challenge before it is rolled.
from .dice.odds import MAX_DICE, MAX_MOMENTUM, MOMENTUM_CAP, odds
from .dice.odds import clear_cache as clear_odds_cache
from .preview import (
    Preview,
    contact_previews,
    die_faces,
    reroll_chance,
    roll_succeeded,
    step_previews,
    throw_preview,
    worst_dice,
)

# Rules a drawing or a help text reads: who may intercept a pass, a Tackle's uses, the clock.
from .abilities.reach import reach_interceptors
from .challenges.intercept import string_path, touched_hexes
from .challenges.tackle import USES as TACKLE_USES
from .clock import new_deck
from .faceoff import faceoff_players

# Abilities.
from .abilities import ABILITIES, Ability, ability, basic_of

# Team lists and rosters.
from .rosters import (
    RULE_EXTRA_PLAYERS,
    RULE_OPTIONAL_TEAMS,
    Attributes,
    ExtraPlayer,
    RosterOptions,
    TeamList,
    TeamRoster,
    TeamValidationError,
    all_team_lists,
    default_roster,
    extra_players,
    position_by_id,
    singular_name,
    team_list,
    validate_basic_team,
)
from .support.impcrusher import french_abilities as french_impcrusher_abilities

# Team building for leagues (p. 11) and tournament scoring.
from .teambuilding import (
    ABILITY_COST,
    DEFAULT_BUDGET,
    MAX_PLAYERS,
    SUPPORT_COSTS,
    SUPPORT_NAMES,
    Member,
    TeamBuildingError,
    advances,
    apply_lasting,
    check_fire,
    check_hire,
    check_learn,
    check_support,
    check_team,
    eligible_abilities,
    gains_experience,
    lasting_choices,
    player_value,
    support_item,
    team_value,
    uses_potions,
)
from .tournament import score as tournament_score

# Rules options and profiles (``--rules``).
from .options import EXTRA_PLAYERS, VARIANTS, parse_rules, rules_string
from .options import describe as describe_rules
from .options import validate as validate_options

# Narration: events, questions and rolls in words, in English or French.
from .narrate import describe as describe_event
from .narrate import describe_question, describe_roll
from .narrate import narrate as narrate_events

# Refusals: a key and its values, said in each language from its catalogue.
from .refusals import Joined, Refusal, Term, format_refusal, refusal_catalogue, side_term

# Text catalogues (engine, service and bot texts share the same loader).
from .i18n import DEFAULT as DEFAULT_LANGUAGE
from .i18n import LANGUAGES, Catalogue, language_of, phrase
from .i18n import load as load_text

# Random matches, for the replay gallery, benchmarks and soak tests.
from .fuzz import MAX_COMMANDS, RandomCoach, invariant_violations, play_random_match, random_advanced_entry

# Added while merging the floors (names the other floors needed)

from .events import ActionStarted, GoalScored, PlayerRemoved
# Used by the AI coach (ai/)
from .abilities import learnable
from .abilities import has as has_ability
from .abilities.counter_moves import COUNTER_MOVES, LITTLE_GUY
from .abilities.taunt import RANGE as TAUNT_RANGE
from .actions import challenge_refusal
from .challenges.throw import SHORT_MAX as SHORT_THROW_MAX
from .events import AbilityUsed, SpellCast, SupportUsed, Taunted
from .faceoff import simple_choices
from .fuzz import random_entries
from .hexes import front_hexes, is_in_front, line, nearest_direction, segment_touches_hex
from .legal import is_legal
from .movement import stand_cost, stand_refusal
from .turns import eligible_actors

__all__ = [
    # the match
    "LegalCommands",
    "Pending",
    "PlayerEntry",
    "Result",
    "SUPPORT_LIMITS",
    "TeamEntry",
    "apply",
    "check",
    "legal_commands",
    "new_match",
    "pending",
    # the state
    "ActionState",
    "Ball",
    "Location",
    "MatchState",
    "Phase",
    "Player",
    "RULES_EDITION",
    "RuleOptions",
    "Status",
    "Team",
    # commands and events
    "Answer",
    "AutoSetup",
    "CastSpell",
    "Cheer",
    "Command",
    "Concede",
    "Dash",
    "DrinkPotion",
    "EndAction",
    "Face",
    "FaceoffContact",
    "FaceoffPickup",
    "Move",
    "Place",
    "Quickling",
    "Replace",
    "SetupDone",
    "Shove",
    "StandUp",
    "StartAction",
    "StartTest",
    "Tackle",
    "Taunt",
    "Throw",
    "Undo",
    "Unplace",
    "command_from_dict",
    "Event",
    "MatchEnded",
    "event_from_dict",
    "BallBounced",
    "BallScattered",
    "BallStoppedByLine",
    "BallThrown",
    "PlayerMoved",
    "PlayerPlaced",
    "PlayerShoved",
    "ReplacementMade",
    # errors
    "AmbiguousInputError",
    "DiceScriptError",
    "ElfballError",
    "IllegalCommandError",
    "InvalidCoordinateError",
    "Joined",
    "MalformedInputError",
    "OffFieldError",
    "Refusal",
    "RosterError",
    # field and hexes
    "Direction",
    "Field",
    "HEX_CIRCUMRADIUS",
    "Hex",
    "HexInfo",
    "SETUP_ZONES",
    "SIDES",
    "Side",
    "direction_between",
    "distance",
    "other_side",
    "standard_field",
    # dice
    "ChallengeRoll",
    "DiceSource",
    "DieFace",
    "HashDice",
    "MarkdownStringifier",
    "Need",
    "PlainStringifier",
    "ReplayDice",
    "ScriptedDice",
    "StatedDice",
    "SeededDice",
    "commitment_of",
    "committed_part",
    "entropy_part",
    "join_seed",
    "outcome_text",
    "valid_entropy",
    # odds and previews
    "MAX_DICE",
    "MAX_MOMENTUM",
    "MOMENTUM_CAP",
    "Preview",
    "clear_odds_cache",
    "contact_previews",
    "die_faces",
    "odds",
    "reroll_chance",
    "roll_succeeded",
    "step_previews",
    "throw_preview",
    "worst_dice",
    # rules a drawing or a help text reads
    "TACKLE_USES",
    "faceoff_players",
    "new_deck",
    "reach_interceptors",
    "string_path",
    "touched_hexes",
    # abilities
    "ABILITIES",
    "Ability",
    "ability",
    "basic_of",
    # team lists and rosters
    "Attributes",
    "ExtraPlayer",
    "RULE_EXTRA_PLAYERS",
    "RULE_OPTIONAL_TEAMS",
    "RosterOptions",
    "TeamList",
    "TeamRoster",
    "TeamValidationError",
    "all_team_lists",
    "default_roster",
    "extra_players",
    "french_impcrusher_abilities",
    "position_by_id",
    "singular_name",
    "team_list",
    "validate_basic_team",
    # team building and tournaments
    "ABILITY_COST",
    "DEFAULT_BUDGET",
    "MAX_PLAYERS",
    "Member",
    "SUPPORT_COSTS",
    "SUPPORT_NAMES",
    "TeamBuildingError",
    "advances",
    "apply_lasting",
    "check_fire",
    "check_hire",
    "check_learn",
    "check_support",
    "check_team",
    "eligible_abilities",
    "gains_experience",
    "lasting_choices",
    "player_value",
    "support_item",
    "team_value",
    "tournament_score",
    "uses_potions",
    # rules options
    "EXTRA_PLAYERS",
    "VARIANTS",
    "describe_rules",
    "parse_rules",
    "rules_string",
    "validate_options",
    # narration
    "describe_event",
    "describe_question",
    "describe_roll",
    "narrate_events",
    # text catalogues
    "Catalogue",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "language_of",
    "load_text",
    "phrase",
    # random matches
    "MAX_COMMANDS",
    "RandomCoach",
    "invariant_violations",
    "play_random_match",
    "random_advanced_entry",
    "ActionStarted",
    "GoalScored",
    "PlayerRemoved",
    # used by the AI coach (ai/)
    "learnable",
    "has_ability",
    "COUNTER_MOVES",
    "LITTLE_GUY",
    "TAUNT_RANGE",
    "challenge_refusal",
    "SHORT_THROW_MAX",
    "AbilityUsed",
    "SpellCast",
    "SupportUsed",
    "Taunted",
    "simple_choices",
    "random_entries",
    "front_hexes",
    "is_in_front",
    "line",
    "nearest_direction",
    "segment_touches_hex",
    "is_legal",
    "stand_cost",
    "stand_refusal",
    "eligible_actors",
    # refusals
    "Joined",
    "Refusal",
    "Term",
    "format_refusal",
    "refusal_catalogue",
    "side_term",
]
