"""Writing the league's website into a folder (``elfball league export``): no link followed, all
or nothing (a failed export leaves the earlier site as it was), the file that could not be
written named, and a folder that cannot be written refused before anything is built."""

from __future__ import annotations

import pytest
from support.league_site import seeded_league

import service.exports
from service.exports import export_league
from service.site import Site, SiteError, write_site


def _site(files: dict[str, bytes]) -> Site:
    return Site(league=None, language="en", files=files)  # type: ignore[arg-type]  # writing reads only the files


SITE = {"index.html": b"<a href='teams/1.html'>new</a>", "teams/1.html": b"new team", "assets/style.css": b"body{}"}


def test_a_link_planted_in_the_folder_is_not_followed(tmp_path):
    out = tmp_path / "out"
    write_site(_site({"index.html": b"old", "teams/0.html": b"old"}), out)
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"keep me")
    (out / "teams").mkdir(exist_ok=True)
    (out / "teams" / "1.html").symlink_to(precious)
    (out / "assets").symlink_to(tmp_path, target_is_directory=True)  # a folder link as well

    write_site(_site(SITE), out)

    assert precious.read_bytes() == b"keep me"
    assert not (tmp_path / "style.css").exists()
    assert not (out / "teams" / "1.html").is_symlink() and (out / "teams" / "1.html").read_bytes() == b"new team"
    assert not (out / "assets").is_symlink() and (out / "assets" / "style.css").read_bytes() == b"body{}"
    assert not (out / "teams" / "0.html").exists()  # the folder is the new site, nothing left over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "precious.txt"]  # no temporary folder left


def test_a_file_that_cannot_be_written_leaves_the_earlier_site_intact_and_is_named(tmp_path):
    out = tmp_path / "out"
    write_site(_site(SITE), out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    bad = "teams/" + "x" * 300 + ".html"  # longer than any file system allows a name
    newer = {"index.html": b"<a href='teams/2.html'>newer</a>", "teams/2.html": b"t2", bad: b"?"}
    with pytest.raises(SiteError) as err:
        write_site(_site(newer), out)
    assert "x" * 300 in str(err.value)  # the file, not the folder
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # the old site, whole; no half of the new one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_folder_of_other_files_is_not_replaced(tmp_path):
    out = tmp_path / "home"
    out.mkdir()
    (out / "notes.txt").write_bytes(b"mine")
    with pytest.raises(SiteError, match="holds other files"):
        write_site(_site(SITE), out)
    assert (out / "notes.txt").read_bytes() == b"mine" and not (out / "index.html").exists()


def test_an_unwritable_folder_is_refused_before_anything_is_built(database, tmp_path, monkeypatch):
    seeded_league(4, played=0)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ELFBALL_DB", str(database.url.database))
    built = []
    monkeypatch.setattr(service.exports, "build_site", lambda *a, **kw: built.append(a) or _site(SITE))
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    with pytest.raises(SiteError, match="a-file"):
        export_league("Elf Cup", blocker / "site")
    assert built == []
    export_league("Elf Cup", tmp_path / "site")  # a folder that can be written: built and written
    assert built and (tmp_path / "site" / "teams" / "1.html").read_bytes() == b"new team"
