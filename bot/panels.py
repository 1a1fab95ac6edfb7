"""What the bot posts after every command: the text, the board and the decision panel.

A panel holds buttons and selects for the coach who must decide. Every item is a persistent
``DynamicItem`` whose custom id carries the match and the version it was drawn for
(``elfball:<verb>:<match>:<version>[:<arg>]``), so a click still works after a restart and a
click on an old panel is refused as out of date. Nothing here touches dice or the engine's
rules: options come from the engine's legal commands, and pressing a button sends the same
command the slash commands send.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import discord

from engine.dice.odds import odds
from engine.preview import reroll_chance, roll_succeeded, worst_dice
from engine.hexes import Direction
from engine.state import MatchState
from service.accessibility import alt_text
from service.matches import AI_COACH_ID, Outcome

from .i18n import tr

__all__ = ["Post", "build_post", "coach_of", "ARROWS", "arrow", "reroll_odds"]

#: Each direction's arrow; ``arrow`` adds its letters in the reader's language (``↖ NO``).
ARROWS = {
    Direction.NW: "↖",
    Direction.NE: "↗",
    Direction.W: "←",
    Direction.E: "→",
    Direction.SW: "↙",
    Direction.SE: "↘",
}


def arrow(d: Direction, language: str = "en") -> str:
    """``↖ NW`` (``↖ NO`` in French): a direction on a button."""
    return f"{ARROWS[d]} {tr(language, 'dir.' + d.name)}"


MAX_TEXT = 1900  # Discord allows 2000 characters per message


@dataclass
class Post:
    content: str
    file: discord.File | None
    view: discord.ui.View | None
    mention: int | None  # the coach to ping, if the decision passed to him
    embeds: list[discord.Embed] = field(default_factory=list)  # the board in words, the revealed seed


def coach_of(outcome: Outcome, side: str | None) -> int | None:
    m = outcome.match
    if side is None:
        return None
    return m.west_coach_id if side == "west" else m.east_coach_id


def reroll_odds(question: dict, indices: list[int]) -> float:
    return reroll_chance(question, indices)


def _clip(lines: list[str], language: str = "en") -> str:
    text = "\n".join(lines)
    if len(text) <= MAX_TEXT:
        return text
    head = text[: MAX_TEXT - 60]
    return head[: head.rfind("\n")] + "\n" + tr(language, "post.clipped")


def build_post(outcome: Outcome, *, previous_side: str | None = None, header: str | None = None,
               language: str = "en") -> Post:
    """The message for ``outcome`` in ``language``: narration, prompt (with a mention when the
    turn changes hands), the board PNG and the panel for the deciding coach."""
    from .items import build_view  # the items module registers the persistent templates
    from .trust import decorate

    side = outcome.deciding_side
    coach = coach_of(outcome, side)
    mention = coach if coach not in (None, AI_COACH_ID) and side != previous_side else None
    lines = ([header] if header else []) + list(outcome.lines_in(language)[-30:])
    prompt = outcome.prompt_in(language)
    if coach not in (None, AI_COACH_ID):
        prompt = f"<@{coach}> — {prompt}"
    lines.append(f"**{prompt}**")
    extra = odds_hint(outcome.state, language)
    if extra:
        lines.append(extra)
    png = outcome.png_in(language)
    file = discord.File(io.BytesIO(png), filename="board.png", description=_alt(outcome, language)) if png else None
    view = None if outcome.finished or coach in (None, AI_COACH_ID) else build_view(outcome, language)
    return decorate(Post(_clip(lines, language), file, view, mention), outcome, language)


def _alt(outcome: Outcome, language: str = "en") -> str:
    return alt_text(outcome.state, outcome.prompt_in(language), language)


def odds_hint(state: MatchState, language: str = "en") -> str | None:
    """Before a re-roll: the chance the simplest choices give (from the engine's preview)."""
    ip = state.in_progress
    if ip is None or not ip.question or ip.question.get("kind") != "reroll":
        return None
    q = ip.question
    worst = worst_dice(q)
    now = 1.0 if roll_succeeded(q) else 0.0
    if not worst:
        return tr(language, "odds.keeping.success" if now else "odds.keeping.failure")
    return tr(language, "odds.keep_or_reroll", now=f"{now:.0%}", count=len(worst), dice=", ".join(map(str, worst)),
              chance=f"{reroll_chance(q, worst):.0%}")


def challenge_odds_line(dice: int, need: int, star2: bool, momentum: int = 0, *, language: str = "en") -> str:
    o = odds(dice, need, star2=star2, momentum=momentum)
    return tr(language, "odds.line", dice=dice, need=need, success=f"{o.success:.0%}", flop=f"{o.flop:.0%}")

