"""/help (/aide in French): every command of the tree, by section, as the member's client shows it;
one command in detail; a clear refusal for a command that does not exist. Through the fake Discord."""

from __future__ import annotations

import re

import pytest
from discord import app_commands
from fakediscord import FakeDiscord
from support.tours import leaks, report

from bot.help import cog as H
from bot.app import ElfballBot, command_list
from bot.common.i18n import catalogue, command_catalogue, tr
from bot.lookup.rules_topics import ADVANCED_SLUGS, BASIC_SLUGS
from engine.abilities import ABILITIES
from engine.i18n import placeholders
from service.matches import MatchService

TREE = command_list()
SECTION_KEYS = [key for key, _ in H.SECTIONS] + [H.OTHER]


def make_bot(guild):  # type: ignore[no-untyped-def]
    return ElfballBot(service=MatchService(width=400), dev_guild=guild.id)


def embed_text(embeds: list[dict]) -> str:
    out = []
    for e in embeds:
        out += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            out += [f["name"], f["value"]]
    return "\n".join(out)


def within_limits(embeds: list[dict]) -> None:
    """Discord's limits, for the embeds of one message."""
    assert 1 <= len(embeds) <= 10
    total = 0
    for e in embeds:
        assert len(e.get("title") or "") <= 256 and len(e.get("description") or "") <= 4096
        fields = e.get("fields") or []
        assert len(fields) <= 25
        for f in fields:
            assert 1 <= len(f["name"]) <= 256 and 1 <= len(f["value"]) <= 1024, f
        total += len(e.get("title") or "") + len(e.get("description") or "") + sum(
            len(f["name"]) + len(f["value"]) for f in fields)
    assert total <= 6000, total


def as_dicts(embeds) -> list[dict]:  # type: ignore[no-untyped-def]
    return [e.to_dict() for e in embeds]


# --- the sections place every command, and only commands that exist -----------------------------------
def test_every_command_of_the_tree_is_placed_in_a_help_section():
    assert H.unplaced(TREE) == []
    placed = [c for _, members in H.sections(TREE) for c in members]
    assert sorted(c.qualified_name for c in placed) == sorted(c.qualified_name for c in H.leaves(TREE))
    assert len(placed) == len(set(placed)), "a command in two sections"
    paths = {c.qualified_name for c in H.walk(TREE)}
    assert sorted(p for _, ps in H.SECTIONS for p in ps if p not in paths) == [], "a placement of no command"
    assert [key for key, _ in H.sections(TREE)] == [key for key, _ in H.SECTIONS]


def test_a_command_added_to_the_tree_without_a_section_is_caught_and_still_shown():
    @app_commands.command(name="juggle", description="Juggle the ball")
    async def juggle(interaction) -> None:  # type: ignore[no-untyped-def]
        pass

    tree = [*TREE, juggle]
    assert H.unplaced(tree) == ["juggle"]
    assert H.sections(tree)[-1] == (H.OTHER, [juggle])
    text = embed_text(as_dicts(H.overview(tree, "en")))
    assert f"{tr('en', 'help.section.other')}\n`/juggle` — Juggle the ball" in text


def test_the_rule_topics_and_examples_name_commands_topics_and_options_that_exist():
    paths = {c.qualified_name: c for c in H.walk(TREE)}
    slugs = set(BASIC_SLUGS + ADVANCED_SLUGS)
    for path, slug in H.RULE_TOPICS.items():
        assert path in paths and (slug in slugs or slug in ABILITIES), (path, slug)
    examples = [k for k in catalogue("en").text if k.startswith("help.example.")]
    assert len(examples) >= 8
    by_key = {H.example_key(p): c for p, c in paths.items()}
    for key in examples:
        command = by_key[key]  # a stale example (its command renamed or gone) fails here
        allowed = {"command"} | {p.name for p in command.parameters}
        assert placeholders(catalogue("en").text[key]) <= allowed, key


# --- the overview ---------------------------------------------------------------------------------------
async def test_the_overview_in_english_and_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        bob, amelie = guild.add_member("Bob"), guild.add_member("Amélie", locale="fr")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        live = bot.tree.get_commands()
        assert {c.qualified_name for c in H.leaves(live)} == {c.qualified_name for c in H.leaves(TREE)}

        r = await fake.slash(bob, pitch, "help")
        assert r.ephemeral and len(r.messages) == 1 and len(r.embeds) == 1
        within_limits(r.embeds)
        embed = r.embeds[0]
        assert embed["title"] == "Elfball — the commands"
        assert "`/help command:…` explains one" in embed["description"]
        assert "`/rules topic:…` explains the rules" in embed["description"]
        assert "README" in embed["description"]
        names = [f["name"] for f in embed["fields"]]
        assert names[:3] == ["▶️ Starting a match", "🎲 Playing a turn", "✨ Advanced rules, in a turn"]
        text = embed_text(r.embeds)
        for c in H.leaves(live):  # every command of the tree, with its description
            assert f"`/{c.qualified_name}` — {c.description}\n" in text + "\n", c.qualified_name
        assert "`/tackle` — Tackle an adjacent opponent" in text
        assert leaks([text], [], "en") == []

        r = await fake.slash(amelie, pitch, "help")
        assert r.ephemeral and len(r.embeds) == 1
        within_limits(r.embeds)
        embed = r.embeds[0]
        assert embed["title"] == "Elfball — les commandes"
        assert "`/aide commande:…` en explique une" in embed["description"]
        assert "`/regles sujet:…` explique les règles : Temps fort, Plaquer" in embed["description"]
        names = [f["name"] for f in embed["fields"]]
        assert names[:4] == ["▶️ Lancer une partie", "🎲 Jouer un tour", "✨ Règles avancées, pendant un tour",
                             "👀 Pendant une partie"]
        text = embed_text(r.embeds)
        assert "`/plaquer` — Plaquer un adversaire adjacent" in text
        assert "`/partie defier` — Défier un autre membre (ou le bot) à une partie ici" in text
        assert "`/ligue inscrire` — Inscrire votre équipe dans une ligue" in text
        assert "`/se-lancer`" in text and "`/aide`" in text and "`/equipe fiche`" in text
        fr = command_catalogue("fr")
        for c in H.leaves(live):
            assert f"`{H.shown(c, 'fr')}` — {fr[c.qualified_name]['description']}" in text, c.qualified_name
        for key in SECTION_KEYS:  # no English section title
            assert tr("en", f"help.section.{key}") not in text, key
        assert "`/tackle`" not in text and "`/match challenge`" not in text
        found = leaks([text], [], "fr")
        assert found == [], report(found)
        assert fake.channel_messages(pitch) == []  # nothing posted for the channel


async def test_a_french_server_and_its_members_get_the_overview_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch = guild.add_text_channel("terrain")
        amelie = guild.add_member("Amélie", locale="fr")
        await fake.start_bot(make_bot(guild))
        assert fake.commands(guild)["help"]["name_localizations"]["fr"] == "aide"
        r = await fake.slash(amelie, pitch, "help")
        assert r.embeds[0]["title"] == "Elfball — les commandes" and "`/plaquer`" in embed_text(r.embeds)


# --- one command ----------------------------------------------------------------------------------------
async def test_one_command_in_detail_in_english_and_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        bob, amelie = guild.add_member("Bob"), guild.add_member("Amélie", locale="fr")
        await fake.start_bot(make_bot(guild))

        r = await fake.slash(bob, pitch, "help", {"command": "tackle"})
        assert r.ephemeral
        within_limits(r.embeds)
        embed = r.embeds[0]
        assert embed["title"] == "/tackle"
        assert embed["description"] == "Tackle an adjacent opponent\n`/tackle target:… [use:…]`"
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Options"] == (
            "`target` (required) — the opponent\n  suggestions as you type\n"
            "`use` (optional) — a Tackle ability: Cutblock, Steal, Pummel, Cheapshot (on a Down or Dazed one)\n"
            "  choices: Cutblock · Steal · Pummel · Cheapshot")
        assert fields["Example"].startswith("`/tackle target:e3` tackles the opponent e3")
        assert fields["The rule"] == "`/rules topic:Tackle`"

        r = await fake.slash(amelie, pitch, "help", {"command": "plaquer"})  # typed in French, not picked
        within_limits(r.embeds)
        embed = r.embeds[0]
        assert embed["title"] == "/plaquer"
        assert embed["description"] == "Plaquer un adversaire adjacent\n`/plaquer cible:… [avec:…]`"
        fields = {f["name"]: f["value"] for f in embed["fields"]}
        assert fields["Options"] == (
            "`cible` (obligatoire) — l'adversaire\n  suggestions pendant la saisie\n"
            "`avec` (facultatif) — aptitude de Plaquer : Placage bas, Subtiliser, Roué de coups, Vicieux "
            "(cible à terre ou sonnée)\n  choix : Placage bas · Subtiliser · Roué de coups · Vicieux")
        assert fields["Exemple"].startswith("`/plaquer cible:e3` plaque l'adversaire e3")
        assert "`avec:Placage bas`" in fields["Exemple"]
        assert fields["La règle"] == "`/regles sujet:Plaquer`"
        found = leaks([embed_text(r.embeds)], [], "fr")
        assert found == [], report(found)

        # The autocomplete's value (the English path), the French path and the English one: the same.
        french = [await fake.slash(amelie, pitch, "help", {"command": asked}) for asked in
                  ("match challenge", "partie defier", "/Partie Défier", "defier")]
        assert all(r.embeds == french[0].embeds for r in french)
        embed = french[0].embeds[0]
        assert embed["title"] == "/partie defier"
        assert embed["description"].endswith(
            "`/partie defier adversaire:… equipe:… [buts:…] [delai_heures:…] [profil:…] [regles:…] [fil:…] [niveau:…] [mots:…]`")
        options = next(f["value"] for f in embed["fields"] if f["name"] == "Options")
        assert ("`buts` (facultatif) — buts pour gagner (1-3 ; sinon ceux du profil)\n"
                "  un nombre entier de 1 à 3") in options
        assert "`adversaire` (obligatoire) — qui vous défiez" in options and "un membre du serveur" in options
        assert "choix : standard (les règles anglaises) · débutant" in options
        example = next(f["value"] for f in embed["fields"] if f["name"] == "Exemple")
        assert example.startswith("`/partie defier adversaire:@Bob equipe:gnolls` défie Bob")
        found = leaks([embed_text([embed])], ["Gnolls"], "fr")
        assert found == [], report(found)

        # A group: its commands; /rules: its topics.
        r = await fake.slash(amelie, pitch, "help", {"command": "ligue"})
        embed = r.embeds[0]
        assert embed["title"] == "/ligue" and embed["description"].startswith("Ligues : équipes")
        assert "`/ligue inscrire` — Inscrire votre équipe" in embed_text(r.embeds)
        r = await fake.slash(bob, pitch, "help", {"command": "rules"})
        topics = next(f["value"] for f in r.embeds[0]["fields"] if f["name"] == "Topics")
        assert topics.startswith("Challenge dice, Momentum, Shift in Momentum") and "every ability" in topics
        r = await fake.slash(amelie, pitch, "help", {"command": "regles"})
        topics = next(f["value"] for f in r.embeds[0]["fields"] if f["name"] == "Sujets")
        assert topics.startswith("Dés de défi, Temps fort, Revirement de Situation")
        assert fake.channel_messages(pitch) == []


async def test_the_autocomplete_offers_the_commands_by_their_name_in_the_members_language(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        bob, amelie = guild.add_member("Bob"), guild.add_member("Amélie", locale="fr")
        await fake.start_bot(make_bot(guild))
        choices = await fake.autocomplete(amelie, pitch, "help", option="command", value="plaq")
        assert [(c.name, c.value) for c in choices] == [("/plaquer — Plaquer un adversaire adjacent", "tackle")]
        choices = await fake.autocomplete(amelie, pitch, "help", option="command", value="ligue ins")
        assert [c.value for c in choices] == ["league join"]
        choices = await fake.autocomplete(amelie, pitch, "help", option="command", value="partie")
        assert choices[0].value == "match" and "match challenge" in [c.value for c in choices]
        assert all(c.name.startswith("/partie") for c in choices)
        choices = await fake.autocomplete(bob, pitch, "help", option="command", value="tack")
        assert [(c.name, c.value) for c in choices] == [("/tackle — Tackle an adjacent opponent", "tackle")]
        choices = await fake.autocomplete(bob, pitch, "help", option="command", value="")
        assert len(choices) == 25 and choices[0].value == "match" and choices[1].value == "match challenge"
        assert all(len(c.name) <= 100 for c in choices)


# --- refusals -------------------------------------------------------------------------------------------
async def test_an_unknown_command_is_refused_in_the_members_language_and_nothing_changes(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        bob, amelie = guild.add_member("Bob"), guild.add_member("Amélie", locale="fr")
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(bob, pitch, "help", {"command": "juggle"})
        assert r.ephemeral and r.embeds == []
        assert r.content == ("⛔ there is no command `juggle`: pick one from the list as you type, "
                             "or see them all with `/help`")
        r = await fake.slash(amelie, pitch, "help", {"command": "jongler"})
        assert r.ephemeral and r.content == (
            "⛔ il n'y a pas de commande `jongler` : choisissez-en une dans la liste en tapant, "
            "ou voyez-les toutes avec `/aide`")
        r = await fake.slash(amelie, pitch, "help", {"command": "revoir"})
        assert r.ephemeral and r.content == (
            "⛔ plusieurs commandes s'appellent `revoir` : `/partie revoir`, `/ligue revoir`. "
            "Donnez le nom complet (`/aide` les liste toutes)")
        r = await fake.slash(bob, pitch, "help", {"command": "`replay`"})
        assert "`/match replay`, `/league replay`" in r.content and "``" not in r.content
        assert fake.channel_messages(pitch) == [] and fake.bot_errors() == []


# --- Discord's limits, for every command in both languages ----------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_answer_fits_discords_limits(language):
    overview = H.overview(TREE, language)
    assert len(overview) == 1  # one message, one embed
    within_limits(as_dicts(overview))
    for c in H.walk(TREE):
        embeds = H.detail(c, language, TREE)
        assert len(embeds) == 1, c.qualified_name
        within_limits(as_dicts(embeds))
    for c in H.walk(TREE):  # the autocomplete finds each by its name in the language
        assert H.find_command(TREE, H.shown(c, language)) is c
        assert (f"{H.shown(c, language)} — {H.description(c, language)}", c.qualified_name) in \
            H.command_choices(TREE, H.shown(c, language), language)


def test_an_overview_too_big_for_one_message_is_split_within_the_limits():
    lines = [f"`/cmd{i}` — " + "x" * 90 for i in range(120)]
    embeds = H._pack("Title", "intro", H._section_fields("Section", lines))
    assert len(embeds) > 1
    for e in embeds:
        within_limits([e.to_dict()])
    values = "\n".join(f.value for e in embeds for f in e.fields)
    assert values == "\n".join(lines)
    assert re.fullmatch(r"Section(\u200b)+", "".join(f.name for e in embeds for f in e.fields))
