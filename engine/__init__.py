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

# Used by the AI coach (ai/)
from .abilities import ABILITIES, basic_of, learnable
from .abilities import has as has_ability
from .abilities.counter_moves import COUNTER_MOVES, LITTLE_GUY
from .abilities.taunt import RANGE as TAUNT_RANGE
from .actions import challenge_refusal
from .challenges.throw import SHORT_MAX as SHORT_THROW_MAX
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
    FaceoffContact,
    FaceoffPickup,
    Move,
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
)
from .dice import ChallengeRoll, DiceSource, SeededDice
from .dice.odds import MAX_DICE, odds
from .events import AbilityUsed, Event, PlayerRemoved, ReplacementMade, SpellCast, SupportUsed, Taunted
from .faceoff import simple_choices
from .field import Side, other_side
from .fuzz import invariant_violations, random_entries
from .hexes import direction_between, front_hexes, is_in_front, line, nearest_direction, segment_touches_hex
from .legal import is_legal, legal_commands
from .match import SUPPORT_LIMITS, PlayerEntry, TeamEntry, apply, new_match, pending
from .movement import stand_cost, stand_refusal
from .rosters import TeamList, all_team_lists, default_roster, team_list
from .state import ActionState, Location, MatchState, Phase, Player, RuleOptions, Status
from .turns import eligible_actors

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
    # Used by the AI coach (ai/)
    "ABILITIES",
    "basic_of",
    "learnable",
    "has_ability",
    "COUNTER_MOVES",
    "LITTLE_GUY",
    "TAUNT_RANGE",
    "challenge_refusal",
    "SHORT_THROW_MAX",
    "Answer",
    "AutoSetup",
    "CastSpell",
    "Cheer",
    "Command",
    "Concede",
    "Dash",
    "DrinkPotion",
    "EndAction",
    "FaceoffContact",
    "FaceoffPickup",
    "Move",
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
    "ChallengeRoll",
    "DiceSource",
    "SeededDice",
    "MAX_DICE",
    "odds",
    "AbilityUsed",
    "Event",
    "PlayerRemoved",
    "ReplacementMade",
    "SpellCast",
    "SupportUsed",
    "Taunted",
    "simple_choices",
    "Side",
    "other_side",
    "invariant_violations",
    "random_entries",
    "direction_between",
    "front_hexes",
    "is_in_front",
    "line",
    "nearest_direction",
    "segment_touches_hex",
    "is_legal",
    "legal_commands",
    "SUPPORT_LIMITS",
    "PlayerEntry",
    "TeamEntry",
    "apply",
    "new_match",
    "pending",
    "stand_cost",
    "stand_refusal",
    "TeamList",
    "all_team_lists",
    "default_roster",
    "team_list",
    "ActionState",
    "Location",
    "MatchState",
    "Phase",
    "Player",
    "RuleOptions",
    "Status",
    "eligible_actors",
]
