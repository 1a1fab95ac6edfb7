"""``service.authority``: the one place the service decides who may act, through the match
service as the bot and the console call it."""

from __future__ import annotations

import pytest

from db.errors import NotAllowedError, NotYourSideError
from db.models import Match
from db.teams import create_team
from engine import commands as C
from service import authority
from service.challenges import abandon
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


def test_who_may_end_a_match_and_how(sessions):
    """``authority.abandon_right``: a coach votes; a moderator who coaches it votes only when he
    says so (never ends it at once); a team's owner who is not its coach, and a moderator who
    plays no part in it, end it at once; anyone else is refused. The match records its owners."""
    with sessions() as s:
        create_team(session=s, guild_id=1, coach_id=BOB, name="Moonblades", team_list="night-elves")
    svc = MatchService(sessions=sessions, render=False)
    m = svc.start(guild_id=1, channel_id=12, west=MatchSide(BOB, team="moonblades"),
                  east=MatchSide(ALICE, team_list="gnolls")).match
    assert (m.west_owner_id, m.east_owner_id) == (BOB, None)
    humans = {ALICE, BOB}
    assert authority.abandon_right(m, ALICE, moderator=False, humans=humans) == "vote"
    with pytest.raises(NotAllowedError, match=rf"you coach match #{m.id}: as a moderator you cannot end"):
        authority.abandon_right(m, ALICE, moderator=True, humans=humans)
    assert authority.abandon_right(m, ALICE, moderator=True, as_coach=True, humans=humans) == "vote"
    assert authority.abandon_right(m, CAROL, moderator=True, humans=humans) == "moderator"
    with pytest.raises(NotAllowedError, match="only the coaches"):
        authority.abandon_right(m, CAROL, moderator=False, humans=humans)
    with pytest.raises(NotAllowedError, match=rf"you play in match #{m.id}"):
        authority.require_moderator_not_playing(m, BOB)
    # Against the AI coach his own vote ends it: no moderator's power is needed, none refused.
    ai = svc.start(guild_id=1, channel_id=13, west=MatchSide(ALICE, team_list="gnolls"),
                   east=MatchSide(AI_COACH_ID, team_list="night-elves")).match
    assert authority.abandon_right(ai, ALICE, moderator=True, humans={ALICE}) == "vote"
    done = abandon(svc, guild_id=1, channel_id=13, user_id=ALICE, moderator=True)
    assert done.ended is not None and not done.moderator
    # The owner of a team in a match he does not coach (one started before the owner check).
    with sessions() as s:
        row = s.get(Match, m.id)
        row.west_coach_id = CAROL
        s.add(row)
        s.commit()
    done = abandon(svc, guild_id=1, channel_id=12, user_id=BOB, moderator=False)
    assert done.owner and done.ended is not None and svc.current_or_none(12) is None
