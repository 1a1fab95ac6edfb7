"""The browser tests' Chromium and axe-core, as pytest fixtures (import them into a test module).

Debian's Chromium, never a browser Playwright would download; axe-core from the npm registry,
installed into a cache folder on first use. Without them a test skips locally and fails under CI,
since ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.databases import in_ci
from support.league_site import CHROMIUM, CHROMIUM_ARGS

__all__ = ["AXE_CACHE", "AXE_JS", "missing", "browser", "axe"]

AXE_CACHE = Path(os.environ.get("ELFBALL_AXE_DIR", Path.home() / ".cache" / "elfball" / "axe"))
AXE_JS = AXE_CACHE / "node_modules" / "axe-core" / "axe.min.js"


def missing(what: str) -> None:
    """Skip (locally) or fail (under CI) for want of ``what``."""
    if in_ci():
        pytest.fail(f"{what}: under CI the browser tests must run (.ci/run installs it)")
    pytest.skip(what)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        # A fresh profile each launch.
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def axe() -> str:
    """axe-core's script, installed from the npm registry into a cache folder on first use."""
    if not AXE_JS.is_file() and shutil.which("npm"):
        AXE_CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(AXE_CACHE), "axe-core@4"],
                       check=False, timeout=300, capture_output=True)
    if not AXE_JS.is_file():
        missing(f"axe-core is not installed in {AXE_CACHE} (npm install --prefix {AXE_CACHE} axe-core@4)")
    return AXE_JS.read_text()
