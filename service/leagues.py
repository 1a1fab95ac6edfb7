"""The league service: a season on a server, whatever transport the coaches use.

A commissioner creates a league; coaches enter their teams; the commissioner draws a round-robin
schedule; a coach starts a fixture in a channel (a match through ``MatchService``, with the
league's options and the Advanced Rules' injuries). When the match ends, ``match_finished`` (a
listener of the match service) records the result, adds each player's XP to his roster row and
opens a post-match report per team: potions after the last goal, then lasting and
career-ending injuries, then abilities for players with a full 5 XP. Everything a coach must
decide is offered to him (``AftermathView.offers``); nothing is decided for him.

Synchronous like the match service; the bot calls it from worker threads.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from db import leagues as db
from db import matches as store
from db import teams as db_teams
from db.engine import session_scope
from db.errors import InvalidInputError, MatchChangedError, NotFoundError
from engine import Term
from db.locks import valid_id
from db.models import (
    AftermathPublic,
    FixturePublic,
    FixtureStatus,
    LeagueAuditPublic,
    LeaguePublic,
    MatchPublic,
    MatchStatus,
    PlayerStatus,
    RosterPlayer,
    Team,
    TeamPublic,
)
from engine import (
    ABILITIES,
    ABILITY_COST,
    Answer,
    Attributes,
    Catalogue,
    Command,
    DEFAULT_LANGUAGE,
    DrinkPotion,
    HashDice,
    Location,
    MatchState,
    Member,
    RuleOptions,
    Side,
    advances,
    apply,
    apply_lasting,
    check_team,
    describe_question,
    eligible_abilities,
    event_from_dict,
    gains_experience,
    lasting_choices,
    narrate_events,
    parse_rules,
    phrase,
    position_by_id,
    uses_potions,
)


from . import authority
from . import formats
from . import roster as team_roster
from .limits import require_league_room
from .matches import MatchService, MatchSide, Outcome, Said, SessionFactory, catalogue, said

__all__ = [
    "round_robin",
    "DrawPreview",
    "Progress",
    "CommitmentNotPosted",
    "FixtureView",
    "StandingRow",
    "standings_rows",
    "league_table",
    "bracket_rounds",
    "division_tables",
    "ELIMINATION",
    "swiss_byes",
    "Offer",
    "AftermathView",
    "TeamSheet",
    "LeagueService",
    "match_options",
    "applied_lines",
]

SIDES = ("west", "east")  # home plays west
#: How a view writes a name a member chose: as stored here; the bot passes
#: ``service.names.safe_name`` (markdown escaped, mentions broken).
Shown = Callable[[str], str]


def _as_stored(name: str) -> str:
    return name
#: Where a hurt player may be when a potion is offered after the match.
_HURT = (Location.INFIRMARY, Location.RECOVERY)


# --- pure helpers ----------------------------------------------------------------------------------
def match_options(settings: Mapping[str, Any]) -> RuleOptions:
    """The options every fixture of a league plays with: its rules string (profile, optional
    rules, French variants), then its own goals, star and clock settings, under the Advanced
    Rules. The rules string's own goals (or a timed game's none) win over the goals setting."""
    rules = str(settings.get("rules", ""))
    opts = parse_rules(rules)
    changes: dict[str, Any] = {"clock_hours": settings["clock_hours"], "advanced": True}
    if "goals=" not in rules and opts.profile != "tournament" and not opts.timed:
        changes["goals_to_win"] = settings["goals_to_win"]
    if settings["star2"]:
        changes["star2"] = True
    return dataclasses.replace(opts, **changes)


round_robin = formats.round_robin


class CommitmentNotPosted(Exception):
    """``/league play`` of a fixture whose current dice were drawn again (after an abandon) and
    never shown in public: the bot posts ``view``'s commitments (``LeagueService.commitments_shown``),
    and the fixture can be started by the next ``/league play``, whose entropy comes after."""

    def __init__(self, view: FixtureView) -> None:
        super().__init__(f"fixture #{view.id}'s commitment was never posted")
        self.view = view


@dataclass
class FixtureView:
    fixture: FixturePublic
    home: str
    away: str
    home_coach: int
    away_coach: int

    @property
    def id(self) -> int:
        return self.fixture.id

    def score(self, language: str = DEFAULT_LANGUAGE, *, name: Shown = _as_stored) -> str:
        f = self.fixture
        tx = catalogue(language)
        conceded = (tx.t("league.conceded.both") if f.conceded_by == "both" else
                    tx.t("league.conceded", team=name(self.home if f.conceded_by == "home" else self.away))
                    if f.conceded_by else "")
        return f"{f.home_score}-{f.away_score}{conceded}"

    def line(self, *, mention: bool = True, language: str = DEFAULT_LANGUAGE, name: Shown = _as_stored) -> str:
        """``R1 · #3 **Home** v **Away** — 1-0, casualties 0-1`` in ``language``, the team names
        written by ``name``."""
        f = self.fixture
        tx = catalogue(language)
        home, away = name(self.home), name(self.away)
        who = (tx.t("league.teams.mention", home=home, home_coach=self.home_coach, away=away,
                    away_coach=self.away_coach) if mention else tx.t("league.teams", home=home, away=away))
        if f.status == FixtureStatus.PLAYED:
            state = tx.t("league.state.played", score=self.score(language, name=name), home=f.home_casualties,
                         away=f.away_casualties)
        elif f.status == FixtureStatus.PLAYING:
            state = tx.t("league.state.playing", channel=f.channel_id)
        elif f.dice_commitment and f.potion_commitment:
            # The first 16 hex digits: 64 bits nobody can grind a secret to match. The potion
            # dice's commitment is shown with the match's, before either can be used.
            state = tx.t("league.state.to_play_potions", commitment=f.dice_commitment[:16],
                         potions=f.potion_commitment[:16])
        elif f.dice_commitment:
            state = tx.t("league.state.to_play", commitment=f.dice_commitment[:16])
        else:
            state = tx.t("league.state.to_play_plain")
        return tx.t("league.line", round=f.round, id=f.id, who=who, state=state)


@dataclass
class StandingRow:
    team_id: int
    name: str
    coach_id: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    casualties: int = 0
    points: int = 0
    #: Rounds the team sat out with a Swiss bye (each worth a win's points, no goals).
    byes: int = 0

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


def standings_rows(teams: Sequence[tuple[int, str, int]], played: Sequence[FixturePublic],
                   settings: Mapping[str, Any], byes: Mapping[int, int] | None = None) -> list[StandingRow]:
    """The table: ``teams`` are (id, name, coach); points per the league's win/draw/loss values
    (a Swiss ``bye`` counts a win's points); ordered by points, goal difference, goals for,
    casualties caused, then name."""
    rows = {tid: StandingRow(tid, name, coach, byes=(byes or {}).get(tid, 0)) for tid, name, coach in teams}
    for f in played:
        if f.status != FixtureStatus.PLAYED or f.home_score is None or f.away_score is None:
            continue
        for tid, gf, ga, cas in ((f.home_team_id, f.home_score, f.away_score, f.home_casualties),
                                 (f.away_team_id, f.away_score, f.home_score, f.away_casualties)):
            r = rows.get(tid)
            if r is None:
                continue
            r.played += 1
            r.goals_for += gf
            r.goals_against += ga
            r.casualties += cas
            if f.conceded_by == "both":  # both forfeited (a lapsed deadline): a loss for each
                r.lost += 1
            elif gf > ga:
                r.won += 1
            elif gf == ga:
                r.drawn += 1
            else:
                r.lost += 1
    for r in rows.values():
        r.points = ((r.won + r.byes) * settings["points_win"] + r.drawn * settings["points_draw"]
                    + r.lost * settings["points_loss"])
    return sorted(rows.values(), key=lambda r: (-r.points, -r.goal_difference, -r.goals_for, -r.casualties, r.name.lower()))


def swiss_byes(draw: Mapping[str, Any]) -> Counter[int]:
    """How many Swiss byes each team had (a knockout's byes earn nothing in a table)."""
    if draw.get("format") != "swiss":
        return Counter()
    return Counter(t for ts in (draw.get("byes") or {}).values() for t in ts)


def league_table(teams: Sequence[tuple[int, str, int]], fixtures: Sequence[FixturePublic],
                 settings: Mapping[str, Any], draw: Mapping[str, Any]) -> list[StandingRow]:
    """The standings in the format's order: a Swiss's by points (a bye counts a win), then
    Buchholz, goal difference, goals for, casualties and seed (``formats.swiss_order``); others
    by ``standings_rows``. ``draw``: the league's (``LeaguePublic.draw``)."""
    rows = standings_rows(teams, fixtures, settings, swiss_byes(draw))
    if draw.get("format") != "swiss":
        return rows
    opponents: dict[int, list[int]] = {}
    for f in fixtures:
        if f.played:
            opponents.setdefault(f.home_team_id, []).append(f.away_team_id)
            opponents.setdefault(f.away_team_id, []).append(f.home_team_id)
    seeded = [t for t in draw.get("order", []) if any(r.team_id == t for r in rows)]
    order = seeded + [r.team_id for r in rows if r.team_id not in seeded]
    by_id = {r.team_id: r for r in rows}
    ranked = formats.swiss_order(order, {r.team_id: r.points for r in rows}, opponents,
                                 {r.team_id: (r.goal_difference, r.goals_for, r.casualties) for r in rows})
    return [by_id[t] for t in ranked]


#: The formats played in a bracket (``service.formats``: elimination).
ELIMINATION = ("knockout", "double_elimination")


def bracket_rounds(draw: Mapping[str, Any], fixtures: Sequence[FixturePublic]) -> list[dict[str, Any]]:
    """A knockout's bracket, round by round, for a page: each round's ``number`` and its
    sections (``stage``: ``final``, ``semi``, ``quarter`` or ``round`` of a single elimination;
    ``winners``, ``losers``, ``grand_final``, ``reset`` of a double one) with their ``ties`` top to
    bottom: the ``home`` and ``away`` team ids as far as known (None), a ``bye`` (the team
    through unplayed), the tie's ``fixtures`` (a drawn tie replayed has several) and who went
    through (``winner``). Ties nobody plays (both places empty, a second grand final not
    needed) are left out. Empty for a league that is no knockout."""
    places = draw.get("places")
    if draw.get("format") not in (*ELIMINATION, "divisions") or not places:
        return []
    double = draw.get("format") == "double_elimination"
    offset = int(draw.get("offset", 0))  # a divisions' play-off comes after their rounds
    winners = {(f.round - offset, f.slot): f.winner_team_id for f in fixtures
               if f.slot is not None and f.winner_team_id is not None}
    single_rounds = int(math.log2(len(places)))
    out: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for tie in formats.elimination_ties(len(places), double):
        home, away = formats.knockout_entrants(places, winners, tie.round, tie.slot, double)
        if home == formats.EMPTY and away == formats.EMPTY:
            continue
        bye = None
        if formats.EMPTY in (home, away):
            bye = away if home == formats.EMPTY else home
            if bye is None:
                continue  # a walkover whose team is not known yet: nothing to show
        stage = tie.stage
        if not double:
            stage = {0: "final", 1: "semi", 2: "quarter"}.get(single_rounds - tie.round, "round")
        played = [f for f in fixtures if (f.round - offset, f.slot) == (tie.round, tie.slot)]
        out.setdefault((tie.round + offset, stage), []).append({
            "home": None if home == formats.EMPTY else home, "away": None if away == formats.EMPTY else away,
            "bye": bye, "fixtures": played, "winner": winners.get((tie.round, tie.slot))})
    return [{"number": rnd, "stage": stage, "ties": ties} for (rnd, stage), ties in out.items()]


def _seeds(draw: Mapping[str, Any]) -> dict[int, int]:
    """Each team's seed in the draw's bracket: a play-off's (divisions) or the draw's order."""
    return {t: i + 1 for i, t in enumerate(draw.get("playoff_order") or draw.get("order") or [])}


def division_tables(teams: Sequence[tuple[int, str, int]], fixtures: Sequence[FixturePublic],
                    settings: Mapping[str, Any], draw: Mapping[str, Any]) -> list[list[StandingRow]]:
    """A league in divisions: each division's table from its own fixtures (not the play-off's),
    as ``standings_rows`` orders it. Empty for other formats."""
    season = [f for f in fixtures if f.slot is None]
    out = []
    for group in draw.get("divisions") or []:
        members = set(group)
        out.append(standings_rows([t for t in teams if t[0] in members],
                                  [f for f in season if f.home_team_id in members], settings))
    return out


def _casualties(rows: Sequence[Any]) -> dict[str, int]:
    """Opponents sent to the Infirmary by an injury, per side that caused it."""
    out = {"west": 0, "east": 0}
    for row in rows:
        for e in row.events:
            if e.get("kind") == "player_removed" and e.get("location") == "infirmary" and "injur" in e.get("reason", ""):
                victim = "west" if str(e["player"]).startswith("w") else "east"
                out["east" if victim == "west" else "west"] += 1
    return out


def _pid(side: str, index: int) -> str:
    """The engine's id of the ``index``-th (0-based) player of ``side`` (``db.teams.team_entry`` order)."""
    return f"{side[0]}{index + 1}"


# --- post-match --------------------------------------------------------------------------------------
def _entry(key: str, /, **values: Any) -> dict[str, Any]:
    """One line of a post-match report as stored: a service catalogue key (``league.applied.*``)
    and its values (player names, ability and attribute ids), said at display time."""
    return {"key": key, "values": values}


def applied_lines(entry: Any, language: str = DEFAULT_LANGUAGE, state: MatchState | None = None, *,
                  name: Shown = _as_stored) -> list[str]:
    """One stored line of a post-match report in ``language``: a ``league.applied.*`` entry; a
    potion's events (``{"events": [...]}``), narrated with the report's ``state`` for the names;
    or an older report's plain English line, as written. Player names are written by ``name``
    (the narrated ones are the ``state``'s, as the caller wrote them)."""
    if isinstance(entry, str):
        return [entry]
    if "events" in entry:
        events = [event_from_dict(e) for e in entry["events"]]
        return [ln for ln in narrate_events(events, state, language=language) if ln]
    tx = catalogue(language)
    values = dict(entry.get("values", {}))
    if "player" in values:
        values["player"] = name(str(values["player"]))
    if "gains" in values:
        values["gains"] = ", ".join(tx.t("league.applied.xp.gain", **{**g, "player": name(str(g.get("player", "")))})
                                    for g in values["gains"])
    if "ability" in values:
        a = ABILITIES.get(values["ability"])
        values["ability"] = a.name_in(language) if a else values["ability"]
    if "attribute" in values:
        attribute = values["attribute"]
        values["attribute"] = Catalogue("engine", "data/text", language).get(f"attribute.{attribute}", attribute.title())
    return [tx.t(entry["key"], **values)]


class _Applied(Said):
    """A post-match line said when a match ends, again in the reader's language."""

    entry: dict[str, Any]

    def in_language(self, language: str) -> str:
        return "\n".join(applied_lines(self.entry, language))


def _said_applied(entry: dict[str, Any]) -> _Applied:
    line = _Applied("\n".join(applied_lines(entry)))
    line.key, line.values, line.entry = entry["key"], entry["values"], entry
    return line


@dataclass
class Offer:
    """One decision waiting for a coach: ``kind`` potion / question / injury / advance; ``options``
    are (label, value, description)."""

    kind: str
    key: str  # the player (engine id for potions, roster id otherwise) or "question"
    prompt: str
    options: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class AftermathView:
    aftermath: AftermathPublic
    team: str
    opponent: str
    fixture: FixturePublic
    offers: list[Offer]
    lines: list[str]

    @property
    def settled(self) -> bool:
        """Nothing left to decide (banked advances aside, once put off)."""
        return not self.offers


@dataclass
class DrawPreview:
    """What a draw gives, before it is made: the format, how many rounds it plays, the first
    fixtures (a knockout: every tie that can be played at once) and the byes; ``fingerprint``
    names exactly this draw (confirming it draws this, or nothing); ``commitment``: the SHA-256
    of the secret the order comes from, shown when the league was created."""

    league: LeaguePublic
    format: str
    names: dict[int, str]
    coaches: dict[int, int]
    order: list[int]
    rounds: int
    pairings: list[formats.Pairing]
    byes: list[int]
    fingerprint: str
    commitment: str
    double_round: bool = False
    #: A league in divisions: each division's teams, in draw order.
    divisions: list[list[int]] = field(default_factory=list)


@dataclass
class Progress:
    """Where a competition stands: its format, the last round drawn of how many, the teams with
    a bye in each round, and once it is over its winner (a knockout's: the final's)."""

    format: str
    round: int
    rounds: int
    byes: dict[int, list[str]]
    champion: str | None
    over: bool
    ended_early: bool = False


#: Settings a schedule fixes: they may change only before it is drawn.
_FORMAT_SETTINGS = frozenset({"format", "seeding", "draw_rule", "swiss_rounds", "divisions"})


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


@dataclass
class TeamSheet:
    team: TeamPublic
    value: int
    budget: int
    league: str | None
    advances: dict[int, int]  # roster id -> abilities he may learn now
    png: bytes | None = None


class LeagueService:
    def __init__(self, matches: MatchService | None = None, *, sessions: SessionFactory = session_scope,
                 render: bool = True) -> None:
        self.matches = matches or MatchService(sessions=sessions, render=False)
        self.sessions = sessions
        self.render = render
        self.matches.on_finish.append(self.match_finished)

    # -- leagues -------------------------------------------------------------------------------------
    def create(self, guild_id: int, user_id: int, name: str, settings: Mapping[str, Any] | None = None) -> LeaguePublic:
        clean = db.clean_settings(settings or {})
        with self.sessions() as s:
            require_league_room(s, guild_id, user_id)  # the member's and the server's caps (service.limits)
            made = db_teams.create_league(session=s, guild_id=guild_id, name=name, commissioner_id=user_id, settings=clean)
            # The draw's secret, drawn now and its commitment shown with the league: the order the
            # schedule gives is fixed before any team joins, and nobody can draw again.
            db.draw_secret(session=s, guild_id=guild_id, league=made.id)
            return db_teams.get_league(session=s, guild_id=guild_id, league=made.id)

    def league(self, guild_id: int, league: int | str) -> LeaguePublic:
        with self.sessions() as s:
            return db_teams.get_league(session=s, guild_id=guild_id, league=league)

    def leagues(self, guild_id: int) -> list[LeaguePublic]:
        with self.sessions() as s:
            return db_teams.list_leagues(session=s, guild_id=guild_id)

    def settings(self, guild_id: int, league: int | str) -> dict[str, Any]:
        return db.settings_of(self.league(guild_id, league))

    def change_settings(self, guild_id: int, user_id: int, league: int | str, changes: Mapping[str, Any], *,
                        moderator: bool = False, reason: str = "") -> LeaguePublic:
        """The commissioner's change; ``moderator``: the member may manage the server, and so may
        stand in for an absent commissioner (audited as such, with his ``reason``)."""
        lg = self.league(guild_id, league)
        stand_in = authority.require_commissioner(lg, user_id, moderator=moderator, reason=reason)
        with self.sessions() as s:
            if _FORMAT_SETTINGS & set(changes) and db.fixtures(session=s, league_id=lg.id):
                raise InvalidInputError("league_format_after_schedule", league=lg.name)
            updated = db.update_settings(session=s, guild_id=guild_id, league=league, actor_id=user_id, changes=changes,
                                         stand_in=stand_in, reason=reason)
        self._refresh_points(updated)
        return updated

    def join(self, guild_id: int, user_id: int, league: int | str, team: int | str) -> tuple[LeaguePublic, TeamPublic, int]:
        """The member enters his own team (``authority.require_team_owner``)."""
        lg = self.league(guild_id, league)
        with self.sessions() as s:
            authority.require_team_owner(db_teams.get_team(session=s, guild_id=guild_id, team=team), user_id, "enter")
            league_row, team_row = db.rows_to_join(session=s, guild_id=guild_id, league=lg.id, team=team, coach_id=user_id)
            settings = db.settings_of(league_row)
            members = [Member(p.position_id, tuple(p.abilities), p.xp) for p in team_row.players if p.status == "active"]
            value = check_team(team_row.team_list, members, {k: int(v) for k, v in team_row.support.items()},
                                  budget=settings["budget"], allow_extra=settings["extra_players"])
            joined, entered = db.enter(session=s, league=league_row, team=team_row, coach_id=user_id, value=value)
        return joined, entered, value

    def teams(self, guild_id: int, league: int | str) -> list[TeamPublic]:
        with self.sessions() as s:
            return db_teams.list_teams(session=s, guild_id=guild_id, league=league)

    # -- schedule ------------------------------------------------------------------------------------
    def _plan(self, lg: LeaguePublic, teams: Sequence[TeamPublic], double: bool, seeds: Sequence[str] | None,
              secret: str) -> tuple[list[formats.Pairing], list[int], dict[str, Any], int]:
        """The draw of ``lg``'s format for ``teams``: the fixtures to store now, the byes, what
        the league keeps of the draw, and how many rounds the competition plays. Pure but for
        the refusals (``service.formats`` does the work)."""
        settings = db.settings_of(lg)
        fmt = settings["format"]
        ids = sorted(t.id for t in teams)
        if len(ids) < 2:
            raise InvalidInputError("league_needs_two_teams", league=lg.name)
        seeded = (settings["seeding"] == "seeded" and fmt != "round_robin") or bool(seeds)
        if seeded:
            if not seeds:
                raise InvalidInputError("league_seeds_needed", league=lg.name)
            by_name = {_folded(t.name): t.id for t in teams}
            unknown = [name for name in seeds if _folded(name) not in by_name]
            if unknown:
                raise InvalidInputError("seed_not_in_league", team=unknown[0], league=lg.name)
            order = formats.seeded_order(ids, [by_name[_folded(name)] for name in seeds], secret)
        else:
            order = formats.draw_order(ids, secret)
        draw: dict[str, Any] = {"format": fmt, "order": order, "seeding": "seeded" if seeded else "drawn"}
        byes: list[int] = []
        if fmt in ELIMINATION:
            double = fmt == "double_elimination"
            places = formats.bracket(order)
            pairings = formats.knockout_due(places, {}, {t: i + 1 for i, t in enumerate(order)}, double)
            byes = [t for i in range(0, len(places), 2) if None in places[i:i + 2]
                    for t in places[i:i + 2] if t is not None]
            rounds = formats.knockout_rounds(len(ids), double)
            draw.update(places=places, rounds=rounds, byes={"1": byes})
        elif fmt == "divisions":
            count = settings["divisions"]
            if len(ids) < 2 * count:
                raise InvalidInputError("divisions_too_few_teams", divisions=count, teams=len(ids))
            groups = [order[i::count] for i in range(count)]  # dealt like cards: the seeds spread out
            pairings = [formats.Pairing(r, h, a) for group in groups for r, h, a in round_robin(group, double=double)]
            pairings.sort(key=lambda p: p.round)
            rounds = max(p.round for p in pairings) + formats.knockout_rounds(count)
            draw.update(divisions=groups, rounds=rounds)
        elif fmt == "swiss":
            most = formats.max_swiss_rounds(len(ids))
            if settings["swiss_rounds"] > most:
                raise InvalidInputError("swiss_too_many_rounds", teams=len(ids), most=most)
            rounds = formats.swiss_rounds(len(ids), settings["swiss_rounds"])
            found = formats.swiss_pairings(order, {}, set(), rnd=1)
            pairings, bye = found if found else ([], None)  # a first round always pairs
            byes = [bye] if bye is not None else []
            draw.update(rounds=rounds, byes={"1": byes})
        else:
            pairings = [formats.Pairing(r, h, a) for r, h, a in round_robin(order, double=double)]
            rounds = max(p.round for p in pairings)
            draw.update(rounds=rounds)
        return pairings, byes, draw, rounds

    def preview(self, guild_id: int, user_id: int, league: int | str, *, double_round: bool | None = None,
                seeds: Sequence[str] | None = None, moderator: bool = False, reason: str = "") -> DrawPreview:
        """The draw ``schedule`` would make now, for the commissioner's eyes (nothing is drawn;
        the league keeps what was previewed, so that confirming it draws exactly that)."""
        lg = self.league(guild_id, league)
        authority.require_commissioner(lg, user_id, moderator=moderator, reason=reason)
        double = db.settings_of(lg)["double_round"] if double_round is None else double_round
        teams = self.teams(guild_id, lg.id)
        with self.sessions() as s:
            if db.fixtures(session=s, league_id=lg.id):
                raise InvalidInputError("league_has_schedule", league=lg.name)
            secret, commitment = db.draw_secret(session=s, guild_id=guild_id, league=lg.id)
        pairings, byes, _draw, rounds = self._plan(lg, teams, double, seeds, secret)
        fingerprint = formats.fingerprint(pairings, byes)
        with self.sessions() as s:
            lg = db.save_draw(session=s, guild_id=guild_id, league=lg.id, draw={
                "preview": {"seeds": list(seeds or []), "double_round": double, "fingerprint": fingerprint,
                            "reason": reason}})
        return DrawPreview(lg, db.settings_of(lg)["format"], {t.id: t.name for t in teams},
                           {t.id: t.coach_id for t in teams}, _draw["order"], rounds, pairings, byes, fingerprint,
                           commitment, double, list(_draw.get("divisions", [])))

    def schedule(self, guild_id: int, user_id: int, league: int | str, *, double_round: bool | None = None,
                 moderator: bool = False, reason: str = "", seeds: Sequence[str] | None = None,
                 confirm: str | None = None) -> list[FixtureView]:
        """The commissioner (or a moderator standing in, audited with his ``reason``) draws the
        league's format: the teams in the order the league's committed secret gives (or his
        ``seeds`` first), revealed with the schedule so the draw can be checked. ``confirm``: the
        fingerprint of a preview, whose seeds and double round are used; refused if the draw is
        no longer that one."""
        lg = self.league(guild_id, league)
        if confirm is not None:
            pending = dict((lg.draw or {}).get("preview") or {})
            seeds = pending.get("seeds") or None
            double_round = pending.get("double_round", double_round)
            reason = reason or str(pending.get("reason") or "")
        stand_in = authority.require_commissioner(lg, user_id, moderator=moderator, reason=reason)
        double = db.settings_of(lg)["double_round"] if double_round is None else double_round
        teams = self.teams(guild_id, lg.id)
        with self.sessions() as s:
            secret, commitment = db.draw_secret(session=s, guild_id=guild_id, league=lg.id)
        pairings, byes, draw, rounds = self._plan(lg, teams, double, seeds, secret)
        if confirm is not None and formats.fingerprint(pairings, byes) != confirm:
            raise InvalidInputError("draw_preview_changed")
        draw.update(secret=secret, commitment=commitment)
        with self.sessions() as s:
            db.make_schedule(session=s, guild_id=guild_id, league=lg.id, actor_id=user_id,
                             pairings=[(p.round, p.home, p.away, p.slot) for p in pairings], double_round=double,
                             stand_in=stand_in, reason=reason, byes=byes, draw=draw, rounds=rounds)
        return self.fixtures(guild_id, lg.id)

    def division_standings(self, guild_id: int, league: int | str) -> list[list[StandingRow]]:
        """A league in divisions: each division's table (empty for other formats)."""
        lg = self.league(guild_id, league)
        views = self.fixtures(guild_id, lg.id)
        teams = [(t.id, t.name, t.coach_id) for t in self.teams(guild_id, lg.id)]
        return division_tables(teams, [v.fixture for v in views], db.settings_of(lg), lg.draw or {})

    def progress(self, guild_id: int, league: int | str) -> Progress:
        """Where the league's competition stands (``Progress``)."""
        lg = self.league(guild_id, league)
        settings, draw = db.settings_of(lg), dict(lg.draw or {})
        views = self.fixtures(guild_id, lg.id)
        names = {t.id: t.name for t in self.teams(guild_id, lg.id)}
        latest = max((v.fixture.round for v in views), default=0)
        rounds = int(draw.get("rounds", latest))
        byes = {int(r): [names.get(t, "?") for t in ts] for r, ts in (draw.get("byes") or {}).items() if ts}
        all_played = bool(views) and all(v.fixture.played for v in views)
        fmt = settings["format"] if "secret" in draw or not views else "round_robin"
        ended_early = "ended_early" in draw
        if fmt in ELIMINATION or fmt == "divisions":
            champ = draw.get("champion")
            return Progress(fmt, latest, rounds, byes, names.get(champ) if champ else None, champ is not None)
        over = all_played and (fmt == "round_robin" or latest >= rounds or ended_early)
        champion = None
        if over:
            _lg, rows = self.standings(guild_id, lg.id)
            champion = rows[0].name if rows else None
        return Progress(fmt, latest, rounds, byes, champion, over, ended_early)

    # -- later rounds (knockout, Swiss) ---------------------------------------------------------
    def _advance(self, guild_id: int, league_id: int) -> list[FixturePublic]:
        """After a result (recorded or corrected): a knockout's ties decided and those now due, a
        Swiss's next round once its round is played; in one transaction, the league locked
        first so two results at once draw one round. The new fixtures."""
        with self.sessions() as s:
            row = db.find_league(s, guild_id, league_id, lock=True)
            settings, draw = db.settings_of(row), dict(row.draw or {})
            if settings["format"] == "round_robin" or "secret" not in draw:
                return []
            fixtures = db.fixtures(session=s, league_id=league_id)
            if settings["format"] == "divisions":
                decisions, drop, add, changed = self._divisions_step(s, league_id, settings, draw, fixtures)
            elif settings["format"] in ELIMINATION:
                decisions, drop, add, changed = self._knockout_step(s, settings, draw, fixtures)
            else:
                decisions, drop, add, changed = {}, [], *self._swiss_step(s, league_id, settings, draw, fixtures)
            if not (decisions or drop or add or changed):
                return []
            deadline, channel = self._new_round_deadline(settings, fixtures) if add else (None, None)
            return db.advance_rounds(session=s, league=row, decisions=decisions, drop=drop, add=add,
                                     draw=draw if changed else None, deadline=deadline, channel_id=channel)

    def _new_round_deadline(self, settings: Mapping[str, Any],
                            fixtures: Sequence[FixturePublic]) -> tuple[datetime | None, int | None]:
        """When ties drawn now (a knockout's next ties, a Swiss's next round, a play-off) must be
        played by: the league's ``round_days`` after now, as the first schedule's rounds get
        theirs (``service.deadlines.set_default_rounds``); reminded in the channel the league's
        deadlines were last reminded in (the schedule's, stored on its fixtures). None without a
        round length."""
        days = int(settings.get("round_days", 0) or 0)
        if not days:
            return None, None
        channel = next((f.deadline_channel_id for f in sorted(fixtures, key=lambda f: f.id, reverse=True)
                        if f.deadline_channel_id), None)
        return self.matches.clock().replace(second=0, microsecond=0) + timedelta(days=days), channel

    def _knockout_step(self, s: Session, settings: Mapping[str, Any], draw: dict[str, Any],
                       fixtures: Sequence[FixturePublic]) -> tuple[dict[int, tuple[int | None, str | None]], list[int],
                                                                   list[tuple[int, int, int, int | None]], bool]:
        seeds = _seeds(draw)
        places = draw["places"]
        offset = int(draw.get("offset", 0))  # a play-off after the divisions' rounds
        winners: dict[tuple[int, int], int] = {}
        decisions: dict[int, tuple[int | None, str | None]] = {}
        for f in sorted(fixtures, key=lambda f: f.id):
            if f.slot is None or f.status != FixtureStatus.PLAYED or f.home_score is None or f.away_score is None:
                continue
            winner, ruling = formats.knockout_winner(f.home_team_id, f.away_team_id, f.home_score, f.away_score,
                                                     f.conceded_by, settings["draw_rule"], seeds,
                                                     self._coin_seed(s, f, settings))
            if (winner, ruling) != (f.winner_team_id, f.ruling):
                decisions[f.id] = (winner, ruling)
            if winner is not None:
                winners[(f.round - offset, f.slot)] = winner
        double = settings["format"] == "double_elimination"
        want = {(p.round, p.slot): p for p in formats.knockout_due(places, winners, seeds, double)}
        live = {(f.round - offset, f.slot): f for f in fixtures
                if f.slot is not None and f.status != FixtureStatus.PLAYED}
        drop = [f.id for key, f in live.items() if f.status == FixtureStatus.SCHEDULED
                and (key not in want or (f.home_team_id, f.away_team_id) != (want[key].home, want[key].away))]
        add = [(p.round + offset, p.home, p.away, p.slot) for key, p in want.items()
               if key not in live or live[key].id in drop]
        champion = formats.knockout_champion(places, winners, double)
        changed = champion != draw.get("champion")
        if changed:
            draw["champion"] = champion
        return decisions, drop, add, changed

    def _divisions_step(self, s: Session, league_id: int, settings: Mapping[str, Any], draw: dict[str, Any],
                        fixtures: Sequence[FixturePublic]) -> tuple[dict[int, tuple[int | None, str | None]], list[int],
                                                                    list[tuple[int, int, int, int | None]], bool]:
        """Divisions: once every division fixture is played, the play-off between the division
        leaders is drawn (a knockout seeded by their records), then played as a knockout."""
        changed = False
        if "places" not in draw:
            season = [f for f in fixtures if f.slot is None]
            if not season or not all(f.played for f in season):
                return {}, [], [], False
            teams = [(t.id, t.name, t.coach_id) for t in db.league_teams(session=s, league_id=league_id)
                     if t.id is not None]
            leaders = [(rows[0], i) for i, rows in enumerate(division_tables(teams, season, settings, draw)) if rows]
            leaders.sort(key=lambda x: (-x[0].points, -x[0].goal_difference, -x[0].goals_for, -x[0].casualties, x[1]))
            order = [r.team_id for r, _ in leaders]
            draw.update(playoff_order=order, places=formats.bracket(order), offset=max(f.round for f in season))
            changed = True
        decisions, drop, add, champion_changed = self._knockout_step(s, settings, draw, fixtures)
        return decisions, drop, add, changed or champion_changed

    def _coin_seed(self, s: Session, f: FixturePublic, settings: Mapping[str, Any]) -> str | None:
        """The revealed dice seed of a drawn tie's match, for the ``coin`` ruling (None: no match)."""
        if settings["draw_rule"] != "coin" or f.home_score != f.away_score or f.match_id is None:
            return None
        return store.get_match(session=s, match_id=f.match_id).seed

    def _swiss_step(self, s: Session, league_id: int, settings: Mapping[str, Any], draw: dict[str, Any],
                    fixtures: Sequence[FixturePublic]) -> tuple[list[tuple[int, int, int, int | None]], bool]:
        latest = max((f.round for f in fixtures), default=0)
        if "ended_early" in draw or latest >= int(draw["rounds"]) or any(
                f.round == latest and not f.played for f in fixtures):
            return [], False
        teams = [(t.id, t.name, t.coach_id) for t in db.league_teams(session=s, league_id=league_id) if t.id is not None]
        rows = league_table(teams, fixtures, settings, draw)
        points = {r.team_id: r.points for r in rows}
        found = formats.swiss_pairings([r.team_id for r in rows], points,
                                       {frozenset((f.home_team_id, f.away_team_id)) for f in fixtures},
                                       set(swiss_byes(draw)), Counter(f.home_team_id for f in fixtures), rnd=latest + 1)
        if found is None:  # no pairing without a repeat is left: the Swiss ends here
            draw["ended_early"] = latest
            return [], True
        pairs, bye = found
        draw["byes"] = {**(draw.get("byes") or {}), str(latest + 1): [bye] if bye is not None else []}
        return [(p.round, p.home, p.away, None) for p in pairs], True

    def fixtures(self, guild_id: int, league: int | str, *, sync: bool = True) -> list[FixtureView]:
        """The league's fixtures; first (``sync``) catching up with matches that ended unseen,
        which may write: an autocomplete passes ``sync=False`` and only reads."""
        lg = self.league(guild_id, league)
        if sync:
            self.sync(lg)
        with self.sessions() as s:
            teams = {t.id: t for t in db_teams.list_teams(session=s, guild_id=guild_id, league=lg.id)}
            rows = db.fixtures(session=s, league_id=lg.id)
        return [self._view(f, teams) for f in rows]

    def commitments_shown(self, shown: Sequence[FixtureView]) -> None:
        """A public post of the bot showed these fixtures' dice commitments (the fixtures list, or
        the post of a re-drawn fixture): each may now be played, unless drawn again since."""
        with self.sessions() as s:
            db.commitments_posted(session=s, shown=[(v.id, v.fixture.dice_commitment) for v in shown
                                                    if v.fixture.dice_commitment])

    def _view(self, f: FixturePublic, teams: Mapping[int, TeamPublic]) -> FixtureView:
        home, away = teams.get(f.home_team_id), teams.get(f.away_team_id)
        return FixtureView(f, home.name if home else "?", away.name if away else "?",
                           home.coach_id if home else 0, away.coach_id if away else 0)

    def fixture_choices(self, guild_id: int, text: str = "", *, coach_id: int | None = None,
                        scheduled: bool = False) -> list[tuple[FixtureView, str]]:
        """At most 25 fixtures (each with its league's name) for an autocomplete: ``text`` as
        typed, filtered by the database (``db.leagues.fixture_choices``); ``coach_id``'s own
        and ``scheduled`` ones if asked. Reads only."""
        with self.sessions() as s:
            rows = db.fixture_choices(session=s, guild_id=guild_id, text=text, coach_id=coach_id, scheduled=scheduled)
        return [(FixtureView(r.fixture, r.home, r.away, r.home_coach, r.away_coach), r.league) for r in rows]

    def fixture(self, guild_id: int, fixture_id: int) -> FixtureView:
        with self.sessions() as s:
            f = db.get_fixture(session=s, fixture_id=fixture_id)
            lg = db.find_league(s, guild_id, f.league_id)
            teams = {t.id: t for t in db_teams.list_teams(session=s, guild_id=guild_id, league=lg.id)}
        return self._view(f, teams)

    def results(self, guild_id: int, league: int | str) -> list[FixtureView]:
        played = [v for v in self.fixtures(guild_id, league) if v.fixture.played]
        return sorted(played, key=lambda v: (v.fixture.round, v.fixture.id))

    def standings(self, guild_id: int, league: int | str) -> tuple[LeaguePublic, list[StandingRow]]:
        lg = self.league(guild_id, league)
        views = self.fixtures(guild_id, lg.id)
        teams = [(t.id, t.name, t.coach_id) for t in self.teams(guild_id, lg.id)]
        return lg, league_table(teams, [v.fixture for v in views], db.settings_of(lg), lg.draw or {})

    def _refresh_points(self, league: LeaguePublic) -> None:
        with self.sessions() as s:
            teams = [(t.id, t.name, t.coach_id) for t in db.league_teams(session=s, league_id=league.id) if t.id is not None]
            rows = league_table(teams, db.fixtures(session=s, league_id=league.id), db.settings_of(league), league.draw or {})
            db.set_points(session=s, points={r.team_id: r.points for r in rows})

    def refresh_points(self, league: LeaguePublic) -> None:
        """Each team's cached points again, after a result set outside a match (a deadline's ruling)."""
        self._refresh_points(league)

    def correct(self, guild_id: int, user_id: int, fixture_id: int, *, home_score: int, away_score: int,
                home_casualties: int | None = None, away_casualties: int | None = None,
                reason: str, moderator: bool = False) -> tuple[FixtureView, dict[str, Any]]:
        """The commissioner's correction (or a result for an unplayed fixture, e.g. a walkover), or a
        moderator's standing in for him (``authority.require_commissioner``), but not for a fixture
        his own team plays (``authority.require_moderator_not_playing``).

        The documented exception to "a team is used by its owner only": the commissioner corrects
        the result of two teams he need not own, for the league's sake, and the audit trail keeps
        who did it, why, and what the result was before."""
        view = self.fixture(guild_id, fixture_id)
        f = view.fixture
        stand_in = authority.require_commissioner(self.league(guild_id, f.league_id), user_id, moderator=moderator,
                                                  fixture=view, reason=reason)
        result = {"home_score": home_score, "away_score": away_score,
                  "home_casualties": f.home_casualties if home_casualties is None else home_casualties,
                  "away_casualties": f.away_casualties if away_casualties is None else away_casualties,
                  "conceded_by": None}  # the commissioner's score stands on its own
        self._check_knockout_correction(guild_id, f, result)
        with self.sessions() as s:
            fixed, before = db.correct_result(session=s, guild_id=guild_id, fixture_id=fixture_id, actor_id=user_id,
                                              result=result, reason=reason, stand_in=stand_in)
        lg = self.league(guild_id, fixed.league_id)
        self._refresh_points(lg)
        if db.settings_of(lg)["format"] != "round_robin":
            self._advance(guild_id, fixed.league_id)
            fixed = self.fixture(guild_id, fixed.id).fixture
        return FixtureView(fixed, view.home, view.away, view.home_coach, view.away_coach), before

    def _check_knockout_correction(self, guild_id: int, f: FixturePublic, result: Mapping[str, Any]) -> None:
        """A knockout tie's correction may not change who went through once a later tie of
        either team (drawn after this one) has started: ``knockout_tie_followed``."""
        lg = self.league(guild_id, f.league_id)
        settings, draw = db.settings_of(lg), dict(lg.draw or {})
        if (settings["format"] not in ELIMINATION and settings["format"] != "divisions") or f.slot is None \
                or "order" not in draw:
            return
        seeds = _seeds(draw)
        with self.sessions() as s:
            winner, _ruling = formats.knockout_winner(f.home_team_id, f.away_team_id, result["home_score"],
                                                      result["away_score"], result["conceded_by"],
                                                      settings["draw_rule"], seeds, self._coin_seed(s, f, settings))
            teams = {f.home_team_id, f.away_team_id}
            later = [x for x in db.fixtures(session=s, league_id=lg.id) if x.status != FixtureStatus.SCHEDULED
                     and x.id > f.id and teams & {x.home_team_id, x.away_team_id}]
        if later and winner != f.winner_team_id:
            raise InvalidInputError("knockout_tie_followed", fixture=f.id, next=later[0].id)

    def audit(self, guild_id: int, league: int | str, limit: int | None = 30, offset: int = 0) -> list[LeagueAuditPublic]:
        """The league's audit trail, newest first: ``limit`` rows (None: the whole history)
        after ``offset``."""
        lg = self.league(guild_id, league)
        with self.sessions() as s:
            return db.audit(session=s, league_id=lg.id, limit=limit, offset=offset)

    def check_export(self, guild_id: int, user_id: int, league: int | str, *, moderator: bool = False,
                     reason: str = "") -> LeaguePublic:
        """The commissioner exports the league's website; a moderator may stand in for him
        (``authority.require_commissioner``), and that export is written in the league's audit
        with who and his ``reason``. The league, to export."""
        lg = self.league(guild_id, league)
        stand_in = authority.require_commissioner(lg, user_id, moderator=moderator, reason=reason)
        if stand_in:
            with self.sessions() as s:
                db.audit_stand_in(session=s, league_id=lg.id, action="site_exported", actor_id=user_id,
                                  stand_in=stand_in, reason=reason)
        return lg

    # -- playing -------------------------------------------------------------------------------------
    def next_fixtures(self, guild_id: int, user_id: int, league: int | str | None = None, *,
                      sync: bool = True) -> list[FixtureView]:
        """The fixtures this coach still has to play (all his leagues, or one)."""
        leagues = [self.league(guild_id, league)] if league is not None else self.leagues(guild_id)
        out = []
        for lg in leagues:
            out += [v for v in self.fixtures(guild_id, lg.id, sync=sync)
                    if v.fixture.status == FixtureStatus.SCHEDULED and user_id in (v.home_coach, v.away_coach)]
        return out

    def play(self, guild_id: int, channel_id: int, user_id: int, fixture_id: int | None = None,
             entropy: str = "") -> tuple[FixtureView, Outcome]:
        """One of its coaches starts a fixture in this channel: home plays west."""
        if fixture_id is None:
            mine = self.next_fixtures(guild_id, user_id)
            if not mine:
                raise InvalidInputError("you_no_league_fixture_left")
            fixture_id = mine[0].id
        view = self.fixture(guild_id, fixture_id)
        f = view.fixture
        authority.require_fixture_coach(view.home_coach, view.away_coach, user_id)
        if f.status != FixtureStatus.SCHEDULED:
            if f.channel_id:
                raise InvalidInputError("fixture_status_in_channel", fixture=f.id, status=Term("status", f.status),
                                        channel=f.channel_id)
            raise InvalidInputError("fixture_status", fixture=f.id, status=Term("status", f.status))
        with self.sessions() as s:
            if not db.fixture_secrets_open(session=s, fixture_id=f.id):
                # Sealed with a key the bot no longer has (docs/operating.md, "The dice key"): no
                # match was played with them, so fresh secrets replace them, posted before any entropy.
                db.redraw_secrets(session=s, fixture_id=f.id)
        view = self.fixture(guild_id, fixture_id)
        f = view.fixture
        if f.dice_commitment and f.posted_commitment != f.dice_commitment:
            # Its dice were drawn again (after an abandon) and never shown: the commitment must be
            # public before any entropy exists, so this play posts it instead of starting.
            raise CommitmentNotPosted(view)
        lg = self.league(guild_id, f.league_id)
        settings = db.settings_of(lg)
        self._settle_idle([f.home_team_id, f.away_team_id])
        with self.sessions() as s:
            for team_id in (f.home_team_id, f.away_team_id):
                self._check_ready(s, guild_id, team_id, settings)
            teams = {t: db_teams.get_team(session=s, guild_id=guild_id, team=t) for t in (f.home_team_id, f.away_team_id)}
            lineup = {side: [p.id for p in sorted((p for p in teams[tid].players if p.status == PlayerStatus.ACTIVE),
                                                  key=lambda p: p.number)]
                      for side, tid in (("west", f.home_team_id), ("east", f.away_team_id))}
            db.start_fixture(session=s, fixture_id=f.id, channel_id=channel_id, lineup=lineup)
        options = match_options(settings)
        try:
            # The dice: the fixture's secret, committed in public (the schedule, the fixtures list
            # or the post of a re-drawn fixture), joined with the starting coach's ``entropy``
            # (his words' part, or his interaction's id), which did not exist then. The fixture
            # was claimed (``start_fixture``, committed) before the seed is computed.
            with self.sessions() as s:
                seed = db.fixture_seed(session=s, fixture_id=f.id, entropy=entropy)
            out = self.matches.start(guild_id=guild_id, channel_id=channel_id,
                                     west=MatchSide(coach_id=view.home_coach, team=f.home_team_id),
                                     east=MatchSide(coach_id=view.away_coach, team=f.away_team_id), options=options,
                                     seed=seed)
        except BaseException:
            with self.sessions() as s:
                db.reset_fixture(session=s, fixture_id=f.id)
            raise
        with self.sessions() as s:
            db.link_match(session=s, fixture_id=f.id, match_id=out.match.id)
        self._check_lineup(out, lineup, teams, (f.home_team_id, f.away_team_id), channel_id, f.id)
        return self.fixture(guild_id, f.id), out

    def _check_lineup(self, out: Outcome, lineup: Mapping[str, list[int]], teams: Mapping[int, TeamPublic],
                      team_ids: tuple[int, int], channel_id: int, fixture_id: int) -> None:
        """The engine numbers each side's players in roster order (``w1`` is the first active
        player): if the match's players do not line up with the roster, XP and injuries would go
        to the wrong rows, so the match is called off before anyone plays."""
        for side, team_id in zip(SIDES, team_ids, strict=True):
            names = {p.id: p.name for p in teams[team_id].players}
            expected = [names[i] for i in lineup[side]]
            actual = [p.name for p in out.state.team_players(side)]  # type: ignore[arg-type]  # a stored or finished side is 'west' or 'east'
            if expected != actual:
                self.matches.abandon(channel_id, None, "the match's players did not match the league rosters")
                with self.sessions() as s:
                    db.reset_fixture(session=s, fixture_id=fixture_id)
                raise InvalidInputError("match_s_players_do_match")

    def _check_ready(self, s: Session, guild_id: int, team_id: int, settings: Mapping[str, Any]) -> None:
        team = db_teams.get_team(session=s, guild_id=guild_id, team=team_id)
        left = db.open_aftermaths(session=s, team_ids=[team_id])
        if left:
            raise InvalidInputError("team_aftermath_first", team=team.name)
        busy = db.team_busy(s, team_id)
        if busy:
            raise InvalidInputError("team_refused", team=team.name, reason=busy)
        check_team(team.team_list, team_roster.members(team), {k: int(v) for k, v in team.support.items()},
                      budget=settings["budget"], allow_extra=settings["extra_players"])

    def sync(self, league: LeaguePublic) -> None:
        """Catch up with matches that ended without their listener (a crash, another process):
        record finished ones, and put abandoned ones back on the schedule."""
        with self.sessions() as s:
            playing = [f for f in db.fixtures(session=s, league_id=league.id) if f.status == FixtureStatus.PLAYING]
            matches = {f.id: store.get_match(session=s, match_id=f.match_id) for f in playing if f.match_id}
        for f in playing:
            m = matches.get(f.id)
            if m is None or m.status == MatchStatus.ABANDONED:
                if m is None and (f.updated_at and (self.matches.clock() - f.updated_at).total_seconds() < 300):
                    continue  # being started right now
                with self.sessions() as s:
                    db.reset_fixture(session=s, fixture_id=f.id)
            elif m.status == MatchStatus.FINISHED:
                self.match_finished(m, m.engine_state())

    # -- when a match ends -----------------------------------------------------------------------------
    def match_finished(self, match: MatchPublic, state: MatchState) -> list[str]:
        """Listener of the match service: a league match ended. Records the result, adds the XP and
        opens each team's post-match report, all at once; says nothing for other matches."""
        with self.sessions() as s:
            f = db.fixture_for_match(session=s, match_id=match.id)
            if f is None:
                return []
            if f.status != FixtureStatus.PLAYING:
                return [said("league.finished.again", id=f.id)]
            rows = store.match_events(session=s, match_id=match.id)
            cas = _casualties(rows)
            conceded = None
            if state.end_reason and state.end_reason.endswith("conceded"):
                conceded = "home" if state.end_reason.startswith("west") else "away"
            result = {"home_score": state.teams["west"].score, "away_score": state.teams["east"].score,
                      "home_casualties": cas["west"], "away_casualties": cas["east"], "conceded_by": conceded}
            aftermaths, changed, lines = [], [], []
            sides: tuple[tuple[Side, int, int], ...] = (("west", f.home_team_id, match.west_coach_id),
                                                        ("east", f.away_team_id, match.east_coach_id))
            for side, team_id, coach in sides:
                roster = self._roster_rows(s, team_id)
                gained = []
                for i, rp_id in enumerate(f.lineup.get(side, [])):
                    p, rp = state.players.get(_pid(side, i)), roster.get(rp_id)
                    if p is None or rp is None or not p.xp or not gains_experience(rp.position_id):
                        continue
                    rp.xp += p.xp
                    changed.append(rp)
                    gained.append({"id": rp.id, "player": rp.name, "xp": p.xp, "total": rp.xp})
                applied = [_entry("league.applied.xp", gains=gained)] if gained else []
                potions = bool(self._potion_targets(state, side, f)) and state.teams[side].available("potions") > 0
                pending: list[Any] = []
                if not potions:  # nothing to drink first: the injuries reach the roster at once
                    hurt, pending, settled = self._injuries(state, side, f, roster)
                    changed += hurt
                    applied += settled
                lines += [_said_applied(e) for e in applied]
                am = db.create_aftermath(session=s, fixture_id=f.id, side=side, team_id=team_id, coach_id=coach,
                                         state=state.to_dict(), entropy=".".join(filter(None, (match.dice_entropy, side))),
                                         potions_done=not potions, applied=applied)
                am.pending, am.done = pending, not potions and not pending
                aftermaths.append(am)
            db.record_result(session=s, fixture_id=f.id, result=result, aftermaths=aftermaths, roster=changed)
            league = db_teams.get_league(session=s, guild_id=match.guild_id, league=f.league_id)
        self._refresh_points(league)
        w, e = state.teams["west"], state.teams["east"]
        return [said("league.finished.result", west=w.name, west_score=w.score, east_score=e.score, east=e.name,
                     west_casualties=cas["west"], east_casualties=cas["east"]), *lines, said("league.finished.panels"),
                *self._next_round_lines(match.guild_id, league)]

    def _next_round_lines(self, guild_id: int, league: LeaguePublic) -> list[Said]:
        """A knockout's or a Swiss's next ties once a result allows them, said under the result;
        the champion once there is one."""
        if db.settings_of(league)["format"] == "round_robin":
            return []
        fresh = self._advance(guild_id, league.id)
        lines: list[Said] = []
        if fresh:
            teams = {t.id: t.name for t in self.teams(guild_id, league.id)}
            lines.append(said("league.next_round", league=league.name))
            # A tie due by a deadline (the league's round length) says so, in each reader's time zone.
            lines += [said("league.next_fixture.due" if f.deadline else "league.next_fixture", round=f.round, id=f.id,
                           home=teams.get(f.home_team_id, "?"), away=teams.get(f.away_team_id, "?"),
                           **({"when": int(f.deadline.timestamp())} if f.deadline else {})) for f in fresh]
        progress = self.progress(guild_id, league.id)
        if progress.champion and progress.format != "round_robin" and (fresh or progress.over):
            lines.append(said("league.champion", team=progress.champion, league=league.name))
        return lines

    def _roster_rows(self, s: Session, team_id: int) -> dict[int, RosterPlayer]:
        team = s.get(Team, team_id)
        return {p.id: p for p in team.players} if team else {}  # type: ignore[misc]  # the roster's players are rows with an id

    def _roster_id(self, f: FixturePublic, side: str, pid: str) -> int | None:
        ids = f.lineup.get(side, [])
        index = int(pid[1:]) - 1
        return ids[index] if 0 <= index < len(ids) else None

    def _potion_targets(self, state: MatchState, side: str, f: FixturePublic) -> list[str]:
        """Players a potion may still help after the match: hurt this game (Infirmary, Recovery or a
        lasting injury), not dead or finished (G50), no potion yet, not an Impcrusher."""
        out = []
        for p in state.team_players(side):  # type: ignore[arg-type]  # a stored or finished side is 'west' or 'east'
            hurt = p.location in _HURT or (p.injury or {}).get("kind") == "lasting"
            ended = (p.injury or {}).get("kind") in ("career_ending", "dead")
            if hurt and not ended and not p.potion_used and uses_potions(p.position) and self._roster_id(f, side, p.id):
                out.append(p.id)
        return out

    def _injuries(self, state: MatchState, side: str, f: FixturePublic,
                  roster: Mapping[int, RosterPlayer]) -> tuple[list[RosterPlayer], list[Any], list[dict[str, Any]]]:
        """What the match (and any potion) left to the roster: the rows changed, the lasting
        injuries whose attribute the coach must choose, and a report entry for each change."""
        changed: list[RosterPlayer] = []
        pending: list[Any] = []
        applied: list[dict[str, Any]] = []
        for p in state.team_players(side):  # type: ignore[arg-type]  # a stored or finished side is 'west' or 'east'
            injury = p.injury or {}
            rp = roster.get(self._roster_id(f, side, p.id) or -1)
            if not injury or rp is None or rp.status != PlayerStatus.ACTIVE:
                continue
            kind = injury.get("kind")
            if kind in ("career_ending", "dead"):
                rp.status = (PlayerStatus.DEAD if kind == "dead" else PlayerStatus.RETIRED).value
                rp.injuries = [*rp.injuries, {"kind": kind, "match": f.match_id}]
                changed.append(rp)
                applied.append(_entry(f"league.applied.{kind}", id=rp.id, player=rp.name))
            elif kind == "lasting":
                choices = [a for a in injury.get("attributes") or lasting_choices(rp.attributes) if a in Attributes.FIELDS]
                if len(choices) == 1:
                    self._lower(rp, choices[0], choices, f.match_id)
                    changed.append(rp)
                    applied.append(_entry("league.applied.lasting", id=rp.id, player=rp.name, attribute=choices[0]))
                else:
                    pending.append({"player": rp.id, "attributes": choices})
        return changed, pending, applied

    @staticmethod
    def _lower(rp: RosterPlayer, attribute: str, choices: list[str], match_id: int | None) -> None:
        rp.attributes = apply_lasting(rp.attributes, attribute, choices)
        rp.injuries = [*rp.injuries, {"kind": "lasting", "attribute": attribute, "match": match_id}]

    # -- post-match decisions ---------------------------------------------------------------------------
    def open_aftermaths(self, guild_id: int, user_id: int, *, language: str = DEFAULT_LANGUAGE,
                        name: Shown = _as_stored) -> list[AftermathView]:
        """This coach's post-match reports with something still to decide."""
        with self.sessions() as s:
            teams = db_teams.list_teams(session=s, guild_id=guild_id, coach_id=user_id)
        self._settle_idle([t.id for t in teams if t.league_id is not None])
        with self.sessions() as s:
            rows = db.open_aftermaths(session=s, team_ids=[t.id for t in teams if t.league_id is not None])
            latest = [a for t in teams if t.league_id is not None
                      for a in [db.latest_aftermath(session=s, team_id=t.id)] if a is not None]
        ids = list(dict.fromkeys([r.id for r in rows] + [r.id for r in latest]))
        views = [self.aftermath(i, language=language, name=name) for i in ids]
        return [v for v in views if not v.settled]

    def aftermath_views(self, match_id: int, *, language: str = DEFAULT_LANGUAGE, name: Shown = _as_stored) -> list[AftermathView]:
        with self.sessions() as s:
            f = db.fixture_for_match(session=s, match_id=match_id)
            rows = db.aftermaths_of(session=s, fixture_id=f.id) if f else []
        return [self.aftermath(r.id, language=language, name=name) for r in rows]

    def aftermath(self, aftermath_id: int, *, language: str = DEFAULT_LANGUAGE, name: Shown = _as_stored) -> AftermathView:
        """One team's post-match report; its offers (prompts, options) in ``language``, the names
        in its text written by ``name``."""
        with self.sessions() as s:
            am = db.get_aftermath(session=s, aftermath_id=aftermath_id)
            f = db.get_fixture(session=s, fixture_id=am.fixture_id)
            team = s.get(Team, am.team_id)
            assert team is not None
            opponent = s.get(Team, f.away_team_id if am.side == "west" else f.home_team_id)
            roster = {p.id: p for p in team.players if p.id is not None}
            rules = team_roster.team_rules(s, team)
            value = team_roster.team_value(team)
            offers = self._offers(am, f, team, roster, value, rules["budget"], language, name)
            state = _named(MatchState.from_dict(am.state), name)
            lines = [ln for entry in am.applied for ln in applied_lines(entry, language, state, name=name)]
            lines += self._potion_dice_lines(s, am, f, language)
            return AftermathView(am, name(team.name), name(opponent.name) if opponent else "?", f, offers, lines)

    def _potion_dice_lines(self, s: Session, am: AftermathPublic, f: FixturePublic, language: str) -> list[str]:
        """Where the report's potion dice come from: committed while a potion may be drunk,
        revealed after (nothing for a report whose team had none, or from before commitments)."""
        drunk = any(isinstance(e, dict) and "command" in e for e in am.applied)
        if not am.seed_commitment or (am.potions_done and not drunk):
            return []
        tx = catalogue(language)
        seed = db.revealed_potion_seed(session=s, aftermath_id=am.id)
        if seed is None:
            return [tx.t("league.potions.committed", commitment=am.seed_commitment, entropy=am.entropy)]
        return [tx.t("league.potions.revealed", seed=seed, commitment=am.seed_commitment, match_id=f.match_id)]

    def _offers(self, am: AftermathPublic, f: FixturePublic, team: Team, roster: Mapping[int, RosterPlayer],
                value: int, budget: int, language: str = DEFAULT_LANGUAGE, name: Shown = _as_stored) -> list[Offer]:
        state = MatchState.from_dict(am.state)
        tx = catalogue(language)
        words = Catalogue("engine", "data/text", language)
        offers: list[Offer] = []
        if not am.potions_done:
            q = state.in_progress.question if state.in_progress else None
            if q is not None:
                options = [(_option_label(o, words)[:100], _encode(o), "") for o in q.get("options", [])]
                offers.append(Offer("question", "question", describe_question(q, _named(state.copy(), name), language=language), options))
                return offers
            left = state.teams[am.side].available("potions")  # type: ignore[index]  # a stored or finished side is 'west' or 'east'
            targets = self._potion_targets(state, am.side, f)
            if left and targets:
                opts = [(state.players[pid].name, pid, _whereabouts(state, pid, language)) for pid in targets]
                offers.append(Offer("potion", "potion", tx.t("league.offer.potion.many" if left > 1 else "league.offer.potion.one",
                                                             left=left), opts))
                return offers
        for entry in am.pending:
            rp = roster.get(entry["player"])
            if rp is None:
                continue
            opts = [(f"{a.title() if language == DEFAULT_LANGUAGE else words.get(f'attribute.{a}', a.title())} "
                     f"{rp.attributes[a]} → {rp.attributes[a] - 1}", a, "") for a in entry["attributes"]]
            offers.append(Offer("injury", str(rp.id), tx.t("league.offer.injury", player=name(rp.name)), opts))
        for rp in sorted(roster.values(), key=lambda p: p.number):
            if rp.status != PlayerStatus.ACTIVE or rp.id in am.deferred:
                continue
            me = Member(rp.position_id, tuple(rp.abilities), rp.xp)
            if advances(me) < 1:
                continue
            can = [a for a in eligible_abilities(team.team_list, me)][:24]
            afford = value + ABILITY_COST <= budget
            opts = [(a.name_in(language), a.id, (a.summary_in(language) if afford else
                                                  tx.t("league.offer.over_budget", summary=a.summary_in(language)))[:100])
                    for a in can]
            opts.append((tx.t("league.offer.later"), "later", tx.t("league.offer.later.help")))
            offers.append(Offer("advance", str(rp.id), tx.t("league.offer.advance", player=name(rp.name), xp=rp.xp), opts))
        return offers

    def _own(self, aftermath_id: int, version: int, user_id: int) -> AftermathPublic:
        with self.sessions() as s:
            am = db.get_aftermath(session=s, aftermath_id=aftermath_id)
        authority.require_report_owner(am, user_id)
        if am.version != version:
            raise InvalidInputError("panel_out_date_use_newest")
        return am

    def drink(self, aftermath_id: int, version: int, user_id: int, player: str) -> AftermathView:
        """A Magic Potion "after the last goal is scored" (p. 11), through the engine."""
        am = self._own(aftermath_id, version, user_id)
        with self.sessions() as s:
            f = db.get_fixture(session=s, fixture_id=am.fixture_id)
        state = MatchState.from_dict(am.state)
        if am.potions_done or state.in_progress is not None or player not in self._potion_targets(state, am.side, f):
            raise InvalidInputError("player_cannot_take_potion_now")
        return self._engine_step(am, state, DrinkPotion(player))

    def answer(self, aftermath_id: int, version: int, user_id: int, value: str) -> AftermathView:
        """The answer to a question a potion asked (an ability or attribute to choose)."""
        am = self._own(aftermath_id, version, user_id)
        state = MatchState.from_dict(am.state)
        if state.in_progress is None:
            raise InvalidInputError("no_question")
        return self._engine_step(am, state, Answer(_decode(value)))

    def _engine_step(self, am: AftermathPublic, state: MatchState, cmd: Command) -> AftermathView:
        """A potion drunk or its question answered; when that leaves nothing to drink (the last
        potion gone, the last hurt player cured), the potions are over by themselves, in the
        same write: the report never waits for a "no more potions" nobody is offered."""
        with self.sessions() as s:
            seed = db.aftermath_seed(session=s, aftermath_id=am.id)
        result = apply(state, cmd, HashDice(seed, offset=state.dice_drawn), by=am.side)  # type: ignore[arg-type]  # a stored or finished side is 'west' or 'east'
        # The command and its dice are kept with the events: once the seed is revealed, anyone
        # replays the potions from the match's final state (``service.verify``).
        said = [{"events": [e.to_dict() for e in result.events], "command": cmd.to_dict(), "dice": result.dice,
                 "offset": state.dice_drawn}] if result.events or result.dice else []
        changes: dict[str, Any] = {"state": result.state.to_dict(), "applied": [*am.applied, *said]}
        with self.sessions() as s:
            db.lock_team(s, am.team_id)
            f = db.get_fixture(session=s, fixture_id=am.fixture_id)
            roster: list[RosterPlayer] = []
            if not self._potions_left(result.state, am.side, f):
                roster, closing = self._close_potions(s, result.state, am, f)
                changes.update(closing, applied=[*changes["applied"], *closing["applied"]])
            db.save_aftermath(session=s, aftermath=am, changes=changes, roster=roster)
        return self.aftermath(am.id)

    def _potions_left(self, state: MatchState, side: str, f: FixturePublic) -> bool:
        """Whether the report still has a potion decision: a question to answer, or a potion left
        and a player it may help (what ``_offers`` offers, and nothing else)."""
        if state.in_progress is not None:
            return True
        return bool(state.teams[side].available("potions") and self._potion_targets(state, side, f))  # type: ignore[index]  # a stored or finished side is 'west' or 'east'

    def _close_potions(self, s: Session, state: MatchState, am: AftermathPublic,
                       f: FixturePublic) -> tuple[list[RosterPlayer], dict[str, Any]]:
        """The potions are over: the injuries left reach the roster (rows to write, and the
        report's changes; ``applied`` holds only the new lines)."""
        changed, pending, applied = self._injuries(state, am.side, f, self._roster_rows(s, am.team_id))
        return changed, {"potions_done": True, "pending": pending, "applied": applied, "done": not pending}

    def potions_done(self, aftermath_id: int, version: int, user_id: int) -> AftermathView:
        """No more potions: the injuries left are applied to the roster."""
        am = self._own(aftermath_id, version, user_id)
        if MatchState.from_dict(am.state).in_progress is not None:
            raise InvalidInputError("answer_potion_s_question_first")
        if not am.potions_done:
            with self.sessions() as s:
                db.lock_team(s, am.team_id)
                f = db.get_fixture(session=s, fixture_id=am.fixture_id)
                changed, closing = self._close_potions(s, MatchState.from_dict(am.state), am, f)
                db.save_aftermath(session=s, aftermath=am, roster=changed,
                                  changes={**closing, "applied": [*am.applied, *closing["applied"]]})
        return self.aftermath(am.id)

    def _settle_idle(self, team_ids: Sequence[int]) -> None:
        """Close the potions of reports left waiting with nothing to drink (written before they
        closed by themselves): the next fixture is not blocked by a question nobody is asked."""
        with self.sessions() as s:
            rows = [am for am in db.open_aftermaths(session=s, team_ids=team_ids) if not am.potions_done]
        for am in rows:
            with self.sessions() as s:
                db.lock_team(s, am.team_id)
                current = db.get_aftermath(session=s, aftermath_id=am.id)
                f = db.get_fixture(session=s, fixture_id=current.fixture_id)
                state = MatchState.from_dict(current.state)
                if current.potions_done or self._potions_left(state, current.side, f):
                    continue
                changed, closing = self._close_potions(s, state, current, f)
                try:
                    db.save_aftermath(session=s, aftermath=current, roster=changed,
                                      changes={**closing, "applied": [*current.applied, *closing["applied"]]})
                except MatchChangedError:
                    continue  # its coach changed it meanwhile: his change stands

    def choose_injury(self, aftermath_id: int, version: int, user_id: int, player: int, attribute: str) -> AftermathView:
        am = self._own(aftermath_id, version, user_id)
        entry = next((e for e in am.pending if e["player"] == player), None)
        if entry is None:
            raise InvalidInputError("injury_already_settled")
        with self.sessions() as s:
            db.lock_team(s, am.team_id)
            f = db.get_fixture(session=s, fixture_id=am.fixture_id)
            rp = s.get(RosterPlayer, player)
            if rp is None or rp.team_id != am.team_id:
                raise NotFoundError("player_no_longer_roster")
            self._lower(rp, attribute, entry["attributes"], f.match_id)
            pending = [e for e in am.pending if e["player"] != player]
            db.save_aftermath(session=s, aftermath=am, roster=[rp],
                              changes={"pending": pending, "done": am.potions_done and not pending,
                                       "applied": [*am.applied, _entry("league.applied.lasting", id=rp.id, player=rp.name,
                                                                       attribute=attribute)]})
        return self.aftermath(am.id)

    def advance(self, guild_id: int, aftermath_id: int, version: int, user_id: int, player: int, choice: str) -> AftermathView:
        """Learn an ability now, or ``later`` (the XP stays banked). The ability and the report
        are written together or not at all: the coach is told what was stored."""
        am = self._own(aftermath_id, version, user_id)
        with self.sessions() as s:
            db.lock_team(s, am.team_id)
            if choice == "later":
                rp = s.get(RosterPlayer, player) if valid_id(player) else None
                later = (_entry("league.applied.later", id=player, player=rp.name) if rp
                         else _entry("league.applied.later.unknown", id=player))
                db.save_aftermath(session=s, aftermath=am, changes={
                    "deferred": [*am.deferred, player], "applied": [*am.applied, later]})
            else:
                _team, rp, _name = team_roster.learn(session=s, guild_id=guild_id, team=am.team_id, coach_id=user_id,
                                                   player=f"id:{player}", ability_id=choice, commit=False)
                db.save_aftermath(session=s, aftermath=am, changes={"applied": [
                    *am.applied, _entry("league.applied.learns", id=rp.id, player=rp.name, ability=rp.abilities[-1])]})
        return self.aftermath(am.id)

    # -- rosters ---------------------------------------------------------------------------------------
    def _own_team(self, s: Session, guild_id: int, team: int | str, user_id: int) -> None:
        """Only the team's owner changes it (``authority.require_team_owner``)."""
        authority.require_team_owner(db_teams.get_team(session=s, guild_id=guild_id, team=team), user_id, "change")

    def hire(self, guild_id: int, user_id: int, team: str, position: str, name: str | None = None) -> tuple[TeamSheet, str]:
        with self.sessions() as s:
            self._own_team(s, guild_id, team, user_id)
            _t, p = team_roster.hire(session=s, guild_id=guild_id, team=team, coach_id=user_id, position=position, name=name)
            label = f"#{p.number} {p.name} ({position_by_id(p.position_id).name})"
        return self.sheet(guild_id, team, image=False), label

    def fire(self, guild_id: int, user_id: int, team: str, player: str) -> tuple[TeamSheet, str]:
        with self.sessions() as s:
            self._own_team(s, guild_id, team, user_id)
            _t, p = team_roster.fire(session=s, guild_id=guild_id, team=team, coach_id=user_id, player=player)
            label = f"#{p.number} {p.name}"
        return self.sheet(guild_id, team, image=False), label

    def support(self, guild_id: int, user_id: int, team: str, item: str, change: int) -> tuple[TeamSheet, str, int]:
        with self.sessions() as s:
            self._own_team(s, guild_id, team, user_id)
            _t, item_id, count = team_roster.set_support(session=s, guild_id=guild_id, team=team, coach_id=user_id,
                                                        item=item, change=change)
        return self.sheet(guild_id, team, image=False), item_id, count

    def learn(self, guild_id: int, user_id: int, team: str, player: str, ability_id: str, *,
              language: str = DEFAULT_LANGUAGE) -> tuple[TeamSheet, str]:
        """The player learns the ability; the sheet and ``X learns Y`` in ``language``."""
        with self.sessions() as s:
            self._own_team(s, guild_id, team, user_id)
            _t, p, _name = team_roster.learn(session=s, guild_id=guild_id, team=team, coach_id=user_id, player=player,
                                           ability_id=ability_id)
            label = catalogue(language).t("league.learned", player=p.name, ability=ABILITIES[p.abilities[-1]].name_in(language))
        return self.sheet(guild_id, team, image=False), label

    def sheet(self, guild_id: int, team: int | str, *, image: bool = True, language: str = DEFAULT_LANGUAGE) -> TeamSheet:
        """The team's sheet; its picture (``image``) in ``language``."""
        with self.sessions() as s:
            tm = db_teams.get_team(session=s, guild_id=guild_id, team=team)
            rules = team_roster.team_rules(s, tm)
            league = db_teams.get_league(session=s, guild_id=guild_id, league=tm.league_id).name if tm.league_id else None
        adv = {p.id: advances(Member(p.position_id, tuple(p.abilities), p.xp))
               for p in tm.players if p.status == PlayerStatus.ACTIVE}
        sheet = TeamSheet(tm, team_roster.team_value(tm), rules["budget"], league, adv)
        if image and self.render:
            from render.team_sheet import render_team_sheet

            sheet.png = render_team_sheet(sheet, language=language)
        return sheet

    def choices(self, guild_id: int, team: str, player: str, *, language: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        """The abilities a player may learn (for autocomplete), whether or not he has the XP yet,
        named in ``language``."""
        with self.sessions() as s:
            tm = db_teams.get_team(session=s, guild_id=guild_id, team=team)
        p = team_roster.find_player(tm, player)
        me = Member(p.position_id, tuple(p.abilities), p.xp)
        tx = catalogue(language)
        return [(tx.t("league.ability_choice", ability=a.name_in(language),
                      level=tx.get(f"league.ability_level.{a.level}", a.level),
                      group=tx.get(f"league.ability_group.{a.group}", a.group)), a.id)
                for a in eligible_abilities(tm.team_list, me)]


def _named(state: MatchState, name: Shown) -> MatchState:
    """``state`` (changed in place) with its players' names written by ``name``, for narration."""
    for p in state.players.values():
        p.name = name(p.name)
    return state


def _whereabouts(state: MatchState, pid: str, language: str = DEFAULT_LANGUAGE) -> str:
    p = state.players[pid]
    kind = (p.injury or {}).get("kind")
    if language == DEFAULT_LANGUAGE:
        return p.location.value.replace("_", " ") + (f", {kind} injury" if kind else "")
    words = Catalogue("engine", "data/text", language)
    where = words.get(f"location.{p.location.value}", p.location.value)
    injury = phrase(words.text, f"{str(kind).replace('_', '-')} injury") if kind else ""  # "lasting injury"
    return where + (catalogue(language).t("league.whereabouts.injury", kind=injury) if kind else "")


def _option_label(option: Any, words: Catalogue) -> str:
    """A potion question's option (an ability, two abilities ``a+b``, an attribute) by its name
    in the catalogue's language."""
    text = str(option)
    parts = text.split("+")
    if all(p in ABILITIES for p in parts):
        return " + ".join(ABILITIES[p].name_in(words.language) for p in parts)
    return words.get(f"attribute.{text}", text) if text in Attributes.FIELDS else text


def _encode(value: Any) -> str:
    return json.dumps(value)[:100]


def _decode(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text

