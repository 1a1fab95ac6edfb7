"""/help (French: /aide): the bot's commands as the member's Discord shows them.

- ``/help``: an ephemeral overview, one embed with a field per section (starting a match, playing
  a turn, the Advanced rules' actions, during a match, teams, leagues, rules and odds,
  preferences), each command by its name in the member's language and its one-line description.
- ``/help command:``: one command (or group): its description, how to type it, its options as the
  member's client shows them (name, description, required or not, range, choices), an example
  for the main play commands (``help.example.<path, dots for spaces>`` in ``bot/locales``) and
  the ``/rules`` topic that explains it.

Nothing lists the commands a second time: the names and descriptions come from the live command
tree (``interaction.client.tree``) and, for French, from the command catalogue
(``bot/locales/commands/fr.json``), as ``CommandTranslator`` gives them to Discord. ``SECTIONS``
only *places* commands (a group's path places all its subcommands not placed elsewhere); a
command placed nowhere still shows, under "Other commands", and ``unplaced`` (tested) names it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import ElfballBot
from bot.common.i18n import catalogue, command_catalogue, languages, tr
from bot.common.reply import Refusal, refuse, split_lines
from bot.lookup.rules_topics import ADVANCED_SLUGS, BASIC_SLUGS
from service.vocabulary import ABILITIES, LANGUAGES, language_of

__all__ = ["SECTIONS", "RULE_TOPICS", "Help", "setup", "leaves", "walk", "shown", "section_of", "unplaced", "sections",
           "overview", "detail", "example_key", "find_command", "command_choices", "Ambiguous", "FIELD_LIMIT",
           "EMBED_TOTAL"]

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group

#: Where each command goes in the overview, in order: (section key, command or group paths).
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("start", ("match challenge", "match accept", "match decline", "setup")),
    ("turn", ("act", "move", "face", "stand", "throw", "tackle", "shove", "dash", "end", "replace")),
    ("advanced", ("cheer", "quickling", "taunt", "potion", "spell")),
    ("match", ("match status", "match describe", "match log", "undo", "match replay", "match verify",
               "match concede", "match abandon", "match forfeit")),
    ("teams", ("team",)),
    ("leagues", ("league", "ladder")),
    ("rules", ("learn", "rules", "odds", "roll", "help")),
    ("preferences", ("preferences", "limits")),
)
#: The section of commands ``SECTIONS`` forgot (none, tested).
OTHER = "other"
#: The ``/rules`` topic that explains a command: a slug of ``rules.<slug>.title`` or an ability id.
RULE_TOPICS: dict[str, str] = {
    "match challenge": "options", "setup": "setup", "setup place": "setup", "setup auto": "setup", "act": "turns",
    "move": "jog", "face": "facing", "stand": "standing", "throw": "throw", "tackle": "tackle", "shove": "shove",
    "dash": "dash", "replace": "replacement", "cheer": "cheerleaders", "quickling": "quickling", "taunt": "taunt",
    "potion": "potions", "spell": "wizard", "roll": "challenge-dice", "odds": "challenge-dice",
    "team buy": "team-support", "team sell": "team-support", "team learn": "abilities",
}
#: Discord's limits: an embed field's value, all the embeds of one message.
FIELD_LIMIT = 1024
EMBED_TOTAL = 6000
FIELDS_PER_EMBED = 25
#: An empty-looking field name: a section that goes on in the next field.
CONTINUED = "\u200b"


# --- the tree -----------------------------------------------------------------------------------------
def _slash(commands: Iterable[Any]) -> list[AnyCommand]:
    return [c for c in commands if isinstance(c, app_commands.Command | app_commands.Group)]


def walk(commands: Iterable[Any]) -> list[AnyCommand]:
    """Every slash command and group, depth first, in the tree's order."""
    out: list[AnyCommand] = []

    def visit(c: AnyCommand) -> None:
        out.append(c)
        for sub in getattr(c, "commands", []):
            visit(sub)

    for c in _slash(commands):
        visit(c)
    return out


def leaves(commands: Iterable[Any]) -> list[app_commands.Command[Any, ..., Any]]:
    """The commands one can type (not the groups)."""
    return [c for c in walk(commands) if isinstance(c, app_commands.Command)]


def _entry(path: str, language: str) -> dict[str, Any]:
    entry: dict[str, Any] = command_catalogue(language).get(path, {})
    return entry


def shown(command: AnyCommand, language: str) -> str:
    """``/partie defier``: the command as a client in ``language`` shows it."""
    parts: list[str] = []
    c: AnyCommand | None = command
    while c is not None:
        parts.append(_entry(c.qualified_name, language).get("name", c.name))
        c = c.parent
    return "/" + " ".join(reversed(parts))


def description(command: AnyCommand, language: str) -> str:
    return str(_entry(command.qualified_name, language).get("description", command.description))


def _option(command: AnyCommand, param: app_commands.Parameter, language: str) -> tuple[str, str]:
    """An option's (name, description) in ``language``; no description is "" (Discord's "…")."""
    options = _entry(command.qualified_name, language).get("options", {})
    name, text = options.get(param.name, (param.name, param.description))
    return str(name), "" if text == "…" else str(text)


def _choice(choice: app_commands.Choice[Any], language: str) -> str:
    return str(command_catalogue(language).get("choices", {}).get(str(choice.value), choice.name))


# --- the sections ---------------------------------------------------------------------------------------
def section_of(path: str) -> str | None:
    """The section placing ``path``: the most specific placement (the command, else its group)."""
    best: tuple[int, str] | None = None
    for key, placed in SECTIONS:
        for p in placed:
            if path == p or path.startswith(p + " "):
                if best is None or len(p) > best[0]:
                    best = (len(p), key)
    return best[1] if best else None


def unplaced(commands: Iterable[Any]) -> list[str]:
    """The commands no section places (they would show under "Other commands")."""
    return [c.qualified_name for c in leaves(commands) if section_of(c.qualified_name) is None]


def sections(commands: Iterable[Any]) -> list[tuple[str, list[app_commands.Command[Any, ..., Any]]]]:
    """(section key, its commands) in the order of ``SECTIONS``; commands in their placements'
    order, a group's in the tree's."""
    typed = leaves(commands)
    out: list[tuple[str, list[app_commands.Command[Any, ..., Any]]]] = []
    for key, placed in SECTIONS:
        mine: list[app_commands.Command[Any, ..., Any]] = []
        for p in placed:
            mine += [c for c in typed if c not in mine and section_of(c.qualified_name) == key
                     and (c.qualified_name == p or c.qualified_name.startswith(p + " "))]
        if mine:
            out.append((key, mine))
    rest = [c for c in typed if section_of(c.qualified_name) is None]
    if rest:
        out.append((OTHER, rest))
    return out


# --- the embeds -----------------------------------------------------------------------------------------
def _line(command: AnyCommand, language: str) -> str:
    return f"`{shown(command, language)}` — {description(command, language)}"


def _size(embed: discord.Embed) -> int:
    return len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "") + sum(
        len(f.name or "") + len(f.value or "") for f in embed.fields)


def _pack(title: str, text: str, fields: list[tuple[str, str]]) -> list[discord.Embed]:
    """One embed, or more if Discord's limits demand (25 fields, 6000 characters a message):
    each then goes in a message of its own."""
    embeds = [discord.Embed(title=title, description=text, colour=discord.Colour.dark_green())]
    for name, value in fields:
        last = embeds[-1]
        if len(last.fields) >= FIELDS_PER_EMBED or _size(last) + len(name) + len(value) > EMBED_TOTAL:
            last = discord.Embed(colour=discord.Colour.dark_green())
            embeds.append(last)
        last.add_field(name=name, value=value, inline=False)
    return embeds


def _section_fields(title: str, lines: Sequence[str]) -> list[tuple[str, str]]:
    return [(title if i == 0 else CONTINUED, value) for i, value in enumerate(split_lines(lines, FIELD_LIMIT))]


def _by_path(commands: Iterable[Any], path: str) -> AnyCommand | None:
    return next((c for c in walk(commands) if c.qualified_name == path), None)


def _name_of(commands: Iterable[Any], path: str, language: str, fallback: str) -> str:
    c = _by_path(commands, path)
    return shown(c, language) if c is not None else fallback


def _option_name(commands: Iterable[Any], path: str, option: str, language: str) -> str:
    c = _by_path(commands, path)
    param = next((p for p in getattr(c, "parameters", []) if p.name == option), None)
    return _option(c, param, language)[0] if c is not None and param is not None else option


def overview(commands: Sequence[Any], language: str) -> list[discord.Embed]:
    """Every command, by section, as the member's client shows it."""
    help_name = _name_of(commands, "help", language, "/help")
    rules_name = _name_of(commands, "rules", language, "/rules")
    text = tr(language, "help.intro", help=help_name, command=_option_name(commands, "help", "command", language),
              rules=rules_name, topic=_option_name(commands, "rules", "topic", language),
              tackle=tr(language, "rules.tackle.title"), momentum=tr(language, "rules.momentum.title"),
              ability=ABILITIES["lead-pass"].name_in(language))
    text += "\n" + tr(language, "help.marks")
    fields: list[tuple[str, str]] = []
    for key, members in sections(commands):
        fields += _section_fields(tr(language, f"help.section.{key}"), [_line(c, language) for c in members])
    return _pack(tr(language, "help.title"), text, fields)


def _usage(command: app_commands.Command[Any, ..., Any], language: str) -> str:
    parts = [shown(command, language)]
    for p in command.parameters:
        name = _option(command, p, language)[0]
        parts.append(f"{name}:…" if p.required else f"[{name}:…]")
    return "`" + " ".join(parts) + "`"


def _range(param: app_commands.Parameter, language: str) -> str:
    low, high = param.min_value, param.max_value
    if low is not None and high is not None:
        return tr(language, "help.option.range", low=low, high=high)
    if low is not None:
        return tr(language, "help.option.from", low=low)
    return tr(language, "help.option.number")


def _option_line(command: app_commands.Command[Any, ..., Any], param: app_commands.Parameter, language: str) -> str:
    name, text = _option(command, param, language)
    kind = tr(language, "help.option.required" if param.required else "help.option.optional")
    line = f"`{name}` ({kind})" + (f" — {text}" if text else "")
    details: list[str] = []
    if param.choices:
        names = " · ".join(_choice(c, language) for c in param.choices)
        details.append(tr(language, "help.option.choices", choices=names))
    elif param.type in (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number):
        details.append(_range(param, language))
    elif param.type is discord.AppCommandOptionType.boolean:
        details.append(tr(language, "help.option.boolean"))
    elif param.type is discord.AppCommandOptionType.user:
        details.append(tr(language, "help.option.user"))
    if param.autocomplete:
        details.append(tr(language, "help.option.autocomplete"))
    return line + ("\n  " + "; ".join(details) if details else "")


def _topic(path: str, language: str, commands: Sequence[Any]) -> str | None:
    slug = RULE_TOPICS.get(path)
    if slug is None:
        return None
    title = ABILITIES[slug].name_in(language) if slug in ABILITIES else tr(language, f"rules.{slug}.title")
    rules = _name_of(commands, "rules", language, "/rules")
    return f"`{rules} {_option_name(commands, 'rules', 'topic', language)}:{title}`"


def example_key(path: str) -> str:
    return "help.example." + path.replace(" ", ".")


def detail(command: AnyCommand, language: str, commands: Sequence[Any]) -> list[discord.Embed]:
    """One command (or group) as the member's client shows it, with an example where helpful."""
    fields: list[tuple[str, str]] = []
    if isinstance(command, app_commands.Group):
        text = description(command, language)
        fields += _section_fields(tr(language, "help.subcommands"),
                                  [_line(c, language) for c in leaves([command]) if c is not command])
    else:
        text = description(command, language) + "\n" + _usage(command, language)
        if command.parameters:
            fields += _section_fields(tr(language, "help.options"),
                                      [_option_line(command, p, language) for p in command.parameters])
        key = example_key(command.qualified_name)
        if key in catalogue(language):
            values = {p.name: _option(command, p, language)[0] for p in command.parameters}
            fields += _section_fields(tr(language, "help.example"),
                                      [tr(language, key, command=shown(command, language), **values)])
    if command.qualified_name == "rules":
        titles = [tr(language, f"rules.{s}.title") for s in BASIC_SLUGS + ADVANCED_SLUGS]
        fields += _section_fields(tr(language, "help.topics"),
                                  [tr(language, "help.topics.list", topics=", ".join(titles))])
    topic = _topic(command.qualified_name, language, commands)
    if topic:
        fields += _section_fields(tr(language, "help.rule"), [topic])
    return _pack(shown(command, language), text, fields)


# --- finding the command asked for ----------------------------------------------------------------------
def _norm(text: str) -> str:
    """Lower case; no accents, slashes, code marks or quotes; single spaces.
    ``/Partie  Défier`` -> ``partie defier``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().translate(_SPACES).split())


_SPACES = str.maketrans({c: " " for c in "/`'\"«»"})


class Ambiguous(LookupError):
    """A name several commands end with (``revoir``: ``/partie revoir``, ``/ligue revoir``)."""

    def __init__(self, found: list[AnyCommand]) -> None:
        super().__init__(", ".join(c.qualified_name for c in found))
        self.found = found


def _names(command: AnyCommand) -> set[str]:
    """Every way of writing ``command``'s path: in English and in every catalogued language."""
    return {_norm(command.qualified_name)} | {_norm(shown(command, lang)) for lang in LANGUAGES}


def find_command(commands: Sequence[Any], asked: str) -> AnyCommand | None:
    """The command (or group) ``asked`` names: its whole path in English or in a catalogued
    language (the autocomplete sends the English path), else the one command whose own name it
    is (``defier`` for ``/partie defier``). Raises ``Ambiguous`` when several have that name."""
    want = _norm(asked)
    if not want:
        return None
    every = walk(commands)
    whole = [c for c in every if want in _names(c)]
    if whole:
        return whole[0]
    last = [c for c in every if any(n.split()[-1] == want for n in _names(c))]
    if len(last) > 1:
        raise Ambiguous(last)
    return last[0] if last else None


def command_choices(commands: Sequence[Any], typed: str, language: str) -> list[tuple[str, str]]:
    """Autocomplete: (``/plaquer — Plaquer un adversaire adjacent``, ``tackle``) for the commands
    and groups whose name (in ``language`` or English) holds what is typed, in the overview's
    order (groups before their commands)."""
    want = _norm(typed)
    ordered: list[AnyCommand] = []
    for _, members in sections(commands):
        for c in members:
            if c.parent is not None and c.parent not in ordered:
                ordered.append(c.parent)
            ordered.append(c)
    out = []
    for c in ordered:
        if want in _norm(shown(c, language)) or want in _norm(c.qualified_name):
            out.append((f"{shown(c, language)} — {description(c, language)}", c.qualified_name))
    return out


# --- the command ----------------------------------------------------------------------------------------
def _tree(interaction: discord.Interaction) -> list[AnyCommand]:
    return _slash(interaction.client.tree.get_commands())  # type: ignore[attr-defined]  # interaction.client is this bot, which has a tree


async def _complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    pairs = command_choices(_tree(interaction), current, language_of(interaction.locale))
    return [app_commands.Choice(name=n if len(n) <= 100 else n[:99] + "…", value=v) for n, v in pairs[:25]]


async def _send(interaction: discord.Interaction, embeds: list[discord.Embed]) -> None:
    first, *rest = embeds
    if interaction.response.is_done():
        await interaction.followup.send(embed=first, ephemeral=True)
    else:
        await interaction.response.send_message(embed=first, ephemeral=True)
    for more in rest:
        await interaction.followup.send(embed=more, ephemeral=True)


def _quoted(typed: str) -> str:
    """What the member typed, safe inside a code mark."""
    return typed.strip().replace("`", "'")[:100]


class Help(commands.Cog):
    """``/help`` (``/aide``)."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play: the bot's commands, or one command in detail")
    @app_commands.describe(command="one command to explain (its options and an example)")
    @app_commands.autocomplete(command=_complete)
    async def help(self, interaction: discord.Interaction, command: str | None = None) -> None:
        lang = (await languages(interaction)).user
        tree = _tree(interaction)
        if command is None or not command.strip():
            await _send(interaction, overview(tree, lang))
            return
        help_name = _name_of(tree, "help", lang, "/help")
        try:
            found = find_command(tree, command)
        except Ambiguous as exc:
            await refuse(interaction, Refusal("refuse.help_ambiguous", command=_quoted(command), help=help_name,
                                               commands=", ".join(f"`{shown(c, lang)}`" for c in exc.found)))
            return
        if found is None:
            await refuse(interaction, Refusal("refuse.help_unknown", command=_quoted(command), help=help_name))
            return
        await _send(interaction, detail(found, lang, tree))


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Help(bot))
