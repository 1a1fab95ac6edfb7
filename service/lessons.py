"""``/learn``: lessons played as matches in the member's own thread, judged on the engine's state.

A lesson (``service.lesson_book``) starts as a match row in the member's lessons thread
(``match_rules.create_lesson``): its position, its stated dice, the member coaching both sides,
no deadline and no rating. Every command goes through the match service as in any match (the
same slash commands, panel and presses); after each one this service judges the try
(``lesson_book.judge``). When the goal is reached or the try is over the lesson's match is closed
(abandoned, reason ``lesson``), the member's progress written, and the outcome carries a
``LessonNote`` the bot words (the explanation and the next lesson, or the hint and a new try).
"""

from __future__ import annotations

from dataclasses import dataclass

from db import lessons as store
from db import matches as match_store
from db.engine import session_scope
from db.errors import MatchNotActiveError
from db.models import MatchPublic
from engine import Event, event_from_dict

from . import authority
from . import match_rules as rules
from .lesson_book import Lesson, LessonNote, judge, lesson, lessons, next_lesson
from .matches import MatchService, Outcome, SessionFactory
from .refusal import Refused

__all__ = ["LessonService", "Progress", "LessonNote", "LESSON_REASON"]

#: The reason a lesson's match is closed with (its log says so).
LESSON_REASON = "lesson"


@dataclass(frozen=True)
class Progress:
    """A member's lessons: those he finished, his tries of each, the one he last started and the
    first one of the book he has not finished (None when all are)."""

    done: frozenset[str]
    tries: dict[str, int]
    current: str | None
    next_id: str | None


class LessonService:
    def __init__(self, matches: MatchService, *, sessions: SessionFactory = session_scope) -> None:
        self.matches = matches
        self.sessions = sessions
        matches.after_command.append(self._judged)

    # -- starting ---------------------------------------------------------------------------------
    def start(self, *, guild_id: int, channel_id: int, user_id: int, lesson_id: str) -> Outcome:
        """Start ``lesson_id`` for ``user_id`` in his lessons thread ``channel_id``: a lesson still
        running there is closed first. Refused: not his thread (``refuse.lesson_not_yours``), a
        match other than a lesson in the channel (``refuse.lesson_channel_busy``)."""
        chosen = lesson(lesson_id)
        with self.sessions() as s:
            owner = store.thread_owner(session=s, thread_id=channel_id)
            authority.require_lesson_thread(owner, guild_id, user_id)
            running = match_store.active_match(session=s, channel_id=channel_id)
            if running is not None:
                if rules.lesson_of(running) is None:
                    raise Refused("refuse.lesson_channel_busy")
                try:
                    match_store.abandon(session=s, match_id=running.id, actor_user_id=user_id, reason=LESSON_REASON)
                except MatchNotActiveError:
                    pass  # closed meanwhile (his other press): the channel is free all the same
            tries = store.started(session=s, guild_id=guild_id, user_id=user_id, lesson_id=chosen.id)
            applied = rules.create_lesson(session=s, guild_id=guild_id, channel_id=channel_id, user_id=user_id,
                                          lesson=chosen)
        out = self.matches.present(applied.match, applied.state)
        out.lesson = LessonNote(chosen.id, "started", tries=tries)
        return out

    def restart(self, *, guild_id: int, channel_id: int, user_id: int) -> Outcome:
        """The member's last lesson again (his first one if he has started none)."""
        current = self.progress(guild_id=guild_id, user_id=user_id).current or lessons()[0].id
        return self.start(guild_id=guild_id, channel_id=channel_id, user_id=user_id, lesson_id=current)

    # -- reading ----------------------------------------------------------------------------------
    def progress(self, *, guild_id: int, user_id: int) -> Progress:
        with self.sessions() as s:
            rows = store.progress(session=s, guild_id=guild_id, user_id=user_id)
        known = {x.id for x in lessons()}
        done = frozenset(r.lesson_id for r in rows if r.done_at is not None and r.lesson_id in known)
        current = next((r.lesson_id for r in rows if r.lesson_id in known), None)
        first_open = next((x.id for x in lessons() if x.id not in done), None)
        return Progress(done, {r.lesson_id: r.tries for r in rows}, current, first_open)

    def thread_for(self, *, guild_id: int, user_id: int, parent_id: int) -> int | None:
        """The member's lessons thread under channel ``parent_id``, if he has one."""
        with self.sessions() as s:
            return store.thread_for(session=s, guild_id=guild_id, user_id=user_id, parent_id=parent_id)

    def remember_thread(self, *, guild_id: int, user_id: int, parent_id: int, thread_id: int) -> None:
        with self.sessions() as s:
            store.remember_thread(session=s, guild_id=guild_id, user_id=user_id, parent_id=parent_id,
                                  thread_id=thread_id)

    @staticmethod
    def lesson_of(match: MatchPublic) -> Lesson | None:
        """The lesson a match plays, if it is one."""
        name = rules.lesson_of(match)
        return lesson(name) if name is not None else None

    # -- judging ----------------------------------------------------------------------------------
    def _judged(self, out: Outcome) -> Outcome:
        """After each command in a lesson's match: the goal reached, the try over, or play on."""
        chosen = self.lesson_of(out.match)
        if chosen is None:
            return out
        events = self._try_events(out.match)
        verdict = judge(chosen, out.state, events, out.view)
        if verdict == "playing":
            out.lesson = LessonNote(chosen.id, "playing")
            return out
        m = out.match
        with self.sessions() as s:
            try:
                closed = match_store.abandon(session=s, match_id=m.id, actor_user_id=m.west_coach_id,
                                             reason=LESSON_REASON)
            except MatchNotActiveError:
                closed = m  # his other press closed it already
            if verdict == "done":
                store.finished(session=s, guild_id=m.guild_id, user_id=m.west_coach_id, lesson_id=chosen.id)
        tries = self.progress(guild_id=m.guild_id, user_id=m.west_coach_id).tries.get(chosen.id, 1)
        after = next_lesson(chosen.id) if verdict == "done" else None
        out.match = closed
        out.lesson = LessonNote(chosen.id, verdict, next_id=after.id if after else None, tries=tries)
        return out

    def _try_events(self, match: MatchPublic) -> list[Event]:
        """Every event of the lesson's match still in effect (a goal may name an earlier one; a
        step taken back is not)."""
        with self.sessions() as s:
            rows = match_store.match_events(session=s, match_id=match.id)
        kept: list[tuple[int, list[Event]]] = []
        for r in rows:
            name = (r.command or {}).get("name")
            if name == match_store.UNDO:
                kept = [(seq, ev) for seq, ev in kept if seq <= int(r.command["to_version"])]  # type: ignore[index]  # an undo row names its version
            elif r.command is not None and r.seq > 0:
                kept.append((r.seq, [event_from_dict(e) for e in r.events]))
        return [e for _, ev in kept for e in ev]
