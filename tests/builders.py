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
from engine.field import standard_field
from engine.hexes import Direction, Hex
from engine.match import Result, apply
from engine.rosters import position_by_id
from engine.state import ActionState, Ball, Location, MatchState, Phase, Player, RuleOptions, Status, Team

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


def make_player(spec: P) -> Player:
    pos = position_by_id(spec.position)
    a = pos.attributes
    side = "west" if spec.id.startswith("w") else "east"
    on = spec.hex is not None
    return Player(
        id=spec.id,
        side=side,  # type: ignore[arg-type]
        number=int(spec.id[1:]),
        name=f"{pos.name} {spec.id}",
        position=pos.id,
        type=str(pos.type),
        jog=a.jog,
        might=a.might,
        tackle=a.tackle,
        dodge=a.dodge,
        skill=a.skill,
        grit=a.grit,
        abilities=tuple(pos.innate_abilities),
        location=Location(spec.location) if spec.location else (Location.FIELD if on else Location.BENCH),
        hex=hx(spec.hex) if on else None,  # type: ignore[arg-type]
        facing=Direction[spec.facing] if on and spec.facing else None,
        status=Status(spec.status),
    )


def position(
    *specs: P,
    ball: str | None = None,
    acting: str | None = None,
    jog: int | None = None,
    momentum: tuple[int, str | None] = (0, None),
    turn: str | None = None,
    phase: Phase | None = None,
    options: RuleOptions | None = None,
    **action_flags: object,
) -> MatchState:
    """A mid-match position. ``acting`` starts that player's action with ``jog`` left."""
    players = {s.id: make_player(s) for s in specs}
    teams = {
        side: Team(side, side.title(), "test", ("#ffffff", "#000000"), [p.id for p in players.values() if p.side == side])  # type: ignore[arg-type]
        for side in ("west", "east")
    }
    carrier = next((s.id for s in specs if s.ball), None)
    st = MatchState(
        options=options or RuleOptions(),
        teams=teams,  # type: ignore[arg-type]
        players=players,
        ball=Ball(None if carrier else hx(ball or "K12"), carrier),
    )
    st.momentum, st.momentum_side = momentum  # type: ignore[assignment]
    if acting is not None:
        p = players[acting]
        st.phase, st.turn_side = Phase.ACTION, p.side
        st.action = ActionState(player=acting, jog_left=p.jog if jog is None else jog, **action_flags)  # type: ignore[arg-type]
    else:
        st.phase = phase or Phase.TURN
        st.turn_side = turn  # type: ignore[assignment]
    return st


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
