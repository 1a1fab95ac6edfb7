"""Random matches: every invariant after every command, and any command applies or raises a
rule error.

200 matches with random team lists and options (``engine.fuzz`` picks them from the seed) are
played in 20 chunks of 10 seeds, so a failure names its seed; repeat one with
``elfball replay-check --seed N --max-commands 1000`` (the same teams, options, coach and dice).
A full match takes about 2,500 commands (~1.5 s of CPU here, mostly the random coach listing
legal commands); to keep this file near 90 s the fuzzer concedes after ``MAX_COMMANDS`` = 1000,
so most matches end by that concession and a few by goals (the last test prints the split).
Set ``ELFBALL_FUZZ_MAX_COMMANDS`` (e.g. 4000) and ``ELFBALL_FUZZ_SEED`` to explore further, or
run ``elfball fuzz --matches 1000``.

60 more matches play the Advanced Rules (random learned abilities, team support, extra players,
advanced injuries, potions after the last goal; ~45 s): ``ELFBALL_FUZZ_ADVANCED_SEED`` moves
them, ``elfball fuzz --advanced`` plays more.
"""

from __future__ import annotations

import functools
import json
import os
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.fuzzing import GuardedDice, dice_limit
from engine import commands as C
from engine.dice import SeededDice
from engine.abilities.counter_moves import COUNTER_MOVES
from engine.challenges.tackle import USES as TACKLE_USES
from engine.errors import ElfballError, IllegalCommandError
from engine.events import Event, GoalScored
from engine.field import Field, standard_field
from engine.fuzz import RandomCoach, invariant_violations, random_entries
from engine.hexes import Direction, Hex
from engine.legal import candidate_commands, legal_commands
from engine.match import TeamEntry, apply, check, new_match, pending
from engine.rosters import all_team_lists, default_roster
from engine.state import Location, MatchState, Phase, RuleOptions, Status

FIELD = standard_field()
MAX_COMMANDS = int(os.environ.get("ELFBALL_FUZZ_MAX_COMMANDS", "1000"))
FIRST_SEED = int(os.environ.get("ELFBALL_FUZZ_SEED", "0"))
CHUNKS, PER_CHUNK = 20, 10


# --- invariants beyond engine.fuzz.invariant_violations ------------------------------------
def extra_violations(
    state: MatchState, fld: Field, *, roster: dict[str, int], drawn: int
) -> list[str]:
    """What must hold in every position, beyond ``engine.fuzz.invariant_violations``.

    (That one already checks: one ball, one player per hex, hex iff on the field, nobody on
    the outer line, a facing on the field, the carrier standing, Momentum 0-6, Jog >= 0, at
    most 6 on the field per team.)
    """
    out: list[str] = []
    phase = state.phase
    # Every player in exactly one place, and each team keeps its whole roster.
    for side in ("west", "east"):
        ids = state.teams[side].players  # type: ignore[index]
        if len(ids) != roster[side] or len(set(ids)) != len(ids):
            out.append(f"{side} lists {len(ids)} players, not its roster of {roster[side]}")
        for pid in ids:
            p = state.players.get(pid)
            if p is None or p.side != side:
                out.append(f"{pid} is listed for {side} but is not a {side} player")
    if len(state.players) != sum(roster.values()):
        out.append(f"{len(state.players)} players in the match, rosters total {sum(roster.values())}")
    # The carrier holds the ball in his own hex; a Down or Dazed player never holds it.
    c = state.carrier()
    if c is not None:
        if c.hex is None or state.ball_hex() != c.hex:
            out.append(f"the carrier {c.id} is not where the ball is")
        if not c.standing:
            out.append(f"{c.id} holds the ball while {c.status.value} ({c.location.value})")
    # Who acts: an action exactly in the ACTION phase, by an on-field player of the side to play.
    if (phase is Phase.ACTION) != (state.action is not None):
        out.append(f"phase {phase.value} with action {state.action}")
    if state.action is not None:
        p = state.players.get(state.action.player)
        if p is None or p.side != state.turn_side:
            out.append(f"the acting player {state.action.player} is not of {state.turn_side}, whose turn it is")
        elif not p.on_field:
            out.append(f"the acting player {p.id} is {p.location.value}")
    if phase in (Phase.TURN, Phase.ACTION, Phase.FACEOFF) and state.turn_side is None:
        out.append(f"phase {phase.value} without a side to play")
    if phase is Phase.SETUP and state.setup_side is None:
        out.append("set-up without a side setting up")
    if phase is Phase.FACEOFF and state.faceoff_winner is None:
        out.append("face-off phase without a winner")
    if phase is Phase.DECISION:
        out.append("the DECISION phase is stored (it is only reported while a question is pending)")
    if (phase is Phase.MATCH_OVER) != (state.winner is not None):
        out.append(f"phase {phase.value} with winner {state.winner}")
    if state.momentum and state.momentum_side is None:
        out.append(f"{state.momentum} Momentum counters that belong to nobody")
    for side in ("west", "east"):
        if not 0 <= state.teams[side].score <= state.options.goals_to_win:  # type: ignore[index]
            out.append(f"{side} has {state.teams[side].score} goals in a match to {state.options.goals_to_win}")  # type: ignore[index]
    if phase is Phase.SETUP and any(p.location is Location.FIELD and p.status.value != "standing" for p in state.players.values()):
        out.append("a player lies Down during set-up")
    # The state counts every fresh dice result, so a seeded source can resume from it.
    if state.dice_drawn != drawn:
        out.append(f"the state counts {state.dice_drawn} dice results, the source gave {drawn}")
    return out


def decision_violations(state: MatchState, fld: Field) -> list[str]:
    """The pending coach has a legal option and a legal safe default; the other coach can only
    concede, or between Tests start the next one or give a potion to a player off the field
    (Magic Potions, p. 11: "before setting up for any Test"; either coach may)."""
    if state.phase is Phase.MATCH_OVER:
        return []
    out: list[str] = []
    pend = pending(state)
    if pend.side is None:
        return [f"pending {pend.kind} for nobody"]
    if not legal_commands(state, pend.side, fld):
        out.append(f"pending {pend.kind} for {pend.side} has no legal option")
    if pend.default:
        try:
            check(state, pend.default[0], by=pend.side, field=fld)
        except ElfballError as exc:
            out.append(f"the default {pend.default[0]} for {pend.kind} is refused: {exc}")
    other = "east" if pend.side == "west" else "west"
    between_tests = (C.StartTest, C.DrinkPotion) if state.phase is Phase.TEST_OVER and state.in_progress is None else ()
    extra = [c for c in legal_commands(state, other, fld) if not isinstance(c, (C.Concede, *between_tests))]  # type: ignore[arg-type]
    if extra:
        out.append(f"{other} may {extra[0]} while {pend.side} is to decide {pend.kind}")
    return out


def over_violations(state: MatchState, dice: SeededDice) -> list[str]:
    """Once the match is over, nothing is accepted from either coach but a Magic Potion ("after
    the last goal is scored", p. 11) for a player off the field, and the answers it asks for."""
    out: list[str] = []
    for side in ("west", "east"):
        left = [c for c in legal_commands(state, side) if not isinstance(c, C.DrinkPotion)]  # type: ignore[arg-type]
        if state.in_progress is None and left:
            out.append(f"{side} still has legal commands after the match: {left[0]}")
        if any(isinstance(c, C.DrinkPotion) and not state.teams[side].available("potions")  # type: ignore[index]
               for c in legal_commands(state, side)):  # type: ignore[arg-type]
            out.append(f"{side} may drink a potion it does not have")
        for cmd in (C.Concede(), C.EndAction(), C.StartTest(), C.AutoSetup(), C.SetupDone(), C.Answer(None), C.FaceoffPickup()):
            try:
                apply(state, cmd, dice, by=side)  # type: ignore[arg-type]
            except IllegalCommandError:
                continue
            out.append(f"{cmd} by {side} was accepted after the match")
    return out


# --- the driver -------------------------------------------------------------------------------
@dataclass
class Played:
    seed: int
    teams: tuple[str, str]
    commands: int = 0
    end_reason: str | None = None
    by_cap: bool = False
    goals: int = 0  # GoalScored events (a concession also raises the winner's score)
    tests: int = 1
    questions: int = 0
    kinds: set[str] = field(default_factory=set)
    violations: list[str] = field(default_factory=list)


def play_checked(seed: int, max_commands: int = MAX_COMMANDS, *, advanced: bool = False) -> Played:
    """Like ``engine.fuzz.play_random_match`` (same teams, options and coach from the seed),
    checking every invariant here and there after every command."""
    rng = random.Random(seed)
    west, east, options = random_entries(rng, advanced=advanced)
    dice = GuardedDice(seed, dice_limit(max_commands))
    res = new_match(west, east, dice, options=options, field=FIELD)
    state = res.state
    roster = {s: len(state.teams[s].players) for s in ("west", "east")}  # type: ignore[index]
    out = Played(seed, (west.roster.team.id, east.roster.team.id))
    coach = RandomCoach(rng)

    def verify(st: MatchState, before: MatchState | None, cmd: C.Command | None, events: list[Event]) -> None:
        found = invariant_violations(st, FIELD) + extra_violations(st, FIELD, roster=roster, drawn=dice.drawn)
        found += decision_violations(st, FIELD)
        if before is not None:
            goals = sum(isinstance(ev, GoalScored) for ev in events)
            was = before.teams["west"].score + before.teams["east"].score
            now = st.teams["west"].score + st.teams["east"].score
            if not isinstance(cmd, C.Concede) and now - was != goals:
                found.append(f"the score went from {was} to {now} with {goals} goals")
            if now < was:
                found.append(f"the score went down from {was} to {now}")
            completed = st.in_progress is None
            if st.seq != before.seq + (1 if completed else 0):
                found.append(f"seq went from {before.seq} to {st.seq} ({'completed' if completed else 'paused'})")
        for v in found:
            out.violations.append(f"seed {seed}, after command {out.commands} ({cmd}): {v}")

    verify(state, None, None, res.events)
    while state.phase is not Phase.MATCH_OVER and len(out.violations) < 20:
        side = pending(state).side
        assert side is not None, f"seed {seed}: nobody to play in {state.phase}"
        if out.commands >= max_commands:
            cmd: C.Command = C.Concede()
            out.by_cap = True
        else:
            cmd = coach.choose(state, side, FIELD)
        if state.in_progress is not None:
            out.questions += 1
        before = state
        res = apply(state, cmd, dice, by=side, field=FIELD)
        out.commands += 1
        out.kinds.update(ev.kind for ev in res.events)
        out.goals += sum(isinstance(ev, GoalScored) for ev in res.events)
        state = res.state
        verify(state, before, cmd, res.events)
    # After the match: the coaches may still give potions ("after the last goal is scored").
    while state.phase is Phase.MATCH_OVER and len(out.violations) < 20:
        out.violations += [f"seed {seed}: {v}" for v in over_violations(state, dice)]
        after = coach.after_match(state, FIELD)
        if after is None:
            break
        side, cmd = after
        before = state
        res = apply(state, cmd, dice, by=side, field=FIELD)
        out.commands += 1
        out.kinds.update(ev.kind for ev in res.events)
        state = res.state
        verify(state, before, cmd, res.events)
    out.end_reason = state.end_reason
    out.tests = state.test
    return out


def test_the_extra_invariants_catch_broken_positions():
    from support.builders import P, position

    def broken(**change):
        st = position(
            P("w1", "timberline-elves/dryads", "F14", "E", ball=True),
            P("e1", "black-widows/strikers", "H14", "W"),
            acting="w1",
        )
        roster = {"west": 1, "east": 1}
        for what, value in change.items():
            if what == "carrier_status":
                st.players["w1"].status = value
            elif what == "actor":
                st.action.player = value
            else:
                setattr(st, what, value)
        return extra_violations(st, FIELD, roster=roster, drawn=0)

    assert broken() == []
    assert any("holds the ball while down" in v for v in broken(carrier_status=Status.DOWN))
    assert any("is not of west" in v for v in broken(actor="e1"))
    assert any("DECISION" in v for v in broken(phase=Phase.DECISION))
    assert any("belong to nobody" in v for v in broken(momentum=2, momentum_side=None))
    assert any("dice results" in v for v in broken(dice_drawn=3))
    assert any("phase turn with action" in v for v in broken(phase=Phase.TURN))


RESULTS: dict[int, Played] = {}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_matches_keep_every_invariant(chunk):
    seeds = range(FIRST_SEED + chunk * PER_CHUNK, FIRST_SEED + (chunk + 1) * PER_CHUNK)
    problems = []
    for seed in seeds:
        try:
            played = play_checked(seed)
        except Exception as exc:  # name the seed: elfball replay-check --seed N --max-commands 1000
            raise AssertionError(f"seed {seed} crashed: {exc!r}") from exc
        RESULTS[seed] = played
        problems += played.violations[:3]
        if played.end_reason is None and not played.violations:
            problems.append(f"seed {seed} did not end")
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_matches_end_and_some_by_goals(capsys):
    """Every match ended; report how: goals, other endings, or the fuzzer's concession cap."""
    if len(RESULTS) < CHUNKS * PER_CHUNK:
        pytest.skip("runs after the whole set of random matches")
    played = list(RESULTS.values())
    goals = sum(1 for p in played if p.end_reason == "goal")
    capped = sum(1 for p in played if p.by_cap)
    other = len(played) - goals - capped
    commands = sum(p.commands for p in played)
    line = (
        f"fuzz: {len(played)} matches, {commands} commands (cap {MAX_COMMANDS}): {goals} ended by goals "
        f"({100 * goals / len(played):.0f}%), {capped} by the concession cap, {other} otherwise; "
        f"{sum(p.questions for p in played)} questions answered; {sum(p.goals for p in played)} goals scored in all, {sum(p.tests > 1 for p in played)} matches reached Test 2"
    )
    with capsys.disabled():
        print("\n" + line)
    assert all(p.end_reason for p in played)
    if MAX_COMMANDS < 400:
        return  # too short to expect goals and every kind of event
    assert sum(p.goals for p in played) > 0, line  # the coach scores: goals and new Tests are exercised
    kinds = set().union(*(p.kinds for p in played))
    for kind in ("goal_scored", "challenge_rolled", "momentum_shifted", "ball_thrown", "ball_bounced", "player_fell"):
        assert kind in kinds, f"no random match produced a {kind} event"


# --- Advanced Rules ----------------------------------------------------------------------------
ADVANCED_CHUNKS, ADVANCED_PER_CHUNK = 6, 10
ADVANCED_FIRST_SEED = int(os.environ.get("ELFBALL_FUZZ_ADVANCED_SEED", "0"))
ADVANCED: dict[int, Played] = {}


def test_the_random_advanced_teams_are_legal_advanced_teams():
    """Valid lineups of 10 to 12 (extra players in their slots), abilities each learnable when
    learned, support within its limits; the Samhaino Horror and the Impcrusher do come up."""
    from engine.abilities import learnable
    from engine.match import SUPPORT_LIMITS
    from engine.teambuilding import Member, extra_of, lineup_problems

    extras = set()
    for seed in range(60):
        for entry in random_entries(random.Random(seed), advanced=True)[:2]:
            tl = entry.roster.team
            positions = [p for p, n in entry.roster.entries for _ in range(n)]
            assert not lineup_problems(tl, [Member(p.id) for p in positions], allow_extra=True), seed
            assert 10 <= len(positions) <= 12 and len(entry.players) == len(positions)
            for pos, career in zip(positions, entry.players):
                extras.update([pos.id] if extra_of(pos.id) else [])
                known = list(pos.innate_abilities)
                for a in career.abilities if career else ():
                    assert a in {x.id for x in learnable(str(pos.type), known, race=tl.id)}, (seed, pos.id, a)
                    known.append(a)
            assert all(0 <= n <= SUPPORT_LIMITS[item] for item, n in entry.support)
    assert extras == {"extra/samhaino-horror", "extra/impcrusher"}


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(ADVANCED_CHUNKS))
def test_advanced_random_matches_keep_every_invariant(chunk):
    """60 matches of Advanced teams (``engine.fuzz.random_advanced_entry``: learned abilities,
    team support, extra players, advanced injuries), potions given after the last goal too;
    repeat one with ``elfball replay-check --advanced --seed N``."""
    first = ADVANCED_FIRST_SEED + chunk * ADVANCED_PER_CHUNK
    problems = []
    for seed in range(first, first + ADVANCED_PER_CHUNK):
        try:
            played = play_checked(seed, advanced=True)
        except Exception as exc:
            raise AssertionError(f"advanced seed {seed} crashed: {exc!r}") from exc
        ADVANCED[seed] = played
        problems += played.violations[:3]
        if played.end_reason is None and not played.violations:
            problems.append(f"advanced seed {seed} did not end")
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_advanced_matches_use_the_advanced_rules(capsys):
    """The Advanced matches really exercise abilities, team support, potions and spells."""
    if len(ADVANCED) < ADVANCED_CHUNKS * ADVANCED_PER_CHUNK:
        pytest.skip("runs after the whole set of advanced matches")
    played = list(ADVANCED.values())
    kinds = set().union(*(p.kinds for p in played))
    with capsys.disabled():
        print(f"\nadvanced fuzz: {len(played)} matches, {sum(p.commands for p in played)} commands, "
              f"{sum(p.questions for p in played)} questions, {sum(p.goals for p in played)} goals")
    if MAX_COMMANDS < 400:
        return
    for kind in ("ability_used", "support_used", "potion_drunk", "spell_cast", "taunted", "experience_gained",
                 "injury_recorded", "referee_check"):
        assert kind in kinds, f"no advanced match produced a {kind} event"


# --- any command applies or raises a rule error ----------------------------------------------
@functools.cache
def positions() -> list[MatchState]:
    """Reachable positions: every state of a few random matches (set-up, face-off, turns,
    actions, paused questions, Tests over, matches over), Basic and Advanced (abilities,
    support, potions after the match)."""
    out: list[MatchState] = []
    for seed in range(9000, 9005):
        rng = random.Random(seed)
        w, e = rng.sample(all_team_lists(), 2)
        dice = SeededDice(seed)
        state = new_match(TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), dice,
                          options=RuleOptions(goals_to_win=rng.choice((1, 2)))).state
        out += _walk(state, dice, RandomCoach(rng, purpose=0.8))
    for seed in range(9100, 9104):
        rng = random.Random(seed)
        west, east, options = random_entries(rng, advanced=True)
        dice = SeededDice(seed)
        out += _walk(new_match(west, east, dice, options=options).state, dice, RandomCoach(rng, purpose=0.8))
    return out


def _walk(state: MatchState, dice: SeededDice, coach: RandomCoach) -> list[MatchState]:
    out = [state]
    for _ in range(600):
        if state.phase is Phase.MATCH_OVER:
            after = coach.after_match(state, FIELD)
            if after is None:
                break
            side, cmd = after
        else:
            side = pending(state).side  # type: ignore[assignment]
            assert side is not None
            cmd = coach.choose(state, side, FIELD)
        state = apply(state, cmd, dice, by=side).state
        out.append(state)
    return out


@pytest.mark.slow
def test_the_positions_cover_every_phase_and_questions():
    phases = {p.phase for p in positions()}
    assert {Phase.SETUP, Phase.FACEOFF, Phase.TURN, Phase.ACTION} <= phases
    assert any(p.in_progress is not None for p in positions())
    assert any(p.after_sim for p in positions()), "no position after a Shift in Momentum"
    assert any(p.teams["west"].support or p.teams["east"].support for p in positions())


hexes = st.builds(Hex, st.integers(-13, 13), st.integers(-13, 13))
directions = st.sampled_from(list(Direction))


def fuzzed_commands(state: MatchState) -> st.SearchStrategy[C.Command]:
    """Well-typed commands with arbitrary arguments, most of them illegal."""
    ids = st.sampled_from([*state.players, "w99", "x"])
    path = st.lists(hexes, min_size=0, max_size=3).map(tuple)
    answer = st.one_of(
        st.none(), st.sampled_from(["catch", "decline", "e1", "w1", "retry", "stay", "plough", "use", "keep", "NE", "W",
                                    "agile", "might", "steady+sprinter"]),
        st.lists(st.integers(-2, 8), max_size=4),
        st.integers(-3, 9), st.text(max_size=3),
    )
    return st.one_of(
        st.builds(C.Place, ids, hexes, directions),
        st.builds(C.Unplace, ids),
        st.just(C.AutoSetup()),
        st.just(C.SetupDone()),
        st.just(C.StartTest()),
        st.just(C.FaceoffPickup()),
        st.builds(C.FaceoffContact, path, st.sampled_from(["shove", "tackle", "hug"])),
        st.builds(C.StartAction, ids),
        st.builds(C.Replace, ids, hexes, directions),
        st.builds(C.Move, path, st.none() | directions),
        st.builds(C.Face, directions),
        st.builds(C.StandUp, st.none() | directions),
        st.builds(C.Throw, hexes, st.none() | st.booleans()),
        st.builds(C.Tackle, ids),
        st.builds(C.Shove, ids),
        st.builds(C.Dash, st.integers(-1, 8)),
        st.builds(C.EndAction, st.none() | directions),
        st.builds(C.Answer, answer),
        st.just(C.Concede()),
        # The Advanced Rules' commands, with abilities and spells known and unknown.
        st.builds(C.Move, path, st.none() | directions, st.sampled_from([*COUNTER_MOVES, "fly"]), st.none() | ids),
        st.builds(C.Tackle, ids, st.sampled_from([*TACKLE_USES, "bite"])),
        st.builds(C.Dash, st.integers(-1, 8), st.booleans()),
        st.just(C.Cheer()),
        st.builds(C.Quickling, ids),
        st.builds(C.Taunt, ids, ids, st.integers(-1, 7)),
        st.builds(C.DrinkPotion, ids),
        st.builds(C.CastSpell, st.sampled_from(["inferno", "system_shock", "transformation", "fireball"]),
                  st.none() | ids, st.none() | hexes),
    )


def _apply_or_refuse(state: MatchState, cmd: C.Command, side: str, seed: int) -> None:
    snapshot = json.dumps(state.to_dict(), sort_keys=True)
    try:
        check(state, cmd, by=side, field=FIELD)  # type: ignore[arg-type]
        checked = True
    except ElfballError:
        checked = False
    try:
        res = apply(state, cmd, SeededDice(seed), by=side, field=FIELD)  # type: ignore[arg-type]
    except ElfballError:
        applied = False
    else:
        applied = True
        assert not invariant_violations(res.state, FIELD), (cmd, invariant_violations(res.state, FIELD))
    # apply never mutates its input, whether it accepts the command or refuses it.
    assert json.dumps(state.to_dict(), sort_keys=True) == snapshot, f"{cmd} by {side} changed the state it was given"
    # check() (what legal_commands uses) and apply() agree.
    assert checked == applied, f"check says {'legal' if checked else 'illegal'} but apply {'accepted' if applied else 'refused'} {cmd} by {side}"


EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
POSITION = st.integers(0, 10**6)  # an index into positions(), taken modulo its length


@EXAMPLES
@given(data=st.data(), index=POSITION, side=st.sampled_from(["west", "east"]), seed=st.integers(0, 2**16))
def test_any_candidate_applies_or_raises_a_rule_error(data, index, side, seed):
    pool = positions()
    state = pool[index % len(pool)]
    candidates = candidate_commands(state, side, FIELD)  # type: ignore[arg-type]
    if not candidates:
        assert state.phase is Phase.MATCH_OVER
        return
    cmd = data.draw(st.sampled_from(candidates), label="command")
    _apply_or_refuse(state, cmd, side, seed)


@pytest.mark.slow
@EXAMPLES
@given(data=st.data(), index=POSITION, side=st.sampled_from(["west", "east"]), seed=st.integers(0, 2**16))
def test_any_command_applies_or_raises_a_rule_error(data, index, side, seed):
    pool = positions()
    state = pool[index % len(pool)]
    cmd = data.draw(fuzzed_commands(state), label="command")
    _apply_or_refuse(state, cmd, side, seed)


# --- elfball fuzz -----------------------------------------------------------------------------
def test_cli_fuzz_summary(capsys):
    from cli.main import main

    assert main(["fuzz", "--matches", "3", "--seed", "7", "--max-commands", "80"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "matches:    3 (seeds 7-9)" in out
    assert "violations: 0" in out and "crashes:    0" in out
    assert "ended by goals:" in out and "concession cap (80 commands): 3" in out
    assert "matches/s" in out and "commands/s" in out
    assert "fuzz: 3/3 matches" in captured.err  # progress goes to stderr


def test_cli_fuzz_advanced_and_its_replay_check(capsys):
    """``--advanced`` plays Advanced teams; ``replay-check --advanced`` rebuilds those teams
    (abilities, support, extra players) to replay the match exactly."""
    from cli.main import main

    assert main(["fuzz", "--advanced", "--matches", "2", "--seed", "3", "--max-commands", "150"]) == 0
    assert "violations: 0" in capsys.readouterr().out
    assert main(["replay-check", "--advanced", "--seed", "3", "--max-commands", "150"]) == 0
    assert "replay identical" in capsys.readouterr().out


def test_cli_fuzz_reports_violations_and_crashes_with_their_seed(monkeypatch, capsys):
    import service.fuzzing as P
    from cli.main import main

    real = P.play_random_match

    def flaky(seed, **kwargs):
        if seed == 2:
            raise KeyError("w99")
        state, report = real(seed, **kwargs)
        if seed == 1:
            report.violations.append("after command 3: something impossible")
        return state, report

    monkeypatch.setattr(P, "play_random_match", flaky)
    assert main(["fuzz", "--matches", "3", "--max-commands", "20"]) == 1
    out = capsys.readouterr().out
    assert "violations: 1" in out and "seed 1: after command 3: something impossible" in out
    assert "crashes:    1" in out and "seed 2: KeyError: 'w99'" in out
    assert "elfball replay-check --seed 2" in out


def test_cli_fuzz_stops_a_runaway_dice_loop():
    from service.fuzzing import GuardedDice

    dice = GuardedDice(1, limit=10)
    for _ in range(10):
        dice.d6()
    with pytest.raises(RuntimeError, match="runaway dice"):
        dice.face()


# --- regressions the fuzzer found -------------------------------------------------------------
def test_a_ball_cornered_behind_a_goal_still_bounces_out():
    """Seed 1008: a carrier on the west goal hex (B12) flopped a throw; the ball scattered west
    into A12, the outer-line hex behind the goal, whose every neighbour on the field is a white
    line, and the engine re-rolled the bounce direction forever (memory grew until killed)."""
    from support.builders import P, act, hx, position

    st = position(
        P("e1", "black-widows/strikers", "B12", "E", ball=True),
        P("w1", "black-widows/strikers", "K12", "E"),
        acting="e1",
    )
    # Flop; scatter D6 5 = west into A12; W, W re-rolled, then E onto the goal hex, distance 3.
    res = act(st, C.Throw(hx("F12")), faces="X X - -", d6="5 5 5 2 3")
    bounce = next(e for e in res.events if e.kind == "ball_bounced")
    assert (FIELD.format(bounce.origin), FIELD.format(bounce.to), bounce.rerolled) == ("A12", "B12", ("W", "W"))
    assert res.state.in_progress is not None and res.state.in_progress.question["kind"] == "catch"


def test_the_random_coach_answers_a_pending_question():
    """Seed 1003: with a question pending, the coach's purposeful branch ended the action of a
    carrier standing on the goal hex instead of answering."""
    paused = [p for p in positions() if p.in_progress is not None]
    assert paused
    for i, state in enumerate(paused[:40]):
        side = pending(state).side
        for seed in range(5):
            cmd = RandomCoach(random.Random(seed), purpose=1.0).choose(state, side, FIELD)  # type: ignore[arg-type]
            assert isinstance(cmd, (C.Answer, C.Concede)), (i, cmd)


def test_a_concession_closes_the_out_of_sequence_window():
    """Advanced fuzz, seed 0: west conceded while its React/Taunt window was open after east's
    Shift in Momentum; the finished match kept ``after_sim`` (and would keep a Quickling's
    commitment), a turn's state in a match that has no turns left."""
    from support.builders import P, position

    st = position(
        P("w1", "gnolls/safeties", "G12", "E", abilities=("react", "quickling")),
        P("e1", "gnolls/safeties", "P12", "W"),
        momentum=(3, "west"), turn="west",
    )
    st.after_sim, st.committed_actor = True, "w1"
    res = apply(st, C.Concede(), SeededDice(1), by="west")
    assert res.state.phase is Phase.MATCH_OVER
    assert not res.state.after_sim and res.state.committed_actor is None
    assert not invariant_violations(res.state, FIELD)
