"""What the server's coach ratings read: kept casual results and the leagues' played fixtures.

Only storage: which results exist and in what order is the store's; how they rate is
``service.ladder``'s. ``ladder_matches`` holds one row per casual match between two members
(``RatedMatch``); league results are read from the fixtures, so a corrected result is read
as corrected.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from .matches import public_match
from .models._common import as_utc
from .models import Fixture, FixtureStatus, League, Match, MatchPublic, MatchStatus, RatedMatch, RatedMatchPublic, Team

__all__ = ["LeagueResult", "keep_rated_match", "league_results", "rated_matches", "unkept_matches"]


@dataclass(frozen=True)
class LeagueResult:
    """A played fixture of one of the server's leagues, with the members who coached each side:
    the match's coaches, or, for a result given without a match (a walkover), the teams' owners."""

    fixture_id: int
    league: str
    home_coach_id: int
    away_coach_id: int
    home_score: int
    away_score: int
    #: ``home``/``away``: the side that conceded or forfeited, else None.
    conceded_by: str | None
    played_at: datetime | None
    match_id: int | None


def rated_matches(*, session: Session, guild_id: int) -> list[RatedMatchPublic]:
    """The server's kept casual results, in the order they ended."""
    rows = session.exec(select(RatedMatch).where(RatedMatch.guild_id == guild_id)
                        .order_by(col(RatedMatch.finished_at), col(RatedMatch.match_id)))
    return [RatedMatchPublic.model_validate(r) for r in rows.all()]


def keep_rated_match(*, session: Session, row: RatedMatchPublic) -> bool:
    """Keep a casual result (committed); False if it was kept already (two processes at once:
    the first stays, they read the same finished match)."""
    if session.get(RatedMatch, row.match_id) is not None:
        return False
    session.add(RatedMatch.model_validate(row))
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return False
    return True


def unkept_matches(*, session: Session, guild_id: int, excluded: int, limit: int = 200,
                   offset: int = 0) -> list[MatchPublic]:
    """Finished matches of the server between two different members (``excluded``: the AI
    coach's id) that have no ``ladder_matches`` row and are no league fixture's, oldest first."""
    kept = select(RatedMatch.match_id)
    league = select(Fixture.match_id).where(col(Fixture.match_id).is_not(None))
    query = (select(Match).where(Match.guild_id == guild_id, Match.status == MatchStatus.FINISHED.value,
                                 col(Match.west_coach_id) != col(Match.east_coach_id),
                                 col(Match.west_coach_id) != excluded, col(Match.east_coach_id) != excluded,
                                 col(Match.id).not_in(kept), col(Match.id).not_in(league))
             .order_by(col(Match.updated_at), col(Match.id)).offset(offset).limit(limit))
    return [public_match(m) for m in session.exec(query).all()]


def league_results(*, session: Session, guild_id: int) -> list[LeagueResult]:
    """Every played fixture of the server's leagues (as stored now, corrections included)."""
    rows = session.exec(select(Fixture, League).join(League, col(League.id) == col(Fixture.league_id))
                        .where(League.guild_id == guild_id, Fixture.status == FixtureStatus.PLAYED.value)).all()
    match_ids = {f.match_id for f, _ in rows if f.match_id is not None}
    # Only the columns: a match's row also holds its whole state snapshot.
    coaches = {i: (w, e) for i, w, e in session.exec(
        select(Match.id, Match.west_coach_id, Match.east_coach_id).where(col(Match.id).in_(match_ids))).all()}
    team_ids = {t for f, _ in rows for t in (f.home_team_id, f.away_team_id)}
    owners = dict(session.exec(select(Team.id, Team.coach_id).where(col(Team.id).in_(team_ids))).all())
    out = []
    for f, lg in rows:
        pair: tuple[int | None, int | None] = coaches[f.match_id] if f.match_id in coaches else \
            (owners.get(f.home_team_id), owners.get(f.away_team_id))
        home, away = pair
        if home is None or away is None or f.home_score is None or f.away_score is None:
            continue
        out.append(LeagueResult(fixture_id=f.id, league=lg.name, home_coach_id=home,  # type: ignore[arg-type]  # a stored row's id is set
                                away_coach_id=away, home_score=f.home_score, away_score=f.away_score,
                                conceded_by=f.conceded_by, played_at=as_utc(f.played_at), match_id=f.match_id))
    return out
