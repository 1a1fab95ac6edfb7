"""The league's static website (issue 23): what the pages say is what the database holds.

A seeded league (three teams, two fixtures played by the AI coach then conceded, one to play)
is exported; the pages are read back with ``html.parser`` and checked against the database's
rows, computed here on their own: the standings from the fixtures, a team page from its roster.
Two exports of the same database are the same bytes. The match's record on the site verifies.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from sqlmodel import select

from db import leagues as db_leagues
from db import teams as db_teams
from db.engine import session_scope
from db.models import RosterPlayer
from service import match_rules
from engine.rosters import Attributes, position_by_id
from support.pages import Page
from service.site import SiteError, SiteTooLarge, build_site, find_league, write_site, zip_site
from service.verify import record_from_json, verify
from support.league_site import ALICE, GUILD, LEAGUE, expected_table, seeded_league

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _page(site, path: str) -> Page:
    return Page(site.files[path].decode())


def _hurt_and_grown(team_name: str) -> dict[str, int]:
    """A league history the AI's few actions may not give: a learned ability with XP to spare, a
    lasting injury (Dodge -1), a retired player. Returns their roster ids."""
    with session_scope() as s:
        team = db_teams.get_team(session=s, guild_id=GUILD, team=team_name)
        rows = {p.id: p for p in s.exec(select(RosterPlayer).where(RosterPlayer.team_id == team.id)).all()}
        first, second, third = (rows[p.id] for p in sorted(team.players, key=lambda p: p.number)[:3])
        first.abilities, first.xp = ["steady"], 12
        base = position_by_id(second.position_id).attributes.as_dict()
        second.attributes = {**second.attributes, "dodge": base["dodge"] - 1}
        second.injuries = [{"kind": "lasting", "attribute": "dodge"}]
        third.status = "retired"
        for p in (first, second, third):
            s.add(p)
        s.commit()
        return {"grown": first.id, "hurt": second.id, "retired": third.id}


@pytest.mark.slow
def test_the_site_says_what_the_database_holds_and_says_it_twice_the_same(store) -> None:
    seeded_league(24)
    ids = _hurt_and_grown("Tinkers")
    league = find_league(LEAGUE)
    site = build_site(league)
    assert site.language == "en"

    index = _page(site, "index.html")
    assert index.lang == "en" and index.headings[0] == (1, LEAGUE)
    rows = index.tables["standings"][1:]
    assert rows == expected_table(league.id)
    assert "Teams level on points are ordered by goal difference" in site.files["index.html"].decode()
    with session_scope() as s:
        fixtures = db_leagues.fixtures(session=s, league_id=league.id)
    played = [f for f in fixtures if f.status == "played"]
    assert len(played) == 2 and len(index.tables["results"]) == 1 + len(played)
    for f in played:
        assert f"matches/{f.id}.html" in index.links
    (left,) = [f for f in fixtures if f.status != "played"]
    assert any(f"#{left.id}" in item and "to play" in item for item in index.lists["fixtures"])
    xp_leaders = [line for line in index.lists["leaders"] if line.endswith("XP")]
    assert xp_leaders[0].startswith("Gnome #1 (Tinkers): 12 XP")  # the most experienced first

    # The team page: every active player as stored, the retired one among the former players.
    with session_scope() as s:
        team = db_teams.get_team(session=s, guild_id=GUILD, team="Tinkers")
    page = _page(site, f"teams/{team.id}.html")
    assert page.headings[0] == (1, "Tinkers") and page.lang == "en"
    roster = page.tables["roster"]
    assert roster[0][:3] == ["#", "Player", "Position"] and roster[0][3:9] == ["J", "M", "T", "D", "S", "G"]
    shown = {r[1]: r for r in roster[1:]}
    active = [p for p in team.players if p.status == "active"]
    assert len(shown) == len(active)
    for p in active:
        row = shown[p.name]
        base = position_by_id(p.position_id).attributes.as_dict()
        assert row[0] == str(p.number) and row[2] == position_by_id(p.position_id).name
        assert [int(v.split()[0]) for v in row[3:9]] == [p.attributes.get(a, base[a]) for a in Attributes.FIELDS]
        assert row[9].split()[0] == str(p.xp)
    by_id = {p.id: p for p in team.players}
    grown, hurt = shown[by_id[ids["grown"]].name], shown[by_id[ids["hurt"]].name]
    assert grown[10] == "Steady" and "may learn 1 ability" in grown[9]
    assert hurt[11] == "Dodge -1" and "(lowered by an injury)" in hurt[6]
    assert by_id[ids["retired"]].name not in shown
    assert any(item.startswith(by_id[ids["retired"]].name) and "retired" in item for item in page.lists["former"])
    mine = [f for f in played if team.id in (f.home_team_id, f.away_team_id)]
    assert all(f"../matches/{f.id}.html" in page.links for f in mine) and mine
    assert site.files[f"teams/{team.id}-sheet.png"].startswith(b"\x89PNG")
    assert all(img.get("alt") and img.get("loading") == "lazy" for img in page.images)

    # A match page: its frames, its log, and a record that verifies against the seed shown.
    f = played[0]
    match = _page(site, f"matches/{f.id}.html")
    frames = sorted(p for p in site.files if p.startswith(f"matches/{f.id}/frame-"))
    assert len(frames) >= 2 and len(match.lists["frames"]) == len(frames)
    assert all(site.files[p].startswith(b"\x89PNG") for p in frames)
    assert all(img.get("alt") for img in match.images)
    assert [h for _, h in match.headings][1:] == ["Summary", "Goals", "Casualties",
                                                  "After the match: experience, injuries, potions, abilities",
                                                  "The final board", "Replay", "The match log", "The dice", "How to check"]
    record = json.loads(site.files[f"matches/{f.id}.json"])
    assert verify(record_from_json(record)).ok
    html = site.files[f"matches/{f.id}.html"].decode()
    assert record["seed"] in html and hashlib.sha256(record["seed"].split("+")[0].encode()).hexdigest() in html
    assert f"elfball verify --file match-{f.match_id}.json --commitment HEX" in html
    assert len(match.lists["log"]) > 5 and '<details class="log">' in html  # folded behind the summary
    # The summary: each team's post-match report as stored (the XP each player gained).
    assert any(line.startswith("Experience: ") and " XP (" in line for line in match.lists["aftermath"])
    # Careers: every player of the team, active or former, with his league matches.
    career = {r[0].split(" (")[0]: r for r in page.tables["career"][1:]}
    assert set(career) == {p.name for p in team.players}
    lineups = [f.lineup for f in played]
    for p in team.players:
        assert career[p.name][1] == str(sum(p.id in lu.get(side, []) for lu in lineups for side in ("west", "east")))

    # The same database, the same bytes (pictures and zip included).
    again = build_site(find_league(LEAGUE))
    assert again.files == site.files
    assert zip_site(again, "x") == zip_site(site, "x")


@pytest.mark.slow
def test_a_french_server_gets_french_pages(database, tmp_path) -> None:
    from db.settings import update_guild_settings

    seeded_league(12, played=1)
    with session_scope() as s:
        update_guild_settings(session=s, guild_id=GUILD, language="fr")
    site = build_site(find_league(LEAGUE))
    assert site.language == "fr"
    index = _page(site, "index.html")
    assert index.lang == "fr" and [h for _, h in index.headings][1:3] == ["Classement", "Départager les égalités"]
    assert index.tables["standings"][0][:4] == ["#", "Équipe", "J", "G"]
    (path,) = [p for p in site.files if p.startswith("matches/") and p.endswith(".html")]
    match = _page(site, path)
    assert match.lang == "fr" and "Rejouer le match" in [h for _, h in match.headings]
    assert {text for _, text in match.buttons} == {"Premier", "Précédent", "Suivant", "Dernier"}
    # --language wins over the server's.
    assert _page(build_site(find_league(LEAGUE), language="en"), "index.html").lang == "en"


@pytest.mark.slow
def test_the_console_export_writes_the_site_and_refuses_plainly(database, tmp_path, monkeypatch, capsys) -> None:
    from cli.main import main

    seeded_league(8, played=1)
    url = database.url.render_as_string(hide_password=False)
    monkeypatch.setenv("DATABASE_URL", url)
    out = tmp_path / "site"
    assert main(["league", "export", "elf cup", str(out)]) == 0
    said = capsys.readouterr().out
    assert "Elf Cup: 6 pages (1 matches)" in said and str(out) in said
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert "index.html" in written and "assets/replay.js" in written and "teams/1.html" in written
    assert main(["league", "export", "Dragon Cup", str(tmp_path / "x")]) == 2
    assert "there is no league 'Dragon Cup'" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["league", "export", "Elf Cup", str(blocker)]) == 2
    assert "it is a file, not a folder" in capsys.readouterr().err
    assert main(["league", "export", "Elf Cup", str(blocker / "below")]) == 2
    assert "cannot write the site into" in capsys.readouterr().err
    # A second export over the first leaves the same files.
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert main(["league", "export", "1", str(out)]) == 0
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_league_name_two_servers_use_needs_its_server(database) -> None:
    from service.leagues import LeagueService
    from service.matches import MatchService

    league = LeagueService(MatchService(render=False), render=False)
    league.create(1, 5, "Elf Cup")
    league.create(2, 6, "Elf Cup")
    with pytest.raises(SiteError, match="several servers have a league 'elf cup'"):
        find_league("elf cup")
    assert find_league("Elf Cup", guild_id=2).commissioner_id == 6
    with pytest.raises(SiteError, match="no league 'Elf Cup' on server 3"):
        find_league("Elf Cup", guild_id=3)


@pytest.mark.slow
def test_the_zip_holds_the_site_under_one_folder(database) -> None:
    seeded_league(4, played=1)
    site = build_site(find_league(LEAGUE))
    names = zipfile.ZipFile(io.BytesIO(zip_site(site, "league-1"))).namelist()
    assert names == sorted(names) and all(n.startswith("league-1/") for n in names)
    assert {n.removeprefix("league-1/") for n in names} == set(site.files)
    written = write_site(site, Path(database.url.database).parent / "out")
    assert len(written) == len(site.files)
    pictures = sum(len(b) for p, b in site.files.items() if p.endswith(".png"))
    assert build_site(find_league(LEAGUE), png_budget=pictures).files == site.files
    with pytest.raises(SiteTooLarge):
        build_site(find_league(LEAGUE), png_budget=pictures - 1)


@pytest.mark.slow
async def test_the_commissioner_gets_the_site_as_a_zip_in_discord(database, monkeypatch) -> None:
    import sys

    from bot.app import ElfballBot
    from fakediscord import FakeDiscord
    from service.matches import MatchService

    async with FakeDiscord(timeout=20.0) as fake:
        guild = fake.add_guild("Elfball Club")
        office = guild.add_text_channel("office")
        alice, bob, carol = (guild.add_member(n) for n in ("Alice", "Bob", "Carol"))
        mod = guild.add_member("Mod", manage_guild=True)
        seeded_league(8, played=1, guild=guild.id, coaches=(alice.id, bob.id, carol.id))
        await fake.start_bot(ElfballBot(service=MatchService(width=400), dev_guild=guild.id))

        r = await fake.slash(alice, office, "league export")
        (att,) = r.attachments
        assert att.filename == "elfball-league-elf-cup.zip" and "6 pages" in r.content and "index.html" in r.content
        z = zipfile.ZipFile(io.BytesIO(att.data))
        index = Page(z.read("league-1/index.html").decode())
        assert index.headings[0] == (1, LEAGUE) and len(index.tables["standings"]) == 4
        # Coaches by their display name on the server, never a bare id (issue 34).
        assert sorted(index.lists["coaches"]) == ["Gnashers: Bob", "Moonblades: Alice", "Tinkers: Carol"]
        assert str(alice.id) not in z.read("league-1/index.html").decode()
        feed = json.loads(z.read("league-1/standings.json"))
        assert {r["team"]: r["coach"] for r in feed["standings"]} == {"Gnashers": "Bob", "Moonblades": "Alice", "Tinkers": "Carol"}
        assert any(n.startswith("league-1/matches/") and n.endswith("/board.png") for n in z.namelist())

        # /league replay draws its first frame from the match as created, not from the end.
        from PIL import Image, ImageChops

        from render import board_image

        with session_scope() as s:
            (f,) = [f for f in db_leagues.fixtures(session=s, league_id=1) if f.match_id]
            history = match_rules.history(session=s, match_id=f.match_id)
        r = await fake.slash(carol, office, "league replay", fixture=str(f.id))
        gif = Image.open(io.BytesIO(r.attachments[0].data))
        start, end = (board_image(history[i][1], width=600).convert("RGB") for i in (0, -1))
        first = gif.convert("RGB")
        assert ImageChops.difference(first, start).getbbox() is None
        assert ImageChops.difference(first, end).getbbox() is not None

        r = await fake.slash(bob, office, "league export", league="Elf Cup")
        assert r.ephemeral and not r.attachments and "only the commissioner" in r.content
        r = await fake.slash(mod, office, "league export")  # a moderator stands in, saying why
        assert r.ephemeral and not r.attachments and "say why" in r.content
        r = await fake.slash(mod, office, "league export", reason="for the newsletter")
        assert len(r.attachments) == 1

        # Over Discord's limit: first the site without the replay's close-ups for phones, then
        # without the replays' boards, then nothing.
        lg = find_league(LEAGUE)
        shown = {alice.id: "Alice", bob.id: "Bob", carol.id: "Carol"}.get  # the names the bot passes
        full, whole, lean = (len(zip_site(build_site(lg, replays=r, closeups=c, coaches=shown), f"league-{lg.id}"))
                             for r, c in ((True, True), (True, False), (False, False)))
        assert lean < whole < full
        # The bot loads its cogs as fresh modules: the one it runs is the one in sys.modules now.
        monkeypatch.setattr(sys.modules["bot.league.cog"], "EXPORT_LIMIT", (whole + full) // 2)
        r = await fake.slash(alice, office, "league export")
        (att,) = r.attachments
        assert len(att.data) == whole and "without the replays' boards" not in r.content
        z = zipfile.ZipFile(io.BytesIO(att.data))
        assert [n for n in z.namelist() if "/frame-" in n] and not [n for n in z.namelist() if "/close-" in n]
        monkeypatch.setattr(sys.modules["bot.league.cog"], "EXPORT_LIMIT", (lean + whole) // 2)
        r = await fake.slash(alice, office, "league export")
        (att,) = r.attachments
        assert len(att.data) == lean and "without the replays' boards" in r.content
        assert f"{len(att.data) / 1e6:.1f} MB" in r.content and "elfball league export" in r.content
        z = zipfile.ZipFile(io.BytesIO(att.data))
        assert not [n for n in z.namelist() if "/frame-" in n]
        (match,) = [n for n in z.namelist() if re.fullmatch(r"league-1/matches/\d+\.html", n)]
        assert "leaves out the replay&#39;s boards" in z.read(match).decode()
        for limit in (lean - 1, 1000):  # too large as a zip; pictures alone past the limit
            monkeypatch.setattr(sys.modules["bot.league.cog"], "EXPORT_LIMIT", limit)
            r = await fake.slash(alice, office, "league export")
            assert not r.attachments and "so it is not attached" in r.content and "elfball league export" in r.content


@pytest.mark.slow
def test_the_tie_breaks_are_explained_and_a_walkover_has_no_match_page(database) -> None:
    league = seeded_league(played=0)
    fixtures = league.fixtures(GUILD, LEAGUE)
    for v in fixtures:  # every home side wins 1-0: each team one win, all level on everything
        league.correct(GUILD, ALICE, v.id, home_score=1, away_score=0, reason="walkover")
    site = build_site(find_league(LEAGUE))
    index = _page(site, "index.html")
    assert [r[1] for r in index.tables["standings"][1:]] == ["Gnashers", "Moonblades", "Tinkers"]
    assert index.lists["ties"] == ["Gnashers and Moonblades are level on everything (3 points): they are listed by name.",
                                   "Moonblades and Tinkers are level on everything (3 points): they are listed by name."]
    assert all("no match (result set by the commissioner)" in r[5] for r in index.tables["results"][1:])
    assert not [p for p in site.files if p.startswith("matches/")]

    # Two casualties for one home side: it goes top, and the sentence says why.
    first = fixtures[0]
    league.correct(GUILD, ALICE, first.id, home_score=1, away_score=0, home_casualties=2, reason="ruling")
    index = _page(build_site(find_league(LEAGUE)), "index.html")
    others = sorted(n for n in ("Gnashers", "Moonblades", "Tinkers") if n != first.home)
    assert [r[1] for r in index.tables["standings"][1:]] == [first.home, *others]
    assert index.lists["ties"][0] == (f"{first.home} is above {others[0]} (both on 3 points, same goals) on casualties "
                                      "caused: 2 against 0.")


def test_a_league_before_its_schedule_and_names_that_look_like_html(database) -> None:
    from service.leagues import LeagueService
    from service.matches import MatchService

    league = LeagueService(MatchService(render=False), render=False)
    league.create(GUILD, 7, "<b>Cup</b> & co")
    with session_scope() as s:
        db_teams.create_team(session=s, guild_id=GUILD, coach_id=8, name='<img src=x onerror="alert(1)">', team_list="gnolls")
    league.join(GUILD, 8, "<b>Cup</b> & co", '<img src=x onerror="alert(1)">')
    site = build_site(find_league("<b>cup</b> & CO"))
    html = site.files["index.html"].decode()
    assert "<b>Cup</b>" not in html and "&lt;b&gt;Cup&lt;/b&gt; &amp; co" in html
    assert "<img src=x" not in html and "&lt;img src=x onerror=" in html
    index = Page(html)
    assert index.headings[0] == (1, "<b>Cup</b> & co") and index.images == []
    assert "No fixture has been played yet." in html and "Nobody yet." in html
    assert "The schedule is not drawn yet." in html and "Every fixture has been played." not in html
    (team,) = [p for p in site.files if p.startswith("teams/") and p.endswith(".html")]
    assert [img["alt"] for img in _page(site, team).images][0].startswith('The team sheet of <img src=x onerror="alert(1)">')


def test_history_gives_the_state_after_every_row(store) -> None:
    """What the site's (and the bot's) replays draw each action from."""
    from db import matches as db_matches

    seeded_league(16, played=1)
    with session_scope() as s:
        (f,) = [f for f in db_leagues.fixtures(session=s, league_id=find_league(LEAGUE).id) if f.match_id]
        history = match_rules.history(session=s, match_id=f.match_id)
        rows = db_matches.match_events(session=s, match_id=f.match_id)
        final = match_rules.rebuild(session=s, match_id=f.match_id)
        middle = match_rules.rebuild(session=s, match_id=f.match_id, version=5)
    assert [r.seq for r, _ in history] == [r.seq for r in rows] == list(range(len(rows)))
    assert history[-1][1].to_dict() == final.to_dict() and history[5][1].to_dict() == middle.to_dict()
    assert history[0][1].to_dict() != final.to_dict()  # the start is not the end
