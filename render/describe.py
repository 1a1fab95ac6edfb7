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

from engine import (
    ABILITIES,
    Catalogue,
    Direction,
    Event,
    Field,
    Location,
    MatchState,
    Pending,
    Phase,
    Player,
    SIDES,
    Side,
    Status,
    describe_question,
    event_from_dict,
    narrate_events,
    pending,
    position_by_id,
    standard_field,
)

__all__ = [
    "describe",
    "surroundings",
    "as_events",
    "position_name",
    "initials",
    "status_line",
    "board_text",
    "side_word",
    "compass_word",
    "status_word",
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


@lru_cache(maxsize=8)
def _catalogue(language: str) -> Catalogue:
    return Catalogue("engine", "data/text", language)


def board_text(language: str, key: str, /, **values: Any) -> str:
    """A board word of the narration catalogue (``board.*``, ``side.*``, ``dir.*``, ``status.*``)."""
    return _catalogue(language).t(key, **values)


def side_word(side: str | None, language: str = "en") -> str:
    if language == "en":
        return {"west": "West", "east": "East"}.get(side or "", "nobody")
    return board_text(language, f"side.{side}" if side in ("west", "east") else "side.none")


def compass_word(direction: Direction, language: str = "en") -> str:
    return COMPASS_WORDS[direction] if language == "en" else board_text(language, f"dir.{direction.name}")


def status_word(status: Status, language: str = "en") -> str:
    return board_text(language, f"status.{status.value}")


@lru_cache(maxsize=512)
def _position_name(position_id: str) -> str:
    try:
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


def initials(state: MatchState, side: Side) -> dict[str, str]:
    """Player id -> position initial, unique within the team ("D" Dryad, "Mi"/"Me" when two
    positions share a first letter)."""
    players = state.team_players(side)
    names = tuple(sorted({position_name(p) for p in players}))
    table = _initials(names)
    return {p.id: table[position_name(p)] for p in players}


def possessive(name: str, language: str = "en") -> str:
    """``Gnomes'``, ``Night Elves'``, ``Samhaino's``; in French ``de Gnomes``, ``d'Orcs``."""
    if language != "en":
        return board_text(language, "board.of.vowel" if name[:1].lower() in "aeiouyàâéèêîôû" else "board.of", name=name)
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _player_label(state: MatchState, p: Player, language: str = "en") -> str:
    number = "#" if language == "en" else "n°"
    return f"{p.name} ({side_word(p.side, language)} {number}{p.number}, {p.id})"


def _pending(state: MatchState) -> Pending:
    """``engine.match.pending``, or a best guess for a hand-built state it cannot read."""
    try:
        return pending(state)
    except Exception:  # noqa: BLE001 - a picture of an odd position beats no picture
        phase = state.phase.value
        kind = phase if phase in ("setup", "faceoff", "turn", "action", "test_over") else "none"
        side = state.setup_side if kind == "setup" else state.turn_side
        return Pending(side, kind)


def status_line(state: MatchState, language: str = "en") -> tuple[str | None, str]:
    """Who must decide what now, in a few words: ``(side, text)`` for the picture's header."""
    pend = _pending(state)
    side = pend.side
    team = state.teams[side].name if side in state.teams else side_word(side, language)
    q = pend.question or {}
    t = lambda key, **kw: board_text(language, f"board.status.{key}", **kw)  # noqa: E731

    def who(pid: Any) -> str:
        p = state.players.get(pid) if isinstance(pid, str) else None
        return p.name if p is not None else str(pid)

    kind = pend.kind
    # A phase's kind in words while nobody is to decide; a question's kind is board.status.kind.*.
    kind_words = _catalogue(language).get(f"board.kind.{kind}", kind.replace("_", " "))
    if side is None and kind in ("setup", "faceoff", "turn", "action", "test_over"):
        return None, t("waiting", kind=kind_words)
    if kind == "setup":
        return side, t("setup", team=team, test=state.test)
    if kind == "faceoff":
        return side, t("faceoff", team=team)
    if kind == "turn":
        return side, t("turn", whose=possessive(team, language))
    if kind == "action":
        a = state.action
        if a is not None:
            return side, t("acting", whose=possessive(team, language), player=who(a.player), jog=a.jog_left)
        return side, t("turn_only", whose=possessive(team, language))
    if kind == "test_over":
        return side, t("test_over", team=team, test=state.test + 1)
    if kind in ("reroll", "force_reroll", "ability_reroll"):
        challenge = str(q.get("challenge", "roll"))
        challenge = _catalogue(language).get(f"challenge.{challenge}", challenge)
        whose = possessive(who(q.get("player")), language)
        if kind == "ability_reroll":
            found = ABILITIES.get(str(q.get("ability")))
            ability = found.name_in(language) if found is not None else str(q.get("ability"))
            return side, t(kind, team=team, whose=whose, challenge=challenge, ability=ability)
        return side, t(kind, team=team, whose=whose, challenge=challenge)
    if kind == "interceptor":
        return side, t("interceptor", team=team)
    if kind == "catch":
        return side, t("catch", team=team, player=who(q.get("player")))
    if state.phase is Phase.MATCH_OVER or kind == "none":
        if state.winner == "draw":
            return None, t("draw")
        if state.winner in state.teams:
            return state.winner, t("won", team=state.teams[state.winner].name)
        return None, t("over")
    return side, t("answer", team=team, kind=_catalogue(language).get(f"board.status.kind.{kind}", kind_words))


def _question_text(state: MatchState, language: str = "en") -> str | None:
    pend = _pending(state)
    if pend.question is None:
        return None
    try:
        return describe_question(pend.question, state, language=language)
    except Exception:  # noqa: BLE001 - the narrator is optional here
        return None


def _last_action(events: Sequence[Event], state: MatchState, language: str = "en") -> list[str]:
    if not events:
        return []
    try:
        return list(narrate_events(events, state, language=language))
    except Exception:  # noqa: BLE001 - fall back to the bare event kinds
        return [e.kind.replace("_", " ") for e in events]


def surroundings(state: MatchState, p: Player, fld: Field | None = None, *, language: str = "en") -> str:
    """The six hexes around ``p``, clockwise from north-east: who stands there, or empty, or off the
    field. A screen-reader coach learns who he may tackle or must Disengage from without the picture."""
    fld = fld or standard_field()
    t = lambda key, **kw: board_text(language, f"board.{key}", **kw)  # noqa: E731
    if p.hex is None:
        return t("not_on_field", player=p.name)
    number = "#" if language == "en" else "n°"
    around = []
    for d in Direction:
        h = p.hex.neighbour(d)
        compass = compass_word(d, language)
        where = t("around.hex", direction=compass, hex=fld.format(h)) if h in fld else t("around.off", direction=compass)
        q = state.player_at(h) if h in fld else None
        if q is None:
            loose = h in fld and state.ball.carrier is None and state.ball.hex == h
            around.append(where + (t("around.loose") if loose else t("around.empty") if h in fld else ""))
            continue
        bits = [f"{where} {side_word(q.side, language)} {number}{q.number} {q.name} ({q.id})"]
        bits.append(status_word(q.status, language))
        if q.facing is not None and q.status is Status.STANDING:
            bits.append(t("facing", direction=compass_word(q.facing, language)))
        if state.ball.carrier == q.id:
            bits.append(t("has_ball"))
        around.append(", ".join(bits))
    return t("around", player=p.name, hex=fld.format(p.hex)) + t("separator").join(around) + "."


def describe(
    state: MatchState,
    events: Iterable[Event | Mapping[str, Any]] = (),
    *,
    view: MatchState | None = None,
    field: Field | None = None,
    language: str = "en",
) -> str:
    """The board as plain text, one fact per line, in ``language`` (English by default).

    ``view`` is the position to describe while a decision is pending (``Result.view``); the
    score, turn and pending decision always come from ``state``.
    """
    fld = field or standard_field()
    board = view or state
    evs = as_events(events)
    t = lambda key, **kw: board_text(language, f"board.{key}", **kw)  # noqa: E731
    w, e = state.teams["west"], state.teams["east"]
    goals = state.options.goals_to_win
    target = t("target.one" if goals == 1 else "target.many", goals=goals) if goals else t("target.timed")
    if state.deck is not None:
        target += t("cards", left=state.deck.left)
    lines = [t("score", west=w.name, west_score=w.score, east_score=e.score, east=e.name, target=target),
             t("test", test=state.test)]
    side, text = status_line(state, language)
    lines.append(t("now", text=text) + ("" if text.endswith(("?", ".", "!")) else "."))
    question = _question_text(state, language)
    if question:
        lines.append(t("question", question=question))
    if state.momentum_side:
        lines.append(t("momentum", momentum=state.momentum, side=side_word(state.momentum_side, language),
                       team=state.teams[state.momentum_side].name))
    else:
        lines.append(t("momentum.nobody", momentum=state.momentum))
    carrier = board.carrier()
    if carrier is not None and carrier.hex is not None:
        lines.append(t("ball.carried", player=_player_label(board, carrier, language), hex=fld.format(carrier.hex)))
    elif board.ball.hex is not None:
        lines.append(t("ball.ground", hex=fld.format(board.ball.hex)))
    else:
        lines.append(t("ball.off"))
    acting = board.action.player if board.action else None
    number = "#" if language == "en" else "n°"
    for sd in SIDES:
        team = board.teams[sd]
        inits = initials(board, sd)
        on = [p for p in board.team_players(sd) if p.on_field and p.hex is not None]
        on.sort(key=lambda p: p.number)
        lines.append(t("on_field", side=side_word(sd, language), team=team.name, tokens=t(f"tokens.{sd}"),
                       players=t("players.one" if len(on) == 1 else "players.many", count=len(on))))
        for p in on:
            assert p.hex is not None  # ``on`` holds players on the field
            bits = [t("player", number=p.number, name=p.name, initials=inits[p.id], id=p.id,
                      hex=fld.format(p.hex))]
            if p.facing is not None:
                bits.append(t("facing", direction=compass_word(p.facing, language)))
            bits.append(status_word(p.status, language))
            if board.ball.carrier == p.id:
                bits.append(t("has_ball"))
            if board.last_moved.get(sd) == p.id:
                bits.append(t("last_moved"))
            if acting == p.id:
                jog = t("jog_left", jog=board.action.jog_left) if board.action else ""
                bits.append(t("acting") + jog)
            lines.append("  " + ", ".join(bits) + ".")
        groups = []
        for loc, label in OFF_FIELD_GROUPS:
            ps = [p for p in board.team_players(sd) if p.location is loc]
            if ps or loc is Location.BENCH:
                names = ", ".join(f"{number}{p.number} {p.name}" for p in ps) or side_word(None, language)
                label = label if language == "en" else t(f"group.{loc.value}")
                groups.append(f"{label}: {names}" if language == "en" else f"{label} : {names}")
        lines.append(t("off_field", side=side_word(sd, language)) + t("separator").join(groups) + ".")
    if acting is not None:
        lines.append(surroundings(board, board.players[acting], fld, language=language))
    last = _last_action(evs, board, language)
    if last:
        lines.append(t("last_action"))
        lines.extend(f"  {x}" for x in last)
    return "\n".join(lines)
