"""Events and questions a coach can read: one English sentence per event.

Pure: no I/O. Events keep language-neutral ids (player ``w1``, hex ``Hex``, challenge
``disengage``, band ``exact``); the words live only here, in ``TEXT``, a flat catalogue of
small templates keyed ``event.<kind>``, ``challenge.<id>``, ``face.<symbol>`` and so on. A
French narrator is the same ``Narrator`` with another catalogue (missing keys fall back to
English).

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

from .dice.challenge import ChallengeRoll
from .dice.faces import Face
from .dice.stringify import PlainStringifier
from .events import Event
from .field import Field, standard_field
from .hexes import Direction, Hex
from .state import MatchState

__all__ = ["TEXT", "Narrator", "describe", "narrate", "describe_question", "describe_roll"]

#: The English catalogue. ``{placeholders}`` are filled by ``Narrator``; ``.one``/``.other``
#: pairs are chosen by count.
TEXT: dict[str, str] = {
    # -- words -------------------------------------------------------------------------------
    "side.west": "West",
    "side.east": "East",
    "side.draw": "nobody",
    "side.none": "nobody",
    "dir.NE": "north-east",
    "dir.E": "east",
    "dir.SE": "south-east",
    "dir.SW": "south-west",
    "dir.W": "west",
    "dir.NW": "north-west",
    "status.down": "Down",
    "status.dazed": "Dazed",
    "status.standing": "standing",
    "location.bench": "the Bench",
    "location.sent_off": "the Bench for the rest of the Test",
    "location.recovery": "Recovery",
    "location.infirmary": "the Infirmary",
    "location.ejected": "the stands, ejected for the game",
    "location.field": "the field",
    "challenge.disengage": "Disengage",
    "challenge.pickup": "Pick-up",
    "challenge.throw": "Throw",
    "challenge.intercept": "Intercept",
    "challenge.catch": "Catch",
    "challenge.impact": "Impact",
    "challenge.tackle": "Tackle",
    "challenge.shove": "Shove",
    "challenge.dash": "Dash",
    "challenge.taunt": "Taunt",
    "challenge.injury": "Injury",
    "challenge.faceoff": "Face-off",
    "challenge.system_shock": "System Shock",
    "challenge.inferno": "Inferno",
    "challenge.transformation": "Transformation",
    "wizard": "{side}'s wizard",
    "attribute.jog": "Jog",
    "attribute.might": "Might",
    "attribute.tackle": "Tackle",
    "attribute.dodge": "Dodge",
    "attribute.skill": "Skill",
    "attribute.grit": "Grit",
    "attribute.momentum": "Momentum",
    "attribute.grit as": "Grit set to {n},",  # an Injury rolled at a fixed number of dice (Punishing Hit)
    "face.X": "flop",
    "face.-": "blank",
    "face.*": "star",
    "face.O": "hit",
    "dice.separator": ", ",
    "dice.star_link": " > ",
    "dice.replaced_by": " re-rolled to ",
    "dice.none": "no dice",
    "dice.one": "{n} die",
    "dice.other": "{n} dice",
    "counter.one": "{n} counter",
    "counter.other": "{n} counters",
    "hex.one": "{n} hex",
    "hex.other": "{n} hexes",
    "goal.one": "{n} goal",
    "goal.other": "{n} goals",
    "band.flop": "flop",
    "band.failure": "failure",
    "band.exact": "success",
    "band.extra": "success, {extra} extra",
    "list.or": "{items}, or {last}",
    "list.sep": ", ",
    "none": "none",
    # -- the successes needed ---------------------------------------------------------------
    "need.plain": "need {value}",
    "need.detail": "need {value} ({terms})",
    "need.clamped": "need 1 ({terms} = {raw}, counts as 1)",
    "need.base": "base {base}",
    "need.base.disengage": "Tackle {attr} − 2",  # the best opposing Tackle
    "need.base.impact": "Might {attr} − 2",  # the target's Might
    "need.base.shove": "Might {attr} − 2",
    "need.base.tackle": "Dodge {attr} − 2",  # the target's Dodge
    "need.modifier": "{signed} {label}",
    "need.term_sep": ", ",
    # -- challenges ---------------------------------------------------------------------------
    "challenge.line": (
        "{challenge} — {player}{target}, {attribute} {dice}, {need}: {faces} → {net}: {outcome}{result}"
    ),
    "challenge.target": " on {target}",
    "challenge.result": " ({result})",
    "faceoff.side": "{player} ({side}), Might {dice}: {faces} → {net}",
    "faceoff.result.west": "West wins",
    "faceoff.result.east": "East wins",
    "faceoff.result.tie": "a tie, rolled again",
    "faceoff.result.both_flopped": "both flop, the face-off starts again",
    # -- events -------------------------------------------------------------------------------
    "event.match_started": "{west} (West) v {east} (East): first to {goals} wins.",
    "event.match_started.timed": "{west} (West) v {east} (East): a timed game with no goal limit.",
    "event.dice_off_rolled": "Dice-off: {rolls}; {side} loses and sets up first.",
    "event.dice_off_rolled.roll": "West {west} – East {east}",
    "event.test_started": "Test {test} begins; {side} sets up first.",
    "event.goal_scored": "GOAL! {player} scores for {side}: West {west} – {east} East.",
    "event.match_ended": "Match over: {side} wins ({reason}).",
    "event.match_ended.draw": "Match over: a draw ({reason}).",
    "event.conceded": "{side} concedes.",
    "event.player_placed": "{player} sets up on {hex}, facing {facing}.",
    "event.player_unplaced": "{player} goes back to the Bench.",
    "event.setup_completed": "{side} has finished setting up.",
    "event.faceoff_rolled": "Face-off — {west}; {east}: {result}.",
    "event.faceoff_won": "{player} wins the face-off for {side}.",
    "event.faceoff_won.momentum": "{player} wins the face-off for {side}, against a stronger player: +{momentum} Momentum.",
    "event.recovered": "{player} comes round and returns to the Bench.",
    "event.action_started": "{player} starts an action with Jog {jog}.",
    "event.action_ended": "{player}'s action ends.",
    "event.action_ended.shift": "{player}'s action ends with a Shift in Momentum.",
    "event.turn_passed": "{side} passes the turn: {reason}.",
    "event.second_action": "Double movement: {side} may pick a second player after {player} (or pass).",
    "event.card_drawn": "A card leaves the deck ({left} left).",
    "event.card_drawn.plain": "{side} draws an event card: no unusual event ({left} left).",
    "event.card_drawn.momentum": "{side} draws an event card: {card}, +{momentum} Momentum this turn ({left} left).",
    "card.face": "a face card",
    "card.joker": "a Joker",
    "event.replacement_made": "{player} comes on as a Replacement at {hex}.",
    "event.player_moved": "{player} moves from {origin} to {to} (Jog {jog_left} left).",
    "event.player_moved.out_of_action": "{player} moves from {origin} to {to}.",
    "event.player_turned": "{player} turns to face {facing}.",
    "event.player_stood_up": "{player} stands up for {cost} Jog ({jog_left} left).",
    "event.player_fell": "{player} is {status} ({cause}).",
    "event.player_shoved": "{player} is pushed back from {origin} to {to}.",
    "event.player_shoved.blocked": "{player} is pushed but the hex behind him is taken: he stays on {origin}.",
    "event.player_removed": "{player} leaves the field for {location} ({reason}).",
    "event.dash_granted": "{player} may Dash one more hex.",
    "event.momentum_gained": "{side} gains {amount} Momentum from the {source} (now {total}).",
    "event.momentum_spent": "{side} spends {amount} Momentum to {purpose} ({total} left).",
    "event.momentum_shifted": "Shift in Momentum ({reason}): {side} takes over {counters}.",
    "event.momentum_shifted.none": "Shift in Momentum ({reason}): the initiative passes to {side}, with no counters.",
    "event.momentum_reset": "{side}'s Momentum returns to zero.",
    "event.momentum_reset.nobody": "Momentum returns to zero.",
    "event.ball_thrown": "{player} throws to {target} ({distance}); the flight ends at {lands}.",
    "event.ball_thrown.long": "{player} throws long to {target} ({distance}); the flight ends at {lands}.",
    "event.ball_scattered": "The ball scatters {direction} from {origin} to {to}.",
    "event.ball_stopped_by_line": "The ball stops on the white line at {hex}.",
    "event.ball_bounced": "The ball bounces {distance} {direction} from {origin} to {to}.",
    "event.ball_bounced.rerolled": "The ball bounces {distance} {direction} from {origin} to {to} (re-rolled {rerolled}).",
    "event.ball_landed": "The ball comes to rest at {hex}.",
    "event.ball_picked_up": "{player} picks up the ball.",
    "event.ball_caught": "{player} catches the ball.",
    "event.ball_caught.automatic": "{player} takes the ball from his team-mate's hand.",
    "event.ball_caught.perfect spiral": "{player} takes the perfect spiral.",
    "event.ball_caught.interception": "{player} intercepts the ball!",
    "event.ball_caught.handed by the referee": "The referee hands the ball to {player}.",
    "event.ball_caught.steal": "{player} steals the ball!",
    "event.ball_dropped": "{player} drops the ball at {hex}.",
    "event.catch_declined": "{player} lets the ball go by.",
    "event.interception_declined": "{side} does not intercept.",
    "event.ball_to_centre": "The {reason} puts the ball back on the centre dot ({hex}).",
    "event.ability_used": "{player} uses {ability}: {effect}.",
    "event.ability_used.target": "{player} uses {ability} on {target}: {effect}.",
    "event.support_used": "{side} uses {item} ({left} left).",
    "event.support_used.player": "{side} uses {item} for {player} ({left} left).",
    "event.referee_check": "Referee check for {side} ({reason}): {face} — he lets it go.",
    "event.referee_check.flopped": "Referee check for {side} ({reason}): {face} — he has had enough: {players}.",
    "event.experience_gained": "{players} of {side} gain {amount} XP ({reason}).",
    "event.injury_recorded": "{player}: {outcome}.",
    "event.injury_recorded.lasting": "{player} suffers a lasting injury: -1 {attributes}.",
    "event.potion_drunk": "{player} drinks a potion: {faces} — {result}.",
    "event.potion_drunk.gained": "{player} drinks a potion: {faces} — {result} ({gained}).",
    "event.spell_cast": "{side}'s wizard casts {spell} on {target}.",
    "event.player_transformed": "{player} turns into a giant frog!",
    "event.player_transformed.back": "{player} is himself again.",
    "event.taunted": "{player} taunts {target}, who turns to face {facing}.",
    "event.taunted.failed": "{player} taunts {target}, who ignores him.",
    "ability.effect.reroll": "replaces a die",
    "ability.effect.stays_up": "stays on his feet: never placed Down",
    "ability.effect.fewer_dice": "drops Tackle dice to take as many successes off any Injury",
    "ability.effect.counter_move": "moves for Momentum counters instead of Jog",
    "ability.effect.lose_counters": "the flopped Taunt costs every counter",
    "ability.effect.double_counters": "doubles the Momentum counters and must take the action",
    "ability.effect.sprint": "Dashes on his Jog instead of Momentum",
    # contact abilities
    "ability.effect.cheapshot": "a cheap shot at a man on the ground",
    "ability.effect.cutblock": "a Tackle with no Impact, and he goes Down after it",
    "ability.effect.pummel": "half his Might as the Tackle dice",
    "ability.effect.steal_attempt": "goes for the ball",
    "ability.effect.plus_one_success": "+1 success",
    "ability.effect.snapped_out_of_daze": "snapped out of his daze, he is Down",
    "ability.effect.impact_first": "an Impact first, earning no Momentum",
    "ability.effect.opponent_might_dice": "an Impact with his opponent's Might in dice",
    "ability.effect.more_shove_dice": "2 more Shove dice",
    "ability.effect.one_injury_die_fewer": "one Injury die fewer",
    "ability.effect.momentum_dazed": "+1 Momentum for a Dazed opponent",
    "ability.effect.momentum_injured": "+2 Momentum for an opponent hurt off the field",
    "ability.effect.enraged": "+2 Momentum for the hits he took",
    "ability.effect.impact_to_break_free": "an Impact to break free before the Disengage",
    "ability.effect.plough": "steps into the hex he emptied",
    "ability.effect.auto_disengage": "slips away without a roll",
    "ability.effect.double_momentum": "doubles the Momentum earned",
    "ability.effect.stand_cost": "stands up for less Jog",
    "ability.effect.bounce_direction": "chooses where the ball bounces",
    "ability.effect.bounce_distance": "changes how far the ball bounces",
    "ability.effect.only_down": "he is only Down",
    "support.cheerleaders": "a Cheerleader (+1 Momentum)",
    "support.kegs": "a Zlurpee Keg (+1 success)",
    "support.potions": "a Magic Potion",
    "support.wizard": "the Hired Gun Wizard",
    "support.bribed_referee": "the Bribed Referee",
    "referee.bribe_faceoff_monster": "a Monster in the face-off",
    "referee.bribe_goal_hex": "a player in a goal hex",
    "referee.impcrusher": "the Impcrusher",
    "xp.goal": "goal",
    "xp.goal_scorer": "the scorer",
    "xp.concession": "the other team conceded",
    "injury.career_ending": "career-ending injury, out of the team for good",
    "injury.dead": "dead",
    "injury.cured": "cured of his injuries",
    "potion.dies": "an extremely bad reaction: he dies",
    "potion.seizure": "a violent seizure: out for the game with a lasting injury",
    "potion.coma": "a light coma: out for the game",
    "potion.woozy": "woozy: no cure",
    "potion.locked": "his nervous system locks up: cured, to Recovery",
    "potion.healed": "healing magic: cured, to the Bench",
    "potion.boost": "a bit of a boost",
    "potion.enhanced": "enhanced skills",
    "potion.veteran": "the skills of a veteran",
    "potion.strength": "magical strength",
    "spell.system_shock": "System Shock",
    "spell.inferno": "Inferno",
    "spell.transformation": "Transformation",
    "event.unknown": "{kind}: {data}",
    # -- questions ---------------------------------------------------------------------------
    "question.reroll": (
        "{side}: spend Momentum to re-roll dice of {player}'s {challenge}? eligible dice {eligible}; "
        "up to {max} — rolled {faces} → {net}, {need}"
    ),
    "question.force_reroll": (
        "{side}: spend Momentum to force a re-roll of dice of {player}'s {challenge}? eligible dice {eligible}; "
        "up to {max} — rolled {faces} → {net}, {need}"
    ),
    "question.ability_reroll": (
        "{side}: use {ability} to re-roll one die of {player}'s {challenge}? eligible dice {eligible} "
        "— rolled {faces} → {net}, {need}"
    ),
    "question.dash_die": "{side}: put the Dash's extra die on {player}'s Impact or his Tackle? ({options})",
    "question.pummel_dice": "{side}: how many Tackle dice does {player} drop for Pummel? Each takes a success off any Injury ({options})",
    "question.bankshot_direction": "{side}: {player}'s Bankshot: the direction the ball bounces off {hex} ({options}; none rolls it)",
    "question.bankshot_distance": "{side}: {player}'s Bankshot: the bounce rolled {rolled} hexes; change it by {options}?",
    "question.eligible_die": "{index} ({face})",
    "question.interceptor": "{side}: choose an interceptor: {options}",
    "question.catch": "{side}: {player} may catch the loose ball: catch or decline?",
    "question.taunt_facing": "{side}: {player} is taunted from exactly between two of his sides; which way does he turn? {options}",
    "question.clipping_retry": "{side}: {player} failed to break free of the Clipper: pay 1 Jog to roll the Impact again? {options}",
    "question.plough": "{side}: {player} may Plough into the emptied hex for 1 Momentum counter and 1 Jog: {options}",
    "question.unknown": "{side}: answer the {kind} question ({options})",
    "question.option": "{id} {name}",
    "question.keg": "{side}: use a Zlurpee Keg ({left} left) to add 1 success to {player}'s Injury roll? {options}",
    "question.potion_ability": "{side}: the potion gives {player} a General Basic ability for this game: {options}",
    "question.potion_veteran": "{side}: the potion gives {player} a Basic ability and its Advanced ability for this game: {options}",
    "question.potion_attribute": "{side}: the potion adds 1 to an attribute of {player} for this game: {options}",
}


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

    def __init__(self, text: Mapping[str, str] | None = None, *, field: Field | None = None) -> None:
        self.text: dict[str, str] = dict(TEXT)
        if text:
            self.text.update(text)
        self.field = field or standard_field()
        self.stringifier = _WordStringifier(self.text)

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

    def either(self, items: list[str]) -> str:
        if len(items) < 2:
            return "".join(items)
        return self.t("list.or", items=self.text["list.sep"].join(items[:-1]), last=items[-1])

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
        terms = [base] + [self.t("need.modifier", signed=self.signed(m.value), label=m.label) for m in need.modifiers]
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
            result=self.t("challenge.result", result=ev.result) if ev.result else "",
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
        """An option of a generic question: a player by id, a signed number, or none."""
        if isinstance(o, int) and not isinstance(o, bool):
            return self.signed(o)
        return self.option(state, o) if o else self.text["none"]

    def ability(self, ability_id: str) -> str:
        from .abilities import ABILITIES

        key = f"ability.{ability_id}"
        if key in self.text:
            return self.text[key]
        a = ABILITIES.get(ability_id)
        return a.name if a else ability_id

    def keyed(self, prefix: str, value: str) -> str:
        """``TEXT[prefix.value]``, or the value itself when the catalogue has no entry."""
        return self.text.get(f"{prefix}.{value}", value.replace("_", " "))


class _Lenient(dict):  # type: ignore[type-arg]
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


def _match_ended(n: Narrator, e: Any, s: MatchState | None) -> str:
    if e.winner == "draw":
        return n.t("event.match_ended.draw", reason=e.reason)
    return n.t("event.match_ended", side=n.side(e.winner), reason=e.reason)


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
    return n.t("event.turn_passed", side=n.side(e.side), reason=e.reason)


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
    return n.t("event.player_fell", player=n.player(s, e.player), status=status, cause=e.cause)


def _shoved(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.player_shoved" if e.to is not None else "event.player_shoved.blocked"
    return n.t(key, player=n.player(s, e.player), origin=n.hex(e.origin), to=n.hex(e.to))


def _removed(n: Narrator, e: Any, s: MatchState | None) -> str:
    location = n.text.get(f"location.{e.location}", e.location)
    return n.t("event.player_removed", player=n.player(s, e.player), location=location, reason=e.reason)


def _challenge(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.roll_line(s, e)


def _momentum_gained(n: Narrator, e: Any, s: MatchState | None) -> str:
    source = n.text.get(f"challenge.{e.source}", e.source)
    return n.t("event.momentum_gained", side=n.side(e.side), amount=e.amount, total=e.total, source=source)


def _momentum_spent(n: Narrator, e: Any, s: MatchState | None) -> str:
    return n.t("event.momentum_spent", side=n.side(e.side), amount=e.amount, total=e.total, purpose=e.purpose)


def _momentum_shifted(n: Narrator, e: Any, s: MatchState | None) -> str:
    key = "event.momentum_shifted" if e.counters else "event.momentum_shifted.none"
    return n.t(key, side=n.side(e.to_side), counters=n.count("counter", e.counters), reason=e.reason)


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
    return n.t("event.ball_to_centre", reason=e.reason, hex=n.hex(e.hex))


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
        gained = n.text["list.sep"].join(n.ability(g) if not g.startswith("+") else g for g in e.gained)
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


#: Every kind in ``engine.events.EVENT_TYPES`` has an entry (tests/test_narrate.py checks it).
_HANDLERS: dict[str, Handler] = {
    "match_started": _match_started,
    "dice_off_rolled": _dice_off,
    "test_started": _test_started,
    "goal_scored": _goal,
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

_DEFAULT: Narrator | None = None


def _default() -> Narrator:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Narrator()
    return _DEFAULT


def _narrator(field: Field | None) -> Narrator:
    return _default() if field is None else Narrator(field=field)


def describe(event: Event, state: MatchState | None = None, *, field: Field | None = None) -> str:
    """One English sentence for ``event``; ``state`` supplies player names."""
    return _narrator(field).describe(event, state)


def narrate(events: Iterable[Event], state: MatchState | None = None, *, field: Field | None = None) -> list[str]:
    """A sentence per event, in order."""
    return _narrator(field).narrate(events, state)


def describe_question(question: Mapping[str, Any], state: MatchState | None = None, *, field: Field | None = None) -> str:
    """The pending question (``state.in_progress.question`` or ``pending(state).question``)."""
    return _narrator(field).describe_question(question, state)


def describe_roll(roll: ChallengeRoll | Mapping[str, Any], *, field: Field | None = None) -> str:
    """``flop, hit, hit, hit → 2: success`` for any roll (the ``elfball roll`` style, in words)."""
    n = _narrator(field)
    r = roll if isinstance(roll, ChallengeRoll) else ChallengeRoll.from_dict(roll)
    return f"{n.faces(r)} → {n.net(r.net)}: {n.band(r)}"
