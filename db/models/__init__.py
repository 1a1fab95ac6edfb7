"""The table models, one per module, each with its shared base and public (output) model.

Importing this package registers every table on ``SQLModel.metadata`` (Alembic's target).
"""

from .coach_preference import (
    CoachPreference,
    CoachPreferenceBase,
    CoachPreferencePublic,
)
from .guild_settings import GuildSettings, GuildSettingsBase, GuildSettingsPublic
from .league import League, LeagueBase, LeaguePublic
from .match import ACTIVE_CHANNEL_INDEX, Match, MatchBase, MatchPublic, MatchStatus
from .match_event import EventKind, MatchEvent, MatchEventBase, MatchEventPublic
from .roster_player import (
    PlayerStatus,
    RosterPlayer,
    RosterPlayerBase,
    RosterPlayerPublic,
)
from .team import Team, TeamBase, TeamPublic

TeamPublic.model_rebuild()

__all__ = [
    "ACTIVE_CHANNEL_INDEX",
    "CoachPreference",
    "CoachPreferenceBase",
    "CoachPreferencePublic",
    "EventKind",
    "GuildSettings",
    "GuildSettingsBase",
    "GuildSettingsPublic",
    "League",
    "LeagueBase",
    "LeaguePublic",
    "Match",
    "MatchBase",
    "MatchEvent",
    "MatchEventBase",
    "MatchEventPublic",
    "MatchPublic",
    "MatchStatus",
    "PlayerStatus",
    "RosterPlayer",
    "RosterPlayerBase",
    "RosterPlayerPublic",
    "Team",
    "TeamBase",
    "TeamPublic",
]
