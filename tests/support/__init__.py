"""What the tests share and none of them is: builders of positions, database backends, the bot
against the fake Discord, league seasons, the league site, golden pictures, shard processes.

Test modules import from here (``from support.builders import P, position``) and never from each
other; fixtures live in ``tests/conftest.py``. ``tests/`` is on ``sys.path`` (pytest's
``pythonpath``), so ``support`` and ``fakediscord`` import by those names; scripts and benchmarks
put ``tests/`` on their path the same way.
"""

from __future__ import annotations

from pathlib import Path

#: The repository's root, whatever folder a test sits in.
ROOT = Path(__file__).resolve().parents[2]
#: The test suite's data: an older release's database and the script that wrote it.
DATA = ROOT / "tests" / "data"
