"""``elfball verify --file RECORD --commitment HEX [--entropy TEXT]`` (issues #30, #31): a record is
checked against what the bot posted in Discord, not only against itself; a forged record (the
operator's secret, no entropy, its own matching commitment) fails; rows after the match ended
are refused; what is read and printed is bounded (cli/verify_commands.py, service/verify.py)."""

from __future__ import annotations

import hashlib
import json

import pytest
from support.records import ENTROPY, POSTED, SECRET, played_record

from cli.main import main

#: The bounds a record is held to (``service.verify.MAX_LOG_ROWS``, ``MAX_RECORD_BYTES``).
MAX_LOG_ROWS = 20_000
MAX_RECORD_BYTES = 16 * 2**20


@pytest.fixture(scope="module")
def genuine():
    """The match the coaches saw committed: the drawn secret joined with their entropy."""
    return played_record(f"{SECRET}+{ENTROPY}").to_json()


@pytest.fixture(scope="module")
def forged():
    """The operator's record: his own secret, no entropy, its own matching commitment; it holds
    together, die for die."""
    return played_record("operator-chosen-secret").to_json()


def _file(tmp_path, data, name="record.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def _run(capsys, *args):
    code = main(["verify", *args, "--language", "en"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_forged_record_fails_against_the_posted_commitment(forged, genuine, tmp_path, capsys):
    path = _file(tmp_path, forged)
    assert forged["seed_commitment"] == hashlib.sha256(b"operator-chosen-secret").hexdigest()
    # Alone it holds together, and the console says that is all it shows: no "Verified".
    code, out, _ = _run(capsys, "--file", path)
    assert code == 0 and "Verified" not in out
    assert "Consistent with itself only" in out and "whoever wrote the record also wrote its commitment" in out
    assert "--commitment HEX" in out and "it was chosen (a console or test match)" in out
    # Against the commitment posted in Discord it fails, naming both.
    code, out, _ = _run(capsys, "--file", path, "--commitment", POSTED)
    assert code == 1 and f"posted commitment {POSTED}" in out
    assert "NOT verified: the seed's secret is not the one committed in Discord" in out and POSTED in out
    # The same forgery with a secret of the drawn form fails the same way.
    code, out, _ = _run(capsys, "--file", _file(tmp_path, played_record("f" * 64).to_json(), "f.json"),
                        "--commitment", POSTED)
    assert code == 1 and "not the one committed in Discord" in out
    # The genuine record is verified, its entropy too, in English and in French.
    path = _file(tmp_path, genuine, "genuine.json")
    code, out, _ = _run(capsys, "--file", path, "--commitment", f"sha256 `{POSTED.upper()}`", "--entropy", ENTROPY)
    assert code == 0 and "Verified against the commitment posted in Discord" in out
    assert f"The seed's entropy is the one posted, `{ENTROPY}`." in out
    assert main(["verify", "--file", path, "--commitment", POSTED, "--language", "fr"]) == 0
    assert "Vérifié avec l'engagement publié dans Discord" in capsys.readouterr().out
    # Another entropy than the posted one fails.
    code, out, _ = _run(capsys, "--file", path, "--commitment", POSTED, "--entropy", "c1.a2")
    assert code == 1 and f"the seed's entropy is `{ENTROPY}`, but the entropy posted in Discord is `c1.a2`" in out


def test_a_secret_not_drawn_by_the_bot_fails_against_its_own_posted_commitment(forged, tmp_path, capsys):
    """Even when the posted commitment is the chosen secret's own: a chosen secret could be
    guessed from its commitment before the match ends."""
    code, out, _ = _run(capsys, "--file", _file(tmp_path, forged), "--commitment", forged["seed_commitment"])
    assert code == 1 and "is not 64 lowercase hex digits as the bot draws them" in out


def test_what_is_not_a_commitment_or_an_entropy_is_refused_before_reading(genuine, tmp_path, capsys):
    path = _file(tmp_path, genuine)
    for bad in ("xyz", POSTED[:15], POSTED + "0"):
        code, out, err = _run(capsys, "--file", path, "--commitment", bad)
        assert code == 2 and not out and "a commitment is the 64 hex digits posted in Discord" in err
    code, out, err = _run(capsys, "--file", path, "--commitment", POSTED, "--entropy", "c1..a2")
    assert code == 2 and "entropy is letters, digits and '-', in parts joined by '.'" in err
    code, out, err = _run(capsys, "--file", path, "--entropy", ENTROPY)
    assert code == 2 and "give --commitment too" in err


def test_rows_after_the_match_ended_are_refused(genuine, tmp_path, capsys):
    end = len(genuine["log"]) - 1  # the concession ends the match
    data = dict(genuine, log=genuine["log"] + [
        {"seq": end + 1 + i, "kind": "restore", "command": None, "actor_side": None, "dice": [], "events": []}
        for i in range(5)])
    code, out, _ = _run(capsys, "--file", _file(tmp_path, data), "--commitment", POSTED)
    assert code == 1
    assert f"NOT verified: row {end + 1} comes after the match ended at row {end} ({end + 6} rows in all)" in out
    # A command-less row that is neither an abandon nor a restore is no row of a match.
    log = [dict(r) for r in genuine["log"]]
    log.insert(3, {"seq": 3, "kind": "command", "command": None, "actor_side": None, "dice": [], "events": []})
    data = dict(genuine, log=[dict(r, seq=i) for i, r in enumerate(log)])
    code, out, _ = _run(capsys, "--file", _file(tmp_path, data, "gap.json"))
    assert code == 1 and "row 3 (command) has no command" in out


def test_600000_rows_and_oversized_files_are_refused_with_a_clear_message(genuine, tmp_path, capsys):
    rows = [{"seq": i, "kind": "abandon", "command": None} for i in range(1, MAX_LOG_ROWS + 1)]
    code, out, err = _run(capsys, "--file", _file(tmp_path, dict(genuine, log=genuine["log"][:1] + rows)))
    assert code == 2 and not out
    assert f"log should be at most {MAX_LOG_ROWS:,} rows (a whole match is a few hundred), not {MAX_LOG_ROWS + 1:,}" in err
    big = tmp_path / "huge.json"
    with big.open("wb") as f:  # 600,000 rows' worth of file, sparse: refused by its size, unread
        f.truncate(MAX_RECORD_BYTES + 1)
    code, out, err = _run(capsys, "--file", str(big))
    assert code == 2 and not out and "is 16 MB: a match record is at most 16 MB" in err


@pytest.mark.slow  # a 14 MB record written and read: ~9 s of CPU
def test_a_path_of_two_million_hexes_is_bounded(genuine, tmp_path, capsys):
    def with_path(n):
        log = [dict(r) for r in genuine["log"]]
        log[-1] = dict(log[-1], command={"name": "move", "path": [[1, 4]] * n})
        return dict(genuine, log=log)

    code, out, err = _run(capsys, "--file", _file(tmp_path, with_path(2_000_000)))
    assert code == 2 and not out and max(len(line) for line in err.splitlines()) < 300
    assert "log[5].command should be at most 4,000 characters of JSON" in err
    # A long path under that bound is replayed, refused, and quoted cut short.
    code, out, _ = _run(capsys, "--file", _file(tmp_path, with_path(400), "long.json"))
    assert code == 1 and "NOT verified: row 5 (move path=[[1,4],[1,4]" in out and "characters)" in out
    assert max(len(line) for line in out.splitlines()) < 1000
