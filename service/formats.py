"""Competition formats, as pure functions: teams, seeds and results in, the next pairings out.

Nothing here reads a clock, a database or an unseeded random source: the same arguments give
the same answer, so a draw can be checked by anyone who has its secret (``draw_order``).

* **Round robin** (``round_robin``): everyone meets everyone once (or twice, home and away).
* **Knockout** (single or double elimination): the teams are placed in a bracket of the next power of two
  by seed (``bracket``: 1 v 8, 4 v 5, 2 v 7, 3 v 6 ...); the missing places are byes, which go
  to the top seeds. ``knockout_due`` says which ties can be played now from the winners so far;
  ``knockout_winner`` decides a played tie, with the league's ruling for a draw.
* **Swiss** (``swiss_pairings``): each round pairs teams on equal points where it can, never two
  teams that met before; an odd field gives one team a bye a round (the lowest-ranked team that
  has not had one).

docs/league.md says what each format does for a commissioner.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FORMATS",
    "SEEDINGS",
    "DRAW_RULES",
    "Pairing",
    "round_robin",
    "draw_order",
    "seeded_order",
    "bracket_size",
    "seed_positions",
    "bracket",
    "knockout_rounds",
    "knockout_due",
    "knockout_champion",
    "knockout_entrants",
    "Tie",
    "elimination_ties",
    "EMPTY",
    "LOSERS",
    "GRAND_FINAL",
    "knockout_winner",
    "coin",
    "swiss_rounds",
    "max_swiss_rounds",
    "swiss_order",
    "swiss_pairings",
    "fingerprint",
]

#: The formats a commissioner chooses at ``/league create`` (the first is the default).
FORMATS = ("round_robin", "knockout", "swiss", "double_elimination", "divisions")
#: How a knockout's or a Swiss's first round is ordered: a draw, or the commissioner's seeds.
SEEDINGS = ("drawn", "seeded")
#: What a drawn knockout tie gives: played again, the higher seed through, or a coin from the
#: match's own dice seed (revealed when the match ends).
DRAW_RULES = ("replay", "higher_seed", "coin")


@dataclass(frozen=True)
class Pairing:
    """One fixture to store: its round, home and away team ids, and (knockout) its bracket slot."""

    round: int
    home: int
    away: int
    slot: int | None = None


# --- round robin -----------------------------------------------------------------------------------
def round_robin(team_ids: Sequence[int], *, double: bool = False) -> list[tuple[int, int, int]]:
    """Every team meets every other once (twice, home and away, with ``double``): ``(round, home,
    away)`` by the circle method, a bye for one team a round when their number is odd. Homes
    alternate so no team has more than one home game more than away games."""
    ids: list[int | None] = list(team_ids)
    if len(ids) < 2:
        return []
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    first: list[tuple[int, int, int]] = []
    for rnd in range(n - 1):
        for i in range(n // 2):
            a, b = ids[i], ids[n - 1 - i]
            if a is None or b is None:
                continue
            # The fixed team alternates; every other pair has its upper-row team at home, and the
            # rotation moves each team between the rows: nobody is home twice more than away.
            first.append((rnd + 1, b, a) if i == 0 and rnd % 2 else (rnd + 1, a, b))
        ids = [ids[0], ids[-1], *ids[1:-1]]
    if not double:
        return first
    return first + [(rnd + n - 1, away, home) for rnd, home, away in first]


# --- the draw --------------------------------------------------------------------------------------
def _digest(*parts: object) -> str:
    return hashlib.sha256(":".join(str(p) for p in parts).encode("utf-8")).hexdigest()


def draw_order(team_ids: Sequence[int], secret: str) -> list[int]:
    """The teams in the order the draw gives them: sorted by SHA-256 of ``secret:team id``.
    Whoever has the secret (revealed with the schedule) and the team numbers checks it."""
    return sorted(team_ids, key=lambda t: (_digest(secret, t), t))


def seeded_order(team_ids: Sequence[int], seeds: Sequence[int], secret: str) -> list[int]:
    """Seed 1 first: the teams in ``seeds`` in that order, then the others in draw order."""
    present = set(team_ids)
    first = [t for t in dict.fromkeys(seeds) if t in present]
    return first + [t for t in draw_order(team_ids, secret) if t not in first]


def fingerprint(pairings: Sequence[Pairing], byes: Sequence[int] = ()) -> str:
    """A short digest of a previewed draw: confirming it draws exactly that, or nothing."""
    text = ";".join(f"{p.round},{p.home},{p.away},{p.slot}" for p in pairings) + "|" + ",".join(map(str, byes))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# --- knockout --------------------------------------------------------------------------------------
def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` teams (2 at least)."""
    return max(2, 1 << max(0, n - 1).bit_length())


def knockout_rounds(n: int, double: bool = False) -> int:
    """How many rounds a knockout of ``n`` teams has (the final included); a double
    elimination's, to its grand final (a second grand final may add one)."""
    rounds = int(math.log2(bracket_size(n)))
    return 2 * rounds if double else rounds


def seed_positions(size: int) -> list[int]:
    """The seed (1-based) at each place of a bracket of ``size``, top to bottom, so that seeds
    1 and 2 can meet only in the final and every first-round tie adds up to ``size + 1``:
    8 → [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket(order: Sequence[int]) -> list[int | None]:
    """The bracket's places, top to bottom: the team of each seed (``order[0]`` is seed 1), None
    where a seed beyond the field is a bye for its opponent (always one of the top seeds)."""
    return [order[s - 1] if s <= len(order) else None for s in seed_positions(bracket_size(len(order)))]


#: Where a tie's two teams come from: a place of the bracket, or the winner or loser of a tie.
Source = tuple[str, Any]
#: A place or a tie's side that nobody fills (a bye, a walkover's loser): nobody plays from it.
EMPTY = -1
#: A double elimination's losers' bracket and grand final, as stored: ``slot`` offsets.
LOSERS, GRAND_FINAL = 1000, 2000


@dataclass(frozen=True)
class Tie:
    """One tie of an elimination bracket: its key ``(round, slot)`` as its fixture stores it,
    where its two teams come from, and its ``stage``: ``winners`` (a knockout's only bracket),
    ``losers``, ``grand_final`` or ``reset`` (the grand final played again when the losers'
    bracket's team won the first)."""

    round: int
    slot: int
    inputs: tuple[Source, Source]
    stage: str = "winners"

    @property
    def key(self) -> tuple[int, int]:
        return (self.round, self.slot)


def elimination_ties(size: int, double: bool = False) -> list[Tie]:
    """Every tie of a bracket of ``size`` places, in order of play. Single elimination: rounds
    1..R of the winners. Double elimination adds the losers' bracket (its round k is played
    with the winners' round k + 1: stored as round k + 1, slot ``LOSERS + i``): round 1 pairs the
    first round's losers, each even round meets the winners' next round's losers (in reverse
    order, so that two teams meet again as late as can be), each odd round pairs its
    survivors; then the grand final (round 2R) and, if the losers' team wins it, its second
    match (round 2R + 1)."""
    rounds = int(math.log2(size))
    ties = [Tie(r, s, (("place", 2 * s), ("place", 2 * s + 1)) if r == 1
                else (("winner", (r - 1, 2 * s)), ("winner", (r - 1, 2 * s + 1))))
            for r in range(1, rounds + 1) for s in range(size >> r)]
    if not double:
        return ties
    last: Source = ("loser", (1, 0))  # two teams: the final's loser is the losers' champion
    for k in range(1, 2 * rounds - 1):
        count = size >> ((k + 1) // 2 + 1)
        for i in range(count):
            if k == 1:
                inputs: tuple[Source, Source] = (("loser", (1, 2 * i)), ("loser", (1, 2 * i + 1)))
            elif k % 2 == 0:
                inputs = (("winner", (k, LOSERS + i)), ("loser", (k // 2 + 1, count - 1 - i)))
            else:
                inputs = (("winner", (k, LOSERS + 2 * i)), ("winner", (k, LOSERS + 2 * i + 1)))
            ties.append(Tie(k + 1, LOSERS + i, inputs, "losers"))
        last = ("winner", (k + 1, LOSERS))
    ties.append(Tie(2 * rounds, GRAND_FINAL, (("winner", (rounds, 0)), last), "grand_final"))
    ties.append(Tie(2 * rounds + 1, GRAND_FINAL + 1, (("reset", (2 * rounds, GRAND_FINAL)), ("reset", None)), "reset"))
    return ties


class _Bracket:
    """A bracket's ties read with the winners so far: who is in each tie (a team, None: not
    known yet, or ``EMPTY``)."""

    def __init__(self, places: Sequence[int | None], winners: Mapping[tuple[int, int], int], double: bool) -> None:
        self.places, self.winners = places, winners
        self.ties = {t.key: t for t in elimination_ties(len(places), double)}
        self.memo: dict[tuple[int, int], tuple[int | None, int | None]] = {}

    def entrants(self, key: tuple[int, int]) -> tuple[int | None, int | None]:
        if key not in self.memo:
            tie = self.ties[key]
            if tie.stage == "reset":
                self.memo[key] = self._reset(tie.inputs[0][1])
            else:
                a, b = tie.inputs
                self.memo[key] = (self.source(a), self.source(b))
        return self.memo[key]

    def _reset(self, final: tuple[int, int]) -> tuple[int | None, int | None]:
        """The grand final's second match: only if the losers' bracket's team won the first."""
        a, b = self.entrants(final)
        won = self.winners.get(final)
        if won is None or a is None or b is None:
            return (None, None) if won is None else (EMPTY, EMPTY)
        return (EMPTY, EMPTY) if won == a or EMPTY in (a, b) else (a, b)

    def source(self, src: Source) -> int | None:
        kind, ref = src
        if kind == "place":
            team = self.places[ref]
            return EMPTY if team is None else team
        a, b = self.entrants(ref)
        if kind == "winner":
            if a == EMPTY or b == EMPTY:  # a walkover: the other goes through unplayed
                return b if a == EMPTY else a
            return self.winners.get(ref)
        if a == EMPTY or b == EMPTY:  # a walkover has no loser
            return EMPTY
        won = self.winners.get(ref)
        return None if won is None or a is None or b is None else (b if won == a else a)

    def through(self, key: tuple[int, int]) -> int | None:
        return self.source(("winner", key))


def _double(places: Sequence[int | None], double: bool) -> bool:
    return double and len(places) >= 2


def knockout_due(places: Sequence[int | None], winners: Mapping[tuple[int, int], int],
                 seeds: Mapping[int, int], double: bool = False) -> list[Pairing]:
    """The ties that can be played now and are not decided: both teams known. The higher seed
    (lower number in ``seeds``) is at home. A tie with a bye (an empty place, a walkover's
    missing loser) is no tie: its team goes through unplayed. ``double``: double elimination."""
    b = _Bracket(places, winners, _double(places, double))
    due = []
    for key, tie in b.ties.items():
        if key in winners:
            continue
        home, away = b.entrants(key)
        if home is None or away is None or EMPTY in (home, away):
            continue
        home, away = sorted((home, away), key=lambda t: (seeds.get(t, 10**6), t))
        due.append(Pairing(tie.round, home, away, tie.slot))
    return sorted(due, key=lambda p: (p.round, p.slot or 0))


def knockout_entrants(places: Sequence[int | None], winners: Mapping[tuple[int, int], int], rnd: int,
                      slot: int, double: bool = False) -> tuple[int | None, int | None]:
    """The two teams of tie ``(rnd, slot)`` as far as known: a team id, None (not known yet) or
    ``EMPTY`` (nobody: a bye)."""
    return _Bracket(places, winners, _double(places, double)).entrants((rnd, slot))


def knockout_champion(places: Sequence[int | None], winners: Mapping[tuple[int, int], int],
                      double: bool = False) -> int | None:
    """The final's winner, once decided; a double elimination's: the grand final's, or its
    second match's."""
    b = _Bracket(places, winners, _double(places, double))
    rounds = int(math.log2(len(places)))
    if not _double(places, double):
        through = b.through((rounds, 0))
        return None if through == EMPTY else through
    reset = b.entrants((2 * rounds + 1, GRAND_FINAL + 1))
    if reset == (EMPTY, EMPTY):
        return winners.get((2 * rounds, GRAND_FINAL))
    return winners.get((2 * rounds + 1, GRAND_FINAL + 1))


def coin(seed: str) -> int:
    """A coin from a revealed dice seed: 0 (home) or 1 (away), SHA-256 of ``seed:coin``'s first bit."""
    return int(_digest(seed, "coin")[0], 16) >> 3


def knockout_winner(home: int, away: int, home_score: int, away_score: int, conceded_by: str | None,
                    rule: str, seeds: Mapping[int, int], coin_seed: str | None = None) -> tuple[int | None, str]:
    """Who goes through a played tie and why: ``conceded``, ``score``, or for a draw the league's
    ``rule``: ``replay`` (None: the tie is played again), ``coin`` (from ``coin_seed``, the match's
    revealed dice seed; without one, as ``higher_seed``) or ``higher_seed``."""
    if conceded_by in ("home", "away"):
        return (away if conceded_by == "home" else home), "conceded"
    if home_score != away_score:
        return (home if home_score > away_score else away), "score"
    if rule == "replay":
        return None, "replay"
    if rule == "coin" and coin_seed:
        return (home if coin(coin_seed) == 0 else away), "coin"
    return min((home, away), key=lambda t: (seeds.get(t, 10**6), t)), "higher_seed"


# --- Swiss -----------------------------------------------------------------------------------------
def max_swiss_rounds(n: int) -> int:
    """At most as many rounds as a round robin has (each pair can meet only once)."""
    return n - 1 if n % 2 == 0 else n


def swiss_rounds(n: int, asked: int = 0) -> int:
    """The rounds a Swiss of ``n`` teams plays: ``asked``, or by default enough to leave one team
    unbeaten in a field of a power of two (⌈log2 n⌉), never more than ``max_swiss_rounds``."""
    if n < 2:
        return 0
    return min(asked or max(1, math.ceil(math.log2(n))), max_swiss_rounds(n))


def swiss_order(team_ids: Sequence[int], points: Mapping[int, int], opponents: Mapping[int, Sequence[int]],
                tiebreak: Mapping[int, tuple[int, ...]] | None = None) -> list[int]:
    """The Swiss table: points, then Buchholz (the points of the teams one met), then ``tiebreak``
    (bigger first: goal difference, goals for, casualties), then the order given (the seeds)."""
    place = {t: i for i, t in enumerate(team_ids)}
    buchholz = {t: sum(points.get(o, 0) for o in opponents.get(t, ())) for t in team_ids}
    extra = tiebreak or {}
    return sorted(team_ids, key=lambda t: (-points.get(t, 0), -buchholz[t], tuple(-v for v in extra.get(t, ())), place[t]))


#: How many tries the pairing search makes before it gives up (a field where no pairing without
#: a repeat exists): bounded, so a late Swiss round never hangs the bot.
_SEARCH_LIMIT = 200_000


def swiss_pairings(ranked: Sequence[int], points: Mapping[int, int], met: Collection[frozenset[int]],
                   had_bye: Collection[int] = (), homes: Mapping[int, int] | None = None,
                   rnd: int = 1) -> tuple[list[Pairing], int | None] | None:
    """The next round's pairings for teams ``ranked`` best first (``swiss_order``), and the team
    with a bye (an odd field: the lowest-ranked team that has had none). No two teams that
    ``met`` meet again; each team plays once. Within a group on the same points the top half
    meets the bottom half (1 v 3 and 2 v 4 of four teams level), then the next group down.
    Home is the team with fewer home games so far (``homes``), else the better ranked. None if
    no pairing without a repeat exists (the Swiss then ends)."""
    ids = list(ranked)
    home_count = homes or {}
    if len(ids) % 2:
        candidates: list[int | None] = [t for t in reversed(ids) if t not in had_bye] or list(reversed(ids))
    else:
        candidates = [None]
    budget = [_SEARCH_LIMIT]
    for bye in candidates:
        rest = [t for t in ids if t != bye]
        pairs = _pair(rest, points, met, budget)
        if pairs is not None:
            out = []
            for a, b in pairs:  # a is ranked above b
                home, away = (b, a) if home_count.get(b, 0) < home_count.get(a, 0) else (a, b)
                out.append(Pairing(rnd, home, away))
            return out, bye
        if budget[0] <= 0:
            break
    return None


def _pair(rest: list[int], points: Mapping[int, int], met: Collection[frozenset[int]],
          budget: list[int]) -> list[tuple[int, int]] | None:
    if not rest:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    a = rest[0]
    group = [t for t in rest if points.get(t, 0) == points.get(a, 0)]
    half = len(group) // 2
    preferred = group[half:] + group[1:half] if half else group[1:]
    order = [t for t in preferred if t != a] + [t for t in rest[1:] if t not in group]
    for b in order:
        if frozenset((a, b)) in met:
            continue
        sub = _pair([t for t in rest[1:] if t != b], points, met, budget)
        if sub is not None:
            return [(a, b), *sub]
        if budget[0] <= 0:
            return None
    return None
