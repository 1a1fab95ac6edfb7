"""Changing a stored team's roster under the Advanced Rules: hire, fire, support, abilities.

The rules are ``engine.teambuilding``'s; this module (the service's: the store only keeps rows)
loads the team from the store, asks them, and writes the change (audited when the team plays in
a league) in one transaction. Only the team's coach may change it (the league service asks
``service.authority`` first), never while it plays a match. A team in no league builds to the default 180 points
without extra players.

Each change locks the team's row before it reads the team (``db.locks``), so two changes at
once are checked one after the other: no race takes a team over its budget, loses a purchase
or gives two players one number.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

import engine
from engine import Member, check_fire, check_hire, check_learn, check_support, singular_name, support_item

from db.errors import InvalidInputError, NotFoundError
from db.leagues import add_audit, settings_of, team_busy
from db.models import League, PlayerStatus, RosterPlayer, Team, TeamPublic, utcnow
from db.names import clean_name, name_key
from db.teams import find_team, public_team

__all__ = [
    "members",
    "team_value",
    "team_rules",
    "find_player",
    "hire",
    "fire",
    "set_support",
    "learn",
]


def members(team: Team | TeamPublic) -> list[Member]:
    """The team's active players as the rules see them, by number."""
    return [Member(p.position_id, tuple(p.abilities), p.xp) for p in _active(team)]


def _active(team: Team | TeamPublic) -> list[Any]:
    return sorted((p for p in team.players if p.status == PlayerStatus.ACTIVE), key=lambda p: p.number)


def _support(team: Team | TeamPublic) -> dict[str, int]:
    return {k: int(v) for k, v in team.support.items() if int(v)}


def team_value(team: Team | TeamPublic) -> int:
    return engine.team_value(members(team), _support(team))  # the rules' count of this team


def team_rules(session: Session, team: Team | TeamPublic) -> dict[str, Any]:
    """The settings that bind this team: its league's, or the defaults."""
    league = session.get(League, team.league_id) if team.league_id is not None else None
    return settings_of(league)


def find_player(team: Team | TeamPublic, player: str | int) -> Any:
    """An active player of the team by roster id, number (``7``, ``#7``) or name (any case)."""
    active = _active(team)
    text = str(player).strip()
    if text.startswith("id:") and _digits(text[3:]):
        found = [p for p in active if p.id == int(text[3:])]
    elif _digits(text.lstrip("#")):
        found = [p for p in active if p.number == int(text.lstrip("#"))]
    else:
        found = [p for p in active if name_key(p.name) == name_key(text)]
        found = found or [p for p in active if name_key(p.name).startswith(name_key(text))]
    if len(found) == 1:
        return found[0]
    if found:
        raise InvalidInputError("player_name_ambiguous", text=text, players=", ".join(p.name for p in found))
    raise NotFoundError("team_has_no_player", team=team.name, text=text)


def _digits(text: str) -> bool:
    """A number as typed (``"²"`` is a digit to ``str.isdigit`` but not to ``int``)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


def _editable(session: Session, guild_id: int, team: int | str) -> Team:
    """The team, locked for this change, if it is not playing (that the member changing it owns
    it, the league service asked first: ``service.authority.require_team_owner``)."""
    tm = find_team(session, guild_id, team, lock=True)
    busy = team_busy(session, tm.id)  # type: ignore[arg-type]  # a stored row's id is set
    if busy:
        raise busy
    return tm


def _audit(session: Session, tm: Team, action: str, coach_id: int, **detail: Any) -> None:
    tm.updated_at = utcnow()
    session.add(tm)
    if tm.league_id is not None:
        add_audit(session, tm.league_id, action, actor_id=coach_id, detail={"team": tm.name, **detail})


def hire(*, session: Session, guild_id: int, team: int | str, coach_id: int, position: str,
         name: str | None = None) -> tuple[TeamPublic, RosterPlayer]:
    """A rookie of ``position`` joins the team for 15 points, within the team list and budget."""
    tm = _editable(session, guild_id, team)
    rules = team_rules(session, tm)
    pos = check_hire(tm.team_list, members(tm), position, _support(tm), budget=rules["budget"],
                        allow_extra=rules["extra_players"])
    number = max((p.number for p in tm.players), default=0) + 1  # numbers are never reused
    label = clean_name(name, "player") if name and name.strip() else f"{singular_name(pos.name)} #{number}"
    if any(name_key(p.name) == name_key(label) for p in _active(tm)):
        raise InvalidInputError("team_player_name_taken", team=tm.name, player=label)
    player = RosterPlayer(number=number, name=label, position_id=pos.id, attributes=pos.attributes.as_dict(),  # type: ignore[call-arg]  # SQLModel's generated __init__ takes the table's fields
                          abilities=list(pos.innate_abilities), status=PlayerStatus.ACTIVE.value)
    tm.players.append(player)
    _audit(session, tm, "player_hired", coach_id, player=label, position=pos.name)
    session.commit()
    return public_team(tm), player


def fire(*, session: Session, guild_id: int, team: int | str, coach_id: int, player: str | int) -> tuple[TeamPublic, Any]:
    """Cut a player (never below 6): he leaves the roster and his points are free again."""
    tm = _editable(session, guild_id, team)
    p = find_player(tm, player)
    check_fire(members(tm))
    p.status = PlayerStatus.RETIRED.value
    p.injuries = [*p.injuries, {"kind": "cut", "at": utcnow().isoformat()}]
    session.add(p)
    _audit(session, tm, "player_fired", coach_id, player=p.name)
    session.commit()
    return public_team(tm), p


def set_support(*, session: Session, guild_id: int, team: int | str, coach_id: int, item: str,
                change: int) -> tuple[TeamPublic, str, int]:
    """Buy (``change`` > 0) or sell (< 0) team support; returns the team, the item id and the new count."""
    tm = _editable(session, guild_id, team)
    item_id = support_item(item)
    if change == 0:
        raise InvalidInputError("buy_sell_least_one")
    support = _support(tm)
    have = support.pop(item_id, 0)
    rules = team_rules(session, tm)
    check_support(item_id, have, have + change, engine.team_value(members(tm), support), budget=rules["budget"])
    tm.support = {**support, **({item_id: have + change} if have + change else {})}
    _audit(session, tm, "support_bought" if change > 0 else "support_sold", coach_id, item=item_id, count=have + change)
    session.commit()
    return public_team(tm), item_id, have + change


def learn(*, session: Session, guild_id: int, team: int | str, coach_id: int, player: str | int,
          ability_id: str, commit: bool = True) -> tuple[TeamPublic, Any, str]:
    """The player learns an ability his XP has earned (5 more team points). ``commit=False``
    leaves the change (and the team's lock) to the caller's transaction: a post-match choice
    writes it with its report, or neither."""
    tm = _editable(session, guild_id, team)
    p = find_player(tm, player)
    rules = team_rules(session, tm)
    me = Member(p.position_id, tuple(p.abilities), p.xp)
    a = check_learn(tm.team_list, me, ability_id, team_value(tm), budget=rules["budget"])
    p.abilities = [*p.abilities, a.id]
    session.add(p)
    _audit(session, tm, "ability_learned", coach_id, player=p.name, ability=a.id)
    if commit:
        session.commit()
    return public_team(tm), p, a.name
