"""Building and growing a league team under the Advanced Rules (pp. 11-12, 19): pure rules.

"Instead of just picking 10 players for your team you receive 180 points to build your team of
up to 12 players ... your team can never exceed 180 points. Every new rookie unskilled player
for your team costs 15 points." Team support costs what p. 11 lists; "Each Basic and Advanced
ability on your team add 5 points to your team's points (abilities temporarily gained through
magic potions are worth 0 points)"; "You may never cut your team to less than 6 players". The
team list's position maxima still apply, and the extra players (Samhaino Horror, Impcrusher)
take the slot of the position they replace (p. 19).

Nothing here stores anything: the league layer (``service.roster``) asks these functions before it
changes a roster, and every refusal says which limit the change would break. A refusal is a
``TeamBuildingError`` of ``Problem``s: each reads in English as a ``str`` and keeps its catalogue
key (``teambuilding.*`` of ``engine/data/text``) and values, so ``TeamBuildingError.text``
says it again in the coach's language (ability, type and support names included).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .abilities import ABILITIES, Ability, ability, learnable
from .errors import RosterError
from .refusals import Refusal
from .i18n import DEFAULT, Catalogue
from .entries import SUPPORT_LIMITS
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
    "Problem",
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
#: Team support (p. 11): item id -> points each (the limits are ``engine.entries.SUPPORT_LIMITS``).
SUPPORT_COSTS: dict[str, int] = {"bribed_referee": 5, "cheerleaders": 5, "kegs": 5, "potions": 5, "wizard": 20}
SUPPORT_NAMES: dict[str, str] = {
    "bribed_referee": "Bribed Referee",
    "cheerleaders": "Cheerleader",
    "kegs": "Zlurpee Keg",
    "potions": "Magic Potion",
    "wizard": "Hired Gun Wizard",
}


class Problem(str):
    """One broken limit: its English sentence (it *is* that ``str``), keeping its catalogue key
    and values so that ``text`` can say it in another language. Values are rendered by name:
    ``ability`` and ``position`` (ids), ``group``/``type`` (an attribute or player type id),
    ``items`` (an ``(item, count)`` pair: "2 Zlurpee Kegs"), ``noun`` (the same, without the
    count), ``choices`` (support item ids), ``attributes`` (attribute ids, as typed in
    English), a nested ``Problem``; any other value as given."""

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, /, **values: Any) -> Problem:
        self = super().__new__(cls, _render(DEFAULT, key, values))
        self.key, self.values = key, values
        return self

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # copy and pickle rebuild it from its key
        return (self.key,), self.values

    def text(self, language: str = DEFAULT) -> str:
        return _render(language, self.key, self.values)


@cache
def _words(language: str) -> Catalogue:
    return Catalogue("engine", "data/text", language)


def _render(language: str, key: str, values: Mapping[str, Any]) -> str:
    tx = _words(language)
    sep = tx.t("options.list_sep")

    def group(g: str) -> str:
        return tx.get(f"attribute.{g}", "") or tx.get(f"type.{g}", g)

    def value(name: str, v: Any) -> Any:
        if isinstance(v, Problem):
            return v.text(language)
        if name == "ability":
            return ABILITIES[v].name_in(language) if v in ABILITIES else v
        if name == "position":  # an id: the extra players have French names, the lists' positions not yet
            return tx.get(f"position.{v}", position_by_id(v).name)
        if name in ("group", "type"):
            return group(str(v))
        if name in ("items", "noun"):
            item, n = v
            one = n == 1 or (n == 0 and language != DEFAULT)  # "0 pom-pom girl", "0 Cheerleaders"
            noun = tx.t(f"teambuilding.item.{item}" + ("" if one else ".plural"))
            return noun if name == "noun" else tx.t("teambuilding.count", n=n, noun=noun)
        if name == "choices":
            return sep.join(tx.t(f"teambuilding.item.{i}") for i in v)
        if name == "attributes":  # English names them as a coach types them
            return sep.join(a if language == DEFAULT else tx.get(f"attribute.{a}", a) for a in v)
        return v

    return tx.t(key, **{name: value(name, v) for name, v in values.items()})


class TeamBuildingError(RosterError):
    """A roster change the Advanced Rules forbid; the message says which limit and by how much
    (``str``: English; ``text(language)``: in another language)."""

    def __init__(self, *problems: str) -> None:
        self.problems = problems
        super().__init__(self.text(DEFAULT))

    def text(self, language: str = DEFAULT) -> str:
        said = [p.text(language) if isinstance(p, Problem) else str(p) for p in self.problems]
        if len(said) == 1:
            return said[0]
        head = _words(language).t("teambuilding.problems")
        return head + "\n" + "\n".join(f"- {p}" for p in said)


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


def lineup_problems(tl: TeamList, members: Sequence[Member], *, allow_extra: bool) -> list[Problem]:
    """Every way ``members`` break the team list (positions, maxima, extra players) or the
    Advanced roster size (6 to 12)."""
    problems: list[Problem] = []
    in_slot: dict[str, int] = {}
    extras: dict[str, int] = {}
    for m in members:
        slot = _slot(tl, m.position_id)
        if slot is None:
            problems.append(Problem("teambuilding.not_a_position", position=m.position_id, team=tl.name))
            continue
        in_slot[slot] = in_slot.get(slot, 0) + 1
        if slot != m.position_id:
            extras[m.position_id] = extras.get(m.position_id, 0) + 1
            if not allow_extra:
                problems.append(Problem("teambuilding.extra_not_allowed", position=m.position_id))
    for p in tl.positions:
        if in_slot.get(p.id, 0) > p.max:
            problems.append(Problem("teambuilding.position_max", team=tl.name, n=p.max, position=p.id, have=in_slot[p.id]))
    for pid, n in extras.items():
        extra = extra_of(pid)
        if extra is not None and n > extra.position.max:
            problems.append(Problem("teambuilding.extra_max", n=extra.position.max, position=pid, have=n))
    if not MIN_PLAYERS <= len(members) <= MAX_PLAYERS:
        problems.append(Problem("teambuilding.size", min=MIN_PLAYERS, max=MAX_PLAYERS, have=len(members)))
    return problems


def check_team(team: str | TeamList, members: Sequence[Member], support: Mapping[str, int], *, budget: int,
               allow_extra: bool) -> int:
    """A whole team against a league's rules (joining it): its value, or every problem at once."""
    tl = team_list(team)
    problems = lineup_problems(tl, members, allow_extra=allow_extra)
    for item, n in support.items():
        if item not in SUPPORT_COSTS:
            problems.append(Problem("teambuilding.unknown_support_item", name=repr(item)))
        elif int(n) > SUPPORT_LIMITS[item]:
            problems.append(Problem("teambuilding.support_max_team", items=(item, SUPPORT_LIMITS[item]), have=n))
    value = team_value(members, support)
    if value > budget:
        problems.append(Problem("teambuilding.team_over_budget", value=value, budget=budget))
    if problems:
        raise TeamBuildingError(*problems)
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
            raise UnknownNameError(Refusal("roster.not_position", text=repr(name), text2=tl.name,
                                           text3=", ".join(p.name for p in tl.positions)), query=name) from None
    if extra.replaced_position_id(tl.id) is None:
        raise TeamBuildingError(Problem("teambuilding.may_not_field", team=tl.name, position=extra.id))
    if not allow_extra:
        raise TeamBuildingError(Problem("teambuilding.extra_not_allowed", position=extra.id))
    return extra.position


def _over_budget(value: int, budget: int, what: Problem) -> TeamBuildingError:
    return TeamBuildingError(Problem("teambuilding.over_budget", what=what, value=value, budget=budget))


def check_hire(team: str | TeamList, members: Sequence[Member], position: str, support: Mapping[str, int], *,
               budget: int, allow_extra: bool) -> Position:
    """Hiring a rookie of ``position`` (forgiving name): the position, or why not."""
    tl = team_list(team)
    pos = resolve_position(tl, position, allow_extra=allow_extra)
    if len(members) >= MAX_PLAYERS:
        raise TeamBuildingError(Problem("teambuilding.max_players", n=MAX_PLAYERS))
    after = [*members, Member(pos.id)]
    problems = [p for p in lineup_problems(tl, after, allow_extra=allow_extra) if p.key != "teambuilding.size"]
    if problems:
        raise TeamBuildingError(problems[0])
    value = team_value(after, support)
    if value > budget:
        raise _over_budget(value, budget, Problem("teambuilding.what.rookie", position=pos.id, n=ROOKIE_COST))
    return pos


def check_fire(members: Sequence[Member]) -> None:
    """"You may never cut your team to less than 6 players.\""""
    if len(members) - 1 < MIN_PLAYERS:
        raise TeamBuildingError(Problem("teambuilding.min_players", n=MIN_PLAYERS, have=len(members)))


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
    raise TeamBuildingError(Problem("teambuilding.unknown_support", name=repr(name), choices=tuple(SUPPORT_NAMES)))


def check_support(item: str, have: int, new_count: int, value_without_item: int, *, budget: int) -> int:
    """Setting ``item`` from ``have`` to ``new_count``: the team's new value, or why not."""
    if new_count < 0:
        raise TeamBuildingError(Problem("teambuilding.nothing_to_sell", items=(item, have)))
    if new_count > SUPPORT_LIMITS[item]:
        raise TeamBuildingError(Problem("teambuilding.support_max", items=(item, SUPPORT_LIMITS[item]),
                                        cost=SUPPORT_COSTS[item], have=have))
    value = value_without_item + SUPPORT_COSTS[item] * new_count
    if new_count > have and value > budget:
        raise _over_budget(value, budget, Problem("teambuilding.what.support", n=new_count - have,
                                                  noun=(item, new_count - have), cost=SUPPORT_COSTS[item]))
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
        raise TeamBuildingError(Problem("teambuilding.no_learning", position=pos.id))
    if a.id in member.abilities:
        raise TeamBuildingError(Problem("teambuilding.already_has", ability=a.id))
    if advances(member) < 1:
        need = XP_PER_ABILITY * (len(learned(member)) + 1)
        raise TeamBuildingError(Problem("teambuilding.xp", xp=member.xp, need=need))
    if a.id not in {e.id for e in eligible_abilities(team, member)}:
        if not a.general and a.group != str(pos.type) and not (a.id == "fear" and team_list(team).id == "samhaino"):
            raise TeamBuildingError(Problem("teambuilding.wrong_type", ability=a.id, group=a.group, type=str(pos.type)))
        raise TeamBuildingError(Problem("teambuilding.needs_basic", ability=a.id, group=a.group))
    if value + ABILITY_COST > budget:
        raise _over_budget(value + ABILITY_COST, budget, Problem("teambuilding.what.learning", ability=a.id, n=ABILITY_COST))
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
        raise TeamBuildingError(Problem("teambuilding.lasting", attributes=tuple(allowed)))
    out = {a: int(attributes[a]) for a in Attributes.FIELDS}
    out[attribute] = max(0, out[attribute] - 1)
    return out
