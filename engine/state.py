"""The match state: plain, typed, copyable, and JSON-serialisable without loss.

Nothing here applies rules; ``engine.match`` does. A state is never mutated by the public API:
``apply`` works on ``state.copy()`` and returns the copy.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .field import Side, other_side
from .hexes import Direction, Hex

__all__ = [
    "SCHEMA_VERSION",
    "RULES_EDITION",
    "Phase",
    "Status",
    "Location",
    "Player",
    "Team",
    "Ball",
    "ActionState",
    "InProgress",
    "RuleOptions",
    "Deck",
    "MatchState",
]

SCHEMA_VERSION = 1
#: The engine's rulings, numbered: a match keeps the edition it was created with, so a stored
#: match replays (``service/verify.py``) with the rulings it was played under. Edition 1: before
#: issue 20; edition 2: the Impcrusher's check after a scoring action, Psycho's Impact with
#: Pummel, the tournament's support list (docs/rules.md 11.5, 13.8, 14.4); edition 3 (issue 32):
#: a wobbly throw's receiver may decline the Catch, a potion does not undo the referee
#: (docs/rules.md 7.4, 13.6).
RULES_EDITION = 3


class Phase(StrEnum):
    """Where the match is. ``DECISION`` is reported whenever a resolution waits on a coach."""

    SETUP = "setup"
    FACEOFF = "faceoff"  # the face-off winner chooses his free challenge
    TURN = "turn"  # a team picks who acts (or makes a Replacement)
    ACTION = "action"  # a player is acting
    TEST_OVER = "test_over"  # a goal was scored; the next Test has not started
    MATCH_OVER = "match_over"
    #: Never stored: ``MatchState.current_phase`` reports it while a resolution waits on a
    #: coach's answer (the stored phase is the one the paused command was issued in).
    DECISION = "decision"


class Status(StrEnum):
    STANDING = "standing"
    DOWN = "down"  # face-up: stands for 5 - Grit Jog
    DAZED = "dazed"  # face-down: stands for 8 - Grit Jog


class Location(StrEnum):
    FIELD = "field"
    BENCH = "bench"  # fit, may come on as a Replacement or be set up
    SENT_OFF = "sent_off"  # on the Bench but sitting out the rest of this Test (Referee, Injury 3)
    RECOVERY = "recovery"  # unconscious: to the Bench once the next Test has started
    INFIRMARY = "infirmary"  # out for the game
    EJECTED = "ejected"  # ejected by the referee for the rest of the game


@dataclass(slots=True)
class Player:
    id: str
    side: Side
    number: int
    name: str
    position: str  # roster position id
    type: str  # player Type (language-neutral id)
    jog: int
    might: int
    tackle: int
    dodge: int
    skill: int
    grit: int
    abilities: tuple[str, ...] = ()
    location: Location = Location.BENCH
    hex: Hex | None = None
    facing: Direction | None = None
    status: Status = Status.STANDING
    # -- Advanced rules bookkeeping for this match (the league layer reads it afterwards) --
    xp: int = 0  # experience earned in this match
    potion_abilities: tuple[str, ...] = ()  # gained from a potion, for this game only
    potion_used: bool = False  # "a player may only take one potion per game"
    #: His own profile while the Transformation spell makes him a giant frog (restored at the
    #: end of the Test): {"type", "attributes", "abilities"}.
    frog: dict[str, Any] | None = None
    #: A lasting result for the roster: {"kind": "career_ending" | "lasting" | "dead", ...};
    #: a lasting injury lists the tied highest ``attributes`` his coach chooses from.
    injury: dict[str, Any] | None = None

    @classmethod
    def from_position(cls, pid: str, side: Side, number: int, name: str, position: Any, **where: Any) -> Player:
        """A player with a roster position's profile (``engine.rosters.Position``) and abilities."""
        a = position.attributes
        return cls(
            id=pid, side=side, number=number, name=name, position=position.id, type=str(position.type),
            jog=a.jog, might=a.might, tackle=a.tackle, dodge=a.dodge, skill=a.skill, grit=a.grit,
            abilities=tuple(position.innate_abilities), **where,
        )

    @property
    def on_field(self) -> bool:
        return self.location is Location.FIELD

    @property
    def standing(self) -> bool:
        return self.location is Location.FIELD and self.status is Status.STANDING

    def attribute(self, name: str) -> int:
        return int(getattr(self, name))

    def copy(self) -> Player:
        # Explicit and shallow: every field is immutable (hot path: one copy per player per command).
        return Player(
            self.id, self.side, self.number, self.name, self.position, self.type, self.jog, self.might,
            self.tackle, self.dodge, self.skill, self.grit, self.abilities, self.location, self.hex,
            self.facing, self.status, self.xp, self.potion_abilities, self.potion_used, self.frog, self.injury,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "number": self.number,
            "name": self.name,
            "position": self.position,
            "type": self.type,
            "attributes": [self.jog, self.might, self.tackle, self.dodge, self.skill, self.grit],
            "abilities": list(self.abilities),
            "location": self.location.value,
            "hex": None if self.hex is None else [self.hex.q, self.hex.r],
            "facing": None if self.facing is None else self.facing.name,
            "status": self.status.value,
            # Advanced bookkeeping only when set, so Basic states stay as they were.
            **({"xp": self.xp} if self.xp else {}),
            **({"potion_abilities": list(self.potion_abilities)} if self.potion_abilities else {}),
            **({"potion_used": True} if self.potion_used else {}),
            **({"frog": self.frog} if self.frog is not None else {}),
            **({"injury": self.injury} if self.injury is not None else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        j, m, t, dg, s, g = d["attributes"]
        return cls(
            id=d["id"],
            side=d["side"],
            number=d["number"],
            name=d["name"],
            position=d["position"],
            type=d["type"],
            jog=j,
            might=m,
            tackle=t,
            dodge=dg,
            skill=s,
            grit=g,
            abilities=tuple(d.get("abilities", ())),
            location=Location(d["location"]),
            hex=None if d["hex"] is None else Hex(*d["hex"]),
            facing=None if d["facing"] is None else Direction[d["facing"]],
            status=Status(d["status"]),
            xp=d.get("xp", 0),
            potion_abilities=tuple(d.get("potion_abilities", ())),
            potion_used=d.get("potion_used", False),
            frog=d.get("frog"),
            injury=d.get("injury"),
        )


@dataclass(slots=True)
class Team:
    side: Side
    name: str
    list_id: str  # roster team list id
    colours: tuple[str, str]
    players: list[str]  # player ids in roster order
    score: int = 0
    #: Team support bought under the Advanced Rules (p. 11), by item id: bribed_referee,
    #: cheerleaders, kegs, potions, wizard -> how many.
    support: dict[str, int] = field(default_factory=dict)
    #: What has been used of it: per Test (cheerleaders, kegs) or per game (potions, wizard,
    #: bribe_void once the referee has had enough).
    used: dict[str, int] = field(default_factory=dict)

    def copy(self) -> Team:
        return dataclasses.replace(self, players=list(self.players), support=dict(self.support), used=dict(self.used))

    def available(self, item: str) -> int:
        """How many of a support item are left to use now."""
        return max(0, self.support.get(item, 0) - self.used.get(item, 0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "name": self.name,
            "list": self.list_id,
            "colours": list(self.colours),
            "players": list(self.players),
            "score": self.score,
            **({"support": dict(self.support)} if self.support else {}),
            **({"used": dict(self.used)} if self.used else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Team:
        return cls(
            d["side"], d["name"], d["list"], tuple(d["colours"]), list(d["players"]), d["score"],
            dict(d.get("support", {})), dict(d.get("used", {})),
        )


@dataclass(slots=True)
class Ball:
    """On the ground at ``hex`` or held by ``carrier`` (whose hex it then shares)."""

    hex: Hex | None
    carrier: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"hex": None if self.hex is None else [self.hex.q, self.hex.r], "carrier": self.carrier}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Ball:
        return cls(None if d["hex"] is None else Hex(*d["hex"]), d["carrier"])


@dataclass(slots=True)
class ActionState:
    """Bookkeeping for the player taking the current action (Jog, once-per-action limits)."""

    player: str
    jog_left: int
    moved: bool = False  # moved at least one hex
    challenged: bool = False  # attempted any challenge (rules out a long throw after)
    stood_up: bool = False
    impact_tackle_used: bool = False  # "Once per an action you may attempt to tackle"
    surcharge: bool = False  # a failed Impact: 1 extra pace before moving or challenging again
    free_challenge_used: bool = False  # the Jog-free last challenge of the normal action (J2)
    long_throw: bool = False  # a throw of 7+ hexes: nothing else this action
    dash: str = "none"  # none -> granted -> moved -> done (one Dash per action; Sprinters start again)
    faceoff_free: bool = False  # the face-off winner's free paces and challenge
    sprints: int = 0  # Sprinter: Dash challenges attempted this action
    momentum_dash: bool = False  # the one Dash paid with Momentum (a Sprinter may add his own, G46)
    lead_pass: str | None = None  # Lead Pass: the team-mate who caught his throw and may move now
    burst: bool = False  # Burst: he gained the ball by a Pick-up or a Steal this action
    shoves: int = 0  # Shoves attempted this action (the French limit, half his Jog)
    #: The French Dash's extra die, waiting for its challenge: "any", or "impact"/"tackle"
    #: once the coach put it on one of the two.
    dash_die: str | None = None

    @property
    def normal_over(self) -> bool:
        return self.free_challenge_used or self.long_throw or self.dash != "none"

    def copy(self) -> ActionState:
        return dataclasses.replace(self)

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        for key, default in _ACTION_OPTIONAL.items():  # only when set, so older states read the same
            if out[key] == default:
                del out[key]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ActionState:
        return cls(**d)


#: ActionState fields of the optional rules, written only when they differ from these.
_ACTION_OPTIONAL: dict[str, Any] = {"shoves": 0, "dash_die": None}


@dataclass(slots=True)
class InProgress:
    """A command whose resolution waits on a coach's answer.

    The engine re-runs ``command`` from the state it was issued in with ``answers`` given so
    far and the dice results ``drawn`` so far, until it needs the next answer (engine.context).
    ``emitted`` counts the events already returned to callers, so each is reported once.
    """

    command: dict[str, Any]
    by: Side
    answers: list[Any] = field(default_factory=list)
    drawn: list[list[Any]] = field(default_factory=list)
    emitted: int = 0
    question: dict[str, Any] | None = None

    def copy(self) -> InProgress:
        return InProgress(
            dict(self.command), self.by, list(self.answers), [list(x) for x in self.drawn], self.emitted,
            None if self.question is None else dict(self.question),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "by": self.by,
            "answers": list(self.answers),
            "drawn": [list(x) for x in self.drawn],
            "emitted": self.emitted,
            "question": self.question,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> InProgress:
        return cls(d["command"], d["by"], list(d["answers"]), [list(x) for x in d["drawn"]], d["emitted"], d["question"])


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Per-match choices the rulebook leaves to the coaches: the Optional Rules (pp. 18-19),
    the French 0.0.6 differences and the tournament rules (``engine/options.py`` names, parses
    and describes them; docs/rules.md section 14). Every field has a default, so a state saved
    before a field existed still loads."""

    #: "A normal game would be played to first goal wins". 0 only in a timed game: no goal
    #: limit, the deck alone ends it.
    goals_to_win: int = 1
    star2: bool = False  # optional rule: a star counts 2 successes and is not re-rolled
    #: Play-by-post clock: hours a coach has for each decision before a moderator may declare
    #: a forfeit (0: no clock). Not a rule of the book; the engine only carries it.
    clock_hours: int = 0
    #: The Advanced Rules' Injury results (career-ending and lasting injuries) instead of the
    #: Basic ones (p. 8). Abilities and team support work whenever a team has them.
    advanced: bool = False
    timed: bool = False  # OP1: a deck of cards times the game
    decks: int = 1  # how many 52-card decks a timed game uses (the French text allows 2)
    double: bool = False  # OP2: two players act in each team turn
    simple_faceoff: bool = False  # OP4: 6 dice each, then an automatic knock-down or ball
    optional_teams: bool = True  # OP5: the Orcs and Ratmen lists may play
    #: OP6: the extra players allowed (``samhaino-horror``, ``impcrusher``).
    extra_players: tuple[str, ...] = ("samhaino-horror", "impcrusher")
    #: French 0.0.6 differences in force, by id (``engine.options.VARIANTS``).
    variants: tuple[str, ...] = ()
    #: The French text's tournament rules: the event deck, its scoring, team limits.
    tournament: bool = False
    #: Team turns before the game ends (0: none): the play-by-post stand-in for a tournament's
    #: 75 minutes.
    turn_limit: int = 0
    profile: str = "standard"  # the profile the options started from, for display
    #: The engine's rulings this match plays (``RULES_EDITION``). New options take the current
    #: one; options stored without it were made under edition 1 and keep it.
    edition: int = RULES_EDITION

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["extra_players"], out["variants"] = list(self.extra_players), list(self.variants)
        if self.edition == 1:
            del out["edition"]  # stored as before editions existed: an old record compares equal
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RuleOptions:
        d = dict(d)
        d.setdefault("edition", 1)
        for key in ("extra_players", "variants"):
            if key in d:
                d[key] = tuple(d[key])
        return cls(**d)


@dataclass(slots=True)
class Deck:
    """The cards of a timed game (OP1) or a tournament's event deck, by kind: ``plain`` (2-10,
    and every card of a timed game without events), ``face`` (J to A), ``joker``.
    ``no_event`` counts the "no unusual event" cards each side drew (tournament scoring)."""

    cards: dict[str, int]
    no_event: dict[str, int] = field(default_factory=lambda: {"west": 0, "east": 0})

    @property
    def left(self) -> int:
        return sum(self.cards.values())

    def copy(self) -> Deck:
        return Deck(dict(self.cards), dict(self.no_event))

    def to_dict(self) -> dict[str, Any]:
        return {"cards": dict(self.cards), "no_event": dict(self.no_event)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Deck:
        return cls(dict(d["cards"]), dict(d.get("no_event", {"west": 0, "east": 0})))


@dataclass(slots=True)
class MatchState:
    options: RuleOptions
    teams: dict[Side, Team]
    players: dict[str, Player]
    ball: Ball
    phase: Phase = Phase.SETUP
    test: int = 1
    setup_side: Side | None = None  # who is placing players now
    first_setup_side: Side | None = None
    turn_side: Side | None = None  # whose turn it is (TURN/ACTION)
    last_moved: dict[Side, str | None] = field(default_factory=lambda: {"west": None, "east": None})
    momentum: int = 0
    momentum_side: Side | None = None  # the team that may spend the counters
    action: ActionState | None = None
    faceoff_winner: Side | None = None
    last_scorer: Side | None = None
    winner: str | None = None  # "west", "east" or "draw" once the match is over
    end_reason: str | None = None
    dice_drawn: int = 0  # fresh dice results drawn so far (the offset of a seeded source)
    seq: int = 0  # commands completed
    in_progress: InProgress | None = None
    #: The turn began after the other team's Shift in Momentum: out-of-sequence abilities
    #: (React, Taunt, Quickling) may be used before the team picks its player.
    after_sim: bool = False
    committed_actor: str | None = None  # Quickling doubled the counters: he must take the action
    targeted: list[str] = field(default_factory=list)  # hit by Impact/Tackle/Shove this turn (Enrage)
    provoked: list[str] = field(default_factory=list)  # ... on the previous turn
    once: list[str] = field(default_factory=list)  # "w3:agile": once-per-action uses this action
    # -- Optional rules (engine/options.py) --
    deck: Deck | None = None  # a timed game's cards, a tournament's event deck
    turns: int = 0  # team turns finished (a turn limit)
    turn_actors: list[str] = field(default_factory=list)  # who acted this team turn (double movement)
    turn_carrier: str | None = None  # who held the ball as this team turn began (the last-moved marker)
    turn_stood: bool = False  # a player stood up this team turn (the French one stand-up a turn)
    turn_after_sim: bool = False  # this team turn began after the other team's Shift in Momentum
    #: Sent to the Bench by the referee for the rest of this Test (rules edition 3): unlike a
    #: Bench-for-the-Test Injury, no potion brings them back before the next Test.
    referee_benched: list[str] = field(default_factory=list)
    schema: int = SCHEMA_VERSION

    # -- queries used everywhere -------------------------------------------------------
    def on_field(self, side: Side | None = None) -> list[Player]:
        return [
            p for p in self.players.values() if p.location is Location.FIELD and (side is None or p.side == side)
        ]

    def player_at(self, h: Hex) -> Player | None:
        for p in self.players.values():
            if p.hex == h and p.location is Location.FIELD:
                return p
        return None

    def occupancy(self) -> dict[Hex, Player]:
        return {p.hex: p for p in self.players.values() if p.location is Location.FIELD and p.hex is not None}

    def carrier(self) -> Player | None:
        return self.players[self.ball.carrier] if self.ball.carrier else None

    def ball_hex(self) -> Hex | None:
        c = self.carrier()
        return c.hex if c else self.ball.hex

    def team_players(self, side: Side) -> list[Player]:
        return [self.players[pid] for pid in self.teams[side].players]

    @property
    def current_phase(self) -> Phase:
        """The phase a coach sees: DECISION while a question is pending."""
        return Phase.DECISION if self.in_progress is not None else self.phase

    @property
    def acting_side(self) -> Side | None:
        return self.turn_side if self.phase is Phase.ACTION else None

    @property
    def acting_player(self) -> Player | None:
        return self.players[self.action.player] if self.action else None

    def opponent(self, side: Side) -> Side:
        return other_side(side)

    # -- copying and JSON ---------------------------------------------------------------
    def copy(self) -> MatchState:
        return dataclasses.replace(
            self,
            teams={s: t.copy() for s, t in self.teams.items()},
            players={pid: p.copy() for pid, p in self.players.items()},
            ball=dataclasses.replace(self.ball),
            last_moved=dict(self.last_moved),
            targeted=list(self.targeted),
            provoked=list(self.provoked),
            once=list(self.once),
            deck=self.deck.copy() if self.deck else None,
            turn_actors=list(self.turn_actors),
            referee_benched=list(self.referee_benched),
            action=self.action.copy() if self.action else None,
            in_progress=self.in_progress.copy() if self.in_progress else None,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": self.schema,
            "options": self.options.to_dict(),
            "teams": {s: t.to_dict() for s, t in self.teams.items()},
            "players": [p.to_dict() for p in self.players.values()],
            "ball": self.ball.to_dict(),
            "phase": self.phase.value,
            "test": self.test,
            "setup_side": self.setup_side,
            "first_setup_side": self.first_setup_side,
            "turn_side": self.turn_side,
            "last_moved": dict(self.last_moved),
            "momentum": self.momentum,
            "momentum_side": self.momentum_side,
            "action": self.action.to_dict() if self.action else None,
            "faceoff_winner": self.faceoff_winner,
            "last_scorer": self.last_scorer,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "dice_drawn": self.dice_drawn,
            "seq": self.seq,
            "in_progress": self.in_progress.to_dict() if self.in_progress else None,
            **({"after_sim": True} if self.after_sim else {}),
            **({"committed_actor": self.committed_actor} if self.committed_actor else {}),
            **({"targeted": list(self.targeted)} if self.targeted else {}),
            **({"provoked": list(self.provoked)} if self.provoked else {}),
            **({"once": list(self.once)} if self.once else {}),
            **({"deck": self.deck.to_dict()} if self.deck else {}),
            **({"turns": self.turns} if self.turns else {}),
            **({"turn_actors": list(self.turn_actors)} if self.turn_actors else {}),
            **({"turn_carrier": self.turn_carrier} if self.turn_carrier else {}),
            **({"turn_stood": True} if self.turn_stood else {}),
            **({"turn_after_sim": True} if self.turn_after_sim else {}),
            **({"referee_benched": list(self.referee_benched)} if self.referee_benched else {}),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchState:
        if d.get("schema") != SCHEMA_VERSION:
            raise ValueError(f"match state schema {d.get('schema')!r} is not {SCHEMA_VERSION}")
        players = [Player.from_dict(p) for p in d["players"]]
        return cls(
            options=RuleOptions.from_dict(d["options"]),
            teams={s: Team.from_dict(t) for s, t in d["teams"].items()},
            players={p.id: p for p in players},
            ball=Ball.from_dict(d["ball"]),
            phase=Phase(d["phase"]),
            test=d["test"],
            setup_side=d["setup_side"],
            first_setup_side=d["first_setup_side"],
            turn_side=d["turn_side"],
            last_moved=dict(d["last_moved"]),
            momentum=d["momentum"],
            momentum_side=d["momentum_side"],
            action=ActionState.from_dict(d["action"]) if d["action"] else None,
            faceoff_winner=d["faceoff_winner"],
            last_scorer=d["last_scorer"],
            winner=d["winner"],
            end_reason=d["end_reason"],
            dice_drawn=d["dice_drawn"],
            seq=d["seq"],
            in_progress=InProgress.from_dict(d["in_progress"]) if d["in_progress"] else None,
            after_sim=d.get("after_sim", False),
            committed_actor=d.get("committed_actor"),
            targeted=list(d.get("targeted", ())),
            provoked=list(d.get("provoked", ())),
            once=list(d.get("once", ())),
            deck=Deck.from_dict(d["deck"]) if d.get("deck") else None,
            turns=d.get("turns", 0),
            turn_actors=list(d.get("turn_actors", ())),
            turn_carrier=d.get("turn_carrier"),
            turn_stood=d.get("turn_stood", False),
            turn_after_sim=d.get("turn_after_sim", False),
            referee_benched=list(d.get("referee_benched", ())),
        )
