"""The bot in French: the synced command tree carries French names, and a French member (or a
French server) is answered in French through the fake Discord."""

from __future__ import annotations

import re

from discord import app_commands
from fakediscord import FakeDiscord

from bot.app import ElfballBot, command_list
from bot.common.i18n import command_catalogue
from bot.lookup.rules_topics import find_topic, topic_choices
from service.matches import MatchService

COMMANDS = command_list()

NAME = re.compile(r"^[-_\w]{1,32}$")


def make_bot(guild):
    return ElfballBot(service=MatchService(width=400), dev_guild=guild.id)


# --- the tree's catalogue: every command, option and choice, and nothing stale ------------------------
def _tree() -> list[app_commands.Command | app_commands.Group]:
    out: list = []

    def walk(c):  # type: ignore[no-untyped-def]
        out.append(c)
        for sub in getattr(c, "commands", []):
            walk(sub)

    for c in COMMANDS:
        walk(c)
    return out


def test_every_command_option_and_choice_has_a_french_entry_and_none_is_stale():
    fr = command_catalogue("fr")
    tree = _tree()
    paths = {c.qualified_name for c in tree}
    assert sorted(paths - set(fr)) == [], "commands without French"
    assert sorted(set(fr) - paths - {"choices"}) == [], "French for commands that do not exist"
    values = set()
    for c in tree:
        entry = fr[c.qualified_name]
        assert NAME.match(entry["name"]) and entry["name"] == entry["name"].lower(), entry
        assert 1 <= len(entry["description"]) <= 100, c.qualified_name
        if isinstance(c, app_commands.Group):
            assert len({fr[s.qualified_name]["name"] for s in c.commands}) == len(c.commands), c.qualified_name
            continue
        options = entry.get("options", {})
        assert sorted(p.name for p in c.parameters) == sorted(options), c.qualified_name
        names = [n for n, _ in options.values()]
        assert all(1 <= len(d) <= 100 for _, d in options.values()), c.qualified_name
        assert len(set(names)) == len(names) and all(NAME.match(n) and n == n.lower() for n in names), c.qualified_name
        values |= {str(ch.value) for p in c.parameters for ch in p.choices}
    assert sorted(values - set(fr["choices"])) == [] and sorted(set(fr["choices"]) - values) == []
    top = [fr[c.qualified_name]["name"] for c in COMMANDS]
    assert len(set(top)) == len(top)


async def test_the_synced_tree_has_french_names_descriptions_and_choices(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        await fake.start_bot(make_bot(guild))
        synced = fake.commands(guild)
        match = synced["match"]
        assert match["name_localizations"]["fr"] == "partie"
        assert match["description_localizations"]["fr"].startswith("Lancer, suivre et terminer")
        challenge = next(o for o in match["options"] if o["name"] == "challenge")
        assert challenge["name_localizations"]["fr"] == "defier"
        opponent = next(o for o in challenge["options"] if o["name"] == "opponent")
        assert opponent["name_localizations"]["fr"] == "adversaire"
        assert "entraîneur IA" in opponent["description_localizations"]["fr"]
        assert synced["tackle"]["name_localizations"]["fr"] == "plaquer"
        assert synced["dash"]["name_localizations"]["fr"] == "se-lancer"
        use = next(o for o in synced["tackle"]["options"] if o["name"] == "use")
        assert {c["value"]: c["name_localizations"]["fr"] for c in use["choices"]}["cutblock"] == "Placage bas"
        facing = next(o for o in synced["end"]["options"] if o["name"] == "facing")
        assert facing["choices"][0]["name_localizations"]["fr"] == "NE (1, nord-est)"
        # Every command, group, option and choice went out with its French version.
        def check(cmd: dict) -> None:
            assert "fr" in cmd.get("name_localizations", {}), cmd["name"]
            assert "fr" in cmd.get("description_localizations", {}) or cmd.get("description") == "…", cmd["name"]
            for opt in cmd.get("options", []):
                check(opt)
            for choice in cmd.get("choices", []):
                assert "fr" in choice.get("name_localizations", {}), choice
        for cmd in synced.values():
            check(cmd)
        assert set(synced["match"]["name_localizations"]) == {"fr"}  # English is the default, not a translation


# --- answers in the member's language, posts in the server's ------------------------------------------
async def test_a_french_member_is_answered_in_french_and_an_english_one_in_english(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club Elfball")
        pitch = guild.add_text_channel("terrain")
        amelie = guild.add_member("Amélie", locale="fr")
        bob = guild.add_member("Bob")
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(amelie, pitch, "move", path="K11")
        assert r.ephemeral and r.content == "⛔ il n'y a pas de partie en cours dans ce salon"
        r = await fake.slash(bob, pitch, "move", path="K11")
        assert r.ephemeral and r.content == "⛔ there is no active match in this channel"
        r = await fake.slash(amelie, pitch, "match challenge", opponent=amelie, team="gnolls")
        assert r.ephemeral and "vous ne pouvez pas vous défier vous-même" in r.content
        r = await fake.slash(amelie, pitch, "odds", dice=4, need=2)
        assert r.ephemeral and "4 dés, 2 nécessaire : 52% de réussite" in r.content
        r = await fake.slash(amelie, pitch, "rules", topic="Momentum")
        assert r.content.startswith("**Temps fort**\n") and "Revirement de Situation" in r.content
        choices = await fake.autocomplete(amelie, pitch, "rules", option="topic", value="plaq")
        assert ("Plaquer", "Tackle") in [(c.name, c.value) for c in choices]
        r = await fake.slash(amelie, pitch, "rules", topic="Placage bas")
        assert r.content.startswith("**Placage bas**\nChasseur") or r.content.startswith("**Placage bas**\ntype Chasseur")
        # The server is English: a challenge, read by the channel, is posted in English.
        r = await fake.slash(amelie, pitch, "match challenge", opponent=bob, team="gnolls")
        assert not r.ephemeral and "challenges you to Elfball" in r.content


async def test_a_french_server_plays_in_french(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch = guild.add_text_channel("terrain")
        amelie, bruno = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr")
        bot = make_bot(guild)
        await fake.start_bot(bot)
        r = await fake.slash(amelie, pitch, "match challenge", opponent=bruno, team="gnolls")
        assert "vous défie à l'Elfball" in r.content and "/partie accepter" in r.content
        assert "Engagement des dés" in r.content
        r = await fake.slash(bruno, pitch, "match accept", team="sarcos")
        assert " contre " in r.content and "Dés : le secret engagé" in r.content and "l'entropie des coachs" in r.content
        assert "placez votre équipe" in r.content
        board = next(m for m in reversed(fake.channel_messages(pitch)) if m.custom_ids)
        assert "Placement auto" in board.labels and "Décrire le terrain" in board.labels
        setter = amelie if bot.service.status(pitch.id).deciding_side == "west" else bruno
        done = await fake.click(setter, board, label="Placement auto")
        text = "\n".join(m.content for m in done.messages)
        assert " se place en " in text and "Fini" in next(m for m in reversed(fake.channel_messages(pitch))
                                                         if m.custom_ids).labels
        r = await fake.slash(setter, pitch, "match log", lines=5)
        assert r.ephemeral and r.content == "Le journal de la partie :"
        assert " se place en " in r.attachments[0].data.decode()


async def test_preferences_choose_the_language_of_the_answers(database):
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, mod = guild.add_member("Alice"), guild.add_member("Mod", manage_guild=True)
        await fake.start_bot(make_bot(guild))
        r = await fake.slash(alice, pitch, "preferences", language="fr")
        assert r.ephemeral and "Langue de mes réponses pour vous : français." in r.content
        r = await fake.slash(alice, pitch, "move", path="K11")
        assert "il n'y a pas de partie en cours" in r.content
        r = await fake.slash(alice, pitch, "preferences", language="auto")
        assert "your Discord's (auto)" in r.content
        r = await fake.slash(alice, pitch, "preferences", server_language="fr")
        assert r.ephemeral and "Manage Server" in r.content
        r = await fake.slash(mod, pitch, "preferences", server_language="fr")
        assert "Language of this server's public posts: French." in r.content
        r = await fake.slash(alice, pitch, "match challenge", opponent=mod, team="gnolls")
        assert "vous défie à l'Elfball" in r.content


def test_rule_topics_in_both_languages():
    assert find_topic("momentum", "fr")[0] == "Temps fort"
    assert find_topic("temps fort", "fr")[0] == "Temps fort" and find_topic("temps fort", "en") is None
    assert find_topic("Goalie", "fr") == ("Dernier rempart", find_topic("dernier rempart", "fr")[1])
    assert "Défenseur" in find_topic("Goalie", "fr")[1] and "(needs Clipping)" in find_topic("Goalie", "en")[1]
    assert ("Se dégager", "Disengage") in topic_choices("dég", "fr")


# --- panels: the same controls, labelled in French --------------------------------------------------
def _outcome(state):
    from types import SimpleNamespace

    from engine.narrate import narrate
    from service.matches import Outcome, prompt_for

    match = SimpleNamespace(id=7, version=3, west_coach_id=11, east_coach_id=22, seed_commitment="ab" * 32)
    return Outcome(match, state, [], narrate([], state), prompt_for(state), None)  # type: ignore[arg-type]


def _items(view):
    return [getattr(i, "item", i) for i in view.children]


def test_a_panel_in_french_keeps_its_custom_ids():
    import discord
    from support.builders import P, act, hx, position

    from bot.play.items import build_view
    from bot.play.panels import build_post
    from engine import commands as C

    st = position(P("w1", "night-elves/strikers", "H12", "E"), P("e1", "gnolls/midfielders", "I12", "W"),
                  P("e2", "gnolls/strikers", "H11", "SE"), acting="w1", jog=6, momentum=(2, "west"))
    res = act(st, C.Move((hx("G13"),)), faces="X - O O")
    q = dict(res.state.in_progress.question, kind="ability_reroll", ability="nimble", max=1)
    res.state.in_progress.question = q
    en, fr = build_view(_outcome(res.state)), build_view(_outcome(res.state), "fr")
    assert [i.custom_id for i in _items(en)] == [i.custom_id for i in _items(fr)]
    (sel,) = [i for i in _items(fr) if isinstance(i, discord.ui.Select)]
    assert sel.options[0].label == "Dé 0 : fiasco" and sel.placeholder == "Utiliser Vif : relancer jusqu'à 1 dé(s)"
    assert "Garder le jet" in [i.label for i in _items(fr) if isinstance(i, discord.ui.Button)]
    post = build_post(_outcome(res.state), language="fr")
    assert "<@11> — Ouest : utiliser Vif pour relancer un dé de Se dégager de " in post.content
    action = position(P("w1", "gnolls/hunters", "H12", "E", ball=True), P("e1", "sarcos/midfielders", "I12", "W"),
                      acting="w1", jog=4)
    labels = [i.label for i in _items(build_view(_outcome(action), "fr")) if isinstance(i, discord.ui.Button)]
    assert {"Se relever", "Finir l'action", "Annuler"} <= set(labels)
    (hit,) = [i for i in _items(build_view(_outcome(action), "fr")) if getattr(i, "custom_id", "").startswith("elfball-select:hit")]
    assert hit.placeholder == "Plaquer ou pousser…" and hit.options[0].label.startswith(("Plaquer ", "Pousser "))
    assert " dés, " in hit.options[0].description and "nécessaire" in hit.options[0].description


async def test_a_server_language_changed_mid_match_shows_in_the_next_board(database):
    """The post's languages are read in the press's worker thread after its work (one thread hop
    less per action): a change made just before the press is what the next board speaks."""
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elfball Club")
        pitch = guild.add_text_channel("pitch")
        alice, bob = guild.add_member("Alice"), guild.add_member("Bob")
        mod = guild.add_member("Mod", manage_guild=True)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "match challenge", opponent=bob, team="gnolls")
        await fake.slash(bob, pitch, "match accept", team="sarcos")
        board = next(m for m in reversed(fake.channel_messages(pitch)) if m.custom_ids)
        assert "Auto set-up" in board.labels
        r = await fake.slash(mod, pitch, "preferences", server_language="fr")
        assert "Language of this server's public posts: French." in r.content
        setter = alice if bot.service.status(pitch.id).deciding_side == "west" else bob
        done = await fake.click(setter, board, label="Auto set-up")
        assert " se place en " in "\n".join(m.content for m in done.messages)
        assert "Fini" in next(m for m in reversed(fake.channel_messages(pitch)) if m.custom_ids).labels
        await fake.slash(mod, pitch, "preferences", server_language="en")
        board = next(m for m in reversed(fake.channel_messages(pitch)) if m.custom_ids)
        done = await fake.click(setter, board, label="Fini")
        assert "Done" not in board.labels and done.messages
        assert "Describe the board" in next(m for m in reversed(fake.channel_messages(pitch)) if m.custom_ids).labels
