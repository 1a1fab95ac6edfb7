"""The README's pictures of the league site: docs/site-league.png, site-team.png, site-match.png;
with ``--phone``, docs/site-phone-standings.png and site-phone-match.png (a 390 x 844 phone) instead.

Seeds a league in a temporary SQLite database (``tests/support/league_site.py``: the AI coach plays two
fixtures), exports it, and photographs one page of each kind in Debian's headless Chromium.

    .venv/bin/python scripts/site_screenshots.py [--commands 200] [--phone]
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
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/elfball.db")
        upgrade(engine)
        use_engine(engine)
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


if __name__ == "__main__":
    sys.exit(main())
