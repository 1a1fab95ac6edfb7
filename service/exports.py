"""What the console reads out of the bot's database: a finished match's record (``elfball
verify --match``) and a league's website (``elfball league export``).

Both open the database read-only and never migrate it (a copy of the database will do), and
let it go when done.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlmodel import Session

from db.errors import StoreError
from db.migrate import open_database

from .site import Site, SiteError, build_site, check_folder, find_league, write_site
from .verify import MatchRecord, load_record

__all__ = ["Site", "SiteError", "export_league", "match_record"]


def match_record(match_id: int) -> MatchRecord:
    """The record of finished or abandoned match ``match_id``; ``StoreError`` for no such match,
    an active one (its seed is secret) or an unusable database."""
    engine = open_database(write=False)
    try:
        with Session(engine) as s:
            return load_record(session=s, match_id=match_id)
    finally:
        engine.dispose()


def export_league(league: str, out_dir: str | Path, *, guild_id: int | None = None,
                  language: str | None = None, season: int | None = None) -> Site:
    """Build ``league``'s website (on ``guild_id``'s server, when several have that name) in
    ``language`` (default: its server's) and write it into ``out_dir``; ``SiteError`` when it
    cannot be (an unusable database, no such league, a name several servers use, a folder that
    cannot be written: checked before anything is built). The folder is replaced all or nothing:
    a failed export leaves what was there as it was."""
    check_folder(out_dir)
    try:
        engine = open_database(write=False)
    except StoreError as exc:
        raise SiteError(str(exc)) from exc

    @contextmanager
    def sessions() -> Iterator[Session]:
        with Session(engine, expire_on_commit=False) as s:
            yield s

    try:
        found = find_league(league, guild_id=guild_id, sessions=sessions, season=season)
        site = build_site(found, language=language, sessions=sessions)
        write_site(site, out_dir)
    finally:
        engine.dispose()
    return site
