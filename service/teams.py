"""A server's Basic teams: create one, show one, list them (``/team``), and the names the bot
offers when a member names a team."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from sqlmodel import Session

from db import teams as db_teams
from db.engine import session_scope
from db.models.team import TeamPublic
from engine import ElfballError, TeamList, all_team_lists, team_list

from .limits import require_team_room

__all__ = ["create", "team", "teams", "list_name", "team_lists", "team_names", "league_names"]

Sessions = Callable[[], AbstractContextManager[Session]]


def create(*, guild_id: int, coach_id: int, name: str, team_list: str, lineup: str | None = None,
           sessions: Sessions = session_scope) -> TeamPublic:
    """A new Basic team of ``coach_id`` on ``guild_id``, from a team list and a lineup, within
    the coach's and the server's caps (``service.limits``)."""
    with sessions() as s:
        require_team_room(s, guild_id, coach_id)
        return db_teams.create_team(session=s, guild_id=guild_id, coach_id=coach_id, name=name, team_list=team_list,
                                    lineup=lineup)


def team(guild_id: int, name: int | str, *, sessions: Sessions = session_scope) -> TeamPublic:
    """A team of the server, by id or name (any case), with its roster."""
    with sessions() as s:
        return db_teams.get_team(session=s, guild_id=guild_id, team=name)


def teams(guild_id: int, *, coach_id: int | None = None, sessions: Sessions = session_scope) -> list[TeamPublic]:
    """The server's teams by name (only ``coach_id``'s when given)."""
    with sessions() as s:
        return db_teams.list_teams(session=s, guild_id=guild_id, coach_id=coach_id)


def team_names(guild_id: int, text: str = "", *, coach_id: int | None = None,
               sessions: Sessions = session_scope) -> list[tuple[str, str]]:
    """At most 25 (name, team list id) of the server's teams (``coach_id``'s only, if given)
    whose name holds ``text``: an autocomplete's bounded read."""
    with sessions() as s:
        return db_teams.name_choices(session=s, guild_id=guild_id, kind="team", text=text, coach_id=coach_id)


def league_names(guild_id: int, text: str = "", *, sessions: Sessions = session_scope) -> list[str]:
    """At most 25 of the server's league names holding ``text``: an autocomplete's bounded read."""
    with sessions() as s:
        return [n for n, _ in db_teams.name_choices(session=s, guild_id=guild_id, kind="league", text=text)]


def list_name(list_id: str) -> str:
    """A stored team's team list by its name (``Night Elves``, a proper noun in every language),
    not its id (``night-elves``); an unknown id as stored."""
    try:
        return team_list(list_id).name
    except ElfballError:
        return list_id


def team_lists(*, include_optional: bool = True) -> list[TeamList]:
    """Every team list a friendly may name (the optional ones too, unless told otherwise)."""
    return list(all_team_lists(include_optional=include_optional))
