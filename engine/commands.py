"""Commands: what a coach asks for. Typed, frozen, JSON round-trippable.

The engine validates every command against the position (``engine.match.apply``); the bot and
the console only build them. Player references are player ids (``w3``), hexes are ``Hex``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .errors import MalformedInputError
from .hexes import Direction, Hex

__all__ = [
    "Command",
    "Place",
    "Unplace",
    "AutoSetup",
    "SetupDone",
    "FaceoffPickup",
    "FaceoffContact",
    "StartAction",
    "Replace",
    "Move",
    "Face",
    "StandUp",
    "Throw",
    "Tackle",
    "Shove",
    "Dash",
    "EndAction",
    "Answer",
    "Cheer",
    "Quickling",
    "Taunt",
    "DrinkPotion",
    "CastSpell",
    "StartTest",
    "Concede",
    "Undo",
    "command_from_dict",
    "COMMAND_TYPES",
]


@dataclass(frozen=True)
class Command:
    name: ClassVar[str] = "command"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for f in dataclasses.fields(self):
            out[f.name] = _dump(getattr(self, f.name))
        return out


COMMAND_TYPES: dict[str, type[Command]] = {}


def _dump(v: Any) -> Any:
    if isinstance(v, Hex):
        return [v.q, v.r]
    if isinstance(v, Direction):
        return v.name
    if isinstance(v, tuple):
        return [_dump(x) for x in v]
    return v


_C = TypeVar("_C", bound=Command)


@dataclass_transform(frozen_default=True)
def _command(name: str) -> Callable[[type[_C]], type[_C]]:
    """Register a frozen command dataclass under ``name`` (dataclass_transform tells a type
    checker the decorated class gets dataclass fields)."""

    def wrap(cls: type[_C]) -> type[_C]:
        cls.name = name
        cls = dataclass(frozen=True)(cls)
        COMMAND_TYPES[name] = cls
        return cls

    return wrap


def command_from_dict(d: dict[str, Any]) -> Command:
    try:
        cls = COMMAND_TYPES[d["name"]]
    except (KeyError, TypeError):
        raise MalformedInputError.of("record.unknown_command", text=repr(d)) from None
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name not in d:
            continue
        v = d[f.name]
        t = str(f.type)
        if v is not None and t.startswith("Hex"):
            v = Hex(*v)
        elif v is not None and t.startswith("tuple[Hex"):
            v = tuple(Hex(*x) for x in v)
        elif v is not None and t.startswith("Direction"):
            v = Direction[v]
        elif isinstance(v, list):
            v = tuple(v)
        kwargs[f.name] = v
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise MalformedInputError.of("record.malformed_command", text=str(d.get("name")), text2=str(exc)) from None


# --- set-up ---------------------------------------------------------------------------
@_command("place")
class Place(Command):
    """Put a Bench player on a set-up hex with a facing (Beginning a Test)."""

    player: str
    hex: Hex
    facing: Direction


@_command("unplace")
class Unplace(Command):
    player: str


@_command("auto_setup")
class AutoSetup(Command):
    """Let the engine place the team: the best face-off player, a guardian, four rovers."""


@_command("setup_done")
class SetupDone(Command):
    pass


@_command("start_test")
class StartTest(Command):
    """After a goal: begin the next Test (the scorer sets up first)."""


# --- face-off -------------------------------------------------------------------------
@_command("faceoff_pickup")
class FaceoffPickup(Command):
    """The face-off winner steps onto the ball and tries a Pick-up."""


@_command("faceoff_contact")
class FaceoffContact(Command):
    """Up to two free hexes inside the circle, then a Shove or Tackle on the opposing face-off player."""

    path: tuple[Hex, ...]
    challenge: str  # "shove" or "tackle"


# --- turns ----------------------------------------------------------------------------
@_command("start_action")
class StartAction(Command):
    player: str


@_command("replace")
class Replace(Command):
    """Instead of an action: bring a Bench player on near a stairway (Replacements)."""

    player: str
    hex: Hex
    facing: Direction


@_command("move")
class Move(Command):
    """Walk the acting player through ``path`` (adjacent hexes), then face ``facing``.

    Without a facing he ends looking the way he last stepped. ``ability`` pays the steps with
    Momentum counters instead of Jog (ruthless, goalie, beeline, teammate, burst, shamble,
    swarm, lead-pass, react); ``player`` moves another player than the acting one where an
    ability allows it (swarm, lead-pass, react).
    """

    path: tuple[Hex, ...]
    facing: Direction | None = None
    ability: str | None = None
    player: str | None = None


@_command("face")
class Face(Command):
    facing: Direction


@_command("stand_up")
class StandUp(Command):
    facing: Direction | None = None


@_command("throw")
class Throw(Command):
    """Throw to a teammate's or an empty hex; ``long`` declares a throw of up to 18 (G10)."""

    target: Hex
    long: bool | None = None


@_command("tackle")
class Tackle(Command):
    """A Tackle; ``use`` names a Tackle-changing ability: cutblock, steal, pummel or cheapshot
    (a Tackle on a Down or Dazed opponent is always a Cheapshot)."""

    target: str
    use: str | None = None


@_command("shove")
class Shove(Command):
    target: str


@_command("dash")
class Dash(Command):
    """Spend ``counters`` on a Dash; ``sprint`` makes it a Sprinter's Dash (Jog dice, no counters)."""

    counters: int = 0
    sprint: bool = False


@_command("end_action")
class EndAction(Command):
    facing: Direction | None = None


@_command("answer")
class Answer(Command):
    """The answer to the pending question (dice to replace, an interceptor, catch or decline)."""

    value: Any = None


# --- Advanced rules ---------------------------------------------------------------------
@_command("cheer")
class Cheer(Command):
    """At the beginning of an action: a Cheerleader adds one Momentum counter (once per Test each)."""


@_command("quickling")
class Quickling(Command):
    """After the other team's Shift in Momentum: double the counters; ``player`` must then act."""

    player: str


@_command("taunt")
class Taunt(Command):
    """After the other team's Shift in Momentum: a Little Guy spends ``counters`` to turn
    ``target`` (an opponent within 6 hexes) to face him."""

    player: str
    target: str
    counters: int


@_command("drink_potion")
class DrinkPotion(Command):
    """A Magic Potion for a player who is not on the field."""

    player: str


@_command("cast_spell")
class CastSpell(Command):
    """Instead of an action: the Hired Gun Wizard casts ``spell`` (system_shock,
    transformation: at ``target``, a player; inferno: at ``hex``)."""

    spell: str
    target: str | None = None
    hex: Hex | None = None


@_command("concede")
class Concede(Command):
    pass


@_command("undo")
class Undo(Command):
    """Take back the acting coach's last step or turn, until a die is rolled. The match service
    answers it from the match's log; ``apply`` never sees it."""
