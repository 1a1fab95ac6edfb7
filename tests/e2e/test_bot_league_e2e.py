"""A league season through the real discord.py client and the fake Discord: create, join, build,
schedule, play a fixture (ended by a concession), standings, post-match advancement, correction."""

from __future__ import annotations

import pytest
from fakediscord import FakeDiscord
from support.bots import wait_for_panels
from support.leagues import give_xp

from bot.app import ElfballBot
from db.engine import session_scope
from db.models import RosterPlayer
from service.matches import MatchService


def world(fake):
    guild = fake.add_guild("Elfball Club")
    pitch, office = guild.add_text_channel("pitch"), guild.add_text_channel("office")
    alice, bob, carol = guild.add_member("Alice"), guild.add_member("Bob"), guild.add_member("Carol")
    return guild, pitch, office, alice, bob, carol


@pytest.mark.slow
async def test_a_league_season_through_slash_commands_and_panels(database):
    async with FakeDiscord(timeout=10.0) as fake:
        guild, pitch, office, alice, bob, carol = world(fake)
        bot = ElfballBot(service=MatchService(width=600), dev_guild=guild.id)
        await fake.start_bot(bot)
        names = fake.commands(guild)
        assert "league" in names
        team_subs = {o["name"] for o in names["team"]["options"]}
        assert {"create", "show", "list", "hire", "fire", "buy", "sell", "learn", "sheet"} <= team_subs

        # Teams, the league, and joining it.
        await fake.slash(alice, office, "team", subcommand="create", name="Moonblades", list="night-elves")
        await fake.slash(bob, office, "team", subcommand="create", name="Gnashers", list="gnolls")
        r = await fake.slash(alice, office, "league create", name="Elf Cup", goals=1)
        assert not r.ephemeral and "commissioner" in r.content and r.message.mentions_user(alice)
        assert "profile standard; first to 1 goal; Advanced injuries." in r.content
        choices = await fake.autocomplete(bob, office, "league join", option="team", value="")
        assert [c.value for c in choices] == ["Gnashers"], "only your own teams"
        r = await fake.slash(bob, office, "league join", league="Elf Cup", team="Moonblades")
        assert r.ephemeral and "only he can" in r.content
        for coach, team in ((alice, "Moonblades"), (bob, "Gnashers")):
            r = await fake.slash(coach, office, "league join", league="Elf Cup", team=team)
            assert not r.ephemeral and "worth 150 of 180" in r.content

        # Building within the budget, with clear refusals.
        positions = await fake.autocomplete(alice, office, "team hire", option="position", value="im",
                                            options={"team": "Moonblades"})
        assert "Imps" in [c.value for c in positions]
        r = await fake.slash(alice, office, "team hire", team="Moonblades", position="Imps", name="Quill")
        assert "Quill" in r.content and "worth 165 of 180" in r.content
        r = await fake.slash(alice, office, "team buy", team="Moonblades", item="cheerleaders", count=2)
        assert "2 Cheerleaders" in r.content and "175 of 180" in r.content
        r = await fake.slash(alice, office, "team buy", team="Moonblades", item="wizard")
        assert r.ephemeral and "over the league's 180" in r.content
        r = await fake.slash(alice, office, "team buy", team="Moonblades", item="cheerleaders", count=3)
        assert r.ephemeral and "at most 4 Cheerleaders" in r.content
        r = await fake.slash(bob, office, "team fire", team="Moonblades", player="1")
        assert r.ephemeral and "only he can" in r.content
        r = await fake.slash(carol, office, "team sheet", team="Moonblades")
        assert r.attachments and r.attachments[0].is_png and "Quill" in r.content

        # The schedule: the commissioner only; the match-ups mention the coaches.
        r = await fake.slash(bob, office, "league schedule", league="Elf Cup")
        assert r.ephemeral and "commissioner" in r.content
        r = await fake.slash(alice, office, "league schedule", league="Elf Cup")
        assert r.message.mentions_user(alice) and r.message.mentions_user(bob) and "to play" in r.content

        # Both number 1s have banked 5 XP: after the match each coach is offered an ability.
        give_xp("Moonblades", 1, 5)
        give_xp("Gnashers", 1, 5)

        # A coach starts the fixture in the pitch channel; a spectator finds it and follows it.
        r = await fake.slash(bob, pitch, "league play")
        assert not r.ephemeral and r.attachments and "Elf Cup" in r.content
        assert r.message.mentions_user(alice) and r.message.mentions_user(bob)
        r = await fake.slash(carol, office, "league fixtures")
        assert f"<#{pitch.id}>" in r.content
        r = await fake.slash(carol, pitch, "match status")
        assert r.attachments and r.ephemeral  # a spectator's look is his alone: the channel is not spammed
        r = await fake.slash(alice, office, "team hire", team="Moonblades", position="Imps")
        assert r.ephemeral and "playing" in r.content

        # The away coach concedes: the result is recorded, then each coach gets his panel.
        fixture = bot.league.fixtures(guild.id, "Elf Cup")[0]
        away = {alice.id: alice, bob.id: bob}[fixture.away_coach]
        home = {alice.id: alice, bob.id: bob}[fixture.home_coach]
        r = await fake.slash(away, pitch, "match concede")
        assert "League result recorded" in r.all_text
        learn_panels = await wait_for_panels(fake, pitch, "elfball-lgs:learn:", 2)
        assert len(learn_panels) == 2
        home_panel = next(m for m in learn_panels if m.mentions_user(home))
        away_panel = next(m for m in learn_panels if m.mentions_user(away))
        select = next(s for s in home_panel.selects if s["custom_id"].startswith("elfball-lgs:learn:"))
        offered = [o["value"] for o in select["options"]]
        assert "later" in offered and "steady" in offered and "sprinter" not in offered  # Advanced needs its Basic

        r = await fake.slash(home, office, "league aftermath")  # the same panel again, elsewhere
        assert not r.ephemeral and "may learn an ability" in r.content
        repost = r.message
        r = await fake.select(away, home_panel, "elfball-lgs:learn:*", values=["steady"])
        assert r.ephemeral and "only" in r.content
        r = await fake.select(home, home_panel, "elfball-lgs:learn:*", values=["steady"])
        assert "learns Steady" in r.all_text and "Everything is settled" in r.all_text
        assert not fake.message(home_panel).custom_ids  # the pressed panel lost its controls
        r = await fake.select(home, repost, "elfball-lgs:learn:*", values=["agile"])
        assert r.ephemeral and "out of date" in r.content
        r = await fake.select(away, away_panel, "elfball-lgs:learn:*", values=["later"])
        assert "keeps his XP" in r.all_text
        # The banked ability, later, with autocomplete offering only what he may learn.
        away_team = fixture.away
        offered = await fake.autocomplete(away, office, "team learn", option="ability", value="",
                                          options={"team": away_team, "player": "1"})
        values = [c.value for c in offered]
        assert "steady" in values and "sprinter" not in values
        r = await fake.slash(away, office, "team learn", team=away_team, player="1", ability="steady")
        assert not r.ephemeral and "learns Steady" in r.content and "of 180 points" in r.content
        r = await fake.slash(away, office, "team learn", team=away_team, player="1", ability="agile")
        assert r.ephemeral and "next ability needs 10" in r.content

        # Standings and results, as text and as a picture.
        r = await fake.slash(carol, office, "league standings")
        assert r.attachments and r.attachments[0].is_png
        home_name = fixture.home
        assert f"1. {home_name}: 1 1 0 0" in r.content and "**3**" in r.content
        r = await fake.slash(carol, office, "league results")
        assert "conceded" in r.content

        # The commissioner corrects the result; the audit trail keeps both.
        r = await fake.slash(bob, office, "league correct", fixture=str(fixture.id), home_score=1, away_score=1,
                             reason="ruled a draw")
        assert r.ephemeral
        r = await fake.slash(alice, office, "league correct", fixture=str(fixture.id), home_score=1, away_score=1,
                             reason="ruled a draw")
        assert not r.ephemeral and "1-1" in r.content
        r = await fake.slash(alice, office, "league audit")
        assert "result_corrected" in r.content and "result_recorded" in r.content and "ruled a draw" in r.content
        r = await fake.slash(carol, office, "league standings")
        assert "**1**" in r.content

        # The learned ability is on the roster and its sheet; the finished match still replays.
        with session_scope() as s:
            from sqlmodel import select as sql

            learned = s.exec(sql(RosterPlayer).where(RosterPlayer.number == 1)).all()
        assert [tuple(p.abilities) for p in learned] == [("steady",), ("steady",)]
        r = await fake.slash(carol, pitch, "match replay")
        assert r.attachments and r.attachments[0].filename == "replay.gif"
        r = await fake.slash(alice, office, "league aftermath")
        assert r.ephemeral and "Nothing to decide" in r.content


async def test_a_post_match_panel_fits_discord_and_offers_potions_before_the_rest() -> None:
    from datetime import UTC, datetime

    from bot.league.cog import aftermath_post
    from db.models import AftermathPublic, FixturePublic
    from service.leagues import AftermathView, Offer

    now = datetime.now(UTC)
    am = AftermathPublic(id=7, fixture_id=3, side="west", team_id=1, coach_id=42, state={}, version=2,
                         created_at=now, updated_at=now)
    fx = FixturePublic(id=3, league_id=1, round=1, home_team_id=1, away_team_id=2, created_at=now, updated_at=now)
    offers = [Offer("potion", "potion", "1 Magic Potion left", [("Imp #3", "w3", "infirmary")]),
              *[Offer("injury", str(i), f"P{i}'s lasting injury", [("Jog 7 → 6", "jog", ""), ("Dodge 7 → 6", "dodge", "")])
                for i in (11, 12, 14)],
              Offer("advance", "13", "P13 may learn", [("Steady", "steady", "re-roll a Dash die"), ("Later", "later", "")])]
    post = aftermath_post(AftermathView(am, "Moonblades", "Gnashers", fx, offers, ["Experience: P13 +1 XP (5)."]))
    ids = [item.custom_id for item in post.view.children]
    assert ids == ["elfball-lgs:potion:7:2:potion", "elfball-lg:nopotion:7:2", "elfball-lgs:injury:7:2:11",
                   "elfball-lgs:injury:7:2:12", "elfball-lgs:injury:7:2:14"]  # five rows: Discord's most
    assert "<@42>" in post.content and "More decisions follow" in post.content and "+1 XP" in post.content
    assert all(len(i) <= 100 for i in ids)
    done = aftermath_post(AftermathView(am, "Moonblades", "Gnashers", fx, [], []))
    assert done.view is None and "Everything is settled" in done.content


async def test_a_french_server_runs_its_league_in_french(database, monkeypatch):
    """Public league posts follow the server's language, private answers the member's; the
    post-match panel (prompt, ability names, buttons, what was applied), the audit trail, the
    store's refusals that name a team or a fixture, and the pictures' words are in French too."""
    import render.standings
    import render.team_sheet

    drawn = []
    for module in (render.standings, render.team_sheet):
        def spy(*args, _real=module.render_table, **kwargs):
            drawn.append(args[:2] + (tuple(c.title for c in args[2]),))
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, "render_table", spy)
    async with FakeDiscord(timeout=10.0) as fake:
        guild = fake.add_guild("Club Elfball", locale="fr")
        pitch, office = guild.add_text_channel("terrain"), guild.add_text_channel("bureau")
        amelie, bruno = guild.add_member("Amélie", locale="fr"), guild.add_member("Bruno", locale="fr")
        carol = guild.add_member("Carol")  # an English client on the French server
        bot = ElfballBot(service=MatchService(width=400), dev_guild=guild.id)
        await fake.start_bot(bot)
        await fake.slash(amelie, office, "team", subcommand="create", name="Lamelunes", list="night-elves")
        await fake.slash(bruno, office, "team", subcommand="create", name="Crocs", list="gnolls")
        r = await fake.slash(amelie, office, "league standings")
        assert r.ephemeral and r.content == "⛔ ce serveur n'a pas encore de ligue : /ligue creer"
        r = await fake.slash(carol, office, "league standings")
        assert r.ephemeral and r.content == "⛔ this server has no league yet: /league create"
        r = await fake.slash(amelie, office, "league create", name="Coupe", goals=1)
        assert not r.ephemeral and r.content.startswith("Ligue **Coupe** créée ;") and "commissaire" in r.content
        assert "profil standard ; premier à 1 but ; blessures des règles avancées." in r.content
        for coach, team in ((amelie, "Lamelunes"), (bruno, "Crocs")):
            r = await fake.slash(coach, office, "league join", league="Coupe", team=team)
            assert "s'inscrit dans **Coupe**, pour une valeur de 150 sur 180 points." in r.content
        r = await fake.slash(amelie, office, "team buy", team="Lamelunes", item="cheerleaders", count=2)
        assert "Acheté : l'équipe a maintenant 2 Pom-pom girls." in r.content and "vaut maintenant 160 sur 180" in r.content
        r = await fake.slash(carol, office, "team sheet", team="Lamelunes")  # public: the server's language
        assert r.attachments and "valeur 160 sur 180 points ; 2 Pom-pom girls." in r.content
        title, subtitle, columns = drawn[-1]
        assert title == "Lamelunes : feuille d'équipe" and "2 Pom-pom girls" in subtitle and "Joueur" in columns
        r = await fake.slash(amelie, office, "league schedule", league="Coupe")
        assert r.content.startswith("**Le calendrier** :") and "contre" in r.content and "à jouer" in r.content
        r = await fake.slash(bruno, office, "league audit")
        assert r.ephemeral and "par <@" in r.content
        assert "calendrier établi" in r.content and "équipe inscrite" in r.content and "team_joined" not in r.content
        assert "soutien acheté" in r.content and "équipe Lamelunes, soutien Pom-pom girls, nombre 2" in r.content
        r = await fake.slash(carol, office, "league audit")
        assert r.ephemeral and " by <@" in r.content
        assert "schedule_made" in r.content and "team_joined" in r.content and "team Lamelunes, item Cheerleaders, count 2" in r.content

        give_xp("Lamelunes", 1, 5)
        r = await fake.slash(bruno, pitch, "league play")
        assert r.content.startswith("Ligue **Coupe**, journée 1 (rencontre #") and "Dés : le secret engagé" in r.content
        fixture = bot.league.fixtures(guild.id, "Coupe")[0]
        away = {amelie.id: amelie, bruno.id: bruno}[fixture.away_coach]
        r = await fake.slash(away, pitch, "match concede")
        assert "Résultat de ligue enregistré" in r.all_text and "League result" not in r.all_text
        panel = (await wait_for_panels(fake, pitch, "elfball-lgs:learn:", 1))[0]
        assert "**Après Lamelunes contre Crocs**" in panel.content
        assert "peut apprendre une aptitude (+5 points d'équipe)" in panel.content
        select = next(s for s in panel.selects if s["custom_id"].startswith("elfball-lgs:learn:"))
        labels = {o["value"]: o["label"] for o in select["options"]}
        from engine.abilities import ABILITIES
        assert labels["steady"] == ABILITIES["steady"].name_in("fr") != ABILITIES["steady"].name
        assert labels["later"] == "Plus tard"
        r = await fake.select(amelie, panel, "elfball-lgs:learn:*", values=["steady"])
        assert "apprend Équilibre." in r.all_text and "learns" not in r.all_text and "Tout est réglé." in r.all_text
        r = await fake.slash(amelie, office, "league standings")
        assert r.content.startswith("**Coupe** : J G N P BP-BC Bl Pts\n") and "**3**" in r.content
        title, _subtitle, columns = drawn[-1]
        assert title == "Coupe : classement" and columns[:4] == ("#", "Équipe", "J", "G")
        r = await fake.slash(amelie, office, "league results")
        assert "a abandonné" in r.content and "blessés" in r.content
        r = await fake.slash(bruno, office, "league audit")
        assert "aptitude apprise" in r.content and "aptitude Équilibre" in r.content

        # Refusals that name a fixture or a team: the member's language.
        r = await fake.slash(bruno, pitch, "league play", fixture=str(fixture.id))
        assert r.ephemeral and r.content == f"⛔ la rencontre #{fixture.id} est jouée dans <#{pitch.id}>"
        await fake.slash(amelie, office, "league create", name="Ligue B")
        r = await fake.slash(amelie, office, "league join", league="Ligue B", team="Lamelunes")
        assert r.ephemeral and r.content == "⛔ Lamelunes joue déjà dans Coupe"
        r = await fake.slash(carol, office, "league join", league="Ligue B", team="Lamelunes")
        assert r.ephemeral and r.content == f"⛔ Lamelunes is coached by <@{amelie.id}>: only he can enter it"


def test_league_refusals_read_in_french():
    from bot.common.reply import reason_text
    from db.errors import NotAllowedError

    assert reason_text(NotAllowedError("only_commissioner_may_do", commissioner=42), "fr") == \
        "seul le commissaire (<@42>) peut faire cela"
    assert reason_text(NotAllowedError("only_commissioner_may_do", commissioner=42), "en") == \
        "only the commissioner (<@42>) may do that"
    assert reason_text("that injury is already settled", "fr") == "cette blessure est déjà réglée"
