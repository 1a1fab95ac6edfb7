"""What a bot carries when it is ready (issue 33): structural facts only, no timings or sizes.

The league's website builder (Jinja2, its templates) is needed by one commissioner command,
``/league export``: a bot that has loaded every extension has not imported it yet. Checked in a
fresh interpreter, since this test process may have imported anything already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import asyncio, json, sys
from bot.app import EXTENSIONS, ElfballBot

async def ready():
    bot = ElfballBot(None, background=False, sync="never")
    for name in EXTENSIONS:
        await bot.load_extension(name)

asyncio.run(ready())
print(json.dumps([m for m in ("service.site", "jinja2") if m in sys.modules]))
"""


def test_a_ready_bot_has_not_imported_the_website_builder(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'probe.db'}", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env,
                         check=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_release_free_memory_runs_where_the_c_library_has_malloc_trim() -> None:
    from service.drawing import release_free_memory

    assert release_free_memory() is (sys.platform.startswith("linux"))
