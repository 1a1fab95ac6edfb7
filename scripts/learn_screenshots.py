"""The pictures of ``/learn`` in docs/learn.md: docs/learn-start.png (a lesson's first post in the
member's private thread: its title, goal and rule, the board and the panel) and docs/learn-done.png
(the same lesson solved: the try's last board and the verdict quoting the rule, with its buttons).

Runs the real bot against the fake Discord (``tests/fakediscord``) on a temporary SQLite database,
has a newcomer type ``/learn start`` and play the lesson's solution (``tests/support/learning.py``),
then draws the thread's messages as Discord's dark theme shows them (a small HTML page: the bot's
text with its markdown, the board and the buttons) and photographs it in Debian's headless
Chromium, as ``scripts/site_screenshots.py`` does for the league site (the emoji need Debian's
``fonts-noto-color-emoji``).

    .venv/bin/python scripts/learn_screenshots.py [--lesson throw-and-catch] [--lessons DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The repository too: tests/ alone would make tests/engine/ the `engine` package.
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from PIL import Image  # noqa: E402

from db.engine import make_engine, use_engine  # noqa: E402
from db.migrate import upgrade  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from service import lesson_book  # noqa: E402
from support.bots import make_bot, world  # noqa: E402
from support.learning import lesson_thread, play_solution  # noqa: E402
from support.league_site import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

STYLE = """
body { background:#313338; color:#dbdee1; font: 15px/1.375 'DejaVu Sans', 'Noto Color Emoji', sans-serif; margin:0; padding:16px 20px; width:760px; }
.head { color:#f2f3f5; font-weight:600; border-bottom:1px solid #3f4147; padding-bottom:10px; margin-bottom:12px; }
.head small { color:#949ba4; font-weight:400; }
.msg { display:flex; gap:14px; margin: 0 0 18px; }
.avatar { width:40px; height:40px; border-radius:50%; background:#5865f2; color:#fff; display:flex;
          align-items:center; justify-content:center; font-weight:700; flex:none; }
.name { color:#f2f3f5; font-weight:600; } .tag { background:#5865f2; color:#fff; font-size:10px; border-radius:3px;
        padding:1px 4px; margin-left:4px; vertical-align:2px; } .time { color:#949ba4; font-size:12px; margin-left:6px; }
.text { white-space:pre-wrap; word-wrap:break-word; }
.mention { background:rgba(88,101,242,.3); color:#c9cdfb; border-radius:3px; padding:0 2px; }
code { background:#2b2d31; border-radius:3px; padding:0 3px; font-size:13px; }
img.board { max-width:520px; border-radius:8px; margin-top:6px; display:block; }
.row { display:flex; flex-wrap:wrap; gap:8px; margin-top:8px; }
.btn { border-radius:3px; padding:3px 14px; min-height:30px; display:inline-flex; align-items:center; color:#fff;
       font-size:14px; font-weight:500; }
.s1 { background:#5865f2; } .s2 { background:#4e5058; } .s3 { background:#248046; } .s4 { background:#da373c; }
.select { background:#1e1f22; border:1px solid #1e1f22; border-radius:4px; padding:8px 10px; width:480px; color:#949ba4; }
"""


def markdown(text: str, names: dict[int, str]) -> str:
    """Discord's markdown, as far as the bot's posts use it."""
    out = html.escape(text)
    out = re.sub(r"&lt;@!?(\d+)&gt;", lambda m: f'<span class="mention">@{names.get(int(m.group(1)), "member")}</span>', out)
    out = re.sub(r"&lt;#(\d+)&gt;", lambda m: f'<span class="mention">#{names.get(int(m.group(1)), "channel")}</span>', out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    return out


def components(message) -> str:
    rows = []
    for row in message.components:
        items = []
        for c in row.get("components", []):
            if c.get("type") == 2:
                emoji = (c.get("emoji") or {}).get("name", "")
                items.append(f'<span class="btn s{c.get("style", 2)}">{html.escape((emoji + " ") if emoji else "")}'
                             f'{html.escape(c.get("label") or "")}</span>')
            else:
                items.append(f'<div class="select">{html.escape(c.get("placeholder") or "")}</div>')
        rows.append(f'<div class="row">{"".join(items)}</div>')
    return "".join(rows)


def page(messages, thread_name: str, names: dict[int, str]) -> str:
    parts = [f"<!doctype html><meta charset=utf-8><style>{STYLE}</style>",
             f'<div class="head">🧵 {html.escape(thread_name)} <small>— private thread</small></div>']
    for m in messages:
        pictures = "".join(
            f'<img class="board" src="data:image/png;base64,{base64.b64encode(a.data).decode()}">'
            for a in m.attachments if a.is_png)
        parts.append(f'<div class="msg"><div class="avatar">E</div><div><span class="name">Elfball</span>'
                     f'<span class="tag">APP</span><span class="time">Today at 09:14</span>'
                     f'<div class="text">{markdown(m.content, names)}</div>{pictures}{components(m)}</div></div>')
    return "".join(parts)


async def play(lesson_id: str) -> tuple[str, str]:
    """The two pages: the lesson's first post, and its solved end."""
    chosen = lesson_book.lesson(lesson_id)
    async with FakeDiscord(timeout=20) as fake:
        guild, pitch, alice, *_ = world(fake)
        bot = make_bot(guild)
        await fake.start_bot(bot)
        await fake.slash(alice, pitch, "learn start", lesson=chosen.id)
        thread = lesson_thread(fake, guild, alice)
        names = {alice.id: "Alice", pitch.id: pitch.name, thread.id: thread.name}
        start = page([fake.channel_history(thread)[-1]], thread.name, names)
        await play_solution(fake, bot, thread, alice, chosen.solution)
        done = page(fake.channel_history(thread)[-2:], thread.name, names)
        await fake.stop_bot(bot)
    return start, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="throw-and-catch", help="the lesson to photograph")
    parser.add_argument("--lessons", type=Path, help="a folder of lesson files (default: the book)")
    args = parser.parse_args()
    if args.lessons:
        lesson_book.LESSON_DIR = args.lessons
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{tmp}/elfball.db")
        upgrade(engine)
        use_engine(engine)
        pages = asyncio.run(play(args.lesson))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        view = browser.new_page(viewport={"width": 800, "height": 600})
        for kind, text in zip(("start", "done"), pages):
            view.set_content(text, wait_until="load")
            view.wait_for_timeout(200)
            target = ROOT / "docs" / f"learn-{kind}.png"
            view.screenshot(path=str(target), full_page=True)
            # 256 colours are plenty for a chat and a board: a third of the bytes in the repository.
            Image.open(target).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
            print(target)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
