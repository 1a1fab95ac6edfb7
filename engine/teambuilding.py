"""Building and growing a league team under the Advanced Rules (pp. 11-12, 19): pure rules.

"Instead of just picking 10 players for your team you receive 180 points to build your team of
up to 12 players ... your team can never exceed 180 points. Every new rookie unskilled player
for your team costs 15 points." Team support costs what p. 11 lists; "Each Basic and Advanced
ability on your team add 5 points to your team's points (abilities temporarily gained through
magic potions are worth 0 points)"; "You may never cut your team to less than 6 players". The
team list's position maxima still apply, and the extra players (Samhaino Horror, Impcrusher)
take the slot of the position they replace (p. 19).

Nothing here stores anything: the league layer (``db.roster``) asks these functions before it
changes a roster, and every refusal says which limit the change would break.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .abilities import Ability, ability, learnable
from .errors import RosterError
from .match import SUPPORT_LIMITS
from .rosters import (
    Attributes,
    ExtraPlayer,
    Position,
    TeamList,
    UnknownNameError,
    extra_player,
    extra_players,
    position_by_id,
    team_list,
)

__all__ = [
    "DEFAULT_BUDGET",
    "ROOKIE_COST",
    "ABILITY_COST",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "XP_PER_ABILITY",
    "SUPPORT_COSTS",
    "SUPPORT_NAMES",
    "SUPPORT_LIMITS",
    "TeamBuildingError",
    "Member",
    "learned",
    "player_value",
    "support_value",
    "team_value",
    "extra_of",
    "gains_experience",
    "uses_potions",
    "lineup_problems",
    "check_team",
    "resolve_position",
    "check_hire",
    "check_fire",
    "support_item",
    "check_support",
    "advances",
    "eligible_abilities",
    "check_learn",
    "lasting_choices",
    "apply_lasting",
]

DEFAULT_BUDGET = 180
ROOKIE_COST = 15
ABILITY_COST = 5
MIN_PLAYERS = 6
MAX_PLAYERS = 12
XP_PER_ABILITY = 5
#: Team support (p. 11): item id -> points each (the limits are ``engine.match.SUPPORT_LIMITS``).
SUPPORT_COSTS: dict[str, int] = {"bribed_referee": 5, "cheerleaders": 5, "kegs": 5, "potions": 5, "wizard": 20}
SUPPORT_NAMES: dict[str, str] = {
    "bribed_referee": "Bribed Referee",
    "cheerleaders": "Cheerleader",
    "kegs": "Zlurpee Keg",
    "potions": "Magic Potion",
    "wizard": "Hired Gun Wizard",
}


class TeamBuildingError(RosterError):
    """A roster change the Advanced Rules forbid; the message says which limit and by how much."""


@dataclass(frozen=True)
class Member:
    """What the rules need to know of one rostered player."""

    position_id: str
    abilities: tuple[str, ...] = ()
    xp: int = 0

    @property
    def position(self) -> Position:
        return position_by_id(self.position_id)


# --- value ---------------------------------------------------------------------------------------
def learned(member: Member) -> tuple[str, ...]:
    """His abilities beyond his position's innate ones (the Impcrusher's Cheapshot is free, G52)."""
    innate = set(member.position.innate_abilities)
    return tuple(a for a in member.abilities if a not in innate)


def player_value(member: Member) -> int:
    """A rookie's 15 points plus 5 for every learned ability (extra players cost 15 too, G52)."""
    return ROOKIE_COST + ABILITY_COST * len(learned(member))


def support_value(support: Mapping[str, int]) -> int:
    return sum(SUPPORT_COSTS[item] * int(n) for item, n in support.items() if item in SUPPORT_COSTS)


def team_value(members: Iterable[Member], support: Mapping[str, int]) -> int:
    return sum(player_value(m) for m in members) + support_value(support)


# --- positions -------------------------------------------------------------------------------------
def extra_of(position_id: str) -> ExtraPlayer | None:
    return next((e for e in extra_players() if e.id == position_id), None)


def gains_experience(position_id: str) -> bool:
    """The Impcrusher "may not gain experience points" (p. 19); everybody else does."""
    extra = extra_of(position_id)
    return extra is None or extra.gains_experience


def uses_potions(position_id: str) -> bool:
    extra = extra_of(position_id)
    return extra is None or extra.uses_potions


def _learns(position_id: str) -> bool:
    extra = extra_of(position_id)
    return extra is None or extra.learns_abilities


def _slot(tl: TeamList, position_id: str) -> str | None:
    """The team-list position whose maximum ``position_id`` counts toward (None: not this list's)."""
    if any(p.id == position_id for p in tl.positions):
        return position_id
    extra = extra_of(position_id)
    return extra.replaced_position_id(tl.id) if extra else None


def lineup_problems(tl: TeamList, members: Sequence[Member], *, allow_extra: bool) -> list[str]:
    """Every way ``members`` break the team list (positions, maxima, extra players) or the
    Advanced roster size (6 to 12)."""
    problems: list[str] = []
    in_slot: dict[str, int] = {}
    extras: dict[str, int] = {}
    for m in members:
        slot = _slot(tl, m.position_id)
        if slot is None:
            problems.append(f"{m.position.name} is not a position of {tl.name}")
            continue
        in_slot[slot] = in_slot.get(slot, 0) + 1
        if slot != m.position_id:
            extras[m.position_id] = extras.get(m.position_id, 0) + 1
            if not allow_extra:
                problems.append(f"{m.position.name} is an extra player (Optional Rules, p. 19): this league does not allow them")
    for p in tl.positions:
        if in_slot.get(p.id, 0) > p.max:
            problems.append(f"{tl.name} may field at most {p.max} {p.name} (extra players in that slot included): "
                            f"this team has {in_slot[p.id]}")
    for pid, n in extras.items():
        extra = extra_of(pid)
        if extra is not None and n > extra.position.max:
            problems.append(f"a team may field at most {extra.position.max} {extra.name}: this team has {n}")
    if not MIN_PLAYERS <= len(members) <= MAX_PLAYERS:
        problems.append(f"a team has {MIN_PLAYERS} to {MAX_PLAYERS} players: this one has {len(members)}")
    return problems


def check_team(team: str | TeamList, members: Sequence[Member], support: Mapping[str, int], *, budget: int,
               allow_extra: bool) -> int:
    """A whole team against a league's rules (joining it): its value, or every problem at once."""
    tl = team_list(team)
    problems = lineup_problems(tl, members, allow_extra=allow_extra)
    for item, n in support.items():
        if item not in SUPPORT_COSTS:
            problems.append(f"unknown team support {item!r}")
        elif int(n) > SUPPORT_LIMITS[item]:
            problems.append(f"at most {_items(item, SUPPORT_LIMITS[item])}: this team has {n}")
    value = team_value(members, support)
    if value > budget:
        problems.append(f"the team is worth {value} points, over the league's {budget}: cut players or support")
    if problems:
        raise TeamBuildingError(problems[0] if len(problems) == 1 else
                                "this team breaks the league's rules:\n" + "\n".join(f"- {p}" for p in problems))
    return value


# --- changes ---------------------------------------------------------------------------------------
def resolve_position(team: str | TeamList, name: str, *, allow_extra: bool) -> Position:
    """The position ``name`` means for this team list: one of its own, or an extra player it may field."""
    tl = team_list(team)
    try:
        return tl.position(name)
    except UnknownNameError:
        try:
            extra = extra_player(name)
        except UnknownNameError:
            raise UnknownNameError(f"{name!r} is not a position of {tl.name}: choose "
                                   f"{', '.join(p.name for p in tl.positions)}", query=name) from None
    if extra.replaced_position_id(tl.id) is None:
        raise TeamBuildingError(f"{tl.name} may not field a {extra.name}")
    if not allow_extra:
        raise TeamBuildingError(f"{extra.name} is an extra player (Optional Rules, p. 19): this league does not allow them")
    return extra.position


def _over_budget(value: int, budget: int, what: str) -> TeamBuildingError:
    return TeamBuildingError(f"{what} would make the team worth {value} points, over the league's {budget}: "
                             f"fire a player or sell support first")


def check_hire(team: str | TeamList, members: Sequence[Member], position: str, support: Mapping[str, int], *,
               budget: int, allow_extra: bool) -> Position:
    """Hiring a rookie of ``position`` (forgiving name): the position, or why not."""
    tl = team_list(team)
    pos = resolve_position(tl, position, allow_extra=allow_extra)
    if len(members) >= MAX_PLAYERS:
        raise TeamBuildingError(f"a team has at most {MAX_PLAYERS} players: fire one first")
    after = [*members, Member(pos.id)]
    problems = [p for p in lineup_problems(tl, after, allow_extra=allow_extra) if "players: this one has" not in p]
    if problems:
        raise TeamBuildingError(problems[0])
    value = team_value(after, support)
    if value > budget:
        raise _over_budget(value, budget, f"a {pos.name} rookie ({ROOKIE_COST} points)")
    return pos


def check_fire(members: Sequence[Member]) -> None:
    """"You may never cut your team to less than 6 players.\""""
    if len(members) - 1 < MIN_PLAYERS:
        raise TeamBuildingError(f"a team may never be cut below {MIN_PLAYERS} players: it has {len(members)}")


def support_item(name: str) -> str:
    """A support item id from what a coach typed ("cheerleader", "Zlurpee", "wizard")."""
    key = "".join(ch for ch in name.lower() if ch.isalnum())
    for item, label in SUPPORT_NAMES.items():
        keys = {item.replace("_", ""), "".join(ch for ch in label.lower() if ch.isalnum())}
        if any(k.startswith(key) or key.startswith(k) for k in keys) and key:
            return item
    aliases = {"referee": "bribed_referee", "bribe": "bribed_referee", "keg": "kegs", "zlurpee": "kegs",
               "energydrink": "kegs", "potion": "potions", "cheer": "cheerleaders"}
    for alias, item in aliases.items():
        if key.startswith(alias):
            return item
    raise TeamBuildingError(f"unknown team support {name!r}: choose {', '.join(SUPPORT_NAMES.values())}")


def _items(item: str, n: int) -> str:
    """ "2 Zlurpee Kegs", "1 Bribed Referee"."""
    return f"{n} {SUPPORT_NAMES[item]}{'' if n == 1 else 's'}"


def check_support(item: str, have: int, new_count: int, value_without_item: int, *, budget: int) -> int:
    """Setting ``item`` from ``have`` to ``new_count``: the team's new value, or why not."""
    if new_count < 0:
        raise TeamBuildingError(f"the team has only {_items(item, have)} to sell")
    if new_count > SUPPORT_LIMITS[item]:
        raise TeamBuildingError(f"a team may have at most {_items(item, SUPPORT_LIMITS[item])} "
                                f"({SUPPORT_COSTS[item]} points each): it has {have}")
    value = value_without_item + SUPPORT_COSTS[item] * new_count
    if new_count > have and value > budget:
        raise _over_budget(value, budget, f"{new_count - have} more {SUPPORT_NAMES[item]} "
                                          f"({SUPPORT_COSTS[item]} points each)")
    return value


# --- experience and abilities ------------------------------------------------------------------------
def advances(member: Member) -> int:
    """Abilities he may learn now: one for every full 5 XP, less those already learned (p. 12)."""
    if not _learns(member.position_id):
        return 0
    return max(0, member.xp // XP_PER_ABILITY - len(learned(member)))


def eligible_abilities(team: str | TeamList, member: Member) -> list[Ability]:
    """The abilities he may learn (``engine.abilities.learnable``), whether or not he has the XP."""
    if not _learns(member.position_id):
        return []
    return learnable(str(member.position.type), member.abilities, race=team_list(team).id)


def check_learn(team: str | TeamList, member: Member, ability_id: str, value: int, *, budget: int) -> Ability:
    """Learning ``ability_id`` now: the ability, or why not (XP, eligibility, budget)."""
    a = ability(ability_id)
    pos = member.position
    if not _learns(member.position_id):
        raise TeamBuildingError(f"the {pos.name} may not learn new abilities (p. 19)")
    if a.id in member.abilities:
        raise TeamBuildingError(f"he already has {a.name}: an ability is learned only once")
    if advances(member) < 1:
        need = XP_PER_ABILITY * (len(learned(member)) + 1)
        raise TeamBuildingError(f"he has {member.xp} XP: his next ability needs {need}")
    if a.id not in {e.id for e in eligible_abilities(team, member)}:
        if not a.general and a.group != str(pos.type) and not (a.id == "fear" and team_list(team).id == "samhaino"):
            raise TeamBuildingError(f"{a.name} is a {a.group.replace('-', ' ').title()} ability: a "
                                    f"{str(pos.type).replace('-', ' ').title()} may not learn it")
        raise TeamBuildingError(f"{a.name} is an Advanced ability: he needs the Basic {a.group} ability first")
    if value + ABILITY_COST > budget:
        raise _over_budget(value + ABILITY_COST, budget, f"learning {a.name} ({ABILITY_COST} points)")
    return a


# --- lasting injuries --------------------------------------------------------------------------------
def lasting_choices(attributes: Mapping[str, int]) -> list[str]:
    """The attributes with the most points: a lasting injury lowers one of them, his coach's choice."""
    top = max(attributes[a] for a in Attributes.FIELDS)
    return [a for a in Attributes.FIELDS if attributes[a] == top]


def apply_lasting(attributes: Mapping[str, int], attribute: str, choices: Sequence[str] | None = None) -> dict[str, int]:
    """``attributes`` with ``attribute`` one point lower; it must be one of ``choices`` (default:
    the tied highest now)."""
    allowed = list(choices) if choices else lasting_choices(attributes)
    if attribute not in allowed:
        raise TeamBuildingError(f"a lasting injury lowers the highest attribute: choose {', '.join(allowed)}")
    out = {a: int(attributes[a]) for a in Attributes.FIELDS}
    out[attribute] = max(0, out[attribute] - 1)
    return out
