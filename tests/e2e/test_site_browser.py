"""The league site in a real browser (issue 23): Debian's headless Chromium, driven by Playwright.

The seeded league is exported once and served on 127.0.0.1. The tests step a match's replay with
the buttons and the arrow keys, read the page without JavaScript, compare the standings and a
roster as the browser shows them with the database, and check every page kind for accessibility:
checks written against the DOM (lang, alt text, one h1 and no skipped heading level, named
controls, captioned tables) and axe-core (WCAG 2 A and AA rules) from the npm registry.

Without Chromium (or Playwright, or axe-core) these skip locally; under CI they fail, since
``.ci/run`` installs Chromium and axe-core.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from collections.abc import Iterator

import pytest

from db.engine import make_engine, session_scope, use_engine
from db.migrate import upgrade
from support.league_site import GUILD, LEAGUE, expected_table, seeded_league

pytestmark = pytest.mark.slow  # a real browser, a seeded league

#: Where the test setup (or ``.ci/run``) puts axe-core: npm's ``--prefix`` folder.
@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, object]]]:
    """The seeded league exported and served over HTTP on 127.0.0.1: (base URL, facts)."""
    from service.site import build_site, find_league, write_site

    root = tmp_path_factory.mktemp("site")
    engine = make_engine(f"sqlite:///{root / 'elfball.db'}")
    upgrade(engine)
    old = use_engine(engine)
    try:
        seeded_league(30)
        site = build_site(find_league(LEAGUE))
        write_site(site, root / "out")
        from db import teams as db_teams

        with session_scope() as s:
            team = db_teams.get_team(session=s, guild_id=GUILD, team="Tinkers")
        facts = {"table": expected_table(find_league(LEAGUE).id), "team": team,
                 "match": min(p for p in site.files if re.fullmatch(r"matches/\d+\.html", p)),
                 "frames": {p.split("/")[1]: 0 for p in site.files if "/frame-" in p}}
        for p in site.files:
            if "/frame-" in p:
                facts["frames"][p.split("/")[1]] += 1  # type: ignore[index]
    finally:
        use_engine(old)
        engine.dispose()
    handler = functools.partial(_Quiet, directory=str(root / "out"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", facts
    finally:
        server.shutdown()
        server.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


#: A phone (an iPhone 12-15's CSS viewport) and a laptop (issue 34).
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _page(browser, url: str, *, javascript: bool = True, viewport: dict[str, int] | None = None):
    context = browser.new_context(java_script_enabled=javascript, viewport=viewport or {"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(url, wait_until="load")
    return page, errors


def test_the_replay_steps_forward_and_back_with_buttons_and_keys(browser, served) -> None:
    base, facts = served
    path = facts["match"]
    fixture = path.split("/")[1].removesuffix(".html")
    total = facts["frames"][fixture]
    page, errors = _page(browser, base + path)
    frame = page.locator("#replay-frame")
    position = page.locator("#replay-position")
    assert page.locator("#viewer").is_visible()
    assert position.inner_text() == f"Board 1 of {total}"
    assert frame.get_attribute("src").endswith("frame-001.png")

    def at(n: int) -> None:
        assert position.inner_text() == f"Board {n} of {total}"
        assert frame.get_attribute("src").endswith(f"frame-{n:03d}.png")
        page.wait_for_function("document.getElementById('replay-frame').complete")
        assert page.evaluate("document.getElementById('replay-frame').naturalWidth") == 480  # the PNG loaded

    page.get_by_role("button", name="Next").click()
    at(2)
    caption = page.locator("#replay-caption").inner_text()
    page.keyboard.press("ArrowRight")
    at(3)
    assert page.locator("#replay-caption").inner_text() != caption or total == 3
    page.keyboard.press("ArrowLeft")
    at(2)
    page.get_by_role("button", name="Previous").click()
    at(1)
    page.get_by_role("button", name="Previous").click()  # nothing before the first
    at(1)
    page.keyboard.press("End")
    at(total)
    page.get_by_role("button", name="Next").click()  # nothing after the last
    at(total)
    page.get_by_role("button", name="First").click()
    at(1)
    assert frame.get_attribute("alt") == page.locator("#frame-1").get_attribute("data-alt")
    assert errors == []


def test_without_javascript_every_board_is_listed_in_words(browser, served) -> None:
    base, facts = served
    path = facts["match"]
    fixture = path.split("/")[1].removesuffix(".html")
    page, _ = _page(browser, base + path, javascript=False)
    assert not page.locator("#viewer").is_visible()
    items = page.locator("#frames-list > ol > li")
    assert items.count() == facts["frames"][fixture]
    assert items.first.is_visible() and "Board 1" in items.first.inner_text()
    href = items.nth(1).locator("a").first.get_attribute("href")
    assert page.request.get(base + "matches/" + href).headers["content-type"] == "image/png"


def test_the_browser_shows_the_standings_and_the_roster_of_the_database(browser, served) -> None:
    base, facts = served
    page, errors = _page(browser, base + "index.html")
    rows = page.locator("table.standings tbody tr")
    shown = [[c.strip() for c in rows.nth(i).locator("td, th").all_inner_texts()] for i in range(rows.count())]
    assert shown == facts["table"]
    page.get_by_role("link", name="Tinkers").first.click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == "Tinkers"
    team = facts["team"]
    names = page.locator("table.roster tbody th").all_inner_texts()
    assert names == [p.name for p in sorted(team.players, key=lambda p: p.number) if p.status == "active"]
    page.locator("img.sheet").scroll_into_view_if_needed()  # lazy: loaded when it comes near
    page.wait_for_function("document.querySelector('img.sheet').complete && document.querySelector('img.sheet').naturalWidth > 0")
    assert errors == []


DOM_CHECKS = """() => {
  const problems = [];
  if (!document.documentElement.lang) problems.push('no lang on <html>');
  for (const img of document.images) {
    if (!img.getAttribute('alt') || !img.getAttribute('alt').trim()) problems.push('img without alt: ' + img.src);
    if (img.getAttribute('loading') !== 'lazy') problems.push('img not lazy: ' + img.src);
  }
  const levels = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map(h => Number(h.tagName[1]));
  if (levels.filter(l => l === 1).length !== 1) problems.push('not exactly one h1: ' + levels);
  levels.forEach((l, i) => { if (i && l > levels[i - 1] + 1) problems.push('heading level skipped: ' + levels); });
  for (const b of document.querySelectorAll('button, a')) {
    if (!(b.textContent || b.getAttribute('aria-label') || '').trim()) problems.push('unnamed control: ' + b.outerHTML);
  }
  for (const t of document.querySelectorAll('table')) {
    if (!t.querySelector('caption')) problems.push('table without caption');
    if (!t.querySelector('th[scope]')) problems.push('table without header cells');
  }
  if (!document.querySelector('main')) problems.push('no <main>');
  return problems;
}"""


def _paths(facts: dict[str, object]) -> dict[str, str]:
    return {"league": "index.html", "team": f"teams/{facts['team'].id}.html", "match": str(facts["match"])}  # type: ignore[attr-defined]  # facts["team"] is a TeamPublic


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_no_page_is_wider_than_its_screen_and_the_points_show(browser, served, viewport: dict[str, int]) -> None:
    base, facts = served
    for kind, path in _paths(facts).items():
        for javascript in (True, False):
            page, errors = _page(browser, base + path, javascript=javascript, viewport=viewport)
            wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert wide[0] <= wide[1], (kind, javascript, wide)
            # Nor does any table need scrolling sideways: every one is read whole.
            tables = page.evaluate("""[...document.querySelectorAll('.scroll')]
                .map(d => [d.querySelector('table').className, d.scrollWidth, d.clientWidth])""")
            assert all(scroll <= client for _, scroll, client in tables), (kind, tables)
            assert errors == []
    page, _ = _page(browser, base + "index.html", viewport=viewport)
    # Pts, its header and every team's, within the screen without scrolling sideways.
    boxes = page.evaluate("""() => [...document.querySelectorAll('table.standings .pts')].map(e => {
        const r = e.getBoundingClientRect(); return [r.left, r.right, r.width, getComputedStyle(e).display]; })""")
    assert len(boxes) == 1 + len(facts["table"])  # type: ignore[arg-type]
    assert all(0 <= left and right <= viewport["width"] and width > 0 and display != "none"
               for left, right, width, display in boxes), boxes
    shown = page.locator("table.standings tbody tr").first.locator("td.pts").inner_text()
    assert shown == facts["table"][0][-1]  # type: ignore[index]
    narrow = page.locator("p.narrow").is_visible()
    assert narrow == (viewport is PHONE)  # the note says which columns a phone leaves out


def test_on_a_phone_the_roster_shows_every_column_and_the_replay_its_close_up(browser, served) -> None:
    base, facts = served
    page, _ = _page(browser, base + _paths(facts)["team"], viewport=PHONE)
    first = page.locator("table.roster tbody tr").first
    cells = first.locator("td, th")
    assert cells.count() == 3 + 6 + 4
    for i in range(cells.count()):
        box = cells.nth(i).bounding_box()
        assert box and box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], i
    labels = page.evaluate("""() => [...document.querySelectorAll('table.roster tbody tr:first-child td[data-label]')]
        .map(td => getComputedStyle(td, '::before').content)""")
    assert labels[:6] == ['"J"', '"M"', '"T"', '"D"', '"S"', '"G"'] and all(lb not in ("none", "normal") for lb in labels)

    from render.view import view_text_sizes
    from service.site.pages import CLOSEUP_WIDTH

    page, errors = _page(browser, base + _paths(facts)["match"], viewport=PHONE)
    page.wait_for_function("document.getElementById('replay-frame').complete")
    shown = page.evaluate("""() => { const i = document.getElementById('replay-frame');
        return [i.currentSrc, i.naturalWidth, i.getBoundingClientRect().width]; }""")
    assert "/close-" in shown[0] and shown[1] == CLOSEUP_WIDTH
    smallest = min(view_text_sizes(CLOSEUP_WIDTH)["token_label"], view_text_sizes(CLOSEUP_WIDTH)["coordinate"])
    assert smallest * shown[2] / shown[1] >= 9  # CSS px on the phone
    page.get_by_role("button", name="Next").click()
    # The next board's close-up (or its board, for a frame with none): once it has loaded.
    wanted = page.locator("#frame-2").get_attribute("data-phone")
    assert wanted.endswith(("close-002.png", "frame-002.png"))
    assert page.locator("#replay-phone").get_attribute("srcset") == wanted
    page.wait_for_function("w => document.getElementById('replay-frame').currentSrc.endsWith(w)", arg=wanted)
    # The summary comes first; the log is folded behind it.
    assert page.locator("#summary").bounding_box()["y"] < page.locator("#board").bounding_box()["y"]
    assert page.locator("details.log").get_attribute("open") is None and not page.locator("ol.log").is_visible()
    page.locator("details.log > summary").click()
    assert page.locator("ol.log").is_visible()
    assert errors == []


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("kind", ["league", "team", "match"])
def test_every_page_kind_passes_the_accessibility_checks(browser, served, axe, kind: str, viewport: dict[str, int]) -> None:
    base, facts = served
    path = _paths(facts)[kind]
    for javascript in (True, False):
        page, errors = _page(browser, base + path, javascript=javascript, viewport=viewport)
        assert page.evaluate(DOM_CHECKS) == [], (kind, javascript)
        assert errors == []
    page, _ = _page(browser, base + path, viewport=viewport)
    page.add_script_tag(content=axe)
    result = page.evaluate("""async () => {
      const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
      return r.violations.map(v => v.id + ': ' + v.help + ' [' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', ') + ']');
    }""")
    assert result == [], kind


@pytest.fixture(scope="module")
def served_cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A league of five teams in two divisions, every division fixture given a result, its play-off
    drawn (a bracket page), exported without replays and served: the base URL."""
    from db import teams as db_teams
    from service.leagues import LeagueService
    from service.matches import MatchService
    from service.site import build_site, write_site

    root = tmp_path_factory.mktemp("cup")
    engine = make_engine(f"sqlite:///{root / 'elfball.db'}")
    upgrade(engine)
    old = use_engine(engine)
    try:
        league = LeagueService(MatchService(render=False), render=False)
        league.create(GUILD, 31, "Division Cup", {"format": "divisions", "divisions": 2})
        for coach, name, lst in ((31, "Moonblades", "night elves"), (32, "Gnashers", "gnolls"), (33, "Tinkers", "gnomes"),
                                 (34, "Widows", "black widows"), (35, "Starlings", "night elves")):
            with session_scope() as s:
                db_teams.create_team(session=s, guild_id=GUILD, coach_id=coach, name=name, team_list=lst)
            league.join(GUILD, coach, "Division Cup", name)
        for v in league.schedule(GUILD, 31, "Division Cup"):
            league.correct(GUILD, 31, v.id, home_score=1, away_score=0, reason="played at the club")
        write_site(build_site(league.league(GUILD, "Division Cup"), language="en", replays=False), root / "out")
    finally:
        use_engine(old)
        engine.dispose()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root / "out")))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_each_divisions_table_shows_its_points_and_the_bracket_fits_and_passes_the_checks(
        browser, served_cup, axe, viewport: dict[str, int]) -> None:
    page, errors = _page(browser, served_cup + "index.html", viewport=viewport)
    tables = page.evaluate("""() => [...document.querySelectorAll('table.standings')].map(t =>
        [...t.querySelectorAll('.pts')].map(e => { const r = e.getBoundingClientRect();
          return [r.left, r.right, r.width, getComputedStyle(e).display]; }))""")
    assert sorted(len(t) for t in tables) == [3, 4]  # two divisions: their header and each team's Pts
    assert all(0 <= left and right <= viewport["width"] and width > 0 and display != "none"
               for t in tables for left, right, width, display in t), tables
    for path in ("index.html", "bracket.html"):
        page, errors = _page(browser, served_cup + path, viewport=viewport)
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], (path, wide)
        assert page.evaluate(DOM_CHECKS) == [], path
        assert errors == []
        page.add_script_tag(content=axe)
        result = page.evaluate("""async () => {
          const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
          return r.violations.map(v => v.id + ': ' + v.help + ' [' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', ') + ']');
        }""")
        assert result == [], path
