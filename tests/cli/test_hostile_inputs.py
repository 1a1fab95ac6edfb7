"""docs/reliability.md's table: the hostile inputs of ``scripts/hostile_inputs.py``, by
class, none of which may crash (issue 17). PostgreSQL's wrong-password case runs when
``ELFBALL_TEST_POSTGRES_URL`` gives a server."""

from __future__ import annotations

import logging
import os

import pytest

from scripts.hostile_inputs import CONTROLS, run_all, table

pytestmark = pytest.mark.slow  # over a thousand command lines


def test_no_hostile_input_crashes_the_command_line() -> None:
    logging.disable(logging.CRITICAL)
    try:
        results = run_all(os.environ.get("ELFBALL_TEST_POSTGRES_URL") or None)
    finally:
        logging.disable(logging.NOTSET)
    crashed = [f"{r.case.kind}: {r.case.name}: {r.message}" for r in results if r.outcome == "crashed"]
    assert crashed == [], "\n".join(crashed[:10])
    refused = [r for r in results if r.outcome == "refused"]
    assert len(results) > 1000 and len(refused) > 0.8 * len(results), table(results)
    # Every refusal is one line that names the command.
    assert all(r.message.startswith("elfball ") or "usage:" in r.message or "error:" in r.message for r in refused)
    # The valid inputs of each class are accepted: the checks refuse what is wrong, not everything.
    controls = [r for r in results if r.case.kind == CONTROLS]
    assert len(controls) == 4 and all(r.outcome == "accepted" and r.code == 0 for r in controls), controls
