"""The league website's ladder page: the server's coach ratings, as ``/ladder`` has them, coaches
named by their team in the league, read without writing, in English and French."""

from __future__ import annotations

from support.league_site import GUILD, LEAGUE, seeded_league
from support.pages import Page

from db.engine import session_scope
from db.ladder import rated_matches
from service.ladder import LadderService
from service.match_rules import MatchSide
from service.matches import MatchService
from service.site import build_site, find_league

DAVE = 24  # a member of the server with no team in the league


def test_the_site_has_the_servers_ladder(database) -> None:
    league = seeded_league(12, played=1)
    carol = next(t.coach_id for t in league.teams(GUILD, LEAGUE) if t.name == "Tinkers")
    plain = MatchService(render=False)  # no ladder listening: the site rates it all the same
    plain.start(guild_id=GUILD, channel_id=77, west=MatchSide(carol, team_list="gnolls"),
                east=MatchSide(DAVE, team_list="sarcos"), seed="site-ladder")
    plain.concede(77, DAVE)
    site = build_site(find_league(LEAGUE))
    assert "ladder.html" in site.pages
    page = Page(site.files["ladder.html"].decode())
    assert page.lang == "en" and page.headings[0][1] == "Coach ratings"
    rows = LadderService().table(GUILD, keep=False)
    teams = {t.coach_id: t.name for t in league.teams(GUILD, LEAGUE)}
    assert page.tables["ladder"][0] == ["#", "Coach", "Rating", "P", "W–D–L"]
    assert page.tables["ladder"][1:] == [
        [str(r.rank), f"coach of {teams[r.coach_id]}" if r.coach_id in teams else "a coach of the server",
         f"{r.shown:.1f}", str(r.played), f"{r.won}–{r.drawn}–{r.lost}"] for r in rows]
    played = {c for r in LadderService().results(GUILD, keep=False) for c in (r.west, r.east)}
    assert {r.coach_id for r in rows} == played and {carol, DAVE} <= played and len(rows) >= 3
    assert "ladder.html" in Page(site.files["index.html"].decode()).links
    with session_scope() as s:
        assert rated_matches(session=s, guild_id=GUILD) == [], "the export reads only"
    french = Page(build_site(find_league(LEAGUE), language="fr").files["ladder.html"].decode())
    assert french.headings[0][1] == "Classement des entraîneurs"
    assert french.tables["ladder"][1][1].startswith(("entraîneur de ", "un entraîneur du serveur"))
    assert "," in french.tables["ladder"][1][2] or french.tables["ladder"][1][2] == "0"
