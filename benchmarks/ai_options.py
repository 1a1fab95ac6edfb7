"""Which Advanced options the AI coach uses, counted from the events of AI-v-AI Advanced matches.

Run: ``.venv/bin/python benchmarks/ai_options.py [--matches N] [--seed S] [--level hard]``.
Teams and options are drawn as ``elfball fuzz --advanced`` draws them (``engine.fuzz.random_entries``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from engine.ai import AICoach, play_match
from engine.dice import SeededDice
from engine.events import AbilityUsed, Event, ReplacementMade, SpellCast, SupportUsed, Taunted
from engine.fuzz import random_entries

__all__ = ["OPTIONS", "count_options", "option_of"]

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


def count_options(matches: int, seed: int = 0, level: str = "hard") -> tuple[Counter[str], Counter[str]]:
    """(matches in which each option was used, times it was used) over ``matches`` matches."""
    in_matches: Counter[str] = Counter()
    uses: Counter[str] = Counter()
    for s in range(seed, seed + matches):
        rng = random.Random(s)
        west, east, options = random_entries(rng, advanced=True)
        seen: set[str] = set()

        def on(state, side, cmd, events):  # type: ignore[no-untyped-def]
            for ev in events:
                o = option_of(ev)
                if o is not None:
                    uses[o] += 1
                    seen.add(o)

        coaches = {"west": AICoach(random.Random(s), level=level), "east": AICoach(random.Random(s + 1), level=level)}
        play_match(west, east, coaches, SeededDice(s), options=options, on_command=on)
        in_matches.update(seen)
    return in_matches, uses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    started = time.perf_counter()
    in_matches, uses = count_options(args.matches, args.seed, args.level)
    print(f"{args.matches} AI-v-AI Advanced matches ({args.level}), seeds {args.seed}-{args.seed + args.matches - 1},"
          f" {time.perf_counter() - started:.0f} s")
    for o in OPTIONS:
        print(f"{o:<16} used {uses[o]:>5} times, in {in_matches[o]:>3} matches")


if __name__ == "__main__":
    main()
