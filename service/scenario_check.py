"""What a scenario file must be before it is played: a schema, then the position's invariants.

``service.scenario`` builds a match state from hand-written JSON (docs/scenarios.md). A file is
anybody's: ``"players": "w1"``, ``"status": "flying"``, Momentum 10^400, two players on one hex
or the ball held by a Bench player. ``check_scenario(data)`` refuses every such file before the
state is built, and ``check_position(state)`` refuses a built position that breaks what the
engine keeps true after every command (``engine.fuzz.invariant_violations``) before the first
command is applied. Each refusal is a ``MalformedInputError`` naming the key that is wrong
(``players[3].status: 'flying' is not one of standing, down, dazed``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from engine import (
    ActionState,
    Direction,
    ElfballError,
    Field,
    Location,
    MalformedInputError,
    MatchState,
    RULES_EDITION,
    RuleOptions,
    SUPPORT_LIMITS,
    Status,
    ability,
    invariant_violations,
    parse_rules,
    position_by_id,
    standard_field,
    team_list,
    validate_options,
)

__all__ = ["MAX_COMMANDS", "MAX_DICE", "MAX_TEXT", "check_scenario", "check_position"]

#: The most commands and dice one scenario may state (the rulebook's examples use a dozen).
MAX_COMMANDS = 1000
MAX_DICE = 5000
#: The longest text in any one value (a command, a name, the dice faces).
MAX_TEXT = 2000
#: Players per side (ids w1..w12, e1..e12) and the largest number a counter may hold.
SQUAD = 12
SCORE_MAX = 3
ATTRIBUTE_MAX = 10
JOG_MAX = 20

TOP_KEYS = ("description", "expect", "rules", "teams", "players", "ball", "momentum", "acting", "phase", "turn",
            "last_moved", "dice", "commands", "setup_side", "first_setup_side", "faceoff_winner")
PLAYER_KEYS = ("id", "position", "hex", "facing", "status", "location", "ball", "name", "abilities", "attributes")
TEAM_KEYS = ("list", "name", "score", "support", "used")
ATTRIBUTES = ("jog", "might", "tackle", "dodge", "skill", "grit")
ACTING_KEYS = ("player", "jog", "flags")
#: The action's flags a scenario may set, with their types (``ActionState`` has a few more
#: that only the rules set mid-action).
FLAGS = {f.name: f.type for f in dataclasses.fields(ActionState) if f.name not in ("player", "jog_left")}
SIDES = ("west", "east")


def _fail(where: str, message: str) -> MalformedInputError:
    return MalformedInputError(f"{where}: {message}" if where else message)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _object(value: Any, where: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"{_shown(value)} should be an object {{...}}")
    for k in value:
        if k not in keys:
            raise _fail(where, f"unknown key {_shown(k)} (known: {', '.join(keys)})")
    return value


def _list(value: Any, where: str, most: int) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(where, f"{_shown(value)} should be a list [...]")
    if len(value) > most:
        raise _fail(where, f"{len(value)} items, at most {most}")
    return value


def _text(value: Any, where: str, most: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise _fail(where, f"{_shown(value)} should be text")
    if len(value) > most:
        raise _fail(where, f"text of {len(value)} characters, at most {most}")
    if "\x00" in value:
        raise _fail(where, "text with a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(where, "text with a lone surrogate, which is no character") from None
    return value


def _number(value: Any, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, f"{_shown(value)} should be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise _fail(where, f"{_shown(value)} is out of range: a whole number from {low} to {high}")
    return value


def _choice(value: Any, where: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise _fail(where, f"{_shown(value)} is not one of {', '.join(choices)}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, f"{_shown(value)} should be true or false")
    return value


def _known(check: Callable[[str], Any], value: str, where: str) -> None:
    """A name the rules must know (a position, a team list, an ability)."""
    try:
        check(value)
    except ElfballError as exc:
        raise _fail(where, str(exc)) from None


def _rules(value: Any, where: str) -> RuleOptions:
    if isinstance(value, str):
        _text(value, where, 500)
        try:
            return parse_rules(value)
        except ElfballError as exc:
            raise _fail(where, str(exc)) from None
    fields = {f.name: f for f in dataclasses.fields(RuleOptions)}
    rules = _object(value, where, tuple(fields))
    numbers = {"goals_to_win": (0, 3), "clock_hours": (0, 168), "decks": (1, 2), "turn_limit": (0, 200),
               "edition": (1, RULES_EDITION)}
    for k, v in rules.items():
        at = f"{where}.{k}"
        if k in numbers:
            _number(v, at, *numbers[k])
        elif k in ("extra_players", "variants"):
            for i, item in enumerate(_list(v, at, 20)):
                _text(item, f"{at}[{i}]", 100)
        elif k == "profile":
            _text(v, at, 100)
        else:
            _flag(v, at)
    try:
        return validate_options(RuleOptions.from_dict(dict(rules)))
    except ElfballError as exc:
        raise _fail(where, str(exc)) from None


def _team(value: Any, where: str, goals: int) -> None:
    team = _object(value, where, TEAM_KEYS)
    if "list" in team:
        _known(team_list, _text(team["list"], f"{where}.list", 100), f"{where}.list")
    if "name" in team:
        _text(team["name"], f"{where}.name", 100)
    if "score" in team:
        # The match ends when a side reaches goals_to_win: a playable position has fewer.
        _number(team["score"], f"{where}.score", 0, max(goals - 1, 0) if goals else SCORE_MAX * 10)
    for key in ("support", "used"):
        if key in team:
            items = _object(team[key], f"{where}.{key}", tuple(SUPPORT_LIMITS))
            for item, n in items.items():
                _number(n, f"{where}.{key}.{item}", 0, SUPPORT_LIMITS[item])
    for item, n in (team.get("used") or {}).items():
        if n > (team.get("support") or {}).get(item, 0):
            raise _fail(f"{where}.used.{item}", f"{n} used of {(team.get('support') or {}).get(item, 0)} bought")


def _player(value: Any, where: str, fld: Field) -> str:
    spec = _object(value, where, PLAYER_KEYS)
    if "id" not in spec or "position" not in spec:
        raise _fail(where, "a player needs an id and a position")
    pid = _text(spec["id"], f"{where}.id", 3)
    if pid[:1] not in ("w", "e") or not pid[1:].isascii() or not pid[1:].isdigit() or not 1 <= int(pid[1:]) <= SQUAD:
        raise _fail(f"{where}.id", f"{pid!r}: use w1..w{SQUAD} for west, e1..e{SQUAD} for east")
    _known(position_by_id, _text(spec["position"], f"{where}.position", 100), f"{where}.position")
    location = _choice(spec.get("location", "field" if spec.get("hex") is not None else "bench"), f"{where}.location",
                       tuple(x.value for x in Location))
    if location == Location.FIELD.value:
        if spec.get("hex") is None:
            raise _fail(where, f"{pid} is on the field but has no hex")
        label = _text(spec["hex"], f"{where}.hex", 10)
        try:
            h = fld.parse(label)
        except ElfballError as exc:
            raise _fail(f"{where}.hex", str(exc)) from None
        if fld.info(h).edge_line:
            raise _fail(f"{where}.hex", f"{label} is on the outer white line, where no player stands")
        _choice(spec.get("facing", "E"), f"{where}.facing", tuple(d.name for d in Direction))
    elif spec.get("hex") is not None:
        raise _fail(f"{where}.hex", f"{pid} is {location} and cannot stand on a hex")
    _choice(spec.get("status", "standing"), f"{where}.status", tuple(s.value for s in Status))
    if "ball" in spec:
        _flag(spec["ball"], f"{where}.ball")
    if "name" in spec:
        _text(spec["name"], f"{where}.name", 100)
    for i, a in enumerate(_list(spec.get("abilities", []), f"{where}.abilities", 50)):
        _known(ability, _text(a, f"{where}.abilities[{i}]", 100), f"{where}.abilities[{i}]")
    attributes = _object(spec.get("attributes", {}), f"{where}.attributes", ATTRIBUTES)
    for name, v in attributes.items():
        _number(v, f"{where}.attributes.{name}", 0, ATTRIBUTE_MAX)
    return pid


def check_scenario(data: Any, fld: Field | None = None) -> None:
    """Refuse a scenario whose JSON is not what docs/scenarios.md describes (types, ranges,
    known names, no duplicate player), naming the key that is wrong."""
    fld = fld or standard_field()
    top = _object(data, "", TOP_KEYS)
    if "description" in top:
        _text(top["description"], "description", 100_000)
    options = _rules(top.get("rules", {}), "rules")
    teams = _object(top.get("teams", {}), "teams", SIDES)
    for side, team in teams.items():
        _team(team, f"teams.{side}", options.goals_to_win)
    ids: dict[str, int] = {}
    carriers = []
    for i, spec in enumerate(_list(top.get("players", []), "players", 2 * SQUAD)):
        pid = _player(spec, f"players[{i}]", fld)
        if pid in ids:
            raise _fail(f"players[{i}].id", f"{pid} is already players[{ids[pid]}]")
        ids[pid] = i
        if spec.get("ball"):
            carriers.append(pid)
    if len(carriers) > 1:
        raise _fail("players", f"only one player can hold the ball, not {', '.join(carriers)}")
    if "ball" in top:
        if carriers:
            raise _fail("ball", f"{carriers[0]} holds the ball: leave out the loose ball's hex")
        try:
            fld.parse(_text(top["ball"], "ball", 10))
        except ElfballError as exc:
            raise _fail("ball", str(exc)) from None
    if "momentum" in top:
        m = _object(top["momentum"], "momentum", ("counters", "side"))
        counters = _number(m.get("counters", 0), "momentum.counters", 0, 6)
        holder = m.get("side")
        if holder is not None:
            _choice(holder, "momentum.side", SIDES)
        elif counters:
            raise _fail("momentum.side", f"{counters} counters need the side that holds them")
    acting = top.get("acting")
    if acting is not None:
        a = _object(acting, "acting", ACTING_KEYS)
        pid = _text(a.get("player"), "acting.player", 3)
        if pid not in ids:
            raise _fail("acting.player", f"{pid!r} is not one of the scenario's players ({', '.join(ids) or 'none'})")
        spec = top["players"][ids[pid]]
        if spec.get("location", "field" if spec.get("hex") is not None else "bench") != "field":
            raise _fail("acting.player", f"{pid} is not on the field")
        if "jog" in a:
            _number(a["jog"], "acting.jog", 0, JOG_MAX)
        for k, v in _object(a.get("flags", {}), "acting.flags", tuple(FLAGS)).items():
            kind = str(FLAGS[k])
            if kind.startswith("bool"):
                _flag(v, f"acting.flags.{k}")
            elif kind.startswith("int"):
                _number(v, f"acting.flags.{k}", 0, JOG_MAX)
            elif k == "lead_pass":
                if v is not None and v not in ids:
                    raise _fail(f"acting.flags.{k}", f"{_shown(v)} is not one of the scenario's players")
            elif v is not None:
                _text(v, f"acting.flags.{k}", 20)
        if "dash" in a.get("flags", {}):
            _choice(a["flags"]["dash"], "acting.flags.dash", ("none", "granted", "moved", "done"))
    else:
        # Without an acting player the position is a team's turn, a set-up (who places now, who
        # set up first) or a face-off (who won it); the builder checks the rest of each start.
        phase = _choice(top.get("phase", "turn"), "phase", ("turn", "setup", "faceoff"))
        if phase == "turn":
            _choice(top.get("turn"), "turn", SIDES)
        for key, needed in (("setup_side", "setup"), ("first_setup_side", "setup"), ("faceoff_winner", "faceoff")):
            if top.get(key) is not None:
                if phase != needed:
                    raise _fail(key, f"only goes with \"phase\": \"{needed}\"")
                _choice(top[key], key, SIDES)
        if phase == "faceoff":
            _choice(top.get("faceoff_winner"), "faceoff_winner", SIDES)
    for side, pid in _object(top.get("last_moved", {}), "last_moved", SIDES).items():
        if pid is not None and (not isinstance(pid, str) or pid not in ids or pid[0] != side[0]):
            raise _fail(f"last_moved.{side}", f"{_shown(pid)} is not a {side} player of the scenario")
    dice = _object(top.get("dice", {}), "dice", ("faces", "d6"))
    _text(dice.get("faces", ""), "dice.faces", 4 * MAX_DICE)
    for i, d in enumerate(_list(dice.get("d6", []), "dice.d6", MAX_DICE)):
        _number(d, f"dice.d6[{i}]", 1, 6)
    for i, item in enumerate(_list(top.get("commands", []), "commands", MAX_COMMANDS)):
        where = f"commands[{i}]"
        if isinstance(item, Mapping):
            entry = _object(item, where, ("side", "command"))
            if "command" not in entry:
                raise _fail(where, "a command object needs its 'command'")
            if entry.get("side") is not None:
                _choice(entry["side"], f"{where}.side", SIDES)
            _text(entry["command"], f"{where}.command", 500)
        else:
            _text(item, where, 500)


def check_position(state: MatchState, fld: Field | None = None) -> None:
    """Refuse a built position that breaks the engine's invariants (two players on one hex, a
    loose ball under a player, the ball held off the field, more than six on the field)."""
    problems = invariant_violations(state, fld or standard_field())
    if problems:
        raise MalformedInputError("impossible position: " + "; ".join(problems))
