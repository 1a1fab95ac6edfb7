"""The Discord bot's slash commands, option by option, to engine commands.

The console reads a whole line (``service.grammar``). A slash command has typed options, and
joining them into a line to read it again let one option spill into the next:
``/setup place player:"w2 F7 E" hex:Z99`` placed w2 on F7. Here each option is read alone and
strictly, so none can stand for another:

- a player: ``grammar.resolve_player`` (an id, a number, or a name that names exactly one
  player, case and accents ignored; else a refusal listing the candidates);
- a hex: exactly one coordinate of the field (``Z99`` and ``K12 K13`` are refused, named);
- a direction: exactly one (``NE``, ``east``, a D6 number, the French ``NO``, ``SO``, ``O``);
- a path: hexes and directions only (``facing`` or ``with`` in it is refused, never read);
- counters: a whole number written with the digits 0-9;
- any text option: at most ``grammar.MAX_INPUT`` characters.

Each builder takes the position and the coach's side, then the slash command's options by
name, and returns the ``engine.commands`` command, which the engine checks again::

    place(state, "west", player="Hunter #1", hex="E7", facing="E")  # -> Place("w1", E7, E)

A mistake raises an ``ElfballError`` carrying its keyed refusal, which
``service.refusals.render_refusal`` says in the coach's language. ``Request`` carries a slash command's options to where the position is
known (``request.build(state, side)``); ``BUILDERS`` names the builder of each slash command.
Undo has no engine command: ``Request("undo").is_undo`` tells the match service to undo.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from engine import (
    Answer,
    CastSpell,
    Cheer,
    Command,
    Dash,
    Direction,
    DrinkPotion,
    EndAction,
    Face,
    Field,
    Hex,
    MalformedInputError,
    MatchState,
    Move,
    Place,
    Player,
    Quickling,
    Replace,
    Shove,
    Side,
    StandUp,
    StartAction,
    Tackle,
    Taunt,
    Throw,
    standard_field,
)

from .grammar import (SPELLS, TACKLE_USES, check_length, match_option, parse_direction, parse_path, usage_error,
                      resolve_ability, resolve_player, spell_on_player, whole_number)

__all__ = ["hex_option", "place", "act", "move", "face", "throw", "tackle", "shove", "stand", "dash", "cheer", "quickling", "taunt",
           "potion", "spell", "end", "replace", "BUILDERS", "build", "Request"]


# --- one option ---------------------------------------------------------------------------------
def _usage(verb: str) -> MalformedInputError:
    """The verb's usage as the console says it, in each language's words."""
    return usage_error(verb)


def _text(value: object, verb: str) -> str:
    """A required text option, trimmed; missing or blank is the verb's usage."""
    text = check_length(str(value or "")).strip()
    if not text:
        raise _usage(verb)
    return text


def _given(value: object) -> bool:
    return value is not None and str(value).strip() != ""


def _hex(value: object, verb: str, fld: Field) -> Hex:
    """Exactly one coordinate of the field: ``Field.parse`` refuses anything else, naming it
    (a ``Hex`` the bot's option already read is taken as it is)."""
    return value if isinstance(value, Hex) else fld.parse(_text(value, verb))


def hex_option(value: object, verb: str, field: Field | None = None) -> Hex:
    """A hex option of slash command ``verb`` read as the command's builder reads it (the bot's
    option transformer: the same refusals, said the same way)."""
    return _hex(value, verb, field or standard_field())


def _direction(value: object, verb: str) -> Direction:
    return parse_direction(_text(value, verb))


def _counters(value: object, verb: str) -> int:
    """Momentum counters: an integer option, or a whole number written with 0-9."""
    if isinstance(value, bool):
        raise _usage(verb)
    n = value if isinstance(value, int) else whole_number(_text(value, verb))
    if n is None or n < 0:
        raise _usage(verb)
    return n


def _opponent(side: Side) -> Side:
    return "east" if side == "west" else "west"


# --- set-up and the turn ------------------------------------------------------------------------
def place(state: MatchState, side: Side, *, player: str, hex: str, facing: str,
          field: Field | None = None) -> Place:
    """``/setup place``: one of ``side``'s players on a set-up hex, facing ``facing``."""
    fld = field or standard_field()
    p = resolve_player(state, _text(player, "place"), side=side)
    return Place(p.id, _hex(hex, "place", fld), _direction(facing, "place"))


def replace(state: MatchState, side: Side, *, player: str, hex: str, facing: str,
            field: Field | None = None) -> Replace:
    """``/replace``: a Bench player on near a stairway instead of an action."""
    fld = field or standard_field()
    p = resolve_player(state, _text(player, "replace"), side=side)
    return Replace(p.id, _hex(hex, "replace", fld), _direction(facing, "replace"))


def act(state: MatchState, side: Side, *, player: str) -> StartAction:
    """``/act``: the player of ``side`` on the field who takes this turn's action."""
    return StartAction(resolve_player(state, _text(player, "act"), side=side, on_field=True).id)


def move(state: MatchState, side: Side, *, path: str, facing: str | None = None, ability: str | None = None,
         player: str | None = None, field: Field | None = None) -> Move:
    """``/move``: ``path`` (hexes or directions, from the hex of the player who moves), then
    ``facing``; ``ability`` pays the steps with Momentum; ``player`` is another of ``side``'s
    players who moves (Lead Pass, Swarm, React)."""
    fld = field or standard_field()
    turn = parse_direction(_text(facing, "move")) if _given(facing) else None
    paid = resolve_ability(_text(ability, "move")) if _given(ability) else None
    mover = resolve_player(state, _text(player, "move"), side=side, on_field=True) if _given(player) else None
    actor = state.acting_player
    start: Player | None = mover or actor
    if start is None or start.hex is None:
        raise MalformedInputError.of("command.nobody_acting")
    other = mover.id if mover is not None and (actor is None or mover.id != actor.id) else None
    steps = _text(path, "move").replace(",", " ").split()
    return Move(parse_path(steps, start.hex, fld), turn, paid, other)


def face(state: MatchState, side: Side, *, direction: str) -> Face | Answer:
    """``/face``: turn the acting player; while a question asks for a direction (Taunt,
    Bankshot), it answers that question, as the console's ``face`` does."""
    d = _direction(direction, "face")
    q = state.in_progress.question if state.in_progress is not None else None
    if q is not None and any(o in Direction.__members__ for o in q.get("options", ())):
        return Answer(match_option(state, q["options"], d.name))
    return Face(d)


def stand(state: MatchState, side: Side, *, facing: str | None = None) -> StandUp:
    """``/stand``: the acting player stands up, facing ``facing`` if given."""
    return StandUp(_direction(facing, "stand") if _given(facing) else None)


def end(state: MatchState, side: Side, *, facing: str | None = None) -> EndAction:
    """``/end``: the action ends, the player facing ``facing`` if given."""
    return EndAction(_direction(facing, "end") if _given(facing) else None)


def throw(state: MatchState, side: Side, *, target: str, long: bool = False, field: Field | None = None) -> Throw:
    """``/throw``: to a hex (a team-mate's or an empty one); ``long`` declares a long throw,
    otherwise the distance decides, as ``throw HEX`` does."""
    return Throw(_hex(target, "throw", field or standard_field()), True if long else None)


def _tackle_use(value: object) -> str:
    text = _text(value, "tackle")
    key = text.lower()
    if key not in TACKLE_USES:
        try:
            key = resolve_ability(text)  # its printed name, in any language (Vicieux is cheapshot)
        except MalformedInputError:
            pass
    if key not in TACKLE_USES:
        raise MalformedInputError.of("tackle.unknown_use", text=repr(text), text2=", ".join(TACKLE_USES))
    return key


def tackle(state: MatchState, side: Side, *, target: str, use: str | None = None) -> Tackle:
    """``/tackle``: an opponent on the field; ``use`` a Tackle ability (cutblock, steal,
    pummel, cheapshot)."""
    who = resolve_player(state, _text(target, "tackle"), side=_opponent(side), on_field=True)
    return Tackle(who.id, _tackle_use(use) if _given(use) else None)


def shove(state: MatchState, side: Side, *, target: str) -> Shove:
    """``/shove``: an opponent on the field."""
    return Shove(resolve_player(state, _text(target, "shove"), side=_opponent(side), on_field=True).id)


def dash(state: MatchState, side: Side, *, counters: int | str | None = None, sprint: bool = False) -> Dash:
    """``/dash``: spend ``counters`` Momentum counters, or ``sprint`` (a Sprinter's Dash, no
    counters): one or the other."""
    if sprint:
        if _given(counters):
            raise MalformedInputError.of("usage.dash")
        return Dash(sprint=True)
    if not _given(counters):
        raise MalformedInputError.of("usage.dash")
    return Dash(_counters(counters, "dash"))


def cheer(state: MatchState, side: Side) -> Cheer:
    """``/cheer``: a Cheerleader's counter at the beginning of an action."""
    return Cheer()


def quickling(state: MatchState, side: Side, *, player: str) -> Quickling:
    """``/quickling``: ``side``'s Little Guy on the field who then takes the action."""
    return Quickling(resolve_player(state, _text(player, "quickling"), side=side, on_field=True).id)


def taunt(state: MatchState, side: Side, *, player: str, target: str, counters: int | str) -> Taunt:
    """``/taunt``: ``side``'s Little Guy spends ``counters`` to turn ``target``, an opponent on
    the field, to face him."""
    taunter = resolve_player(state, _text(player, "taunt"), side=side, on_field=True)
    victim = resolve_player(state, _text(target, "taunt"), side=_opponent(side), on_field=True)
    return Taunt(taunter.id, victim.id, _counters(counters, "taunt"))


def potion(state: MatchState, side: Side, *, player: str) -> DrinkPotion:
    """``/potion``: a Magic Potion for one of ``side``'s players (the rules want him off the field)."""
    return DrinkPotion(resolve_player(state, _text(player, "potion"), side=side).id)


def spell(state: MatchState, side: Side, *, spell: str, target: str | None = None, hex: str | None = None,
          field: Field | None = None) -> CastSpell:
    """``/spell``: Inferno at ``hex`` (no target); System Shock at ``target``, an opponent, or
    Transformation at ``target``, an opponent first, else one of ``side``'s (no hex)."""
    key = "".join(c for c in _text(spell, "spell").lower() if c.isalnum())
    chosen = SPELLS.get(key)
    if chosen is None:
        raise MalformedInputError.of("spell.no_such", text=repr(spell))
    if chosen == "inferno":
        if _given(target):
            raise _usage("spell")
        return CastSpell(chosen, None, _hex(hex, "spell", field or standard_field()))
    if _given(hex):
        raise _usage("spell")
    return spell_on_player(state, side, chosen, _text(target, "spell"))


# --- by the slash command's name ------------------------------------------------------------------
#: Each slash command of the bot (its qualified name) and its builder.
BUILDERS: Mapping[str, Callable[..., Command]] = MappingProxyType({
    "setup place": place, "act": act, "move": move, "face": face, "throw": throw, "tackle": tackle, "shove": shove,
    "stand": stand, "dash": dash, "cheer": cheer, "quickling": quickling, "taunt": taunt, "potion": potion,
    "spell": spell, "end": end, "replace": replace,
})


def build(command: str, state: MatchState, side: Side, /, **options: Any) -> Command:
    """The engine command of slash command ``command`` (a key of ``BUILDERS``) with ``options``."""
    if command == "undo":
        raise MalformedInputError.of("command.undo_line")
    return BUILDERS[command](state, side, **options)


class Request:
    """A slash command and its typed options, built into a command where the position is
    known: ``Request("setup place", player="w2", hex="F7", facing="E").build(state, side)``."""

    __slots__ = ("command", "options")

    def __init__(self, command: str, /, **options: Any) -> None:
        if command != "undo" and command not in BUILDERS:
            raise ValueError(f"no slash command {command!r}: one of {', '.join(BUILDERS)} or undo")
        self.command = command
        self.options: Mapping[str, Any] = MappingProxyType(dict(options))

    @property
    def is_undo(self) -> bool:
        """Undo is the match service's, not a rule's: it has no engine command."""
        return self.command == "undo"

    def build(self, state: MatchState, side: Side) -> Command:
        return build(self.command, state, side, **self.options)

    def __repr__(self) -> str:
        return f"Request({self.command!r}{''.join(f', {k}={v!r}' for k, v in self.options.items())})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Request) and (self.command, dict(self.options)) == (other.command, dict(other.options))

    __hash__ = None  # type: ignore[assignment]  # options may be unhashable
