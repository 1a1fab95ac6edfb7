"""The board in words: for screen readers, the local console and tests.

``describe(state, events)`` says what the picture shows: the score, the Test, whose turn and
which decision is pending, Momentum, the ball, every player on the field (hex, facing, standing
or Down or Dazed, last moved, acting), the benches, and the last action (sentences from
``engine.narrate`` when it is available). The short labels the picture prints (position
initials, the status line) come from here too, so words and picture agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.events import Event, event_from_dict
from engine.field import Field, standard_field
from engine.hexes import Direction
from engine.match import Pending, pending
from engine.state import Location, MatchState, Phase, Player, Status

__all__ = [
    "describe",
    "surroundings",
    "as_events",
    "position_name",
    "initials",
    "status_line",
    "side_word",
    "COMPASS_WORDS",
    "OFF_FIELD_GROUPS",
]

COMPASS_WORDS = {
    Direction.NE: "north-east",
    Direction.E: "east",
    Direction.SE: "south-east",
    Direction.SW: "south-west",
    Direction.W: "west",
    Direction.NW: "north-west",
}

#: Where a player off the field is, in the order the footer and the description list them.
OFF_FIELD_GROUPS: tuple[tuple[Location, str], ...] = (
    (Location.BENCH, "Bench"),
    (Location.SENT_OFF, "Sent off"),
    (Location.RECOVERY, "Recovery"),
    (Location.INFIRMARY, "Infirmary"),
    (Location.EJECTED, "Ejected"),
)


def as_events(events: Iterable[Event | Mapping[str, Any]]) -> list[Event]:
    """Events as objects, whether given as ``Event`` or as their ``to_dict()`` JSON."""
    out: list[Event] = []
    for e in events:
        out.append(e if isinstance(e, Event) else event_from_dict(dict(e)))
    return out


def side_word(side: str | None) -> str:
    return {"west": "West", "east": "East"}.get(side or "", "nobody")


@lru_cache(maxsize=512)
def _position_name(position_id: str) -> str:
    try:
        from engine.rosters import position_by_id

        return position_by_id(position_id).name
    except Exception:  # noqa: BLE001 - an unknown id still gets a readable name
        return position_id.split("/")[-1].replace("-", " ").title()


def position_name(p: Player) -> str:
    """The roster position's name as the team list prints it ("Dryads", "Hunters/Weremen")."""
    return _position_name(p.position)


@lru_cache(maxsize=256)
def _initials(names: tuple[str, ...]) -> dict[str, str]:
    """One letter per position; two when positions share a first letter: the initials of a
    two-word name ("GC" Gnomish Contraptions), else the first letter and the first letter at
    which the names differ ("Mi"/"Me", "Df"/"Dr"); numbered as a last resort."""
    firsts: dict[str, list[str]] = {}
    for n in names:
        firsts.setdefault((n[:1] or "?").upper(), []).append(n)
    out: dict[str, str] = {}
    for letter, group in firsts.items():
        if len(group) == 1:
            out[group[0]] = letter
            continue
        single = []
        for n in group:
            words = n.split("/")[0].split()
            if len(words) > 1 and words[1][:1].isalpha():
                out[n] = (words[0][0] + words[1][0]).upper()
            else:
                single.append(n)
        width = min((len(n) for n in single), default=0)
        for k in range(1, width):
            picks = [letter + n[k].lower() for n in single]
            if len(set(picks)) == len(picks) and not set(picks) & {out[n] for n in group if n in out}:
                out.update(zip(single, picks))
                break
        else:
            for n in single:
                out[n] = letter + n[1:2].lower()
        seen: dict[str, int] = {}
        for n in group:
            seen[out[n]] = seen.get(out[n], 0) + 1
        k = 0
        for n in group:
            if seen[out[n]] > 1:
                k += 1
                out[n] = f"{letter}{k}"
    return out


def initials(state: MatchState, side: str) -> dict[str, str]:
    """Player id -> position initial, unique within the team ("D" Dryad, "Mi"/"Me" when two
    positions share a first letter)."""
    players = state.team_players(side)  # type: ignore[arg-type]
    names = tuple(sorted({position_name(p) for p in players}))
    table = _initials(names)
    return {p.id: table[position_name(p)] for p in players}


def possessive(name: str) -> str:
    """``Gnomes'``, ``Night Elves'``, ``Samhaino's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _player_label(state: MatchState, p: Player) -> str:
    return f"{p.name} ({side_word(p.side)} #{p.number}, {p.id})"


def _pending(state: MatchState) -> Pending:
    """``engine.match.pending``, or a best guess for a hand-built state it cannot read."""
    try:
        return pending(state)
    except Exception:  # noqa: BLE001 - a picture of an odd position beats no picture
        phase = state.phase.value
        kind = phase if phase in ("setup", "faceoff", "turn", "action", "test_over") else "none"
        side = state.setup_side if kind == "setup" else state.turn_side
        return Pending(side, kind)


def status_line(state: MatchState) -> tuple[str | None, str]:
    """Who must decide what now, in a few words: ``(side, text)`` for the picture's header."""
    pend = _pending(state)
    side = pend.side
    team = state.teams[side].name if side in state.teams else side_word(side)  # type: ignore[index]
    q = pend.question or {}

    def who(pid: Any) -> str:
        p = state.players.get(pid) if isinstance(pid, str) else None
        return p.name if p is not None else str(pid)

    kind = pend.kind
    if side is None and kind in ("setup", "faceoff", "turn", "action", "test_over"):
        return None, f"Waiting ({kind.replace('_', ' ')})"
    if kind == "setup":
        return side, f"{team} to set up (Test {state.test})"
    if kind == "faceoff":
        return side, f"{team} won the face-off: pick up the ball or challenge"
    if kind == "turn":
        return side, f"{possessive(team)} turn: choose a player to act"
    if kind == "action":
        a = state.action
        if a is not None:
            return side, f"{possessive(team)} turn: {who(a.player)} is acting, {a.jog_left} Jog left"
        return side, f"{possessive(team)} turn"
    if kind == "test_over":
        return side, f"Test over: {team} to start Test {state.test + 1}"
    if kind == "reroll":
        return side, f"{team}: re-roll dice of {possessive(who(q.get('player')))} {q.get('challenge', 'roll')}?"
    if kind == "force_reroll":
        return side, f"{team}: force a re-roll of {possessive(who(q.get('player')))} {q.get('challenge', 'roll')}?"
    if kind == "interceptor":
        return side, f"{team}: intercept the throw?"
    if kind == "catch":
        return side, f"{team}: does {who(q.get('player'))} catch the ball?"
    if state.phase is Phase.MATCH_OVER or kind == "none":
        if state.winner == "draw":
            return None, "Match over: a draw"
        if state.winner in state.teams:
            return state.winner, f"Match over: {state.teams[state.winner].name} won"  # type: ignore[index]
        return None, "Match over"
    return side, f"{team} to answer: {kind}"


def _question_text(state: MatchState) -> str | None:
    pend = _pending(state)
    if pend.question is None:
        return None
    try:
        from engine.narrate import describe_question

        return describe_question(pend.question, state)
    except Exception:  # noqa: BLE001 - the narrator is optional here
        return None


def _last_action(events: Sequence[Event], state: MatchState) -> list[str]:
    if not events:
        return []
    try:
        from engine.narrate import narrate

        return list(narrate(events, state))
    except Exception:  # noqa: BLE001 - fall back to the bare event kinds
        return [e.kind.replace("_", " ") for e in events]


def surroundings(state: MatchState, p: Player, fld: Field | None = None) -> str:
    """The six hexes around ``p``, clockwise from north-east: who stands there, or empty, or off the
    field. A screen-reader coach learns who he may tackle or must Disengage from without the picture."""
    fld = fld or standard_field()
    if p.hex is None:
        return f"{p.name} is not on the field."
    around = []
    for d in Direction:
        h = p.hex.neighbour(d)
        where = f"{COMPASS_WORDS[d]} {fld.format(h)}" if h in fld else f"{COMPASS_WORDS[d]}: off the field"
        q = state.player_at(h) if h in fld else None
        if q is None:
            loose = h in fld and state.ball.carrier is None and state.ball.hex == h
            around.append(where + (" the ball, loose" if loose else " empty" if h in fld else ""))
            continue
        bits = [f"{where} {side_word(q.side)} #{q.number} {q.name} ({q.id})"]
        bits.append({Status.STANDING: "standing", Status.DOWN: "Down", Status.DAZED: "Dazed"}[q.status])
        if q.facing is not None and q.status is Status.STANDING:
            bits.append(f"facing {COMPASS_WORDS[q.facing]}")
        if state.ball.carrier == q.id:
            bits.append("has the ball")
        around.append(", ".join(bits))
    return f"Around {p.name} ({fld.format(p.hex)}): " + "; ".join(around) + "."


def describe(
    state: MatchState,
    events: Iterable[Event | Mapping[str, Any]] = (),
    *,
    view: MatchState | None = None,
    field: Field | None = None,
) -> str:
    """The board as plain text, one fact per line.

    ``view`` is the position to describe while a decision is pending (``Result.view``); the
    score, turn and pending decision always come from ``state``.
    """
    fld = field or standard_field()
    board = view or state
    evs = as_events(events)
    w, e = state.teams["west"], state.teams["east"]
    goals = state.options.goals_to_win
    target = f"first to {goals} goal{'s' if goals != 1 else ''} wins" if goals else "a timed game, no goal limit"
    if state.deck is not None:
        target += f"; {state.deck.left} cards left"
    lines = [f"{w.name} (West) {w.score} – {e.score} {e.name} (East); {target}.", f"Test {state.test}."]
    side, text = status_line(state)
    lines.append(f"Now: {text}" + ("" if text.endswith(("?", ".", "!")) else "."))
    question = _question_text(state)
    if question:
        lines.append(f"Question: {question}")
    if state.momentum_side:
        lines.append(f"Momentum: {state.momentum}, held by {side_word(state.momentum_side)} ({state.teams[state.momentum_side].name}).")
    else:
        lines.append(f"Momentum: {state.momentum}, held by nobody.")
    carrier = board.carrier()
    if carrier is not None and carrier.hex is not None:
        lines.append(f"Ball: carried by {_player_label(board, carrier)} on {fld.format(carrier.hex)}.")
    elif board.ball.hex is not None:
        lines.append(f"Ball: on the ground on {fld.format(board.ball.hex)}.")
    else:
        lines.append("Ball: off the field.")
    acting = board.action.player if board.action else None
    for sd in ("west", "east"):
        team = board.teams[sd]  # type: ignore[index]
        inits = initials(board, sd)
        on = [p for p in board.team_players(sd) if p.on_field and p.hex is not None]  # type: ignore[arg-type]
        on.sort(key=lambda p: p.number)
        lines.append(f"{side_word(sd)} on the field ({team.name}, {'round tokens' if sd == 'west' else 'square tokens'}): {len(on)} player{'s' if len(on) != 1 else ''}.")
        for p in on:
            bits = [f"#{p.number} {p.name} [{inits[p.id]}] ({p.id}) on {fld.format(p.hex)}"]  # type: ignore[arg-type]
            if p.facing is not None:
                bits.append(f"facing {COMPASS_WORDS[p.facing]}")
            bits.append({Status.STANDING: "standing", Status.DOWN: "Down", Status.DAZED: "Dazed"}[p.status])
            if board.ball.carrier == p.id:
                bits.append("has the ball")
            if board.last_moved.get(sd) == p.id:
                bits.append("last moved")
            if acting == p.id:
                jog = f", {board.action.jog_left} Jog left" if board.action else ""
                bits.append(f"acting{jog}")
            lines.append("  " + ", ".join(bits) + ".")
        groups = []
        for loc, label in OFF_FIELD_GROUPS:
            ps = [p for p in board.team_players(sd) if p.location is loc]  # type: ignore[arg-type]
            if ps or loc is Location.BENCH:
                names = ", ".join(f"#{p.number} {p.name}" for p in ps) or "nobody"
                groups.append(f"{label}: {names}")
        lines.append(f"{side_word(sd)} off the field: " + "; ".join(groups) + ".")
    if acting is not None:
        lines.append(surroundings(board, board.players[acting], fld))
    last = _last_action(evs, board)
    if last:
        lines.append("Last action:")
        lines.extend(f"  {t}" for t in last)
    return "\n".join(lines)
