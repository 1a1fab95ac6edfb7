"""The league's static website (issue 23): every page built from the database, no server needed.

``build_site(league)`` returns the files (path -> bytes); ``write_site`` puts them in a folder (all
or nothing: built in a fresh folder beside it, no link followed; ``check_folder`` says beforehand
whether it can) and
``zip_site`` in one zip (what ``/league export`` attaches). The pages come from Jinja2 templates
(``templates/``; what they gather beyond the boards, from ``pages``), their words from the service catalogue (``site.*`` in ``service/text``), in the
league's language: its server's chosen language (``/preferences server_language``), else English.

- ``index.html``: the season (of several: the previous one's champion), a champion once the
  season is over, standings (one table per division; the tie-breaks said), results ("corrected"
  marked, a double forfeit said), fixtures to play (deadlines), leaders, coaches, the league's rules.
- ``standings.json`` and ``results.csv``: the table and the results as data.
- ``teams/<id>.html``: the coach, the roster (positions, attributes, abilities, XP, injuries),
  former players and how they left, careers, support, match history, the team sheet picture
  (``render.team_sheet``).
- ``matches/<fixture>.html``: a summary (scorers, casualties, the post-match reports), the final
  board, a replay of every action's board (PNG frames,
  ``render.replay.action_frames``; stepped by ``assets/replay.js``, listed in words without it;
  a phone shows each one's close-up, ``render.render_action_view``),
  the log as the bot narrates it, the dice commitment and seed, and the match's record
  (``matches/<fixture>.json``) for ``elfball verify --file``.

Deterministic: the same database gives the same bytes (everything sorted, no clock read, PNGs and
zip entries written without dates).
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import tempfile
import zipfile
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from db import leagues as db_leagues
from db import matches as store
from db import seasons as db_seasons
from db import teams as db_teams
from db.engine import session_scope
from db.errors import StoreError
from db.models import FixtureStatus, LeaguePublic, PlayerStatus, TeamPublic
from engine import (
    ABILITIES,
    ActionStarted,
    Attributes,
    Catalogue,
    DEFAULT_LANGUAGE,
    Event,
    GoalScored,
    LANGUAGES,
    MatchState,
    Member,
    PlayerRemoved,
    advances,
    event_from_dict,
    narrate_events,
    player_value,
    position_by_id,
    team_list,
)

from .. import match_rules
from . import pages
from ..authority import require_commissioner
from .. import roster as team_roster
from ..accessibility import alt_text, board_words
from ..leagues import StandingRow, bracket_rounds, division_tables, league_table
from ..ladder import LadderService
from ..matches import SessionFactory
from ..verify import load_record
from .pictures import Pictures

__all__ = ["SiteError", "SiteTooLarge", "Site", "find_league", "league_language", "build_site", "write_site", "zip_site",
           "check_folder", "check_exporter", "FRAME_WIDTH", "BOARD_WIDTH"]

#: Replay frames are drawn this wide (a phone's width; a frame is a few tens of kB).
FRAME_WIDTH = 480
#: The final board, drawn larger.
BOARD_WIDTH = 720
#: The zip's entries all carry this date: an export says nothing of when it was made.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: How many names each leaders' table shows.
LEADERS = 10


class SiteError(Exception):
    """An export that cannot be made (no such league, a folder that cannot be written)."""


class SiteTooLarge(SiteError):
    """The pictures alone passed ``build_site``'s ``png_budget``: PNGs do not shrink in a zip, so
    the zip could not fit either (raised early, before every replay is drawn)."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the site's pictures pass {budget} bytes")
        self.budget = budget


@dataclass
class Site:
    league: LeaguePublic
    language: str
    files: dict[str, bytes] = field(default_factory=dict)
    replays: bool = True
    closeups: bool = True

    @property
    def size(self) -> int:
        return sum(len(b) for b in self.files.values())

    @property
    def pages(self) -> list[str]:
        return sorted(p for p in self.files if p.endswith(".html"))


# --- finding the league -------------------------------------------------------------------------
def find_league(league: str, *, guild_id: int | None = None, sessions: SessionFactory = session_scope,
                season: int | None = None) -> LeaguePublic:
    """The league named (or numbered) ``league``, on ``guild_id``'s server or any server; a name
    that several servers use must be given with its server (or by number). A name finds the
    league's current season; ``season``: that season of it (``db.seasons``)."""
    if season is not None:
        current = find_league(league, guild_id=guild_id, sessions=sessions)
        with sessions() as s:
            try:
                return db_seasons.season_row(s, current.guild_id, current.id, season)
            except StoreError as exc:
                raise SiteError(str(exc)) from None
    from db.models import League
    from sqlmodel import select

    text = league.strip()
    with sessions() as s:
        query = select(League)
        if guild_id is not None:
            query = query.where(League.guild_id == guild_id)
        rows = list(s.exec(query).all())
    if text.isascii() and text.isdigit():
        found = [lg for lg in rows if lg.id == int(text)]
    else:
        found = [lg for lg in rows if db_seasons.ARCHIVED not in lg.name_key  # a finished season: by number
                 and (lg.name_key == text.casefold() or lg.name.casefold() == text.casefold())]
    if not found:
        raise SiteError(f"there is no league {text!r}" + (f" on server {guild_id}" if guild_id is not None else ""))
    if len(found) > 1:
        where = ", ".join(f"#{lg.id} on server {lg.guild_id}" for lg in sorted(found, key=lambda lg: lg.id or 0))
        raise SiteError(f"several servers have a league {text!r} ({where}): give its number or --guild")
    return LeaguePublic.model_validate(found[0])


def league_language(guild_id: int, *, sessions: SessionFactory = session_scope) -> str:
    """The server's chosen language (``GuildSettings.language``), else English: outside Discord
    there is no server locale to fall back on."""
    from db.settings import get_guild_settings

    with sessions() as s:
        chosen = get_guild_settings(session=s, guild_id=guild_id).language
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def check_exporter(league: LeaguePublic, user_id: int, *, moderator: bool = False) -> None:
    """The commissioner exports (or a moderator standing in, as for every commissioner's command:
    ``authority.require_commissioner``)."""
    require_commissioner(league, user_id, moderator=moderator)


# --- the data -----------------------------------------------------------------------------------
@dataclass
class _Player:
    id: int
    number: int
    name: str
    position: str
    attributes: list[tuple[str, int, bool]]  # (attribute id, value, lowered by an injury)
    xp: int
    abilities: list[str]
    injuries: list[str]
    status: str
    value: int
    advances: int


@dataclass
class _Match:
    fixture: Any
    home: TeamPublic
    away: TeamPublic
    frames: list[dict[str, Any]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None
    description: str = ""
    commitment: str = ""
    seed: str = ""
    record: bytes = b""
    events: list[Event] = field(default_factory=list)
    final: tuple[int, int] | None = None  # the match's own score, when a correction changed the table's
    state: MatchState | None = None  # the final state (the summary's names and outcomes)
    summary: Any = None  # pages.MatchSummary


def _words(language: str) -> Catalogue:
    return Catalogue("engine", "data/text", language)


def _players(team: TeamPublic, language: str) -> list[_Player]:
    words = _words(language)
    out = []
    for p in sorted(team.players, key=lambda p: (p.number, p.id)):
        pos = position_by_id(p.position_id)
        base = pos.attributes.as_dict()
        attrs = [(a, int(p.attributes.get(a, base[a])), int(p.attributes.get(a, base[a])) < base[a])
                 for a in Attributes.FIELDS]
        injuries = [words.get(f"attribute.{i.get('attribute')}", str(i.get("attribute", "?")).title()) + " -1"
                    for i in p.injuries if i.get("kind") == "lasting"]
        active = p.status == PlayerStatus.ACTIVE
        out.append(_Player(p.id, p.number, p.name, pos.name, attrs, p.xp,
                           [ABILITIES[a].name_in(language) if a in ABILITIES else a for a in p.abilities], injuries,
                           str(p.status), player_value(Member(p.position_id, tuple(p.abilities), p.xp)),
                           advances(Member(p.position_id, tuple(p.abilities), p.xp)) if active else 0))
    return out


def _match(m: _Match, language: str, files: dict[str, bytes], sessions: SessionFactory, replays: bool,
           pictures: Pictures, closeups: bool = True) -> None:
    """Reads the match behind ``m.fixture`` and asks ``pictures`` for its boards (the replay's
    frames if ``replays``, with their close-ups for phones if ``closeups``; drawn later, all at once)."""
    from render.replay import Step, action_frames

    f = m.fixture
    with sessions() as s:
        history = match_rules.history(session=s, match_id=f.match_id)
        match = store.get_match(session=s, match_id=f.match_id)
        record = load_record(session=s, match_id=f.match_id)
    steps = [Step(state, [event_from_dict(e) for e in row.events]) for row, state in history]
    final = m.state = history[-1][1]
    events = m.events = [e for st in steps for e in st.events]
    m.log = [ln for ln in narrate_events(events, final, language=language) if ln]
    for i, frame in enumerate(action_frames(steps) if replays else [], start=1):
        pictures.board(f"matches/{f.id}/frame-{i:03d}.png", frame.state, events=frame.events, view=frame.view,
                       width=FRAME_WIDTH, language=language)
        lines = [ln for ln in narrate_events(frame.events, frame.state, language=language) if ln]
        # The close-up where the next decision is, for a phone (issue 34: labels >= 9 px at 390 px);
        # a frame with nothing to decide has none, and its page then shows the board.
        phone = ""
        if closeups:
            pictures.close_up(f"matches/{f.id}/close-{i:03d}.png", frame.state, events=frame.events,
                              view=frame.view, width=pages.CLOSEUP_WIDTH, language=language)
            phone = f"{f.id}/close-{i:03d}.png"
        m.frames.append({"src": f"{f.id}/frame-{i:03d}.png", "alt": alt_text(frame.state, language=language),
                         "lines": lines, "number": i, "phone": phone})
    pictures.board(f"matches/{f.id}/board.png", final, width=BOARD_WIDTH, language=language)
    m.board = {"src": f"{f.id}/board.png", "alt": alt_text(final, language=language)}
    m.description = board_words(final, language=language)
    m.commitment, m.seed = match.seed_commitment, match.seed or ""
    m.record = (_json(record.to_json()) + "\n").encode()
    files[f"matches/{f.id}.json"] = m.record
    score = (final.teams["west"].score, final.teams["east"].score)
    if score != (f.home_score, f.away_score):
        m.final = score


def _json(value: Any) -> str:
    import json

    return json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)


def _leaders(matches: Iterable[_Match]) -> tuple[Counter[int], Counter[int]]:
    """Goals and injuries caused per roster id. A goal is its scorer's; an injury (an opponent
    sent to the Infirmary by an Injury roll) is the acting player's of the action it happened in."""
    goals: Counter[int] = Counter()
    hurt: Counter[int] = Counter()
    for m in matches:
        f = m.fixture
        lineup = {"west": f.lineup.get("west", []), "east": f.lineup.get("east", [])}

        def roster_id(pid: str, lineup: dict[str, list[int]] = lineup) -> int | None:  # this match's lineup
            ids = lineup["west" if pid.startswith("w") else "east"]
            index = int(pid[1:]) - 1 if pid[1:].isdigit() else -1
            return ids[index] if 0 <= index < len(ids) else None

        acting = None
        for e in m.events:
            if isinstance(e, ActionStarted):
                acting = e.player
            elif e.kind in ("action_ended", "turn_passed"):
                acting = None
            elif isinstance(e, GoalScored) and (rid := roster_id(e.player)) is not None:
                goals[rid] += 1
            elif (isinstance(e, PlayerRemoved) and e.location == "infirmary" and "injur" in e.reason and acting
                  and acting[0] != e.player[0] and (rid := roster_id(acting)) is not None):
                hurt[rid] += 1
    return goals, hurt


# --- the pages ----------------------------------------------------------------------------------
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.PackageLoader("service.site", "templates"), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined)


def _ties(rows: list[StandingRow], tx: Catalogue) -> list[str]:
    """What separated each two neighbours level on points, in words (docs/league.md's order)."""
    out = []
    for above, below in zip(rows, rows[1:]):
        if above.points != below.points:
            continue
        for key, a, b in (("goal_difference", above.goal_difference, below.goal_difference),
                          ("goals_for", above.goals_for, below.goals_for),
                          ("casualties", above.casualties, below.casualties)):
            if a != b:
                out.append(tx.t(f"site.tie.{key}", above=above.name, below=below.name, points=above.points,
                                a=f"{a:+d}" if key == "goal_difference" else a,
                                b=f"{b:+d}" if key == "goal_difference" else b))
                break
        else:
            out.append(tx.t("site.tie.name", above=above.name, below=below.name, points=above.points))
    return out


def build_site(league: LeaguePublic, *, language: str | None = None, sessions: SessionFactory = session_scope,
               replays: bool = True, png_budget: int | None = None, processes: int | None = None,
               coaches: pages.CoachNames | None = None, closeups: bool = True) -> Site:
    """Every file of ``league``'s site, in ``language`` (default: ``league_language``). Reads only.
    ``replays=False`` leaves out the replays' boards (most of a season's size: some 20 kB an
    action), for a site that must fit in one Discord attachment. ``png_budget``: raise
    ``SiteTooLarge`` as soon as the pictures pass that many bytes. ``processes``: worker
    processes drawing the boards (default: one per core when there are enough, see
    ``service.site.pictures``; 0 draws in this process); the bytes are the same either way.
    ``coaches``: a coach's display name by member id (the bot's, at export); without it a coach
    is "a coach", never an id. ``closeups=False`` leaves out the replay's close-ups for phones
    (about as many bytes as the boards themselves): a phone then shows the whole board, smaller."""
    from render.team_sheet import render_team_sheet, support_text

    from ..leagues import TeamSheet

    language = language if language in LANGUAGES else league_language(league.guild_id, sessions=sessions)
    tx = Catalogue("service", "text", language)
    words = _words(language)
    site = Site(league, language, replays=replays, closeups=closeups and replays)
    files = site.files
    settings = db_leagues.settings_of(league)
    with sessions() as s:
        teams = sorted(db_teams.list_teams(session=s, guild_id=league.guild_id, league=league.id), key=lambda t: t.id)
        fixtures = sorted(db_leagues.fixtures(session=s, league_id=league.id), key=lambda f: (f.round, f.id))
        sheets = {}
        for t in teams:
            tm = db_teams.get_team(session=s, guild_id=league.guild_id, team=t.id)
            sheets[t.id] = (team_roster.team_value(tm), team_roster.team_rules(s, tm)["budget"])
    by_id = {t.id: t for t in teams}
    rows = league_table([(t.id, t.name, t.coach_id) for t in teams], fixtures, settings, league.draw or {})
    rank = {r.team_id: i for i, r in enumerate(rows, start=1)}
    corrected = pages.corrected_fixtures(league.id, sessions)
    coach = {t.id: pages.coach_name(coaches, t.coach_id, tx.t("site.coach.unknown")) for t in teams}
    top = pages.champion(rows, fixtures, league.draw or {})
    rules, play = pages.rules_rows(settings, language)

    pictures = Pictures()
    drawn = 0

    def check_budget(added: int) -> None:
        nonlocal drawn
        drawn += added
        if png_budget is not None and drawn > png_budget:
            raise SiteTooLarge(png_budget)

    matches: dict[int, _Match] = {}
    for f in fixtures:
        if f.status == FixtureStatus.PLAYED and f.match_id is not None:
            m = _Match(f, by_id[f.home_team_id], by_id[f.away_team_id])
            _match(m, language, files, sessions, replays, pictures, closeups)
            matches[f.id] = m
    pictures.draw(files, budget=check_budget, processes=processes)
    for m in matches.values():
        for frame in m.frames:
            if frame["phone"] and f"matches/{frame['phone']}" not in files:
                frame["phone"] = ""  # no decision in that frame: no close-up was drawn

    for m in matches.values():
        assert m.state is not None  # _match read it
        m.summary = pages.match_summary(m.events, m.state, m.fixture, {"west": m.home.name, "east": m.away.name},
                                        language, sessions)
    career = pages.careers((m.fixture, m.events) for m in matches.values())
    fixture_of_match = {f.match_id: f.id for f in fixtures if f.match_id is not None}
    players = {t.id: _players(t, language) for t in teams}
    names = {p.id: (p.name, t) for t in teams for p in players[t.id]}
    goals, hurt = _leaders(matches.values())

    def leaders(counts: Mapping[int, int]) -> list[dict[str, Any]]:
        ranked = sorted(((n, names[rid][0], names[rid][1].id, rid) for rid, n in counts.items() if n > 0 and rid in names),
                        key=lambda x: (-x[0], x[1].casefold(), x[3]))
        return [{"count": n, "name": name, "team": by_id[tid]} for n, name, tid, _ in ranked[:LEADERS]]

    xp = {p.id: p.xp for t in teams for p in players[t.id]}
    env = _environment()
    def tn(key: str, count: int) -> str:
        """``key.one`` or ``key.many`` by ``count`` (French says 0 in the singular, English in the plural)."""
        one = count == 1 or (language == "fr" and count == 0)
        return tx.t(f"{key}.{'one' if one else 'many'}", count=count)

    def dims(path: str) -> Markup:
        """A PNG's ``width`` and ``height`` attributes, so the page does not jump as it loads."""
        data = files[path]
        w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        return Markup(f'width="{w}" height="{h}"')

    def conceded(f: Any) -> str:
        """Who gave a played fixture up: one side (a concession, a forfeit ruled at a deadline)
        or both (``conceded_by == "both"``: a double forfeit, a loss for each)."""
        if f.conceded_by == "both":
            return tx.t("site.conceded.both")
        return tx.t("site.conceded", team=by_id[f.home_team_id if f.conceded_by == "home" else f.away_team_id].name)

    bracket = bracket_rounds(league.draw or {}, fixtures)  # a knockout's (templates/bracket.html)
    common = {"lang": language, "t": tx.t, "tn": tn, "dims": dims, "words": words, "league": league, "settings": settings,
              "has_bracket": bool(bracket),
              "attributes": [(a, words.t(f"attribute.{a}")) for a in Attributes.FIELDS], "by_id": by_id,
              "coach": coach, "corrected": corrected, "deadline": pages.deadline_of, "conceded": conceded}

    def page(path: str, template: str, root: str, **values: Any) -> None:
        files[path] = env.get_template(template).render(root=root, **common, **values).encode()

    results = [f for f in fixtures if f.status == FixtureStatus.PLAYED]
    # A league in divisions: one table per division (its own fixtures, not the play-off's).
    divisions = division_tables([(t.id, t.name, t.coach_id) for t in teams], fixtures, settings, league.draw or {})
    tables = divisions or [rows]
    page("index.html", "league.html", "", rows=rows, tables=tables, ties=[line for table in tables for line in _ties(table, tx)],
         results=results,
         to_play=[f for f in fixtures if f.status != FixtureStatus.PLAYED], matches=matches,
         goals=leaders(goals), hurt=leaders(hurt), xp=leaders(xp), champion=top, rules=rules, play=play,
         seasons=pages.seasons_of(league, sessions))
    known = {t.id: pages.coach_name(coaches, t.coach_id, "") for t in teams}  # the feed: a name or nothing
    files["standings.json"] = pages.standings_json(league, rows, known, settings, top.team_id if top else None,
                                                   divisions)
    files["results.csv"] = pages.results_csv(fixtures, {t.id: t.name for t in teams}, corrected)
    if bracket:
        champion = (league.draw or {}).get("champion")
        page("bracket.html", "bracket.html", "", rounds=bracket, matches=matches,
             champion=by_id.get(champion) if champion is not None else None)
    for t in teams:
        value, budget = sheets[t.id]
        sheet = TeamSheet(t, value, budget, league.name,
                          {p.id: p.advances for p in players[t.id] if p.status == PlayerStatus.ACTIVE})
        files[f"teams/{t.id}-sheet.png"] = render_team_sheet(sheet, language=language)
        check_budget(len(files[f"teams/{t.id}-sheet.png"]))
        mine = [f for f in fixtures if t.id in (f.home_team_id, f.away_team_id)]
        page(f"teams/{t.id}.html", "team.html", "../", team=t, rank=rank[t.id], value=value, budget=budget,
             list_name=team_list(t.team_list).name, support=support_text(t.support, language),
             active=[p for p in players[t.id] if p.status == PlayerStatus.ACTIVE],
             former=[p for p in players[t.id] if p.status != PlayerStatus.ACTIVE],
             fixtures=mine, matches=matches, row=next(r for r in rows if r.team_id == t.id), career=career,
             left={p.id: pages.left_how(p, fixture_of_match, tx) for p in t.players if p.status != PlayerStatus.ACTIVE})
    for fid, m in sorted(matches.items()):
        page(f"matches/{fid}.html", "match.html", "../", m=m, f=m.fixture)
    for name in ("style.css", "replay.js"):
        files[f"assets/{name}"] = resources.files("service.site").joinpath(f"static/{name}").read_bytes()
    # The server's coach ratings (service.ladder), read only; a coach named by his team here.
    page("ladder.html", "ladder.html", "", ladder=LadderService(sessions=sessions).table(league.guild_id, keep=False),
         team_of={t.coach_id: t for t in teams}, rating=lambda x: f"{x:.1f}".replace(".", "," if language == "fr" else "."))
    return site


#: The file a written site carries so that a later export may replace its folder; a folder of
#: other files is never replaced.
MARKER = ".elfball-site"
#: A site written before the marker: these are there.
_OLD_SITE = ("index.html", "teams", "matches", "assets")


def check_folder(out_dir: str | Path) -> Path:
    """Check, before anything is built, that a site can be written as ``out_dir``: its parent
    folder can be made and written into (the site is built in a fresh folder beside it), and
    ``out_dir`` is new, empty or an earlier site (never a folder of other files nor a file).
    Returns the folder; ``SiteError`` naming the folder if not."""
    root = Path(out_dir).absolute()
    if root.is_symlink() and not root.is_dir():
        raise SiteError(f"cannot write the site as {str(root)!r}: it is a link to a file, not a folder")
    if root.exists() and not root.is_dir():
        raise SiteError(f"cannot write the site into {str(root)!r}: it is a file, not a folder")
    if root.is_dir() and not root.is_symlink() and not _replaceable(root):
        raise SiteError(f"cannot write the site into {str(root)!r}: the folder holds other files "
                        f"(choose a new or empty folder, or the folder of an earlier export)")
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        probe = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
        probe.rmdir()
    except OSError as exc:
        raise SiteError(f"cannot write the site into {str(root.parent)!r}: {exc.strerror or exc}") from exc
    return root


def _replaceable(root: Path) -> bool:
    names = {p.name for p in root.iterdir()}
    return not names or MARKER in names or all(n in names for n in _OLD_SITE)


def write_site(site: Site, out_dir: str | Path) -> list[Path]:
    """Writes the site as the folder ``out_dir``, all or nothing: every file goes into a fresh
    folder beside it (created with ``O_EXCL | O_NOFOLLOW``, so no link planted anywhere is
    followed), which then takes ``out_dir``'s place; an earlier site there is replaced only once
    the new one is complete, and stays as it was if anything fails. ``SiteError`` names the file
    that could not be written (or the folder). Returns the written files' final paths."""
    root = check_folder(out_dir)
    try:
        fresh = Path(tempfile.mkdtemp(prefix=f".{root.name}.", dir=root.parent))
    except OSError as exc:
        raise SiteError(f"cannot write the site into {str(root.parent)!r}: {exc.strerror or exc}") from exc
    try:
        os.chmod(fresh, 0o755)
        written = [root / path for path in sorted(site.files)]
        for path in [*sorted(site.files), MARKER]:
            try:
                _write_new(fresh, path, site.files.get(path, b""))
            except OSError as exc:
                raise SiteError(f"cannot write {str(root / path)!r}: {exc.strerror or exc}") from exc
        _swap(fresh, root)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return written


def _write_new(base: Path, path: str, data: bytes) -> None:
    """Write ``data`` as ``base/path``, making its folders; never through a link, never over a file."""
    parts = Path(path).parts
    if not parts or any(part in ("", ".", "..") for part in parts) or Path(path).is_absolute():
        raise OSError(errno.EINVAL, "not a path inside the site")
    folder = base
    for part in parts[:-1]:
        folder = folder / part
        try:
            os.mkdir(folder, 0o755)
        except FileExistsError:
            if folder.is_symlink() or not folder.is_dir():
                raise OSError(errno.EEXIST, "a link or a file is in the way") from None
    fd = os.open(folder / parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def _swap(fresh: Path, root: Path) -> None:
    """``fresh`` takes ``root``'s place; whatever was at ``root`` (an earlier site, or a link,
    itself and not its target) is removed only once ``fresh`` is there."""
    if not os.path.lexists(root):
        try:
            os.rename(fresh, root)
        except OSError as exc:
            raise SiteError(f"cannot write the site into {str(root)!r}: {exc.strerror or exc}") from exc
        return
    old = Path(tempfile.mkdtemp(prefix=f".{root.name}.old.", dir=root.parent))
    aside = old / "site"
    try:
        os.rename(root, aside)
    except OSError as exc:
        old.rmdir()
        raise SiteError(f"cannot replace {str(root)!r}: {exc.strerror or exc}") from exc
    try:
        os.rename(fresh, root)
    except OSError as exc:
        os.rename(aside, root)  # the earlier site comes back as it was
        old.rmdir()
        raise SiteError(f"cannot write the site into {str(root)!r}: {exc.strerror or exc}") from exc
    if aside.is_symlink():
        aside.unlink()
    shutil.rmtree(old, ignore_errors=True)


def zip_site(site: Site, folder: str = "") -> bytes:
    """The files in one zip (under ``folder/`` if given), entries sorted and dated 1980."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(site.files):
            info = zipfile.ZipInfo(f"{folder}/{path}" if folder else path, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, site.files[path])
    return out.getvalue()
