"""Type checks of values read from a file, against the engine's own dataclass annotations.

``MatchState.from_dict`` and ``command_from_dict`` trust their input (the store wrote it): a
hand-written state or record can hold ``"momentum": "lots"`` or a die as a number, which the
rules or the renderer would only trip over later, with a traceback. ``shape_errors`` walks a
built value against its type hints (``int``, ``str | None``, ``Literal``, enums, ``Hex``,
tuples, lists, dicts, nested dataclasses) and says where it does not fit, so the boundary can
refuse it first. Integers are bounded too: no count in a match comes near ``MAX_INT``.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from enum import Enum
from functools import cache
from typing import Any, Literal, Union

__all__ = ["MAX_INT", "MAX_TEXT", "shape_errors"]

#: The largest integer a file may give (the database's INTEGER; the engine's counts are tiny).
MAX_INT = 2**31 - 1
#: The longest text a file may give in one value.
MAX_TEXT = 10_000


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def shape_errors(value: Any, hint: Any = None, where: str = "", *, limit: int = 5) -> list[str]:
    """Where ``value`` does not fit ``hint`` (default: its own dataclass's fields), at most ``limit``."""
    out: list[str] = []
    _check(value, type(value) if hint is None else hint, where or type(value).__name__, out, limit)
    return out


def _check(value: Any, hint: Any, where: str, out: list[str], limit: int) -> None:  # one case per kind of type
    if len(out) >= limit or hint is Any:
        return
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        for option in args:
            trial: list[str] = []
            _check(value, option, where, trial, 1)
            if not trial:
                return
        out.append(f"{where}: {_shown(value)} is not {_name(hint)}")
    elif hint is type(None):
        if value is not None:
            out.append(f"{where}: {_shown(value)} should be null")
    elif origin is Literal:
        if value not in args or type(value) is not type(next(a for a in args if a == value)):
            out.append(f"{where}: {_shown(value)} is not one of {', '.join(map(repr, args))}")
    elif hint is bool:
        if not isinstance(value, bool):
            out.append(f"{where}: {_shown(value)} is not true or false")
    elif hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            out.append(f"{where}: {_shown(value)} is not a whole number")
        elif not -MAX_INT <= value <= MAX_INT:
            out.append(f"{where}: {_shown(value)} is out of range")
    elif hint is float:
        if not isinstance(value, (int, float)) or isinstance(value, bool) or math.isnan(value) or abs(value) > MAX_INT:
            out.append(f"{where}: {_shown(value)} is not a number in range")
    elif hint is str:
        if not isinstance(value, str):
            out.append(f"{where}: {_shown(value)} is not text")
        elif len(value) > MAX_TEXT:
            out.append(f"{where}: text of {len(value)} characters is too long")
    elif isinstance(hint, type) and issubclass(hint, Enum):
        if not isinstance(value, hint):
            out.append(f"{where}: {_shown(value)} is not a {hint.__name__}")
    elif isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):  # a NamedTuple (Hex)
        if not isinstance(value, hint):
            out.append(f"{where}: {_shown(value)} is not a {hint.__name__}")
        else:
            for name in hint._fields:
                _check(getattr(value, name), _hints(hint).get(name, Any), f"{where}.{name}", out, limit)
    elif origin in (tuple, list):
        if not isinstance(value, origin):
            out.append(f"{where}: {_shown(value)} is not a list")
            return
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(value) != len(args):
                out.append(f"{where}: {len(value)} items instead of {len(args)}")
                return
            for i, (item, h) in enumerate(zip(value, args)):
                _check(item, h, f"{where}[{i}]", out, limit)
        else:
            for i, item in enumerate(value):
                _check(item, args[0] if args else Any, f"{where}[{i}]", out, limit)
    elif origin is dict:
        if not isinstance(value, dict):
            out.append(f"{where}: {_shown(value)} is not an object")
            return
        key_hint, value_hint = args or (Any, Any)
        for k, v in value.items():
            _check(k, key_hint, f"{where} key", out, limit)
            _check(v, value_hint, f"{where}.{k}", out, limit)
    elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            out.append(f"{where}: {_shown(value)} is not a {hint.__name__}")
            return
        hints = _hints(hint)
        for f in dataclasses.fields(hint):
            _check(getattr(value, f.name), hints.get(f.name, Any), f"{where}.{f.name}", out, limit)
    elif isinstance(hint, type):
        if not isinstance(value, hint):
            out.append(f"{where}: {_shown(value)} is not a {hint.__name__}")


def _name(hint: Any) -> str:
    return " or ".join(getattr(a, "__name__", repr(a)) for a in typing.get_args(hint)) or repr(hint)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def state_from_json(data: Any, where: str) -> Any:
    """A ``MatchState`` from its saved JSON, refused (``MalformedInputError``) unless every field
    has its type and the position keeps the engine's invariants (``engine.fuzz``)."""
    from engine import MalformedInputError, MatchState, invariant_violations

    if not isinstance(data, dict):
        raise MalformedInputError(f"{where}: a match state is a JSON object, not {type(data).__name__}")
    try:
        state = MatchState.from_dict(data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # from_dict trusts the store
        raise MalformedInputError(f"{where} is not a saved match state: {type(exc).__name__} {exc}") from None
    problems = shape_errors(state, where=where) or reference_errors(state) or invariant_violations(state)
    if problems:
        raise MalformedInputError(f"{where} is not a possible match state: {'; '.join(problems)}")
    return state


def reference_errors(state: Any) -> list[str]:
    """Ids a saved state names that it does not hold: each team lists its own players, each
    player is in his team's list, and the ball, the action and the turn name players there are."""
    out: list[str] = []
    if set(state.teams) != {"west", "east"}:
        return [f"teams: {', '.join(map(str, state.teams))} instead of west and east"]
    for side, team in state.teams.items():
        if team.side != side:
            out.append(f"teams.{side} says it is {team.side}")
        for pid in team.players:
            p = state.players.get(pid)
            if p is None or p.side != side:
                out.append(f"teams.{side} lists {pid!r}, who is not a {side} player of the state")
    listed = {pid for team in state.teams.values() for pid in team.players}
    out += [f"players: {pid} is in no team" for pid in state.players if pid not in listed]
    named = {"ball.carrier": state.ball.carrier, "action.player": state.action and state.action.player,
             "committed_actor": state.committed_actor, "turn_carrier": state.turn_carrier,
             **{f"last_moved.{k}": v for k, v in state.last_moved.items()}}
    out += [f"{where} names {pid!r}, who is not a player of the state" for where, pid in named.items()
            if pid is not None and pid not in state.players]
    return out[:5]


def events_from_json(data: Any, where: str) -> list[Any]:
    """Events from their saved JSON (``Event.to_dict()`` each), refused unless each has its type."""
    from engine import MalformedInputError, event_from_dict

    if not isinstance(data, list):
        raise MalformedInputError(f"{where}: events are a JSON list, not {type(data).__name__}")
    out = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise MalformedInputError(f"{where}[{i}]: an event is a JSON object")
        try:
            event = event_from_dict(item)
        except (KeyError, TypeError, ValueError) as exc:
            raise MalformedInputError(f"{where}[{i}] is not an event: {type(exc).__name__} {exc}") from None
        problems = shape_errors(event, where=f"{where}[{i}]")
        if problems:
            raise MalformedInputError("; ".join(problems))
        out.append(event)
    return out
