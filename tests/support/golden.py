"""The golden pictures (``tests/golden``) and how a render is compared with them.

``scripts/gen_golden.py`` holds the scenarios and writes the goldens; ``golden_module`` loads it
once for the tests, ``differing`` measures how far two pictures differ.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache

from PIL import Image, ImageChops

from support import ROOT


@cache
def golden_module():  # type: ignore[no-untyped-def]
    """``scripts/gen_golden.py``, loaded once: its scenarios and its ``render``."""
    spec = importlib.util.spec_from_file_location("gen_golden", ROOT / "scripts" / "gen_golden.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_golden"] = mod
    spec.loader.exec_module(mod)
    return mod


def differing(a: Image.Image, b: Image.Image, threshold: int = 40) -> float:
    """Fraction of pixels whose channels differ by more than ``threshold``."""
    d = ImageChops.difference(a, b)
    r, g, bl = d.split()
    m = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    hist = m.histogram()
    return sum(hist[threshold + 1:]) / max(1, sum(hist))
