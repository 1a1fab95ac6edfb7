"""The dice key (issue 30, "The key"): a key file made atomically, so two processes making it at
once share one complete key; an empty or damaged key file and a weak ``ELFBALL_SECRET`` refused
at start with what to do; strong secrets and existing key files derived as before."""

from __future__ import annotations

import hashlib
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.main import main
from db import seeds
from db.engine import make_engine, use_engine
from db.errors import StoreError, UnusableDatabaseError
from db.seeds import SECRET_ENV, key_for, new_secret, open_seed, seal, strong_secret
from engine import commitment_of
from service import console, operations

ROOT = Path(__file__).resolve().parents[2]
EMPTY_KEY = hashlib.sha256(b"").digest()

# Each process waits for the go file, then asks for the key of the same new SQLite database. The
# key is slow to draw (a busy machine): the window in which a key file exists but is not written
# yet, if there is one, lasts long enough for the other process to read it.
MAKER = r"""
import os, secrets, sys, time
from pathlib import Path
draw = secrets.token_hex
def slow_draw(n=None):
    time.sleep(0.4)
    return draw(n)
secrets.token_hex = slow_draw
os.environ.pop("ELFBALL_SECRET", None)
from db.engine import make_engine
from db.seeds import key_for
database, go, ready = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
engine = make_engine(f"sqlite:///{database}")
ready.touch()
while not go.exists():
    time.sleep(0.001)
print(key_for(engine).hex(), flush=True)
"""


@pytest.fixture
def no_secret(monkeypatch):
    monkeypatch.delenv(SECRET_ENV, raising=False)
    monkeypatch.setattr(seeds, "KEY_FILE_WAIT", 0.2)


def _sqlite(tmp_path):  # type: ignore[no-untyped-def]
    return make_engine(f"sqlite:///{tmp_path / 'elfball.db'}")


@pytest.mark.slow  # several Python processes start: seconds
@pytest.mark.parametrize("processes", [2, 4])
def test_processes_making_the_key_file_at_once_share_one_complete_key(tmp_path, processes):
    database, go, ready = tmp_path / "elfball.db", tmp_path / "go", tmp_path / "ready"
    ready.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(SECRET_ENV, None)
    procs = [subprocess.Popen([sys.executable, "-c", MAKER, str(database), str(go), str(ready / str(i))], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for i in range(processes)]
    for _ in range(6000):  # every process imported and waiting at the start line (at most a minute)
        if len(list(ready.iterdir())) == processes or any(p.poll() is not None for p in procs):
            break
        time.sleep(0.01)
    go.touch()
    outs = [p.communicate(timeout=60) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    keys = {out.strip() for out, _ in outs}
    text = (tmp_path / "elfball.db.secret").read_text(encoding="ascii").strip()
    assert len(keys) == 1, keys  # one key for all of them
    (key,) = keys
    assert bytes.fromhex(key) != EMPTY_KEY and strong_secret(text)
    assert bytes.fromhex(key) == hashlib.sha256(text.encode()).digest()  # the file's, complete
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elfball.db.secret", "go", "ready"]  # no temporary file left


def test_the_key_file_is_made_once_owner_only_and_read_as_before(tmp_path, no_secret):
    engine = _sqlite(tmp_path)
    key = key_for(engine)
    path = tmp_path / "elfball.db.secret"
    assert (path.stat().st_mode & 0o777) == 0o600 and key_for(engine) == key
    # A key file of an earlier release (64 hex digits and a newline) gives the key it always gave.
    earlier = "5f0c1e9a7d3b2c48e6a1f09b7c2d4e3a8b6f5c1d0e9a7b3c2d4f6e8a1b0c9d7e"
    path.write_text(earlier + "\n", encoding="ascii")
    assert key_for(engine) == hashlib.sha256(earlier.encode()).digest()
    engine.dispose()


@pytest.mark.parametrize("content, why", [("", "is empty"), ("\n  \n", "is empty"), ("abc123\n", "does not hold a key"),
                                          ("0" * 64, "does not hold a key"), ("\xff\xfe", "does not hold a key")])
def test_an_empty_or_damaged_key_file_is_refused_at_start_with_its_name(tmp_path, no_secret, content, why):
    path = tmp_path / "elfball.db.secret"
    path.write_bytes(content.encode("latin-1"))
    old = use_engine(None)
    try:
        with pytest.raises(StoreError) as refused:
            console.open_database(str(tmp_path / "elfball.db"))  # elfball local: the console's start
    finally:
        use_engine(old)
    said = str(refused.value)
    assert f"the dice key file {path} {why}" in said and "the bot will not use it" in said
    assert "Put your copy of the key back" in said and "delete the file to make a new key" in said
    assert "docs/operating.md" in said
    assert f"le fichier de clé des dés {path}" in refused.value.text("fr")
    engine = _sqlite(tmp_path)
    with pytest.raises(UnusableDatabaseError, match=why):  # and never used later either
        key_for(engine)
    engine.dispose()
    assert path.read_bytes() == content.encode("latin-1")  # left as it was, for the operator


def test_an_empty_key_file_is_refused_when_the_bot_starts(tmp_path, no_secret, monkeypatch, capsys):
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "elfball.db"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / "elfball.db.secret").write_text("", encoding="ascii")
    old = use_engine(None)
    try:
        with pytest.raises(UnusableDatabaseError, match="is empty"):
            operations.upgrade_database()  # elfball bot's start, before connecting to Discord
        assert main(["key", "check"]) == 2
    finally:
        use_engine(old)
    assert "is empty: the bot will not use it" in capsys.readouterr().err


@pytest.mark.parametrize("weak", ["x", "hunter2", "the test suite's own dice key", "correcthorsebatterystaple",
                                  "correct horse battery staple and more words", "0" * 64, "deadbeef" * 8,
                                  "a" * 40, "0123456789abcdef0123456789abcde"])
def test_a_weak_secret_is_refused_at_start_saying_how_to_make_one(tmp_path, monkeypatch, weak):
    monkeypatch.setenv(SECRET_ENV, weak)
    old = use_engine(None)
    try:
        with pytest.raises(StoreError) as refused:
            console.open_database(str(tmp_path / "elfball.db"))
    finally:
        use_engine(old)
    said = str(refused.value)
    assert said.startswith("ELFBALL_SECRET is too weak to seal the dice") and "at least 128 bits" in said
    assert "elfball key new" in said and "secrets.token_hex(32)" in said
    assert "ELFBALL_SECRET est trop faible" in refused.value.text("fr")
    assert not (tmp_path / "elfball.db.secret").exists()


def test_a_weak_secret_is_refused_when_the_bot_starts(tmp_path, monkeypatch):
    monkeypatch.setenv(SECRET_ENV, "x")
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "elfball.db"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    old = use_engine(None)
    try:
        with pytest.raises(UnusableDatabaseError, match="ELFBALL_SECRET is too weak"):
            operations.upgrade_database()
    finally:
        use_engine(old)


def test_random_keys_of_128_bits_or_more_are_accepted():
    for _ in range(300):
        for text in (secrets.token_hex(16), secrets.token_hex(32), new_secret(), secrets.token_urlsafe(24),
                     secrets.token_urlsafe(48), __import__("base64").b64encode(secrets.token_bytes(32)).decode()):
            assert strong_secret(text), text
    assert not strong_secret(secrets.token_hex(15))  # 120 bits
    assert not strong_secret(secrets.token_urlsafe(15))  # 20 characters: 120 bits


def test_a_strong_secret_of_an_existing_deployment_still_opens_its_seeds(tmp_path, monkeypatch):
    secret = secrets.token_urlsafe(48)  # the example docs/operating.md always gave
    seed = secrets.token_hex(32)
    sealed = seal(seed, hashlib.sha256(secret.encode("utf-8")).digest())  # as earlier releases sealed
    monkeypatch.setenv(SECRET_ENV, f"  {secret}\n")
    engine = _sqlite(tmp_path)
    assert open_seed(sealed, key_for(engine), commitment_of(seed)) == seed
    engine.dispose()


def test_key_new_prints_a_strong_key_and_key_check_says_where_it_lives(tmp_path, no_secret, monkeypatch, capsys):
    assert main(["key", "new"]) == 0
    out, err = capsys.readouterr()
    assert strong_secret(out.strip()) and len(out.strip()) == 64 and "ELFBALL_SECRET" in err
    monkeypatch.setenv("ELFBALL_DB", str(tmp_path / "elfball.db"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["key", "check"]) == 0
    assert f"The dice key is in {tmp_path / 'elfball.db.secret'}: usable" in capsys.readouterr().out
    monkeypatch.setenv(SECRET_ENV, out.strip())
    assert main(["key", "check", "--language", "fr"]) == 0
    assert "La clé des dés est ELFBALL_SECRET" in capsys.readouterr().out
