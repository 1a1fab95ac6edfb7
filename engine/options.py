"""Rule options and profiles: the Optional Rules (pp. 18-19), the French 0.0.6 differences and
the French text's tournament rules, as one ``RuleOptions`` a match or a league chooses once.

Each French difference is a named variant (``VARIANTS``); the rule it changes asks
``variant(state, "fr_...")`` where that rule lives, so the English behaviour stays the default.
``PROFILES`` bundle options (``beginner``: the two "HEAVILY recommended" rules; ``fr-0.0.6``:
every French difference; ``tournament``). ``parse_rules`` reads a rules string such as
``"goals=2 timed double star2 fr_failed_disengage_sim"`` (the bot's ``rules`` option, the
console's ``--rules``, a league's settings), and ``describe`` says in one line what is in force,
in English or French (``options.*`` keys of ``engine/data/text``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .errors import MalformedInputError
from .i18n import DEFAULT, Catalogue
from .rosters import RosterOptions
from .state import RULES_EDITION, MatchState, RuleOptions

__all__ = [
    "VARIANTS",
    "PROFILES",
    "EXTRA_PLAYERS",
    "variant",
    "profile",
    "parse_rules",
    "validate",
    "describe",
    "roster_options",
    "rules_string",
]

#: The French 0.0.6 differences a group may pick (rules-analysis section 3, by row number).
VARIANTS: dict[str, str] = {
    "fr_challenges_free": "challenges cost no Jog, even after the last pace (FR 1)",
    "fr_shove_limit": "at most half his Jog (rounded up) Shoves an action (FR 2-3)",
    "fr_failed_shove_pace": "a failed Shove costs 1 pace to go on (FR 4)",
    "fr_dash": "the French Dash: one hex, or one challenge with an extra die, then the end (FR 5)",
    "fr_stand_up": "one stand-up a team turn, none on a turn after a SiM (FR 6)",
    "fr_failed_disengage_sim": "a failed Disengage is a SiM (FR 7)",
    "fr_catch_sim": "a failed catch that leaves the ball with an opponent is a SiM, throw or not (FR 12)",
    "fr_injury_table": "flop always career-ending, 0 always a lasting injury (FR 18)",
    "fr_faceoff_test": "a team that cannot set up a face-off player loses the Test, not the game (FR 21)",
    "fr_scorer_xp": "the scorer gains 2 XP (FR 28)",
    "fr_slippery": "Slippery ignores every opposing modifier (FR 33)",
    "fr_rally": "Rally: never placed Down on a Down result (FR 34)",
    "fr_pummel": "Pummel: up to 3 dice fewer on the Tackle, as many successes off the Injury (FR 35)",
    "fr_plough": "Plough costs 1 counter and no Jog (FR 36)",
    "fr_timed_any_turn": "timed game: a card for every turn of either team (FR 43)",
    "fr_impcrusher": "the Impcrusher has Cheapshot, Ruthless, Pummel and Plough (FR 41)",
    "fr_double_momentum": "double movement, the first player's counters left to the second (FR 44)",
}

#: OP6 extra players by option id -> their roster position id.
EXTRA_PLAYERS: dict[str, str] = {"samhaino-horror": "extra/samhaino-horror", "impcrusher": "extra/impcrusher"}

_FR = tuple(VARIANTS)

#: Named bundles of options; a rules string may change any of them afterwards.
PROFILES: dict[str, dict[str, Any]] = {
    "standard": {},
    "beginner": {"simple_faceoff": True, "star2": True},
    "fr-0.0.6": {"variants": _FR},
    # "JOUER EN TOURNOIS": the optional face-off and star rules, the event deck (a card a turn
    # of either team, as the French timed game counts), the first goal ends the game.
    "tournament": {
        "tournament": True, "timed": True, "simple_faceoff": True, "star2": True, "goals_to_win": 1,
        "variants": ("fr_timed_any_turn",), "turn_limit": 40,
    },
}

_FLAGS = {"timed": "timed", "double": "double", "star2": "star2", "simple_faceoff": "simple_faceoff",
          "simple-faceoff": "simple_faceoff", "advanced": "advanced", "optional_teams": "optional_teams",
          "optional-teams": "optional_teams", "tournament": "tournament"}
_NUMBERS = {"goals": ("goals_to_win", 0, 3), "decks": ("decks", 1, 2), "turns": ("turn_limit", 0, 200),
            "clock": ("clock_hours", 0, 168)}


def variant(state: MatchState | RuleOptions, name: str) -> bool:
    """Whether the French difference ``name`` is in force in this match."""
    assert name in VARIANTS, f"unknown variant {name!r}"
    options = state if isinstance(state, RuleOptions) else state.options
    return name in options.variants


def profile(name: str, **changes: Any) -> RuleOptions:
    """A profile's options, with ``changes`` on top."""
    key = name.strip().lower()
    if key in ("fr", "french", "fr-0.0.6", "fr_0.0.6"):
        key = "fr-0.0.6"
    if key not in PROFILES:
        raise MalformedInputError.of("rules.unknown_profile", text=repr(name), text2=", ".join(PROFILES))
    return validate(dataclasses.replace(RuleOptions(profile=key), **{**PROFILES[key], **changes}))


def parse_rules(text: str, base: RuleOptions | None = None) -> RuleOptions:
    """Read a rules string on top of ``base``: words separated by spaces or commas.

    ``profile=NAME`` (or a profile's name alone) starts from that profile; ``goals=N``,
    ``decks=N``, ``turns=N``, ``clock=N``; a flag (``timed``, ``double``, ``star2``,
    ``simple_faceoff``, ``advanced``, ``optional_teams``, ``tournament``) turns it on and
    ``no-FLAG`` off; a variant id (``fr_failed_disengage_sim``) adds it and ``no-ID`` drops
    it; ``extras=samhaino-horror+impcrusher`` or ``extras=none`` chooses the extra players.
    """
    opts = base or RuleOptions()
    changes: dict[str, Any] = {}
    variants = list(opts.variants)
    words = [w for w in text.replace(",", " ").split() if w]
    for word in words:
        low = word.lower()
        key, _, value = low.partition("=")
        if key == "profile" or (not value and (low in PROFILES or low in ("fr", "french"))):
            opts = profile(value or low)
            changes, variants = {}, list(opts.variants)
            continue
        negate = key.startswith("no-") or key.startswith("no_")
        name = key[3:] if negate else key
        if value and key in _NUMBERS:
            field, low_, high = _NUMBERS[key]
            if not value.isdigit() or not low_ <= int(value) <= high:
                raise MalformedInputError.of("rules.number", text=key, n=low_, n2=high, text2=repr(value))
            changes[field] = int(value)
        elif value and key == "extras":
            chosen = () if value == "none" else tuple(v for v in value.replace("/", "+").split("+") if v)
            for e in chosen:
                if e not in EXTRA_PLAYERS:
                    raise MalformedInputError.of("rules.unknown_extra", text=repr(e), text2=", ".join([*EXTRA_PLAYERS, "none"]))
            changes["extra_players"] = chosen
        elif not value and name in _FLAGS:
            changes[_FLAGS[name]] = not negate
        elif not value and name in VARIANTS:
            if negate:
                variants = [v for v in variants if v != name]
            elif name not in variants:
                variants.append(name)
        else:
            known = ", ".join([*PROFILES, *_FLAGS, *(f"{k}=N" for k in _NUMBERS), "extras=...", *VARIANTS])
            raise MalformedInputError.of("rules.unknown", text=repr(word), text2=known)
    if "fr_double_momentum" in variants and "fr_double_momentum" not in opts.variants:
        changes.setdefault("double", True)  # the French wording of double movement turns it on
    if changes.get("timed") and "goals_to_win" not in changes and not opts.timed:
        changes["goals_to_win"] = 0  # "a timed game instead of the first to 1, 2 or 3 goals"
    ordered = tuple(v for v in VARIANTS if v in variants)
    return validate(dataclasses.replace(opts, **changes, variants=ordered))


def validate(opts: RuleOptions) -> RuleOptions:
    """Refuse options that cannot be played; return them unchanged."""
    if not (opts.timed and 0 <= opts.goals_to_win <= 3) and not 1 <= opts.goals_to_win <= 3:
        raise MalformedInputError.of("rules.goals")
    if not 1 <= opts.decks <= 2:
        raise MalformedInputError.of("rules.decks")
    if opts.turn_limit < 0:
        raise MalformedInputError.of("rules.turns")
    if not 1 <= opts.edition <= RULES_EDITION:
        raise MalformedInputError.of("rules.edition", n=1, n2=RULES_EDITION, n3=opts.edition)
    unknown = [v for v in opts.variants if v not in VARIANTS]
    if unknown:
        raise MalformedInputError.of("rules.unknown_variant", text=repr(unknown[0]), text2=", ".join(VARIANTS))
    bad = [e for e in opts.extra_players if e not in EXTRA_PLAYERS]
    if bad:
        raise MalformedInputError.of("rules.unknown_extra", text=repr(bad[0]), text2=", ".join(EXTRA_PLAYERS))
    if opts.tournament and not opts.timed:
        raise MalformedInputError.of("rules.tournament_timed")
    if opts.goals_to_win == 0 and opts.turn_limit == 0 and not opts.timed:
        raise MalformedInputError.of("rules.no_limit_timed")
    return opts


def roster_options(opts: RuleOptions) -> RosterOptions:
    """What team lists and extra players these rules let a team field (OP5, OP6)."""
    return RosterOptions(allow_optional_teams=opts.optional_teams, allow_extra_players=bool(opts.extra_players))


def rules_string(opts: RuleOptions) -> str:
    """The rules string that rebuilds ``opts`` from its profile (for a league's settings)."""
    base = profile(opts.profile) if opts.profile in PROFILES else RuleOptions()
    words = [f"profile={base.profile}"] if base.profile != "standard" else []
    for flag in ("timed", "double", "star2", "simple_faceoff", "advanced", "optional_teams", "tournament"):
        if getattr(opts, flag) != getattr(base, flag):
            words.append(flag if getattr(opts, flag) else f"no-{flag}")
    for key, (field, _, _) in _NUMBERS.items():
        if getattr(opts, field) != getattr(base, field):
            words.append(f"{key}={getattr(opts, field)}")
    if opts.extra_players != base.extra_players:
        words.append("extras=" + ("+".join(opts.extra_players) or "none"))
    words += [v for v in opts.variants if v not in base.variants]
    words += [f"no-{v}" for v in base.variants if v not in opts.variants]
    return " ".join(words)


def describe(opts: RuleOptions, language: str = DEFAULT) -> str:
    """The rules in force, in one line for ``/match status`` and the console, in ``language``
    (``options.*`` keys of the narration catalogue; English names the variants by their ids)."""
    tx = Catalogue("engine", "data/text", language)
    sep = tx.t("options.list_sep")
    parts = [tx.t("options.profile", profile=tx.get(f"options.profile.{opts.profile}", opts.profile))]
    if opts.timed:
        deck = tx.t("options.deck.event") if opts.tournament else tx.t("options.deck.cards", n=52 * opts.decks)
        when = tx.t("options.when.every_turn" if "fr_timed_any_turn" in opts.variants else "options.when.loser")
        parts.append(tx.t("options.timed", deck=deck, when=when))
    if opts.goals_to_win:
        parts.append(tx.t("options.goals.other" if opts.goals_to_win > 1 else "options.goals.one", n=opts.goals_to_win))
    else:
        parts.append(tx.t("options.no_goal_limit"))
    if opts.turn_limit:
        parts.append(tx.t("options.turn_limit", n=opts.turn_limit))
    for flag in ("double", "star2", "simple_faceoff", "advanced", "tournament"):
        if getattr(opts, flag):
            parts.append(tx.t(f"options.{flag}"))
    if not opts.optional_teams:
        parts.append(tx.t("options.no_optional_teams"))
    if tuple(opts.extra_players) != tuple(EXTRA_PLAYERS):
        names = sep.join(tx.get(f"options.extra.{e}", e) for e in opts.extra_players)
        parts.append(tx.t("options.extra_players", players=names or tx.t("options.extra_players.none")))
    if opts.variants:
        if len(opts.variants) < len(VARIANTS):
            parts.append(tx.t("options.variants", variants=sep.join(tx.get(f"options.variant.{v}", v) for v in opts.variants)))
        else:
            parts.append(tx.t("options.variants.all"))
    if opts.clock_hours:
        parts.append(tx.t("options.clock", n=opts.clock_hours))
    return tx.t("options.sep").join(parts)
