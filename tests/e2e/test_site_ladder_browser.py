"""The website's ladder page in Chromium, on a phone (390x844) and a laptop (1280x900): no wider
than the screen, and clean for axe-core, as the other pages (``test_site_browser``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.engine import make_engine, use_engine
from db.migrate import upgrade
from service.match_rules import MatchSide
from service.matches import MatchService
from support.browser import AXE_JS, missing
from support.league_site import GUILD, LEAGUE, seeded_league

pytestmark = pytest.mark.slow  # a real browser, a seeded league

@pytest.fixture(scope="module")
def ladder_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from service.site import build_site, find_league, write_site

    root = tmp_path_factory.mktemp("ladder-site")
    engine = make_engine(f"sqlite:///{root / 'elfball.db'}")
    upgrade(engine)
    old = use_engine(engine)
    try:
        league = seeded_league(6, played=1)
        coach = league.teams(GUILD, LEAGUE)[0].coach_id
        plain = MatchService(render=False)
        plain.start(guild_id=GUILD, channel_id=5, west=MatchSide(coach, team_list="gnolls"),
                    east=MatchSide(99, team_list="sarcos"), seed="ladder-browser")
        plain.concede(5, 99)
        write_site(build_site(find_league(LEAGUE), replays=False), root / "out")
    finally:
        use_engine(old)
        engine.dispose()
    return root / "out" / "ladder.html"


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)], ids=["phone", "laptop"])
def test_the_ladder_page_fits_the_screen_and_passes_axe(browser, ladder_page: Path, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(ladder_page.as_uri(), wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rating = page.locator("table.ladder tbody tr").first.locator("td").nth(1)
    box = rating.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width, "the rating is on screen without scrolling"
    if not AXE_JS.is_file():
        missing(f"axe-core is not installed ({AXE_JS})")
    page.add_script_tag(content=AXE_JS.read_text())
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
      return r.violations.map(v => v.id + ': ' + v.help);
    }""")
    assert found == []
    context.close()
