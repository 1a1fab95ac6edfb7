"""Short rule summaries for /rules, in the bot's words (docs/rules.md has the reasoning).

The Basic rules, the Advanced rules' team support, potions and the wizard, and one topic per
ability, named as printed (``Lead Pass``; ``Lancer précis`` in French). The texts live in the
bot's catalogues (``rules.<slug>.title`` and ``.text`` in ``bot/locales/<language>.json``), the
abilities' names and summaries in the ability catalogue (engine/data/abilities.json). A topic's
English title is its id: /rules sends it as the autocomplete value whatever the language shown.
"""

from __future__ import annotations

from bot.common.i18n import tr
from service.vocabulary import ABILITIES, Ability, basic_of

__all__ = ["TOPICS", "ability_topic", "topics", "find_topic", "topic_choices", "BASIC_SLUGS", "ADVANCED_SLUGS"]

BASIC_SLUGS = ("challenge-dice", "momentum", "sim", "jog", "facing", "disengage", "pickup", "throw", "interception",
               "catch", "tackle", "shove", "dash", "standing", "injury", "referee", "faceoff", "setup", "replacement",
               "goal", "turns", "board")
ADVANCED_SLUGS = ("abilities", "experience", "team-support", "bribed-referee", "cheerleaders", "kegs", "potions", "wizard",
                  "options", "french-variants", "tournament")


def _group(a: Ability, language: str) -> str:
    if a.general:
        return tr(language, "rules.group.general", attribute=tr(language, f"attribute.{a.group}"))
    return tr(language, "rules.group.type", type=tr(language, f"type.{a.group}"))


def ability_topic(a: Ability, language: str = "en") -> str:
    """``Skill (General), Advanced (needs Agile): summary``."""
    level = tr(language, "rules.level.basic") if a.basic else tr(language, "rules.level.advanced",
                                                                  basic=basic_of(a.group).name_in(language))
    return tr(language, "rules.ability", group=_group(a, language), level=level, summary=a.summary_in(language))


def topics(language: str = "en") -> dict[str, tuple[str, str]]:
    """Every topic: its English title (the id) -> (title, text) in ``language``."""
    out = {tr("en", f"rules.{s}.title"): (tr(language, f"rules.{s}.title"), tr(language, f"rules.{s}.text"))
           for s in BASIC_SLUGS + ADVANCED_SLUGS}
    out.update({a.name: (a.name_in(language), ability_topic(a, language)) for a in ABILITIES.values()})
    return out


#: The English topics, title -> text.
TOPICS: dict[str, str] = {k: text for k, (_, text) in topics().items()}


def _norm(text: str) -> str:
    return text.lower().replace("-", " ").replace("_", " ").strip()


def find_topic(asked: str, language: str = "en") -> tuple[str, str] | None:
    """The topic a member asked for (an id, or a title in his language or in English, whole or
    part), as (title, text) in ``language``."""
    want = _norm(asked)
    table = topics(language)
    names = [(key, _norm(key)) for key in table] + [(key, _norm(title)) for key, (title, _) in table.items()]
    key = next((k for k, n in names if n == want), None) or next((k for k, n in names if want in n), None)
    return table[key] if key is not None else None


def topic_choices(typed: str, language: str = "en") -> list[tuple[str, str]]:
    """Autocomplete: (title in ``language``, English id) for the topics matching what is typed."""
    cur = _norm(typed)
    return [(title, key) for key, (title, _) in topics(language).items()
            if cur in _norm(title) or cur in _norm(key)]
