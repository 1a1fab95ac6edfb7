"""The costly answers on demand (issue 31): the fixture autocomplete of a crowded server, before
and after its bounded query, and a finished match's replay drawn, then asked for again.

Run: ``.venv/bin/python benchmarks/bench_lookups.py [--leagues 300] [--fixtures 5000] [--runs 40]
[--commands 878] [--before-runs 5]``.

* Autocomplete: ``--leagues`` two-team leagues with ``--fixtures`` fixtures on one server
  (``tests/support/crowd.py``) in a temporary SQLite database. *Before*: what the autocomplete
  did until then (every league, then every league's teams and fixtures, filtered in Python);
  *after*: ``LeagueService.fixture_choices`` (one query, the text filtered in SQL, LIMIT 25).
  Each for several typed texts; median and p95 in ms. Target: p95 ≤ 100 ms.
* Replay: a league fixture played by the AI coach for up to ``--commands`` commands
  (``tests/support/league_site.py``), then ``service.lookup.replay`` twice: the first draws,
  the second must come from what was drawn. Target: the second ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository too: tests/ alone would make tests/engine/ the `engine` package.
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from db.engine import make_engine, use_engine  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from service import lookup  # noqa: E402
from service.leagues import LeagueService  # noqa: E402
from service.matches import MatchService  # noqa: E402
from support.crowd import crowded_server  # noqa: E402
from support.league_site import GUILD, LEAGUE, seeded_league  # noqa: E402

CROWD = 77
TYPED = ["", "cup 12", "#12", "team 5b", "zzz"]


def _ms(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]


def _before(svc: LeagueService, text: str) -> list[tuple[str, str]]:
    """The autocomplete as it was: every league's schedule read, then filtered in Python."""
    out = []
    for lg in svc.leagues(CROWD):
        for v in svc.fixtures(CROWD, lg.id, sync=False):
            out.append((f"#{v.id} {lg.name} R{v.fixture.round}: {v.home} v {v.away}", str(v.id)))
    cur = text.strip().lower()
    return [p for p in out if cur in p[0].lower() or cur in p[1].lower()][:25] if cur else out[:25]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leagues", type=int, default=300)
    parser.add_argument("--fixtures", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--before-runs", type=int, default=5)
    parser.add_argument("--commands", type=int, default=878)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/elfball.db")
        upgrade(engine)
        use_engine(engine)
        crowded_server(CROWD, leagues=args.leagues, fixtures=args.fixtures)
        svc = LeagueService(MatchService(render=False), render=False)
        print(f"autocomplete, {args.leagues} leagues, {args.fixtures} fixtures (ms)")
        print(f"{'typed':>10} {'before median':>14} {'before p95':>11} {'after median':>13} {'after p95':>10} {'choices':>8}")
        worst = 0.0
        for text in TYPED:
            b_med, b_p95 = _ms(lambda t=text: _before(svc, t), args.before_runs) if args.before_runs else (float("nan"),) * 2
            a_med, a_p95 = _ms(lambda t=text: svc.fixture_choices(CROWD, t), args.runs)
            worst = max(worst, a_p95)
            print(f"{text!r:>10} {b_med:14.1f} {b_p95:11.1f} {a_med:13.1f} {a_p95:10.1f} {len(svc.fixture_choices(CROWD, text)):8d}")
        print(f"autocomplete p95 (worst text): {worst:.1f} ms — target ≤ 100 ms: {'met' if worst <= 100 else 'MISSED'}")

        league = seeded_league(args.commands, played=1)
        fixture = next(v for v in league.fixtures(GUILD, LEAGUE) if v.fixture.match_id is not None)
        match_id = fixture.fixture.match_id
        assert match_id is not None
        rows = league.matches.snapshot(match_id).match.version + 1
        started = time.perf_counter()
        first = lookup.replay(match_id, empty=False)
        drawn = (time.perf_counter() - started) * 1000
        med, p95 = _ms(lambda: lookup.replay(match_id, empty=False), args.runs)
        assert lookup.replay(match_id, empty=False) == first
        print(f"replay of a finished match, {rows} log rows, {len(first) / 1e6:.2f} MB: first {drawn:.0f} ms; "
              f"again median {med:.2f} ms, p95 {p95:.2f} ms — target ≤ 50 ms: {'met' if p95 <= 50 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
