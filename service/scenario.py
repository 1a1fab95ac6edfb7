"""Scenarios: a position, the exact dice, and commands in the console grammar (docs/scenarios.md).

A commissioner settling a dispute writes the position as JSON, states the dice the table
rolled, lists the commands, and gets the resulting state and events. The rulebook's own
examples are kept as scenario files under ``scenarios/`` and run by the tests.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine import (
    ActionState,
    Ball,
    Direction,
    ElfballError,
    Field,
    Location,
    MalformedInputError,
    MatchState,
    Phase,
    Player,
    RULES_EDITION,
    RuleOptions,
    ScriptedDice,
    Side,
    Status,
    Team,
    ability,
    apply,
    french_impcrusher_abilities,
    new_deck,
    parse_rules,
    pending,
    position_by_id,
    singular_name,
    standard_field,
    team_list,
)

from .grammar import parse
from .jsonfile import read_json
from .scenario_check import check_position, check_scenario
from .scenario_tools import ScenarioResult, start_keys

__all__ = ["build_state", "load_scenario", "run_scenario", "ScenarioResult", "player_from_spec"]


def _whole(value: Any, what: str) -> int:
    """A whole number of the scenario: a JSON integer or one written with the digits 0-9 (``"3"``);
    ``"²"`` or ``"٣"`` is refused, not read (``str.isdigit`` says yes to both)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,9}", value.strip(), re.ASCII):
        return int(value)
    raise MalformedInputError(f"{what}: {value!r} is not a whole number written with the digits 0-9")


def player_from_spec(spec: Mapping[str, Any], fld: Field) -> Player:
    """``{"id": "w1", "position": "timberline-elves/dryads", "hex": "F14", "facing": "E",
    "status": "standing", "location": "field", "name": "..."}``; no hex means the Bench."""
    pid = str(spec["id"])
    if not re.fullmatch(r"[we][0-9]{1,2}", pid, re.ASCII):
        raise MalformedInputError(f"player id {pid!r}: use w1..w12 for west, e1..e12 for east")
    pos = position_by_id(str(spec["position"]))
    hex_label = spec.get("hex")
    location = Location(spec.get("location", "field" if hex_label else "bench"))
    on = location is Location.FIELD
    if on and not hex_label:
        raise MalformedInputError(f"{pid} is on the field but has no hex")
    player = Player.from_position(
        pid,
        "west" if pid[0] == "w" else "east",
        int(pid[1:]),
        str(spec.get("name") or f"{singular_name(pos.name)} {pid}"),
        pos,
        location=location,
        hex=fld.parse(str(hex_label)) if on else None,  # (checked above: a player on the field has one)
        facing=Direction.parse(spec.get("facing", "E")) if on else None,
        status=Status(spec.get("status", "standing")),
    )
    # Advanced rules: learned abilities and a changed profile ("abilities": ["agile"],
    # "attributes": {"might": 4}).
    for a in spec.get("abilities", ()):
        ability(str(a))
    player.abilities = tuple(dict.fromkeys((*player.abilities, *(str(a) for a in spec.get("abilities", ())))))
    for name, value in dict(spec.get("attributes", {})).items():
        if name not in ("jog", "might", "tackle", "dodge", "skill", "grit"):
            raise MalformedInputError(f"{pid}: no attribute {name!r}")
        setattr(player, name, _whole(value, f"{pid} {name}"))
    return player


def build_state(data: Mapping[str, Any], fld: Field | None = None) -> MatchState:
    """A mid-match position from a scenario's JSON (everything but the dice and commands)."""
    fld = fld or standard_field()
    players = {p.id: p for p in (player_from_spec(s, fld) for s in data.get("players", ()))}
    carriers = [str(s["id"]) for s in data.get("players", ()) if s.get("ball")]
    if len(carriers) > 1:
        raise MalformedInputError(f"only one player can hold the ball, not {carriers}")
    teams: dict[Side, Team] = {}
    for side in ("west", "east"):
        t = dict(data.get("teams", {}).get(side, {}))
        colours: tuple[str, str] = ("#ffffff", "#000000")
        if t.get("list"):
            tl = team_list(str(t["list"]))
            colours = tl.colours
        teams[side] = Team(
            side,
            str(t.get("name", side.title())),
            str(t.get("list", "scenario")),
            colours,
            [p.id for p in players.values() if p.side == side],
            _whole(t.get("score", 0), f"{side} score"),
            {str(k): _whole(v, f"{side} support {k}") for k, v in dict(t.get("support", {})).items()},
            {str(k): _whole(v, f"{side} used {k}") for k, v in dict(t.get("used", {})).items()},
        )
    ball = Ball(None, carriers[0]) if carriers else Ball(fld.parse(str(data.get("ball", "K12"))))
    rules = data.get("rules", {})
    # A rules string ("profile=fr-0.0.6 double") or the options' fields; a scenario plays the
    # current rules edition unless it names one ("edition": 1, a match stored before it).
    options = parse_rules(rules) if isinstance(rules, str) else RuleOptions.from_dict({"edition": RULES_EDITION, **rules})
    for p in players.values():
        french_impcrusher_abilities(options, p)  # fr_impcrusher: as new_match gives them
    st = MatchState(options=options, teams=teams, players=players, ball=ball, deck=new_deck(options))
    m = data.get("momentum", {})
    st.momentum, st.momentum_side = _whole(m.get("counters", 0), "momentum counters"), m.get("side")
    acting = data.get("acting")
    if acting:
        p = players[str(acting["player"])]
        st.phase, st.turn_side = Phase.ACTION, p.side
        st.action = ActionState(player=p.id, jog_left=_whole(acting.get("jog", p.jog), "acting jog"), **acting.get("flags", {}))
    else:
        st.phase = Phase(data.get("phase", "turn"))
        st.turn_side = data.get("turn")
    start_keys(st, data, fld)  # set-up and face-off starts
    if data.get("last_moved"):
        st.last_moved.update(data["last_moved"])
    carrier = st.carrier()
    if carrier is not None and carrier.side == st.turn_side:
        st.turn_carrier = carrier.id  # who held the ball as the turn began (double movement)
    return st


def load_scenario(path: str | Path) -> dict[str, Any]:
    data = read_json(path, "scenario")
    if not isinstance(data, dict):
        raise MalformedInputError(f"{path}: a scenario is a JSON object")
    return data


def run_scenario(data: Mapping[str, Any], fld: Field | None = None) -> ScenarioResult:
    """Play the scenario's commands with exactly its dice; stop at the first refusal."""
    fld = fld or standard_field()
    check_scenario(data, fld)  # types, ranges and names first: the builder trusts them
    state = build_state(data, fld)
    check_position(state, fld)  # then what the engine keeps true, before any command
    d = data.get("dice", {})
    dice = ScriptedDice(faces=d.get("faces", ""), d6=[_whole(x, "d6") for x in d.get("d6", ())])
    result = ScenarioResult(state)
    for entry in _commands(data.get("commands", ())):
        side = entry.get("side") or pending(result.state).side
        if side is None:
            result.error = f"{entry['command']!r}: the match is over"
            break
        try:
            cmd = parse(entry["command"], result.state, side, fld)
            res = apply(result.state, cmd, dice, by=side, field=fld)
        except ElfballError as exc:
            result.error = f"{entry['command']!r} ({side}): {exc}"
            break
        result.state, result.view = res.state, res.view
        result.events.extend(res.events)
        result.steps.append({"side": side, "command": entry["command"], "events": len(res.events)})
    if result.error is None and not dice.exhausted:
        result.error = f"unused dice: faces {' '.join(f.symbol for f in dice.unused_faces)} d6 {list(dice.unused_d6)}"
    return result


def _commands(items: Sequence[Any]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        if isinstance(item, str):
            out.append({"command": item})
        elif isinstance(item, Mapping) and "command" in item:
            out.append(dict(item))
        else:
            raise MalformedInputError(f"a scenario command is a string or {{'side':..., 'command':...}}, not {item!r}")
    return out

