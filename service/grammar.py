"""The command grammar shared by the local console, scenario files and the Discord bot.

One line, one command, e.g. ``move K11 K10 L10``, ``move NE NE E facing W``, ``tackle e3``,
``reroll 0 2``. Player references are ids (``w3``), roster numbers (``3`` or ``#3``: your own
team for acting and placing, the opponent for tackles and shoves) or a unique part of a name
(``dryad``). ``parse`` turns a line into an engine command for the coach of ``side``; every
mistake raises ``MalformedInputError`` (or ``AmbiguousInputError``) saying how to write it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine import commands as C
from engine.errors import AmbiguousInputError, MalformedInputError
from engine.field import Field, Side, standard_field
from engine.hexes import Direction, Hex
from engine.state import Location, MatchState, Player

__all__ = ["parse", "resolve_player", "parse_path", "VERBS", "help_text", "Verb"]


@dataclass(frozen=True)
class Verb:
    name: str
    usage: str
    summary: str
    aliases: tuple[str, ...] = ()


VERBS: tuple[Verb, ...] = (
    Verb("place", "place PLAYER HEX FACING", "set a player up (e.g. place w3 J12 E)"),
    Verb("unplace", "unplace PLAYER", "take a placed player back to the Bench"),
    Verb("auto", "auto", "let the bot set your team up", ("setup",)),
    Verb("done", "done", "finish your set-up"),
    Verb("faceoff", "faceoff pickup | faceoff shove|tackle [HEX HEX]", "the face-off winner's free challenge"),
    Verb("act", "act PLAYER", "choose the player who takes this turn's action", ("action",)),
    Verb("replace", "replace PLAYER HEX FACING", "bring a Bench player on near a stairway instead of an action"),
    Verb("move", "move HEX|DIR ... [facing DIR]", "walk hex by hex (K11 K10 or NE NE E)", ("go",)),
    Verb("face", "face DIR", "turn the acting player (free)", ("turn",)),
    Verb("stand", "stand [DIR]", "stand up (costs Jog)"),
    Verb("throw", "throw HEX [long]", "throw to a team-mate's or an empty hex (long: up to 18, only if nothing else is done)"),
    Verb("tackle", "tackle PLAYER", "tackle an adjacent standing opponent (Impact first if he is stronger)"),
    Verb("shove", "shove PLAYER", "push an adjacent standing opponent one hex back"),
    Verb("dash", "dash COUNTERS", "spend Momentum counters to extend the action"),
    Verb("end", "end [DIR]", "end the action, optionally facing DIR"),
    Verb("undo", "undo", "take back your last step or turn of this action (until a die is rolled)"),
    Verb("reroll", "reroll DIE [DIE ...] | keep", "spend Momentum: re-roll these dice (numbers as shown), or keep the roll", ("force",)),
    Verb("keep", "keep", "spend no Momentum on this roll"),
    Verb("intercept", "intercept PLAYER | intercept none", "choose who tries to intercept, or nobody"),
    Verb("catch", "catch | decline", "try to catch the ball, or let it drop"),
    Verb("decline", "decline", "let the ball drop"),
    Verb("next", "next", "start the next Test after a goal"),
    Verb("concede", "concede", "concede the match"),
)
_BY_NAME = {v.name: v for v in VERBS} | {a: v for v in VERBS for a in v.aliases}


def help_text(verb: str | None = None) -> str:
    if verb:
        v = _BY_NAME.get(verb.lower())
        if v is None:
            raise MalformedInputError(f"no command {verb!r}; type help for the list")
        return f"{v.usage} — {v.summary}"
    width = max(len(v.usage) for v in VERBS)
    return "\n".join(f"{v.usage:<{width}}  {v.summary}" for v in VERBS)


def _is_direction_word(token: str) -> bool:
    """Compass words step from the previous hex; anything else must be a hex label."""
    return token.upper() in {d.name for d in Direction} or token.lower() in (
        "east", "west", "northeast", "northwest", "southeast", "southwest", "left", "right",
    )


def parse_path(tokens: Iterable[str], start: Hex, fld: Field | None = None) -> tuple[Hex, ...]:
    """Hex labels and/or compass directions, each step from the previous hex."""
    fld = fld or standard_field()
    path: list[Hex] = []
    at = start
    for tok in tokens:
        if _is_direction_word(tok):
            d = Direction.parse(tok)
            at = at.neighbour(d)
        else:
            at = fld.parse(tok)
        path.append(at)
    if not path:
        raise MalformedInputError("give the hexes (K11 K10) or directions (NE NE E) to move through")
    return tuple(path)


def resolve_player(state: MatchState, ref: str, *, side: Side | None, on_field: bool | None = None) -> Player:
    """A player by id (``w3``), number (``3``/``#3`` of ``side``) or a unique part of his name."""
    ref = ref.strip()
    key = ref.lower().lstrip("#")
    players = [p for p in state.players.values() if side is None or p.side == side]
    if on_field is not None:
        players = [p for p in players if (p.location is Location.FIELD) == on_field]
    if key in state.players and (side is None or state.players[key].side == side):
        return state.players[key]
    if key.isdigit():
        hits = [p for p in players if p.number == int(key)]
    else:
        words = re.sub(r"[^a-z0-9 ]", " ", key).split()
        hits = [p for p in players if all(w in p.name.lower() or w == p.id for w in words)]
    if len(hits) == 1:
        return hits[0]
    who = "" if side is None else f" of {side}"
    if not hits:
        sample = ", ".join(f"{p.id} {p.name}" for p in players[:8])
        raise MalformedInputError(f"no player{who} matches {ref!r}; try one of: {sample}")
    raise AmbiguousInputError(f"{ref!r} could be {', '.join(f'{p.id} {p.name}' for p in hits[:6])}: use the id")


def _facing_suffix(tokens: list[str]) -> tuple[list[str], Direction | None]:
    if len(tokens) >= 2 and tokens[-2].lower() in ("facing", "face"):
        return tokens[:-2], Direction.parse(tokens[-1])
    return tokens, None


def parse(text: str, state: MatchState, side: Side, fld: Field | None = None) -> C.Command:
    """Read one command line for the coach of ``side``."""
    fld = fld or standard_field()
    tokens = text.strip().split()
    if not tokens:
        raise MalformedInputError("type a command; help lists them")
    verb = _BY_NAME.get(tokens[0].lower())
    if verb is None:
        raise MalformedInputError(f"no command {tokens[0]!r}; type help for the list")
    args = tokens[1:]
    opp: Side = "east" if side == "west" else "west"

    def need(n: int) -> None:
        if len(args) < n:
            raise MalformedInputError(f"usage: {verb.usage}")

    name = verb.name
    if name == "place":
        need(3)
        p = resolve_player(state, args[0], side=side)
        return C.Place(p.id, fld.parse(args[1]), Direction.parse(args[2]))
    if name == "unplace":
        need(1)
        return C.Unplace(resolve_player(state, args[0], side=side).id)
    if name == "auto":
        return C.AutoSetup()
    if name == "done":
        return C.SetupDone()
    if name == "faceoff":
        need(1)
        kind = args[0].lower()
        if kind in ("pickup", "pick-up", "ball"):
            return C.FaceoffPickup()
        if kind in ("shove", "tackle"):
            me = state.players.get(_faceoff_player(state, fld, side) or "")
            path = parse_path(args[1:], me.hex, fld) if (args[1:] and me and me.hex) else ()  # type: ignore[arg-type]
            return C.FaceoffContact(path, kind)
        raise MalformedInputError(f"usage: {verb.usage}")
    if name == "act":
        need(1)
        return C.StartAction(resolve_player(state, " ".join(args), side=side, on_field=True).id)
    if name == "replace":
        need(3)
        p = resolve_player(state, args[0], side=side)
        return C.Replace(p.id, fld.parse(args[1]), Direction.parse(args[2]))
    if name == "move":
        rest, facing = _facing_suffix(args)
        actor = state.acting_player
        if actor is None or actor.hex is None:
            raise MalformedInputError("nobody is acting: choose a player first (act PLAYER)")
        return C.Move(parse_path(rest, actor.hex, fld), facing)
    if name == "face":
        need(1)
        return C.Face(Direction.parse(args[0]))
    if name == "stand":
        return C.StandUp(Direction.parse(args[0]) if args else None)
    if name == "throw":
        need(1)
        long = None
        if len(args) > 1:
            if args[1].lower() not in ("long", "short"):
                raise MalformedInputError(f"usage: {verb.usage}")
            long = args[1].lower() == "long"
        return C.Throw(fld.parse(args[0]), long)
    if name in ("tackle", "shove"):
        need(1)
        t = resolve_player(state, " ".join(args), side=opp, on_field=True)
        return C.Tackle(t.id) if name == "tackle" else C.Shove(t.id)
    if name == "dash":
        need(1)
        if not args[0].isdigit():
            raise MalformedInputError("usage: dash COUNTERS (a number of Momentum counters)")
        return C.Dash(int(args[0]))
    if name == "end":
        return C.EndAction(Direction.parse(args[0]) if args else None)
    if name == "keep" or (name == "reroll" and args and args[0].lower() in ("none", "keep")):
        return C.Answer(())
    if name == "reroll":
        need(1)
        try:
            return C.Answer(tuple(int(a) for a in args))
        except ValueError:
            raise MalformedInputError("usage: reroll DIE [DIE ...] with the dice numbers shown") from None
    if name == "intercept":
        need(1)
        if args[0].lower() in ("none", "nobody", "no"):
            return C.Answer(None)
        return C.Answer(resolve_player(state, " ".join(args), side=side, on_field=True).id)
    if name == "catch":
        return C.Answer("catch")
    if name == "decline":
        return C.Answer("decline")
    if name == "undo":
        raise MalformedInputError("undo is answered by the match service, not the rules: send it as a command line")
    if name == "next":
        return C.StartTest()
    if name == "concede":
        return C.Concede()
    raise MalformedInputError(f"usage: {verb.usage}")  # pragma: no cover - every verb is handled above


def _faceoff_player(state: MatchState, fld: Field, side: Side) -> str | None:
    hexes = fld.setup_hexes(side, "faceoff")
    for h in hexes:
        p = state.player_at(h)
        if p is not None:
            return p.id
    return None
