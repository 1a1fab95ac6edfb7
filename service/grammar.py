"""The command grammar shared by the local console, scenario files and the Discord bot.

One line, one command, e.g. ``move K11 K10 L10``, ``move NE NE E facing W``, ``tackle e3``,
``reroll 0 2``. Player references are ids (``w3``), roster numbers (``3`` or ``#3``: your own
team for acting and placing, the opponent for tackles and shoves) or a unique part of a name
(``dryad``). ``parse`` turns a line into an engine command for the coach of ``side``; every
mistake raises ``MalformedInputError`` (or ``AmbiguousInputError``) saying how to write it.

The Advanced rules add ``move NE NE with beeline``, ``lead w7 NE NE`` (another player's path
starts from his hex), ``tackle e3 steal``, ``sprint``, ``cheer``, ``taunt w2 e5 2``,
``potion w9``, ``spell inferno K12``. A question is answered by naming one of its options
(``retry``, ``NE``, ``-1``, ``Agile``, ``agile+focused``), alone or after ``answer``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from engine import (
    ABILITIES,
    Ability,
    AmbiguousInputError,
    Answer,
    AutoSetup,
    CastSpell,
    Catalogue,
    Cheer,
    Command,
    Concede,
    DEFAULT_LANGUAGE,
    Dash,
    Direction,
    DrinkPotion,
    ElfballError,
    EndAction,
    Face,
    FaceoffContact,
    FaceoffPickup,
    Field,
    Hex,
    InvalidCoordinateError,
    Joined,
    LANGUAGES,
    MalformedInputError,
    MatchState,
    Move,
    Place,
    Player,
    Quickling,
    Refusal,
    Replace,
    SetupDone,
    Shove,
    Side,
    StandUp,
    StartAction,
    StartTest,
    Tackle,
    Term,
    Taunt,
    Throw,
    Unplace,
    side_term,
    standard_field,
)

__all__ = ["parse", "resolve_player", "resolve_ability", "parse_path", "parse_direction", "match_option", "answer_value",
           "option_label", "VERBS", "help_text", "verb_name", "usage_error", "Verb", "TACKLE_USES", "SPELLS",
           "MAX_INPUT", "check_length", "whole_number", "spell_on_player"]

#: The longest line or option read (far beyond any command: a 30-hex path is ~120 characters).
MAX_INPUT = 500
#: At most this many players are named in a refusal (the rest are counted).
LISTED_PLAYERS = 10


#: A Tackle's ability (``tackle e3 steal`` or ``steal e3``).
TACKLE_USES: tuple[str, ...] = ("cutblock", "steal", "pummel", "cheapshot")
#: Words that answer a question by themselves (Clipping's retry, Plough, a Keg, Bankshot's roll).
ANSWER_WORDS: tuple[str, ...] = ("retry", "stay", "plough", "use", "roll")
#: Answer words for options that have no name of their own, by question kind: Bankshot's
#: None lets the bounce direction be rolled as usual.
OPTION_WORDS: dict[str, dict[str, object]] = {"bankshot_direction": {"roll": None}}
#: Abilities whose player moves another one (``Move.player``), with their verbs.
MOVER_VERBS: dict[str, str] = {"lead": "lead-pass", "swarm": "swarm", "react": "react"}
SPELLS: dict[str, str] = {
    "systemshock": "system_shock", "shock": "system_shock", "inferno": "inferno",
    "transformation": "transformation", "transmutation": "transformation", "frog": "transformation",
}


@cache
def _text(language: str) -> Catalogue:
    """The service's words in ``language``: the verbs' help and French names live there."""
    return Catalogue("service", "text", language)


def _plain(word: str) -> str:
    """A typed word without case or accents: ``Déplacer`` -> ``deplacer``."""
    return "".join(c for c in unicodedata.normalize("NFKD", word.lower()) if not unicodedata.combining(c))


@dataclass(frozen=True)
class Verb:
    """A command of the grammar: its English name and aliases; its usage, summary and its name in
    each language come from the service catalogue (``verb.<name>.word|usage|summary``)."""

    name: str
    aliases: tuple[str, ...] = ()

    def word_in(self, language: str) -> str:
        """The verb's name in ``language`` (``deplacer``: the French slash command's name)."""
        return _text(language).t(f"verb.{self.name}.word")

    def usage_in(self, language: str) -> str:
        return _text(language).t(f"verb.{self.name}.usage")

    def summary_in(self, language: str) -> str:
        return _text(language).t(f"verb.{self.name}.summary")

    @property
    def usage(self) -> str:
        return self.usage_in(DEFAULT_LANGUAGE)

    @property
    def summary(self) -> str:
        return self.summary_in(DEFAULT_LANGUAGE)


VERBS: tuple[Verb, ...] = (
    Verb("place"),
    Verb("unplace"),
    Verb("auto", ("setup",)),
    Verb("done"),
    Verb("faceoff"),
    Verb("act", ("action",)),
    Verb("replace"),
    Verb("move", ("go",)),
    Verb("lead"),
    Verb("swarm"),
    Verb("react"),
    Verb("face", ("turn",)),
    Verb("stand"),
    Verb("throw"),
    Verb("tackle", TACKLE_USES),
    Verb("shove"),
    Verb("dash"),
    Verb("sprint"),
    Verb("cheer"),
    Verb("quickling"),
    Verb("taunt"),
    Verb("potion", ("drink",)),
    Verb("spell", ("cast",)),
    Verb("end"),
    Verb("undo"),
    Verb("reroll", ("force",)),
    Verb("keep"),
    Verb("intercept"),
    Verb("catch"),
    Verb("decline"),
    Verb("answer", ANSWER_WORDS),
    Verb("next"),
    Verb("concede"),
)
_BY_NAME = {v.name: v for v in VERBS} | {a: v for v in VERBS for a in v.aliases}
#: Each verb's name in the other languages (``plaquer``, ``deplacer``), typed without accents,
#: to the English name: the grammar reads them as that verb in any language.
_WORDS: dict[str, str] = {_plain(v.word_in(lang)): v.name for lang in LANGUAGES if lang != DEFAULT_LANGUAGE for v in VERBS
                          if _plain(v.word_in(lang)) not in _BY_NAME}


def verb_name(word: str) -> str | None:
    """The English name of the verb ``word`` calls (a name, an alias or a translated name)."""
    key = word.lower()
    v = _BY_NAME.get(key) or _BY_NAME.get(_WORDS.get(_plain(key), ""))
    return v.name if v else None


def help_text(verb: str | None = None, language: str = DEFAULT_LANGUAGE) -> str:
    """The list of commands, or one command's usage and summary, in ``language``; a verb
    whose name differs in ``language`` adds its English name, which prompts may show."""

    def english(v: Verb) -> str:
        return "" if v.word_in(language) == v.name else f" [{v.name}]"

    if verb:
        name = verb_name(verb)
        if name is None:
            raise MalformedInputError.of("command.unknown", text=repr(verb))
        v = _BY_NAME[name]
        return f"{v.usage_in(language)} — {v.summary_in(language)}{english(v)}"
    width = max(len(v.usage_in(language)) for v in VERBS)
    return "\n".join(f"{v.usage_in(language):<{width}}  {v.summary_in(language)}{english(v)}" for v in VERBS)


def _words(language: str) -> Mapping[str, str]:
    return _text(language).text


def usage_error(verb: Verb | str, *, counters: bool = False) -> MalformedInputError:
    """The refusal that shows a verb's usage, in each language's words (``grammar.usage`` of the
    service catalogue, the verb's ``verb.<name>.usage``); ``counters`` adds what COUNTERS means."""
    name = verb.name if isinstance(verb, Verb) else verb
    key = "grammar.usage_counters" if counters else "grammar.usage"
    return MalformedInputError(Refusal(key, catalogue=_words, usage=Term("verb", f"{name}.usage")))


def check_length(text: str) -> str:
    """``text`` itself, refused when longer than ``MAX_INPUT`` (a line, or one typed option)."""
    if len(text) > MAX_INPUT:
        raise MalformedInputError.of("command.too_long", n=len(text), n2=MAX_INPUT)
    return text


_WHOLE = re.compile(r"[+-]?[0-9]{1,6}", re.ASCII)


def _foreign_digits(text: str) -> bool:
    """Digits other than 0-9 (``²``, ``③``, Arabic-Indic ``٣``): ``str.isdigit`` says yes, ``int`` no or
    a surprise; the grammar reads neither."""
    return any(c.isdigit() and not "0" <= c <= "9" for c in text)


def _digits_refusal(text: str) -> MalformedInputError:
    return MalformedInputError.of("command.foreign_digits", text=repr(text))


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written with the digits 0-9 (``3``, ``+1``, ``-1``), else None;
    other digits (``²``, ``٣``) are refused rather than read."""
    text = text.strip()
    if _WHOLE.fullmatch(text):
        return int(text)
    if _foreign_digits(text):
        raise _digits_refusal(text)
    return None


#: Direction words besides the engine's English ones: the French letters the bot shows
#: (``NO``, ``SO``, ``O``) and the French names, typed without accents, hyphens or spaces.
_FRENCH_DIRECTIONS = {"NO": "NW", "SO": "SW", "O": "W", "OUEST": "W", "EST": "E", "NORDEST": "NE",
                      "NORDOUEST": "NW", "SUDEST": "SE", "SUDOUEST": "SW"}
_DIRECTION_WORDS = {d.name for d in Direction} | set(_FRENCH_DIRECTIONS) | {
    "EAST", "WEST", "NORTHEAST", "NORTHWEST", "SOUTHEAST", "SOUTHWEST", "LEFT", "RIGHT"}


def parse_direction(text: str) -> Direction:
    """One direction: ``NE``, ``east``, a D6 number 1-6, or the French ``NO``, ``SO``, ``O``, ``ouest``."""
    key = _plain(text).upper().replace("-", "").replace(" ", "")
    return Direction.parse(_FRENCH_DIRECTIONS.get(key, text))


def _is_direction_word(token: str) -> bool:
    """Compass words step from the previous hex; anything else must be a hex label."""
    return _plain(token).upper().replace("-", "") in _DIRECTION_WORDS


def parse_path(tokens: Iterable[str], start: Hex, fld: Field | None = None) -> tuple[Hex, ...]:
    """Hex labels and/or compass directions, each step from the previous hex; any other word is
    refused (a path never reads ``facing`` or ``with``: those are the command line's)."""
    fld = fld or standard_field()
    path: list[Hex] = []
    at = start
    for tok in tokens:
        if _is_direction_word(tok):
            at = at.neighbour(parse_direction(tok))
        else:
            try:
                at = fld.parse(tok)
            except InvalidCoordinateError:
                raise MalformedInputError.of("path.not_hex_or_direction", text=repr(tok)) from None
        path.append(at)
    if not path:
        raise MalformedInputError.of("path.empty")
    return tuple(path)


# --- players ----------------------------------------------------------------------------------
def _fold(text: str) -> str:
    """Case and accents do not matter, every other sign does: ``Amélie`` = ``amelie``; ``²`` stays
    ``²`` (NFD, not NFKD, which would read it as ``2``)."""
    return "".join(c for c in unicodedata.normalize("NFD", " ".join(text.split()).casefold())
                   if not unicodedata.combining(c))


def _named(p: Player, words: list[str]) -> bool:
    """Every word is in the name: a number word as a whole word (``hunter 1`` is not
    ``Hunter #10``), a letter word anywhere (``dryad``, ``imp``)."""
    name = _fold(p.name)
    name_words = re.findall(r"\w+", name)
    return all(w in name_words if w.isdigit() else w in name for w in words)


def _listed(players: list[Player]) -> Joined | Refusal:
    shown = Joined(tuple(f"{p.id} {p.name}" for p in players[:LISTED_PLAYERS]))
    more = len(players) - LISTED_PLAYERS
    return Refusal("player.and_more", text=shown, n=more) if more > 0 else shown


def resolve_player(state: MatchState, ref: str, *, side: Side | None, on_field: bool | None = None) -> Player:
    """The one player ``ref`` names among those of ``side`` (on the field, or off it, when
    ``on_field`` says so): his id (``w3``, any location), number (``3``/``#3``), whole name or
    words each in his name (``hunter #1``, ``Amélie`` = ``amelie``, ``dryad``), case and accents
    ignored. Text without a letter or digit, an unknown and an ambiguous name are refused, the
    refusal listing the candidates by id and name (the console and ``service.typed`` share it)."""
    text = " ".join(check_length(str(ref)).split())
    if not any(c.isalnum() for c in text):
        raise MalformedInputError.of("player.bad_name", text=repr(text))
    key = _fold(text)
    pool = [p for p in state.players.values()
            if (side is None or p.side == side) and (on_field is None or p.on_field == on_field)]
    by_id = state.players.get(key)
    if by_id is not None and (side is None or by_id.side == side):
        return by_id  # an id names him wherever he is: the rules say why he cannot (not on the field)
    number = re.fullmatch(r"#?\s*([0-9]{1,4})", key, re.ASCII)
    if number:
        hits = [p for p in pool if p.number == int(number.group(1))]
    else:
        hits = [p for p in pool if _fold(p.name) == key]
        if not hits:
            words = re.findall(r"\w+", key)
            hits = [p for p in pool if _named(p, words)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousInputError.of("player.ambiguous", text=repr(text), text2=_listed(hits))
    if _foreign_digits(text):
        raise _digits_refusal(text)
    key = "player.no_match" + ("" if side is None else "_of_side") + {None: "", True: "_on_field", False: "_off_field"}[on_field]
    if not pool:
        raise MalformedInputError.of(key, side=side_term(str(side)), text=repr(text))
    raise MalformedInputError.of(key + "_try", side=side_term(str(side)), text=repr(text), text2=_listed(pool))


def parse(text: str, state: MatchState, side: Side, fld: Field | None = None) -> Command:
    """Read one command line for the coach of ``side``."""
    fld = fld or standard_field()
    tokens = check_length(text).split()
    if not tokens:
        raise MalformedInputError.of("command.empty")
    typed = tokens[0].lower()
    typed = _WORDS.get(_plain(typed), typed)  # a verb's name in another language reads as the English one
    q = _question(state)
    unanswered: ElfballError | None = None
    if q is not None and "options" in q:
        # While a question waits only an answer is possible: a bare option ("NE", "agile",
        # "lead pass", "+1") answers it, even when it reads like a command.
        words = OPTION_WORDS.get(q.get("kind", ""), {})
        said = _key(" ".join(tokens[1:]) if typed == "answer" else text)
        if said in words:
            return Answer(words[said])
        try:
            return Answer(match_option(state, q["options"], text))
        except (MalformedInputError, AmbiguousInputError) as exc:
            unanswered = exc
    verb = _BY_NAME.get(typed)
    if verb is None:
        if unanswered is not None:
            raise unanswered
        raise MalformedInputError.of("command.unknown", text=repr(tokens[0]))
    args = tokens[1:]
    opp: Side = "east" if side == "west" else "west"

    def need(n: int) -> None:
        if len(args) < n:
            raise usage_error(verb)

    name = verb.name
    if name == "place":
        need(3)  # the player's name may have spaces (Hunter #1): the hex and facing are the last words
        p = resolve_player(state, " ".join(args[:-2]), side=side)
        return Place(p.id, fld.parse(args[-2]), parse_direction(args[-1]))
    if name == "unplace":
        need(1)
        return Unplace(resolve_player(state, args[0], side=side).id)
    if name == "auto":
        return AutoSetup()
    if name == "done":
        return SetupDone()
    if name == "faceoff":
        need(1)
        kind = args[0].lower()
        if kind in ("pickup", "pick-up", "ball"):
            return FaceoffPickup()
        if kind in ("shove", "tackle"):
            me = state.players.get(_faceoff_player(state, fld, side) or "")
            path = parse_path(args[1:], me.hex, fld) if (args[1:] and me and me.hex) else ()
            return FaceoffContact(path, kind)
        raise usage_error(verb)
    if name == "act":
        need(1)
        return StartAction(resolve_player(state, " ".join(args), side=side, on_field=True).id)
    if name == "replace":
        need(3)
        p = resolve_player(state, " ".join(args[:-2]), side=side)
        return Replace(p.id, fld.parse(args[-2]), parse_direction(args[-1]))
    if name == "move" or name in MOVER_VERBS:
        return _move(state, side, fld, name, args, verb)
    if name == "face":
        need(1)
        q = _question(state)
        if q is not None and any(o in Direction.__members__ for o in q.get("options", ())):  # Taunt, Bankshot
            return Answer(match_option(state, q["options"], " ".join(args)))
        return Face(parse_direction(" ".join(args)))
    if name == "stand":
        return StandUp(parse_direction(" ".join(args)) if args else None)
    if name == "throw":
        need(1)
        long = None
        if len(args) > 1:
            if args[1].lower() not in ("long", "short"):
                raise usage_error(verb)
            long = args[1].lower() == "long"
        return Throw(fld.parse(args[0]), long)
    if name == "tackle":
        need(1)
        use = typed if typed in TACKLE_USES else None
        if len(args) > 1 and args[-1].lower() in TACKLE_USES:
            use, args = args[-1].lower(), args[:-2] if args[-2].lower() == "with" else args[:-1]
        # A Cheapshot's target is Down or Dazed: any opponent on the field may be named.
        return Tackle(resolve_player(state, " ".join(args), side=opp, on_field=True).id, use)
    if name == "shove":
        need(1)
        return Shove(resolve_player(state, " ".join(args), side=opp, on_field=True).id)
    if name == "dash":
        need(1)
        if args[0].lower() == "sprint":
            return Dash(sprint=True)
        counters = whole_number(args[0]) if len(args) == 1 else None
        if counters is None or counters < 0:
            raise MalformedInputError.of("usage.dash")
        return Dash(counters)
    if name == "sprint":
        return Dash(sprint=True)
    if name == "cheer":
        return Cheer()
    if name == "quickling":
        need(1)
        return Quickling(resolve_player(state, " ".join(args), side=side, on_field=True).id)
    if name == "taunt":
        need(3)
        counters = whole_number(args[-1])
        if counters is None or counters < 0:
            raise usage_error(verb, counters=True)
        taunter = resolve_player(state, args[0], side=side, on_field=True)
        target = resolve_player(state, " ".join(args[1:-1]), side=opp, on_field=True)
        return Taunt(taunter.id, target.id, counters)
    if name == "potion":
        need(1)
        return DrinkPotion(resolve_player(state, " ".join(args), side=side).id)
    if name == "spell":
        return _spell(state, side, fld, args, verb)
    if name == "end":
        return EndAction(parse_direction(" ".join(args)) if args else None)
    if name == "keep" or (name == "reroll" and args and args[0].lower() in ("none", "keep")):
        q = _question(state)
        if q is not None and "keep" in q.get("options", ()):  # a Zlurpee Keg kept for later
            return Answer("keep")
        return Answer(())
    if name == "reroll":
        need(1)
        dice = _dice_numbers(args)
        if dice is None:
            raise MalformedInputError.of("usage.reroll")
        return Answer(dice)
    if name == "intercept":
        need(1)
        if args[0].lower() in ("none", "nobody", "no"):
            return Answer(None)
        return Answer(resolve_player(state, " ".join(args), side=side, on_field=True).id)
    if name == "answer":
        said_words = args if typed == "answer" else [typed, *args]
        if not said_words:
            raise usage_error(verb)
        return Answer(answer_value(state, " ".join(said_words)))
    if name == "catch":
        return Answer("catch")
    if name == "decline":
        return Answer("decline")
    if name == "undo":
        raise MalformedInputError.of("command.undo_line")
    if name == "next":
        return StartTest()
    if name == "concede":
        return Concede()
    raise usage_error(verb)  # pragma: no cover - every verb is handled above


def _faceoff_player(state: MatchState, fld: Field, side: Side) -> str | None:
    hexes = fld.setup_hexes(side, "faceoff")
    for h in hexes:
        p = state.player_at(h)
        if p is not None:
            return p.id
    return None


# --- moves paid by abilities, spells ------------------------------------------------------
_SUFFIX_KEYS = {"facing": "facing", "face": "facing", "with": "with", "player": "player"}


def _suffixes(tokens: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Split ``NE NE facing W with lead pass player w4`` into the path and its keyword groups
    (in any order; a hex or a direction is never one of the keywords)."""
    rest: list[str] = []
    groups: dict[str, list[str]] = {}
    key: str | None = None
    for tok in tokens:
        k = _SUFFIX_KEYS.get(tok.lower())
        if k is not None:
            if k in groups:
                raise MalformedInputError.of("command.twice", text=repr(tok))
            key = k
            groups[k] = []
        elif key is None:
            rest.append(tok)
        else:
            groups[key].append(tok)
    for k, words in groups.items():
        if not words:
            raise MalformedInputError.of("command.what", text=k)
    return rest, groups


def _move(state: MatchState, side: Side, fld: Field, name: str, args: list[str], verb: Verb) -> Command:
    """``move PATH [facing D] [with ABILITY] [player P]``, or ``lead|swarm|react PLAYER PATH``:
    the path starts from the hex of the player who moves."""
    rest, extra = _suffixes(args)
    facing = parse_direction(" ".join(extra["facing"])) if "facing" in extra else None
    mover: Player | None = None
    if name in MOVER_VERBS:
        if len(rest) < 2:
            raise usage_error(verb)
        ability: str | None = MOVER_VERBS[name]
        mover = resolve_player(state, rest[0], side=side, on_field=True)
        rest = rest[1:]
    else:
        ability = resolve_ability(" ".join(extra["with"])) if "with" in extra else None
        if "player" in extra:
            mover = resolve_player(state, " ".join(extra["player"]), side=side, on_field=True)
    actor = state.acting_player
    start = mover or actor
    if start is None or start.hex is None:
        raise MalformedInputError.of("command.nobody_acting")
    other = mover.id if mover is not None and (actor is None or mover.id != actor.id) else None
    return Move(parse_path(rest, start.hex, fld), facing, ability, other)


def _spell(state: MatchState, side: Side, fld: Field, args: list[str], verb: Verb) -> Command:
    words = list(args)
    if len(words) >= 2 and words[0].lower() == "system" and words[1].lower() == "shock":
        words = ["system_shock", *words[2:]]
    if len(words) < 2:
        raise usage_error(verb)
    spell = SPELLS.get(_key(words[0]))
    if spell is None:
        raise MalformedInputError.of("spell.no_such", text=repr(words[0]))
    if spell == "inferno":
        return CastSpell(spell, None, fld.parse(words[1]))
    return spell_on_player(state, side, spell, " ".join(words[1:]))


def spell_on_player(state: MatchState, side: Side, spell: str, ref: str) -> CastSpell:
    """System Shock on an opponent, or Transformation: numbers and names mean an opponent first
    (as for tackles), then one of yours; ids name anybody on the field."""
    opp: Side = "east" if side == "west" else "west"
    if spell == "system_shock":
        return CastSpell(spell, resolve_player(state, ref, side=opp, on_field=True).id)
    try:
        target = resolve_player(state, ref, side=opp, on_field=True)
    except MalformedInputError:
        target = resolve_player(state, ref, side=side, on_field=True)
    return CastSpell(spell, target.id)


def _key(text: object) -> str:
    """Case, accents, spaces, hyphens and underscores do not matter: ``Lead Pass`` = ``lead-pass``."""
    return re.sub(r"[^a-z0-9+]", "", _plain(str(text)))


@cache
def _ability_keys(a: Ability) -> tuple[str, ...]:
    """An ability's id and printed names, in every language (``Traque`` is ``beeline``); computed
    once per ability (an answer's every word may look them up)."""
    return (_key(a.id), _key(a.name), *(_key(name) for _, name, _ in a.translations))


def resolve_ability(ref: str) -> str:
    """An ability id from its id or printed name (in any language), or a unique start of one
    (``lead pass``, ``Bee``, ``traque``)."""
    return _resolve_ability_key(_key(check_length(ref)), ref)


@lru_cache(maxsize=512)
def _resolve_ability_key(key: str, ref: str) -> str:
    exact = [a.id for a in ABILITIES.values() if key in _ability_keys(a)]
    if exact:
        return exact[0]
    hits = [a.id for a in ABILITIES.values() if key and any(k.startswith(key) for k in _ability_keys(a))]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise AmbiguousInputError.of("ability.ambiguous", text=repr(ref), text2=", ".join(hits))
    raise MalformedInputError.of("ability.no_such", text=repr(ref))


# --- answers -----------------------------------------------------------------------------
def _question(state: MatchState) -> dict | None:
    ip = state.in_progress
    return ip.question if ip is not None else None


def answer_value(state: MatchState, text: str) -> object:
    """The value of ``answer TEXT`` for the pending question: dice numbers for a dice question,
    otherwise the one of its ``options`` that TEXT names."""
    q = _question(state)
    if q is None:
        raise MalformedInputError.of("answer.none_now")
    if "eligible" in q:
        words = text.replace(",", " ").split()
        if all(w.lower() in ("none", "keep", "no") for w in words):
            return ()
        dice = _dice_numbers(words)
        if dice is None:
            raise MalformedInputError.of("answer.dice_or_keep")
        return dice
    return match_option(state, q.get("options", ()), text)


def _dice_numbers(words: list[str]) -> tuple[int, ...] | None:
    """Dice picked by their numbers (``0 2``), or None when a word is not a number."""
    numbers = [whole_number(w) for w in words]
    return None if any(n is None for n in numbers) else tuple(n for n in numbers if n is not None)


def _combo(text: str) -> str | None:
    """``agile+focused``, ``Focused and Agile``: the abilities' ids, sorted and joined by ``+``."""
    parts = [p for p in re.split(r"\+|,|\s+and\s+|\s+", text.strip().lower()) if p]
    if len(parts) < 2:
        return None
    try:
        return "+".join(sorted(resolve_ability(p) for p in parts))
    except MalformedInputError:
        return None


def match_option(state: MatchState, options: Iterable[object], text: str) -> object:
    """The option of a question that ``text`` names, ignoring case: the value itself (``retry``,
    ``NE``, ``-1``), a player's name, an ability's printed name, a direction word, or the parts
    of a ``+``-joined choice in any order."""
    opts = list(options)
    want = _key(text)
    numbers = [o for o in opts if isinstance(o, int) and not isinstance(o, bool)]
    said = whole_number(text) if numbers else None
    hits: list[object]
    if said is not None:
        hits = [o for o in numbers if o == said]
    else:
        hits = [o for o in opts if want in _option_keys(state, o)]
    if not hits:
        try:
            d = Direction.parse(text).name
            hits = [o for o in opts if o == d]
        except MalformedInputError:
            pass
    if not hits and any(isinstance(o, str) and "+" in o for o in opts):  # only a choice of two abilities
        combo = _combo(text)
        hits = [o for o in opts if combo and isinstance(o, str) and "+".join(sorted(o.split("+"))) == combo]
    if not hits and want:
        words = re.sub(r"[^a-z0-9 ]", " ", text.lower()).split()
        hits = [o for o in opts if isinstance(o, str) and o in state.players
                and all(w in state.players[o].name.lower() for w in words)]
        if not hits:
            hits = [o for o in opts if any(k.startswith(want) for k in _option_keys(state, o))]
    if len(hits) == 1:
        return hits[0]
    readable = ", ".join(option_label(state, o) for o in opts)
    if hits:
        raise AmbiguousInputError.of("answer.ambiguous", text=repr(text), text2=", ".join(option_label(state, o) for o in hits))
    raise MalformedInputError.of("answer.choose_one", text=readable)


def _option_keys(state: MatchState, option: object) -> set[str]:
    if option is None:
        return {"none", "nobody", "no", "nothing"}
    if isinstance(option, bool):
        return {"yes", "true"} if option else {"no", "false"}
    if not isinstance(option, str):
        return set()  # numbers are compared as numbers: "-1" is not "1"
    keys = {_key(option)}
    if option in ABILITIES:
        keys.update(_ability_keys(ABILITIES[option]))
    if option in state.players:
        keys.add(_key(state.players[option].name))
    return keys


def option_label(state: MatchState, option: object) -> str:
    """An option as a coach reads it: a player's name, an ability's printed name, ``+1``."""
    if option is None:
        return "none"
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, int):
        return f"{option:+d}" if option else "0"
    text = str(option)
    if text in state.players:
        return f"{text} {state.players[text].name}"
    if text in ABILITIES:
        return ABILITIES[text].name
    if "+" in text and all(part in ABILITIES for part in text.split("+")):
        return " + ".join(ABILITIES[part].name for part in text.split("+"))
    if text in Direction.__members__:
        return text
    return text.replace("_", " ")
