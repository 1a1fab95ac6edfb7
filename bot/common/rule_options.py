"""The rules a challenge or a league chooses: the ``profile`` choice, the ``rules`` string with
its autocomplete, and the line ``/match status`` shows. The engine (``engine/options.py``)
reads and checks the words; here they are only offered and passed on."""

from __future__ import annotations

import dataclasses

from discord import app_commands

from bot.common.i18n import tr
from service.names import safe_name
from service.vocabulary import EXTRA_PLAYERS, VARIANTS, MatchState, RuleOptions, parse_rules, score
from service.vocabulary import describe_rules as describe

__all__ = ["PROFILE_CHOICES", "rule_options", "rules_autocomplete", "status_line", "RULES_HELP"]

PROFILE_CHOICES = [
    app_commands.Choice(name="standard (the English rules)", value="standard"),
    app_commands.Choice(name="beginner (simplified face-off, star = 2 successes)", value="beginner"),
    app_commands.Choice(name="fr-0.0.6 (every French 0.0.6 difference)", value="fr-0.0.6"),
    app_commands.Choice(name="tournament (event deck, first goal, tournament scoring)", value="tournament"),
]

RULES_HELP = 'optional rules on top of the profile, e.g. "timed double fr_failed_disengage_sim" (/rules Options)'

_WORDS = [
    "timed", "double", "star2", "simple_faceoff", "advanced", "no-optional_teams", "goals=1", "goals=2", "goals=3",
    "goals=0", "decks=2", "turns=40", "extras=none", *(f"extras={e}" for e in EXTRA_PLAYERS), *VARIANTS,
]


def rule_options(profile: str | None, rules: str | None, *, goals: int | None = None, clock_hours: int = 0,
                 advanced: bool = False) -> RuleOptions:
    """The options a command's parameters choose (the engine refuses bad words)."""
    words = [f"profile={profile or 'standard'}", rules or ""]
    if goals is not None:
        words.append(f"goals={goals}")
    opts = parse_rules(" ".join(words))
    return dataclasses.replace(opts, clock_hours=clock_hours or opts.clock_hours, advanced=advanced or opts.advanced)


def rules_suggestions(current: str) -> list[tuple[str, str]]:
    """Completions of the rules string typed so far: the words before stay, the last one grows."""
    head, _, last = current.rpartition(" ")
    used = set(head.split())
    out = []
    for w in _WORDS:
        if w.startswith(last.lower()) and w not in used:
            text = f"{head} {w}".strip()
            out.append((text, text))
    return out[:25]


async def rules_autocomplete(interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in rules_suggestions(current)]


def status_line(state: MatchState, language: str = "en") -> str:
    """The rules in force, the cards left and, once a tournament game is over, its points, in
    ``language`` (the post's)."""
    line = tr(language, "match.rules", rules=describe(state.options, language))
    if state.deck is not None:
        line += " " + tr(language, "match.status.cards_left", n=state.deck.left)
    if state.options.turn_limit:
        line += " " + tr(language, "match.status.turns", turns=state.turns, limit=state.options.turn_limit)
    if state.options.tournament and state.winner is not None:
        pts = score(state)
        line += " " + tr(language, "match.status.tournament_points", west=safe_name(state.teams["west"].name), west_points=pts["west"],
                         east=safe_name(state.teams["east"].name), east_points=pts["east"])
    return line
