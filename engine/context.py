"""The resolution context: dice, questions to coaches, events, and the Shift in Momentum flag.

Resolving a command is ordinary straight-line code. When it needs a coach's choice (spend
Momentum on this roll? who intercepts?) it calls ``ctx.ask``: with an answer on file it gets
it at once; without one, ``NeedAnswer`` unwinds the whole resolution. The engine then stores
the command, the answers so far and every dice result drawn so far (``InProgress``), and runs
the command again from the same starting state when the answer arrives. Because the dice
drawn before the pause are replayed first, the re-run retraces the identical path; a
JSON-serialisable state can thus hold a resolution paused at any point.
"""

from __future__ import annotations

from typing import Any

from .dice import DiceSource, Face
from .errors import DiceScriptError
from .events import Event
from .field import Field, Side, standard_field
from .state import MatchState

__all__ = ["Ctx", "NeedAnswer"]


class NeedAnswer(Exception):
    """Raised through a resolution that must wait for a coach (not an error)."""

    def __init__(self, question: dict[str, Any]) -> None:
        super().__init__(question.get("kind"))
        self.question = question


class _Feed(DiceSource):
    """Replays the results drawn before a pause, then draws fresh ones from the real source."""

    def __init__(self, source: DiceSource, replay: list[list[Any]]) -> None:
        super().__init__()
        self.source = source
        self.replay = replay
        self.pos = 0
        self.fresh = 0

    def _take(self, kind: str) -> Any:
        if self.pos < len(self.replay):
            k, v = self.replay[self.pos]
            self.pos += 1
            if k != kind:
                raise DiceScriptError.of("dice.replay_kind", text=k, text2=kind)
            return v
        self.fresh += 1
        value: Any = self.source.face().symbol if kind == "face" else self.source.d6()
        self.replay.append([kind, value])
        self.pos += 1
        return value

    def _next_face(self) -> Face:
        return Face.parse(self._take("face"))

    def _next_d6(self) -> int:
        return int(self._take("d6"))


class Ctx:
    """Everything a rule needs while resolving one command."""

    def __init__(
        self,
        state: MatchState,
        dice: DiceSource,
        *,
        drawn: list[list[Any]] | None = None,
        answers: list[Any] | None = None,
        field: Field | None = None,
    ) -> None:
        self.state = state
        self.field = field or standard_field()
        self.dice = _Feed(dice, drawn if drawn is not None else [])
        self.answers = list(answers or [])
        self.asked = 0
        self.events: list[Event] = []
        self.sim = False
        self.sim_reason: str | None = None

    # -- dice --------------------------------------------------------------------------
    def d6(self) -> int:
        return self.dice.d6()

    @property
    def drawn(self) -> list[list[Any]]:
        return self.dice.replay

    # -- coaches -----------------------------------------------------------------------
    def ask(self, question: dict[str, Any]) -> Any:
        """The answer to ``question`` if one is on file, else pause the resolution."""
        if self.asked < len(self.answers):
            answer = self.answers[self.asked]
            self.asked += 1
            return answer
        raise NeedAnswer(question)

    # -- output ------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- Shift in Momentum ---------------------------------------------------------------
    def shift(self, reason: str) -> None:
        """Record a SiM; the current challenge finishes resolving, then the action ends (G29).

        The face-off winner's free challenge never shifts Momentum: "any Momentum earned
        during the face-off or from the free challenge can be used during this first action
        (even if ... the face-off player flopped the free challenge)" (FO6).
        """
        action = self.state.action
        if action is not None and action.faceoff_free:
            return
        if not self.sim:
            self.sim = True
            self.sim_reason = reason

    # -- who holds the initiative ----------------------------------------------------------
    @property
    def acting_side(self) -> Side | None:
        """The team whose action (or face-off free challenge, or Replacement) is resolving."""
        return self.state.turn_side
