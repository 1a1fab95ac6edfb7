"""What the bot posts for a match: the text, the board and the decision panel.

A panel holds buttons and selects for the coach who must decide (``bot.play.items``). Every item is a
persistent ``DynamicItem`` whose custom id carries the match and the version it was drawn for,
so a click still works after a restart and a click on an old panel is refused as out of date.
Nothing here touches dice or the engine's rules: options come from the engine's legal commands.

``live_post`` draws the message that carries the decision (narration, prompt, board, panel) for a
``service.posts.Piece``; ``closed_text`` the text an earlier action's message keeps. What a board
post gains for trust and reach (the board in words, the revealed seed, the Describe button) is
added by ``decorate``.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.common.i18n import tr
from bot.common.presses import press_close_up, press_describe
from bot.play.items import ARROWS, arrow, build_view, reroll_odds
from service.accessibility import alt_text
from service.matches import AI_COACH_ID, Outcome
from service.names import ping_only, safe_name
from service.verify import reveal_text
from service.vocabulary import MatchState, odds, reroll_chance, roll_succeeded, worst_dice

__all__ = ["Post", "picture_digest", "build_post", "live_post", "lesson_closed", "closed_text", "coach_of", "decorate", "DescribeButton", "CloseUpButton", "words_embed",
           "ARROWS", "arrow", "reroll_odds", "EMBED_LIMIT", "literal_names"]

MAX_TEXT = 1900  # Discord allows 2000 characters per message


@dataclass
class Post:
    content: str
    file: discord.File | None
    view: discord.ui.View | None
    mention: int | None  # the coach to ping, if the decision passed to him
    embeds: list[discord.Embed] = field(default_factory=list)  # the board in words, the revealed seed
    #: Pictures after the board (the action view).
    extra_files: list[discord.File] = field(default_factory=list)
    #: Each picture's digest by file name (``picture_digest``): an edit keeps a picture the message
    #: already shows instead of uploading the same bytes again (``bot.play.poster``).
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def files(self) -> list[discord.File]:
        """The pictures in the order the message shows them: the board, then the close-up."""
        return ([self.file] if self.file is not None else []) + list(self.extra_files)


def picture_digest(data: bytes) -> str:
    """A short digest of a picture's bytes: equal digests, the same picture."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def coach_of(outcome: Outcome, side: str | None) -> int | None:
    m = outcome.match
    if side is None:
        return None
    return m.west_coach_id if side == "west" else m.east_coach_id


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



def _mention_prompt(outcome: Outcome, language: str) -> str:
    """``**<@coach> — West (Gnolls): choose a player**``: the mention shows who decides; it
    notifies only when the post says so (``Post.mention`` and the reply's allowed mentions)."""
    coach = coach_of(outcome, outcome.deciding_side)
    prompt = outcome.prompt_in(language)
    if coach not in (None, AI_COACH_ID) and not outcome.finished:
        prompt = f"<@{coach}> — {prompt}"
    return f"**{prompt}**"


def _fit(head: list[str], lines: list[str], tail: list[str], language: str) -> str:
    """Head, narration and tail within Discord's limit: the oldest narration lines give way."""
    text = "\n".join([*head, *lines, *tail])
    if len(text) <= MAX_TEXT:
        return text
    room = MAX_TEXT - len("\n".join([*head, *tail])) - 80
    kept: list[str] = []
    for line in reversed(lines):
        room -= len(line) + 1
        if room < 0:
            break
        kept.insert(0, line)
    return "\n".join([*head, tr(language, "post.clipped_above"), *kept, *tail])[:MAX_TEXT]


def lesson_closed(outcome: Outcome) -> bool:
    """A lesson's try that just ended (the goal reached or the try over): its match is closed, so
    its last board has no panel and no prompt; the lesson's verdict follows it (``bot.learn``)."""
    return outcome.lesson is not None and outcome.lesson.status in ("done", "try_over")


def live_post(outcome: Outcome, piece: Any, language: str = "en", *, notice: str = "") -> Post:
    """The message that carries the decision: the action's narration (``piece.lines``), the
    prompt, the odds of a re-roll, the board, the panel and the trust extras."""
    head = [x for x in (piece.header, notice) if x]
    closed = lesson_closed(outcome)
    tail = ([tr(language, f"learn.try_closed.{outcome.lesson.status}")] if closed and outcome.lesson is not None
            else [_mention_prompt(outcome, language)])
    extra = None if closed else odds_hint(outcome.state, language)
    if extra:
        tail.append(extra)
    png = outcome.png_in(language)
    file = discord.File(io.BytesIO(png), filename="board.png", description=_alt(outcome, language)[:1024]) if png else None
    coach = coach_of(outcome, outcome.deciding_side)
    view = None if outcome.finished or closed or coach in (None, AI_COACH_ID) else build_view(outcome, language)
    # Names are the members' words: only the coaches' own mentions stay mentions (a team or player
    # named like a mention shows as text, and nothing else in a post could ping).
    coaches = (outcome.match.west_coach_id, outcome.match.east_coach_id)
    text = ping_only(literal_names(_fit(head, list(piece.lines), tail, language), outcome.state), coaches)
    post = Post(text, file, view, piece.mention)
    if png:
        post.digests["board.png"] = picture_digest(png)
    close_up = getattr(outcome, "close_up_in", None)
    if close_up is not None:
        picture = close_up(language)
        if picture is not None:
            data, alt = picture
            post.extra_files.append(discord.File(io.BytesIO(data), filename="close-up.png", description=alt[:1024]))
            post.digests["close-up.png"] = picture_digest(data)
    return decorate(post, outcome, language)


def closed_text(piece: Any, language: str = "en", coaches: tuple[int, ...] = (), state: MatchState | None = None) -> str:
    """What an earlier action's message keeps: its header and narration (its board stays as it
    was drawn; its panel goes). Only ``coaches``' mentions stay mentions."""
    head = [piece.header] if piece.header else []
    text = _fit(head, list(piece.lines), [], language)
    if state is not None:
        text = literal_names(text, state)
    return ping_only(text, coaches) or tr(language, "post.closed")


def literal_names(text: str, state: MatchState) -> str:
    """Team and player names as their members typed them, by ``service.names.safe_name`` (the one
    helper every post uses): a ``*`` or ``_`` shows as itself instead of turning the rest of the
    line italic, a ``[text](link)`` is no masked link, a ``#`` no heading."""
    names = {t.name for t in state.teams.values()} | {p.name for p in state.players.values()}
    shown = {n: s for n in names if (s := safe_name(n)) != n}
    if not shown:
        return text
    # One pass, a name already shown safe (a line built with safe_name) matched first and kept
    # as it is, so nothing is escaped twice (``\# Heading`` would show a stray backslash).
    forms = {f: s for n, s in shown.items() for f in (s, n)}
    pattern = re.compile("|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True)))
    return pattern.sub(lambda m: forms[m.group(0)], text)


# --- trust and reach on every board post -------------------------------------------------------
#: Discord's limit on an embed's description.
EMBED_LIMIT = 4096


def words_embed(text: str, language: str = "en") -> discord.Embed:
    """The board in words, as an embed (screen readers)."""
    if len(text) > EMBED_LIMIT:
        text = text[: EMBED_LIMIT - 2] + " …"
    return discord.Embed(title=tr(language, "trust.words_title"), description=text)


def decorate(post: Post, outcome: Outcome, language: str = "en") -> Post:
    """The words for a screen-reader coach's match, the seed once the match is over, and the
    Describe button on every panel."""
    if outcome.description:
        post.embeds.append(words_embed(outcome.description_in(language) or outcome.description, language))
    if outcome.finished:  # the store has revealed the seed with the final state
        reveal = reveal_text(outcome.match.id, getattr(outcome.match, "seed", None), language=language)
        if reveal:
            post.embeds.append(discord.Embed(title=tr(language, "trust.check_dice"), description=reveal))
    if post.view is not None and not outcome.description:
        try:
            post.view.add_item(DescribeButton(outcome.match.id, language))
        except ValueError:  # a full panel: /match describe says the same
            pass
    if post.view is not None and not any(f.filename == "close-up.png" for f in post.extra_files):
        try:
            post.view.add_item(CloseUpButton(outcome.match.id, language))
        except ValueError:  # a full panel: /preferences close_up:True puts it in the post
            pass
    return post


class DescribeButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-describe:(?P<match>[0-9]+)"):
    """Anyone may press it: the match's current position in words, privately (the trust
    extension answers, through ``bot.common.presses``)."""

    def __init__(self, match_id: int, language: str = "en") -> None:
        super().__init__(discord.ui.Button(label=tr(language, "trust.describe"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"elfball-describe:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> DescribeButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await press_describe(interaction, self.match_id)


class CloseUpButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-closeup:(?P<match>[0-9]+)"):
    """On a panel whose post carries the board only: anyone may press it and sees, privately,
    the close-up of the decision as it stands (the trust extension answers, through
    ``bot.common.presses``). The channel's message stays the board alone (docs/discord.md)."""

    def __init__(self, match_id: int, language: str = "en") -> None:
        super().__init__(discord.ui.Button(label=tr(language, "trust.close_up"), style=discord.ButtonStyle.secondary,
                                           emoji="\N{LEFT-POINTING MAGNIFYING GLASS}",
                                           custom_id=f"elfball-closeup:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> CloseUpButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await press_close_up(interaction, self.match_id)
