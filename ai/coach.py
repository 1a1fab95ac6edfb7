"""The AI coach: a heuristic policy that plays Elfball by the exact odds, and its levels.

``AICoach().choose(state, side)`` returns one command for the decision ``side`` owes now
(``engine.pending``). It never rolls and never guesses: every estimate comes from the exact
challenge odds and from the same needs the challenges compute (``ai.board``). Every command it
returns has passed the engine's own check (``engine.is_legal``); a plan the engine would refuse
falls back to the pending default, then to ``EndAction`` (``AICoach.fallbacks`` counts those,
and the tests keep it at zero).

What it decides, and where each part lives:

- **Set-up**: the automatic set-up, then done. **Face-off**, **turn** (who acts) and **action**
  (what he does): the heuristic (``ai.heuristic``). Down players stand up first; a cheer is
  used at the start of an action while the Test's cheerleaders last.
- **Questions** (re-rolls, interceptions, catches, kegs): ``ai.questions``.
- **"hard"** adds the Advanced options (``ai.advanced``: potions, Quickling, Taunt, React, the
  Wizard, Tackle abilities, ability moves) and the search (``ai.search``), which plays out the
  turn's best few players, the carrier's best few commands and those by a loose ball under
  sampled dice and keeps the heuristic's choice unless another does better (judged by
  ``ai.judge``).

Every action ends: the policy never issues a bare ``Face``, stands up at most once per action,
and a hard cap on commands per action ends it with ``EndAction``.

Pure: no I/O, no clock. Given its inputs (and the optional ``random.Random``, used only to
break exact ties between players) it always returns the same command.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine import (
    ActionState,
    Answer,
    AutoSetup,
    Cheer,
    Command,
    Concede,
    EndAction,
    Field,
    MatchState,
    Phase,
    Player,
    SetupDone,
    Side,
    StandUp,
    StartAction,
    StartTest,
    Status,
    eligible_actors,
    is_legal,
    legal_commands,
    pending,
    stand_cost,
    stand_refusal,
    standard_field,
)

from . import heuristic, questions
from .advanced import out_of_sequence, potion, refine_action, wizard
from .board import Board, Plan, Weights, toward
from .search import SearchSettings, best_actor, best_command

__all__ = ["AICoach", "LEVELS", "MAX_COMMANDS_PER_ACTION", "make_ai"]

#: The levels a coach may pick (``AICoach(level=...)``, ``make_ai``).
LEVELS = ("easy", "hard")

#: After this many commands in one action the coach ends it, whatever it had planned.
MAX_COMMANDS_PER_ACTION = 24


@dataclass
class AICoach:
    """A heuristic Elfball coach that uses the exact odds. See the module docstring."""

    rng: random.Random | None = None
    max_commands_per_action: int = MAX_COMMANDS_PER_ACTION
    weights: Weights = field(default_factory=Weights)
    #: "easy": the heuristic alone (basic moves and challenges, cheers, kegs, Replacements);
    #: "hard": it also uses every Advanced option (``ai.advanced``) and searches the turn's
    #: choice, the carrier's commands and the commands by a loose ball by sampling the dice
    #: (``ai.search``).
    level: str = "easy"
    #: Search the turn's choice (``ai.search``): None for the level's default (hard only).
    search: bool | None = None
    search_settings: SearchSettings = field(default_factory=SearchSettings)
    #: Seeds the search's dice samples (with the position), so a match repeats exactly.
    seed: int = 0
    #: Decisions whose plan the engine refused (or whose planning failed), replaced by a safe
    #: legal command; ``last_error`` keeps the last planning failure. Both are for tests.
    fallbacks: int = field(default=0, init=False)
    last_error: str | None = field(default=None, init=False)
    _action_key: tuple | None = field(default=None, init=False, repr=False)
    _action_count: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"unknown AI level {self.level!r}: one of {', '.join(LEVELS)}")

    @property
    def searching(self) -> bool:
        return self.level == "hard" if self.search is None else self.search

    @property
    def advanced(self) -> bool:
        """Does this coach use the Advanced options (abilities, support)?"""
        return self.level != "easy"

    # -- the front door ----------------------------------------------------------------------
    def choose(self, state: MatchState, side: Side, field: Field | None = None) -> Command:
        """The command ``side``'s coach gives now. Always legal (checked before returning)."""
        fld = field or standard_field()
        pend = pending(state)
        if pend.side != side:
            raise ValueError(f"{side} has no decision to make now ({pend.kind} is for {pend.side})")
        cmd: Command | None
        try:
            cmd = self._decide(state, side, fld, pend.kind, pend.question)
        except Exception as exc:  # a planning bug must not stop a match: fall back, and say so
            cmd, self.last_error = None, f"{type(exc).__name__}: {exc}"
        if cmd is None or not self._ok(state, cmd, side, fld):
            self.fallbacks += 1
            cmd = self._fallback(state, side, fld, pend.default)
        if state.phase is Phase.ACTION and state.in_progress is None:
            self._count(state)
        return cmd

    def _fallback(self, state: MatchState, side: Side, fld: Field, default: tuple[Command, ...]) -> Command:
        """A safe legal command when the plan was refused: the pending default, else the end
        of the action, else the first legal command there is."""
        for candidate in (*default[:1], EndAction(), AutoSetup(), StartTest()):
            if self._ok(state, candidate, side, fld):
                return candidate
        for c in legal_commands(state, side, fld):
            if not isinstance(c, Concede):
                return c
        return Concede()

    _ok = staticmethod(is_legal)  # (state, cmd, side, field): the engine's own check

    def _same_action(self, state: MatchState) -> bool:
        """Is this the action of our previous command (one command later)?"""
        key = (state.test, state.turn_side, state.action.player if state.action else None)
        last = self._action_key
        return last is not None and last[:3] == key and state.seq - last[3] <= 1

    def _count(self, state: MatchState) -> None:
        self._action_count = self._action_count + 1 if self._same_action(state) else 1
        self._action_key = (state.test, state.turn_side, state.action.player if state.action else None, state.seq)

    def _commands_so_far(self, state: MatchState) -> int:
        return self._action_count if self._same_action(state) else 0

    def _decide(self, state: MatchState, side: Side, fld: Field, kind: str, q: dict | None) -> Command | None:
        if q is not None:  # every question; the kinds it has no policy for get their default
            return Answer(questions.answer(state, side, fld, q, self.weights))
        if self.advanced and kind in ("setup", "test_over", "turn"):
            drink = potion(state, side, fld)
            if drink is not None:
                return drink
        if kind == "setup":
            on = state.on_field(side)
            return SetupDone() if on and self._ok(state, SetupDone(), side, fld) else AutoSetup()
        if kind == "test_over":
            return StartTest()
        b = Board(state, side, fld, self.weights)
        if kind == "faceoff":
            return heuristic.faceoff(b)
        if kind == "turn":
            return self._turn(b)
        if kind == "action":
            if self._commands_so_far(state) >= self.max_commands_per_action:
                return EndAction()
            return self._action(b)
        return None

    # -- choosing who acts -------------------------------------------------------------------
    def _turn(self, b: Board) -> Command:
        st = b.state
        actors = eligible_actors(st, b.side)
        plans = heuristic.turn_plans(b, actors)
        repl = heuristic.replacement(b)
        if repl is not None:
            short = 6 - len(st.on_field(b.side))
            quiet = not plans or plans[0][2].note in heuristic.QUIET
            if quiet and (short >= 2 or not plans or plans[0][2].note in ("support", "stay")):
                return repl
        if not plans:
            return StartAction(actors[0].id) if actors else (repl or EndAction())
        top = [t for t in plans if t[0] >= plans[0][0] - 1e-12]
        pick = self.rng.choice(top) if self.rng is not None and len(top) > 1 else plans[0]
        if self.advanced:
            extra = out_of_sequence(b, plans) or wizard(b, pick[2])
            if extra is not None:
                return extra
        if self.searching and len(actors) > 1:
            return StartAction(self._search_actor(b, actors, plans, pick[1]))
        return StartAction(pick[1])

    def _search_actor(self, b: Board, actors: list[Player], plans: list[tuple[float, str, Plan]],
                      pick: str) -> str:
        """The hard level: the heuristic's pick and its next best players (every player who may
        act is planned for) played out by sampling (``ai.search``)."""
        planned = {pid for _, pid, _ in plans}
        more = list(plans)
        for p in actors:
            if p.id not in planned:
                plan = heuristic.player_plan(b, p, None)
                if plan is not None:
                    more.append((plan.value, p.id, plan))
        more.sort(key=lambda t: (-t[0], t[1]))
        ranked = [pick] + [pid for _, pid, _ in more if pid != pick]
        policy = self._rollout_policy(b.side)

        return best_actor(b.state, b.side, b.fld, ranked, self.seed, policy, self.search_settings)

    def _rollout_policy(self, side: Side) -> Callable[[MatchState, Side, Field], Command]:
        """The search's samples: our commands by the heuristic of our level (no search), the
        opponents' by the level ``search_settings.opponent`` (the easy heuristic by default)."""
        mine, theirs = self.level, self.search_settings.opponent

        def policy(state: MatchState, s: Side, fld: Field) -> Command:
            return AICoach(level=mine if s == side else theirs, search=False).choose(state, s, fld)

        return policy

    # -- the acting player ---------------------------------------------------------------------
    def _action(self, b: Board) -> Command:
        """The first command of a plan, once the player acts: cheer, stand, else the plan's own
        command (put to Advanced use and searched, at the hard level)."""
        st = b.state
        a = st.action
        p = st.acting_player
        assert a is not None and p is not None and p.hex is not None
        if st.teams[b.side].available("cheerleaders") and self._ok(st, Cheer(), b.side, b.fld):
            return Cheer()  # once per Test each: a free counter at the start of an action
        if p.status is not Status.STANDING:
            if not a.stood_up and not a.normal_over and stand_cost(st, p) <= a.jog_left and not stand_refusal(st):
                face = toward(p.hex, b.ball) if b.ball and b.ball != p.hex else None
                return StandUp(face)
            return EndAction()
        plan = heuristic.player_plan(b, p, a)
        cmd = EndAction() if plan is None else plan.command
        if self.advanced:
            cmd = refine_action(b, p, cmd)
        if self.searching and self.search_settings.commands > 1 and plan is not None and plan.note != "score":
            role = heuristic.role(b, p)
            if role in self.search_settings.roles:
                cmd = self._search_command(b, p, a, cmd, role)
        return cmd

    def _search_command(self, b: Board, p: Player, a: ActionState, cmd: Command, role: str) -> Command:
        """The hard level: the command of ``role`` (the carrier, or by a loose ball) against its
        alternatives, each played out by sampling (``ai.search``)."""
        cands = [cmd]
        for alt in heuristic.alternatives(b, p, a, role):
            if alt not in cands and self._ok(b.state, alt, b.side, b.fld):
                cands.append(alt)
            if len(cands) >= self.search_settings.commands:
                break
        if len(cands) <= 1:
            return cmd
        policy = self._rollout_policy(b.side)

        return best_command(b.state, b.side, b.fld, cands, self.seed, policy, self.search_settings)


def make_ai(level: str = "hard", rng: random.Random | None = None, *, seed: int = 0) -> AICoach:
    """An AI coach of ``level`` ("easy" or "hard"); ValueError for any other level."""
    return AICoach(rng, level=level, seed=seed)
