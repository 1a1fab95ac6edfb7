"""League round deadlines: set by the commissioner, reminded once, ruled on when they pass.

* ``/league deadline``: the commissioner (or a moderator standing in, with a reason) sets a
  round's deadline from words a member types ("in 7 days", "48h", "2026-12-04 20:00", "dans
  7 jours", "aucune"), in UTC; the bot shows it as a Discord timestamp, which each member reads
  in his own time zone. A league created with ``round_days`` gets each round's deadline when
  its schedule is drawn (round *n*: *n* × ``round_days`` days later); ties drawn later (a
  knockout's next ties, a Swiss's next round, a play-off: ``LeagueService._advance``) are due
  ``round_days`` after they are drawn, reminded in the same channel.
* ``due_reminders``: once, ``REMIND_BEFORE`` (24 h) before a deadline, one message per round
  names the fixtures still to play and pings their coaches only. ``due_lapses``: once, when it
  passes, one message per round names them for the commissioner. Both are claimed in the
  database (``db.deadlines``), so neither is sent twice, by several processes or after a
  restart; the bot's reminder sweep (``bot.app.ElfballBot.remind``) asks for them.
* ``rule``: the commissioner's choice for a fixture whose deadline passed: one side forfeits
  (a loss 0 to the league's goals to win, as a concession counts), both do (both lose, 0-0), a
  draw (0-0), or more time (``extend``). Who may: ``authority.require_deadline_ruler`` (never
  on a fixture he plays). Every choice is in the league's audit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from db import deadlines as db
from db import leagues as db_leagues
from db.errors import InvalidInputError
from db.models import FixturePublic, FixtureStatus, League, LeaguePublic

from . import authority
from .leagues import FixtureView, LeagueService, match_options

__all__ = ["REMIND_BEFORE", "DEFAULT_EXTENSION", "MAX_AHEAD", "CHOICES", "ACTIONS", "RoundNotice", "parse_when", "Deadlines",
           "unix"]

#: How long before a deadline its round is reminded.
REMIND_BEFORE = timedelta(hours=24)
#: How much longer ``extend`` gives a fixture when the league has no round length.
DEFAULT_EXTENSION = timedelta(days=3)
#: The furthest a deadline may be set.
MAX_AHEAD = timedelta(days=366)
#: The commissioner's choices when a deadline passed: the home side forfeits, the away side,
#: both, a draw, or more time.
CHOICES = ("home", "away", "both", "draw", "extend")
#: How each ruling is named in the league's audit.
ACTIONS = {"home": "deadline_forfeit_home", "away": "deadline_forfeit_away", "both": "deadline_forfeit_both",
           "draw": "deadline_draw", "extend": "deadline_extended"}

_UNITS = {
    "d": "days", "day": "days", "days": "days", "j": "days", "jour": "days", "jours": "days",
    "w": "weeks", "week": "weeks", "weeks": "weeks", "sem": "weeks", "semaine": "weeks", "semaines": "weeks",
    "h": "hours", "hour": "hours", "hours": "hours", "heure": "hours", "heures": "hours",
}
_NONE = {"none", "no", "off", "clear", "remove", "aucune", "aucun", "sans", "non"}
_RELATIVE = re.compile(r"^(?:in\s+|dans\s+)?(\d{1,4})\s*([a-z]+)$")
_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ t](\d{1,2})[:h](\d{2}))?(?:\s*utc)?$")
_DMY = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})(?:\s+(\d{1,2})[:h](\d{2}))?(?:\s*utc)?$")
_STAMP = re.compile(r"^<t:(\d{1,12})(?::[a-z])?>$", re.IGNORECASE)


def unix(when: datetime) -> int:
    """Seconds since 1970: what a Discord timestamp ``<t:…>`` shows in each reader's time zone."""
    return int(when.timestamp())


def parse_when(text: str, now: datetime) -> datetime | None:
    """The deadline a member typed, in UTC, or None for no deadline ("none", "aucune"):

    - a delay from now: ``in 7 days``, ``7d``, ``2 weeks``, ``48h``, ``dans 7 jours``, ``3j``;
    - ``tomorrow`` / ``demain``: the same time tomorrow;
    - a date, the end of that day (23:59 UTC), or a date and time in UTC: ``2026-12-04``,
      ``2026-12-04 20:00``, ``04/12/2026 20h00`` (day first, as in French and most of Europe);
    - a Discord timestamp pasted as written, ``<t:1796414400:f>``.

    Refused (nothing changes) if unreadable, past, or more than a year away."""
    words = " ".join(text.strip().casefold().split())
    if words in _NONE:
        return None
    when: datetime | None = None
    if words in ("tomorrow", "demain"):
        when = now + timedelta(days=1)
    elif m := _RELATIVE.match(words):
        unit = _UNITS.get(m[2])
        if unit is not None:
            when = now + timedelta(**{unit: int(m[1])})
    elif m := _STAMP.match(words):
        when = datetime.fromtimestamp(int(m[1]), UTC) if int(m[1]) < 10**11 else None
    else:
        found = _DATE.match(words)
        parts = (found[1], found[2], found[3], found[4], found[5]) if found else None
        if parts is None and (dmy := _DMY.match(words)):
            parts = (dmy[3], dmy[2], dmy[1], dmy[4], dmy[5])
        if parts is not None:
            year, month, day, hour, minute = parts
            try:
                when = datetime(int(year), int(month), int(day), int(hour) if hour else 23, int(minute) if minute else 59,
                                tzinfo=UTC)
            except ValueError:
                when = None
    if when is None:
        raise InvalidInputError("deadline_unreadable", text=repr(text.strip()[:40]))
    when = when.replace(second=0, microsecond=0)
    if when <= now:
        raise InvalidInputError("deadline_in_past", when=unix(when))
    if when - now > MAX_AHEAD:
        raise InvalidInputError("deadline_too_far", days=MAX_AHEAD.days)
    return when


@dataclass
class RoundNotice:
    """One message for one round of a league: its fixtures still to play, all due at
    ``deadline``, to post in ``channel_id``."""

    league: LeaguePublic
    round: int
    deadline: datetime
    channel_id: int
    fixtures: list[FixtureView] = field(default_factory=list)

    @property
    def coaches(self) -> list[int]:
        """The coaches of those fixtures, each once, in the order they appear: whom it pings."""
        return list(dict.fromkeys(c for v in self.fixtures for c in (v.home_coach, v.away_coach) if c))


class Deadlines:
    """Round deadlines of the leagues ``league`` serves, on its match service's clock."""

    def __init__(self, league: LeagueService, *, remind_before: timedelta = REMIND_BEFORE) -> None:
        self.league = league
        self.sessions = league.sessions
        self.remind_before = remind_before

    def now(self) -> datetime:
        return self.league.matches.clock()

    # -- setting -------------------------------------------------------------------------------
    def set_round(self, guild_id: int, user_id: int, league: int | str, round_no: int, when: str, *,
                  channel_id: int | None, moderator: bool = False,
                  reason: str = "") -> tuple[LeaguePublic, datetime | None, list[FixtureView]]:
        """The commissioner (or a moderator standing in, saying why) sets round ``round_no``'s
        deadline from ``when`` (``parse_when``); its fixtures still to play, reminded in
        ``channel_id``."""
        lg = self.league.league(guild_id, league)
        stand_in = authority.require_commissioner(lg, user_id, moderator=moderator, reason=reason)
        deadline = parse_when(when, self.now())
        with self.sessions() as s:
            rows = db.set_round_deadline(session=s, guild_id=guild_id, league=lg.id, round_no=round_no,
                                         deadline=deadline, channel_id=channel_id, actor_id=user_id,
                                         stand_in=stand_in, reason=reason)
        ids = {f.id for f in rows}
        return lg, deadline, [v for v in self.league.fixtures(guild_id, lg.id, sync=False) if v.id in ids]

    def set_default_rounds(self, guild_id: int, user_id: int, league: int | str, *, channel_id: int | None) -> int:
        """After the schedule is drawn: each round due ``round_days`` days after the previous
        one (the league's setting; 0: none). How many rounds got a deadline."""
        lg = self.league.league(guild_id, league)
        days = int(db_leagues.settings_of(lg).get("round_days", 0) or 0)
        if not days:
            return 0
        rounds = sorted({v.fixture.round for v in self.league.fixtures(guild_id, lg.id, sync=False)})
        start = self.now().replace(second=0, microsecond=0)
        for r in rounds:
            with self.sessions() as s:
                db.set_round_deadline(session=s, guild_id=guild_id, league=lg.id, round_no=r,
                                      deadline=start + timedelta(days=days * r), channel_id=channel_id,
                                      actor_id=user_id)
        return len(rounds)

    # -- the sweep -----------------------------------------------------------------------------
    def _notices(self, rows: list[tuple[FixturePublic, League]], claim: Callable[..., bool],
                 accept: Callable[[int], bool]) -> list[RoundNotice]:
        now = self.now()
        grouped: dict[tuple[int, int, datetime, int], RoundNotice] = {}
        for fixture, row in rows:
            league = LeaguePublic.model_validate(row)
            if not accept(league.guild_id) or fixture.deadline is None:
                continue
            with self.sessions() as s:
                if not claim(session=s, fixture_id=fixture.id, seen=fixture.deadline, now=now):
                    continue  # another process (or an earlier sweep) has it
            key = (league.id, fixture.round, fixture.deadline, fixture.deadline_channel_id or 0)
            notice = grouped.setdefault(key, RoundNotice(league, key[1], key[2], key[3]))
            notice.fixtures.append(self.league.fixture(league.guild_id, fixture.id))
        return list(grouped.values())

    def due_reminders(self, *, accept: Callable[[int], bool] = lambda guild_id: True) -> list[RoundNotice]:
        """Rounds whose deadline is within ``remind_before``: their fixtures still to play, each
        claimed for this caller only (``accept``: the servers this process serves)."""
        now = self.now()
        with self.sessions() as s:
            rows = db.due_reminders(session=s, now=now, until=now + self.remind_before)
        return self._notices(rows, db.claim_reminder, accept)

    def due_lapses(self, *, accept: Callable[[int], bool] = lambda guild_id: True) -> list[RoundNotice]:
        """Rounds whose deadline passed with fixtures unplayed, each claimed for this caller only."""
        with self.sessions() as s:
            rows = db.due_lapses(session=s, now=self.now())
        return self._notices(rows, db.claim_lapse, accept)

    # -- ruling --------------------------------------------------------------------------------
    def overdue(self, guild_id: int, user_id: int, league: int | str, *,
                moderator: bool = False) -> tuple[LeaguePublic, list[FixtureView]]:
        """The league's fixtures whose deadline passed unplayed, for the commissioner (or a
        moderator standing in) to rule on; the refusal for anyone else."""
        lg = self.league.league(guild_id, league)
        authority.require_deadline_ruler(lg, user_id, moderator=moderator)
        now = self.now()
        late = [v for v in self.league.fixtures(guild_id, lg.id)
                if v.fixture.status == FixtureStatus.SCHEDULED and v.fixture.deadline is not None
                and v.fixture.deadline <= now]
        return lg, late

    def extension(self, lg: LeaguePublic) -> timedelta:
        """How much more time ``extend`` gives: the league's round length, else three days."""
        days = int(db_leagues.settings_of(lg).get("round_days", 0) or 0)
        return timedelta(days=days) if days else DEFAULT_EXTENSION

    def rule(self, guild_id: int, user_id: int, fixture_id: int, choice: str, seen: int, *,
             moderator: bool = False) -> FixtureView:
        """The choice for a fixture whose deadline (``seen``: as the panel showed it, in
        ``unix`` seconds) passed: ``home`` / ``away`` forfeits, ``both`` forfeit, ``draw``, or
        ``extend``. Refused, with nothing changed, for anyone but the commissioner or a
        moderator standing in, on a fixture he plays, before the deadline, or when the fixture
        changed since the panel (played, started, extended)."""
        if choice not in CHOICES:
            raise InvalidInputError("deadline_unknown_choice", choice=choice[:20])
        view = self.league.fixture(guild_id, fixture_id)
        f = view.fixture
        lg = self.league.league(guild_id, f.league_id)
        stand_in = authority.require_deadline_ruler(lg, user_id, moderator=moderator, fixture=view)
        if f.status != FixtureStatus.SCHEDULED:
            raise InvalidInputError("fixture_no_longer_to_play", fixture=f.id)
        if f.deadline is None or unix(f.deadline) != seen:
            raise InvalidInputError("deadline_changed_meanwhile", fixture=f.id)
        now = self.now()
        if f.deadline > now:
            raise InvalidInputError("deadline_not_passed", fixture=f.id, when=unix(f.deadline))
        with self.sessions() as s:
            if choice == "extend":
                db.set_fixture_deadline(session=s, fixture_id=f.id, seen=f.deadline,
                                        deadline=max(now, f.deadline).replace(second=0, microsecond=0) + self.extension(lg),
                                        channel_id=None, actor_id=user_id, stand_in=stand_in)
            else:
                goals = max(1, match_options(db_leagues.settings_of(lg)).goals_to_win or 0)
                scores = {"home": (0, goals), "away": (goals, 0)}.get(choice, (0, 0))
                conceded = choice if choice in ("home", "away", "both") else None
                db.rule_result(session=s, fixture_id=f.id, seen=f.deadline, action=ACTIONS[choice],
                               result={"home_score": scores[0], "away_score": scores[1], "home_casualties": 0,
                                       "away_casualties": 0, "conceded_by": conceded},
                               actor_id=user_id, stand_in=stand_in)
        if choice != "extend":
            self.league.refresh_points(lg)
        return self.league.fixture(guild_id, f.id)
