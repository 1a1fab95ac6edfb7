"""The table models, one per module, each with its shared base and public (output) model.

Importing this package registers every table on ``SQLModel.metadata`` (Alembic's target).
"""

from ._common import utcnow
from .abandon_vote import AbandonBallot, AbandonBallotBase, AbandonBallotPublic
from .aftermath import Aftermath, AftermathBase, AftermathPublic
from .bot_state import MAX_BOT_STATE_KEY, BotState, BotStateBase, BotStatePublic
from .challenge import MAX_CHALLENGE_TEAM, Challenge, ChallengeBase, ChallengePublic
from .coach_preference import (
    CoachPreference,
    CoachPreferenceBase,
    CoachPreferencePublic,
)
from .fixture import Fixture, FixtureBase, FixturePublic, FixtureStatus
from .guild_settings import GuildSettings, GuildSettingsBase, GuildSettingsPublic
from .league import League, LeagueBase, LeaguePublic
from .league_audit import LeagueAudit, LeagueAuditBase, LeagueAuditPublic
from .lesson import MAX_LESSON_ID, LessonProgress, LessonProgressPublic, LessonThread, LessonThreadPublic
from .match import ACTIVE_CHANNEL_INDEX, Match, MatchBase, MatchPublic, MatchStatus
from .match_event import EventKind, MatchEvent, MatchEventBase, MatchEventPublic
from .match_post import MatchPost, MatchPostBase, MatchPostPublic
from .rated_match import RatedMatch, RatedMatchPublic
from .replay import MAX_REPLAY_LANGUAGE, KeptReplay
from .roster_player import (
    PlayerStatus,
    RosterPlayer,
    RosterPlayerBase,
    RosterPlayerPublic,
)
from .team import Team, TeamBase, TeamPublic

TeamPublic.model_rebuild()

__all__ = [
    "utcnow",
    "ACTIVE_CHANNEL_INDEX",
    "MAX_BOT_STATE_KEY",
    "MAX_CHALLENGE_TEAM",
    "MAX_REPLAY_LANGUAGE",
    "KeptReplay",
    "AbandonBallot",
    "AbandonBallotBase",
    "AbandonBallotPublic",
    "Aftermath",
    "AftermathBase",
    "AftermathPublic",
    "BotState",
    "BotStateBase",
    "BotStatePublic",
    "Challenge",
    "ChallengeBase",
    "ChallengePublic",
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
    "MatchPost",
    "MatchPostBase",
    "MatchPostPublic",
    "MatchPublic",
    "MatchStatus",
    "PlayerStatus",
    "RatedMatch",
    "MAX_LESSON_ID",
    "LessonProgress",
    "LessonProgressPublic",
    "LessonThread",
    "LessonThreadPublic",
    "RatedMatchPublic",
    "RosterPlayer",
    "RosterPlayerBase",
    "RosterPlayerPublic",
    "Team",
    "TeamBase",
    "TeamPublic",
]
