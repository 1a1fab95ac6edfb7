"""The match state machine: ``new_match``, ``apply`` and ``pending``.

``apply(state, command, dice, by=side)`` never mutates ``state``. It returns a ``Result``: the
new state, the events that happened, and the ``Pending`` decision that comes next (who decides,
what kind of choice, a safe default). An illegal command raises ``IllegalCommandError`` naming
the rule, and nothing changes. When a resolution needs a coach's answer midway (Momentum on a
roll, an interceptor, a catch), the result's state holds the paused command and ``pending``
asks for an ``Answer``; see ``engine.context`` for how the pause works.

Phases and what each accepts:

============  ==========================================================================
SETUP         Place, Unplace, AutoSetup, SetupDone, DrinkPotion (the side setting up)
FACEOFF       FaceoffPickup, FaceoffContact (the winner)
TURN          StartAction, Replace, CastSpell, DrinkPotion (the side whose turn it is); after
              the other team's Shift in Momentum also Move(ability="react"), Taunt and Quickling
ACTION        Move, Face, StandUp, Throw, Tackle, Shove, Dash, EndAction, Cheer (the acting side)
TEST_OVER     StartTest, DrinkPotion (either coach)
MATCH_OVER    DrinkPotion ("after the last goal is scored"; either coach) and its answers
any           Answer while a question is pending; Concede (either coach, any time)
============  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import commands as C
from .abilities import ability, counter_moves, has, quickling, sprinter
from .abilities import taunt as taunting
from .actions import challenge_refusal
from .challenges.dash import dash
from .challenges.pickup import pickup
from .challenges.shove import shove, shove_limit
from .challenges.tackle import USES as TACKLE_USES
from .challenges.tackle import tackle, use_refusal
from .challenges.throw import LONG_MAX, SHORT_MAX, throw
from .abilities.scramble import long_throw_barred, scrambles
from . import clock, options as rule_options, tournament
from .context import Ctx, NeedAnswer
from .dice import DiceSource
from .entries import SUPPORT_LIMITS, PlayerEntry, TeamEntry
from .errors import IllegalCommandError, MalformedInputError
from .i18n import DEFAULT
from .events import (
    Conceded,
    DiceOffRolled,
    Event,
    MatchStarted,
    PlayerPlaced,
    PlayerUnplaced,
    ReplacementMade,
    SetupCompleted,
)
from .faceoff import RULE_FACEOFF, contact_path_refusal, free_contact, free_pickup, roll_faceoff, simple_refusal
from .field import SIDES, Field, Side, other_side, standard_field
from .hexes import Direction, direction_between, distance
from .movement import counter_walk, stand_cost, stand_refusal, stand_up, turn, walk
from .refusals import Refusal, Term, ability_term, cite, phrase_term, side_term
from .rosters import singular_name
from .setup import RULE_SETUP, auto_placements, placement_refusal, setup_refusal
from .state import ActionState, Ball, InProgress, Location, MatchState, Phase, Player, RuleOptions, Status, Team
from .support import cheerleaders, experience, impcrusher, potions, wizard
from .turns import (
    begin_turn,
    check_faceoff_possible,
    eligible_actors,
    end_action,
    end_match,
    end_turn,
    replacement_possible,
    start_action,
    start_test,
)

__all__ = ["TeamEntry", "PlayerEntry", "SUPPORT_LIMITS", "Pending", "Result", "new_match", "apply", "check", "pending", "RULES", "VALIDATORS"]

#: Rulebook sections quoted in refusals.
#: Rule id (``rule.<id>`` of the refusal catalogue) -> the section in English, page included.
RULES = {rule: cite(rule, DEFAULT) for rule in (
    "turn", "action", "move", "throw", "tackle", "shove", "dash", "stand", "replace", "momentum", RULE_SETUP,
    RULE_FACEOFF, "support", "potion", "wizard", "double", "fr_stand", "fr_shove",
)}


@dataclass(frozen=True)
class Pending:
    """Who must decide what now, and what happens if he does not answer."""

    side: Side | None
    kind: str  # setup / faceoff / turn / action / test_over / reroll / force_reroll / interceptor / catch / none
    question: dict[str, Any] | None = None
    default: tuple[C.Command, ...] = ()


@dataclass
class Result:
    state: MatchState
    events: list[Event] = field(default_factory=list)
    view: MatchState | None = None  # the position mid-resolution, for drawing while paused
    #: The fresh dice results this call drew, in order (``[["face", "O"], ["d6", 5]]``): with the
    #: command, all a log needs to replay the match exactly (``ReplayDice``).
    dice: list[list[Any]] = field(default_factory=list)

    @property
    def pending(self) -> Pending:
        return pending(self.state)


def _refuse(why: str | Refusal, rule: str, /, **values: Any) -> IllegalCommandError:
    """The refusal citing ``rule`` (a rule id): a catalogue key and its values, or the
    ``Refusal`` a rule's helper gave."""
    return IllegalCommandError(why.cited(rule) if isinstance(why, Refusal) else Refusal(why, rule=rule, **values))


# --- creating a match -------------------------------------------------------------------
def _players(side: Side, entry: TeamEntry, edition: int) -> list[Player]:
    out: list[Player] = []
    number = 0
    for position, count in entry.roster.entries:
        for _ in range(count):
            number += 1
            custom = entry.player_names[number - 1] if number <= len(entry.player_names) else ""
            name = custom or f"{singular_name(position.name, edition=edition)} #{number}"
            p = Player.from_position(f"{side[0]}{number}", side, number, name, position)
            career = entry.players[number - 1] if number <= len(entry.players) else None
            if career is not None:
                _apply_career(p, career)
            out.append(p)
    return out


def _apply_career(p: Player, career: PlayerEntry) -> None:
    for a in career.abilities:
        ability(a)  # refuses an unknown id
    p.abilities = tuple(dict.fromkeys((*p.abilities, *career.abilities)))
    if career.attributes is not None:
        values = tuple(career.attributes)
        if len(values) != 6 or not all(isinstance(v, int) and 0 <= v <= 9 for v in values):
            raise MalformedInputError.of("career.attributes", player=p.name, attributes=repr(career.attributes))
        p.jog, p.might, p.tackle, p.dodge, p.skill, p.grit = values


def _support(entry: TeamEntry) -> dict[str, int]:
    out: dict[str, int] = {}
    for item, n in entry.support:
        if item not in SUPPORT_LIMITS:
            raise MalformedInputError.of("support.unknown", text=repr(item), text2=", ".join(SUPPORT_LIMITS))
        if not 0 <= n <= SUPPORT_LIMITS[item]:
            raise MalformedInputError.of("support.too_many", team=entry.name, most=SUPPORT_LIMITS[item], item=item.replace("_", " "), n=n)
        if n:
            out[item] = n
    return out


def _check_roster(entry: TeamEntry, options: RuleOptions) -> None:
    """The Optional Rules the match left out: the Orcs and Ratmen lists, the extra players."""
    tl = entry.roster.team
    if tl.optional and not options.optional_teams:
        raise MalformedInputError.of("entry.optional_list", team=entry.name, text=tl.name)
    allowed = {rule_options.EXTRA_PLAYERS[e] for e in options.extra_players}
    for position, _ in entry.roster.entries:
        if position.id.startswith("extra/") and position.id not in allowed:
            raise MalformedInputError.of("entry.extra_player", team=entry.name, text=position.name)


def new_match(
    west: TeamEntry,
    east: TeamEntry,
    dice: DiceSource,
    *,
    options: RuleOptions | None = None,
    field: Field | None = None,
) -> Result:
    """Both teams on their Benches, the ball on the centre dot, and the dice-off rolled:
    "each player rolls a D6 with both players re-rolling in cases of a tie. The loser of this
    dice off must set up his entire team first"."""
    options = rule_options.validate(options or RuleOptions())
    for entry in (west, east):
        _check_roster(entry, options)
    if options.tournament:
        tournament.check_entries(west, east, edition=options.edition)
    fld = field or standard_field()
    teams: dict[Side, Team] = {}
    players: dict[str, Player] = {}
    for side, entry in zip(SIDES, (west, east)):
        ps = _players(side, entry, options.edition)
        for p in ps:
            impcrusher.french_abilities(options, p)
        players.update({p.id: p for p in ps})
        teams[side] = Team(
            side, entry.name, entry.roster.team.id, entry.roster.team.colours, [p.id for p in ps], support=_support(entry)
        )
    state = MatchState(options=options, teams=teams, players=players, ball=Ball(fld.ball_spot),
                       deck=clock.new_deck(options))
    ctx = Ctx(state, dice, field=fld)
    ctx.emit(MatchStarted(west.name, east.name, options.goals_to_win))
    rolls: list[tuple[int, int]] = []
    while True:
        w, e = ctx.d6(), ctx.d6()
        rolls.append((w, e))
        if w != e:
            break
    first: Side = "west" if w < e else "east"
    ctx.emit(DiceOffRolled(tuple(rolls), first))
    state.setup_side = state.first_setup_side = first
    check_faceoff_possible(ctx)
    state.dice_drawn = ctx.dice.fresh
    return Result(state, ctx.events, view=state, dice=_fresh(ctx))


# --- applying commands -----------------------------------------------------------------
def apply(state: MatchState, command: C.Command, dice: DiceSource, *, by: Side, field: Field | None = None) -> Result:
    """Apply ``command`` issued by the coach of ``by``. Never mutates ``state``."""
    if by not in ("west", "east"):
        raise MalformedInputError.of("command.unknown_side", text=repr(by))
    _v_not_over(state, command)
    ip = state.in_progress
    if isinstance(command, C.Concede):
        return _run(_without_pause(state), command, by, dice, field=field)
    if ip is not None:
        if not isinstance(command, C.Answer):
            q = ip.question or {}
            raise _refuse("answer.pending_for", "action", text=phrase_term(str(q.get("kind"))), side=side_term(str(q.get("side"))))
        _check_answer(state, ip, command.value, by)
        return _run(
            _without_pause(state),
            C.command_from_dict(ip.command),
            ip.by,
            dice,
            answers=[*ip.answers, _normalise_answer(ip.question or {}, command.value)],
            drawn=ip.drawn,
            emitted=ip.emitted,
            field=field,
        )
    if isinstance(command, C.Answer):
        raise _refuse("answer.none", "action")
    return _run(state, command, by, dice, field=field)


def _v_not_over(state: MatchState, command: C.Command) -> None:
    """Once the match is over only a Magic Potion ("after the last goal is scored") and the
    answers it asks for are accepted."""
    if state.phase is not Phase.MATCH_OVER:
        return
    if state.in_progress is None and isinstance(command, C.DrinkPotion):
        return
    if state.in_progress is not None and isinstance(command, C.Answer):
        return
    raise _refuse("match.over", "turn")


def _without_pause(state: MatchState) -> MatchState:
    base = state.copy()
    base.in_progress = None
    return base


def _run(
    base: MatchState,
    command: C.Command,
    by: Side,
    dice: DiceSource,
    *,
    answers: list[Any] | None = None,
    drawn: list[list[Any]] | None = None,
    emitted: int = 0,
    field: Field | None = None,
) -> Result:
    work = base.copy()
    ctx = Ctx(work, dice, drawn=[list(x) for x in (drawn or [])], answers=answers or [], field=field)
    handler = _handler(work, command)
    _expire_lead_pass(work, command)
    try:
        handler(ctx, command, by)
    except NeedAnswer as pause:
        paused = base.copy()
        paused.in_progress = InProgress(command.to_dict(), by, list(ctx.answers), ctx.drawn, len(ctx.events), pause.question)
        paused.dice_drawn = base.dice_drawn + ctx.dice.fresh
        return Result(paused, ctx.events[emitted:], view=work, dice=_fresh(ctx))
    work.in_progress = None
    work.dice_drawn = base.dice_drawn + ctx.dice.fresh
    work.seq += 1
    return Result(work, ctx.events[emitted:], view=work, dice=_fresh(ctx))


def _expire_lead_pass(state: MatchState, command: C.Command) -> None:
    """Lead Pass lets the catcher move "immediately after catching the ball"; anything else the
    thrower does first ends that chance ("The player with Lead Pass can finish his action after
    the catching player has finished moving")."""
    a = state.action
    if a is not None and a.lead_pass is not None:
        if not (isinstance(command, C.Move) and command.ability == "lead-pass"):
            a.lead_pass = None


def _fresh(ctx: Ctx) -> list[list[Any]]:
    n = ctx.dice.fresh
    return [list(x) for x in ctx.drawn[len(ctx.drawn) - n :]] if n else []


Handler = Callable[[Ctx, Any, Side], None]


def _handler(state: MatchState, command: C.Command) -> Handler:
    if isinstance(command, C.Concede):
        return _concede
    table = _PHASE_COMMANDS.get(state.phase, {})
    h = table.get(type(command))
    if h is None:
        allowed = ", ".join(t.name for t in table) or "nothing"
        raise _refuse(
            "command.wrong_phase", "turn",
            text=command.name, text2=phrase_term(state.phase.value.replace("_", " ")), text3=phrase_term(allowed),
        )
    return h


# --- answers ----------------------------------------------------------------------------
def _dice_question(question: dict[str, Any]) -> bool:
    """A question answered by choosing dice (Momentum re-rolls, ability re-rolls): it lists the
    ``eligible`` dice indices and the ``max`` that may be chosen; the answer is a list."""
    return "eligible" in question


def _normalise_answer(question: dict[str, Any], value: Any) -> Any:
    if _dice_question(question):
        return sorted({int(v) for v in (value or ())})
    return value


def _check_answer(state: MatchState, ip: InProgress, value: Any, by: Side) -> None:
    q = ip.question or {}
    if q.get("side") != by:
        raise _refuse("answer.other_side", "action", side=side_term(str(q.get("side"))))
    if _dice_question(q):
        try:
            chosen = sorted({int(v) for v in (value or ())})
        except (TypeError, ValueError):
            raise MalformedInputError.of("answer.dice_numbers", text=repr(value)) from None
        if any(i not in q["eligible"] for i in chosen):
            raise _refuse("answer.dice_eligible", "momentum", text=str(q["eligible"]))
        if len(chosen) > q["max"]:
            if q.get("kind") in ("reroll", "force_reroll"):
                raise _refuse("answer.counters_for", "momentum", n=q["max"])
            raise _refuse("answer.at_most", "action", n=q["max"])
    elif value not in q.get("options", ()):
        raise _refuse("answer.one_of", "action", text=str(q.get("options")))


# --- validators: pure checks shared by apply() and legal_commands() ----------------------
# Each takes (state, field, command, by) and raises IllegalCommandError / MalformedInputError,
# or returns the objects the handler needs. They never mutate and never roll.


def _player(state: MatchState, pid: str) -> Player:
    p = state.players.get(pid)
    if p is None:
        raise MalformedInputError.of("player.unknown_id", text=repr(pid))
    return p


def _own(state: MatchState, pid: str, by: Side, rule: str) -> Player:
    p = _player(state, pid)
    if p.side != by:
        raise _refuse("player.plays_for", rule, player=p.name, side=side_term(p.side))
    return p


def _v_setter(state: MatchState, by: Side) -> None:
    if state.setup_side != by:
        raise _refuse("setup.other_side", "setup", side=side_term(str(state.setup_side)), side2=side_term(by))


def _v_place(state: MatchState, fld: Field, cmd: C.Place, by: Side) -> Player:
    _v_setter(state, by)
    p = _own(state, cmd.player, by, "setup")
    why = placement_refusal(state, fld, p, cmd.hex, cmd.facing)
    if why:
        raise _refuse(why, "setup")
    return p


def _v_unplace(state: MatchState, fld: Field, cmd: C.Unplace, by: Side) -> Player:
    _v_setter(state, by)
    p = _own(state, cmd.player, by, "setup")
    if not p.on_field:
        raise _refuse("player.not_on_field", "setup", player=p.name)
    return p


def _v_auto(state: MatchState, fld: Field, cmd: C.AutoSetup, by: Side) -> None:
    _v_setter(state, by)


def _v_setup_done(state: MatchState, fld: Field, cmd: C.SetupDone, by: Side) -> None:
    _v_setter(state, by)
    why = setup_refusal(state, fld, by)
    if why:
        raise _refuse(why, "setup")


def _v_start_test(state: MatchState, fld: Field, cmd: C.StartTest, by: Side) -> None:
    return None


def _v_winner(state: MatchState, by: Side) -> None:
    if state.faceoff_winner != by:
        raise _refuse("faceoff.winner_chooses", "faceoff", side=side_term(str(state.faceoff_winner)))


def _v_faceoff_pickup(state: MatchState, fld: Field, cmd: C.FaceoffPickup, by: Side) -> None:
    _v_winner(state, by)
    why = simple_refusal(state, fld, "pickup")
    if why:
        raise _refuse(why, "faceoff")


def _v_faceoff_contact(state: MatchState, fld: Field, cmd: C.FaceoffContact, by: Side) -> None:
    _v_winner(state, by)
    if cmd.challenge not in ("shove", "tackle"):
        raise MalformedInputError.of("faceoff.challenge_kind")
    why = simple_refusal(state, fld, cmd.challenge)
    if why:
        raise _refuse(why, "faceoff")
    why = contact_path_refusal(state, fld, tuple(cmd.path))
    if why:
        raise _refuse(why, "faceoff")


def _v_my_turn(state: MatchState, by: Side) -> None:
    if state.turn_side != by:
        raise _refuse("turn.other_side", "turn", side=side_term(str(state.turn_side)))


def _v_start_action(state: MatchState, fld: Field, cmd: C.StartAction, by: Side) -> Player:
    _v_my_turn(state, by)
    p = _own(state, cmd.player, by, "turn")
    if not p.on_field:
        raise _refuse("player.not_on_field", "turn", player=p.name)
    if p not in eligible_actors(state, by):
        raise _refuse("turn.last_action_taken", "turn", player=p.name, side=side_term(by))
    committed = _committed(state, by)
    if committed is not None and committed.id != p.id:
        raise _refuse("quickling.must_act", quickling.RULE, player=committed.name)
    return p


def _committed(state: MatchState, by: Side) -> Player | None:
    """The Quickling who doubled the counters and must act, while he still can."""
    pid = state.committed_actor
    if pid is None:
        return None
    p = state.players[pid]
    return p if p in eligible_actors(state, by) else None


def _v_replace(state: MatchState, fld: Field, cmd: C.Replace, by: Side) -> Player:
    _v_my_turn(state, by)
    p = _own(state, cmd.player, by, "replace")
    committed = _committed(state, by)
    if committed is not None:
        raise _refuse("quickling.must_act", quickling.RULE, player=committed.name)
    if len(state.on_field(by)) >= 6:
        raise _refuse("replace.field_full", "replace")
    if p.location is not Location.BENCH:
        raise _refuse("replace.not_on_bench", "replace", player=p.name, text=phrase_term(p.location.value.replace("_", " ")))
    if cmd.hex not in fld.replacement_hexes(by):
        anchors = " or ".join(fld.format(s.anchor) for s in fld.stairways[by])
        raise _refuse("replace.not_near_stairway", "replace", hex=fld.format(cmd.hex), text=anchors)
    if state.player_at(cmd.hex) is not None:
        raise _refuse("hex.taken", "replace", hex=fld.format(cmd.hex))
    return p


def _v_actor(state: MatchState, by: Side) -> tuple[Player, ActionState]:
    _v_my_turn(state, by)
    p = state.acting_player
    assert p is not None and state.action is not None
    return p, state.action


def _v_move(state: MatchState, fld: Field, cmd: C.Move, by: Side) -> Any:
    if cmd.ability is not None:
        return _v_counter_move(state, fld, cmd, by)
    return _v_jog_move(state, fld, cmd, by)


def _v_counter_move(state: MatchState, fld: Field, cmd: C.Move, by: Side) -> tuple[Player, counter_moves.CounterMove, bool]:
    """A move paid with Momentum counters (engine/abilities/counter_moves.py): who moves, and
    every step checked up front. Returns the mover, the ability and whether he is acting."""
    cm = counter_moves.counter_move(cmd.ability or "")
    p = counter_moves.mover(state, cm, cmd.player, by)
    acting = state.action is not None and state.action.player == p.id
    path = tuple(cmd.path)
    counter_moves.path_refusal(state, fld, cm, p, path, acting)
    ball = state.ball.hex if state.ball.carrier is None else None
    if acting and path[-1] == ball:
        assert state.action is not None
        why = challenge_refusal(state.action)
        if why:
            raise _refuse("move.pickup_and", "move", text=why)
    return p, cm, acting


def _v_jog_move(state: MatchState, fld: Field, cmd: C.Move, by: Side) -> tuple[Player, ActionState]:
    if state.phase is not Phase.ACTION:
        raise _refuse("move.nobody_acting", "turn")
    if cmd.player is not None and state.action is not None and cmd.player != state.action.player:
        raise _refuse("move.only_actor", "move")
    p, a = _v_actor(state, by)
    path = tuple(cmd.path)
    if not path:
        raise MalformedInputError.of("move.no_hex")
    if not p.standing:
        raise _refuse("move.stand_first", "stand", player=p.name, condition=Term("condition", p.status.value))
    if a.long_throw:
        raise _refuse("throw.long_no_move", "throw")
    if a.dash == "granted":
        if len(path) != 1:
            raise _refuse("dash.one_hex", "dash")
    elif a.dash != "none":
        raise _refuse("dash.move_used", "dash")
    elif a.normal_over:
        raise _refuse("action.over_dash", "move")
    else:
        cost = len(path) + (1 if a.surcharge else 0)
        if cost > a.jog_left:
            if a.surcharge:
                raise _refuse("move.jog_cost_surcharge", "move", n=len(path), n2=cost, n3=1, player=p.name, n4=a.jog_left)
            raise _refuse("move.jog_cost", "move", n=len(path), n2=cost, player=p.name, n3=a.jog_left)
    at = p.hex
    assert at is not None
    ball = state.ball.hex if state.ball.carrier is None else None
    for i, h in enumerate(path):
        if distance(at, h) != 1:
            raise MalformedInputError.of("move.not_next", hex=fld.format(h), hex2=fld.format(at))
        if h not in fld:
            raise _refuse("hex.off_field", "move", hex=fld.format(h))
        other = state.player_at(h)
        if other is not None:
            raise _refuse("hex.taken_by", "move", hex=fld.format(h), player=other.name)
        if h == ball and i != len(path) - 1:
            raise _refuse("move.pickup_ends", "move")
        at = h
    return p, a


def _v_face(state: MatchState, fld: Field, cmd: C.Face, by: Side) -> Player:
    p, _ = _v_actor(state, by)
    if not p.standing:
        raise _refuse("face.when_standing", "stand", player=p.name, condition=Term("condition", p.status.value))
    return p


def _v_stand(state: MatchState, fld: Field, cmd: C.StandUp, by: Side) -> tuple[Player, ActionState]:
    p, a = _v_actor(state, by)
    if p.standing:
        raise _refuse("stand.already", "stand", player=p.name)
    why = stand_refusal(state)
    if why:
        raise _refuse(why, "fr_stand")
    if a.normal_over:
        raise _refuse("action.over", "stand")
    cost = stand_cost(state, p)
    if cost > a.jog_left:
        raise _refuse("stand.cost", "stand", n=cost, player=p.name, n2=a.jog_left)
    return p, a


def _v_challenge(p: Player, a: ActionState, rule: str) -> None:
    if not p.standing:
        raise _refuse("challenge.not_standing", rule, player=p.name, condition=Term("condition", p.status.value))
    why = challenge_refusal(a)
    if why:
        raise _refuse(why, rule)


def _v_throw(state: MatchState, fld: Field, cmd: C.Throw, by: Side) -> tuple[Player, ActionState, bool]:
    p, a = _v_actor(state, by)
    assert p.hex is not None
    if state.ball.carrier != p.id:
        raise _refuse("throw.no_ball", "throw", player=p.name)
    _v_challenge(p, a, "throw")
    if cmd.target not in fld:
        raise _refuse("hex.off_field", "throw", hex=fld.format(cmd.target))
    dist = distance(p.hex, cmd.target)
    if dist == 0:
        raise _refuse("throw.same_hex", "throw")
    occupant = state.player_at(cmd.target)
    if occupant is not None and occupant.side != by:
        raise _refuse("throw.to_opponent", "throw")
    long = cmd.long if cmd.long is not None else dist > SHORT_MAX
    if long:
        if dist > LONG_MAX:
            raise _refuse("throw.beyond", "throw", n=dist, n2=LONG_MAX)
        if long_throw_barred(a) and not scrambles(p):
            raise _refuse("throw.long_barred", "throw", n=7, n2=SHORT_MAX)
    elif dist > SHORT_MAX:
        raise _refuse("throw.short_max", "throw", n=SHORT_MAX)
    return p, a, long


def _v_target(state: MatchState, p: Player, target_id: str, rule: str, *, standing: bool = True) -> Player:
    """An adjacent opponent; ``standing=False`` leaves his status to the caller (Cheapshot)."""
    t = _player(state, target_id)
    if t.side == p.side:
        raise _refuse("target.team_mate", rule, player=t.name)
    if not t.on_field or t.hex is None or p.hex is None or distance(t.hex, p.hex) != 1:
        raise _refuse("target.not_adjacent", rule, player=t.name)
    if standing and not t.standing:
        raise _refuse("target.not_standing", rule, player=t.name, condition=Term("condition", t.status.value))
    return t


def _v_tackle(state: MatchState, fld: Field, cmd: C.Tackle, by: Side) -> tuple[Player, ActionState, Player, str | None]:
    """Returns the ability the Tackle uses: ``cmd.use``, or Cheapshot on a Down/Dazed target."""
    if cmd.use is not None and cmd.use not in TACKLE_USES:
        raise MalformedInputError.of("tackle.unknown_use", text=repr(cmd.use), text2=", ".join(TACKLE_USES))
    p, a = _v_actor(state, by)
    t = _v_target(state, p, cmd.target, "tackle", standing=False)
    use, why = use_refusal(state, a, p, t, cmd.use)
    if why is not None:
        raise IllegalCommandError(why)
    if a.impact_tackle_used and not _dash_extra(state, a):
        raise _refuse("tackle.once", "tackle")
    _v_challenge(p, a, "tackle")
    return p, a, t, use


def _v_shove(state: MatchState, fld: Field, cmd: C.Shove, by: Side) -> tuple[Player, ActionState, Player]:
    p, a = _v_actor(state, by)
    t = _v_target(state, p, cmd.target, "shove")
    limit = shove_limit(state, p)
    if limit is not None and a.shoves >= limit and not _dash_extra(state, a):
        raise _refuse("shove.limit", "fr_shove", player=p.name, n=limit)
    _v_challenge(p, a, "shove")
    return p, a, t


def _dash_extra(state: MatchState, a: ActionState) -> bool:
    """The French Dash: "Si vous avez déjà utilisé toutes vos Poussées et/ou Plaquage, vous
    pouvez en exécuter un autre mais sans dés en bonus"."""
    return a.dash == "granted" and rule_options.variant(state, "fr_dash")


def _v_dash(state: MatchState, fld: Field, cmd: C.Dash, by: Side) -> tuple[Player, ActionState]:
    p, a = _v_actor(state, by)
    if cmd.sprint:
        why = sprinter.refusal(p, cmd.counters)
        if why:
            raise _refuse(why, sprinter.RULE)
    elif a.momentum_dash or (a.dash != "none" and not has(p, "sprinter")):
        raise _refuse("dash.once", "dash")
    if a.dash == "granted":
        raise _refuse("dash.use_last_first", sprinter.RULE)
    if a.long_throw:
        raise _refuse("throw.long_nothing_after", "throw")
    if not p.standing:
        raise _refuse("dash.not_standing", "dash", player=p.name, condition=Term("condition", p.status.value))
    if not cmd.sprint:
        have = state.momentum if state.momentum_side == by else 0
        if not 1 <= cmd.counters <= have:
            raise _refuse("dash.counters", "dash", n=have, n2=have)
    return p, a


def _v_out_of_sequence(state: MatchState, by: Side, what: str, rule: str) -> None:
    """Taunt, Quickling and React: "when his team earns a Shift in Momentum", before the team
    picks the player who takes its action."""
    _v_my_turn(state, by)
    if state.phase is not Phase.TURN or not state.after_sim:
        raise _refuse("out_of_sequence", rule, text=ability_term(what), side=side_term(by))


def _v_taunt(state: MatchState, fld: Field, cmd: C.Taunt, by: Side) -> tuple[Player, Player]:
    _v_out_of_sequence(state, by, "taunt", taunting.RULE)
    p = _own(state, cmd.player, by, taunting.RULE)
    t = _player(state, cmd.target)
    why = taunting.refusal(state, p, t, cmd.counters)
    if why:
        raise _refuse(why, taunting.RULE)
    return p, t


def _v_quickling(state: MatchState, fld: Field, cmd: C.Quickling, by: Side) -> Player:
    _v_out_of_sequence(state, by, "quickling", quickling.RULE)
    p = _own(state, cmd.player, by, quickling.RULE)
    why = quickling.refusal(state, p)
    if why:
        raise _refuse(why, quickling.RULE)
    return p


def _v_end(state: MatchState, fld: Field, cmd: C.EndAction, by: Side) -> Player | None:
    if state.phase is Phase.TURN:
        # Double player movement: the team passes on its second player.
        _v_my_turn(state, by)
        if not state.turn_actors:
            raise _refuse("double.pick_first", "double")
        return None
    p, _ = _v_actor(state, by)
    return p


def _v_cheer(state: MatchState, fld: Field, cmd: C.Cheer, by: Side) -> None:
    _v_actor(state, by)
    why = cheerleaders.refusal(state, by)
    if why:
        raise _refuse(why, "support")


def _v_drink_potion(state: MatchState, fld: Field, cmd: C.DrinkPotion, by: Side) -> Player:
    p = _player(state, cmd.player)
    why = potions.refusal(state, p, by)
    if why:
        raise _refuse(why, "potion")
    return p


def _v_cast_spell(state: MatchState, fld: Field, cmd: C.CastSpell, by: Side) -> None:
    _v_my_turn(state, by)
    why = wizard.refusal(state, fld, cmd.spell, cmd.target, cmd.hex, by)
    if why:
        raise _refuse(why, "wizard")


# --- handlers: validate, then change the working state ------------------------------------
def _place(ctx: Ctx, cmd: C.Place, by: Side) -> None:
    p = _v_place(ctx.state, ctx.field, cmd, by)
    p.location, p.hex, p.facing, p.status = Location.FIELD, cmd.hex, cmd.facing, Status.STANDING
    ctx.emit(PlayerPlaced(p.id, cmd.hex, cmd.facing.name))


def _unplace(ctx: Ctx, cmd: C.Unplace, by: Side) -> None:
    p = _v_unplace(ctx.state, ctx.field, cmd, by)
    p.location, p.hex, p.facing = Location.BENCH, None, None
    ctx.emit(PlayerUnplaced(p.id))


def _auto_setup(ctx: Ctx, cmd: C.AutoSetup, by: Side) -> None:
    _v_auto(ctx.state, ctx.field, cmd, by)
    for p in ctx.state.on_field(by):
        p.location, p.hex, p.facing = Location.BENCH, None, None
    for pid, h, facing in auto_placements(ctx.state, ctx.field, by):
        _place(ctx, C.Place(pid, h, facing), by)


def _setup_done(ctx: Ctx, cmd: C.SetupDone, by: Side) -> None:
    _v_setup_done(ctx.state, ctx.field, cmd, by)
    st = ctx.state
    ctx.emit(SetupCompleted(by))
    if by == st.first_setup_side:
        st.setup_side = other_side(by)
    else:
        st.setup_side = None
        roll_faceoff(ctx)


def _start_test(ctx: Ctx, cmd: C.StartTest, by: Side) -> None:
    start_test(ctx, first=ctx.state.last_scorer or "west")


def _faceoff_pickup(ctx: Ctx, cmd: C.FaceoffPickup, by: Side) -> None:
    _v_faceoff_pickup(ctx.state, ctx.field, cmd, by)
    free_pickup(ctx)


def _faceoff_contact(ctx: Ctx, cmd: C.FaceoffContact, by: Side) -> None:
    _v_faceoff_contact(ctx.state, ctx.field, cmd, by)
    free_contact(ctx, tuple(cmd.path), cmd.challenge)


def _start_action(ctx: Ctx, cmd: C.StartAction, by: Side) -> None:
    start_action(ctx, _v_start_action(ctx.state, ctx.field, cmd, by))


def _replace(ctx: Ctx, cmd: C.Replace, by: Side) -> None:
    p = _v_replace(ctx.state, ctx.field, cmd, by)
    st = ctx.state
    p.location, p.hex, p.facing, p.status = Location.FIELD, cmd.hex, cmd.facing, Status.STANDING
    ctx.emit(ReplacementMade(p.id, cmd.hex))
    st.last_moved[by] = p.id  # "This player should be marked as the last player moved."
    if st.ball.carrier is None and st.ball.hex == cmd.hex:
        pickup(ctx, p)  # "may pick-up the ball if it is in the hex" (G35: Jog-free, a failure shifts)
    # As a double movement's second "player" the turn's marker follows OP2 (docs/rules.md 14.1).
    end_turn(ctx, by, action_ended=bool(st.turn_actors))


def _finish_command(ctx: Ctx) -> None:
    """A SiM, or the acting player leaving the field, ends the action at once."""
    p = ctx.state.acting_player
    if ctx.sim or p is None or not p.on_field:
        end_action(ctx)


def _move(ctx: Ctx, cmd: C.Move, by: Side) -> None:
    if cmd.ability is not None:
        _counter_move(ctx, cmd, by)
        return
    p, a = _v_jog_move(ctx.state, ctx.field, cmd, by)
    walk(ctx, a, p, tuple(cmd.path), cmd.facing)
    if a.dash == "moved" and rule_options.variant(ctx.state, "fr_dash"):
        a.dash = "done"  # "pas d'autre défi que Désengager ou Ramasser"
    _finish_command(ctx)


def _counter_move(ctx: Ctx, cmd: C.Move, by: Side) -> None:
    st = ctx.state
    p, cm, acting = _v_counter_move(st, ctx.field, cmd, by)
    # Whose ability it is: the acting player's (Swarm, Lead Pass), else the mover's own.
    owner = st.acting_player if cm.ability in ("swarm", "lead-pass") else p
    assert owner is not None
    counter_walk(ctx, st.action if acting else None, p, tuple(cmd.path), cmd.facing, ability=cm.ability, owner=owner, cost=cm.cost)
    if st.phase is Phase.ACTION:
        _finish_command(ctx)
    elif not eligible_actors(st, by) and not replacement_possible(st, ctx.field, by):
        # A reacting player walked off the field and left his team nothing to do.
        st.after_sim = False
        begin_turn(ctx, by)


def _taunt(ctx: Ctx, cmd: C.Taunt, by: Side) -> None:
    p, t = _v_taunt(ctx.state, ctx.field, cmd, by)
    taunting.taunt(ctx, p, t, cmd.counters)


def _quickling(ctx: Ctx, cmd: C.Quickling, by: Side) -> None:
    quickling.double(ctx, _v_quickling(ctx.state, ctx.field, cmd, by))


def _face(ctx: Ctx, cmd: C.Face, by: Side) -> None:
    turn(ctx, _v_face(ctx.state, ctx.field, cmd, by), cmd.facing)


def _stand(ctx: Ctx, cmd: C.StandUp, by: Side) -> None:
    p, a = _v_stand(ctx.state, ctx.field, cmd, by)
    stand_up(ctx, a, p, cmd.facing)


def _throw(ctx: Ctx, cmd: C.Throw, by: Side) -> None:
    p, a, long = _v_throw(ctx.state, ctx.field, cmd, by)
    throw(ctx, a, p, cmd.target, long)
    _finish_command(ctx)


def _face_target(ctx: Ctx, p: Player, t: Player) -> None:
    # Facing may be chosen at the start of any challenge, so he turns to face his target.
    assert p.hex is not None and t.hex is not None
    turn(ctx, p, direction_between(p.hex, t.hex))


def _tackle(ctx: Ctx, cmd: C.Tackle, by: Side) -> None:
    p, a, t, use = _v_tackle(ctx.state, ctx.field, cmd, by)
    if a.impact_tackle_used:
        a.dash_die = None  # the Dash's extra Tackle comes "sans dés en bonus"
    _face_target(ctx, p, t)
    tackle(ctx, a, p, t, use)
    _finish_command(ctx)


def _shove(ctx: Ctx, cmd: C.Shove, by: Side) -> None:
    p, a, t = _v_shove(ctx.state, ctx.field, cmd, by)
    limit = shove_limit(ctx.state, p)
    if limit is not None and a.shoves >= limit:
        a.dash_die = None  # the Dash's extra Shove comes "sans dés en bonus"
    _face_target(ctx, p, t)
    shove(ctx, a, p, t)
    _finish_command(ctx)


def _dash(ctx: Ctx, cmd: C.Dash, by: Side) -> None:
    p, a = _v_dash(ctx.state, ctx.field, cmd, by)
    dash(ctx, a, p, cmd.counters, sprint=cmd.sprint)
    _finish_command(ctx)


def _end_action(ctx: Ctx, cmd: C.EndAction, by: Side) -> None:
    p = _v_end(ctx.state, ctx.field, cmd, by)
    if p is None:
        end_turn(ctx, by, action_ended=True)  # no second player this turn
        return
    if cmd.facing is not None and p.standing:
        turn(ctx, p, cmd.facing)
    end_action(ctx)


def _cheer(ctx: Ctx, cmd: C.Cheer, by: Side) -> None:
    _v_cheer(ctx.state, ctx.field, cmd, by)
    cheerleaders.cheer(ctx, by)


def _drink_potion(ctx: Ctx, cmd: C.DrinkPotion, by: Side) -> None:
    # Not an action: the turn (or set-up, or the wait between Tests) goes on.
    potions.drink(ctx, _v_drink_potion(ctx.state, ctx.field, cmd, by))


def _cast_spell(ctx: Ctx, cmd: C.CastSpell, by: Side) -> None:
    _v_cast_spell(ctx.state, ctx.field, cmd, by)
    wizard.cast(ctx, by, cmd.spell, cmd.target, cmd.hex)
    # "instead of taking an action with a player for this turn"; after a double movement's
    # first player, the turn's marker follows OP2.
    end_turn(ctx, by, action_ended=bool(ctx.state.turn_actors))


def _concede(ctx: Ctx, cmd: C.Concede, by: Side) -> None:
    st = ctx.state
    winner = other_side(by)
    ctx.emit(Conceded(by))
    experience.concession(ctx, winner)
    st.teams[winner].score = max(st.teams[winner].score, st.options.goals_to_win)
    end_match(ctx, winner, f"{by} conceded")


_PHASE_COMMANDS: dict[Phase, dict[type[C.Command], Handler]] = {
    Phase.SETUP: {
        C.Place: _place,
        C.Unplace: _unplace,
        C.AutoSetup: _auto_setup,
        C.SetupDone: _setup_done,
        C.DrinkPotion: _drink_potion,
    },
    Phase.FACEOFF: {C.FaceoffPickup: _faceoff_pickup, C.FaceoffContact: _faceoff_contact},
    Phase.TURN: {
        C.StartAction: _start_action,
        C.Replace: _replace,
        C.Move: _move,
        C.Taunt: _taunt,
        C.Quickling: _quickling,
        C.CastSpell: _cast_spell,
        C.DrinkPotion: _drink_potion,
        C.EndAction: _end_action,
    },
    Phase.ACTION: {
        C.Move: _move,
        C.Face: _face,
        C.StandUp: _stand,
        C.Throw: _throw,
        C.Tackle: _tackle,
        C.Shove: _shove,
        C.Dash: _dash,
        C.EndAction: _end_action,
        C.Cheer: _cheer,
    },
    Phase.TEST_OVER: {C.StartTest: _start_test, C.DrinkPotion: _drink_potion},
    Phase.MATCH_OVER: {C.DrinkPotion: _drink_potion},
}

#: The pure check for each command, for ``engine.legal``.
VALIDATORS: dict[type, Callable[[MatchState, Field, Any, Side], Any]] = {
    C.Place: _v_place,
    C.Unplace: _v_unplace,
    C.AutoSetup: _v_auto,
    C.SetupDone: _v_setup_done,
    C.StartTest: _v_start_test,
    C.FaceoffPickup: _v_faceoff_pickup,
    C.FaceoffContact: _v_faceoff_contact,
    C.StartAction: _v_start_action,
    C.Replace: _v_replace,
    C.Move: _v_move,
    C.Face: _v_face,
    C.StandUp: _v_stand,
    C.Throw: _v_throw,
    C.Tackle: _v_tackle,
    C.Shove: _v_shove,
    C.Dash: _v_dash,
    C.EndAction: _v_end,
    C.Taunt: _v_taunt,
    C.Quickling: _v_quickling,
    C.Cheer: _v_cheer,
    C.DrinkPotion: _v_drink_potion,
    C.CastSpell: _v_cast_spell,
}


def check(state: MatchState, command: C.Command, *, by: Side, field: Field | None = None) -> None:
    """Raise the refusal ``apply`` would give for ``command``, without rolling anything.

    Commands that need dice to be judged fully are judged up to their first roll, which is
    where every refusal lies.
    """
    fld = field or standard_field()
    _v_not_over(state, command)
    if isinstance(command, C.Concede):
        return
    if state.in_progress is not None:
        if not isinstance(command, C.Answer):
            raise _refuse("answer.pending", "action")
        _check_answer(state, state.in_progress, command.value, by)
        return
    if isinstance(command, C.Answer):
        raise _refuse("answer.none", "action")  # as apply() says it
    _handler(state, command)
    VALIDATORS[type(command)](state, fld, command, by)


# --- what next ---------------------------------------------------------------------------
def _default_replacement(state: MatchState, side: Side) -> tuple[C.Command, ...]:
    fld = standard_field()
    bench = [p for p in state.team_players(side) if p.location is Location.BENCH]
    free = sorted(h for h in fld.replacement_hexes(side) if state.player_at(h) is None)
    if not bench or not free or len(state.on_field(side)) >= 6:
        return ()
    toward = Direction.E if side == "west" else Direction.W
    return (C.Replace(bench[0].id, free[0], toward),)


def pending(state: MatchState) -> Pending:
    """The decision the match waits on, with a safe default for a coach who does not answer."""
    ip = state.in_progress
    if ip is not None and ip.question is not None:
        q = ip.question
        return Pending(q["side"], q["kind"], q, (C.Answer(q.get("default")),))
    st = state
    if st.phase is Phase.SETUP:
        return Pending(st.setup_side, "setup", None, (C.AutoSetup(), C.SetupDone()))
    if st.phase is Phase.FACEOFF:
        return Pending(st.faceoff_winner, "faceoff", None, (C.FaceoffPickup(),))
    if st.phase is Phase.TURN:
        side = st.turn_side
        assert side is not None
        committed = _committed(st, side)
        actors = [committed] if committed is not None else eligible_actors(st, side)
        default: tuple[C.Command, ...] = (C.StartAction(actors[0].id), C.EndAction()) if actors else _default_replacement(st, side)
        if st.turn_actors:
            default = (C.EndAction(),)  # a double movement's second player is a choice, not a duty
        return Pending(side, "turn", None, default)
    if st.phase is Phase.ACTION:
        return Pending(st.turn_side, "action", None, (C.EndAction(),))
    if st.phase is Phase.TEST_OVER:
        return Pending(st.last_scorer, "test_over", None, (C.StartTest(),))
    return Pending(None, "none")

