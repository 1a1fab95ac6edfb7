"""What the league site's pages gather beyond the board pictures (issue 34): the summary at the
top of a match page, each player's career, how former players left, the league's rules, the
champion, corrected results, coaches' names, and the machine-readable feeds.

Everything here reads what the export already loaded (fixtures, the matches' events, the
rosters) plus the post-match reports (``league_aftermaths``) and the audit trail; nothing writes.
``build_site`` calls these; the templates show what they return.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timezone
from typing import Any

from db import leagues as db_leagues
from db import seasons as db_seasons
from db import teams as db_teams
from db.models import FixtureStatus
from engine import (
    ActionStarted,
    Catalogue,
    Event,
    GoalScored,
    MatchState,
    PlayerRemoved,
    describe_rules,
)

from ..leagues import StandingRow, applied_lines, league_table, match_options
from ..matches import SessionFactory

__all__ = ["CoachNames", "Career", "MatchSummary", "careers", "coach_name", "corrected_fixtures",
           "champion", "deadline_of", "Seasons", "seasons_of", "match_summary", "rules_rows", "left_how", "standings_json", "results_csv",
           "CLOSEUP_WIDTH"]

#: Who a coach is, by member id: the bot passes the member's display name on the server at export;
#: ``None`` (or a name it does not know) says "a coach", never the bare id.
CoachNames = Callable[[int], "str | None"]

#: The close-up drawn beside every replay frame for narrow screens (``render.render_action_view``):
#: shown 374 CSS px wide on a 390 px phone, its smallest label is 9.3 px there.
CLOSEUP_WIDTH = 400


def coach_name(names: CoachNames | None, coach_id: int | None, fallback: str) -> str:
    """The coach's display name, or ``fallback`` (a word, never the id) when it is not known."""
    if names is None or coach_id is None:
        return fallback
    name = names(coach_id)
    return name.strip() if isinstance(name, str) and name.strip() else fallback


# --- one match ---------------------------------------------------------------------------------
@dataclass
class MatchSummary:
    """What a match page says first: who scored, who was hurt (by whom, and what became of him),
    and each team's post-match report (XP, injuries applied, potions, abilities learned)."""

    scorers: list[dict[str, Any]] = field(default_factory=list)
    casualties: list[dict[str, Any]] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.scorers or self.casualties or self.reports)


def _side(pid: str) -> str:
    return "west" if pid.startswith("w") else "east"


def match_summary(events: Sequence[Event], final: MatchState, fixture: Any, teams: Mapping[str, str],
                  language: str, sessions: SessionFactory) -> MatchSummary:
    """The summary of the match behind ``fixture`` from its events and its final state, and the
    post-match reports stored for it. ``teams``: the team names by side (west = home)."""
    tx = Catalogue("service", "text", language)
    out = MatchSummary()

    def name(pid: str) -> str:
        p = final.players.get(pid)
        return p.name if p is not None else pid

    goals: dict[str, int] = {}
    for e in events:
        if isinstance(e, GoalScored):
            goals[e.player] = goals.get(e.player, 0) + 1
    out.scorers = [{"name": name(pid), "team": teams[_side(pid)], "goals": n} for pid, n in goals.items()]

    acting: str | None = None
    outcomes: dict[str, str] = {}
    hurt: list[tuple[str, str | None]] = []
    for e in events:
        if isinstance(e, ActionStarted):
            acting = e.player
        elif e.kind in ("action_ended", "turn_passed"):
            acting = None
        elif isinstance(e, PlayerRemoved) and e.location == "infirmary" and "injur" in e.reason:
            by = acting if acting and _side(acting) != _side(e.player) else None
            hurt.append((e.player, by))
        elif e.kind == "injury_recorded":  # engine.events.InjuryRecorded (not at the engine's front door)
            outcomes[str(getattr(e, "player", ""))] = str(getattr(e, "outcome", ""))
    for pid, by in hurt:
        outcome = outcomes.get(pid, "infirmary")
        out.casualties.append({"name": name(pid), "team": teams[_side(pid)],
                               "by": tx.t("site.summary.by", player=name(by), team=teams[_side(by)]) if by else "",
                               "outcome": tx.t(f"site.summary.outcome.{outcome}")})

    with sessions() as s:
        reports = sorted(db_leagues.aftermaths_of(session=s, fixture_id=fixture.id), key=lambda a: a.side != "west")
    for am in reports:
        state = MatchState.from_dict(am.state)
        lines = [ln for entry in am.applied for ln in applied_lines(entry, language, state)]
        if am.pending:
            lines.append(tx.t("site.summary.pending"))
        out.reports.append({"team": teams.get(am.side, "?"), "lines": lines})
    return out


# --- careers -----------------------------------------------------------------------------------
@dataclass
class Career:
    matches: int = 0
    goals: int = 0
    caused: int = 0
    suffered: int = 0
    fixtures: list[int] = field(default_factory=list)


def careers(played: Iterable[tuple[Any, Sequence[Event]]]) -> dict[int, Career]:
    """Each roster player's league career from the matches played: (fixture, its events). A
    player's match is one he was in the line-up of; a goal is its scorer's; an injury caused is
    the acting player's (an opponent sent to the Infirmary by an Injury roll in his action); an
    injury suffered is the player's who went."""
    out: dict[int, Career] = {}
    for f, events in played:
        lineup = {"west": list(f.lineup.get("west", [])), "east": list(f.lineup.get("east", []))}

        def rid(pid: str | None, lineup: dict[str, list[int]] = lineup) -> int | None:
            if not pid or not pid[1:].isdigit():
                return None
            ids = lineup[_side(pid)]
            index = int(pid[1:]) - 1
            return ids[index] if 0 <= index < len(ids) else None

        for ids in lineup.values():
            for r in ids:
                c = out.setdefault(r, Career())
                c.matches += 1
                c.fixtures.append(f.id)
        acting: str | None = None
        for e in events:
            if isinstance(e, ActionStarted):
                acting = e.player
            elif e.kind in ("action_ended", "turn_passed"):
                acting = None
            elif isinstance(e, GoalScored) and (r := rid(e.player)) is not None:
                out.setdefault(r, Career()).goals += 1
            elif isinstance(e, PlayerRemoved) and e.location == "infirmary" and "injur" in e.reason:
                if (r := rid(e.player)) is not None:
                    out.setdefault(r, Career()).suffered += 1
                if acting and _side(acting) != _side(e.player) and (r := rid(acting)) is not None:
                    out.setdefault(r, Career()).caused += 1
    return out


def left_how(player: Any, fixture_of_match: Mapping[int, int], tx: Catalogue) -> str:
    """How a former player left: his status, and the match it happened in when the roster says."""
    status = str(player.status)
    said = tx.t(f"site.player.status.{status}")
    for injury in reversed(list(player.injuries)):
        if injury.get("kind") in ("dead", "career_ending") and injury.get("match") in fixture_of_match:
            return tx.t("site.left.in", how=said, id=fixture_of_match[injury["match"]])
    return said


# --- the league --------------------------------------------------------------------------------
def rules_rows(settings: Mapping[str, Any], language: str) -> tuple[list[tuple[str, str]], str]:
    """The league's settings as (label, value) rows, and the rules its fixtures play in words."""
    tx = Catalogue("service", "text", language)
    rows = []
    for key, value in settings.items():
        if key == "rules":
            continue
        label = tx.get(f"site.setting.{key}", key.replace("_", " "))
        shown = tx.t(f"site.value.{str(value).lower()}") if isinstance(value, bool) else str(value)
        rows.append((label, shown))
    try:
        play = describe_rules(match_options(settings), language=language)
    except Exception:  # noqa: BLE001 - settings this export does not know (a newer version's): the rows say them
        play = str(settings.get("rules", ""))
    return rows, play


def champion(rows: Sequence[StandingRow], fixtures: Sequence[Any],
             draw: Mapping[str, Any] | None = None) -> StandingRow | None:
    """The season's champion (none before, nor for a league with no fixture): a knockout's or a
    play-off's is the final's winner (``draw["champion"]``, ``service.formats``); a Swiss's the
    top of the table once its last round is played (later rounds are drawn as results come, so
    every fixture played is not the end); a round robin's the top once every fixture is played."""
    draw = draw or {}
    fmt = draw.get("format", "round_robin")
    if fmt != "round_robin" and fmt != "swiss":
        won = draw.get("champion")
        return next((r for r in rows if r.team_id == won), None) if won is not None else None
    if not fixtures or not rows or any(f.status != FixtureStatus.PLAYED for f in fixtures):
        return None
    if fmt == "swiss" and "ended_early" not in draw and max(f.round for f in fixtures) < int(draw.get("rounds", 0)):
        return None
    return rows[0]


@dataclass(frozen=True)
class Seasons:
    """Where the exported season stands among its league's (``db.seasons``): how many there are,
    the previous season's number and champion (a name, or "" when it had none), and the number
    of the season that followed (0: none yet)."""

    count: int
    previous: int = 0
    previous_champion: str = ""
    following: int = 0


def seasons_of(league: Any, sessions: SessionFactory) -> Seasons:
    """The league's seasons around ``league`` (one season: ``count`` 1 and nothing else). The
    previous season's champion is its own page's (``champion``: a knockout's final, a table's
    top once every fixture has a result)."""
    with sessions() as s:
        chain = db_seasons.seasons_of(s, league.guild_id, league.id)
        at = next((i for i, lg in enumerate(chain) if lg.id == league.id), len(chain) - 1)
        following = chain[at + 1].season if at + 1 < len(chain) else 0
        if at == 0:
            return Seasons(len(chain), following=following)
        before = chain[at - 1]
        teams = db_teams.list_teams(session=s, guild_id=league.guild_id, league=before.id)
        fixtures = db_leagues.fixtures(session=s, league_id=before.id)
    rows = league_table([(t.id, t.name, t.coach_id) for t in teams], fixtures, db_leagues.settings_of(before),
                        before.draw or {})
    top = champion(rows, fixtures, before.draw or {})
    return Seasons(len(chain), before.season, top.name if top else "", following)


def corrected_fixtures(league_id: int, sessions: SessionFactory) -> dict[int, str]:
    """Fixtures whose result the commissioner set or corrected, with his last reason."""
    out: dict[int, str] = {}
    with sessions() as s:
        rows = db_leagues.audit(session=s, league_id=league_id, limit=None)
    for a in sorted(rows, key=lambda a: a.id):
        if a.action == "result_corrected" and a.fixture_id is not None:
            out[a.fixture_id] = a.reason
    return out


def deadline_of(fixture: Any) -> str:
    """A fixture's deadline as ISO text (UTC, to the minute), or "" when it has none."""
    when = getattr(fixture, "deadline", None)
    if when is None:
        return ""
    if when.tzinfo is not None:  # stored naive means UTC already (db.models._common)
        when = when.astimezone(timezone.utc)
    return str(when.strftime("%Y-%m-%d %H:%M UTC"))


# --- the feeds ---------------------------------------------------------------------------------
def standings_json(league: Any, rows: Sequence[StandingRow], coaches: Mapping[int, str], settings: Mapping[str, Any],
                   champion_id: int | None, divisions: Sequence[Sequence[StandingRow]] = ()) -> bytes:
    """``standings.json``: the table as data (sorted keys, no clock: the same league, the same bytes);
    a league in divisions adds ``divisions``: each division's team ids, in its table's order."""
    data: dict[str, Any] = {
        "league": {"id": league.id, "name": league.name},
        "points": {"win": settings["points_win"], "draw": settings["points_draw"], "loss": settings["points_loss"]},
        "champion": champion_id,
        "standings": [{"rank": i, "team_id": r.team_id, "team": r.name, "coach": coaches.get(r.team_id) or None,
                       "played": r.played, "won": r.won, "drawn": r.drawn, "lost": r.lost,
                       "goals_for": r.goals_for, "goals_against": r.goals_against,
                       "goal_difference": r.goal_difference, "casualties": r.casualties, "points": r.points}
                      for i, r in enumerate(rows, start=1)],
    }
    if divisions:
        data["divisions"] = [[r.team_id for r in table] for table in divisions]
    return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


RESULTS_COLUMNS = ["fixture", "round", "home_team_id", "home", "home_score", "away_score", "away", "away_team_id",
                   "home_casualties", "away_casualties", "conceded_by", "corrected", "match_id"]


def results_csv(fixtures: Sequence[Any], names: Mapping[int, str], corrected: Mapping[int, str]) -> bytes:
    """``results.csv``: one row per result (RFC 4180, a header row, ``\\r\\n`` line ends)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(RESULTS_COLUMNS)
    for f in fixtures:
        if f.status != FixtureStatus.PLAYED:
            continue
        w.writerow([f.id, f.round, f.home_team_id, names[f.home_team_id], f.home_score, f.away_score,
                    names[f.away_team_id], f.away_team_id, f.home_casualties, f.away_casualties, f.conceded_by or "",
                    "yes" if f.id in corrected else "no", f.match_id if f.match_id is not None else ""])
    return out.getvalue().encode()
