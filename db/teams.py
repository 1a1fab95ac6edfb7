"""Leagues and teams of a server: create, list and show, with the roster stored player by player.

A team is a Basic team (``engine.rosters.validate_basic_team``): exactly ten players from one
team list. Names are unique per server, compared without case ("Elf Raiders" and "elf
raiders" clash). Every function is one unit of work on the ``session`` it is given, and a
refused request writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlmodel import Session, col, select

import engine
from engine import (
    PlayerEntry,
    RosterOptions,
    TeamEntry,
    TeamRoster,
    default_roster,
    position_by_id,
    singular_name,
    validate_basic_team,
)

from ._util import ARCHIVED, clean_name, name_key, violates
from .errors import (
    DuplicateNameError,
    InvalidInputError,
    UnknownLeagueError,
    UnknownTeamError,
)
from .locks import begin_write, valid_id
from .models import Fixture, League, LeaguePublic, PlayerStatus, RosterPlayer, RosterPlayerPublic, Team, TeamPublic

__all__ = [
    "name_choices",
    "create_league",
    "get_league",
    "list_leagues",
    "create_team",
    "get_team",
    "list_teams",
    "league_row",
    "find_team",
    "public_team",
    "team_entry",
]


# --- leagues ---------------------------------------------------------------------------------
def create_league(
    *, session: Session, guild_id: int, name: str, commissioner_id: int, settings: Mapping[str, Any] | None = None
) -> LeaguePublic:
    """A new league on ``guild_id``; ``DuplicateNameError`` if the server has one of that name."""
    name = clean_name(name, "league")
    key = name_key(name)
    if session.exec(select(League.id).where(League.guild_id == guild_id, League.name_key == key)).first():
        raise DuplicateNameError("server_already_league_called", name=name)
    league = League(guild_id=guild_id, name=name, name_key=key, commissioner_id=commissioner_id,
                    settings=dict(settings or {}))
    session.add(league)
    try:
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        if violates(exc, "uq_leagues_guild_id_name_key"):
            raise DuplicateNameError("server_already_league_called", name=name) from None
        raise
    return LeaguePublic.model_validate(league)


def league_row(session: Session, guild_id: int, league: int | str, *, lock: bool = False) -> League:
    """The league row; with ``lock``, held until the session commits (``db.locks``)."""
    query = select(League).where(League.guild_id == guild_id)
    if isinstance(league, int):
        if not valid_id(league):
            raise UnknownLeagueError("server_no_league", league=league)
        query = query.where(League.id == league)
    else:
        query = query.where(League.name_key == name_key(league))
    if lock:
        begin_write(session)
        query = query.with_for_update().execution_options(populate_existing=True)
    found = session.exec(query).first()
    if found is None:
        raise UnknownLeagueError("server_no_league", league=league)
    return found


def get_league(*, session: Session, guild_id: int, league: int | str) -> LeaguePublic:
    """A league of this server, by id or name."""
    return LeaguePublic.model_validate(league_row(session, guild_id, league))


def list_leagues(*, session: Session, guild_id: int) -> list[LeaguePublic]:
    """The server's leagues, each at its current season (``db.seasons`` reads the finished ones)."""
    rows = session.exec(select(League).where(League.guild_id == guild_id, ~col(League.name_key).contains(ARCHIVED))
                        .order_by(League.name_key)).all()
    return [LeaguePublic.model_validate(r) for r in rows]


# --- teams -----------------------------------------------------------------------------------
def _player_names(names: Sequence[str], total: int) -> list[str]:
    if isinstance(names, str):
        raise InvalidInputError("give_player_names_as_list")
    if len(names) > total:
        raise InvalidInputError("player_names_count", given=len(names), total=total)
    cleaned = [clean_name(n, "player") if n and n.strip() else "" for n in names]
    seen: set[str] = set()
    for n in cleaned:
        if n and name_key(n) in seen:
            raise InvalidInputError("two_players_called_give_each", name=n)
        seen.add(name_key(n))
    return cleaned + [""] * (total - len(cleaned))


def create_team(
    *,
    session: Session,
    guild_id: int,
    coach_id: int,
    name: str,
    team_list: str,
    lineup: str | Mapping[str, int] | None = None,
    league: int | str | None = None,
    colours: tuple[str, str] | None = None,
    player_names: Sequence[str] = (),
    roster_options: RosterOptions | None = None,
) -> TeamPublic:
    """A new Basic team on ``guild_id`` for ``/team create``.

    ``team_list`` is forgiving (``"night elves"``); ``lineup`` is a lineup string or
    mapping (``"6 imps, 2 hunters, 2 strikers"``), or None for the list's default lineup.
    Roster errors from the engine (unknown list, a wrong lineup) pass through unchanged;
    ``DuplicateNameError`` if the server has a team of that name, ``UnknownLeagueError`` for
    an unknown league.
    """
    name = clean_name(name, "team")
    key = name_key(name)
    tl = engine.team_list(team_list)  # the parameter holds the list's name
    if lineup is None:
        roster = default_roster(tl)
    else:
        roster = validate_basic_team(tl, lineup, options=roster_options or RosterOptions())
    names = _player_names(player_names, roster.total)
    league_id = league_row(session, guild_id, league).id if league is not None else None
    if session.exec(select(Team.id).where(Team.guild_id == guild_id, Team.name_key == key)).first():
        raise DuplicateNameError("server_already_team_called", name=name)
    primary, secondary = colours if colours is not None else tl.colours
    team = Team(guild_id=guild_id, league_id=league_id, coach_id=coach_id, team_list=tl.id, name=name,
                name_key=key, primary_colour=primary, secondary_colour=secondary)
    number = 0
    for position, count in roster.entries:
        for _ in range(count):
            number += 1
            team.players.append(
                RosterPlayer(  # type: ignore[call-arg]  # team_id: from the relationship
                    number=number,
                    name=names[number - 1] or f"{singular_name(position.name)} #{number}",
                    position_id=position.id,
                    attributes=position.attributes.as_dict(),
                    abilities=list(position.innate_abilities),
                    status=PlayerStatus.ACTIVE.value,
                )
            )
    session.add(team)
    try:
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        if violates(exc, "uq_teams_guild_id_name_key"):
            raise DuplicateNameError("server_already_team_called", name=name) from None
        raise
    return public_team(team)


def public_team(team: Team) -> TeamPublic:
    """A team row as callers see it, its players included."""
    return TeamPublic.model_validate(team, update={"players": [p.model_dump() for p in team.players]})


def find_team(session: Session, guild_id: int, team: int | str, *, lock: bool = False) -> Team:
    """The team row with its players; with ``lock``, held until the session commits, so a
    check of its budget or roster stays true until the change is written (``db.locks``)."""
    query = select(Team).where(Team.guild_id == guild_id).options(selectinload(Team.players))  # type: ignore[arg-type]  # a SQLModel relationship is typed as its Python value
    if isinstance(team, int):
        if not valid_id(team):
            raise UnknownTeamError("server_no_team_id", team=team)
        query = query.where(Team.id == team)
    else:
        query = query.where(Team.name_key == name_key(team))
    if lock:
        begin_write(session)
        query = query.with_for_update(of=Team).execution_options(populate_existing=True)
    found = session.exec(query).first()
    if found is None:
        if isinstance(team, int):
            raise UnknownTeamError("server_no_team_id", team=team)
        raise UnknownTeamError("server_no_team", team=team)
    return found


def get_team(*, session: Session, guild_id: int, team: int | str) -> TeamPublic:
    """A team of this server, by id or name (any case), with its roster."""
    return public_team(find_team(session, guild_id, team))


def list_teams(
    *, session: Session, guild_id: int, league: int | str | None = None, coach_id: int | None = None
) -> list[TeamPublic]:
    """The server's teams by name, optionally only one league's or one coach's."""
    query = select(Team).where(Team.guild_id == guild_id).options(selectinload(Team.players))  # type: ignore[arg-type]  # a SQLModel relationship is typed as its Python value
    if league is not None:
        # Its teams, and those that played its fixtures (a finished season's teams moved on: db.seasons).
        lid = league_row(session, guild_id, league).id
        played = select(Fixture.home_team_id).where(Fixture.league_id == lid).union(
            select(Fixture.away_team_id).where(Fixture.league_id == lid))
        query = query.where((col(Team.league_id) == lid) | col(Team.id).in_(played))
    if coach_id is not None:
        query = query.where(Team.coach_id == coach_id)
    return [public_team(t) for t in session.exec(query.order_by(Team.name_key)).all()]


def name_choices(*, session: Session, guild_id: int, kind: str, text: str = "", coach_id: int | None = None,
                 limit: int = 25) -> list[tuple[str, str]]:
    """Up to ``limit`` (at most 25) of the server's ``kind`` (``team``: (name, team list id);
    ``league``: (name, name)) whose name holds ``text``, for an autocomplete: filtered and
    bounded by the database (``guild_id`` and ``coach_id`` are indexed), by name. No players read."""
    typed = " ".join(text.split()).casefold()
    size = max(0, min(limit, 25))
    if kind == "league":
        lq = select(League.name).where(League.guild_id == guild_id, ~col(League.name_key).contains(ARCHIVED))
        if typed:
            lq = lq.where(col(League.name_key).contains(typed, autoescape=True))
        return [(n, n) for n in session.exec(lq.order_by(League.name_key).limit(size)).all()]
    tq = select(Team.name, Team.team_list).where(Team.guild_id == guild_id)
    if coach_id is not None:
        tq = tq.where(Team.coach_id == coach_id)
    if typed:
        tq = tq.where(col(Team.name_key).contains(typed, autoescape=True))
    return [(n, lst) for n, lst in session.exec(tq.order_by(Team.name_key).limit(size)).all()]


ATTRIBUTES = ("jog", "might", "tackle", "dodge", "skill", "grit")


def team_entry(team: TeamPublic) -> TeamEntry:
    """The engine's ``TeamEntry`` for a stored team: its active players, in roster order, named,
    with what their careers changed (learned abilities, attributes) and the team's support."""
    active = sorted((p for p in team.players if p.status == PlayerStatus.ACTIVE), key=lambda p: p.number)
    entries: list[list[Any]] = []
    for p in active:
        if entries and entries[-1][0].id == p.position_id:
            entries[-1][1] += 1
        else:
            entries.append([position_by_id(p.position_id), 1])
    roster = TeamRoster(team=engine.team_list(team.team_list), entries=tuple((pos, n) for pos, n in entries))
    careers = tuple(_career(p) for p in active)
    support = tuple(sorted((str(item), int(n)) for item, n in team.support.items() if n))
    return TeamEntry(team.name, roster, tuple(p.name for p in active),
                     careers if any(c is not None for c in careers) else (), support)


def _career(p: RosterPlayerPublic) -> PlayerEntry | None:
    """What differs from the position's profile: abilities learned, attributes changed (a
    lasting injury, a potion's boost are the engine's; the roster holds the player's own)."""
    position = position_by_id(p.position_id)
    learned = tuple(a for a in p.abilities if a not in position.innate_abilities)
    attributes = None
    if all(k in p.attributes for k in ATTRIBUTES):
        values = tuple(int(p.attributes[k]) for k in ATTRIBUTES)
        if values != tuple(position.attributes.as_dict()[k] for k in ATTRIBUTES):
            attributes = values
    if not learned and attributes is None:
        return None
    return PlayerEntry(learned, attributes)  # type: ignore[arg-type]  # the stored attributes are a 7-tuple, checked when the entry is made
