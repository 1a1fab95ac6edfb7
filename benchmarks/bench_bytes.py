"""Bytes per picture and per action (issue 33): how small the pictures can be, at what CPU cost.

    .venv/bin/python benchmarks/bench_bytes.py [--seed 3] [--positions 80] [--discord] [--dice a1]
        [--width 720] [--close-ups] [--no-encodings]

Encodings: every ``--positions``-th share of a seeded fuzz match (``render.fuzz_history``, the
whole match, sampled evenly) is drawn once as the bot draws it (the board ``BOARD_WIDTH`` px
wide, the close-up 600 px, RGB before the palette), then each candidate encoding writes it: the shipped
one (``render``'s banded PNG on its fixed palette, the band cache emptied before each picture as
at 1,000 channels, where it rarely hits), its zlib levels, Pillow's encoder (``optimize=True``
is the slow exhaustive one), an adaptive palette of fewer colours, and lossless WebP (Discord
shows it). Printed per picture kind: median and p95 bytes and CPU ms of the encoding alone (the
shipped line also with the palette mapping), and for the lossy candidates the mean error
against the drawn picture (0-255 per channel; the shipped palette's own error is the floor).

``--discord``: a whole match with the AI coach on both sides, seeded by ``--dice`` (the match's
dice secret), played through the fake Discord by the real bot at production widths, as
``tests/e2e/test_bot_bytes.py`` does; prints the bytes Discord received, per command (a saved
move: what ``bench_load.py`` calls an action) and per action (one message per game action),
and how many pictures an edit kept instead of uploading them again. ``--width`` draws the board
at another width; ``--close-ups``: the server keeps the close-up in every board post (by default
it is shown on demand, privately, and not uploaded with the post).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import io
import os
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("ELFBALL_SECRET", hashlib.sha256(b"bench_bytes").hexdigest())  # its own dice key (128 bits)

from PIL import Image, ImageChops, ImageStat  # noqa: E402

from render import layers  # noqa: E402
from render.board import board_rgb, palette_for  # noqa: E402
from render.layers import encode_png  # noqa: E402
from render.replay import fuzz_history  # noqa: E402
from render.view import VIEW_COMPRESS_LEVEL, action_focus, action_view_rgb, view_layout  # noqa: E402

from service.drawing import BOARD_WIDTH, LIVE_PNG_LEVEL  # noqa: E402

VIEW_WIDTH = 600


def pct(values: list[float], q: float) -> float:
    vs = sorted(values)
    return vs[min(len(vs) - 1, max(0, round(q * (len(vs) - 1))))]


def pillow_png(im: Image.Image, **kw: object) -> bytes:
    out = io.BytesIO()
    im.save(out, "PNG", **kw)
    return out.getvalue()


def webp(im: Image.Image, method: int) -> bytes:
    out = io.BytesIO()
    im.convert("RGB").save(out, "WEBP", lossless=True, quality=100, method=method)
    return out.getvalue()


def error(rgb: Image.Image, im: Image.Image) -> float:
    """Mean absolute difference per channel between the drawn picture and ``im`` (0-255)."""
    return sum(ImageStat.Stat(ImageChops.difference(rgb, im.convert("RGB"))).mean) / 3


def pictures(seed: int, positions: int) -> list[tuple[str, Image.Image, Image.Image, object]]:
    """(kind, RGB, shipped P image, band reference) for the sampled positions of the match."""
    steps = fuzz_history(seed)
    every = max(1, len(steps) // positions)
    out: list[tuple[str, Image.Image, Image.Image, object]] = []
    references: dict[bytes, object] = {}  # the bare field in each palette, banded once (as render.board does)
    for step in steps[::every][:positions]:
        rgb = board_rgb(step.state, events=step.events, view=step.view, width=BOARD_WIDTH)
        pal = palette_for(step.state, BOARD_WIDTH, False)
        key = bytes(pal.getpalette() or [])
        if key not in references:
            bare = layers.field_layer(BOARD_WIDTH, False).image.quantize(palette=pal, dither=Image.Dither.NONE)
            references[key] = layers.png_reference(bare)
        ref = references[key]
        out.append(("board", rgb, rgb.quantize(palette=pal, dither=Image.Dither.NONE), ref))
        focus = action_focus(step.state, view=step.view, width=VIEW_WIDTH)
        if focus is not None:
            view = action_view_rgb(step.state, focus, events=step.events, view=step.view, width=VIEW_WIDTH)
            vpal = palette_for(step.state, view_layout(VIEW_WIDTH)[0], False)
            out.append(("close-up", view, view.quantize(palette=vpal, dither=Image.Dither.NONE), None))
    return out


def encodings(seed: int, positions: int) -> None:
    t0 = time.perf_counter()
    pics = pictures(seed, positions)
    kinds = {k for k, *_ in pics}
    print(f"seed {seed}: {sum(1 for k, *_ in pics if k == 'board')} boards and "
          f"{sum(1 for k, *_ in pics if k == 'close-up')} close-ups from the whole match "
          f"({time.perf_counter() - t0:.0f} s to play and draw them)")

    def shipped(kind: str) -> Callable[[Image.Image, Image.Image, object], bytes]:
        level = LIVE_PNG_LEVEL if kind == "board" else VIEW_COMPRESS_LEVEL
        return lambda rgb, p, ref: encode_png(p, level, ref)  # type: ignore[arg-type]  # a PngReference or None

    def bands(level: int) -> Callable[[Image.Image, Image.Image, object], bytes]:
        return lambda rgb, p, ref: encode_png(p, level, ref)  # type: ignore[arg-type]  # a PngReference or None

    def adaptive(colours: int) -> Callable[[Image.Image, Image.Image, object], bytes]:
        return lambda rgb, p, ref: pillow_png(
            rgb.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE), compress_level=6)

    candidates: list[tuple[str, Callable[[Image.Image, Image.Image, object], bytes] | None, bool]] = [
        ("shipped", None, False),
        ("bands, zlib 2", bands(2), False),
        ("bands, zlib 4", bands(4), False),
        ("bands, zlib 5", bands(5), False),
        ("bands, zlib 6", bands(6), False),
        ("bands, zlib 9", bands(9), False),
        ("Pillow PNG, level 6", lambda rgb, p, ref: pillow_png(p, compress_level=6), False),
        ("Pillow PNG, optimize", lambda rgb, p, ref: pillow_png(p, optimize=True), False),
        ("adaptive 64 colours", adaptive(64), True),
        ("adaptive 32 colours", adaptive(32), True),
        ("WebP lossless, method 0", lambda rgb, p, ref: webp(p, 0), False),
        ("WebP lossless, method 4", lambda rgb, p, ref: webp(p, 4), False),
    ]
    for kind in sorted(kinds):
        rows = [(rgb, p, ref) for k, rgb, p, ref in pics if k == kind]
        floor = statistics.mean(error(rgb, p) for rgb, p, _ in rows)
        print(f"{kind} ({rows[0][0].width} px wide; the fixed palette's own error {floor:.2f}):")
        for name, fn, lossy in candidates:
            sizes, ms, errs = [], [], []
            for rgb, p, ref in rows:
                layers._RECENT.clear()  # at 1,000 channels the band cache rarely hits
                c0 = time.process_time()
                if fn is None:
                    pal_p = rgb.quantize(palette=p, dither=Image.Dither.NONE)
                    data = shipped(kind)(rgb, pal_p, ref)
                else:
                    data = fn(rgb, p, ref)
                ms.append((time.process_time() - c0) * 1000)
                sizes.append(len(data))
                if lossy:
                    errs.append(error(rgb, Image.open(io.BytesIO(data))))
            extra = f", error {statistics.mean(errs):.2f}" if errs else ""
            label = "shipped (palette + encoding)" if fn is None else name
            print(f"  {label:30} {statistics.median(sizes) / 1024:6.1f} KB median, p95 {pct(sizes, 0.95) / 1024:6.1f} KB; "
                  f"{statistics.median(ms):6.1f} ms median, p95 {pct(ms, 0.95):6.1f} ms{extra}")


async def through_discord(dice: str, *, width: int = BOARD_WIDTH, close_ups: bool = False) -> None:
    from types import SimpleNamespace

    import db.challenges
    import service.match_rules
    from ai import AICoach
    from bot.app import ElfballBot
    from db.engine import make_engine, use_engine
    from db.migrate import upgrade
    from fakediscord import FakeDiscord
    from service.matches import MatchService
    from support.bots import play_until, start_match, world

    engine = make_engine(f"sqlite:///{tempfile.mkdtemp(prefix='bench_bytes_')}/elfball.db")
    upgrade(engine)
    use_engine(engine)
    service.match_rules.secrets = SimpleNamespace(token_hex=lambda n: (dice * n)[: 2 * n])  # type: ignore[attr-defined]  # the match's secret, fixed
    db.challenges.challenge_seed = lambda **_: None  # type: ignore[assignment]  # no entropy from the accept
    async with FakeDiscord(timeout=30.0) as fake:
        guild, pitch, alice, bob, _, mod = world(fake)
        bot = ElfballBot(service=MatchService(width=width), dev_guild=guild.id)
        await fake.start_bot(bot)
        if close_ups:  # the server keeps the close-up in every board post (``/preferences server_close_up``)
            await fake.slash(mod, pitch, "preferences", server_close_up=True)
        await start_match(fake, pitch, alice, bob)
        start = fake.mark()
        commands = 0

        def record(*_: object) -> None:
            nonlocal commands
            commands += 1

        t0 = time.perf_counter()
        await play_until(fake, pitch, bot.service, {"west": alice, "east": bob}, {"west": AICoach(), "east": AICoach()},
                         lambda o: False, limit=3000, record=record)
        await fake.settle()
        elapsed = time.perf_counter() - t0
        per_picture: dict[str, list[int]] = {}
        for request in fake.requests[start.requests:]:
            for name, size in request.files:
                per_picture.setdefault(name, []).append(size)
        history = [m for m in fake.channel_history(pitch) if m.attachments]
        actions = len(history) - 1  # the accept's board is not an action
        sent = fake.uploaded_bytes(since=start)
        shown = sum(len(m.attachments) for m in history)
        uploads = sum(len(v) for v in per_picture.values())
        print(f"through the fake Discord (dice {dice!r}, board {width} px, close-ups "
              f"{'in every post' if close_ups else 'on demand'}): {commands} commands, {actions} actions, {elapsed:.0f} s")
        print(f"  uploaded {sent / 1024 / 1024:.1f} MB: {sent / commands / 1024:.0f} KB per command (a saved move), "
              f"{sent / max(1, actions) / 1024:.0f} KB per action (a message)")
        for name, sizes in sorted(per_picture.items()):
            print(f"  {name}: {len(sizes)} uploads, median {statistics.median(sizes) / 1024:.1f} KB, "
                  f"p95 {pct(sizes, 0.95) / 1024:.1f} KB")
        edits = sum(len(m.uploads) for m in history) - len(history)
        print(f"  {uploads} pictures uploaded for {commands} commands ({edits} edits with files); "
              f"pictures the channel shows at the end: {shown}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=3, help="the fuzz match whose positions are encoded")
    ap.add_argument("--positions", type=int, default=80, help="positions sampled evenly over the match")
    ap.add_argument("--discord", action="store_true", help="also play a whole match through the fake Discord")
    ap.add_argument("--dice", default="a1", help="the dice secret of that match (hex, repeated)")
    ap.add_argument("--width", type=int, default=BOARD_WIDTH, help="the board's width in the match (default: the bot's)")
    ap.add_argument("--close-ups", action="store_true", help="the server keeps the close-up in every board post")
    ap.add_argument("--no-encodings", action="store_true", help="skip the encoding comparison")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    if not args.no_encodings:
        encodings(args.seed, args.positions)
    if args.discord:
        import logging

        logging.basicConfig(level=logging.ERROR)
        asyncio.run(through_discord(args.dice, width=args.width, close_ups=args.close_ups))
    print(f"zlib {zlib.ZLIB_RUNTIME_VERSION}, Pillow {Image.__version__}; load average (1 min) before / after: "
          f"{load0:.2f} / {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
