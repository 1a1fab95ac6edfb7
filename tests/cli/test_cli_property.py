"""Property: any JSON given to ``elfball scenario``, ``render`` and ``verify --file`` is either
refused (exit 2 and a message) or accepted (0, or 1 for a record that does not verify), never
another exception (issue 17). Two kinds of input: JSON of any shape, and a valid file with any
JSON put at any place in it (which reaches the checks deep inside)."""

from __future__ import annotations

import json
import logging
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scripts.hostile_inputs import Case, _paths, _record, _set, _state_json, run
from support import ROOT

pytestmark = pytest.mark.slow  # Hypothesis: hundreds of JSON documents through the command line

SCENARIO = {k: v for k, v in json.loads((ROOT / "scenarios/rulebook/play-by-play-1.json").read_text(
    encoding="utf-8")).items() if k != "expect"}

#: Text of any characters, with lone surrogates (which JSON can write) and the words of a file.
TEXT = st.one_of(st.text(max_size=12), st.sampled_from(["w1", "e2", "K12", "A1", "NE", "standing", "field", "turn",
                                                        "west", "\udcff", "²", "night-elves/imps"]))
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=-10, max_value=20),
                    st.floats(allow_nan=True, allow_infinity=True), TEXT)
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)
#: Commands stay ASCII here: arbitrary text in the console grammar is the grammar's own
#: property test (tests/service/test_grammar.py), and its Unicode digits are fixed there.
COMMAND_TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True, scope="module")
def _quiet():
    logging.disable(logging.CRITICAL)
    yield
    logging.disable(logging.NOTSET)


def _check(argv: list[str]) -> None:
    result = run(Case("property", " ".join(argv), argv))
    assert result.outcome != "crashed", result.message


def _file(folder: str, data: Any, name: str = "in.json") -> str:
    path = Path(folder) / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _mutated(base: Any, data: st.DataObject, ascii_under: tuple[str, ...] = ()) -> Any:
    paths = list(_paths(base))
    path = data.draw(st.sampled_from(paths), label="path")
    value = data.draw(COMMAND_TEXT if path[:1] and path[0] in ascii_under and len(path) > 1 else JSON, label="value")
    return _set(base, path, value)


@PROPERTY
@given(JSON)
def test_scenario_of_any_json(value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check(["scenario", _file(folder, value)])


@PROPERTY
@given(st.data())
def test_scenario_with_any_json_anywhere(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check(["scenario", _file(folder, _mutated(SCENARIO, data, ascii_under=("commands",)))])


@pytest.fixture(scope="module")
def state() -> dict[str, Any]:
    return _state_json()


@settings(PROPERTY, max_examples=60)
@given(value=JSON)
def test_render_of_any_json(value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check(["render", _file(folder, value), str(Path(folder) / "out.png")])


@PROPERTY
@given(data=st.data())
def test_render_with_any_json_anywhere(state: dict[str, Any], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        wrapped = data.draw(st.booleans(), label="wrapped")
        mutated = _mutated(state, data)
        content = {"state": mutated, "events": data.draw(st.lists(JSON, max_size=2), label="events")} if wrapped \
            else mutated
        _check(["render", _file(folder, content), str(Path(folder) / "out.png")])


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _record(tmp_path_factory.mktemp("record"))[0]


@settings(PROPERTY, max_examples=60)
@given(value=JSON)
def test_verify_of_any_json(value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check(["verify", "--file", _file(folder, value)])


@PROPERTY
@given(data=st.data())
def test_verify_with_any_json_anywhere(record: dict[str, Any], data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _check(["verify", "--file", _file(folder, _mutated(record, data))])
