"""``elfball ladder``: a server's coach ratings from the bot's database, read-only, in English
and French."""

from __future__ import annotations

from cli.main import main
from db.engine import session_scope
from db.ladder import rated_matches
from service.ladder import LadderService
from service.match_rules import MatchSide
from service.matches import AI_COACH_ID, MatchService

GUILD, ALICE, BOB = 7, 11, 12


def _kept() -> int:
    with session_scope() as s:
        return len(rated_matches(session=s, guild_id=GUILD))


def test_the_console_prints_the_ladder_and_a_coachs_history_without_writing(database, monkeypatch, capsys) -> None:
    plain = MatchService(render=False)  # no ladder listening: the console must still rate the match
    for channel, (west, east), loser in ((1, (ALICE, BOB), BOB), (2, (ALICE, AI_COACH_ID), ALICE)):
        plain.start(guild_id=GUILD, channel_id=channel, west=MatchSide(west, team_list="gnolls"),
                    east=MatchSide(east, team_list="sarcos"), seed=f"cli-{channel}")
        plain.concede(channel, loser)
    path = str(database.url.database)
    monkeypatch.setenv("ELFBALL_DB", path)
    assert main(["ladder", str(GUILD), "--language", "en"]) == 0
    out = capsys.readouterr().out
    rows = LadderService().table(GUILD, keep=False)
    assert out.splitlines()[0] == "Coach ratings (2 coaches; OpenSkill, rating = mu - 3 sigma):"
    assert f"  1. coach {ALICE}: {rows[0].shown:.1f} (mu {rows[0].rating.mu:.1f}" in out
    assert "1 played: 1 won, 0 drawn, 0 lost" in out and f"  2. coach {BOB}:" in out
    assert _kept() == 0, "read-only: nothing kept"
    assert main(["ladder", str(GUILD), "--coach", str(BOB), "--language", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Entraîneur {BOB} : cote {rows[1].shown:.1f}".replace(".", ","))
    assert f"a perdu contre l'entraîneur {ALICE} (sur concession), match amical 1" in out
    assert main(["ladder", "99", "--language", "en"]) == 0
    assert "No rated match on this server yet" in capsys.readouterr().out


def test_a_bad_server_id_is_refused(capsys) -> None:
    try:
        main(["ladder", "nine"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "'nine' is not a Discord id" in capsys.readouterr().err
