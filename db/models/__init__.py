"""The table models, one per module, each with its shared base and public (output) model.

Importing this package registers every table on ``SQLModel.metadata`` (Alembic's target).
"""

from .aftermath import Aftermath, AftermathBase, AftermathPublic
from .coach_preference import (
    CoachPreference,
    CoachPreferenceBase,
    CoachPreferencePublic,
)
from .fixture import Fixture, FixtureBase, FixturePublic, FixtureStatus
from .guild_settings import GuildSettings, GuildSettingsBase, GuildSettingsPublic
from .league import League, LeagueBase, LeaguePublic
from .league_audit import LeagueAudit, LeagueAuditBase, LeagueAuditPublic
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
    "Aftermath",
    "AftermathBase",
    "AftermathPublic",
    "CoachPreference",
    "CoachPreferenceBase",
    "CoachPreferencePublic",
    "EventKind",
    "Fixture",
    "FixtureBase",
    "FixturePublic",
    "FixtureStatus",
    "GuildSettings",
    "GuildSettingsBase",
    "GuildSettingsPublic",
    "League",
    "LeagueBase",
    "LeagueAudit",
    "LeagueAuditBase",
    "LeagueAuditPublic",
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
