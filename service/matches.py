"""The match service: what a coach's command does, whatever he typed it into.

Load the channel's match, read the command (typed text or an engine command), apply it through
the engine with the match's dice, save state and log in one transaction, let the AI coach take
its decisions if it is playing, render the board, and answer with text, a PNG and the next
prompt. The Discord bot and the local console both call this; neither touches the engine, the
dice or the database directly.

Synchronous by design: the bot runs each call in a worker thread (``asyncio.to_thread``), so the
database, the rules and the rendering all stay off its event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlmodel import Session

from db import abandon as abandon_votes
from db import leagues as db_leagues
from db import matches as store
from db import settings as db_settings
from db.abandon import AbandonVote
from db.engine import session_scope
from db.errors import InvalidInputError, MatchChangedError, MatchNotFoundError
from db.models.match import MatchPublic
from engine import (
    Catalogue,
    Command,
    Concede,
    Term,
    Undo,
    DEFAULT_LANGUAGE,
    Event,
    MatchEnded,
    MatchState,
    Pending,
    Phase,
    RuleOptions,
    Side,
    describe_question,
    event_from_dict,
    load_text,
    narrate_events,
    pending,
    phrase,
)
from ai import AICoach, make_ai

from . import authority
from . import posts
from . import match_rules as rules
from .accessibility import board_words, close_up_wanted, screen_reader_wanted
from .drawing import BOARD_WIDTH, Drawing
from .grammar import parse, verb_name
from .lesson_book import LessonNote
from .match_rules import MatchSide

__all__ = ["AI_COACH_ID", "ai_level", "catalogue", "dice_unverifiable", "MatchSide", "Outcome", "Said", "said",
           "MatchService", "prompt_for", "side_names"]

log = logging.getLogger("elfball.service")

#: The coach id of the AI: the console's and the bot's own opponent.
AI_COACH_ID = 0


def ai_level(match: MatchPublic) -> str | None:
    """The AI coach's level stored with ``match`` (None for a match stored before levels)."""
    level = (match.options or {}).get("ai_level")
    return level if isinstance(level, str) else None


def dice_unverifiable(match: MatchPublic) -> bool:
    """Whether ``match`` ended without revealing its seed: abandoned after the dice key was lost
    (``db.matches.abandon``), its dice can never be checked."""
    return store.dice_unverifiable(match)


#: Decisions the AI may take in a row before handing back (a whole action is ~10).
MAX_AI_COMMANDS = 400
#: How long a coach has before the bot reminds him that a decision is waiting.
DEFAULT_REMINDER = timedelta(hours=24)

def catalogue(language: str) -> Catalogue:
    """The service's words in ``language`` (``service/text/<language>.json``)."""
    return Catalogue("service", "text", language)


class Said(str):
    """A line written in English that keeps its service catalogue key and values, so that
    ``Outcome.lines_in`` can say it again in another language (a finish listener's lines)."""

    key: str
    values: dict[str, Any]

    def in_language(self, language: str) -> str:
        """The line again in ``language``."""
        return note_text(language, self.key, self.values)


def said(key: str, /, **values: Any) -> Said:
    """The service's line ``key`` in English, able to be said again in another language."""
    line = Said(note_text(DEFAULT_LANGUAGE, key, values))
    line.key, line.values = key, values
    return line


def note_text(language: str, key: str, values: Mapping[str, Any]) -> str:
    """A note of the service (``note.undo``…) in ``language``; a ``side`` value is named."""
    tx = catalogue(language)
    side = values.get("side")
    return tx.t(key, **{**values, **({"side": tx.get(f"side.{side}", str(side))} if side else {})})


def side_names(state: MatchState, language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """``West (Night Elves)`` for each side, in ``language``."""
    tx = catalogue(language)
    return {s: tx.t("prompt.side", side=tx.t(f"side.{s}"), team=state.teams[s].name) for s in ("west", "east")}


def prompt_for(state: MatchState, names: Mapping[str, str] | None = None, *, language: str = DEFAULT_LANGUAGE) -> str:
    """One line: who must decide what now (in ``language``)."""
    tx = catalogue(language)
    pend = pending(state)
    if state.phase is Phase.MATCH_OVER:
        w, e = state.teams["west"].score, state.teams["east"].score
        result = tx.t("prompt.result.draw") if state.winner == "draw" else tx.t(
            "prompt.result.win", team=state.teams[state.winner].name)  # type: ignore[index]  # a stored or finished side is 'west' or 'east'
        reason = phrase(load_text("engine", "data/text", language), state.end_reason or "") if language != DEFAULT_LANGUAGE else state.end_reason
        return tx.t("prompt.match_over", result=result, west=w, east=e, reason=reason)
    who = (names or {}).get(pend.side or "", tx.get(f"side.{pend.side}", (pend.side or "").title()))
    if pend.question is not None:
        return describe_question(pend.question, state, language=language)
    extra = ""
    if pend.kind == "action" and state.action is not None:
        p = state.players[state.action.player]
        extra = tx.t("prompt.jog_left", player=p.name, jog=state.action.jog_left)
    return tx.t("prompt.line", who=who, what=tx.get(f"prompt.{pend.kind}", pend.kind), extra=extra)


@dataclass
class Outcome:
    """What a command produced, ready for any transport."""

    match: MatchPublic
    state: MatchState
    events: list[Event] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    prompt: str = ""
    png: bytes | None = None
    view: MatchState | None = None
    #: The position in words, when a coach of the match asked for it (screen readers).
    description: str | None = None
    #: Lines that are not events (an undo, a forfeit): service catalogue keys and their values,
    #: shown before the narration; ``lines`` has them in English.
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    #: Lines the finish listeners added (the league's), after the narration, as they wrote them.
    after: list[str] = field(default_factory=list)
    #: The language of ``png``'s panels (the match's server's, see ``MatchService.language_for``).
    png_language: str = DEFAULT_LANGUAGE
    #: Draws the board in another language; set by the service.
    renderer: Callable[[str], bytes] | None = field(default=None, repr=False, compare=False)
    _pictures: dict[str, bytes] = field(default_factory=dict, repr=False, compare=False)
    #: Draws the close-up of the action and its alt text in a language (None: not wanted, or
    #: nothing to show); the service draws it once in ``png_language``.
    close_up_renderer: Callable[[str], tuple[bytes, str] | None] | None = field(default=None, repr=False, compare=False)
    _close_ups: dict[str, tuple[bytes, str] | None] = field(default_factory=dict, repr=False, compare=False)
    #: In a lesson's match (``service.lessons``): where the lesson stands; None in a match.
    lesson: LessonNote | None = None
    #: The match's live message and log as the command's transaction read them (``posts.read_ahead``).
    post_read: posts.PostRead | None = field(default=None, repr=False, compare=False)

    def close_up_in(self, language: str) -> tuple[bytes, str] | None:
        """The close-up of the action (PNG, alt text) in ``language``, when the deciding coach
        wants it and there is something to show."""
        if self.close_up_renderer is None:
            return None
        if language not in self._close_ups:
            self._close_ups[language] = self.close_up_renderer(language)
        return self._close_ups[language]

    def png_in(self, language: str) -> bytes | None:
        """The board picture with its panels' words in ``language``: ``png`` when it is already
        in that language, else drawn once on demand."""
        if language == self.png_language or self.png is None or self.renderer is None:
            return self.png
        if language not in self._pictures:
            self._pictures[language] = self.renderer(language)
        return self._pictures[language]

    def lines_in(self, language: str) -> list[str]:
        """``lines`` in ``language``: the notes and the narration again in its words."""
        if language == DEFAULT_LANGUAGE:
            return self.lines
        after = [x.in_language(language) if isinstance(x, Said) else x for x in self.after]
        return [note_text(language, k, v) for k, v in self.notes] + narrate_events(self.events, self.state, language=language) + after

    def prompt_in(self, language: str) -> str:
        """``prompt`` in ``language``."""
        if language == DEFAULT_LANGUAGE:
            return self.prompt
        return prompt_for(self.state, side_names(self.state, language), language=language)

    def description_in(self, language: str) -> str | None:
        """``description`` (the board in words, when wanted) in ``language``."""
        if self.description is None or language == DEFAULT_LANGUAGE:
            return self.description
        return board_words(self.state, view=self.view, language=language)

    @property
    def pending(self) -> Pending:
        return pending(self.state)

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.MATCH_OVER

    @property
    def deciding_side(self) -> Side | None:
        return self.pending.side


SessionFactory = Callable[[], AbstractContextManager[Session]]


class MatchService:
    def __init__(
        self,
        *,
        sessions: SessionFactory = session_scope,
        render: bool = True,
        width: int = BOARD_WIDTH,
        ai: AICoach | None = None,
        reminder_after: timedelta = DEFAULT_REMINDER,
        clock: Callable[[], datetime] | None = None,
        language_for: Callable[[MatchPublic], str] | None = None,
        close_ups: bool = False,
        drawing: Drawing | None = None,
    ) -> None:
        self.sessions = sessions
        self.render = render
        self.width = width
        #: The AI coach of a match stored without a level (every match before levels existed
        #: played the heuristic); a coach passed in plays every match, whatever its level (tests).
        self.ai = ai or AICoach()
        self._fixed_ai = ai is not None
        self._level_coaches: dict[str, AICoach] = {}
        self.reminder_after = reminder_after
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        #: The language a match's board picture is drawn in (its server's, for the bot); English
        #: when unset. The words of an outcome are said in any language by ``Outcome.*_in``.
        self.language_for = language_for
        #: Draw the close-up of the action for the deciding coach (the bot; phones read it).
        self.close_ups = close_ups
        #: Where the pictures are drawn: here, or in worker processes (``service.drawing``).
        self.drawing = drawing or Drawing()
        #: Called with the match and its final state when a command ends it (the league records
        #: its result); the lines they return join the outcome.
        self.on_finish: list[Callable[[MatchPublic, MatchState], list[str]]] = []
        #: Called with the outcome of each coach's command (and undo) before the AI plays on:
        #: the lessons judge their goal here (``service.lessons``). Each returns the outcome.
        self.after_command: list[Callable[[Outcome], Outcome]] = []

    def warm_pictures(self) -> None:
        """Draw a board and a close-up once, so their cached fields are ready before the first
        coach's command (the first close-up costs about a second; then a few milliseconds)."""
        if self.render:
            self.drawing.warm(self.width, self.close_ups)

    def close(self) -> None:
        """Stop the picture workers, if any (the bot, when it closes)."""
        self.drawing.close()

    def next_deadline(self) -> datetime:
        """When to remind the coach who must decide next (stored with the match, so a restart
        or another process sees it)."""
        return self.clock() + self.reminder_after

    def due_reminders(self, *, accept: Callable[[MatchPublic], bool] = lambda m: True,
                      limit: int = 50) -> list[tuple[MatchPublic, str]]:
        """Matches whose deciding coach should be reminded now, each claimed for this caller
        only, with the prompt to send. ``accept``: which matches this process serves (its
        Discord shards); the others are left for their own process to claim."""
        out: list[tuple[MatchPublic, str]] = []
        for resumed in self.resume_waiting_ai(accept=accept, limit=limit):
            if not resumed.finished:  # the AI played on: tell the coach it is his turn again
                out.append((resumed.match, resumed.prompt))
        now = self.clock()
        skipped = 0  # due matches of other processes stay due: page past them, or they hide ours
        with self.sessions() as s:
            while len(out) < limit:
                page = store.due_matches(session=s, now=now, limit=limit, offset=skipped)
                for m in page:
                    if len(out) == limit:
                        break
                    if m.deadline is None or not accept(m) or m.deciding_user_id == AI_COACH_ID:
                        skipped += 1  # (an AI that failed again is retried above, not reminded)
                    elif store.claim_reminder(session=s, match_id=m.id, seen_deadline=m.deadline,
                                              next_deadline=now + self.reminder_after):
                        out.append((m, prompt_for(m.engine_state())))
                if len(page) < limit:
                    break
        return out

    # -- starting -----------------------------------------------------------------------------
    def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        west: MatchSide,
        east: MatchSide,
        options: RuleOptions | Mapping[str, Any] | None = None,
        seed: str | None = None,
        before: Callable[[Session], Any] | None = None,
        ai_level: str | None = None,
    ) -> Outcome:
        """Start a match in ``channel_id``. ``before(session)`` runs in the same transaction
        first (the bot uses up the accepted challenge there: both happen or neither); what it
        returns, if anything, is the match's dice seed (the challenge's committed secret joined
        with the coaches' entropy, ``engine.dice.commit``). ``seed`` likewise; else a fresh
        secret is drawn.
        ``ai_level``: the AI coach's level for a match against it (stored with the match)."""
        with self.sessions() as s:
            committed = before(s) if before is not None else None
            applied = rules.create_match(session=s, guild_id=guild_id, channel_id=channel_id, west=west, east=east,
                                         options=options, seed=committed or seed, deadline=self.next_deadline(),
                                         ai_level=ai_level)
        out = self._outcome(applied.match, applied.state, list(applied.result.events), applied.result.view)
        return self._finished(self._run_ai(out))

    # -- reading ------------------------------------------------------------------------------
    def current(self, channel_id: int) -> MatchPublic:
        """The channel's active match, after the AI coach played on if the match waited on it."""
        m = self._active(channel_id)
        resumed = self.resume_ai(m)
        return m if resumed is None else resumed.match

    def _active(self, channel_id: int) -> MatchPublic:
        with self.sessions() as s:
            m = store.active_match(session=s, channel_id=channel_id)
        if m is None:
            raise MatchNotFoundError("there_no_active_match_channel")
        return m

    def current_or_none(self, channel_id: int) -> MatchPublic | None:
        with self.sessions() as s:
            return store.active_match(session=s, channel_id=channel_id)

    def latest(self, channel_id: int) -> MatchPublic:
        """The channel's active match, or else the last one played there (replays of finished matches)."""
        with self.sessions() as s:
            m = store.active_match(session=s, channel_id=channel_id) or store.latest_match(session=s, channel_id=channel_id)
        if m is None:
            raise MatchNotFoundError("no_match_been_played_channel")
        return m

    def present(self, match: MatchPublic, state: MatchState, events: list[Event] | None = None,
                view: MatchState | None = None) -> Outcome:
        """The outcome for ``match`` at ``state`` (its board drawn, its prompt), for a caller that
        changed the match itself (a lesson started)."""
        return self._outcome(match, state, list(events or ()), view)

    def snapshot(self, match_id: int) -> Outcome:
        """A match as it stands, active or over (the owed-board sweep posts it)."""
        with self.sessions() as s:
            m = store.get_match(session=s, match_id=match_id)
        return self._outcome(m, m.engine_state(), [], None)

    def status(self, channel_id: int) -> Outcome:
        m = self._active(channel_id)
        resumed = self.resume_ai(m)  # the AI's moves since are part of what the coach is shown
        if resumed is not None:
            return resumed
        state = m.engine_state()
        return self._outcome(m, state, [], None)

    def side_of(self, match: MatchPublic, user_id: int) -> Side:
        """Which side ``user_id`` plays; in a hot-seat match (one coach for both), the deciding side.
        Refused if he coaches neither (``authority.coach_side``)."""
        return authority.coach_side(match, user_id)

    def log(self, channel_id: int, *, last: int | None = None, language: str = DEFAULT_LANGUAGE) -> list[str]:
        m = self.current(channel_id)
        with self.sessions() as s:
            rows = store.match_events(session=s, match_id=m.id)
        state = m.engine_state()
        events = [event_from_dict(e) for r in rows for e in r.events]
        lines = narrate_events(events, state, language=language)
        return lines[-last:] if last else lines

    # -- acting ---------------------------------------------------------------------------------
    def read(self, channel_id: int, user_id: int, text: str, *, as_side: Side | None = None,
             match: MatchPublic | None = None) -> Command:
        """The engine command a coach typed (the console's grammar, in any of its languages),
        read against the match as it stands and the side he speaks for; ``undo`` is ``Undo``.
        ``as_side`` and ``match`` as for ``act``: pass the same ``match`` to both so the command
        is applied to the version it was read against."""
        if len(text.split()) == 1 and verb_name(text.strip()) == "undo":
            return Undo()
        m = self._loaded(channel_id, match)
        return parse(text, m.engine_state(), authority.coach_side(m, user_id, as_side))

    def build(self, channel_id: int, user_id: int, command: Command | Callable[[MatchState, Side], Command], *,
              as_side: Side | None = None, match: MatchPublic | None = None) -> Command:
        """The engine command of a builder of the position and the coach's side (the bot's typed
        options, ``service.typed``); an engine command as it is. ``as_side`` and ``match`` as for
        ``act``."""
        if isinstance(command, Command):
            return command
        m = self._loaded(channel_id, match)
        return command(m.engine_state(), authority.coach_side(m, user_id, as_side))

    def _loaded(self, channel_id: int, match: MatchPublic | None) -> MatchPublic:
        """``match`` if the caller loaded it (it must be the channel's), else the channel's."""
        if match is not None and match.channel_id != channel_id:
            raise ValueError(f"match #{match.id} is not channel {channel_id}'s")
        return match if match is not None else self.current(channel_id)

    def act(
        self,
        channel_id: int,
        user_id: int,
        command: Command,
        *,
        expected_version: int | None = None,
        as_side: Side | None = None,
        match: MatchPublic | None = None,
    ) -> Outcome:
        """Apply one engine command of ``user_id`` in ``channel_id``'s match, then the AI's replies.

        ``command``: an engine command; ``Undo`` takes back a step (``undo``). Typed text is
        read first (``read``), a builder of typed options built first (``build``).

        ``as_side``: for a coach who plays both sides (hot-seat), which one speaks; by default
        the side the match waits on.

        ``match``: the channel's active match as the caller just loaded it (``current``), so it
        is not loaded again; the write still refuses it if another command was saved since.
        """
        if not isinstance(command, Command):
            raise TypeError(f"not an engine command: {command!r}")  # read typed text first
        if isinstance(command, Undo):
            return self.undo(channel_id, user_id, expected_version=expected_version)
        m = self._loaded(channel_id, match)
        side = authority.coach_side(m, user_id, as_side)
        # The command was read against this version (a path of directions, the hot-seat side):
        # if another click was saved meanwhile, refuse it rather than apply it to a newer state.
        seen = m.version if expected_version is None else expected_version
        with self.sessions() as s:
            applied = rules.submit(session=s, match_id=m.id, by_side=side, actor_user_id=user_id, command=command,
                                   expected_version=seen, deadline=self.next_deadline(), known=m, commit=False)
            # In the write's transaction, what the answer needs: both coaches' preferences (the
            # board in words, the close-up, the post's language: one statement instead of a
            # transaction and a read each), and the live message and log of this version
            # (``posts.plan_for``). Then the move is committed.
            db_settings.remember_coach_preferences(session=s, user_ids=(m.west_coach_id, m.east_coach_id))
            read = posts.read_ahead(s, applied.match)
            s.commit()
        out = self._after_command(self._outcome(applied.match, applied.state, list(applied.result.events),
                                                applied.result.view))
        out.post_read = read
        return self._finished(self._run_ai(out))

    def _after_command(self, out: Outcome) -> Outcome:
        for hook in self.after_command:
            out = hook(out)
        return out

    def undo(self, channel_id: int, user_id: int, *, expected_version: int | None = None) -> Outcome:
        """Take back the acting coach's last step or turn, until a die is rolled in the action.

        ``expected_version``: the version the coach was shown (a panel's); a second click on the
        same Undo is refused instead of taking back one more step.
        """
        m = self.current(channel_id)
        side = authority.acting_coach_side(m, user_id)
        with self.sessions() as s:
            applied = rules.undo(session=s, match_id=m.id, by_side=side, actor_user_id=user_id,
                                 expected_version=m.version if expected_version is None else expected_version,
                                 deadline=self.next_deadline())
        out = self._outcome(applied.match, applied.state, [], None)
        out.notes = [("note.undo", {})]
        out.lines = [note_text(DEFAULT_LANGUAGE, "note.undo", {})]
        return self._after_command(out)

    def forfeit(self, channel_id: int, moderator_id: int) -> Outcome:
        """A moderator confirms that the deciding coach ran out of his clock: that side concedes.
        Not in a match he plays (``authority.require_moderator_not_playing``)."""
        m = self.current(channel_id)
        authority.require_moderator_not_playing(m, moderator_id)
        state = m.engine_state()
        hours = state.options.clock_hours
        if not hours:
            raise InvalidInputError("match_no_clock_abandon_instead")
        side = pending(state).side
        waited = self.clock() - m.updated_at
        left = timedelta(hours=hours) - waited
        if left > timedelta(0):
            h, rem = divmod(int(left.total_seconds()), 3600)
            raise InvalidInputError("side_has_time", side=Term("side", str(side)), n=h, n2=rem // 60)
        with self.sessions() as s:
            # Only the version whose clock ran out: if the coach acted meanwhile, nothing is conceded.
            applied = rules.submit(session=s, match_id=m.id, by_side=side or "west", actor_user_id=None,
                                   command=Concede(), expected_version=m.version)
            # A league match's result decided by a moderator: in its league's audit, with who.
            db_leagues.audit_league_match(session=s, match_id=m.id, action="forfeit_declared", actor_id=moderator_id,
                                          detail={"hours": hours})
        out = self._outcome(applied.match, applied.state, list(applied.result.events), None)
        out.notes.insert(0, ("note.forfeit", {"side": side, "hours": hours, "moderator": moderator_id}))
        out.lines.insert(0, note_text(DEFAULT_LANGUAGE, *out.notes[0]))
        return self._finished(out)

    def concede(self, channel_id: int, user_id: int, *, as_side: Side | None = None) -> Outcome:
        return self.act(channel_id, user_id, Concede(), as_side=as_side)

    def vote_abandon(self, channel_id: int, user_id: int, *, reason: str = "both coaches agreed",
                     match: MatchPublic | None = None) -> AbandonVote:
        """``user_id``, a coach of the channel's match (``authority.require_match_coach``), votes to
        abandon it; the last human coach's vote ends it (``db.abandon``: exactly one caller)."""
        m = self._loaded(channel_id, match)
        authority.require_match_coach(m, user_id)
        coaches = frozenset({m.west_coach_id, m.east_coach_id} - {AI_COACH_ID})
        with self.sessions() as s:
            return abandon_votes.vote_abandon(session=s, match_id=m.id, user_id=user_id, coaches=coaches, reason=reason)

    def abandon(self, channel_id: int, user_id: int | None, reason: str = "") -> MatchPublic:
        """End the channel's match without a result (who may is the caller's to check). Its seed
        is revealed; if the dice key was lost the match ends all the same, its seed sealed for
        good (``dice_unverifiable``), so the channel and the teams are freed."""
        m = self.current(channel_id)
        with self.sessions() as s:
            return store.abandon(session=s, match_id=m.id, actor_user_id=user_id, reason=reason)

    # -- the AI coach -------------------------------------------------------------------------
    def coach_for(self, match: MatchPublic) -> AICoach:
        """The AI coach of ``match``: the level its challenge picked (``ai_level`` in its
        stored options), the same after a restart; the service's own coach when none was stored."""
        level = ai_level(match)
        if self._fixed_ai or level is None:
            return self.ai
        coach = self._level_coaches.get(level)
        if coach is None:
            coach = self._level_coaches[level] = make_ai(level)
        return coach

    def _ai_side(self, match: MatchPublic, state: MatchState) -> Side | None:
        side = pending(state).side
        if side is None or state.phase is Phase.MATCH_OVER:
            return None
        coach = match.west_coach_id if side == "west" else match.east_coach_id
        return side if coach == AI_COACH_ID else None

    def _run_ai(self, out: Outcome) -> Outcome:
        """While the AI coach must decide, let it; the events of its moves join the outcome."""
        match, state, events, view = self._ai_moves(out.match, out.state)
        if match is out.match:
            return out
        return self._outcome(match, state, [*out.events, *events], view)

    def _ai_moves(self, match: MatchPublic, state: MatchState) -> tuple[MatchPublic, MatchState, list[Event], MatchState | None]:
        """The AI coach's moves from ``match`` at ``state``, each saved on its own. Up to
        ``MAX_AI_COMMANDS``; a failure stops the chain without undoing what was saved, and is
        logged, not raised: the next load of the match (``resume_ai``) carries on from there."""
        events: list[Event] = []
        view = None
        for _ in range(MAX_AI_COMMANDS):
            side = self._ai_side(match, state)
            if side is None:
                break
            try:
                cmd = self.coach_for(match).choose(state, side)
                with self.sessions() as s:
                    # At the version it chose from: a second worker resuming the same match at
                    # the same time is refused instead of moving twice.
                    applied = rules.submit(session=s, match_id=match.id, by_side=side, actor_user_id=AI_COACH_ID,
                                           command=cmd, expected_version=match.version, deadline=self.next_deadline())
            except MatchChangedError:
                log.info("match %s moved on while the AI coach was choosing; the newer version goes on", match.id)
                break
            except Exception:  # noqa: BLE001 - whatever broke, the match is saved and resumes on its next load
                log.exception("the AI coach failed in match %s at version %s; it resumes on the next load",
                              match.id, match.version)
                break
            match, state, view = applied.match, applied.state, applied.result.view
            events.extend(applied.result.events)
        return match, state, events, view

    def resume_ai(self, channel_or_match: int | MatchPublic) -> Outcome | None:
        """Let the AI coach play on if the match waits on it: after a restart, a failure in the
        middle of its moves or its ``MAX_AI_COMMANDS`` cap. Called wherever a match is loaded
        (``current``, ``status``, the reminder sweep). The outcome of its moves, or None when it
        had nothing to do or could not move (logged; the next load tries again)."""
        if isinstance(channel_or_match, MatchPublic):
            match: MatchPublic | None = channel_or_match
        else:
            with self.sessions() as s:
                match = store.active_match(session=s, channel_id=channel_or_match)
        if match is None or AI_COACH_ID not in (match.west_coach_id, match.east_coach_id):
            return None
        state = match.engine_state()
        if self._ai_side(match, state) is None:
            return None
        moved, state, events, view = self._ai_moves(match, state)
        if moved is match:
            return None
        return self._finished(self._outcome(moved, state, events, view))

    def resume_waiting_ai(self, *, accept: Callable[[MatchPublic], bool] = lambda m: True,
                          limit: int = 50) -> list[Outcome]:
        """Resume every active match that waits on the AI coach (at start-up, and on each
        reminder sweep): a crash or a restart never leaves one stuck. ``accept``: the matches
        this process serves."""
        with self.sessions() as s:
            waiting = store.waiting_on(session=s, user_id=AI_COACH_ID, limit=limit)
        out = []
        for m in waiting:
            if accept(m):
                resumed = self.resume_ai(m)
                if resumed is not None:
                    out.append(resumed)
        return out

    def _finished(self, out: Outcome) -> Outcome:
        """If this command ended the match, tell the listeners; a failing listener never loses the
        move (the league catches up on its next read)."""
        if out.finished and any(isinstance(e, MatchEnded) for e in out.events):
            for hook in self.on_finish:
                try:
                    added = hook(out.match, out.state)
                    out.lines.extend(added)
                    out.after.extend(added)
                except Exception:  # noqa: BLE001 - the match is saved; the listener retries later
                    log.exception("finish listener failed for match %s", out.match.id)
        return out

    # -- output ---------------------------------------------------------------------------------
    def _language(self, match: MatchPublic) -> str:
        if self.language_for is None:
            return DEFAULT_LANGUAGE
        try:
            return self.language_for(match)
        except Exception:  # noqa: BLE001 - an English picture beats no picture
            log.warning("no language for match %s; drawing its board in English", match.id, exc_info=True)
            return DEFAULT_LANGUAGE

    def _outcome(self, match: MatchPublic, state: MatchState, events: list[Event], view: MatchState | None) -> Outcome:
        names = side_names(state)
        png, renderer, png_language = None, None, DEFAULT_LANGUAGE
        close_up = None
        if self.render:
            width, drawing = self.width, self.drawing

            def renderer(language: str) -> bytes:
                return drawing.board(state, events=events, view=view, width=width, language=language)

            png_language = self._language(match)
            if self.close_ups and state.phase is not Phase.MATCH_OVER and close_up_wanted(
                    self.sessions, match.guild_id, match.deciding_user_id if match.deciding_user_id != AI_COACH_ID else None):
                def close_up(language: str) -> tuple[bytes, str] | None:
                    return drawing.close_up(state, events=events, view=view, language=language)

                # The two pictures are drawn side by side (``Drawing.pair``).
                png, first_close_up = drawing.pair(state, events=events, view=view, width=width,
                                                   language=png_language)
            else:
                png = renderer(png_language)
        words = None
        if state.phase is not Phase.MATCH_OVER and screen_reader_wanted(self.sessions, (match.west_coach_id, match.east_coach_id)):
            words = board_words(state, view=view)
        out = Outcome(match, state, events, narrate_events(events, state), prompt_for(state, names), png, view, words,
                      renderer=renderer, png_language=png_language, close_up_renderer=close_up)
        if close_up is not None:
            out._close_ups[png_language] = first_close_up
        return out

