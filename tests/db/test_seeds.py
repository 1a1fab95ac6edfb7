"""The dice seed at rest (issue 17): sealed in the database while the match is played, opened
only with the bot's key, stored in clear once revealed. On SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import shutil
import stat

import pytest
from sqlalchemy import text
from sqlmodel import Session

from cli.main import main
from db.engine import make_engine, use_engine
from db.errors import UnusableDatabaseError
from db.matches import get_match
from service.match_rules import MatchSide, create_match, submit
from db.migrate import upgrade
from db.seeds import SECRET_ENV, is_sealed, key_for, open_seed, seal
from support.databases import fresh_engine
from engine import commands as C

SEED = "a0" * 32


def _stored(engine, match_id: int) -> str:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        return conn.execute(text("SELECT dice_seed FROM matches WHERE id = :id"), {"id": match_id}).scalar_one()


def test_a_seal_opens_with_its_key_only() -> None:
    key, other = hashlib.sha256(b"k").digest(), hashlib.sha256(b"other").digest()
    commitment = hashlib.sha256(SEED.encode()).hexdigest()
    sealed = seal(SEED, key)
    assert is_sealed(sealed) and SEED not in sealed and len(sealed) <= 128
    assert seal(SEED, key) != sealed  # a fresh nonce each time
    assert open_seed(sealed, key, commitment) == SEED
    with pytest.raises(UnusableDatabaseError, match="sealed with another key"):
        open_seed(sealed, other, commitment)
    assert open_seed(SEED, None, commitment) == SEED  # a seed stored in clear (revealed, or from before)


def test_a_live_matchs_seed_is_not_in_the_database_and_is_revealed_at_the_end(db_engine) -> None:
    with Session(db_engine, expire_on_commit=False) as s:
        applied = create_match(session=s, guild_id=1, channel_id=3, west=MatchSide(1, team_list="gnolls"),
                               east=MatchSide(2, team_list="sarcos"), seed=SEED)
        match_id = applied.match.id
        stored = _stored(db_engine, match_id)
        assert is_sealed(stored) and SEED not in stored
        assert get_match(session=s, match_id=match_id).seed is None
        # The dice still come from the seed: the store opens it for each command.
        side = applied.result.state.setup_side
        after = submit(session=s, match_id=match_id, by_side=side, actor_user_id=1 if side == "west" else 2,
                       command=C.AutoSetup())
        assert after.match.version == 1
        ended = submit(session=s, match_id=match_id, by_side="east", actor_user_id=2, command=C.Concede())
    assert ended.match.status == "finished" and ended.match.seed == SEED
    assert _stored(db_engine, match_id) == SEED  # in clear: checking it needs no key


def test_a_wrong_key_is_refused_instead_of_rolling_other_dice(db_engine, monkeypatch) -> None:
    with Session(db_engine, expire_on_commit=False) as s:
        m = create_match(session=s, guild_id=1, channel_id=4, west=MatchSide(1, team_list="gnolls"),
                         east=MatchSide(2, team_list="sarcos"), seed=SEED).match
        monkeypatch.setenv(SECRET_ENV, "0f" * 8 + "1e2d3c4b5a69788796a5b4c3d2e1f00f")  # strong, but not the key it was sealed with
        with pytest.raises(UnusableDatabaseError, match=f"match #{m.id} was sealed with another key"):
            submit(session=s, match_id=m.id, by_side="west", actor_user_id=1, command=C.Concede())
    assert is_sealed(_stored(db_engine, m.id))


def test_without_a_secret_sqlite_keeps_its_key_beside_the_file(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    db = tmp_path / "elfball.db"
    engine = make_engine(f"sqlite:///{db}")
    upgrade(engine)
    with Session(engine, expire_on_commit=False) as s:
        m = create_match(session=s, guild_id=1, channel_id=5, west=MatchSide(1, team_list="gnolls"),
                         east=MatchSide(2, team_list="sarcos"), seed=SEED).match
        key_file = tmp_path / "elfball.db.secret"
        assert key_file.is_file() and stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert key_for(engine) == key_for(engine)
        submit(session=s, match_id=m.id, by_side="east", actor_user_id=2, command=C.Concede())
    engine.dispose()
    # A copy of the database without its key file is checked all the same: the seed is revealed.
    copy = tmp_path / "copy" / "elfball.db"
    copy.parent.mkdir()
    shutil.copy(db, copy)
    monkeypatch.setenv("ELFBALL_DB", str(copy))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    old = use_engine(None)
    try:
        assert main(["verify", "--match", str(m.id)]) == 0
    finally:
        use_engine(old)
    assert "Consistent with itself only" in capsys.readouterr().out
    assert not (copy.parent / "elfball.db.secret").exists()


def test_postgresql_without_a_secret_is_refused_at_the_first_match(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(SECRET_ENV, raising=False)
    for engine in fresh_engine("postgresql", tmp_path):
        with Session(engine, expire_on_commit=False) as s, pytest.raises(UnusableDatabaseError,
                                                                          match="set ELFBALL_SECRET"):
            create_match(session=s, guild_id=1, channel_id=6, west=MatchSide(1, team_list="gnolls"),
                         east=MatchSide(2, team_list="sarcos"))
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM matches")).scalar() == 0
