"""Who may do what: the one place the service decides a member's right to act.

Every entry point of the service asks here once, before anything is written: the coach of a
side (a command, an undo, a panel's press), the owner of a team (a match, a league entry, a
team's change), the commissioner of a league (or a moderator standing in). The store then only
checks that what the member saw is still the stored version (``db.matches``). The refusals are
the store's errors (``db.errors``): the bot and the console answer them as they answer any.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, Protocol

from db.errors import NotAllowedError, NotYourSideError
from db.models import MatchPublic
from engine import Phase, Side, Term, pending

__all__ = [
    "TEAM_USES",
    "coached_sides",
    "coach_side",
    "acting_coach_side",
    "require_match_coach",
    "require_team_owner",
    "require_fixture_coach",
    "require_report_owner",
    "require_commissioner",
    "require_season_starter",
    "require_withdrawal",
    "require_deadline_ruler",
    "members_playing",
    "require_moderator_not_playing",
    "require_lesson_thread",
    "EndRight",
    "abandon_right",
]


class _Team(Protocol):
    name: str
    coach_id: int


class _League(Protocol):
    commissioner_id: int


class _Report(Protocol):
    coach_id: int


class _Fixture(Protocol):
    """A league fixture as the service shows it (``service.leagues.FixtureView``)."""

    @property
    def id(self) -> int: ...

    home_coach: int
    away_coach: int


#: What a member does with a stored team (``require_team_owner``).
TEAM_USES = ("play", "enter", "change")


def _coach(match: MatchPublic, side: str | None) -> int | None:
    return match.west_coach_id if side == "west" else match.east_coach_id if side == "east" else None


def coached_sides(match: MatchPublic, user_id: int) -> list[Side]:
    """The sides of ``match`` that ``user_id`` coaches (both in a hot-seat match): the one
    comparison every coach's right below is made of."""
    return [s for s in ("west", "east") if _coach(match, s) == user_id]


def coach_side(match: MatchPublic, user_id: int, as_side: Side | None = None) -> Side:
    """The side ``user_id`` speaks for in ``match``, or a refusal.

    ``as_side``: the side he means (a panel shows the deciding coach's side; a hot-seat coach
    names his). Refused if he coaches no side, or not ``as_side``: for the side the match waits
    on, the refusal names its coach. A hot-seat coach speaks for the side the match waits on."""
    sides = coached_sides(match, user_id)
    if as_side is not None and as_side not in sides:
        state = match.engine_state()
        if state.phase is not Phase.MATCH_OVER and pending(state).side == as_side:
            raise NotYourSideError("only_coach_decides_now", coach=_coach(match, as_side))
        if sides:
            raise NotYourSideError("you_do_not_coach_side", side=Term("side", as_side))
    if not sides:
        raise NotYourSideError("you_are_not_a_coach")
    if as_side is not None:
        return as_side
    if len(sides) == 2:
        return pending(match.engine_state()).side or "west"
    return sides[0]


def acting_coach_side(match: MatchPublic, user_id: int) -> Side:
    """The side whose action ``user_id`` may take back (undo): in an action, the acting side,
    and only its coach; else the side he coaches."""
    state = match.engine_state()
    side: Side = state.turn_side if state.phase is Phase.ACTION else coach_side(match, user_id)  # type: ignore[assignment]  # turn_side is set in an action
    if side not in coached_sides(match, user_id):
        raise NotYourSideError("only_acting_coach_undoes")
    return side


def require_match_coach(match: MatchPublic, user_id: int) -> None:
    """``user_id`` coaches ``match``, as voting to abandon it needs."""
    if not coached_sides(match, user_id):
        raise NotAllowedError("only_coaches_match_can_vote", match=match.id)


def require_team_owner(team: _Team, user_id: int, use: Literal["play", "enter", "change"] = "play") -> None:
    """``user_id`` owns the stored ``team`` (its coach), or a refusal naming its owner.

    A stored team is found by server and name (``db.teams.get_team``); whoever names it must own
    it to ``play`` it (a match, a challenge), ``enter`` it (a league) or ``change`` it (hire,
    fire, support, abilities). The one exception is documented where it is made: the league's
    commissioner corrects a fixture's result (``service.leagues.LeagueService.correct``) between
    teams he need not own."""
    if team.coach_id == user_id:
        return
    # One refusal key per use, each said in the reader's language from db/text/refusals.<lang>.json.
    if use == "enter":
        raise NotAllowedError("team_coached_enter", team=team.name, coach=team.coach_id)
    if use == "change":
        raise NotAllowedError("team_coached_change", team=team.name, coach=team.coach_id)
    raise NotAllowedError("team_coached_play", team=team.name, coach=team.coach_id)


def require_fixture_coach(home_coach: int, away_coach: int, user_id: int) -> None:
    """Only the coaches of a league fixture's two teams start it."""
    if user_id not in (home_coach, away_coach):
        raise NotAllowedError("only_two_coaches_fixture_may")


def require_report_owner(report: _Report, user_id: int) -> None:
    """A team's post-match decisions (potions, injuries, advances) are its coach's."""
    if report.coach_id != user_id:
        raise NotAllowedError("only_coach_decides", coach=report.coach_id)


def members_playing(subject: MatchPublic | _Fixture) -> frozenset[int]:
    """The members who play ``subject``: a match's coaches and the owners of its stored teams
    (``Match.west_owner_id``...), or a fixture's teams' owners (who coach it)."""
    if isinstance(subject, MatchPublic):
        ids: tuple[int | None, ...] = (subject.west_coach_id, subject.east_coach_id,
                                       subject.west_owner_id, subject.east_owner_id)
    else:
        ids = (subject.home_coach, subject.away_coach)
    return frozenset(i for i in ids if i)


def require_moderator_not_playing(subject: MatchPublic | _Fixture, user_id: int) -> None:
    """A moderator's powers (abandon at once, forfeit, correct, stand in for the commissioner)
    are for matches and fixtures he does not play: a member who coaches ``subject``, or whose
    team plays it, is refused as a moderator (he keeps his rights as a coach: vote to abandon,
    which needs the other coach, and concede). Otherwise a Manage Server coach could re-roll his
    own league fixture by abandoning it (it goes back to the schedule with fresh secrets)."""
    if user_id not in members_playing(subject):
        return
    if isinstance(subject, MatchPublic):
        raise NotAllowedError("moderator_plays_match", match=subject.id)
    raise NotAllowedError("moderator_plays_fixture", fixture=subject.id)


def require_commissioner(league: _League, user_id: int, *, moderator: bool = False,
                         fixture: _Fixture | None = None, reason: str = "") -> dict[str, Any]:
    """The league's commissioner may; so may a server moderator (Manage Server) standing in for
    him, but not for a ``fixture`` he plays (``require_moderator_not_playing``), and only saying
    why: the stand-in's ``reason`` goes in the audit row, so the league reads who acted for its
    commissioner and why. Returns what the audit row adds: who was stood in for."""
    if league.commissioner_id == user_id:
        return {}
    if moderator:
        if fixture is not None:
            require_moderator_not_playing(fixture, user_id)
        if not reason.strip():
            raise NotAllowedError("stand_in_says_why", commissioner=league.commissioner_id)
        return {"stand_in_for": league.commissioner_id}
    raise NotAllowedError("only_commissioner_may_do", commissioner=league.commissioner_id)


def require_season_starter(league: _League, user_id: int, *, moderator: bool = False, reason: str = "") -> dict[str, Any]:
    """Who starts a league's next season (``service.seasons``): its commissioner, or a moderator
    standing in for him saying why (``require_commissioner``)."""
    return require_commissioner(league, user_id, moderator=moderator, reason=reason)


def require_withdrawal(league: _League, team: _Team, user_id: int, *, moderator: bool = False,
                       reason: str = "") -> dict[str, Any]:
    """Who takes a team out of a league before its schedule is drawn: the team's coach (he
    leaves at a season's change), or the commissioner (a coach who left the server), or a
    moderator standing in for him saying why. Returns what the audit row adds."""
    if team.coach_id == user_id or league.commissioner_id == user_id:
        return {}
    if moderator:
        return require_commissioner(league, user_id, moderator=True, reason=reason)
    raise NotAllowedError("only_coach_or_commissioner_withdraw", team=team.name, coach=team.coach_id,
                          commissioner=league.commissioner_id)


#: How a member may end a match without a result (``abandon_right``): ``vote`` as one of its
#: coaches (the match ends when every human coach has voted), at once as the ``owner`` of a
#: stored team it plays (without being its coach), or at once as a ``moderator`` who plays no
#: part in it.
EndRight = Literal["vote", "owner", "moderator"]


def abandon_right(match: MatchPublic, user_id: int, *, moderator: bool, as_coach: bool = False,
                  humans: Iterable[int] = ()) -> EndRight:
    """How ``user_id`` may abandon ``match`` (``service.challenges.abandon``), or a refusal.

    - A coach votes (``vote``). A coach who is also a moderator, against another human coach
      (``humans``: the match's human coaches), is refused unless he says he votes ``as_coach``:
      he cannot end his own match as a moderator (the refusal says why, and how to vote).
    - The owner of a stored team in the match who does not coach it (a match started with his
      team before the owner check existed, ``require_team_owner``) ends it at once (``owner``):
      the team is his, and a busy team's refusal sends him here.
    - A moderator who plays no part in it ends it at once (``moderator``).
    """
    if coached_sides(match, user_id):
        if moderator and not as_coach and set(humans) - {user_id}:
            raise NotAllowedError("moderator_coaches_match", match=match.id)
        return "vote"
    if user_id in members_playing(match):
        return "owner"
    if moderator:
        return "moderator"
    raise NotAllowedError("only_coaches_match_can_vote", match=match.id)


def require_deadline_ruler(league: _League, user_id: int, *, moderator: bool = False,
                           fixture: _Fixture | None = None) -> dict[str, Any]:
    """Who rules on a fixture whose round's deadline passed (forfeit, draw, extend) and who sets
    a round's deadline: the commissioner, or a moderator standing in for him
    (``require_commissioner``), but nobody on a ``fixture`` he plays, the commissioner included:
    a coach would award himself the win. A stand-in's ruling needs no typed reason (the lapsed
    deadline is the reason, and the audit row says so and who stood in); setting a deadline
    does (``require_commissioner``'s ``reason``, asked by the caller). Returns what the audit
    row adds (who was stood in for)."""
    if league.commissioner_id != user_id and not moderator:
        raise NotAllowedError("only_commissioner_may_do", commissioner=league.commissioner_id)
    if fixture is not None and user_id in members_playing(fixture):
        if league.commissioner_id == user_id:
            raise NotAllowedError("commissioner_plays_fixture", fixture=fixture.id)
        require_moderator_not_playing(fixture, user_id)
    return {} if league.commissioner_id == user_id else {"stand_in_for": league.commissioner_id}


def require_lesson_thread(owner: tuple[int, int] | None, guild_id: int, user_id: int) -> None:
    """A lesson starts only in the member's own lessons thread (``owner``: the server and member
    it was made for; None: no member's)."""
    if owner != (guild_id, user_id):
        raise NotAllowedError("lesson_not_yours")
