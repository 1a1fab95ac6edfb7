"""Coach ratings per server: every finished match between two members, rated with OpenSkill.

The rules of the ladder, in one place:

- **What is rated**: every finished match of the server between two different members, casual
  (a challenge) or a league fixture. Not rated: matches against the AI coach, a member against
  himself, abandoned matches (they have no result), matches still being played.
- **The result**: a casual match's is the engine's (``MatchState.winner``); a league match's is
  its fixture's as stored *now*: a result the commissioner corrected is rated as corrected, and
  a result he gave without a match (a walkover) is rated too, between the two teams' owners.
  A concession (or a moderator's forfeit) is a loss for the side that conceded, whatever the
  score; a commissioner's corrected score stands on its own (``LeagueService.correct`` clears
  the concession).
- **Derived, never incremented**: the ratings are recomputed from the stored results, in the
  order the matches ended (a league match: when its result was first recorded; a correction
  keeps that time), each time the ladder is read. A corrected result therefore re-rates the
  match in its place and every later match after it, and nothing can drift out of step with the
  results. Everybody starts at OpenSkill's defaults (mu 25, sigma 25/3).
- **The model**: OpenSkill's Plackett-Luce (Weng-Lin), the library's default, rating one match
  at a time with draws; a coach's shown rating is the ordinal mu - 3 sigma (0 for a newcomer; it
  rises as results confirm his level), the table is sorted by it.

Why OpenSkill and not Glicko-2 (``docs/league.md``, "Coach ratings"): it updates after each
match (Glicko-2 is designed for rating periods of several games), it is typed (``py.typed``),
MIT, without dependencies, maintained with releases in 2025 and 2026, and its documentation
gives reference values to test against.

A casual match's facts are kept in ``ladder_matches`` when it ends (``match_finished``, a
listener of ``MatchService``), or, for one that ended without the listener (a crash, before
this existed), the first time the ladder is read. The ladder is public within its server:
anybody there may read it, and it reads only that server's matches.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlmodel import Session

from db import ladder as store
from db import leagues as db_leagues
from db.engine import session_scope
from db.models import RatedMatchPublic
from db.models.match import MatchPublic
from engine import Catalogue, MatchState

from .matches import AI_COACH_ID, MatchService

__all__ = ["MODEL", "CoachHistory", "HistoryLine", "LadderRow", "LadderService", "RatedResult", "casual_result",
           "console_lines", "rate", "read_only_ladder", "shown_rating"]

log = logging.getLogger("elfball.service")

SessionFactory = Callable[[], AbstractContextManager[Session]]

#: The rating model: OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: How many unkept finished matches the catch-up reads at a time.
CATCH_UP_PAGE = 200
#: When a result without a time is rated (a fixture played before times were kept): first.
_LONG_AGO = datetime.min.replace(tzinfo=UTC)


def shown_rating(rating: PlackettLuceRating) -> float:
    """The rating a coach is shown and ranked by: OpenSkill's ordinal, mu - 3 sigma, rounded."""
    return round(rating.ordinal(), 1)


@dataclass(frozen=True)
class RatedResult:
    """One result the ladder rates: who played west (a league's home side) and east, who won."""

    when: datetime
    #: ``match`` (a casual match: ``ref`` is its id) or ``league`` (``ref``: the fixture's id).
    kind: str
    ref: int
    west: int
    east: int
    #: ``west``, ``east`` or ``draw``.
    winner: str
    #: The side that conceded, if one did.
    conceded: str | None = None
    #: The league's name, for a league match.
    league: str | None = None

    @property
    def order(self) -> tuple[datetime, int, int]:
        return self.when, 0 if self.kind == "match" else 1, self.ref


@dataclass(frozen=True)
class HistoryLine:
    """One rated match in a coach's history: the opponent, the result, the rating after it."""

    result: RatedResult
    opponent: int
    #: ``win``, ``loss`` or ``draw`` for this coach.
    outcome: str
    #: Whether this coach (``by_me``) or his opponent conceded, if either did.
    conceded: bool
    by_me: bool
    before: float
    after: float
    mu: float
    sigma: float


@dataclass
class LadderRow:
    """A coach's line of the table."""

    coach_id: int
    rating: PlackettLuceRating
    won: int = 0
    drawn: int = 0
    lost: int = 0
    rank: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def shown(self) -> float:
        return shown_rating(self.rating)


@dataclass
class CoachHistory:
    """``/ladder coach``: a coach's row (None if he has played no rated match) and his matches,
    newest first."""

    coach_id: int
    row: LadderRow | None
    lines: list[HistoryLine] = field(default_factory=list)
    #: How many coaches the server's ladder holds.
    coaches: int = 0


def _outcome(winner: str, side: str) -> str:
    if winner == "draw":
        return "draw"
    return "win" if winner == side else "loss"


def rate(results: Sequence[RatedResult]) -> tuple[list[LadderRow], dict[int, list[HistoryLine]]]:
    """The table (best first) and each coach's history (oldest first) from ``results``, rated
    in their order (``RatedResult.order``)."""
    rows: dict[int, LadderRow] = {}
    history: dict[int, list[HistoryLine]] = {}
    for r in sorted(results, key=lambda r: r.order):
        west = rows.setdefault(r.west, LadderRow(r.west, MODEL.rating()))
        east = rows.setdefault(r.east, LadderRow(r.east, MODEL.rating()))
        ranks = {"west": [1.0, 2.0], "east": [2.0, 1.0]}.get(r.winner, [1.0, 1.0])
        [[new_west], [new_east]] = MODEL.rate([[west.rating], [east.rating]], ranks=ranks)
        for side, row, new, other in (("west", west, new_west, r.east), ("east", east, new_east, r.west)):
            outcome = _outcome(r.winner, side)
            before = row.shown
            row.rating = new
            row.won += outcome == "win"
            row.drawn += outcome == "draw"
            row.lost += outcome == "loss"
            history.setdefault(row.coach_id, []).append(HistoryLine(
                result=r, opponent=other, outcome=outcome, conceded=r.conceded is not None,
                by_me=r.conceded == side, before=before, after=row.shown, mu=new.mu, sigma=new.sigma))
    table = sorted(rows.values(), key=lambda row: (-row.rating.ordinal(), -row.played, row.coach_id))
    for i, row in enumerate(table, 1):
        row.rank = i
    return table, history


def casual_result(match: MatchPublic, state: MatchState) -> RatedMatchPublic | None:
    """The facts the ladder keeps of a finished casual match, or None if it is not rated (the
    AI coach played, a member played himself, it has no winner)."""
    coaches = (match.west_coach_id, match.east_coach_id)
    if AI_COACH_ID in coaches or coaches[0] == coaches[1] or state.winner not in ("west", "east", "draw"):
        return None
    reason = state.end_reason or ""
    conceded = reason.split()[0] if reason.endswith("conceded") and reason.split()[0] in ("west", "east") else None
    winner = state.winner
    if conceded is not None:  # a concession is a loss, whatever the score
        winner = "east" if conceded == "west" else "west"
    return RatedMatchPublic(match_id=match.id, guild_id=match.guild_id, west_coach_id=coaches[0],
                            east_coach_id=coaches[1], winner=winner, conceded=conceded,
                            finished_at=match.updated_at)


def _league_winner(r: store.LeagueResult) -> tuple[str, str | None]:
    """A fixture's winner (``west`` is home) and who conceded: the conceding side loses."""
    conceded = {"home": "west", "away": "east"}.get(r.conceded_by or "")
    if conceded is not None:
        return ("east" if conceded == "west" else "west"), conceded
    if r.home_score == r.away_score:
        return "draw", None
    return ("west" if r.home_score > r.away_score else "east"), None


class LadderService:
    """The server's coach ratings. Given the match service, it listens for matches that end."""

    def __init__(self, matches: MatchService | None = None, *, sessions: SessionFactory = session_scope) -> None:
        self.sessions = matches.sessions if matches is not None and sessions is session_scope else sessions
        if matches is not None:
            matches.on_finish.append(self.match_finished)

    # -- when a match ends -----------------------------------------------------------------------------
    def match_finished(self, match: MatchPublic, state: MatchState) -> list[str]:
        """Listener of the match service: keep a casual match's result (a league match's is its
        fixture's). Says nothing: the ladder is read with ``/ladder``."""
        kept = casual_result(match, state)
        if kept is None:
            return []
        with self.sessions() as s:
            if db_leagues.fixture_for_match(session=s, match_id=match.id) is None:
                store.keep_rated_match(session=s, row=kept)
        return []

    def catch_up(self, guild_id: int, *, keep: bool = True) -> list[RatedMatchPublic]:
        """The server's finished casual matches that ended without the listener (a crash, or
        before the ladder existed), kept unless ``keep`` is False (a read-only database: the
        console's ``elfball ladder``)."""
        found: list[RatedMatchPublic] = []
        with self.sessions() as s:
            while True:
                page = store.unkept_matches(session=s, guild_id=guild_id, excluded=AI_COACH_ID, limit=CATCH_UP_PAGE,
                                            offset=0 if keep else len(found))
                kept_now = 0
                for m in page:
                    row = casual_result(m, m.engine_state())
                    if row is None:  # finished without a winner (should not happen): never rated
                        log.warning("finished match %s has no winner; not rated", m.id)
                        continue
                    found.append(row)
                    kept_now += store.keep_rated_match(session=s, row=row) if keep else 1
                if len(page) < CATCH_UP_PAGE or not kept_now:
                    break
        return found

    # -- reading ----------------------------------------------------------------------------------------
    def results(self, guild_id: int, *, keep: bool = True) -> list[RatedResult]:
        """Every rated result of the server, in the order they are rated (``keep``: see ``catch_up``)."""
        unkept = self.catch_up(guild_id, keep=keep)
        with self.sessions() as s:
            casual = store.rated_matches(session=s, guild_id=guild_id)
            league = store.league_results(session=s, guild_id=guild_id)
        if not keep:
            casual += unkept
        out = [RatedResult(when=m.finished_at, kind="match", ref=m.match_id, west=m.west_coach_id,
                           east=m.east_coach_id, winner=m.winner, conceded=m.conceded) for m in casual]
        for f in league:
            if AI_COACH_ID in (f.home_coach_id, f.away_coach_id) or f.home_coach_id == f.away_coach_id:
                continue
            winner, conceded = _league_winner(f)
            out.append(RatedResult(when=f.played_at or _LONG_AGO, kind="league", ref=f.fixture_id, west=f.home_coach_id,
                                   east=f.away_coach_id, winner=winner, conceded=conceded, league=f.league))
        return sorted(out, key=lambda r: r.order)

    def table(self, guild_id: int, *, keep: bool = True) -> list[LadderRow]:
        """The server's ladder, best first (``rank`` set)."""
        return rate(self.results(guild_id, keep=keep))[0]

    def history(self, guild_id: int, coach_id: int, *, keep: bool = True) -> CoachHistory:
        """One coach's rated matches on this server, newest first, and his row of the table."""
        table, history = rate(self.results(guild_id, keep=keep))
        row = next((r for r in table if r.coach_id == coach_id), None)
        return CoachHistory(coach_id, row, list(reversed(history.get(coach_id, []))), len(table))


# -- the console (``elfball ladder``) ------------------------------------------------------------------
def read_only_ladder(guild_id: int, coach_id: int | None = None) -> tuple[list[LadderRow], CoachHistory | None]:
    """The server's table and, if ``coach_id``, that coach's history, from the environment's
    database opened read-only (never migrated or written: a copy will do). An unusable database
    is a ``StoreError`` that says why."""
    # Here, not at the top: ``db.migrate`` brings Alembic, Mako and Pygments (~12 MB), which the
    # bot (whose /ladder loads this module) never needs; its migrations run in a child process.
    from db.migrate import open_database

    engine = open_database(write=False)

    @contextmanager
    def sessions() -> Iterator[Session]:
        with Session(engine, expire_on_commit=False) as s:
            yield s

    try:
        ladder = LadderService(sessions=sessions)
        results = ladder.results(guild_id, keep=False)
    finally:
        engine.dispose()
    table, history = rate(results)
    if coach_id is None:
        return table, None
    row = next((r for r in table if r.coach_id == coach_id), None)
    return table, CoachHistory(coach_id, row, list(reversed(history.get(coach_id, []))), len(table))


def console_lines(table: Sequence[LadderRow], history: CoachHistory | None, language: str) -> list[str]:
    """What ``elfball ladder`` prints: the table, or one coach's history (coaches by their Discord
    user id: the console knows no display names)."""
    words = Catalogue("service", "text", language)

    def num(value: float) -> str:
        text = f"{value:.1f}"
        return text.replace(".", ",") if language == "fr" else text

    if history is None:
        if not table:
            return [words.t("console.ladder.empty")]
        return [words.t("console.ladder.head", coaches=len(table))] + [
            words.t("console.ladder.row", rank=r.rank, coach=r.coach_id, rating=num(r.shown), mu=num(r.rating.mu),
                    sigma=num(r.rating.sigma), played=r.played, won=r.won, drawn=r.drawn, lost=r.lost) for r in table]
    row = history.row
    if row is None:
        return [words.t("console.ladder.none", coach=history.coach_id)]
    out = [words.t("console.ladder.history", coach=history.coach_id, rating=num(row.shown), rank=row.rank,
                   coaches=history.coaches, played=row.played)]
    for h in history.lines:
        where = words.t("console.ladder.league", league=h.result.league) if h.result.league \
            else words.t("console.ladder.casual", id=h.result.ref)
        how = words.t("console.ladder.conceded") if h.conceded else ""
        out.append(words.t(f"console.ladder.{h.outcome}", when=f"{h.result.when:%Y-%m-%d %H:%M}", opponent=h.opponent,
                           how=how, where=where, rating=num(h.after), change=("+" if h.after >= h.before else "-")
                           + num(abs(h.after - h.before))))
    return out
