"""``service.authority``: the one place the service decides who may act, through the match
service as the bot and the console call it."""

from __future__ import annotations

import pytest

from db.errors import NotAllowedError, NotYourSideError
from db.teams import create_team
from engine import commands as C
from service.match_rules import MatchSide
from service.matches import AI_COACH_ID, MatchService

ALICE, BOB, CAROL = 101, 202, 303


def test_a_stored_team_is_played_by_its_owner_only(sessions):
    with sessions() as s:
        create_team(session=s, guild_id=1, coach_id=BOB, name="Moonblades", team_list="night-elves")
    svc = MatchService(sessions=sessions, render=False)
    with pytest.raises(NotAllowedError, match="Moonblades is coached by <@202>: only he can play it"):
        svc.start(guild_id=1, channel_id=10, west=MatchSide(ALICE, team="moonblades"),
                  east=MatchSide(AI_COACH_ID, team_list="gnolls"))
    assert svc.current_or_none(10) is None
    out = svc.start(guild_id=1, channel_id=10, west=MatchSide(BOB, team="moonblades"),
                    east=MatchSide(AI_COACH_ID, team_list="gnolls"))
    assert out.match.west_team_name == "Moonblades"


def test_only_the_deciding_coach_decides_and_says_who_may(sessions):
    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=11, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="night-elves"), seed="authority")
    side = out.deciding_side
    coach, other = (ALICE, BOB) if side == "west" else (BOB, ALICE)
    # A panel names the deciding side: the other coach and a stranger hear who decides (the
    # words the bot used to answer a press with, said by the service now).
    for member in (other, CAROL):
        with pytest.raises(NotYourSideError, match=rf"only <@{coach}> can decide this now"):
            svc.act(11, member, C.AutoSetup(), as_side=side)
    with pytest.raises(NotYourSideError, match="you are not a coach in this match"):
        svc.read(11, CAROL, "auto")
    assert svc.act(11, coach, C.AutoSetup(), as_side=side).match.version == 1


def test_typed_text_and_builders_are_read_before_acting(sessions):
    svc = MatchService(sessions=sessions, render=False)
    out = svc.start(guild_id=1, channel_id=12, west=MatchSide(ALICE, team_list="gnolls"),
                    east=MatchSide(BOB, team_list="night-elves"), seed="authority")
    coach = ALICE if out.deciding_side == "west" else BOB
    assert svc.read(12, coach, "auto") == C.AutoSetup()
    assert svc.read(12, coach, "undo") == C.Undo()
    assert svc.build(12, coach, lambda state, side: C.AutoSetup()) == C.AutoSetup()
    with pytest.raises(TypeError):
        svc.act(12, coach, "auto")  # type: ignore[arg-type]  # text is read first, never acted on


def test_only_a_coach_votes_to_abandon_and_the_last_human_vote_ends_it(sessions):
    svc = MatchService(sessions=sessions, render=False)
    svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(BOB, team_list="night-elves"))
    with pytest.raises(NotAllowedError, match="only the coaches of match #1 can vote to end it"):
        svc.vote_abandon(13, CAROL)
    assert not svc.vote_abandon(13, ALICE).complete
    ended = svc.vote_abandon(13, BOB)
    assert ended.complete and ended.match is not None and ended.match.status == "abandoned"
    # Against the AI coach, the one human's vote is enough.
    svc.start(guild_id=1, channel_id=14, west=MatchSide(ALICE, team_list="gnolls"),
              east=MatchSide(AI_COACH_ID, team_list="night-elves"))
    assert svc.vote_abandon(14, ALICE).complete
