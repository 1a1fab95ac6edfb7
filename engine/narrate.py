"""Events and questions a coach can read: one sentence per event, in English or French.

Pure (it reads its catalogues from package data). Events keep language-neutral ids (player
``w1``, hex ``Hex``, challenge ``disengage``, band ``exact``); the words live in data files,
``engine/data/text/<language>.json``: flat catalogues of small templates keyed
``event.<kind>``, ``challenge.<id>``, ``face.<symbol>`` and so on, plus ``phrase.<English>``
for the free text rules write into events (a fall's cause, a Shift in Momentum's reason, a
modifier's label). ``Narrator(language="fr")`` reads French with the French rulebook's words
(Temps fort, Revirement de Situation, Plaquer, Charger…); missing keys fall back to English.

A challenge reads like the table talk it replaces::

    Disengage — Dryad w1, Dodge 4 dice, need 2 (Tackle 3 − 2, +1 1 more opponent facing):
    flop, hit, hit, hit → 2: success (gets away)

The dice come from ``engine.dice.stringify.PlainStringifier`` with words for faces: a star is
followed by the dice it made roll (``star > hit``), a replaced die by its replacement
(``blank re-rolled to hit``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .abilities import ABILITIES
from .dice.challenge import ChallengeRoll
from .dice.faces import Face
from .dice.stringify import PlainStringifier
from .events import Event
from .field import Field, standard_field
from .hexes import Direction, Hex
from .i18n import DEFAULT, LANGUAGES, load, phrase
from .state import MatchState

__all__ = ["TEXT", "Narrator", "describe", "narrate", "describe_question", "describe_roll"]

#: The English catalogue (``engine/data/text/en.json``). ``{placeholders}`` are filled by
#: ``Narrator``; ``.one``/``.other`` pairs are chosen by count; ``phrase.*`` keys translate the
#: engine's free-text causes, reasons and modifier labels (``engine.i18n.phrase``).
TEXT: dict[str, str] = dict(load("engine", "data/text", "en"))


class _WordStringifier(PlainStringifier):
    """``PlainStringifier`` with the catalogue's words for faces and links."""

    def __init__(self, text: Mapping[str, str]) -> None:
        self.faces = {f: text[f"face.{f.symbol}"] for f in Face}
        self.star_link = text["dice.star_link"]
        self.replaced_by = text["dice.replaced_by"]
        self.separator = text["dice.separator"]
        self._none = text["dice.none"]

    def struck(self, text: str) -> str:
        return text  # "blank re-rolled to hit" already says it no longer counts

    def dice(self, roll: ChallengeRoll) -> str:
        return super().dice(roll) if roll.count else self._none


class Narrator:
    """Turns events and questions into sentences from a catalogue of templates."""

    def __init__(self, text: Mapping[str, str] | None = None, *, language: str = DEFAULT,
                 field: Field | None = None) -> None:
        """``language``: a catalogue of ``engine/data/text`` over the English one; ``text``:
        templates over both (a catalogue of one's own)."""
        self.language = language if language in LANGUAGES else DEFAULT
        self.text: dict[str, str] = dict(TEXT)
        if self.language != DEFAULT:
            self.text.update(load("engine", "data/text", self.language))
        if text:
            self.text.update(text)
        self.field = field or standard_field()
        self.stringifier = _WordStringifier(self.text)
        #: Free-text phrases met without a translation (tests/engine/test_i18n.py keeps it empty).
        self.missing: set[str] = set()

    # -- small pieces ----------------------------------------------------------------------
    def t(self, key: str, **values: Any) -> str:
        return self.text[key].format(**values)

    def count(self, key: str, n: int) -> str:
        return self.t(f"{key}.{'one' if n == 1 else 'other'}", n=n)

    def side(self, side: str | None) -> str:
        return self.text.get(f"side.{side or 'none'}", str(side))

    def player(self, state: MatchState | None, pid: str | None) -> str:
        if pid is None:
            return self.text["none"]
        p = state.players.get(pid) if state is not None else None
        if p is None and pid.startswith("wizard:"):
            return self.t("wizard", side=self.side(pid.removeprefix("wizard:")))
        return p.name if p is not None else pid

    def option(self, state: MatchState | None, pid: str | None) -> str:
        """A player a coach picks by id: ``e2 Hunter #2`` (just the name if it holds the id)."""
        if pid is None:
            return self.text["none"]
        name = self.player(state, pid)
        return name if pid in name.split() or name == pid else self.t("question.option", id=pid, name=name)

    def hex(self, h: Hex | list[int] | tuple[int, int] | None) -> str:
        if h is None:
            return "?"
        if not isinstance(h, Hex):
            h = Hex(*h)
        return self.field.format(h)

    def direction(self, d: str | Direction | None) -> str:
        name = d.name if isinstance(d, Direction) else str(d)
        return self.text.get(f"dir.{name}", name)

    def challenge_name(self, challenge: str) -> str:
        return self.text.get(f"challenge.{challenge}", challenge)

    def attribute(self, attribute: str) -> str:
        if attribute.startswith("grit as "):
            return self.t("attribute.grit as", n=attribute.removeprefix("grit as "))
        return self.text.get(f"attribute.{attribute}", attribute.title())

    def phrase(self, value: str | None) -> str:
        """An English phrase of the engine (a cause, a reason) in this catalogue's language."""
        return phrase(self.text, value or "", missing=None if self.language == DEFAULT else self.missing)

    def either(self, items: list[str]) -> str:
        if len(items) < 2:
            return "".join(items)
        return self.t("list.or", items=self.text["list.sep"].join(items[:-1]), last=items[-1])

    def bonus(self, gained: str) -> str:
        """A potion's ``+1 might`` with the attribute in this language (as written in English)."""
        amount, _, attribute = gained.partition(" ")
        if self.language == DEFAULT or not attribute:
            return gained
        return f"{amount} {self.attribute(attribute)}"

    def signed(self, n: int) -> str:
        return f"+{n}" if n >= 0 else f"−{-n}"  # a true minus sign, as the rulebook prints it

    # -- rolls ---------------------------------------------------------------------------
    def need(self, challenge: str, roll: ChallengeRoll) -> str:
        """``need 2 (Tackle 3 − 2, +1 1 more opponent facing)``: the base, every modifier, and
        the clamp to 1 when the sum falls below it."""
        need = roll.need
        base_key = f"need.base.{challenge}"
        explained = base_key in self.text
        if not explained and not need.modifiers:
            return self.t("need.plain", value=need.value)
        base = self.t(base_key, attr=need.base + 2, base=need.base) if explained else self.t("need.base", base=need.base)
        terms = [base] + [self.t("need.modifier", signed=self.signed(m.value), label=self.phrase(m.label))
                          for m in need.modifiers]
        joined = self.text["need.term_sep"].join(terms)
        if need.unclamped < 1:
            raw = str(need.unclamped) if need.unclamped >= 0 else f"−{-need.unclamped}"
            return self.t("need.clamped", terms=joined, raw=raw)
        return self.t("need.detail", value=need.value, terms=joined)

    def faces(self, roll: ChallengeRoll) -> str:
        return self.stringifier.dice(roll)

    def band(self, roll: ChallengeRoll) -> str:
        return self.t(f"band.{roll.band.value}", extra=roll.extra)

    def net(self, n: int) -> str:
        return str(n) if n >= 0 else f"−{-n}"

    def roll_line(self, state: MatchState | None, ev: Any) -> str:
        roll = ChallengeRoll.from_dict(ev.roll)
        return self.t(
            "challenge.line",
            challenge=self.challenge_name(ev.challenge),
            player=self.player(state, ev.player),
            target=self.t("challenge.target", target=self.player(state, ev.target)) if ev.target else "",
            attribute=self.attribute(ev.attribute),
            dice=self.count("dice", roll.count),
            need=self.need(ev.challenge, roll),
            faces=self.faces(roll),
            net=self.net(roll.net),
            outcome=self.band(roll),
            result=self.t("challenge.result", result=self.phrase(ev.result)) if ev.result else "",
        )

    # -- events ----------------------------------------------------------------------------
    def describe(self, event: Event, state: MatchState | None = None) -> str:
        handler = _HANDLERS.get(event.kind)
        if handler is None:
            return self.t("event.unknown", kind=event.kind, data=event.to_dict())
        return handler(self, event, state)

    def narrate(self, events: Iterable[Event], state: MatchState | None = None) -> list[str]:
        return [self.describe(e, state) for e in events]

    # -- questions -------------------------------------------------------------------------
    def describe_question(self, question: Mapping[str, Any], state: MatchState | None = None) -> str:
        kind = question.get("kind")
        side = self.side(question.get("side"))
        if kind in ("reroll", "force_reroll", "ability_reroll"):
            roll = ChallengeRoll.from_dict(question["roll"])
            eligible = [
                self.t("question.eligible_die", index=i, face=self.text[f"face.{roll.dice[i].face.symbol}"])
                for i in question.get("eligible", ())
            ]
            return self.t(
                f"question.{kind}",
                side=side,
                player=self.player(state, question.get("player")),
                ability=self.ability(str(question.get("ability"))),
                challenge=self.challenge_name(str(question.get("challenge"))),
                eligible=self.text["list.sep"].join(eligible) or self.text["none"],
                max=self.count("counter", int(question.get("max", 0))),
                faces=self.faces(roll),
                net=self.net(roll.net),
                need=self.need(str(question.get("challenge")), roll),
            )
        if kind == "interceptor":
            options = [self.option(state, o) for o in question.get("options", ())]
            return self.t("question.interceptor", side=side, options=self.either(options))
        if kind == "catch":
            return self.t("question.catch", side=side, player=self.player(state, question.get("player")))
        key = f"question.{kind}"
        if key in self.text:
            # Generic: the question's own fields, with players and options made readable.
            values = {k: v for k, v in question.items() if isinstance(v, str | int)}
            values.update(side=side, player=self.player(state, question.get("player")))
            if question.get("ability"):
                values["ability"] = self.ability(str(question["ability"]))
            values["options"] = self.either([self._option_text(state, o) for o in question.get("options", ())])
            # A field the template names but this question lacks reads "?" rather than failing:
            # a prompt must never be what stops a match.
            return self.text[key].format_map(_Lenient(values))
        return self.t("question.unknown", side=side, kind=kind, options=question.get("options"))

    def _option_text(self, state: MatchState | None, o: Any) -> str:
        """An option of a generic question: a player by id, a signed number, or none; a word
        (``plough``, an ability, an attribute, a direction) as typed, and in another language
        in its words with the typed one after it: ``Écrasement (`plough`)``."""
        if isinstance(o, int) and not isinstance(o, bool):
            return self.signed(o)
        if not o:
            return self.text["none"]
        if isinstance(o, str) and self.language != DEFAULT and (state is None or o not in state.players):
            words = self._option_words(o)
            if words is not None:
                return words if words == o else self.t("option.typed", text=words, typed=o)
        return self.option(state, o)

    def _option_words(self, o: str) -> str | None:
        if f"option.{o}" in self.text:
            return self.text[f"option.{o}"]
        if o in Direction.__members__:
            return self.text[f"compass.{o}"]
        if f"attribute.{o}" in self.text:
            return self.attribute(o)
        parts = o.split("+")
        if all(p in ABILITIES for p in parts):
            return " + ".join(self.ability(p) for p in parts)
        return None

    def ability(self, ability_id: str) -> str:
        key = f"ability.{ability_id}"
        if key in self.text:
            return self.text[key]
        a = ABILITIES.get(ability_id)
        return a.name_in(self.language) if a else ability_id

    def keyed(self, prefix: str, value: str) -> str:
        """``TEXT[prefix.value]``, or the value itself when the catalogue has no entry."""
        return self.text.get(f"{prefix}.{value}", value.replace("_", " "))


class _Lenient(dict):
    def __missing__(self, key: str) -> str:
        return "?"


# --- one function per event kind --------------------------------------------------------
Handler = Callable[[Narrator, Any, "MatchState | None"], str]


def _match_started(n: Narrator, e: Any, s: MatchState | None) -> str:
    if not e.goals_to_win:
        return n.t("event.match_started.timed", west=e.west, east=e.east)
    return n.t("event.match_started", west=e.west, east=e.east, goals=n.count("goal", e.goals_to_win))


def _dice_off(n: Narrator, e: Any, s: MatchState | None) -> str:
    rolls = n.text["list.sep"].join(n.t("event.dice_off_rolled.roll", west=w, east=x) for w, x in e.rolls)
    return n.t("event.dice_off_rolled", rolls=rolls, side=n.side(e.sets_up_first))


def _test_started(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.test_started", test=e.test, side=n.side(e.sets_up_first))


def _goal(n: Narrator, e: Any, s: MatchState | None) -> str:
    west, east = e.score
    return n.t("event.goal_scored", player=n.player(s, e.player), side=n.side(e.side), west=west, east=east)


def _test_lost(n: Narrator, e: Any, s: MatchState | None) -> str:
    west, east = e.score
    return n.t("event.test_lost", side=n.side(e.side), west=west, east=east)


def _match_ended(n: Narrator, e: Any, s: MatchState | None) -> str:
    if e.winner == "draw":
        return n.t("event.match_ended.draw", reason=n.phrase(e.reason))
    return n.t("event.match_ended", side=n.side(e.winner), reason=n.phrase(e.reason))


def _side_only(key: str) -> Handler:
    return lambda n, e, s: n.t(key, side=n.side(e.side))


def _player_only(key: str) -> Handler:
    return lambda n, e, s: n.t(key, player=n.player(s, e.player))


def _placed(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.player_placed", player=n.player(s, e.player), hex=n.hex(e.hex), facing=n.direction(e.facing))


def _faceoff_rolled(n: Narrator, e: Any, s: MatchState | None) -> str:
    parts = {}
    for side, pid, data in (("west", e.west_player, e.west), ("east", e.east_player, e.east)):
        roll = ChallengeRoll.from_dict(data)
        parts[side] = n.t(
            "faceoff.side",
            player=n.player(s, pid),
            side=n.side(side),
            dice=n.count("dice", roll.count),
            faces=n.faces(roll),
            net=n.net(roll.net),
        )
    return n.t("event.faceoff_rolled", west=parts["west"], east=parts["east"], result=n.t(f"faceoff.result.{e.result}"))


def _faceoff_won(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.faceoff_won.momentum" if e.momentum else "event.faceoff_won"
    return n.t(key, player=n.player(s, e.player), side=n.side(e.side), momentum=e.momentum)


def _action_started(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.action_started", player=n.player(s, e.player), jog=e.jog)


def _action_ended(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.action_ended.shift" if e.shift else "event.action_ended", player=n.player(s, e.player))


def _turn_passed(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.turn_passed", side=n.side(e.side), reason=n.phrase(e.reason))


def _second_action(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.second_action", side=n.side(e.side), player=n.player(s, e.first))


def _card_drawn(n: Narrator, e: Any, s: MatchState | None) -> str:
    if e.momentum:
        key = "event.card_drawn.momentum"
    else:
        key = "event.card_drawn.plain" if e.card == "plain" and s is not None and s.options.tournament else "event.card_drawn"
    return n.t(key, side=n.side(e.side), card=n.keyed("card", e.card), momentum=e.momentum, left=e.left)


def _replacement(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.replacement_made", player=n.player(s, e.player), hex=n.hex(e.hex))


def _moved(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(player=n.player(s, e.player), origin=n.hex(e.origin), to=n.hex(e.to))
    if e.jog_left is None:
        return n.t("event.player_moved.out_of_action", **values)
    return n.t("event.player_moved", jog_left=e.jog_left, **values)


def _turned(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.player_turned", player=n.player(s, e.player), facing=n.direction(e.facing))


def _stood(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.player_stood_up", player=n.player(s, e.player), cost=e.cost, jog_left=e.jog_left)


def _fell(n: Narrator, e: Any, s: MatchState | None) -> str:
    status = n.text.get(f"status.{e.status}", e.status)
    return n.t("event.player_fell", player=n.player(s, e.player), status=status, cause=n.phrase(e.cause))


def _shoved(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.player_shoved" if e.to is not None else "event.player_shoved.blocked"
    return n.t(key, player=n.player(s, e.player), origin=n.hex(e.origin), to=n.hex(e.to))


def _removed(n: Narrator, e: Any, s: MatchState | None) -> str:
    location = n.text.get(f"location.{e.location}", e.location)
    return n.t("event.player_removed", player=n.player(s, e.player), location=location, reason=n.phrase(e.reason))


def _challenge(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.roll_line(s, e)


def _momentum_gained(n: Narrator, e: Any, s: MatchState | None) -> str:
    source = n.text.get(f"challenge.{e.source}") or n.phrase(e.source)
    return n.t("event.momentum_gained", side=n.side(e.side), amount=e.amount, total=e.total, source=source)


def _momentum_spent(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.momentum_spent", side=n.side(e.side), amount=e.amount, total=e.total, purpose=n.phrase(e.purpose))


def _momentum_shifted(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.momentum_shifted" if e.counters else "event.momentum_shifted.none"
    return n.t(key, side=n.side(e.to_side), counters=n.count("counter", e.counters), reason=n.phrase(e.reason))


def _momentum_reset(n: Narrator, e: Any, s: MatchState | None) -> str:
    if e.side is None:
        return n.t("event.momentum_reset.nobody")
    return n.t("event.momentum_reset", side=n.side(e.side))


def _thrown(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t(
        "event.ball_thrown.long" if e.long else "event.ball_thrown",
        player=n.player(s, e.thrower),
        target=n.hex(e.target),
        distance=n.count("hex", e.distance),
        lands=n.hex(e.lands),
    )


def _scattered(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.ball_scattered", direction=n.direction(e.direction), origin=n.hex(e.origin), to=n.hex(e.to))


def _hex_only(key: str) -> Handler:
    return lambda n, e, s: n.t(key, hex=n.hex(e.hex))


def _bounced(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(
        distance=n.count("hex", e.distance), direction=n.direction(e.direction), origin=n.hex(e.origin), to=n.hex(e.to)
    )
    if e.rerolled:
        rerolled = n.text["list.sep"].join(n.direction(d) for d in e.rerolled)
        return n.t("event.ball_bounced.rerolled", rerolled=rerolled, **values)
    return n.t("event.ball_bounced", **values)


def _caught(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = f"event.ball_caught.{e.how}"
    return n.t(key if key in n.text else "event.ball_caught", player=n.player(s, e.player))


def _dropped(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.ball_dropped", player=n.player(s, e.player), hex=n.hex(e.hex))


def _to_centre(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.ball_to_centre", reason=n.phrase(e.reason), hex=n.hex(e.hex))


def _ability_used(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(player=n.player(s, e.player), ability=n.ability(e.ability), effect=n.keyed("ability.effect", e.effect))
    if e.target:
        return n.t("event.ability_used.target", target=n.player(s, e.target), **values)
    return n.t("event.ability_used", **values)


def _support_used(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(side=n.side(e.side), item=n.keyed("support", e.item), left=e.left)
    if e.player:
        return n.t("event.support_used.player", player=n.player(s, e.player), **values)
    return n.t("event.support_used", **values)


def _referee_check(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(side=n.side(e.side), reason=n.keyed("referee", e.reason), face=n.text[f"face.{e.face}"])
    if e.flopped:
        players = n.text["list.sep"].join(n.player(s, p) for p in e.players) or n.text["none"]
        return n.t("event.referee_check.flopped", players=players, **values)
    return n.t("event.referee_check", **values)


def _experience(n: Narrator, e: Any, s: MatchState | None) -> str:
    players = n.text["list.sep"].join(n.player(s, p) for p in e.players) or n.text["none"]
    return n.t("event.experience_gained", players=players, side=n.side(e.side), amount=e.amount, reason=n.keyed("xp", e.reason))


def _injury_recorded(n: Narrator, e: Any, s: MatchState | None) -> str:
    if e.outcome == "lasting":
        attrs = n.either([n.attribute(a) for a in e.attributes])
        return n.t("event.injury_recorded.lasting", player=n.player(s, e.player), attributes=attrs)
    return n.t("event.injury_recorded", player=n.player(s, e.player), outcome=n.keyed("injury", e.outcome))


def _potion(n: Narrator, e: Any, s: MatchState | None) -> str:
    faces = n.text["list.sep"].join(n.text[f"face.{f}"] for f in e.faces)
    values = dict(player=n.player(s, e.player), faces=faces, result=n.keyed("potion", e.result))
    if e.gained:
        gained = n.text["list.sep"].join(n.ability(g) if not g.startswith("+") else n.bonus(g) for g in e.gained)
        return n.t("event.potion_drunk.gained", gained=gained, **values)
    return n.t("event.potion_drunk", **values)


def _spell(n: Narrator, e: Any, s: MatchState | None) -> str:
    target = n.player(s, e.target) if e.target else n.hex(e.hex)
    return n.t("event.spell_cast", side=n.side(e.side), spell=n.keyed("spell", e.spell), target=target)


def _transformed(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.player_transformed" if e.into == "giant_frog" else "event.player_transformed.back"
    return n.t(key, player=n.player(s, e.player))


def _taunted(n: Narrator, e: Any, s: MatchState | None) -> str:
    values = dict(player=n.player(s, e.player), target=n.player(s, e.target))
    if e.facing is None:
        return n.t("event.taunted.failed", **values)
    return n.t("event.taunted", facing=n.direction(e.facing), **values)


#: Every kind in ``engine.events.EVENT_TYPES`` has an entry (tests/engine/test_narrate.py checks it).
_HANDLERS: dict[str, Handler] = {
    "match_started": _match_started,
    "dice_off_rolled": _dice_off,
    "test_started": _test_started,
    "goal_scored": _goal,
    "test_lost": _test_lost,
    "match_ended": _match_ended,
    "conceded": _side_only("event.conceded"),
    "player_placed": _placed,
    "player_unplaced": _player_only("event.player_unplaced"),
    "setup_completed": _side_only("event.setup_completed"),
    "faceoff_rolled": _faceoff_rolled,
    "faceoff_won": _faceoff_won,
    "recovered": _player_only("event.recovered"),
    "action_started": _action_started,
    "action_ended": _action_ended,
    "turn_passed": _turn_passed,
    "second_action": _second_action,
    "card_drawn": _card_drawn,
    "replacement_made": _replacement,
    "player_moved": _moved,
    "player_turned": _turned,
    "player_stood_up": _stood,
    "player_fell": _fell,
    "player_shoved": _shoved,
    "player_removed": _removed,
    "challenge_rolled": _challenge,
    "dash_granted": _player_only("event.dash_granted"),
    "momentum_gained": _momentum_gained,
    "momentum_spent": _momentum_spent,
    "momentum_shifted": _momentum_shifted,
    "momentum_reset": _momentum_reset,
    "ball_thrown": _thrown,
    "ball_scattered": _scattered,
    "ball_stopped_by_line": _hex_only("event.ball_stopped_by_line"),
    "ball_bounced": _bounced,
    "ball_landed": _hex_only("event.ball_landed"),
    "ball_picked_up": _player_only("event.ball_picked_up"),
    "ball_caught": _caught,
    "ball_dropped": _dropped,
    "catch_declined": _player_only("event.catch_declined"),
    "interception_declined": _side_only("event.interception_declined"),
    "ball_to_centre": _to_centre,
    "ability_used": _ability_used,
    "support_used": _support_used,
    "referee_check": _referee_check,
    "experience_gained": _experience,
    "injury_recorded": _injury_recorded,
    "potion_drunk": _potion,
    "spell_cast": _spell,
    "player_transformed": _transformed,
    "taunted": _taunted,
}

HANDLED_KINDS = frozenset(_HANDLERS)

_DEFAULTS: dict[str, Narrator] = {}


def _narrator(field: Field | None, language: str = DEFAULT) -> Narrator:
    """The shared narrator of ``language`` (a new one for another field)."""
    if field is not None:
        return Narrator(language=language, field=field)
    if language not in _DEFAULTS:
        _DEFAULTS[language] = Narrator(language=language)
    return _DEFAULTS[language]


def describe(event: Event, state: MatchState | None = None, *, field: Field | None = None,
             language: str = DEFAULT) -> str:
    """One sentence for ``event`` (English unless ``language`` says otherwise); ``state``
    supplies player names."""
    return _narrator(field, language).describe(event, state)


def narrate(events: Iterable[Event], state: MatchState | None = None, *, field: Field | None = None,
            language: str = DEFAULT) -> list[str]:
    """A sentence per event, in order."""
    return _narrator(field, language).narrate(events, state)


def describe_question(question: Mapping[str, Any], state: MatchState | None = None, *, field: Field | None = None,
                      language: str = DEFAULT) -> str:
    """The pending question (``state.in_progress.question`` or ``pending(state).question``)."""
    return _narrator(field, language).describe_question(question, state)


def describe_roll(roll: ChallengeRoll | Mapping[str, Any], *, field: Field | None = None, language: str = DEFAULT) -> str:
    """``flop, hit, hit, hit → 2: success`` for any roll (the ``elfball roll`` style, in words)."""
    n = _narrator(field, language)
    r = roll if isinstance(roll, ChallengeRoll) else ChallengeRoll.from_dict(roll)
    return f"{n.faces(r)} → {n.net(r.net)}: {n.band(r)}"
