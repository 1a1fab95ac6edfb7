"""Text for a rolled challenge, like d20's stringifiers.

``PlainStringifier`` writes plain text for the console and logs (``X - *>- *>*>O``: a star's
re-rolls follow it after ``>``; a replaced die is shown in parentheses before ``=>`` and its
replacement); it is ``str(roll)``, so it lives beside the roll in ``challenge.py`` and is
re-exported here. ``MarkdownStringifier`` writes Discord markdown: emoji faces, struck-through
replaced dice and a bold outcome.
"""

from __future__ import annotations

from engine.dice.challenge import ChallengeRoll, PlainStringifier, outcome_text
from engine.dice.faces import Face

__all__ = ["MarkdownStringifier", "PlainStringifier", "outcome_text"]


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
