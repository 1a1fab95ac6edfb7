"""The scenario sandbox's tools (docs/scenarios.md): where a scenario may start, what the deciding
coach may do next, and whether a run holds its ``expect`` block.

- ``start_keys`` reads the keys that start a scenario in set-up (``setup_side``,
  ``first_setup_side``) or at the face-off (``faceoff_winner``);
- ``legal_lines`` lists the deciding coach's legal commands in the console grammar, grouped by
  kind, each challenge with its odds (``engine.legal`` decides what is legal, ``engine.preview``
  the odds; every line is read back through ``service.grammar.parse`` to the same command);
- ``check_expect`` compares a run with the scenario's ``expect`` and returns each difference.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import (
    ActionState,
    Answer,
    AutoSetup,
    CastSpell,
    Cheer,
    Command,
    Concede,
    Dash,
    DrinkPotion,
    ElfballError,
    EndAction,
    Event,
    Face,
    FaceoffContact,
    FaceoffPickup,
    Field,
    MalformedInputError,
    MatchState,
    Move,
    Phase,
    Place,
    Preview,
    Quickling,
    Replace,
    SetupDone,
    Shove,
    Side,
    StandUp,
    StartAction,
    StartTest,
    Tackle,
    Taunt,
    Throw,
    Unplace,
    contact_previews,
    direction_between,
    faceoff_players,
    legal_commands,
    narrate_events,
    other_side,
    pending,
    standard_field,
    step_previews,
    throw_preview,
)

from .grammar import MOVER_VERBS, parse

__all__ = ["ScenarioResult", "start_keys", "legal_lines", "command_line", "check_expect", "EXPECT_KEYS"]

_SIDES: tuple[Side, Side] = ("west", "east")


# --- where a scenario starts ------------------------------------------------------------------
def start_keys(st: MatchState, data: Mapping[str, Any], fld: Field) -> None:
    """Set-up: ``setup_side`` (who places players now) and ``first_setup_side`` (who set up
    first: the other team sets up after him, then the face-off is rolled); face-off:
    ``faceoff_winner`` (who won it and chooses his free challenge, with the face-off players
    already in J12 and L12)."""
    if st.phase is Phase.SETUP:
        # Without setup_side nobody is placing (as before these keys existed: the builders of
        # older tests set it themselves).
        now = _side(data, "setup_side")
        st.setup_side = now
        st.first_setup_side = _side(data, "first_setup_side") or now
    elif st.phase is Phase.FACEOFF:
        winner = _side(data, "faceoff_winner", required=True)
        try:
            faceoff_players(st, fld)
        except AssertionError as exc:
            raise MalformedInputError(f"a face-off scenario needs both face-off players in J12 and L12 ({exc})") from None
        st.faceoff_winner = st.turn_side = winner
        if st.momentum_side is None:
            st.momentum_side = winner  # the winner's track, even at 0 (his first action)
    for key in ("setup_side", "first_setup_side", "faceoff_winner"):
        if key in data and st.phase is not (Phase.FACEOFF if key == "faceoff_winner" else Phase.SETUP):
            raise MalformedInputError(f"{key} only goes with \"phase\": \"{'faceoff' if key == 'faceoff_winner' else 'setup'}\"")


def _side(data: Mapping[str, Any], key: str, *, required: bool = False) -> Side | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if value not in _SIDES:
        raise MalformedInputError(f"{key} is west or east, not {value!r}")
    return value


# --- what the deciding coach may do -------------------------------------------------------------
def command_line(cmd: Command, state: MatchState, fld: Field) -> str:
    """``cmd`` in the console grammar (``move K11``, ``tackle e3 pummel``, ``reroll 0 2``)."""
    h = fld.format
    if isinstance(cmd, Place):
        return f"place {cmd.player} {h(cmd.hex)} {cmd.facing.name}"
    if isinstance(cmd, Replace):
        return f"replace {cmd.player} {h(cmd.hex)} {cmd.facing.name}"
    if isinstance(cmd, Move):
        steps = " ".join(h(x) for x in cmd.path)
        verb = {v: k for k, v in MOVER_VERBS.items()}.get(cmd.ability or "")
        if verb is not None and cmd.player is not None:
            return f"{verb} {cmd.player} {steps}"
        extra = "".join((f" facing {cmd.facing.name}" if cmd.facing else "", f" with {cmd.ability}" if cmd.ability else "",
                         f" player {cmd.player}" if cmd.player else ""))
        return f"move {steps}{extra}"
    if isinstance(cmd, FaceoffContact):
        return " ".join(["faceoff", cmd.challenge, *(h(x) for x in cmd.path)])
    if isinstance(cmd, Throw):
        return f"throw {h(cmd.target)}" + ("" if cmd.long is None else " long" if cmd.long else " short")
    if isinstance(cmd, Tackle):
        return f"tackle {cmd.target}" + (f" {cmd.use}" if cmd.use else "")
    if isinstance(cmd, Dash):
        return "sprint" if cmd.sprint else f"dash {cmd.counters}"
    if isinstance(cmd, CastSpell):
        return f"spell {cmd.spell} {h(cmd.hex) if cmd.hex is not None else cmd.target}"
    if isinstance(cmd, Answer):
        return _answer_line(cmd.value, state)
    simple = {Unplace: "unplace {player}", AutoSetup: "auto", SetupDone: "done", StartTest: "next",
              FaceoffPickup: "faceoff pickup", StartAction: "act {player}", Shove: "shove {target}",
              Cheer: "cheer", Quickling: "quickling {player}", Taunt: "taunt {player} {target} {counters}",
              DrinkPotion: "potion {player}", Concede: "concede"}
    if type(cmd) in simple:
        return simple[type(cmd)].format(**{k: getattr(cmd, k) for k in ("player", "target", "counters") if hasattr(cmd, k)})
    facing = getattr(cmd, "facing", None)
    word = {Face: "face", StandUp: "stand", EndAction: "end"}[type(cmd)]
    return f"{word} {facing.name}" if facing is not None else word


def _answer_line(value: Any, state: MatchState) -> str:
    q = (state.in_progress.question if state.in_progress else None) or {}
    if isinstance(value, (tuple, list)):
        return "reroll " + " ".join(str(i) for i in value) if value else "keep"
    if q.get("kind") == "intercept":
        return f"intercept {value or 'none'}"
    if q.get("kind") == "catch":
        return str(value)  # catch / decline
    if value is None:
        return "answer none"
    if isinstance(value, bool):
        return "answer yes" if value else "answer no"
    if isinstance(value, int):
        return f"answer {value:+d}" if value else "answer 0"
    return f"answer {value}"


def _odds(p: Preview) -> dict[str, Any]:
    return {"challenge": p.challenge, "dice": p.dice, "need": p.need, "success": round(p.success, 4), "flop": round(p.flop, 4)}


def _previews(cmd: Command, state: MatchState, fld: Field) -> list[Preview]:
    if state.phase is Phase.FACEOFF:
        return _faceoff_previews(cmd, state, fld)
    actor = state.acting_player
    if actor is None:
        return []
    if isinstance(cmd, Move) and cmd.ability is None and len(cmd.path) == 1:
        return step_previews(state, cmd.path[0])
    if isinstance(cmd, Throw):
        return [throw_preview(state, cmd.target, cmd.long)]
    if isinstance(cmd, (Tackle, Shove)):
        target = state.players[cmd.target]
        return contact_previews(state, actor, target, "shove" if isinstance(cmd, Shove) else "tackle",
                                getattr(cmd, "use", None))
    return []


def _faceoff_previews(cmd: Command, state: MatchState, fld: Field) -> list[Preview]:
    """The free challenge's odds, read on a copy where the winner has taken his free paces (the
    simplified face-off rolls nothing)."""
    if state.options.simple_faceoff or state.faceoff_winner is None:
        return []
    st = state.copy()
    players, winner = faceoff_players(st, fld), state.faceoff_winner
    me, them = players[winner], players[other_side(winner)]
    st.action = ActionState(player=me.id, jog_left=0, faceoff_free=True)
    if isinstance(cmd, FaceoffPickup):
        return [p for p in step_previews(st, fld.ball_spot) if p.challenge == "pickup"]
    if isinstance(cmd, FaceoffContact):
        if cmd.path:
            me.hex = cmd.path[-1]
        assert me.hex is not None and them.hex is not None
        me.facing = direction_between(me.hex, them.hex) or me.facing
        return contact_previews(st, me, them, cmd.challenge)
    return []


def legal_lines(state: MatchState, fld: Field) -> dict[str, Any]:
    """The deciding coach (``pending(state).side``) and his legal commands in the console grammar,
    grouped by kind (``move``, ``throw``, ``tackle``, ``answer``...): ``{"command": "tackle e3",
    "odds": [{"challenge": "impact", "dice": 3, "need": 2, "success": 0.42, "flop": 0.11}, ...]}``.
    Placements and Replacements are grouped by player and hex with the facings allowed there
    (``{"command": "place w3 J12 FACING", "facings": ["NE", "E"]}``); ``concede``, always
    possible, is left out."""
    side = pending(state).side
    if side is None:
        return {"side": None, "kinds": {}}
    kinds: dict[str, list[dict[str, Any]]] = {}
    grouped: dict[tuple[str, str, str], list[str]] = {}
    for cmd in legal_commands(state, side, fld):
        if isinstance(cmd, Concede):
            continue
        kind = cmd.name
        if isinstance(cmd, (Place, Replace)):
            key = (kind, cmd.player, fld.format(cmd.hex))
            if key not in grouped:
                grouped[key] = []
                kinds.setdefault(kind, []).append({"command": f"{kind} {cmd.player} {key[2]} FACING", "facings": grouped[key]})
            grouped[key].append(cmd.facing.name)
            continue
        line = command_line(cmd, state, fld)
        entry: dict[str, Any] = {"command": line}
        odds = [_odds(p) for p in _previews(cmd, state, fld)]
        if odds:
            entry["odds"] = odds
        if not _reads_back(line, cmd, state, side, fld):
            entry["grammar"] = False  # the console cannot say it this way (listed so nothing is hidden)
        kinds.setdefault(kind, []).append(entry)
    return {"side": side, "kinds": kinds}


def _reads_back(line: str, cmd: Command, state: MatchState, side: Side, fld: Field) -> bool:
    try:
        return parse(line, state, side, fld) == cmd
    except ElfballError:
        return False


# --- does a run hold its expect block -----------------------------------------------------------
#: Every key ``expect`` may hold (docs/scenarios.md); any other is reported, so a typo never passes.
EXPECT_KEYS = ("refused", "carrier", "ball", "momentum", "momentum_side", "turn", "jog", "phase", "pending",
               "after_sim", "score", "winner", "status", "hex", "facing", "location", "potion_abilities",
               "need", "challenges", "no_challenge", "used", "ability_used", "events", "no_events")


def check_expect(data: Mapping[str, Any], result: ScenarioResult, fld: Field) -> list[str]:
    """Each way ``result`` differs from ``data["expect"]``, as a sentence; [] when all hold.
    A refused command or leftover dice is a difference unless ``refused`` expects that text."""
    exp = dict(data.get("expect") or {})
    out = [f"expect: unknown key {k!r} (known: {', '.join(EXPECT_KEYS)})" for k in exp if k not in EXPECT_KEYS]
    refused = exp.get("refused")
    if refused is not None:
        if result.error is None or str(refused).lower() not in result.error.lower():
            out.append(f"refused: expected an error containing {refused!r}, got {result.error!r}")
    elif result.error is not None:
        out.append(f"error: {result.error}")
    out.extend(_differences(exp, result, fld))
    return out


def _differences(exp: Mapping[str, Any], result: ScenarioResult, fld: Field) -> Iterator[str]:
    st = result.view or result.state
    events = result.events

    def differ(key: str, want: Any, got: Any) -> Iterator[str]:
        if want != got:
            yield f"{key}: expected {want!r}, got {got!r}"

    def where(h: Any) -> str | None:
        return fld.format(h) if h is not None else None

    if "carrier" in exp:
        yield from differ("carrier", exp["carrier"], st.ball.carrier)
    if "ball" in exp:
        yield from differ("ball", exp["ball"], None if st.ball.carrier else where(st.ball.hex))
    for key, got in (("momentum", st.momentum), ("momentum_side", st.momentum_side), ("turn", st.turn_side),
                     ("phase", st.phase.value), ("after_sim", st.after_sim), ("winner", st.winner),
                     ("pending", pending(result.state).kind),
                     ("score", {s: st.teams[s].score for s in _SIDES}),
                     ("jog", st.action.jog_left if st.action else None)):
        if key in exp:
            yield from differ(key, exp[key], got)
    per_player = {"status": lambda p: p.status.value, "hex": lambda p: where(p.hex),
                  "facing": lambda p: p.facing.name if p.facing else None, "location": lambda p: p.location.value,
                  "potion_abilities": lambda p: list(p.potion_abilities)}
    for key, read in per_player.items():
        for pid, want in dict(exp.get(key, {})).items():
            if pid not in st.players:
                yield f"{key}.{pid}: no such player"
            else:
                yield from differ(f"{key}.{pid}", want, read(st.players[pid]))
    rolled = [e.to_dict() for e in events if e.kind == "challenge_rolled"]
    challenges = [r["challenge"] for r in rolled]
    for challenge, n in dict(exp.get("need", {})).items():
        found = [r for r in rolled if r["challenge"] == challenge]
        got = max(1, found[0]["roll"]["need"]["base"] + sum(m["value"] for m in found[0]["roll"]["need"]["modifiers"])) if found else None
        yield from differ(f"need.{challenge}", n, got)
    if "challenges" in exp:
        yield from differ("challenges", list(exp["challenges"]), challenges)
    for c in exp.get("no_challenge", ()):
        if c in challenges:
            yield f"no_challenge: a {c} was rolled"
    for side, items in dict(exp.get("used", {})).items():
        yield from differ(f"used.{side}", dict(items), {k: st.teams[side].used.get(k, 0) for k in items})
    used = {f"{e.ability}:{e.effect}" for e in events if e.kind == "ability_used"}  # type: ignore[attr-defined]  # filtered to ability_used events, which carry ability and effect
    for pair in exp.get("ability_used", ()):
        if pair not in used:
            yield f"ability_used: {pair!r} did not happen (happened: {sorted(used)})"
    kinds = {e.kind for e in events}
    for kind in exp.get("events", ()):
        if kind not in kinds:
            yield f"events: no {kind!r} event"
    for kind in exp.get("no_events", ()):
        if kind in kinds:
            yield f"no_events: a {kind!r} event happened"


@dataclass
class ScenarioResult:
    """``state``: what the next command applies to (while a question waits, the position before
    the paused command, as the engine resumes it); ``view``: the position as it stands, with
    everything ``events`` tell (the same state when nothing waits)."""

    state: MatchState
    events: list[Event] = field(default_factory=list)
    error: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    view: MatchState | None = None

    def to_dict(self, fld: Field | None = None) -> dict[str, Any]:
        pend = pending(self.state)
        shown = self.view or self.state
        return {
            "state": shown.to_dict(),  # as it stands: consistent with the events, even mid-question
            "events": [e.to_dict() for e in self.events],
            "narration": narrate_events(self.events, shown),
            "pending": {"side": pend.side, "kind": pend.kind, "question": pend.question},
            "legal": legal_lines(self.state, fld or standard_field()),
            "steps": self.steps,
            "error": self.error,
        }
