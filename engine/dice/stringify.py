"""Text for a rolled challenge, kept out of the core like d20's stringifiers.

``PlainStringifier`` writes plain text for the console and logs (``X - *>- *>*>O``: a star's
re-rolls follow it after ``>``; a replaced die is shown in parentheses before ``=>`` and its
replacement). ``MarkdownStringifier`` writes Discord markdown: emoji faces, struck-through
replaced dice and a bold outcome.
"""

from __future__ import annotations

from engine.dice.challenge import Band, ChallengeRoll, Origin
from engine.dice.faces import Face
from engine.dice.odds import MOMENTUM_CAP

__all__ = ["MarkdownStringifier", "PlainStringifier", "outcome_text"]


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


class MarkdownStringifier(PlainStringifier):
    faces = {Face.FLOP: "❌", Face.BLANK: "⬜", Face.STAR: "⭐", Face.BULLSEYE: "🎯"}
    star_link = "→"
    replaced_by = " ⇒ "
    separator = "  "
    arrow = "→"

    def struck(self, text: str) -> str:
        return f"~~{text}~~"

    def outcome(self, roll: ChallengeRoll) -> str:
        return f"**{outcome_text(roll, arrow=self.arrow)}**"
