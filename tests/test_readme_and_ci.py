"""The README's set-up commands and the CI script, kept in step so neither can drift; the README
stays a front door, and its links and the docs' links point somewhere real."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import textwrap
from pathlib import Path

import pytest
from support import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
CI_RUN = ROOT / ".ci" / "run"

RUN_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/elfball demo"
TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"


def _code_lines(markdown: str) -> list[str]:
    """Every non-blank line inside fenced code blocks, in order."""
    lines: list[str] = []
    inside = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            inside = not inside
            continue
        if inside and line.strip():
            lines.append(line)
    return lines


def _ci_commands() -> list[str]:
    """The script's lines without comments and blank lines."""
    return [ln.strip() for ln in CI_RUN.read_text().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


# -- README ---------------------------------------------------------------------------------


def test_readme_first_code_lines_are_the_two_setup_commands() -> None:
    assert _code_lines(README.read_text())[:2] == [RUN_COMMAND, TEST_COMMAND]


def test_readme_setup_block_comes_right_after_the_title() -> None:
    lines = [ln for ln in README.read_text().splitlines() if ln.strip()]
    assert lines[0].startswith("# ")
    assert lines[1].startswith("```")
    assert lines[2:4] == [RUN_COMMAND, TEST_COMMAND]


def test_readme_names_every_cli_command() -> None:
    from cli.main import build_parser

    text = README.read_text()
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:  # type: ignore[union-attr]  # the subparsers action: its choices map names to parsers
        assert f"`elfball {name}" in text, name


def test_readme_links_exist() -> None:
    text = README.read_text()
    for target in re.findall(r"\]\(((?!https?:|#)[^)]+)\)", text):
        assert (ROOT / target.split("#")[0]).exists(), target


def test_readme_is_a_front_door_of_at_most_15_kb() -> None:
    """Experiments and benchmark histories live in docs/, not in the README."""
    assert len(README.read_bytes()) <= 15_000


def test_readme_links_every_doc() -> None:
    text = README.read_text()
    for doc in sorted(DOCS.glob("*.md")):
        assert f"](docs/{doc.name})" in text, doc.name


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(markdown: str) -> set[str]:
    headings = [ln.lstrip("#") for ln in _prose(markdown).splitlines() if re.match(r"#{1,6} ", ln)]
    return {_anchor(h) for h in headings}


def _prose(markdown: str) -> str:
    """The text outside fenced code blocks (where a ``#`` is a comment, not a heading)."""
    return re.sub(r"^```.*?^```", "", markdown, flags=re.M | re.S)


def test_links_between_the_readme_and_the_docs_point_somewhere_real() -> None:
    """A moved section leaves no link, or anchor, pointing at the place it left."""
    pages = [README, *sorted(DOCS.glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(((?!https?:|mailto:)[^)\s]+)\)", _prose(page.read_text())):
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            assert linked.exists(), f"{page.name}: {target}"
            if anchor:
                assert anchor in _anchors(linked.read_text()), f"{page.name}: {target}"


def test_the_anchor_rule_drops_punctuation_as_github_does() -> None:
    assert _anchor(" 14. Optional rules, the French variant and tournaments") == (
        "14-optional-rules-the-french-variant-and-tournaments")
    assert _anchor(" Many servers at once (`bench_load.py`)") == "many-servers-at-once-bench_loadpy"
    assert _anchor(" En français") == "en-français"


# -- .ci/run --------------------------------------------------------------------------------


def test_ci_script_is_executable_bash_with_strict_mode() -> None:
    mode = CI_RUN.stat().st_mode
    assert mode & stat.S_IXUSR and mode & stat.S_IXGRP and mode & stat.S_IXOTH
    text = CI_RUN.read_text()
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in _ci_commands()
    assert 'cd "$(dirname "$0")/.."' in _ci_commands()


def test_ci_builds_the_venv_as_the_readme_test_command_does() -> None:
    venv, install, pytest_cmd = TEST_COMMAND.split(" && ")
    commands = _ci_commands()
    assert venv in commands
    assert any(c.startswith(install) for c in commands), "same pip install -e '.[test]'"
    assert any(c.startswith(pytest_cmd) for c in commands), "runs .venv/bin/python -m pytest"
    # In that order: venv, install, then the tests.
    first = {
        key: next(i for i, c in enumerate(commands) if c.startswith(key)) for key in (venv, install, pytest_cmd)
    }
    assert first[venv] < first[install] < first[pytest_cmd]


def test_ci_handles_exit_code_5() -> None:
    text = CI_RUN.read_text()
    assert re.search(r'"\$status" -eq 5 \]', text)


def test_ci_starts_postgresql_on_loopback_for_the_database_tests() -> None:
    text = CI_RUN.read_text()
    commands = _ci_commands()
    # Debian's package, installed when missing, the server run as the postgres user (never root).
    assert "apt-get update -qq" in commands
    assert any(re.match(r"DEBIAN_FRONTEND=noninteractive apt-get install -y .*postgresql", c) for c in commands)
    assert "runuser -u postgres" in text
    # A private cluster listening on 127.0.0.1 only, then a user and a database for the tests.
    assert "listen_addresses=127.0.0.1" in text
    assert "--auth-host=scram-sha-256" in text
    assert re.search(r"CREATE DATABASE \w+ OWNER", text)
    assert re.search(r'export ELFBALL_TEST_POSTGRES_URL="postgresql\+psycopg://[^@]+@127\.0\.0\.1:', text)
    assert "trap stop_postgres EXIT" in text
    # Started before the tests, unless a server is given or PostgreSQL is switched off.
    start = next(i for i, c in enumerate(commands) if c == "start_postgres")
    tests = next(i for i, c in enumerate(commands) if c.startswith(".venv/bin/python -m pytest"))
    assert start < tests
    assert 'if [ -n "${ELFBALL_TEST_POSTGRES_URL:-}" ]; then' in commands
    assert 'elif [ "${ELFBALL_CI_POSTGRES:-1}" != "0" ]; then' in commands


def _fake_checkout(tmp_path: Path, pytest_exit: int) -> tuple[Path, dict[str, str]]:
    """A checkout holding only .ci/run, and a PATH whose python3 builds a fake venv.

    The fake ``.venv/bin/python`` exits with ``pytest_exit``; the fake pip, lint-imports, mypy
    and ruff only log their calls. This
    runs the real script end to end in milliseconds, without a network or a real install.
    """
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy2(CI_RUN, repo / ".ci" / "run")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    python3 = fake_bin / "python3"
    python3.write_text(
        textwrap.dedent(
            f"""\
            #!/usr/bin/env bash
            # Only "python3 -m venv .venv" is expected.
            [ "$1 $2 $3" = "-m venv .venv" ] || exit 99
            mkdir -p .venv/bin
            printf '#!/usr/bin/env bash\\necho "pip $*" >> calls.log\\n' > .venv/bin/pip
            printf '#!/usr/bin/env bash\\necho "python $*" >> calls.log\\nexit {pytest_exit}\\n' > .venv/bin/python
            for tool in lint-imports mypy ruff; do
                printf '#!/usr/bin/env bash\necho "%s $*" >> calls.log\n' "$tool" > ".venv/bin/$tool"
                chmod +x ".venv/bin/$tool"
            done
            chmod +x .venv/bin/pip .venv/bin/python
            """
        )
    )
    python3.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_bin}{os.pathsep}{os.environ.get('PATH', '')}", "CI": "true"}
    # No PostgreSQL here: the fake run must not install or start a server.
    env["ELFBALL_CI_POSTGRES"] = "0"
    env.pop("ELFBALL_TEST_POSTGRES_URL", None)
    return repo, env


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(("pytest_exit", "expected"), [(0, 0), (5, 0), (1, 1), (2, 2)])
def test_ci_script_runs_and_maps_exit_codes(tmp_path: Path, pytest_exit: int, expected: int) -> None:
    repo, env = _fake_checkout(tmp_path, pytest_exit)
    # Started from elsewhere, the script must cd to the checkout itself.
    result = subprocess.run(
        ["bash", str(repo / ".ci" / "run")],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == expected, result.stdout + result.stderr
    calls = (repo / "calls.log").read_text().splitlines()
    assert calls[0].startswith("pip install -e .[test]")
    # The house's checks run before any test: the floors, the types, the lint.
    assert [c.split()[0] for c in calls[1:4]] == ["lint-imports", "mypy", "ruff"]
    assert calls[4] == "python -m pytest"
    if pytest_exit == 5:
        assert "no tests" in result.stdout and "exit code 5" in result.stdout
    else:
        assert "no tests" not in result.stdout
