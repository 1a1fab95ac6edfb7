"""What happened, in the past tense: the engine's output after every command.

Events are data (frozen dataclasses, JSON via ``to_dict``); ``engine.narrate`` turns them into
sentences and the renderer draws them. The state is rebuilt by replaying commands with their
dice, so events never feed back into the rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import Enum
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .hexes import Hex

__all__ = ["Event", "event_from_dict", "EVENT_TYPES"]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Hex):
        return [value.q, value.r]
    if isinstance(value, Enum):
        return value.name if isinstance(value.value, int) else value.value
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out


EVENT_TYPES: dict[str, type[Event]] = {}


_E = TypeVar("_E", bound=Event)


@dataclass_transform(frozen_default=True)
def _event(kind: str) -> Callable[[type[_E]], type[_E]]:
    """Register a frozen event dataclass under ``kind`` (dataclass_transform tells a type
    checker the decorated class gets dataclass fields)."""

    def wrap(cls: type[_E]) -> type[_E]:
        cls.kind = kind
        cls = dataclass(frozen=True)(cls)
        EVENT_TYPES[kind] = cls
        return cls

    return wrap


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def event_from_dict(d: dict[str, Any]) -> Event:
    """Rebuild an event from ``to_dict`` output (hexes come back as ``Hex``)."""
    cls = EVENT_TYPES[d["kind"]]
    kwargs = {}
    for f in dataclasses.fields(cls):
        v = d.get(f.name)
        if f.type in ("Hex", "Hex | None") and v is not None:
            v = Hex(*v)
        elif f.type == "tuple[Hex, ...]" and v is not None:
            v = tuple(Hex(*x) for x in v)
        elif str(f.type).startswith("tuple") and isinstance(v, list):
            v = _tuples(v)  # JSON has no tuples: (west, east) scores, dice-off rolls, ids
        kwargs[f.name] = v
    return cls(**kwargs)


# --- the match ------------------------------------------------------------------------
@_event("match_started")
class MatchStarted(Event):
    west: str
    east: str
    goals_to_win: int


@_event("dice_off_rolled")
class DiceOffRolled(Event):
    rolls: tuple[tuple[int, int], ...]  # (west, east) per roll; ties were rolled again
    sets_up_first: str


@_event("test_started")
class TestStarted(Event):
    test: int
    sets_up_first: str


@_event("goal_scored")
class GoalScored(Event):
    side: str
    player: str
    score: tuple[int, int]  # (west, east)


@_event("test_lost")
class TestLost(Event):
    """French 0.0.6 (``fr_faceoff_test``): ``side`` cannot set up a face-off player and "perd
    le Test"; the other team gains the goal."""

    side: str
    score: tuple[int, int]  # (west, east)


@_event("match_ended")
class MatchEnded(Event):
    winner: str  # "west", "east" or "draw"
    reason: str


@_event("conceded")
class Conceded(Event):
    side: str


# --- set-up and face-off -------------------------------------------------------------
@_event("player_placed")
class PlayerPlaced(Event):
    player: str
    hex: Hex
    facing: str


@_event("player_unplaced")
class PlayerUnplaced(Event):
    player: str


@_event("setup_completed")
class SetupCompleted(Event):
    side: str


@_event("faceoff_rolled")
class FaceoffRolled(Event):
    west_player: str
    east_player: str
    west: dict[str, Any]  # ChallengeRoll.to_dict()
    east: dict[str, Any]
    result: str  # "west", "east", "tie", "both_flopped"


@_event("faceoff_won")
class FaceoffWon(Event):
    side: str
    player: str
    momentum: int  # counters for beating a stronger opponent (Might difference)


@_event("recovered")
class Recovered(Event):
    player: str  # moved from Recovery to the Bench once the new Test started


# --- turns and actions ----------------------------------------------------------------
@_event("action_started")
class ActionStarted(Event):
    player: str
    jog: int


@_event("action_ended")
class ActionEnded(Event):
    player: str
    shift: bool  # ended by a Shift in Momentum


@_event("turn_passed")
class TurnPassed(Event):
    side: str
    reason: str


@_event("second_action")
class SecondAction(Event):
    """Double player movement (OP2): the team may now pick a second player (or pass)."""

    side: str
    first: str  # the player who took the first action


@_event("card_drawn")
class CardDrawn(Event):
    """A timed game's card left the deck; in a tournament it is an event card: ``card`` is
    "plain" (no unusual event), "face" (+1 Momentum) or "joker" (+3)."""

    side: str  # whose turn it marks
    card: str
    left: int  # cards left in the deck
    momentum: int  # counters it gave


@_event("replacement_made")
class ReplacementMade(Event):
    player: str
    hex: Hex


@_event("player_moved")
class PlayerMoved(Event):
    player: str
    origin: Hex
    to: Hex
    jog_left: int | None  # None: he moved outside his own action (Swarm, Lead Pass, React)


@_event("player_turned")
class PlayerTurned(Event):
    player: str
    facing: str


@_event("player_stood_up")
class PlayerStoodUp(Event):
    player: str
    cost: int
    jog_left: int


@_event("player_fell")
class PlayerFell(Event):
    player: str
    status: str  # "down" or "dazed"
    cause: str


@_event("player_shoved")
class PlayerShoved(Event):
    player: str
    origin: Hex
    to: Hex | None  # None: the hex behind him was taken, he stays


@_event("player_removed")
class PlayerRemoved(Event):
    player: str
    location: str  # bench / sent_off / recovery / infirmary / ejected
    reason: str


@_event("challenge_rolled")
class ChallengeRolled(Event):
    challenge: str  # disengage, pickup, throw, intercept, catch, impact, tackle, shove, dash, injury, faceoff
    player: str
    attribute: str
    roll: dict[str, Any]  # ChallengeRoll.to_dict(): dice with their history, need and modifiers
    band: str  # flop / failure / exact / extra
    net: int
    extra: int
    target: str | None = None
    result: str = ""  # what the band meant here, e.g. "Solid Hit", "wobbly"


@_event("dash_granted")
class DashGranted(Event):
    player: str


# --- Momentum -------------------------------------------------------------------------
@_event("momentum_gained")
class MomentumGained(Event):
    side: str
    amount: int
    total: int
    source: str


@_event("momentum_spent")
class MomentumSpent(Event):
    side: str
    amount: int
    total: int
    purpose: str


@_event("momentum_shifted")
class MomentumShifted(Event):
    to_side: str
    counters: int
    reason: str


@_event("momentum_reset")
class MomentumReset(Event):
    side: str | None


# --- the ball ---------------------------------------------------------------------------
@_event("ball_thrown")
class BallThrown(Event):
    thrower: str
    target: Hex
    distance: int
    long: bool
    lands: Hex  # where the flight ends before any white-line bounce


@_event("ball_scattered")
class BallScattered(Event):
    origin: Hex
    direction: str
    to: Hex


@_event("ball_stopped_by_line")
class BallStoppedByLine(Event):
    hex: Hex


@_event("ball_bounced")
class BallBounced(Event):
    origin: Hex
    direction: str
    distance: int
    to: Hex
    rerolled: tuple[str, ...] = ()  # directions rolled again (into or across a line)


@_event("ball_landed")
class BallLanded(Event):
    hex: Hex


@_event("ball_picked_up")
class BallPickedUp(Event):
    player: str


@_event("ball_caught")
class BallCaught(Event):
    player: str
    how: str  # "catch", "automatic", "perfect spiral", "interception", "handed by the referee"


@_event("ball_dropped")
class BallDropped(Event):
    player: str
    hex: Hex


@_event("catch_declined")
class CatchDeclined(Event):
    player: str


@_event("interception_declined")
class InterceptionDeclined(Event):
    side: str
    eligible: tuple[str, ...]


@_event("ball_to_centre")
class BallToCentre(Event):
    hex: Hex
    reason: str


# --- Advanced rules: abilities, support, potions, the wizard, experience --------------------
@_event("ability_used")
class AbilityUsed(Event):
    """An ability changed something: ``effect`` is a language-neutral id (``reroll``,
    ``no_impact``, ``double_momentum``, ``auto_disengage``, ``plough``...)."""

    player: str
    ability: str
    effect: str
    target: str | None = None


@_event("support_used")
class SupportUsed(Event):
    side: str
    item: str  # cheerleaders / kegs / potions / wizard / bribed_referee
    player: str | None = None
    left: int = 0  # how many of that item may still be used (this Test or this game)


@_event("referee_check")
class RefereeCheck(Event):
    """A roll of one Challenge die to see whether the referee has had enough (Bribed Referee,
    Impcrusher): ``flopped`` ejects or bans ``players``."""

    side: str
    reason: str  # bribe_faceoff_monster / bribe_goal_hex / impcrusher
    face: str
    flopped: bool
    players: tuple[str, ...] = ()


@_event("experience_gained")
class ExperienceGained(Event):
    side: str
    players: tuple[str, ...]
    amount: int
    reason: str  # goal / concession


@_event("injury_recorded")
class InjuryRecorded(Event):
    """A result the league applies to the roster after the match."""

    player: str
    outcome: str  # career_ending / lasting / dead / cured
    attributes: tuple[str, ...] = ()  # lasting: the tied highest attributes his coach picks from


@_event("potion_drunk")
class PotionDrunk(Event):
    player: str
    faces: tuple[str, str]
    result: str  # the row id in engine/data/potions.json: dies, seizure, ... strength
    gained: tuple[str, ...] = ()  # abilities or "+1 <attribute>" gained for this game


@_event("spell_cast")
class SpellCast(Event):
    side: str
    spell: str  # system_shock / inferno / transformation
    target: str | None = None
    hex: Hex | None = None


@_event("player_transformed")
class PlayerTransformed(Event):
    player: str
    into: str  # "giant_frog", or "himself" when the spell wears off


@_event("taunted")
class Taunted(Event):
    player: str
    target: str
    facing: str | None  # the target's new facing, None when the Taunt failed
