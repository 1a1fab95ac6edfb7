"""Which Advanced options AI coaches use, counted from the events of their matches (issue 22).

``option_of(event)`` names the option an event shows; ``count_options`` plays AI-v-AI Advanced
matches with teams drawn as ``elfball fuzz --advanced`` draws them (``engine.random_entries``)
or, with ``rich=True``, teams whose players learn the rarer abilities first
(``ability_rich_entry``), and counts. ``benchmarks/ai_options.py`` prints the counts.
"""

from __future__ import annotations

import random
from collections import Counter

from engine import (
    ABILITIES,
    SUPPORT_LIMITS,
    AbilityUsed,
    Command,
    Event,
    MatchState,
    PlayerEntry,
    ReplacementMade,
    RuleOptions,
    SeededDice,
    Side,
    SpellCast,
    SupportUsed,
    Taunted,
    TeamEntry,
    TeamList,
    all_team_lists,
    basic_of,
    default_roster,
    learnable,
    random_entries,
)

from .coach import AICoach
from .play import play_match

__all__ = ["OPTIONS", "ability_rich_entry", "count_options", "option_of"]

#: The options issue 22 asks the AI to use, by the name the count gives them.
OPTIONS = ("ability move", "tackle ability", "react", "taunt", "quickling", "potion", "wizard", "cheer",
           "keg", "replacement")

_MOVES = ("ruthless", "goalie", "beeline", "teammate", "burst", "shamble", "swarm", "lead-pass")
_TACKLES = ("cheapshot", "cutblock", "pummel", "steal")


def option_of(ev: Event) -> str | None:
    """The option an event shows the coach used, if any."""
    if isinstance(ev, AbilityUsed):
        if ev.ability in _MOVES:
            return "ability move"
        if ev.ability in _TACKLES:
            return "tackle ability"
        if ev.ability in ("react", "quickling"):
            return ev.ability  # a Taunt shows as ``Taunted`` (a flopped one too)
    if isinstance(ev, Taunted):
        return "taunt"
    if isinstance(ev, SupportUsed):
        return {"potions": "potion", "cheerleaders": "cheer", "kegs": "keg"}.get(ev.item)  # the spell counts the Wizard
    if isinstance(ev, SpellCast):
        return "wizard"
    if isinstance(ev, ReplacementMade):
        return "replacement"
    return None


#: What ``ability_rich_entry`` teaches first: the abilities behind the options above.
RARE = ("taunt", "quickling", "swarm", "react", "beeline", "goalie", "ruthless", "teammate", "burst", "shamble",
        "lead-pass", "steal", "cutblock", "pummel", "cheapshot")


def ability_rich_entry(tl: TeamList) -> TeamEntry:
    """``tl``'s default lineup, each player learning up to three abilities (``RARE`` first,
    as ``learnable`` allows), with all the team support there is."""
    roster = default_roster(tl)
    careers: list[PlayerEntry | None] = []
    for pos, n in roster.entries:
        for _ in range(n):
            known = list(pos.innate_abilities)
            for _ in range(3):
                can = [a.id for a in learnable(str(pos.type), known, race=tl.id)]
                # A rare ability, else the Basic one of its group that opens it.
                opening = [basic_of(ABILITIES[r].group).id for r in RARE if r in ABILITIES]
                pick = next((r for r in (*RARE, *opening) if r in can), None)
                if pick is None:
                    break
                known.append(pick)
            learned = tuple(a for a in known if a not in pos.innate_abilities)
            careers.append(PlayerEntry(learned) if learned else None)
    return TeamEntry(tl.name, roster, players=tuple(careers), support=tuple(SUPPORT_LIMITS.items()))


def count_options(matches: int, seed: int = 0, level: str = "hard", *, rich: bool = False, search: bool | None = None,
                  fallbacks: list[int] | None = None) -> tuple[Counter[str], Counter[str]]:
    """(matches in which each option was used, times it was used) over ``matches`` matches
    (``fallbacks`` gets each coach's count of refused plans; ``search``: False plays the level
    without its search, which picks who acts and weighs the carrier's and a loose ball's
    commands against plain alternatives but never adds an option, and is many times faster)."""
    in_matches: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    lists = all_team_lists()
    for s in range(seed, seed + matches):
        rng = random.Random(s)
        if rich:
            w, e = rng.sample(lists, 2)
            west, east = ability_rich_entry(w), ability_rich_entry(e)
            options = RuleOptions(goals_to_win=1, advanced=True)
        else:
            west, east, options = random_entries(rng, advanced=True)
        seen: set[str] = set()

        def on(state: MatchState, side: Side, cmd: Command, events: list[Event], seen: set[str] = seen) -> None:
            for ev in events:
                o = option_of(ev)
                if o is not None:
                    uses[o] += 1
                    seen.add(o)

        coaches: dict[Side, AICoach] = {"west": AICoach(random.Random(s), level=level, search=search),
                                        "east": AICoach(random.Random(s + 1), level=level, search=search)}
        play_match(west, east, coaches, SeededDice(s), options=options, on_command=on)
        in_matches.update(seen)
        if fallbacks is not None:
            fallbacks += [c.fallbacks for c in coaches.values()]
    return in_matches, uses

