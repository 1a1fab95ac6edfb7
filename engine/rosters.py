"""Team lists of Elfball 2nd edition, and validation of a Basic team.

The data is ``engine/data/teams.json``, typed row by row from the rulebook's Team Lists
(pp. 15-17) and Optional Rules (pp. 18-19): 18 team lists (the Dwarves' two clans are two
lists; Orcs and Ratmen are optional), the two extra players (Samhaino Horror, Impcrusher)
and the Transformation spell's giant frog. Everything here is immutable and loaded once.

Names are forgiving, because coaches type them in chat: ``team_list("night elves")``,
``"NightElves"``, ``"night-elves"`` and ``"night"`` all find Night Elves; ``"Imp"`` finds the
Imps. A name that matches nothing raises :class:`UnknownNameError` with close matches, one
that matches several raises :class:`AmbiguousNameError` listing them.

A Basic team is exactly 10 players picked from one team list within its maxima (Team &
Player Descriptions, p. 2): :func:`validate_basic_team` checks a lineup such as
``"6 imps, 2 hunters, 2 strikers"`` and reports every problem at once.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, ClassVar, TypeVar

from .errors import AmbiguousInputError, MalformedInputError, RosterError
from .refusals import Joined, Refusal, format_refusal

__all__ = [
    "singular_name",
    "BASIC_TEAM_SIZE",
    "RULE_BASIC_TEAM",
    "RULE_EXTRA_PLAYERS",
    "RULE_OPTIONAL_TEAMS",
    "AmbiguousNameError",
    "Attributes",
    "ExtraPlayer",
    "LineupSyntaxError",
    "PlayerType",
    "Position",
    "RosterOptions",
    "TeamList",
    "TeamRoster",
    "TeamValidationError",
    "UnknownNameError",
    "all_team_lists",
    "default_roster",
    "extra_player",
    "extra_players",
    "giant_frog",
    "parse_lineup",
    "position_by_id",
    "team_list",
    "validate_basic_team",
]

BASIC_TEAM_SIZE = 10
RULE_BASIC_TEAM = "Team & Player Descriptions, p. 2"
RULE_OPTIONAL_TEAMS = "Optional Rules, p. 18"
RULE_EXTRA_PLAYERS = "Optional Rules, p. 19"



# --------------------------------------------------------------------------------------
# Errors (all RosterError, so "any lineup validates or raises RosterError" holds)


class UnknownNameError(RosterError):
    """A team, position or extra-player name that matches nothing."""

    def __init__(self, reason: Refusal, *, query: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(reason)
        self.query = query
        self.suggestions = tuple(suggestions)


class AmbiguousNameError(RosterError, AmbiguousInputError):
    """A name that matches several things; ``candidates`` are their display names."""

    def __init__(self, reason: Refusal, *, query: str, candidates: Sequence[str]) -> None:
        super().__init__(reason)
        self.query = query
        self.candidates = tuple(candidates)


class LineupSyntaxError(RosterError, MalformedInputError):
    """A lineup string that cannot be read (no count where one is needed, two counts...)."""


class TeamValidationError(RosterError):
    """A lineup that breaks the Basic team rules; ``problems`` lists every one of them (in
    English; ``reasons`` as refusals, to be said in another language)."""

    def __init__(self, team: TeamList, problems: Sequence[Refusal]) -> None:
        self.team = team
        self.reasons = tuple(problems)
        self.problems = tuple(format_refusal(p, "en") for p in self.reasons)
        if len(self.reasons) == 1:
            super().__init__(self.reasons[0])
        else:
            lines = Joined(self.reasons, sep="\n- ", prefix="- ")
            super().__init__(Refusal("roster.problems", text=team.name, n=len(self.reasons), problems=lines))


# --------------------------------------------------------------------------------------
# Model


class PlayerType(StrEnum):
    """A player's Type (p. 3): decides which Type abilities he may learn (p. 12)."""

    CHEATER = "cheater"
    DEFENDER = "defender"
    HUNTER = "hunter"
    LITTLE_GUY = "little-guy"
    MIDFIELDER = "midfielder"
    MONSTER = "monster"
    SAFETY = "safety"
    STRIKER = "striker"
    THROWER = "thrower"
    UNDEAD = "undead"

    @property
    def label(self) -> str:
        """English display name, as printed in the rulebook ("Little Guy")."""
        return self.value.replace("-", " ").title()


@dataclass(frozen=True)
class Attributes:
    """The six numeric attributes, in the rulebook's column order."""

    jog: int
    might: int
    tackle: int
    dodge: int
    skill: int
    grit: int

    FIELDS: ClassVar[tuple[str, ...]] = ("jog", "might", "tackle", "dodge", "skill", "grit")

    def as_tuple(self) -> tuple[int, int, int, int, int, int]:
        return (self.jog, self.might, self.tackle, self.dodge, self.skill, self.grit)

    def as_dict(self) -> dict[str, int]:
        return dict(zip(self.FIELDS, self.as_tuple(), strict=True))

    def __str__(self) -> str:
        return "/".join(str(v) for v in self.as_tuple())


@dataclass(frozen=True)
class Position:
    """One row of a team list: the book's name, its 0-N maximum and the player profile.

    ``id`` is language-neutral (``night-elves/imps``); ``name`` is the English text. The
    giant frog has ``max == 0``: it never appears on a roster, a spell swaps it in.
    """

    id: str
    name: str
    max: int
    attributes: Attributes
    type: PlayerType
    innate_abilities: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "max": self.max,
            "attributes": self.attributes.as_dict(),
            "type": self.type.value,
            "innate_abilities": list(self.innate_abilities),
        }


@dataclass(frozen=True)
class TeamList:
    """A team list: its positions, and display data (colours, flavour, default lineup)."""

    id: str
    name: str
    positions: tuple[Position, ...]
    optional: bool
    colours: tuple[str, str]
    default_lineup: tuple[tuple[Position, int], ...]
    aliases: tuple[str, ...] = ()
    flavour: str = ""
    page: int = 0

    @property
    def max_players(self) -> int:
        """Sum of the maxima: 12 for every list, the Advanced roster's size (p. 11)."""
        return sum(p.max for p in self.positions)

    def position(self, name: str) -> Position:
        """This list's position called ``name``, matched forgivingly (not extra players)."""
        found = _match(name, [(p, _position_keys(p)) for p in self.positions])
        if len(found) == 1:
            return found[0]
        if found:
            names = [p.name for p in found]
            raise AmbiguousNameError(Refusal("roster.ambiguous_position", text=_quote(name), text2=self.name,
                                             text3=", ".join(names)), query=name, candidates=names)
        raise UnknownNameError(
            Refusal("roster.not_position", text=_quote(name), text2=self.name, text3=_names(self.positions)),
            query=name,
            suggestions=[p.name for p in self.positions],
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "optional": self.optional,
            "page": self.page,
            "colours": list(self.colours),
            "flavour": self.flavour,
            "aliases": list(self.aliases),
            "positions": [p.as_dict() for p in self.positions],
            "default_lineup": {p.id: n for p, n in self.default_lineup},
        }


@dataclass(frozen=True)
class ExtraPlayer:
    """An extra player of the optional rules (p. 19), fielded in place of a list's position.

    ``replaces`` pairs a team-list id with the position id whose slot it takes: the extra
    counts toward that position's maximum. ``position.max`` is its own per-team limit.
    """

    position: Position
    replaces: tuple[tuple[str, str], ...]
    gains_experience: bool
    learns_abilities: bool
    uses_potions: bool
    referee_ban_check: bool
    flavour: str = ""
    page: int = 0

    @property
    def id(self) -> str:
        return self.position.id

    @property
    def name(self) -> str:
        return self.position.name

    @property
    def team_ids(self) -> tuple[str, ...]:
        return tuple(team_id for team_id, _ in self.replaces)

    def replaced_position_id(self, team_id: str) -> str | None:
        """The position whose slot it takes in ``team_id``, or None if that list can't field it."""
        return dict(self.replaces).get(team_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            **self.position.as_dict(),
            "replaces": dict(self.replaces),
            "gains_experience": self.gains_experience,
            "learns_abilities": self.learns_abilities,
            "uses_potions": self.uses_potions,
            "referee_ban_check": self.referee_ban_check,
        }


@dataclass(frozen=True)
class RosterOptions:
    """Which optional material the coaches agreed to use (Optional Rules, pp. 18-19)."""

    allow_optional_teams: bool = True
    allow_extra_players: bool = False


@dataclass(frozen=True)
class TeamRoster:
    """A validated Basic team: the list and how many players of each position.

    ``entries`` follow the team list's order, an extra player right after the position it
    replaces; positions with no players are left out.
    """

    team: TeamList
    entries: tuple[tuple[Position, int], ...]

    @property
    def total(self) -> int:
        return sum(n for _, n in self.entries)

    def count(self, position_id: str) -> int:
        return sum(n for p, n in self.entries if p.id == position_id)

    def as_dict(self) -> dict[str, Any]:
        return {
            "team": self.team.id,
            "players": [{"position": p.id, "name": p.name, "count": n} for p, n in self.entries],
            "total": self.total,
        }

    def __str__(self) -> str:
        players = ", ".join(f"{n} {p.name}" for p, n in self.entries)
        return f"{self.team.name}: {players} ({self.total} players)"


# --------------------------------------------------------------------------------------
# Loading


@dataclass(frozen=True)
class _Catalogue:
    teams: tuple[TeamList, ...]
    extras: tuple[ExtraPlayer, ...]
    frog: Position


def _attributes(raw: Mapping[str, int]) -> Attributes:
    return Attributes(**{name: int(raw[name]) for name in Attributes.FIELDS})


def _position(raw: Mapping[str, Any], *, max_: int | None = None) -> Position:
    return Position(
        id=raw["id"],
        name=raw["name"],
        max=int(raw["max"]) if max_ is None else max_,
        attributes=_attributes(raw["attributes"]),
        type=PlayerType(raw["type"]),
        innate_abilities=tuple(raw.get("innate_abilities", ())),
    )


def _team(raw: Mapping[str, Any]) -> TeamList:
    positions = tuple(_position(p) for p in raw["positions"])
    by_id = {p.id: p for p in positions}
    primary, secondary = raw["colours"]
    return TeamList(
        id=raw["id"],
        name=raw["name"],
        positions=positions,
        optional=bool(raw["optional"]),
        colours=(primary, secondary),
        default_lineup=tuple((by_id[pid], int(n)) for pid, n in raw["default_lineup"].items()),
        aliases=tuple(raw.get("aliases", ())),
        flavour=raw.get("flavour", ""),
        page=int(raw.get("page", 0)),
    )


def _extra(raw: Mapping[str, Any]) -> ExtraPlayer:
    return ExtraPlayer(
        position=_position(raw),
        replaces=tuple(raw["replaces"].items()),
        gains_experience=bool(raw["gains_experience"]),
        learns_abilities=bool(raw["learns_abilities"]),
        uses_potions=bool(raw["uses_potions"]),
        referee_ban_check=bool(raw["referee_ban_check"]),
        flavour=raw.get("flavour", ""),
        page=int(raw.get("page", 0)),
    )


@cache
def _catalogue() -> _Catalogue:
    text = resources.files("engine").joinpath("data/teams.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    (frog,) = (p for p in raw["temporary_profiles"] if p["id"] == "spell/giant-frog")
    return _Catalogue(
        teams=tuple(_team(t) for t in raw["teams"]),
        extras=tuple(_extra(e) for e in raw["extra_players"]),
        frog=_position(frog, max_=0),
    )


# --------------------------------------------------------------------------------------
# Forgiving name matching

T = TypeVar("T")


@dataclass(frozen=True)
class _Keys:
    """Normalised keys of one candidate.

    ``full``: names, their "/" parts, aliases and ids; ``words``: trailing words of the
    name, so "contraption" finds "Gnomish Contraptions"; ``qualified``: team-qualified ids
    ("night-elves/imps"), matched exactly only, or every position would share a prefix.
    """

    full: frozenset[str]
    words: frozenset[str]
    qualified: frozenset[str] = frozenset()


def _norm(text: str) -> str:
    """Case-insensitive and blind to spaces and punctuation: "Night-Elves" -> "nightelves"."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _singular(key: str) -> str:
    """Crude English singular, applied to both sides so "Imp" meets "Imps", "Dwarf" "Dwarves"."""
    if len(key) > 4 and key.endswith("ies"):
        return key[:-3] + "y"
    if len(key) > 4 and key.endswith("ves"):
        return key[:-3] + "f"
    if len(key) > 3 and key.endswith("men"):
        return key[:-3] + "man"
    if len(key) > 2 and key.endswith("s") and not key.endswith("ss"):
        return key[:-1]
    return key


def _keys_of(names: Iterable[str], ids: Iterable[str]) -> _Keys:
    full: set[str] = set()
    words: set[str] = set()
    for name in names:
        full.add(_norm(name))
        full.update(_norm(part) for part in name.split("/"))
        split = re.split(r"[\s/]+", name.strip())
        words.update(_norm(" ".join(split[i:])) for i in range(1, len(split)))
    qualified: set[str] = set()
    for ident in ids:
        head, _, tail = ident.rpartition("/")
        full.add(_norm(tail))
        if head:
            qualified.add(_norm(ident))
    full.discard("")
    words.discard("")
    return _Keys(frozenset(full), frozenset(words - full), frozenset(qualified - full))


def _position_keys(position: Position) -> _Keys:
    return _keys_of([position.name], [position.id])


def _team_keys(team: TeamList) -> _Keys:
    return _keys_of([team.name, *team.aliases], [team.id])


def _match(query: str, candidates: Sequence[tuple[T, _Keys]]) -> list[T]:
    """Candidates matching ``query``: exact keys first, then trailing words, then prefixes.

    The first tier with any match wins, so "Dwarves" is an exact hit on the Black Rock
    position before "Dwarven Centaurs" could match as a prefix.
    """
    q = _norm(query)
    if not q:
        return []
    qs = _singular(q)

    def exact(keys: frozenset[str]) -> bool:
        return q in keys or any(_singular(k) == qs for k in keys)

    def prefix(keys: frozenset[str]) -> bool:
        return any(k.startswith(q) or _singular(k).startswith(qs) for k in keys)

    tiers: tuple[Callable[[_Keys], bool], ...] = (
        lambda k: exact(k.full) or q in k.qualified,
        lambda k: exact(k.words),
        lambda k: prefix(k.full | k.words),
    )
    for test in tiers:
        found = [item for item, keys in candidates if test(keys)]
        if found:
            return list(dict.fromkeys(found))  # several keys of one item may match
    return []


def _close(query: str, candidates: Sequence[tuple[str, _Keys]]) -> list[str]:
    """Display names whose keys look like ``query`` (difflib), best first."""
    key_to_name: dict[str, str] = {}
    for name, keys in candidates:
        for key in keys.full | keys.words | keys.qualified:
            key_to_name.setdefault(key, name)
    hits = difflib.get_close_matches(_norm(query), list(key_to_name), n=8, cutoff=0.6)
    return list(dict.fromkeys(key_to_name[h] for h in hits))[:4]


def _quote(text: str) -> str:
    return f"'{text}'"


def _names(items: Iterable[Position | TeamList | ExtraPlayer]) -> str:
    return ", ".join(i.name for i in items)


def _ambiguous(query: str, key: str, names: Sequence[str]) -> AmbiguousNameError:
    return AmbiguousNameError(Refusal(key, text=_quote(query), text2=", ".join(names)), query=query, candidates=names)


# --------------------------------------------------------------------------------------
# Public lookups


def all_team_lists(include_optional: bool = True) -> tuple[TeamList, ...]:
    """Every team list in rulebook order; ``include_optional=False`` drops Orcs and Ratmen."""
    return tuple(t for t in _catalogue().teams if include_optional or not t.optional)


def team_list(name: str | TeamList) -> TeamList:
    """The team list called ``name`` (id, name, alias or unique prefix, any case/spacing)."""
    if isinstance(name, TeamList):
        return name
    teams = _catalogue().teams
    candidates = [(t, _team_keys(t)) for t in teams]
    found = _match(name, candidates)
    if len(found) == 1:
        return found[0]
    if found:
        raise _ambiguous(name, "roster.ambiguous_team_list", [f"{t.name} ({t.id})" for t in found])
    if not _norm(name):
        raise UnknownNameError(Refusal("roster.no_team_list", text=_names(teams)), query=name)
    close = _close(name, [(t.name, keys) for t, keys in candidates])
    if not close:
        why = Refusal("roster.unknown_team_list", text=_quote(name), text2=_names(teams))
    elif len(close) == 1:
        why = Refusal("roster.unknown_team_list_mean", text=_quote(name), text2=close[0])
    else:
        why = Refusal("roster.unknown_team_list_mean_or", text=_quote(name), text2=", ".join(close[:-1]), text3=close[-1])
    raise UnknownNameError(why, query=name, suggestions=close)


def extra_players(team: str | TeamList | None = None) -> tuple[ExtraPlayer, ...]:
    """The extra players (p. 19); with ``team``, only those that list may field."""
    extras = _catalogue().extras
    if team is None:
        return extras
    team_id = team_list(team).id
    return tuple(e for e in extras if e.replaced_position_id(team_id))


def extra_player(name: str) -> ExtraPlayer:
    """The extra player called ``name`` ("Impcrusher", "horror"...)."""
    extras = _catalogue().extras
    found = _match(name, [(e, _position_keys(e.position)) for e in extras])
    if len(found) == 1:
        return found[0]
    if found:
        raise _ambiguous(name, "roster.ambiguous_extra", [e.name for e in found])
    raise UnknownNameError(Refusal("roster.unknown_extra", text=_quote(name), text2=_names(extras)), query=name)


def giant_frog() -> Position:
    """Profile of a player turned into a giant frog by the Transformation spell (p. 19).

    The book gives no Type: Monster is our interpretation (rules analysis G51).
    """
    return _catalogue().frog


def position_by_id(position_id: str) -> Position:
    """Any profile by its exact id (team positions, extra players, the frog), for storage."""
    cat = _catalogue()
    every = [p for t in cat.teams for p in t.positions]
    every += [e.position for e in cat.extras] + [cat.frog]
    for p in every:
        if p.id == position_id:
            return p
    raise UnknownNameError(Refusal("roster.no_position_id", text=_quote(position_id)), query=position_id)


# --------------------------------------------------------------------------------------
# Lineups

_ITEM_SEPARATORS = re.compile(r"[,;\n]+|\s+(?:and|&|\+)\s+", re.IGNORECASE)
_COUNT_FIRST = re.compile(r"(?P<count>\d+)\s*(?:[x×*]\s+|[×*]\s*)?(?P<name>.*)", re.IGNORECASE)
# "x" needs a space before it, or "Sphinx 2" would lose its last letter.
_COUNT_LAST = re.compile(r"(?P<name>.*?)(?:\s+[x×]\s*|\s*[×*:(]\s*|\s*)(?P<count>\d+)\s*\)?", re.IGNORECASE)
_MAX_COUNT_DIGITS = 6  # far beyond any team; stops int() on absurd digit strings


def parse_lineup(text: str) -> dict[str, int]:
    """Read ``"6 imps, 2 hunters, 2 strikers"`` into ``{"imps": 6, "hunters": 2, ...}``.

    Items are separated by commas, semicolons, new lines or "and"; each is a count and a
    position name in either order ("6 imps", "6x imps", "imps x6", "imps: 6", "imps (6)").
    A name alone counts 1. Names are kept as written (resolved later, against a team list);
    the same name twice adds up. Raises :class:`LineupSyntaxError`.
    """
    counts: dict[str, int] = {}
    for item in _ITEM_SEPARATORS.split(text):
        item = " ".join(item.split())
        if not item:
            continue
        match = _COUNT_FIRST.fullmatch(item) or _COUNT_LAST.fullmatch(item)
        if match:
            digits, name = match["count"], match["name"].strip()
        else:
            digits, name = "1", item
        if any(ch.isdigit() for ch in name):
            raise LineupSyntaxError.of("lineup.unreadable", text=_quote(item))
        if not _norm(name):
            raise LineupSyntaxError.of("lineup.no_name", text=_quote(item))
        if len(digits.lstrip("0")) > _MAX_COUNT_DIGITS:
            raise LineupSyntaxError.of("lineup.count", text=_quote(item))
        counts[name] = counts.get(name, 0) + int(digits)
    if not counts:
        raise LineupSyntaxError.of("lineup.empty")
    return counts


def _other_lists(name: str, team: TeamList) -> list[str]:
    """The other team lists a name belongs to (mixing lists is forbidden)."""
    owners = []
    for other in _catalogue().teams:
        if other.id == team.id:
            continue
        q, qs = _norm(name), _singular(_norm(name))
        for p in other.positions:
            keys = _keys_of([p.name, f"{other.name} {p.name}"], [p.id])
            exact = keys.full | keys.qualified
            # Exact hits only: a prefix would blame half the league for a typo.
            if q in exact or qs in {_singular(k) for k in exact}:
                owners.append(other.name)
                break
    return owners


def _resolve(name: str, team: TeamList, pool: Sequence[Position], options: RosterOptions) -> Position | Refusal:
    """The position ``name`` means in ``team`` (``pool`` may include extras), or a problem."""
    found = _match(name, [(p, _position_keys(p)) for p in pool])
    if len(found) == 1:
        return found[0]
    if found:
        return Refusal("roster.ambiguous_position", text=_quote(name), text2=team.name, text3=", ".join(p.name for p in found))
    extras = _catalogue().extras
    wanted = _match(name, [(e, _position_keys(e.position)) for e in extras])
    if len(wanted) == 1:
        extra = wanted[0]
        if not options.allow_extra_players:
            return Refusal("roster.extra_not_allowed", text=extra.name)
        homes = []
        for team_id, position_id in extra.replaces:
            home = team_list(team_id)
            homes.append(f"{home.name} (in a {home.position(position_id).name} slot)")
        return Refusal("roster.extra_not_available", text=extra.name, text2=team.name, text3=" and ".join(homes))
    owners = _other_lists(name, team)
    if len(owners) == 1:
        return Refusal("roster.position_of_other", text=_quote(name), text2=team.name, text3=owners[0],
                       text4=_names(team.positions))
    if owners:
        return Refusal("roster.position_of_others", text=_quote(name), text2=team.name, text3=_names(team.positions))
    return Refusal("roster.not_position", text=_quote(name), text2=team.name, text3=_names(team.positions))


def validate_basic_team(
    team: str | TeamList,
    lineup: str | Mapping[str, int],
    *,
    options: RosterOptions = RosterOptions(),
) -> TeamRoster:
    """Check a Basic team: exactly 10 players from one team list, within its maxima.

    ``lineup`` is a lineup string (see :func:`parse_lineup`) or a mapping of position
    (id or forgiving name) to count. Every problem is collected and raised together as a
    :class:`TeamValidationError`; an unknown or ambiguous team raises the lookup error.
    """
    tl = team_list(team)
    counts: Mapping[Any, Any] = parse_lineup(lineup) if isinstance(lineup, str) else lineup
    extras = extra_players(tl) if options.allow_extra_players else ()
    pool = [*tl.positions, *(e.position for e in extras)]

    problems: list[Refusal] = []
    if tl.optional and not options.allow_optional_teams:
        problems.append(Refusal("roster.optional_not_allowed", text=tl.name))

    asked: dict[str, int] = {}  # position id -> players asked for
    total = 0  # over every readable count, so a misspelt name doesn't also skew the size
    for raw_name, raw_count in counts.items():
        label = raw_name if isinstance(raw_name, str) else repr(raw_name)
        if isinstance(raw_count, bool) or not isinstance(raw_count, int):
            problems.append(Refusal("roster.count_not_whole", text=_quote(label), text2=repr(raw_count)))
            continue
        if raw_count < 0:
            problems.append(Refusal("roster.count_negative", text=_quote(label), n=raw_count))
            continue
        total += raw_count
        if not isinstance(raw_name, str):
            problems.append(Refusal("roster.name_not_text", text=label))
            continue
        resolved = _resolve(raw_name, tl, pool, options)
        if isinstance(resolved, Refusal):
            problems.append(resolved)
        else:
            asked[resolved.id] = asked.get(resolved.id, 0) + raw_count

    for position in tl.positions:
        sharing = [e for e in extras if e.replaced_position_id(tl.id) == position.id]
        in_slot = asked.get(position.id, 0) + sum(asked.get(e.id, 0) for e in sharing)
        if in_slot <= position.max:
            continue
        if any(asked.get(e.id, 0) for e in sharing):
            parts = [(asked.get(position.id, 0), position.name)]
            parts += [(asked.get(e.id, 0), e.name) for e in sharing]
            problems.append(Refusal(
                "roster.too_many_together", text=tl.name, n=position.max, text2=position.name,
                text3=" and ".join(e.name for e in sharing), text4=" and ".join(f"{n} {what}" for n, what in parts if n),
            ))
        else:
            problems.append(Refusal("roster.too_many", text=tl.name, n=position.max, text2=position.name, n2=in_slot))
    for extra in extras:
        n = asked.get(extra.id, 0)
        if n > extra.position.max:
            problems.append(Refusal("roster.too_many", text=tl.name, n=extra.position.max, text2=extra.name, n2=n))

    if total != BASIC_TEAM_SIZE:
        if total < BASIC_TEAM_SIZE:
            problems.append(Refusal("roster.size_add", n=BASIC_TEAM_SIZE, n2=total, n3=BASIC_TEAM_SIZE - total))
        else:
            problems.append(Refusal("roster.size_remove", n=BASIC_TEAM_SIZE, n2=total, n3=total - BASIC_TEAM_SIZE))

    if problems:
        raise TeamValidationError(tl, problems)

    entries: list[tuple[Position, int]] = []
    for position in tl.positions:
        if asked.get(position.id):
            entries.append((position, asked[position.id]))
        for extra in extras:
            if extra.replaced_position_id(tl.id) == position.id and asked.get(extra.id):
                entries.append((extra.position, asked[extra.id]))
    return TeamRoster(team=tl, entries=tuple(entries))


def default_roster(team: str | TeamList) -> TeamRoster:
    """The list's default Basic lineup (balanced, for demos and the AI), validated."""
    tl = team_list(team)
    return validate_basic_team(tl, {p.id: n for p, n in tl.default_lineup})


#: Plurals the endings below would get wrong ("Zombies" is not "Zomby").
_IRREGULAR = {"Zombies": "Zombie"}


def singular_name(name: str, *, edition: int = 2) -> str:
    """A player's name from his position's printed name: "Ogres/Cyclops/Minotaurs" -> "Ogre",
    "Safeties" -> "Safety", "Dwarves" -> "Dwarf", "Imps" -> "Imp", "Zombies" -> "Zombie".
    ``edition``: a match's rules edition (``engine.state.RULES_EDITION``); edition 1 named a
    Zombie "Zomby", and its stored matches keep the names they were created with."""
    first = name.split("/")[0].split("(")[0].strip()
    if first in _IRREGULAR and edition >= 2:
        return _IRREGULAR[first]
    for plural_end, single in (("ies", "y"), ("ves", "f"), ("s", "")):
        if first.endswith(plural_end) and not first.endswith("ss"):
            return first[: -len(plural_end)] + single
    return first
