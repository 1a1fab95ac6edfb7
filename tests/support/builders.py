"""Build exact positions for rule tests: players on named hexes, the ball, whose action.

    st = position(
        P("w1", "timberline-elves/dryads", "H10", "E"),
        P("e1", "night-elves/imps", "J10", "W", ball=True),
        acting="w1", jog=5, momentum=(0, None),
    )
    res = act(st, Move((hx("I10"),)), faces="O O X -")
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import commands as C
from engine.dice import ScriptedDice
from engine.errors import IllegalCommandError
from engine.field import standard_field
from engine.hexes import Hex
from engine.match import Result, apply
from engine.state import MatchState, Phase, RuleOptions
from service.scenario import build_state

F = standard_field()


def hx(label: str) -> Hex:
    return F.parse(label)


@dataclass
class P:
    id: str
    position: str  # roster position id, e.g. "night-elves/imps"
    hex: str | None = None  # None: on the Bench
    facing: str | None = "E"
    status: str = "standing"
    ball: bool = False
    location: str | None = None
    abilities: tuple[str, ...] = ()  # learned abilities (Advanced rules)
    attributes: dict | None = None  # a changed profile, e.g. {"might": 4}


def _spec(p: P) -> dict:
    d = {"id": p.id, "position": p.position, "status": p.status, "ball": p.ball}
    if p.hex is not None:
        d.update(hex=p.hex, facing=p.facing or "E")
    if p.location:
        d["location"] = p.location
    if p.abilities:
        d["abilities"] = list(p.abilities)
    if p.attributes:
        d["attributes"] = dict(p.attributes)
    return d


def position(
    *specs: P,
    ball: str | None = None,
    acting: str | None = None,
    jog: int | None = None,
    momentum: tuple[int, str | None] = (0, None),
    turn: str | None = None,
    phase: Phase | None = None,
    options: RuleOptions | None = None,
    support: dict | None = None,
    **action_flags: object,
) -> MatchState:
    """A mid-match position (the scenario format's builder). ``acting`` starts that player's
    action with ``jog`` left; ``support`` gives team support by side, e.g.
    ``{"west": {"cheerleaders": 2}}``."""
    data: dict = {
        "players": [_spec(s) for s in specs],
        "momentum": {"counters": momentum[0], "side": momentum[1]},
        "rules": {} if options is None else options.to_dict(),
        "teams": {side: {"support": dict(items)} for side, items in (support or {}).items()},
    }
    if ball:
        data["ball"] = ball
    if acting is not None:
        data["acting"] = {"player": acting, "flags": action_flags}
        if jog is not None:
            data["acting"]["jog"] = jog
    else:
        data["phase"] = (phase or Phase.TURN).value
        data["turn"] = turn
    return build_state(data)


def dice(faces: str = "", d6: str | list[int] = "") -> ScriptedDice:
    d6_list = [int(x) for x in d6.split()] if isinstance(d6, str) else list(d6)
    return ScriptedDice(faces=faces, d6=d6_list)


def act(state: MatchState, command: C.Command, faces: str = "", d6: str | list[int] = "", *, by: str | None = None,
        answers: list | None = None) -> Result:
    """Apply ``command`` (then each answer in turn) with scripted dice; all dice must be used."""
    src = dice(faces, d6)
    side = by or state.turn_side
    res = apply(state, command, src, by=side)  # type: ignore[arg-type]
    events = list(res.events)
    for a in answers or []:
        q = res.state.in_progress.question  # type: ignore[union-attr]
        res = apply(res.state, C.Answer(a), src, by=q["side"])
        events.extend(res.events)
    assert src.exhausted, f"unused dice: faces {src.unused_faces}, d6 {src.unused_d6}"
    res.events = events
    return res


def rolls(res: Result, challenge: str | None = None) -> list[dict]:
    return [e.to_dict() for e in res.events if e.kind == "challenge_rolled" and (challenge is None or e.challenge == challenge)]


def need_of(r: dict) -> int:
    """The successes a ``rolls()`` record needed (clamped to at least 1)."""
    need = r["roll"]["need"]
    return max(1, need["base"] + sum(m["value"] for m in need["modifiers"]))


def events(res: Result, kind: str) -> list[dict]:
    """The events of one kind, as dicts."""
    return [e.to_dict() for e in res.events if e.kind == kind]


def refused(state: MatchState, command: C.Command, *, by: str | None = None, match: str | None = None) -> IllegalCommandError:
    """Assert ``command`` is refused with an IllegalCommandError, leaving ``state`` unchanged."""
    import pytest

    before = state.to_dict()
    with pytest.raises(IllegalCommandError, match=match) as info:
        apply(state, command, dice(), by=by or state.turn_side)  # type: ignore[arg-type]
    assert state.to_dict() == before
    assert info.value.rule, "a refusal names the rule it applies"
    return info.value


def play(state: MatchState, command: C.Command, faces: str = "", d6: str | list[int] = "", *, by: str | None = None,
         answers: list | None = None, pending: bool = False) -> Result:
    """``act``, and assert no question is left unanswered unless ``pending``."""
    res = act(state, command, faces, d6, by=by, answers=answers)
    q = res.state.in_progress.question if res.state.in_progress else None
    assert pending == (q is not None), f"pending question: {q}"
    return res


def acting_dryad() -> MatchState:
    """The grammar tests' position: the Dryad w1 acting (Jog 5) beside two Hunters (one on the
    bench), a Striker and the Imp e2 holding the ball."""
    return position(
        P("w1", "timberline-elves/dryads", "F14", "E"),
        P("w2", "timberline-elves/hunters", "I12", "W"),
        P("w3", "timberline-elves/hunters", None),
        P("e1", "night-elves/strikers", "E14", "E"),
        P("e2", "night-elves/imps", "G13", "E", ball=True),
        acting="w1",
        jog=5,
    )
