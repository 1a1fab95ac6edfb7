"""Fuzzing the engine: a random legal-command coach and the invariants every position keeps.

The coach picks a random legal command, but half the time a purposeful one (walk the carrier
toward the opposing goal, send the others after the ball, answer questions at random), so
random matches reach goals and exercise the whole rulebook instead of wandering forever.
``play_random_match`` checks every invariant after every command.

``advanced=True`` plays the Advanced Rules (pp. 11-14, 19): ``random_entries`` gives each team
10 to 12 players, a few learnable abilities on most of them (Type abilities favoured, so the
rarer ones come up), random team support within ``SUPPORT_LIMITS`` and, for the lists that may
field one, sometimes a Samhaino Horror or an Impcrusher.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import groupby

from . import commands as C
from .dice import DiceSource, SeededDice
from .events import Event, GoalScored
from .field import Field, Side, other_side, standard_field
from .hexes import distance
from .legal import LegalCommands, candidate_commands, legal_commands
from .abilities import learnable
from .match import SUPPORT_LIMITS, PlayerEntry, TeamEntry, apply, new_match, pending
from .rosters import Position, TeamList, TeamRoster, all_team_lists, default_roster, extra_players, position_by_id
from .teambuilding import Member, extra_of, lineup_problems
from .state import Location, MatchState, Phase, RuleOptions

__all__ = ["invariant_violations", "advanced_violations", "RandomCoach", "random_entries", "random_advanced_entry", "play_random_match", "FuzzReport"]

MAX_COMMANDS = 4000  # a match still running after this many commands is conceded by the fuzzer


def invariant_violations(state: MatchState, field: Field | None = None) -> list[str]:
    fld = field or standard_field()
    out: list[str] = []
    seen: dict = {}
    for p in state.players.values():
        if (p.location is Location.FIELD) != (p.hex is not None):
            out.append(f"{p.id} is {p.location.value} with hex {p.hex}")
        if p.hex is not None:
            if p.hex not in fld:
                out.append(f"{p.id} stands off the field at {p.hex}")
            elif fld.info(p.hex).edge_line:
                out.append(f"{p.id} stands on the outer white line")
            if p.hex in seen:
                out.append(f"{p.id} and {seen[p.hex]} share {fld.format(p.hex)}")
            seen[p.hex] = p.id
            if p.facing is None:
                out.append(f"{p.id} is on the field without a facing")
    ball = state.ball
    if ball.carrier is not None:
        c = state.players.get(ball.carrier)
        if c is None or not c.standing:
            out.append(f"the ball is held by {ball.carrier}, who is not standing on the field")
        if ball.hex is not None:
            out.append("the ball is both carried and on the ground")
    elif state.phase is not Phase.MATCH_OVER:
        if ball.hex is None or ball.hex not in fld:
            out.append(f"the ball is nowhere ({ball.hex})")
        elif ball.hex in seen and state.in_progress is None:
            out.append(f"the loose ball lies under {seen[ball.hex]}")
    if not 0 <= state.momentum <= 6:
        out.append(f"Momentum {state.momentum} is off the track")
    if state.action is not None and state.action.jog_left < 0:
        out.append(f"Jog {state.action.jog_left} is negative")
    for side in ("west", "east"):
        if len(state.on_field(side)) > 6:
            out.append(f"{side} has more than 6 players on the field")
    return out + advanced_violations(state)


#: Injury records that keep a player in the Infirmary for the rest of the match.
_LASTING = ("lasting", "career_ending", "dead")


def advanced_violations(state: MatchState) -> list[str]:
    """What the Advanced Rules keep true: support used within what was bought, one potion per
    player, frogs only during a Test, recorded injuries in the Infirmary, the out-of-sequence
    window only before a player is picked."""
    out: list[str] = []
    for side, team in state.teams.items():
        for item in SUPPORT_LIMITS:
            if team.used.get(item, 0) > team.support.get(item, 0):
                out.append(f"{side} used {team.used[item]} {item} of {team.support.get(item, 0)}")
        drunk = sum(1 for p in state.team_players(side) if p.potion_used)
        if drunk != team.used.get("potions", 0):
            out.append(f"{drunk} {side} players drank potions, {team.used.get('potions', 0)} were used")
    for p in state.players.values():
        if p.injury is not None and p.injury.get("kind") in _LASTING and p.location is not Location.INFIRMARY:
            out.append(f"{p.id} has a {p.injury['kind']} injury but is {p.location.value}")
        if p.frog is not None and state.phase in (Phase.SETUP, Phase.MATCH_OVER):
            out.append(f"{p.id} is still a giant frog in the {state.phase.value} phase")
        if p.xp < 0:
            out.append(f"{p.id} has {p.xp} XP")
    if state.after_sim and state.phase is not Phase.TURN:
        out.append(f"the out-of-sequence window is open in the {state.phase.value} phase")
    if state.committed_actor is not None:
        c = state.players.get(state.committed_actor)
        if state.phase is not Phase.TURN or c is None or c.side != state.turn_side:
            out.append(f"{state.committed_actor} is committed to act in the {state.phase.value} phase")
    a = state.action
    if a is not None and a.lead_pass is not None:
        lp = state.players.get(a.lead_pass)
        if lp is None or lp.side != state.turn_side:
            out.append(f"Lead Pass lets {a.lead_pass} move, who is not of {state.turn_side}")
    return out


#: Commands spending one-shot team support.
SPARING = (C.DrinkPotion, C.CastSpell, C.Cheer)


@dataclass
class RandomCoach:
    rng: random.Random
    purpose: float = 0.5

    def choose(self, state: MatchState, side: Side, field: Field) -> C.Command:
        legal = legal_commands(state, side, field)
        kinds: dict[type, list[C.Command]] = {}
        for c in candidate_commands(state, side, field):
            if not isinstance(c, C.Concede):
                kinds.setdefault(type(c), []).append(c)
        # A pending question is answered at random: the purposeful moves are not answers.
        if self.rng.random() < self.purpose and state.in_progress is None:
            pick = self._purposeful(state, side, field, legal)
            if pick is not None:
                return pick
        # A random kind of command, then a random legal one of that kind: validating lazily
        # keeps a throw's hundreds of target hexes from costing hundreds of checks.
        order = list(kinds)
        self.rng.shuffle(order)
        # One-shot team support is mostly kept for later, so some is left for the end of a
        # Test and after the match (potions) instead of all going in the first turns.
        order.sort(key=lambda k: k in SPARING and self.rng.random() < 0.8)
        for kind in order:
            options = kinds[kind]
            self.rng.shuffle(options)
            for c in options:
                if legal.is_legal(c):
                    return c
        return C.Concede()

    def after_match(self, state: MatchState, field: Field) -> tuple[Side, C.Command] | None:
        """What a coach does once the match is over: answer a potion's question, drink a potion
        ("after the last goal is scored"), or nothing (None) half the time."""
        ip = state.in_progress
        if ip is not None and ip.question is not None:
            side: Side = ip.question["side"]
            return side, self.choose(state, side, field)
        sides: list[Side] = ["west", "east"]
        drinkers = [(s, c) for s in sides for c in legal_commands(state, s, field).of(C.DrinkPotion)]
        if not drinkers or self.rng.random() < 0.5:
            return None
        return self.rng.choice(drinkers)

    def _purposeful(self, state: MatchState, side: Side, fld: Field, legal: LegalCommands) -> C.Command | None:
        ball = state.ball_hex()
        goal = fld.goals[other_side(side)]
        if state.phase is Phase.TURN:
            starts = legal.of(C.StartAction)
            if starts and ball is not None:
                # a player who may start an action stands on the field, so his hex is set
                return min(starts, key=lambda c: distance(state.players[c.player].hex, ball))  # type: ignore[arg-type]  # on the field
        if state.phase is Phase.ACTION:
            p = state.acting_player
            assert p is not None and p.hex is not None  # the acting player stands on the field
            moves = legal.of(C.Move)
            stand = legal.of(C.StandUp)
            if stand:
                return stand[0]
            if state.ball.carrier == p.id:
                if p.hex == goal:
                    return C.EndAction()
                closer = [m for m in moves if distance(m.path[-1], goal) < distance(p.hex, goal)]
                if closer:
                    return self.rng.choice(closer)
            elif ball is not None and moves:
                closer = [m for m in moves if distance(m.path[-1], ball) < distance(p.hex, ball)]
                if closer:
                    return self.rng.choice(closer)
            hits = legal.of(C.Tackle) + legal.of(C.Shove)
            if hits and self.rng.random() < 0.5:
                return self.rng.choice(hits)
        return None


# --- the teams ---------------------------------------------------------------------------------
def random_advanced_entry(rng: random.Random, tl: TeamList) -> TeamEntry:
    """An Advanced team of ``tl``: its default lineup, maybe an extra player in the slot he
    replaces, maybe one or two more players (up to 12, within the maxima), learned abilities on
    most players (valid per ``learnable``) and random team support."""
    members = [p.id for p, n in tl.default_lineup for _ in range(n)]
    for extra in extra_players(tl):  # a Samhaino Horror or an Impcrusher in the slot he replaces
        slot = extra.replaced_position_id(tl.id)
        if slot in members and rng.random() < 0.6:
            members[members.index(slot)] = extra.id
    for _ in range(rng.choice((0, 0, 1, 2))):
        pid = rng.choice(tl.positions).id
        if not lineup_problems(tl, [Member(m) for m in (*members, pid)], allow_extra=True):
            members.append(pid)
    # Roster order: the list's positions, each extra player right after the slot he takes.
    slots = [p.id for p in tl.positions]
    members.sort(key=lambda m: (slots.index(_slot(tl, m)), m not in slots))
    entries = [(position_by_id(m), len(list(group))) for m, group in groupby(members)]
    careers = [_random_career(rng, position_by_id(m), tl.id) for m in members]
    support = tuple((item, rng.randint(0, most)) for item, most in SUPPORT_LIMITS.items())
    return TeamEntry(tl.name, TeamRoster(team=tl, entries=tuple(entries)), players=tuple(careers), support=support)


def _slot(tl: TeamList, position_id: str) -> str:
    extra = extra_of(position_id)
    return (extra.replaced_position_id(tl.id) if extra else None) or position_id


def _random_career(rng: random.Random, position: Position, race: str) -> PlayerEntry | None:
    """0 to 3 abilities learned one after another, a Type ability three times as likely as a
    General one (there are fewer of them, and they are what the Type rules are about). The
    Impcrusher learns none."""
    extra = extra_of(position.id)
    if rng.random() < 0.25 or (extra is not None and not extra.learns_abilities):
        return None
    known = list(position.innate_abilities)
    for _ in range(rng.randint(1, 3)):
        options = learnable(str(position.type), known, race=race)
        if not options:
            break
        weights = [1 if a.general else 3 for a in options]
        known.append(rng.choices(options, weights)[0].id)
    learned = tuple(a for a in known if a not in position.innate_abilities)
    return PlayerEntry(learned) if learned else None


def random_entries(rng: random.Random, *, advanced: bool = False) -> tuple[TeamEntry, TeamEntry, RuleOptions]:
    """The two teams and the options of a random match: default Basic rosters, or with
    ``advanced`` random Advanced teams and ``RuleOptions.advanced``."""
    w, e = rng.sample(all_team_lists(), 2)
    goals = rng.choice((1, 1, 2, 3))
    options = RuleOptions(goals_to_win=goals, star2=rng.random() < 0.2, advanced=advanced)
    if not advanced:
        return TeamEntry(w.name, default_roster(w)), TeamEntry(e.name, default_roster(e)), options
    return random_advanced_entry(rng, w), random_advanced_entry(rng, e), options


@dataclass
class FuzzReport:
    seed: int
    teams: tuple[str, str]
    commands: int = 0
    winner: str | None = None
    goals: tuple[int, int] = (0, 0)
    violations: list[str] = field(default_factory=list)
    conceded_by_fuzzer: bool = False
    entries: tuple[TeamEntry, TeamEntry] | None = None  # what the match was created with, to replay it


def play_random_match(seed: int, *, dice: DiceSource | None = None, field: Field | None = None,
                      max_commands: int = MAX_COMMANDS, record: list[tuple[Side, C.Command]] | None = None,
                      advanced: bool = False) -> tuple[MatchState, FuzzReport]:
    """Play one random match with random team lists, checking invariants after each command."""
    rng = random.Random(seed)
    fld = field or standard_field()
    west, east, options = random_entries(rng, advanced=advanced)
    dice = dice or SeededDice(seed)
    res = new_match(west, east, dice, options=options, field=fld)
    state = res.state
    report = FuzzReport(seed, (west.roster.team.id, east.roster.team.id), entries=(west, east))
    coach = RandomCoach(rng)

    def check(st: MatchState, events: list[Event], before: tuple[int, int], conceded: bool = False) -> None:
        for v in invariant_violations(st, fld):
            report.violations.append(f"after command {report.commands}: {v}")
        scored = sum(1 for ev in events if isinstance(ev, GoalScored))
        now = (st.teams["west"].score, st.teams["east"].score)
        if sum(now) - sum(before) != scored and not conceded:
            report.violations.append(f"score changed from {before} to {now} with {scored} goals")
        if st.phase is not Phase.MATCH_OVER:
            pend = pending(st)
            if pend.side is None or not legal_commands(st, pend.side, fld):
                report.violations.append(f"pending {pend.kind} for {pend.side} has no legal option")

    check(state, res.events, (0, 0))
    while state.phase is not Phase.MATCH_OVER:
        side = pending(state).side
        assert side is not None
        if report.commands >= max_commands:
            cmd: C.Command = C.Concede()
            report.conceded_by_fuzzer = True
        else:
            cmd = coach.choose(state, side, fld)
        before = (state.teams["west"].score, state.teams["east"].score)
        if record is not None:
            record.append((side, cmd))
        res = apply(state, cmd, dice, by=side, field=fld)
        state = res.state
        report.commands += 1
        check(state, res.events, before, isinstance(cmd, C.Concede))
    while report.commands < max_commands + 40:
        after = coach.after_match(state, fld)
        if after is None:
            break
        side, cmd = after
        if record is not None:
            record.append((side, cmd))
        before = (state.teams["west"].score, state.teams["east"].score)
        res = apply(state, cmd, dice, by=side, field=fld)
        state = res.state
        report.commands += 1
        check(state, res.events, before)
    report.winner = state.winner
    report.goals = (state.teams["west"].score, state.teams["east"].score)
    return state, report
