"""Match records to verify (``service.verify``): a short match played through the service with a
chosen seed, ended by a concession, as ``/match verify`` and ``elfball verify --export`` give it."""

from __future__ import annotations

import hashlib

from support.databases import sessions_on

from db.engine import make_engine
from engine import AutoSetup, SetupDone
from db.migrate import upgrade
from service.match_rules import MatchSide
from service.matches import MatchService
from service.verify import MatchRecord, load_record

#: A secret of the form the bot draws (``secrets.token_hex(32)``), and the coaches' entropy.
SECRET = "5e" * 32
ENTROPY = "c1312345678901234567.a1312345678901234568"
#: What the bot posted with the challenge: the secret's SHA-256.
POSTED = hashlib.sha256(SECRET.encode()).hexdigest()


def played_record(seed: str, *, abandon: bool = False) -> MatchRecord:
    """Both coaches set up (auto), then West concedes (``abandon``: both coaches vote to abandon):
    an ended match of a few rows with dice."""
    engine = make_engine("sqlite://")
    upgrade(engine)
    scope = sessions_on(engine)
    svc = MatchService(sessions=scope, render=False)
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(101, team_list="gnolls"),
                    east=MatchSide(102, team_list="sarcos"), seed=seed)
    for _ in range(2):
        coach = 101 if svc.status(10).deciding_side == "west" else 102
        svc.act(10, coach, AutoSetup())
        out = svc.act(10, coach, SetupDone())
    if abandon:
        svc.vote_abandon(10, 101)
        svc.vote_abandon(10, 102)
    else:
        assert svc.concede(10, 101).finished
    with scope() as s:
        record = load_record(session=s, match_id=out.match.id)
    engine.dispose()
    return record
