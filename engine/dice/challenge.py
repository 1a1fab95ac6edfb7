"""Challenge rolls: the pool of Challenge dice, the successes needed and the outcome band.

Rulebook, "Actions & Challenges": roll as many dice as the attribute; every star counts one
success and is rolled again, the new result added to the list of rolls, until no star shows.
S = stars + bull's-eyes, F = flops; the challenge is flopped when F > S (F = S is not a flop).
"Momentum" (p. 5): after the stars and ability replacements are resolved, and only while the
challenge is not flopped, any die may be replaced once; the new result must be used.

The pool is a list of every roll, in the order rolled, like d20's ``Literal`` keeping its
rerolls: a replaced die stays in the list, struck, and its replacement is appended after it.
Positions never move, so an index chosen by a coach stays valid after replacements.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from engine.dice.faces import Face
from engine.dice.source import DiceSource
from engine.errors import DiceScriptError, ElfballError, IllegalCommandError, MalformedInputError

__all__ = [
    "Band",
    "ChallengeRoll",
    "Die",
    "MAX_DICE_PER_CHALLENGE",
    "MOMENTUM_CAP",
    "Modifier",
    "Need",
    "Origin",
    "PlainStringifier",
    "Reason",
    "outcome_text",
]

# A hostile or broken source could show stars forever; no fair roll comes near this.
MAX_DICE_PER_CHALLENGE = 1000

_RULE_MOMENTUM = "momentum"  # Momentum (p. 5), a rule id

MOMENTUM_CAP = 6  # extra successes are reported 0..5 and "6 or more": the track tops out at 6


class Band(StrEnum):
    """The outcome bands every challenge table uses."""

    FLOP = "flop"  #: more flops than successes
    FAILURE = "failure"  #: not flopped, fewer successes than needed
    EXACT = "exact"  #: exactly the successes needed
    EXTRA = "extra"  #: more than needed; the surplus is ``ChallengeRoll.extra``


class Origin(StrEnum):
    """Why a die is in the pool."""

    ROLLED = "rolled"  #: one of the attribute's dice (or an added die)
    STAR = "star"  #: rolled because the die at ``parent`` showed a star
    REPLACEMENT = "replacement"  #: replaces the die at ``parent``, which is now struck


class Reason(StrEnum):
    """Who replaces a die; the rules differ in when they may."""

    MOMENTUM = "momentum"  #: the acting team spends a counter; refused once flopped
    FORCED = "forced"  #: the acting team spends a counter on an opponent's die (p. 5)
    ABILITY = "ability"  #: Agile, Buff, Steady...: resolved before the flop test (G26)


@dataclass(frozen=True)
class Modifier:
    """One named term of the successes needed, e.g. ``Modifier("opponent facing", +1)``."""

    label: str
    value: int

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise MalformedInputError.of("record.modifier_value", text=repr(self.label), text2=repr(self.value))

    def __str__(self) -> str:
        return f"{self.value:+d} {self.label}"

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Modifier:
        try:
            return cls(str(data["label"]), data["value"])
        except (KeyError, TypeError) as exc:
            raise MalformedInputError.of("record.not_modifier", text=repr(data)) from exc


@dataclass(frozen=True)
class Need:
    """Successes needed: a base plus named modifiers, never less than 1 when used.

    ``unclamped`` keeps the raw sum, because an ability (Slippery) reads it.
    """

    base: int
    modifiers: tuple[Modifier, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.base, bool) or not isinstance(self.base, int):
            raise MalformedInputError.of("dice.need_whole", text=repr(self.base))
        object.__setattr__(self, "modifiers", tuple(self.modifiers))

    @property
    def unclamped(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    @property
    def value(self) -> int:
        """The successes actually needed: "treated as needing 1" when the sum is below 1."""
        return max(1, self.unclamped)

    def plus(self, label: str, value: int) -> Need:
        """This need with one more modifier (how an ability changes the target)."""
        return Need(self.base, (*self.modifiers, Modifier(label, value)))

    def __str__(self) -> str:
        if not self.modifiers:
            return str(self.value)
        terms = " ".join(f"{m.value:+d} {m.label}" for m in self.modifiers)
        clamp = ", at least 1" if self.unclamped < 1 else ""
        return f"{self.value} (base {self.base} {terms}{clamp})"

    def to_dict(self) -> dict[str, Any]:
        return {"base": self.base, "modifiers": [m.to_dict() for m in self.modifiers]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Need:
        try:
            return cls(data["base"], tuple(Modifier.from_dict(m) for m in data.get("modifiers", ())))
        except (KeyError, TypeError, AttributeError) as exc:
            raise MalformedInputError.of("record.not_need", text=repr(data)) from exc


@dataclass(frozen=True)
class Die:
    """One roll in the pool, with where it came from."""

    face: Face
    origin: Origin = Origin.ROLLED
    parent: int | None = None  # STAR: index of the star it was rolled for; REPLACEMENT: the die replaced
    reason: Reason | None = None  # REPLACEMENT only
    struck: bool = False  # replaced: kept for the record, no longer counted

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"face": self.face.symbol, "origin": self.origin.value}
        if self.parent is not None:
            data["parent"] = self.parent
        if self.reason is not None:
            data["reason"] = self.reason.value
        if self.struck:
            data["struck"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Die:
        try:
            reason = data.get("reason")
            return cls(
                face=Face.parse(data["face"]),
                origin=Origin(data.get("origin", Origin.ROLLED)),
                parent=None if data.get("parent") is None else int(data["parent"]),
                reason=None if reason is None else Reason(reason),
                struck=bool(data.get("struck", False)),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, ElfballError):
                raise
            raise MalformedInputError.of("record.not_die", text=repr(data)) from exc


@dataclass(frozen=True)
class ChallengeRoll:
    """A rolled challenge: every die with its history, and the outcome it gives.

    Immutable: ``replace`` and ``with_need`` return a new roll.
    """

    need: Need
    dice: tuple[Die, ...]
    star2: bool = False
    #: Successes added after the dice (Pummel, a Zlurpee Keg): counted in ``successes``. Only
    #: ever added to a roll that is neither flopped nor at 0, so it never decides a flop.
    bonus: int = 0

    @classmethod
    def roll(cls, count: int, need: Need | int, source: DiceSource, *, star2: bool = False) -> ChallengeRoll:
        """Roll ``count`` Challenge dice and resolve every star (unless ``star2``)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ElfballError.of("dice.count_negative", text=repr(count))
        if count > MAX_DICE_PER_CHALLENGE:
            raise ElfballError.of("dice.count_max", n=MAX_DICE_PER_CHALLENGE, n2=count)
        dice = [Die(source.face()) for _ in range(count)]
        _resolve_stars(dice, range(count), source, star2)
        return cls(need if isinstance(need, Need) else Need(need), tuple(dice), star2)

    # -- the tally -----------------------------------------------------------------------

    @property
    def count(self) -> int:
        """How many dice were rolled for the attribute (star dice and replacements not counted)."""
        return sum(1 for d in self.dice if d.origin is Origin.ROLLED)

    @property
    def counted(self) -> tuple[Die, ...]:
        """The dice that count: everything but struck (replaced) dice."""
        return tuple(d for d in self.dice if not d.struck)

    @property
    def faces(self) -> tuple[Face, ...]:
        return tuple(d.face for d in self.dice if not d.struck)

    @cached_property
    def successes(self) -> int:
        return self.bonus + sum(d.face.successes(star2=self.star2) for d in self.dice if not d.struck)

    @cached_property
    def flops(self) -> int:
        return sum(1 for d in self.dice if not d.struck and d.face is Face.FLOP)

    @property
    def net(self) -> int:
        return self.successes - self.flops

    @property
    def flopped(self) -> bool:
        """More flops than successes; equal numbers are not a flop (the Catch example)."""
        return self.flops > self.successes

    @property
    def succeeded(self) -> bool:
        return not self.flopped and self.net >= self.need.value

    @property
    def extra(self) -> int:
        """Successes beyond those needed (0 unless the roll succeeded)."""
        return max(0, self.net - self.need.value) if self.succeeded else 0

    @property
    def band(self) -> Band:
        if self.flopped:
            return Band.FLOP
        if self.net < self.need.value:
            return Band.FAILURE
        return Band.EXACT if self.net == self.need.value else Band.EXTRA

    # -- history -------------------------------------------------------------------------

    def star_dice(self, index: int) -> tuple[int, ...]:
        """Indices of the dice rolled because the die at ``index`` showed a star."""
        return tuple(i for i, d in enumerate(self.dice) if d.origin is Origin.STAR and d.parent == index)

    def replacement_of(self, index: int) -> int | None:
        """Index of the die that replaced the die at ``index``, if any."""
        for i, d in enumerate(self.dice):
            if d.origin is Origin.REPLACEMENT and d.parent == index:
                return i
        return None

    # -- changing the roll ---------------------------------------------------------------

    def refusal(self, index: int, reason: Reason | str = Reason.MOMENTUM) -> ElfballError | None:
        """The error ``replace`` would raise for this die, or None if it may be replaced."""
        try:
            why = Reason(reason)
        except ValueError:
            return MalformedInputError.of("die.unknown_reason", text=repr(reason), text2=", ".join(r.value for r in Reason))
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.dice):
            return MalformedInputError.of("die.no_index", text=repr(index), n=len(self.dice) - 1)
        die = self.dice[index]
        if die.struck:
            return IllegalCommandError.of("die.already_replaced", rule=_RULE_MOMENTUM, n=index, face=die.face.symbol)
        if die.origin is Origin.REPLACEMENT:
            return IllegalCommandError.of("die.is_replacement", rule=_RULE_MOMENTUM, n=index, face=die.face.symbol)
        if die.origin is Origin.STAR:
            return IllegalCommandError.of("die.star", rule=_RULE_MOMENTUM, n=index, face=die.face.symbol)
        if why is Reason.MOMENTUM and self.flopped:
            return IllegalCommandError.of("die.flopped", rule=_RULE_MOMENTUM, n=self.flops, n2=self.successes)
        return None

    def can_replace(self, index: int, reason: Reason | str = Reason.MOMENTUM) -> bool:
        """Whether the die at ``index`` may be replaced now (who pays is the caller's concern)."""
        return self.refusal(index, reason) is None

    def replaceable(self, reason: Reason | str = Reason.MOMENTUM) -> tuple[int, ...]:
        """Indices of every die that may be replaced now, for buttons and autocomplete."""
        return tuple(i for i in range(len(self.dice)) if self.refusal(i, reason) is None)

    def replace(self, index: int, source: DiceSource, *, reason: Reason | str = Reason.MOMENTUM) -> ChallengeRoll:
        """Re-roll the die at ``index``; the new die must be used and its stars roll again (G25)."""
        error = self.refusal(index, reason)
        if error is not None:
            raise error
        dice = list(self.dice)
        dice[index] = dataclasses.replace(dice[index], struck=True)
        dice.append(Die(source.face(), Origin.REPLACEMENT, parent=index, reason=Reason(reason)))
        _resolve_stars(dice, (len(dice) - 1,), source, self.star2)
        return ChallengeRoll(self.need, tuple(dice), self.star2, self.bonus)

    def replace_many(
        self, indices: Iterable[int], source: DiceSource, *, reason: Reason | str = Reason.MOMENTUM
    ) -> ChallengeRoll:
        """Replace several dice at once, judged against the roll as it stands before any of them
        (the Catch example: "use two Momentum counters to replace the flop and blank")."""
        chosen = list(dict.fromkeys(indices))
        for i in chosen:
            error = self.refusal(i, reason)
            if error is not None:
                raise error
        dice = list(self.dice)
        for i in chosen:
            dice[i] = dataclasses.replace(dice[i], struck=True)
            dice.append(Die(source.face(), Origin.REPLACEMENT, parent=i, reason=Reason(reason)))
            _resolve_stars(dice, (len(dice) - 1,), source, self.star2)
        return ChallengeRoll(self.need, tuple(dice), self.star2, self.bonus)

    def with_need(self, need: Need | int) -> ChallengeRoll:
        """The same dice against another target (an ability that changes a modifier)."""
        return ChallengeRoll(need if isinstance(need, Need) else Need(need), self.dice, self.star2, self.bonus)

    def with_bonus(self, successes: int) -> ChallengeRoll:
        """The same dice with ``successes`` more (an ability or item that "adds 1 success")."""
        return ChallengeRoll(self.need, self.dice, self.star2, self.bonus + successes)

    # -- storage -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out = {"need": self.need.to_dict(), "star2": self.star2, "dice": [d.to_dict() for d in self.dice]}
        if self.bonus:
            out["bonus"] = self.bonus
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChallengeRoll:
        try:
            dice = tuple(Die.from_dict(d) for d in data["dice"])
            roll = cls(Need.from_dict(data["need"]), dice, bool(data.get("star2", False)), int(data.get("bonus", 0)))
        except (KeyError, TypeError) as exc:
            raise MalformedInputError.of("record.not_roll", text=repr(data)) from exc
        for i, d in enumerate(dice):
            if d.origin is not Origin.ROLLED and (d.parent is None or not 0 <= d.parent < i):
                raise MalformedInputError.of("record.die_parent", n=i)
        return roll

    def __str__(self) -> str:
        return PlainStringifier().roll(self)


def _resolve_stars(dice: list[Die], new: Iterable[int], source: DiceSource, star2: bool) -> None:
    """Roll again for every star among ``new``, breadth first, as the table does it."""
    if star2:
        return  # the optional rule: a star counts 2 and is not rolled again
    frontier = [i for i in new if dice[i].face is Face.STAR]
    while frontier:
        next_frontier = []
        for parent in frontier:
            if len(dice) >= MAX_DICE_PER_CHALLENGE:
                raise DiceScriptError.of("dice.too_many_stars", n=MAX_DICE_PER_CHALLENGE)
            dice.append(Die(source.face(), Origin.STAR, parent=parent))
            if dice[-1].face is Face.STAR:
                next_frontier.append(len(dice) - 1)
        frontier = next_frontier


# -- plain text ------------------------------------------------------------------------
# ``str(roll)`` is the roll's own text, so it lives beside the roll; ``stringify.py`` adds the
# Discord markdown flavour on top of it.


def outcome_text(roll: ChallengeRoll, *, arrow: str = "→") -> str:
    """"flop", "failure", "success, exactly" or "success, 2 extra → Momentum +2" (track max 6)."""
    band = roll.band
    if band is Band.FLOP:
        return "flop"
    if band is Band.FAILURE:
        return "failure"
    if band is Band.EXACT:
        return "success, exactly"
    return f"success, {roll.extra} extra {arrow} Momentum +{min(roll.extra, MOMENTUM_CAP)}"


class PlainStringifier:
    faces: dict[Face, str] = {f: f.symbol for f in Face}
    star_link = ">"
    replaced_by = "=>"
    separator = " "
    arrow = "→"

    def face(self, face: Face) -> str:
        return self.faces[face]

    def struck(self, text: str) -> str:
        return f"({text})"

    def chain(self, roll: ChallengeRoll, index: int) -> str:
        """The die at ``index`` followed by the dice rolled for its stars."""
        die = roll.dice[index]
        text = self.struck(self.face(die.face)) if die.struck else self.face(die.face)
        for child in roll.star_dice(index):
            text += self.star_link + self.chain(roll, child)
        replacement = roll.replacement_of(index)
        if replacement is not None:
            text += self.replaced_by + self.chain(roll, replacement)
        return text

    def dice(self, roll: ChallengeRoll) -> str:
        rolled = [i for i, d in enumerate(roll.dice) if d.origin is Origin.ROLLED]
        text = self.separator.join(self.chain(roll, i) for i in rolled) or "no dice"
        return f"{text} +{roll.bonus}" if roll.bonus else text

    def outcome(self, roll: ChallengeRoll) -> str:
        return outcome_text(roll, arrow=self.arrow)

    def roll(self, roll: ChallengeRoll) -> str:
        return (
            f"{self.dice(roll)}: {roll.successes} successes, {roll.flops} flops, net {roll.net} "
            f"vs {roll.need.value} needed: {self.outcome(roll)}"
        )
