"""The README's pictures of the league site: docs/site-league.png, site-team.png, site-match.png;
with ``--phone``, docs/site-phone-standings.png and site-phone-match.png (a 390 x 844 phone) instead;
with ``--bracket``, docs/site-bracket.png (a five-team seeded knockout's bracket page).

Seeds a league in a temporary SQLite database (``tests/support/league_site.py``: the AI coach plays two
fixtures; for the bracket, a knockout whose results the commissioner sets), exports it, and
photographs one page of each kind in Debian's headless Chromium.

    .venv/bin/python scripts/site_screenshots.py [--commands 200] [--phone | --bracket]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository too: tests/ alone would make tests/engine/ the `engine` package.
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from db.engine import make_engine, use_engine  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from service.site import build_site, find_league, write_site  # noqa: E402
from support.league_site import ALICE, BOB, CAROL, CHROMIUM, CHROMIUM_ARGS, LEAGUE, seeded_league  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=200, help="AI commands per fixture before the concession")
    parser.add_argument("--phone", action="store_true", help="the phone's pictures (390 x 844) instead")
    parser.add_argument("--bracket", action="store_true", help="a knockout's bracket page (docs/site-bracket.png) instead")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/elfball.db")
        upgrade(engine)
        use_engine(engine)
        if args.bracket:
            return bracket(Path(tmp), sync_playwright)
        seeded_league(args.commands)
        # The bot passes the coaches' display names; these stand in for them.
        site = build_site(find_league(LEAGUE), coaches={ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}.get)
        out = Path(tmp) / "site"
        write_site(site, out)
        match = min(p for p in site.files if p.startswith("matches/") and p.endswith(".html") and p.count("/") == 1)
        team = min(p for p in site.files if p.startswith("teams/") and p.endswith(".html"))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            if args.phone:
                page = browser.new_page(viewport={"width": 390, "height": 844})
                for kind, path, scroll in (("phone-standings", "index.html", "#standings"), ("phone-match", match, None)):
                    page.goto((out / path).as_uri(), wait_until="load")
                    if scroll:
                        page.evaluate(f"document.querySelector('{scroll}').scrollIntoView()")
                    page.wait_for_timeout(300)
                    target = ROOT / "docs" / f"site-{kind}.png"
                    page.screenshot(path=str(target))
                    print(target)
                browser.close()
                return 0
            page = browser.new_page(viewport={"width": 1000, "height": 1300})
            for kind, path, scroll in (("league", "index.html", None), ("team", team, None),
                                       ("match", match, "#replay")):
                page.goto((out / path).as_uri(), wait_until="load")
                if scroll:
                    page.locator(scroll).scroll_into_view_if_needed()
                    page.evaluate(f"document.querySelector('{scroll}').scrollIntoView()")
                    page.get_by_role("button", name="Next").click()
                    page.get_by_role("button", name="Next").click()
                page.wait_for_timeout(300)
                target = ROOT / "docs" / f"site-{kind}.png"
                page.screenshot(path=str(target))
                print(target)
            browser.close()
    return 0


#: The knockout of docs/site-bracket.png: five teams seeded, so the top three seeds have a bye.
CUP = {31: ("Moonblades", "night elves"), 32: ("Gnashers", "gnolls"), 33: ("Tinkers", "gnomes"),
       34: ("Widows", "black widows"), 35: ("Starlings", "night elves")}


def bracket(tmp: Path, sync_playwright) -> int:  # noqa: ANN001 - playwright's entry point, imported late
    """A seeded knockout of five teams (a drawn tie sent through by the higher seed), its results
    set by the commissioner, the final to play; its bracket page at 900 x 760."""
    from db import teams as db_teams
    from db.engine import session_scope
    from service.leagues import LeagueService
    from service.matches import MatchService

    guild, commissioner = 4343, 31
    league = LeagueService(MatchService(render=False), render=False)
    league.create(guild, commissioner, "Spring Cup", {"format": "knockout", "draw_rule": "higher_seed"})
    for coach, (name, lst) in CUP.items():
        with session_scope() as s:
            db_teams.create_team(session=s, guild_id=guild, coach_id=coach, name=name, team_list=lst)
        league.join(guild, coach, "Spring Cup", name)
    first = league.schedule(guild, commissioner, "Spring Cup", seeds=[name for name, _ in CUP.values()])
    scores = {("Widows", "Starlings"): (0, 1), ("Gnashers", "Tinkers"): (1, 1)}

    def set_result(fixture_id: int, home: int, away: int) -> None:
        league.correct(guild, commissioner, fixture_id, home_score=home, away_score=away, reason="played at the club")

    for v in first:
        set_result(v.id, *scores.get((v.home, v.away), (2, 0)))
    for v in league.fixtures(guild, "Spring Cup"):  # the semi-finals; the final is left to play
        if not v.fixture.played and v.fixture.round == 2:
            set_result(v.id, 2, 1)
    site = build_site(league.league(guild, "Spring Cup"), language="en", replays=False,
                      coaches={c: name for c, name in zip(CUP, ("Alice", "Bob", "Carol", "Dave", "Erin"))}.get)
    out = tmp / "cup"
    write_site(site, out)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 760})
        page.goto((out / "bracket.html").as_uri(), wait_until="load")
        page.wait_for_timeout(300)
        target = ROOT / "docs" / "site-bracket.png"
        page.screenshot(path=str(target))
        print(target)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
