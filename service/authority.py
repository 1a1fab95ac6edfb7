"""Who may do what: the service checks an actor's right once per command, here.

A stored team is played, changed or entered only by its coach.
"""

from __future__ import annotations

from typing import Protocol

from db.errors import NotAllowedError

__all__ = ["require_team_owner"]


class _Coached(Protocol):
    name: str
    coach_id: int


def require_team_owner(team: _Coached, user_id: int) -> None:
    """Refuse ``user_id`` a team he does not coach (a match with it would lock it out of its
    coach's league fixture)."""
    if team.coach_id != user_id:
        raise NotAllowedError("only <@{coach}> decides for this team", coach=team.coach_id)
