"""Leagues in Discord: ``/league`` commands, the Advanced ``/team`` commands, post-match panels.

Like the rest of the bot this only translates: every rule lives in ``engine.teambuilding`` and
every change in ``service.leagues``, run in a worker thread. ``install(bot)`` adds the
``/league`` group, the persistent post-match panel items and the listener that posts those
panels when a league match ends; the ``/team`` subcommands join the existing group on import.

Post-match panels: custom ids ``elfball-lg:<verb>:<report>:<version>`` (buttons) and
``elfball-lgs:<verb>:<report>:<version>:<key>`` (selects), so a restarted bot still answers them
and a press on an old panel is refused as out of date.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.app import ElfballBot, elfball
from bot.common.autocomplete import list_name
from bot.common.checks import EXPORT, LEAGUE_CREATE, REPLAY, starts_match
from bot.common.errors import answer_press
from bot.common.i18n import catalogue, languages, tr
from bot.common.reply import Refusal, defer, run_work, split_lines
from bot.common.reply import say as _say
from bot.common.reply import send_post as _send
from bot.common.rule_options import PROFILE_CHOICES, RULES_HELP, rules_autocomplete
from bot.league.seasons import SEASON_COMMANDS
from bot.league.deadlines import DecideButton, RuleButton, deadline_suffix, deadline_sweep, deadlines_of, when_words
from bot.play.panels import Post
from service import lookup
from service import teams as team_store
from service.challenges import MAX_WORDS, entropy_of
from service.drawing import batch_processes
from service.leagues import AftermathView, CommitmentNotPosted, DrawPreview, FixtureView, LeagueService, match_options
from service.matches import Outcome
from service.names import safe_name
from service.verify import commitment_text
from service.vocabulary import (
    ABILITIES,
    SUPPORT_COSTS,
    SUPPORT_LIMITS,
    SUPPORT_NAMES,
    Catalogue,
    ElfballError,
    MatchEnded,
    StoreError,
    describe_rules,
    extra_players,
    language_of,
    team_list,
)

__all__ = ["league_group", "setup", "after_outcome_listener", "AftermathButton", "AftermathSelect", "aftermath_post",
           "AuditPageButton", "audit_pages", "DrawButton", "preview_text"]

T = TypeVar("T")
MAX_TEXT = 1900
MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)
SUPPORT_CHOICES = [app_commands.Choice(name=f"{SUPPORT_NAMES[i]} ({SUPPORT_COSTS[i]} points, max {SUPPORT_LIMITS[i]})",
                                       value=i) for i in SUPPORT_COSTS]

league_group = app_commands.Group(name="league", description="Leagues: teams, schedule, results and standings",
                                  guild_only=True)
for _command in SEASON_COMMANDS:  # /league new-season, seasons, withdraw (bot.league.seasons)
    league_group.add_command(_command)
#: The Advanced ``/team`` commands, moved into the team cog's group at ``setup``.
team_group = app_commands.Group(name="team", description="Your server's teams")


def _svc(interaction: discord.Interaction) -> LeagueService:
    league = elfball(interaction).league
    if league is None:
        raise RuntimeError("the league extension is not loaded")  # setup() sets it before any command
    return league


def _guild(interaction: discord.Interaction) -> int:
    return interaction.guild_id or 0


async def _say_long(interaction: discord.Interaction, text: str, *, file: discord.File | None = None,
                    ephemeral: bool = False) -> None:
    """``text`` in as many messages as it needs (at line breaks), the file with the first."""
    for i, chunk in enumerate(split_lines(text.splitlines(), MAX_TEXT) or ["-"]):
        extra: dict[str, Any] = {"file": file} if i == 0 and file is not None else {}
        await _say(interaction, chunk, ephemeral=ephemeral, allowed_mentions=MENTIONS, **extra)


def _moderator(interaction: discord.Interaction) -> bool:
    """Manage Server: such a member may stand in for an absent commissioner (docs/league.md)."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


#: The ``reason`` option of the commands a moderator may run for the commissioner.
REASON_HELP = "why you stand in for the commissioner as a moderator (needed then; kept in the league's audit)"


def _default_league(svc: LeagueService, guild: int, user: int, league: str | None) -> int | str:
    """The league named, else the one league of the server, else the user's team's league."""
    if league:
        return league
    leagues = svc.leagues(guild)
    if len(leagues) == 1:
        return leagues[0].id
    mine = {t.league_id for lg in leagues for t in svc.teams(guild, lg.id) if t.coach_id == user}
    if len(mine) == 1:
        return mine.pop()  # type: ignore[return-value]  # a set of the coach's own fixtures, not empty here
    raise Refusal("league.refuse.which" if leagues else "league.refuse.none")


# --- autocomplete ---------------------------------------------------------------------------------------
def _choices(pairs: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    cur = current.strip().lower()
    ranked = [p for p in pairs if cur in p[0].lower() or cur in p[1].lower()] if cur else pairs
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in ranked[:25]]


#: Autocompletes read in threads of their own: Discord waits 3 s for the choices, and a busy
#: default pool (boards rendering, writers waiting for a lock) must not queue them.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="elfball-lookup")


def _completer(make: Callable[[discord.Interaction], list[tuple[str, str]]]) -> Callable[..., Any]:
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        def work() -> list[tuple[str, str]]:
            try:
                return make(interaction)
            except (ElfballError, StoreError, Refusal):
                return []

        return _choices(await asyncio.get_running_loop().run_in_executor(_LOOKUPS, work), current)

    return complete


def _leagues(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    return [(name, name) for name in team_store.league_names(_guild(interaction), current)]


def _my_teams(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    teams = team_store.team_names(_guild(interaction), current, coach_id=interaction.user.id)
    return [(f"{name} ({list_name(lst)})", name) for name, lst in teams]


def _server_teams(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    return [(f"{name} ({list_name(lst)})", name) for name, lst in team_store.team_names(_guild(interaction), current)]


def _team_of(interaction: discord.Interaction) -> Any:
    name = getattr(interaction.namespace, "team", None)
    if not name:
        return None
    return _svc(interaction).sheet(_guild(interaction), name, image=False)


def _positions(interaction: discord.Interaction) -> list[tuple[str, str]]:
    sheet = _team_of(interaction)
    if sheet is None:
        return []
    tl = team_list(sheet.team.team_list)
    lang = language_of(interaction.locale)
    out = [(tr(lang, "league.complete.position", name=p.name, attributes=p.attributes, type=tr(lang, f"type.{p.type.value}")),
            p.name) for p in tl.positions]
    return out + [(tr(lang, "league.complete.extra_player", name=e.name, attributes=e.position.attributes), e.name)
                  for e in extra_players(tl)]


def _players(interaction: discord.Interaction) -> list[tuple[str, str]]:
    sheet = _team_of(interaction)
    if sheet is None:
        return []
    active = sorted((p for p in sheet.team.players if p.status == "active"), key=lambda p: p.number)
    lang = language_of(interaction.locale)
    return [(tr(lang, "league.complete.player.learn" if sheet.advances.get(p.id) else "league.complete.player",
                number=p.number, name=p.name, xp=p.xp), str(p.number)) for p in active]


def _abilities(interaction: discord.Interaction) -> list[tuple[str, str]]:
    team, player = getattr(interaction.namespace, "team", None), getattr(interaction.namespace, "player", None)
    if not team or not player:
        return []
    return _svc(interaction).choices(_guild(interaction), team, player, language=language_of(interaction.locale))


def _my_fixtures(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    """The member's fixtures still to play, as many as Discord shows, filtered by the database."""
    found = _svc(interaction).fixture_choices(_guild(interaction), current, coach_id=interaction.user.id, scheduled=True)
    lang = language_of(interaction.locale)
    return [(tr(lang, "league.complete.fixture", id=v.id, round=v.fixture.round, home=v.home, away=v.away), str(v.id))
            for v, _league in found]


def _all_fixtures(interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
    """Any fixture of the server's leagues, as many as Discord shows, filtered by the database
    (a server with hundreds of leagues answers as fast as one with a single league)."""
    lang = language_of(interaction.locale)
    out = []
    for v, league in _svc(interaction).fixture_choices(_guild(interaction), current):
        state = v.score(lang) if v.fixture.played else tr(lang, f"league.status.{v.fixture.status}")
        out.append((tr(lang, "league.complete.fixture.any", id=v.id, league=league, round=v.fixture.round,
                       home=v.home, away=v.away, state=state), str(v.id)))
    return out


def _typed_completer(make: Callable[[discord.Interaction, str], list[tuple[str, str]]]) -> Callable[..., Any]:
    """``_completer`` for a lookup that filters by the typed text itself (in the database)."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        def work() -> list[tuple[str, str]]:
            try:
                return make(interaction, current)
            except (ElfballError, StoreError, Refusal):
                return []

        pairs = await asyncio.get_running_loop().run_in_executor(_LOOKUPS, work)
        return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs[:25]]

    return complete


def _fixture_id(text: str) -> int:
    digits = text.strip().lstrip("#")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:  # "²" is a digit to isdigit, not to int
        raise Refusal("league.refuse.fixture_number", text=repr(text))
    return int(digits)


# --- /league -------------------------------------------------------------------------------------------
FORMAT_CHOICES = [
    app_commands.Choice(name="round robin: everyone meets everyone (default)", value="round_robin"),
    app_commands.Choice(name="knockout: a cup, the losers go out", value="knockout"),
    app_commands.Choice(name="Swiss: rounds of teams on equal points, never twice the same", value="swiss"),
    app_commands.Choice(name="double elimination: a cup where a team goes out at its second loss",
                        value="double_elimination"),
    app_commands.Choice(name="divisions: a round robin in each, then a play-off of their leaders", value="divisions"),
]
SEEDING_CHOICES = [
    app_commands.Choice(name="drawn: the order from the league's committed secret (default)", value="drawn"),
    app_commands.Choice(name="seeded: you give the seeds when you draw the schedule", value="seeded"),
]
DRAW_RULE_CHOICES = [
    app_commands.Choice(name="replay: a drawn knockout tie is played again (default)", value="replay"),
    app_commands.Choice(name="higher seed: the higher seed goes through", value="higher_seed"),
    app_commands.Choice(name="coin: a coin from the match's own dice seed", value="coin"),
]


@league_group.command(name="create", description="Create a league: you become its commissioner")
@app_commands.describe(format="the competition: round robin (default), knockout, Swiss or double elimination",
                       seeding="knockout and Swiss: the first round drawn (default) or seeded by you",
                       draw_rule="knockout: what a drawn tie gives (default: replayed)",
                       swiss_rounds="Swiss: how many rounds (default: enough for one unbeaten team)",
                       divisions="divisions: how many (default 2); their leaders meet in a play-off")
@app_commands.choices(format=FORMAT_CHOICES, seeding=SEEDING_CHOICES, draw_rule=DRAW_RULE_CHOICES)
@app_commands.describe(name="the league's name", budget="team points (default 180; 150 in a tournament)",
                       goals="goals to win a match (default 2: Advanced games, p. 3)", star2="optional rule: a star counts 2 successes",
                       double_round="play everyone home and away",
                       extra_players="allow the Samhaino Horror and the Impcrusher",
                       clock_hours="hours per decision before a forfeit may be declared (0: none)",
                       profile="the rules profile every fixture plays (default standard)", rules=RULES_HELP,
                       round_days="days each round lasts: its deadline, set when the schedule is drawn (0: none)")
@app_commands.choices(profile=PROFILE_CHOICES)
@app_commands.autocomplete(rules=rules_autocomplete)
@LEAGUE_CREATE
async def league_create(interaction: discord.Interaction, name: str, budget: app_commands.Range[int, 60, 400] | None = None,
                        goals: app_commands.Range[int, 1, 3] = 2, star2: bool = False, double_round: bool = False,
                        format: str = "round_robin", seeding: str = "drawn", draw_rule: str = "replay",
                        swiss_rounds: app_commands.Range[int, 0, 30] = 0, divisions: app_commands.Range[int, 2, 8] = 2,
                        extra_players: bool = False, clock_hours: app_commands.Range[int, 0, 168] = 0,
                        profile: str = "standard", rules: str = "",
                        round_days: app_commands.Range[int, 0, 60] = 0) -> None:
    words = f"profile={profile} {rules}".strip()
    budget = budget or (150 if profile == "tournament" else 180)  # tournament teams are worth 120 to 150
    settings = {"budget": budget, "goals_to_win": goals, "star2": star2, "double_round": double_round,
                "extra_players": extra_players, "clock_hours": clock_hours, "rules": words, "format": format,
                "seeding": seeding, "draw_rule": draw_rule, "swiss_rounds": swiss_rounds, "divisions": divisions,
                **({"round_days": round_days} if round_days else {})}
    lg = await run_work(interaction, lambda: _svc(interaction).create(_guild(interaction), interaction.user.id, name, settings))
    lang = (await languages(interaction)).public
    shown = describe_rules(lookup.league_options(lg), lang)
    text = tr(lang, "league.created", league=safe_name(lg.name), commissioner=lg.commissioner_id, budget=budget,
              rules=shown, double=tr(lang, "league.created.double") if double_round else "")
    text += "\n" + tr(lang, "league.created.format", format=_format_words(lang, lg.settings),
                      commitment=lg.draw_commitment)
    await _say(interaction, text, allowed_mentions=MENTIONS)


def _format_words(lang: str, settings: dict[str, Any]) -> str:
    """``knockout, seeded, a drawn tie replayed`` in ``lang``: the format and its options."""
    fmt = settings.get("format", "round_robin")
    words = [tr(lang, f"league.format.{fmt}")]
    if fmt != "round_robin":
        words.append(tr(lang, f"league.seeding.{settings.get('seeding', 'drawn')}"))
    if fmt == "divisions":
        words.append(tr(lang, "league.format.division_count", count=settings.get("divisions", 2)))
    if fmt in ("knockout", "double_elimination", "divisions"):
        words.append(tr(lang, f"league.draw_rule.{settings.get('draw_rule', 'replay')}"))
    if fmt == "swiss" and settings.get("swiss_rounds"):
        words.append(tr(lang, "league.format.swiss_rounds", rounds=settings["swiss_rounds"]))
    return ", ".join(words)


@league_group.command(name="list", description="This server's leagues")
async def league_list(interaction: discord.Interaction) -> None:
    lang = (await languages(interaction)).public

    def work() -> str:
        svc = _svc(interaction)
        lines = [tr(lang, "league.list.line", league=safe_name(lg.name), commissioner=lg.commissioner_id,
                    count=len(svc.teams(_guild(interaction), lg.id)))
                 for lg in svc.leagues(_guild(interaction))]
        return "\n".join(lines) or tr(lang, "league.list.none")

    text = await run_work(interaction, work)
    await _say(interaction, text, allowed_mentions=discord.AllowedMentions.none())


@league_group.command(name="join", description="Enter your team in a league (before its schedule is made)")
@app_commands.autocomplete(league=_typed_completer(_leagues), team=_typed_completer(_my_teams))
async def league_join(interaction: discord.Interaction, league: str, team: str) -> None:
    res = await run_work(interaction, lambda: _svc(interaction).join(_guild(interaction), interaction.user.id, league, team))
    lg, tm, value = res
    lang = (await languages(interaction)).public
    await _say(interaction, tr(lang, "league.joined", team=safe_name(tm.name), coach=tm.coach_id, league=safe_name(lg.name),
                               value=value,
                               budget=lg.settings.get("budget", 180)), allowed_mentions=discord.AllowedMentions.none())


def preview_text(preview: DrawPreview, lang: str) -> str:
    """What the commissioner sees privately before he draws: the format, its shape, the seeds
    (knockout, Swiss), the first fixtures and the byes; no mention (nobody is pinged)."""
    name = preview.names.get
    lines = [tr(lang, "league.preview.head", league=safe_name(preview.league.name)),
             tr(lang, f"league.schedule.shape.{preview.format}", teams=len(preview.names), rounds=preview.rounds,
                format=_format_words(lang, preview.league.settings))]
    for i, group in enumerate(preview.divisions, 1):
        lines.append(tr(lang, "league.preview.division", division=i,
                        teams=", ".join(safe_name(name(t, "?")) for t in group)))
    if preview.format not in ("round_robin", "divisions"):
        lines.append(tr(lang, "league.preview.seeds", seeds=", ".join(
            f"{i}. {safe_name(name(t, '?'))}" for i, t in enumerate(preview.order, 1))))
    lines += [tr(lang, "league.preview.line", round=p.round, home=safe_name(name(p.home, "?")),
                 away=safe_name(name(p.away, "?"))) for p in preview.pairings]
    if preview.byes:
        lines.append(tr(lang, "league.schedule.byes", round=1, teams=", ".join(safe_name(name(t, "?")) for t in preview.byes)))
    if preview.format != "round_robin":
        lines.append(tr(lang, "league.preview.later"))
    lines.append(tr(lang, "league.preview.confirm"))
    return "\n".join(lines)


def _schedule_text(svc: LeagueService, guild: int, league: int, views: list[FixtureView], lang: str,
                   suffix: Callable[[FixtureView], str] = lambda view: "") -> str:
    """The public post of a drawn schedule: the format's shape, the byes, the draw's secret
    (revealed, to check against the commitment posted when the league was made) and the fixtures
    (each line followed by ``suffix(view)``: a deadline, say)."""
    lg = svc.league(guild, league)
    progress = svc.progress(guild, league)
    draw = lg.draw or {}
    lines = [tr(lang, "league.schedule.head"),
             tr(lang, f"league.schedule.shape.{progress.format}", teams=len(draw.get("order", [])), rounds=progress.rounds,
                format=_format_words(lang, lg.settings))]
    for rnd, teams in sorted(progress.byes.items()):
        lines.append(tr(lang, "league.schedule.byes", round=rnd, teams=", ".join(safe_name(t) for t in teams)))
    if draw.get("secret"):
        lines.append(tr(lang, "league.schedule.draw", secret=draw["secret"], commitment=draw.get("commitment", "")))
    return "\n".join(lines + [v.line(language=lang, name=safe_name) + suffix(v) for v in views])


def _with_deadlines(interaction: discord.Interaction, svc: LeagueService, league: int, views: list[FixtureView],
                    lang: str) -> str:
    """A schedule just drawn, posted: with the league's round length (if it has one) each round
    gets its deadline, reminded in this channel, and each fixture line shows it."""
    if views and deadlines_of(elfball(interaction)).set_default_rounds(
            _guild(interaction), interaction.user.id, league, channel_id=interaction.channel_id):
        views = svc.fixtures(_guild(interaction), league)
    return _schedule_text(svc, _guild(interaction), league, views, lang, suffix=lambda v: deadline_suffix(v, lang))


@league_group.command(name="schedule", description="Commissioner: draw the schedule (round robin, knockout or Swiss)")
@app_commands.describe(double_round="everyone home and away (default: the league's setting)", reason=REASON_HELP,
                       preview="see the draw privately first, and draw it with a button (nothing is posted before)",
                       seeds="a seeded knockout or Swiss: team names, best first, separated by commas")
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_schedule(interaction: discord.Interaction, league: str | None = None, double_round: bool | None = None,
                          reason: app_commands.Range[str, 1, 200] | None = None, preview: bool = False,
                          seeds: app_commands.Range[str, 1, 1000] | None = None) -> None:
    seed_names = [n.strip() for n in seeds.split(",") if n.strip()] if seeds else None
    if preview:
        lang = (await languages(interaction)).user

        def look() -> DrawPreview:
            svc = _svc(interaction)
            target = _default_league(svc, _guild(interaction), interaction.user.id, league)
            return svc.preview(_guild(interaction), interaction.user.id, target, double_round=double_round,
                               seeds=seed_names, moderator=_moderator(interaction), reason=reason or "")

        seen = await run_work(interaction, look)
        panel = discord.ui.View(timeout=None)
        panel.add_item(DrawButton(seen.league.id, seen.fingerprint, label=tr(lang, "league.preview.button")))
        text = preview_text(seen, lang)
        if len(text) > MAX_TEXT:
            text = text[:MAX_TEXT - 1] + "…"
        await _say(interaction, text, ephemeral=True, view=panel, allowed_mentions=discord.AllowedMentions.none())
        return

    lang = (await languages(interaction)).public

    def work() -> str:
        svc = _svc(interaction)
        target = _default_league(svc, _guild(interaction), interaction.user.id, league)
        views = svc.schedule(_guild(interaction), interaction.user.id, target, double_round=double_round,
                             moderator=_moderator(interaction), reason=reason or "", seeds=seed_names)
        return _with_deadlines(interaction, svc, svc.league(_guild(interaction), target).id, views, lang)

    await _say_long(interaction, await run_work(interaction, work))


class DrawButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-draw:(?P<league>[0-9]+):(?P<print>[0-9a-f]{16})"):
    """*Draw it* under a private preview: the commissioner's press draws exactly what he saw
    (the preview's fingerprint), and the schedule is posted in the channel; a draw that changed
    since (a team joined) is refused privately."""

    def __init__(self, league: int, fingerprint: str, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "Draw", style=discord.ButtonStyle.primary,
                                           custom_id=f"elfball-draw:{league}:{fingerprint}"))
        self.league, self.fingerprint = league, fingerprint

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> DrawButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["league"]), match["print"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def answer() -> None:
            lang = (await languages(interaction)).public

            def work() -> str:
                svc = _svc(interaction)
                views = svc.schedule(_guild(interaction), interaction.user.id, self.league,
                                     moderator=_moderator(interaction), confirm=self.fingerprint)
                return _with_deadlines(interaction, svc, self.league, views, lang)

            await _say_long(interaction, await run_work(interaction, work, component=True))

        await answer_press(interaction, answer())


@league_group.command(name="fixtures", description="Every fixture and where league matches are being played")
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_fixtures(interaction: discord.Interaction, league: str | None = None) -> None:
    def work() -> list[FixtureView]:
        svc = _svc(interaction)
        return svc.fixtures(_guild(interaction), _default_league(svc, _guild(interaction), interaction.user.id, league))

    views = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    text = "\n".join(v.line(mention=False, language=lang, name=safe_name) + deadline_suffix(v, lang)
                     for v in views) or tr(lang, "league.fixtures.none")
    await _say_long(interaction, text + "\n" + tr(lang, "league.fixtures.spectators"))
    # Posted: the fixtures' commitments (a re-drawn one's too) are public now, and may be played.
    await asyncio.to_thread(_svc(interaction).commitments_shown, views)


@league_group.command(name="play", description="Start your next league fixture (or the one you pick) in this channel")
@app_commands.describe(words="words of your own for the dice (shown in public; default: your command's id)")
@app_commands.autocomplete(fixture=_typed_completer(_my_fixtures))
@starts_match
async def league_play(interaction: discord.Interaction, fixture: str | None = None,
                      words: app_commands.Range[str, 1, MAX_WORDS] | None = None) -> None:
    entropy = entropy_of("s", words, interaction.id)

    def work() -> tuple[FixtureView, Outcome, str]:
        svc = _svc(interaction)
        view, out = svc.play(_guild(interaction), interaction.channel_id or 0, interaction.user.id,
                             _fixture_id(fixture) if fixture else None, entropy=entropy)
        lg = svc.league(_guild(interaction), view.fixture.league_id)
        return view, out, lg.name

    try:
        res = await run_work(interaction, work)
    except CommitmentNotPosted as unposted:
        # Drawn again and never shown: post the commitments now; the next play adds its entropy.
        lang = (await languages(interaction)).public
        f = unposted.view.fixture
        # A later round's tie (knockout, Swiss) was drawn from a result and never shown; an older
        # one's dice were drawn again.
        key = "league.play.posted.new" if not f.posted_commitment else "league.play.posted"
        await _say(interaction, tr(lang, key, id=f.id, home=safe_name(unposted.view.home),
                                   away=safe_name(unposted.view.away), dice=f.dice_commitment,
                                   potions=f.potion_commitment or "-"))
        await asyncio.to_thread(_svc(interaction).commitments_shown, [unposted.view])
        return
    view, out, name = res
    lang = (await languages(interaction)).public
    header = tr(lang, "league.play.header", league=safe_name(name), round=view.fixture.round, id=view.id,
                home=safe_name(view.home), home_coach=view.home_coach, away=safe_name(view.away), away_coach=view.away_coach,
                goals=out.state.options.goals_to_win)
    header += "\n" + commitment_text(out.match.seed_commitment, entropy=out.match.dice_entropy, language=lang)
    if words and words.strip() and entropy in out.match.dice_entropy.split("."):
        header += "\n" + tr(lang, "match.words", member=interaction.user.id,
                            words=safe_name(words), part=entropy)
    await interaction.client.poster.publish(interaction, out, header=header)  # type: ignore[attr-defined]  # interaction.client is ElfballBot, which has a poster


@league_group.command(name="standings", description="The league table (picture and text)")
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_standings(interaction: discord.Interaction, league: str | None = None) -> None:
    lang = (await languages(interaction)).public

    def work() -> tuple[str, bytes]:
        svc = _svc(interaction)
        lg, rows = svc.standings(_guild(interaction), _default_league(svc, _guild(interaction), interaction.user.id, league))
        progress = svc.progress(_guild(interaction), lg.id)
        lines = []
        if progress.format != "round_robin" and progress.champion:  # a round robin's table says it already
            lines.append(tr(lang, "league.standings.champion", team=safe_name(progress.champion)))
        if progress.format != "round_robin" and progress.round:
            lines.append(tr(lang, "league.standings.progress", format=_format_words(lang, lg.settings),
                            round=progress.round, rounds=progress.rounds))
        lines.append(tr(lang, "league.standings.head", league=safe_name(lg.name)))
        tables = svc.division_standings(_guild(interaction), lg.id) if progress.format == "divisions" else [rows]
        for number, table in enumerate(tables, 1):
            if len(tables) > 1:
                lines.append(tr(lang, "league.standings.division", division=number))
            lines += [tr(lang, "league.standings.row", rank=i, team=safe_name(r.name), played=r.played, won=r.won,
                         drawn=r.drawn, lost=r.lost, scored=r.goals_for, conceded=r.goals_against,
                         casualties=r.casualties, points=r.points)
                      for i, r in enumerate(table, 1)]
        played = sum(r.played for r in rows) // 2
        return "\n".join(lines), lookup.standings_picture(lg.name, rows, language=lang,
                                                          subtitle=tr(lang, "league.standings.subtitle", teams=len(rows),
                                                              played=played))

    res = await run_work(interaction, work)
    text, png = res
    await _say_long(interaction, text, file=discord.File(io.BytesIO(png), filename="standings.png",
                                                         description=text[:1000]))


@league_group.command(name="results", description="Every result so far")
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_results(interaction: discord.Interaction, league: str | None = None) -> None:
    def work() -> list[FixtureView]:
        svc = _svc(interaction)
        return svc.results(_guild(interaction), _default_league(svc, _guild(interaction), interaction.user.id, league))

    views = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    await _say_long(interaction, "\n".join(v.line(mention=False, language=lang, name=safe_name) for v in views)
                    or tr(lang, "league.results.none"))


@league_group.command(name="settings", description="Show the league's settings; the commissioner may change them")
@app_commands.describe(profile="the rules profile (replaces the rules string)", rules=RULES_HELP, reason=REASON_HELP,
                       format="the competition (before the schedule is drawn)",
                       seeding="knockout and Swiss: drawn or seeded (before the schedule is drawn)",
                       draw_rule="knockout: what a drawn tie gives (before the schedule is drawn)",
                       swiss_rounds="Swiss: how many rounds, 0 for the default (before the schedule is drawn)",
                       divisions="divisions: how many (before the schedule is drawn)")
@app_commands.choices(profile=PROFILE_CHOICES, format=FORMAT_CHOICES, seeding=SEEDING_CHOICES, draw_rule=DRAW_RULE_CHOICES)
@app_commands.autocomplete(league=_typed_completer(_leagues), rules=rules_autocomplete)
async def league_settings(interaction: discord.Interaction, league: str | None = None,
                          budget: app_commands.Range[int, 60, 400] | None = None,
                          goals: app_commands.Range[int, 1, 3] | None = None, star2: bool | None = None,
                          double_round: bool | None = None, extra_players: bool | None = None,
                          clock_hours: app_commands.Range[int, 0, 168] | None = None,
                          points_win: app_commands.Range[int, 0, 10] | None = None,
                          points_draw: app_commands.Range[int, 0, 10] | None = None,
                          points_loss: app_commands.Range[int, 0, 10] | None = None,
                          profile: str | None = None, rules: str | None = None,
                          reason: app_commands.Range[str, 1, 200] | None = None, format: str | None = None,
                          seeding: str | None = None, draw_rule: str | None = None,
                          swiss_rounds: app_commands.Range[int, 0, 30] | None = None,
                          divisions: app_commands.Range[int, 2, 8] | None = None) -> None:
    asked = {"budget": budget, "goals_to_win": goals, "star2": star2, "double_round": double_round,
             "extra_players": extra_players, "clock_hours": clock_hours, "points_win": points_win,
             "points_draw": points_draw, "points_loss": points_loss, "format": format, "seeding": seeding,
             "draw_rule": draw_rule, "swiss_rounds": swiss_rounds, "divisions": divisions}
    changes: dict[str, Any] = {k: v for k, v in asked.items() if v is not None}
    if profile is not None or rules is not None:
        changes["rules"] = f"{f'profile={profile}' if profile else ''} {rules or ''}".strip()

    def work() -> tuple[str, dict[str, Any]]:
        svc = _svc(interaction)
        target = _default_league(svc, _guild(interaction), interaction.user.id, league)
        if changes:
            svc.change_settings(_guild(interaction), interaction.user.id, target, changes, moderator=_moderator(interaction),
                                reason=reason or "")
        lg = svc.league(_guild(interaction), target)
        return lg.name, svc.settings(_guild(interaction), lg.id)

    res = await run_work(interaction, work)
    name, settings = res
    langs = await languages(interaction)
    lang = langs.public if changes else langs.user
    words = catalogue(lang)
    def value(k: str, v: Any) -> Any:
        if isinstance(v, bool):
            return words.get("league.value." + str(v), str(v))
        return words.get(f"league.{k}.{v}", str(v)) if k in ("format", "seeding", "draw_rule") else v

    fmt = settings.get("format", "round_robin")
    relevant = {"seeding": fmt != "round_robin", "draw_rule": fmt in ("knockout", "double_elimination", "divisions"),
                "swiss_rounds": fmt == "swiss", "divisions": fmt == "divisions"}  # a format's own options only
    shown = ", ".join(f"{words.get('league.setting.' + k, k.replace('_', ' '))} {value(k, v)}"
                      for k, v in settings.items() if k != "rules" and relevant.get(k, True))
    await _say(interaction, tr(lang, "league.settings", changed=tr(lang, "league.settings.changed") if changes else "",
                               league=safe_name(name), settings=shown, rules=describe_rules(match_options(settings), lang)),
               ephemeral=not changes)


@league_group.command(name="correct", description="Commissioner: set or correct a fixture's result (kept in the audit trail)")
@app_commands.autocomplete(fixture=_typed_completer(_all_fixtures))
async def league_correct(interaction: discord.Interaction, fixture: str, home_score: app_commands.Range[int, 0, 99],
                         away_score: app_commands.Range[int, 0, 99], reason: str,
                         home_casualties: app_commands.Range[int, 0, 99] | None = None,
                         away_casualties: app_commands.Range[int, 0, 99] | None = None) -> None:
    def work() -> tuple[FixtureView, dict[str, Any]]:
        return _svc(interaction).correct(_guild(interaction), interaction.user.id, _fixture_id(fixture),
                                         home_score=home_score, away_score=away_score, home_casualties=home_casualties,
                                         away_casualties=away_casualties, reason=reason, moderator=_moderator(interaction))

    res = await run_work(interaction, work)
    view, before = res
    lang = (await languages(interaction)).public
    old = tr(lang, "league.none") if before["home_score"] is None else f"{before['home_score']}-{before['away_score']}"
    await _say(interaction, tr(lang, "league.corrected", user=interaction.user.id, reason=safe_name(reason),
                               line=view.line(mention=False, language=lang, name=safe_name), old=old)[:MAX_TEXT],
               allowed_mentions=discord.AllowedMentions.none())


#: One page of ``/league audit``: its lines, then the page's footer, within Discord's 2,000.
AUDIT_PAGE = 1800


def _audit_line(a: Any, lang: str) -> str:
    who = f"<@{a.actor_id}>" if a.actor_id else tr(lang, "league.audit.bot")
    stand_in = a.detail.get("stand_in_for")
    if stand_in:  # a moderator acted for the commissioner
        who += tr(lang, "league.audit.stand_in", commissioner=stand_in)
    fixture = tr(lang, "league.audit.fixture", id=a.fixture_id) if a.fixture_id else ""
    if a.reason:
        why = f" ({safe_name(a.reason)})"
    elif stand_in or a.action.startswith("match_abandoned"):
        why = tr(lang, "league.audit.no_reason")  # a moderator's act says that he gave no reason
    else:
        why = ""
    action = tr(lang, f"league.audit.action.{a.action}") if f"league.audit.action.{a.action}" in catalogue(lang) \
        else a.action
    line = tr(lang, "league.audit.line", when=f"{a.created_at:%Y-%m-%d %H:%M}", action=action, fixture=fixture, who=who,
              why=why, detail=_detail(a.detail, lang))
    return line[:AUDIT_PAGE]


def audit_pages(lines: list[str], limit: int = AUDIT_PAGE) -> list[str]:
    """The audit's lines (newest first) cut into pages of at most ``limit`` characters, never
    inside a line: the last page ends with the league's first entry."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and size + len(line) + 1 > limit:
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pages.append("\n".join(current))
    return pages


def _audit_page(interaction: discord.Interaction, league: int | str, page: int, lang: str) -> tuple[str, discord.ui.View | None]:
    """Page ``page`` (1: the newest entries) of the league's audit and its Previous/Next
    buttons (none when it fits on one page); a page past the last shows the last."""
    svc = _svc(interaction)
    lg = svc.league(_guild(interaction), league)
    rows = svc.audit(_guild(interaction), lg.id, limit=None)
    pages = audit_pages([_audit_line(a, lang) for a in rows])
    if not pages:
        return tr(lang, "league.audit.empty"), None
    page = max(1, min(page, len(pages)))
    if len(pages) == 1:
        return pages[0], None
    text = pages[page - 1] + "\n" + tr(lang, "league.audit.page", page=page, pages=len(pages), league=safe_name(lg.name))
    view = discord.ui.View(timeout=None)
    view.add_item(AuditPageButton(lg.id, page - 1, "p", label=tr(lang, "league.audit.previous"), disabled=page == 1))
    view.add_item(AuditPageButton(lg.id, page + 1, "n", label=tr(lang, "league.audit.next"), disabled=page == len(pages)))
    return text, view


class AuditPageButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-audit:(?P<league>[0-9]+):(?P<page>[0-9]+):(?P<way>[pn])"):
    """Previous / Next on a ``/league audit`` page: the press shows that page in the same
    message (read again from the audit, so a restarted bot still answers it)."""

    def __init__(self, league: int, page: int, way: str, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or way, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"elfball-audit:{league}:{max(page, 0)}:{way}"))
        self.league, self.page = league, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> AuditPageButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(int(match["league"]), int(match["page"]), match["way"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = (await languages(interaction)).user

        async def answer() -> None:
            text, view = await run_work(interaction, lambda: _audit_page(interaction, self.league, self.page, lang),
                                        component=True)
            kwargs: dict[str, Any] = {"content": text, "view": view, "allowed_mentions": discord.AllowedMentions.none()}
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)

        await answer_press(interaction, answer())


@league_group.command(name="audit", description="The league's audit trail: results recorded and corrected, settings, rosters")
@app_commands.describe(page="which page (1: the newest entries); Previous and Next turn the pages")
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_audit(interaction: discord.Interaction, league: str | None = None,
                       page: app_commands.Range[int, 1, 10000] = 1) -> None:
    lang = (await languages(interaction)).user

    def work() -> tuple[str, discord.ui.View | None]:
        svc = _svc(interaction)
        return _audit_page(interaction, _default_league(svc, _guild(interaction), interaction.user.id, league), page, lang)

    text, view = await run_work(interaction, work)
    extra: dict[str, Any] = {"view": view} if view is not None else {}
    await _say(interaction, text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none(), **extra)


def _detail(detail: dict[str, Any], lang: str = "en") -> str:
    detail = {k: v for k, v in detail.items() if k != "stand_in_for"}  # said with who acted
    def score(r: dict[str, Any] | None) -> str:
        if not r or r.get("home_score") is None:
            return tr(lang, "league.none")
        return tr(lang, "league.audit.score", home=r["home_score"], away=r["away_score"],
                  home_casualties=r.get("home_casualties", 0), away_casualties=r.get("away_casualties", 0))

    if "after" in detail and "home_score" in (detail.get("after") or {}):
        return (f"{score(detail.get('before'))} → " if "before" in detail else "") + score(detail["after"])
    words = catalogue(lang)

    def value(key: str, v: Any) -> str:
        if isinstance(v, bool):
            return words.get(f"league.value.{v}", str(v))
        if key == "item":
            return words.get(f"support.{v}", str(v))
        if key == "ability" and v in ABILITIES:
            return ABILITIES[v].name_in(lang)
        return safe_name(str(v))  # a team's or player's name

    if isinstance(detail.get("after"), dict):  # settings: each one's old and new value
        before = detail.get("before") or {}
        return ", ".join(f"{words.get('league.setting.' + k, k.replace('_', ' '))} "
                         + (f"{value(k, before[k])} → " if k in before else "") + value(k, v)
                         for k, v in detail["after"].items())[:300]
    return ", ".join(f"{words.get('league.audit.field.' + k, k)} {value(k, v)}" for k, v in detail.items())[:300]


@league_group.command(name="aftermath", description="Your post-match decisions still open (potions, injuries, abilities)")
async def league_aftermath(interaction: discord.Interaction) -> None:
    langs = await languages(interaction)
    views = await run_work(interaction, lambda: _svc(interaction).open_aftermaths(_guild(interaction), interaction.user.id,
                                                                               language=langs.public, name=safe_name))
    if not views:
        await _say(interaction, tr(langs.user, "league.aftermath.none"), ephemeral=True)
        return
    for v in views:
        await _send(interaction, aftermath_post(v, langs.public))


@league_group.command(name="replay", description="An animated replay of a league fixture's match")
@app_commands.autocomplete(fixture=_typed_completer(_all_fixtures))
@REPLAY
async def league_replay(interaction: discord.Interaction, fixture: str) -> None:
    lang = (await languages(interaction)).public

    def work() -> bytes:
        view = _svc(interaction).fixture(_guild(interaction), _fixture_id(fixture))
        if view.fixture.match_id is None:
            raise Refusal("league.refuse.no_replay", id=view.id)
        return lookup.replay(view.fixture.match_id, language=lang, empty=False)

    gif = await run_work(interaction, work)
    await _say(interaction, tr(lang, "league.replay", id=fixture.lstrip("#")),
               file=discord.File(io.BytesIO(gif), filename="replay.gif"))


#: Discord's limit for one file a bot sends to a server without boosts (10 MiB); a server boosted
#: to level 2 or 3 takes more (``Guild.filesize_limit``).
EXPORT_LIMIT = 10 * 1024 * 1024


def export_limit(guild: discord.Guild | None) -> int:
    if guild is not None and getattr(guild, "premium_tier", 0) >= 2:
        return max(EXPORT_LIMIT, int(getattr(guild, "filesize_limit", EXPORT_LIMIT)))
    return EXPORT_LIMIT


@league_group.command(name="export", description="Commissioner: the league's website (standings, teams, matches) as a zip")
@app_commands.describe(reason=REASON_HELP)
@app_commands.autocomplete(league=_typed_completer(_leagues))
@EXPORT
async def league_export(interaction: discord.Interaction, league: str | None = None,
                        reason: app_commands.Range[str, 1, 200] | None = None) -> None:
    lang = (await languages(interaction)).public
    limit = export_limit(interaction.guild)

    def check() -> tuple[Any, list[int]]:  # (the league, its coaches' member ids)
        svc = _svc(interaction)
        # The commissioner's, or a moderator's for him: written in the league's audit.
        lg = svc.check_export(_guild(interaction), interaction.user.id,
                              _default_league(svc, _guild(interaction), interaction.user.id, league),
                              moderator=_moderator(interaction), reason=reason or "")
        return lg, sorted({t.coach_id for t in svc.teams(_guild(interaction), lg.id)})

    lg, coach_ids = await run_work(interaction, check)
    names = await _display_names(interaction, coach_ids)

    def work() -> tuple[str, int, bytes | None, bool]:
        # Lazy on purpose (issue 33): the website's builder (Jinja2, its templates and the
        # replays' tooling) holds ~24 MB that a bot which never exports need not carry.
        from service.site import SiteTooLarge, build_site, zip_site

        coach_name = names.get  # the site shows a coach by his display name, never a bare id
        # Live matches share the machine: one extra worker at most, none on one core or if
        # the operator draws in the bot's own process (ELFBALL_RENDER_PROCESSES=0).
        processes = batch_processes()
        folder = f"league-{lg.id}"
        # PNGs do not shrink in a zip: once they pass the limit, stop drawing. First without the
        # replay's close-ups for phones (about half the pictures), then without the replays.
        for closeups in (True, False):
            try:
                site = build_site(lg, language=lang, png_budget=limit, coaches=coach_name, closeups=closeups,
                                  processes=processes)
                data = zip_site(site, folder=folder)
                if len(data) <= limit:
                    return lg.name, len(site.pages), data, True
            except SiteTooLarge:
                pass
        # The replays' boards are most of a season: the rest of the site may still fit.
        try:
            site = build_site(lg, language=lang, replays=False, png_budget=limit, coaches=coach_name,
                              processes=processes)
        except SiteTooLarge:
            return lg.name, 0, None, False
        data = zip_site(site, folder=folder)
        return lg.name, len(site.pages), data if len(data) <= limit else None, False

    res = await run_work(interaction, work)
    name, pages, data, whole = res
    mb = {"size": f"{len(data) / 1e6:.1f}" if data else "", "limit": f"{limit / 1e6:.1f}"}
    if data is None:
        await _say(interaction, tr(lang, "league.export.too_large", league=safe_name(name), **mb))
        return
    key = "league.export.done" if whole else "league.export.no_replays"
    await _say(interaction, tr(lang, key, league=safe_name(name), pages=pages, **mb),
               file=discord.File(io.BytesIO(data), filename=f"elfball-league-{safe_file(name)}.zip"))


async def _display_names(interaction: discord.Interaction, member_ids: list[int]) -> dict[int, str]:
    """The members' display names on this server now: from the cache, else asked of Discord (the
    bot has no member list); a coach who left the server is left out (the site says "a coach")."""
    guild = interaction.guild
    out: dict[int, str] = {}
    if guild is None:
        return out
    for member_id in member_ids:
        member = guild.get_member(member_id)
        if member is None:
            await defer(interaction, component=False)  # a lookup may pass the 3 s window
            try:
                member = await guild.fetch_member(member_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            out[member_id] = member.display_name
    return out


def safe_file(name: str) -> str:
    """A league name as a file name: letters, digits and dashes (Discord keeps such names as sent)."""
    kept = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.casefold())
    return "-".join(part for part in kept.split("-") if part) or "site"


@league_group.command(name="deadline", description="Commissioner: when a round must be played by (reminded here)")
@app_commands.describe(round="the round", when="e.g. in 7 days, 48h, 2026-12-04, 2026-12-04 20:00 (UTC), or none",
                       reason=REASON_HELP)
@app_commands.autocomplete(league=_typed_completer(_leagues))
async def league_deadline(interaction: discord.Interaction, round: app_commands.Range[int, 1, 200],
                          when: app_commands.Range[str, 1, 40], league: str | None = None,
                          reason: app_commands.Range[str, 1, 200] | None = None) -> None:
    def work() -> tuple[Any, Any, list[FixtureView]]:
        svc = _svc(interaction)
        target = _default_league(svc, _guild(interaction), interaction.user.id, league)
        return deadlines_of(elfball(interaction)).set_round(
            _guild(interaction), interaction.user.id, target, round, when, channel_id=interaction.channel_id,
            moderator=_moderator(interaction), reason=reason or "")

    lg, deadline, views = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    fixtures = "\n".join(v.line(mention=False, language=lang, name=safe_name) for v in views)
    key = "league.deadline.set" if deadline else "league.deadline.cleared"
    await _say(interaction, tr(lang, key, league=safe_name(lg.name), round=round,
                               when=when_words(deadline) if deadline else "", fixtures=fixtures)[:MAX_TEXT])


# --- /team (Advanced Rules) -------------------------------------------------------------------------
async def _sheet_reply(interaction: discord.Interaction, key: str, sheet: Any, **values: Any) -> None:
    lang = (await languages(interaction)).public
    if "item" in values:  # team support: its name, singular or plural by the count (the sheet's words)
        item_id, total = values["item"], values["total"]
        values["item"] = Catalogue("engine", "data/text", lang).get(
            f"sheet.support.{item_id}.{'one' if total == 1 else 'many'}", SUPPORT_NAMES.get(item_id, item_id))
    if "label" in values:  # "#12 Quill (Imps)": a player's name
        values["label"] = safe_name(values["label"])
    await _say(interaction, tr(lang, "league.team.worth", text=tr(lang, key, **values), team=safe_name(sheet.team.name),
                               value=sheet.value, budget=sheet.budget),
               allowed_mentions=discord.AllowedMentions.none())


@team_group.command(name="hire", description="Hire a rookie (15 points) within your team list and budget")
@app_commands.describe(team="your team", position="a position of its team list", name="his name (optional)")
@app_commands.autocomplete(team=_typed_completer(_my_teams), position=_completer(_positions))
async def team_hire(interaction: discord.Interaction, team: str, position: str, name: str | None = None) -> None:
    res = await run_work(interaction, lambda: _svc(interaction).hire(_guild(interaction), interaction.user.id, team, position, name))
    sheet, label = res
    await _sheet_reply(interaction, "league.team.hired", sheet, label=label)


@team_group.command(name="fire", description="Cut a player (a team never goes below 6)")
@app_commands.autocomplete(team=_typed_completer(_my_teams), player=_completer(_players))
async def team_fire(interaction: discord.Interaction, team: str, player: str) -> None:
    res = await run_work(interaction, lambda: _svc(interaction).fire(_guild(interaction), interaction.user.id, team, player))
    sheet, label = res
    await _sheet_reply(interaction, "league.team.fired", sheet, label=label)


@team_group.command(name="buy", description="Buy team support (Cheerleaders, Zlurpee Kegs, Potions, a Wizard, a Bribed Referee)")
@app_commands.choices(item=SUPPORT_CHOICES)
@app_commands.autocomplete(team=_typed_completer(_my_teams))
async def team_buy(interaction: discord.Interaction, team: str, item: str, count: app_commands.Range[int, 1, 4] = 1) -> None:
    res = await run_work(interaction, lambda: _svc(interaction).support(_guild(interaction), interaction.user.id, team, item, count))
    sheet, item_id, total = res
    await _sheet_reply(interaction, "league.team.bought", sheet, total=total, item=item_id)


@team_group.command(name="sell", description="Give up team support (its points are free again)")
@app_commands.choices(item=SUPPORT_CHOICES)
@app_commands.autocomplete(team=_typed_completer(_my_teams))
async def team_sell(interaction: discord.Interaction, team: str, item: str, count: app_commands.Range[int, 1, 4] = 1) -> None:
    res = await run_work(interaction, lambda: _svc(interaction).support(_guild(interaction), interaction.user.id, team, item, -count))
    sheet, item_id, total = res
    await _sheet_reply(interaction, "league.team.sold", sheet, total=total, item=item_id)


@team_group.command(name="learn", description="A player with 5 XP per ability learns one (5 team points)")
@app_commands.autocomplete(team=_typed_completer(_my_teams), player=_completer(_players), ability=_completer(_abilities))
async def team_learn(interaction: discord.Interaction, team: str, player: str, ability: str) -> None:
    lang = (await languages(interaction)).public
    res = await run_work(interaction, lambda: _svc(interaction).learn(_guild(interaction), interaction.user.id, team, player,
                                                                   ability, language=lang))
    sheet, label = res
    await _sheet_reply(interaction, "league.team.learned", sheet, label=label)


@team_group.command(name="sheet", description="A team sheet: every player's attributes, XP, abilities and injuries")
@app_commands.autocomplete(team=_typed_completer(_server_teams))
async def team_sheet(interaction: discord.Interaction, team: str) -> None:
    lang = (await languages(interaction)).public

    def work() -> Any:
        sheet = _svc(interaction).sheet(_guild(interaction), team, language=lang)
        t = sheet.team

        def abilities(p: Any) -> str:
            names = [ABILITIES[a].name_in(lang) if a in ABILITIES else a for a in p.abilities]
            return f", {', '.join(names)}" if names else ""

        rows = [tr(lang, "league.sheet.row", number=p.number, name=safe_name(p.name),
                   attributes="/".join(str(p.attributes[k]) for k in ("jog", "might", "tackle", "dodge", "skill", "grit")))
                + tr(lang, "league.sheet.xp", xp=p.xp) + abilities(p)
                for p in sorted(t.players, key=lambda p: p.number) if p.status == "active"]
        head = tr(lang, "league.sheet.head", team=safe_name(t.name), list=list_name(t.team_list), coach=t.coach_id,
                  league=", " + safe_name(sheet.league) if sheet.league else "", value=sheet.value, budget=sheet.budget,
                  support=lookup.support_words(t.support, lang))
        return head + "\n" + "\n".join(rows), sheet.png

    res = await run_work(interaction, work)
    text, png = res
    file = discord.File(io.BytesIO(png), filename="team-sheet.png", description=text[:1000]) if png else None
    await _say_long(interaction, text, file=file)


# --- post-match panels ------------------------------------------------------------------------------
_ID = r"(?P<verb>[a-z]+):(?P<am>[0-9]+):(?P<version>[0-9]+)"


class AftermathButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball-lg:" + _ID):
    def __init__(self, verb: str, am: int, version: int, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=f"elfball-lg:{verb}:{am}:{version}"))
        self.verb, self.am, self.version = verb, am, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> AftermathButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["verb"], int(match["am"]), int(match["version"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await aftermath_pressed(interaction, self.verb, self.am, self.version, "", [])


class AftermathSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"elfball-lgs:" + _ID + r":(?P<key>[a-z0-9]+)"):
    def __init__(self, verb: str, am: int, version: int, key: str, options: list[discord.SelectOption] | None = None, *,
                 placeholder: str = "") -> None:
        opts = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"elfball-lgs:{verb}:{am}:{version}:{key}", options=opts[:25],
                                           placeholder=placeholder[:150] or None))
        self.verb, self.am, self.version, self.key = verb, am, version, key

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any) -> AftermathSelect:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["verb"], int(match["am"]), int(match["version"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list((interaction.data or {}).get("values", []))
        await aftermath_pressed(interaction, self.verb, self.am, self.version, self.key, values)


_VERBS = {"potion": "potion", "question": "answer", "injury": "injury", "advance": "learn"}


def aftermath_post(view: AftermathView, language: str = "en") -> Post:
    """The post-match report of one team, with a select (or button) for every open decision
    (the view's offers should be in ``language`` too: ``LeagueService.aftermath(..., language=)``)."""
    am = view.aftermath
    lines = [tr(language, "league.aftermath.head", team=view.team, opponent=view.opponent, id=view.fixture.id,
                coach=am.coach_id)]
    lines += view.lines[-12:]
    panel = discord.ui.View(timeout=None)
    rows = 0
    for offer in view.offers:
        need = 2 if offer.kind == "potion" else 1
        if rows + need > 5:
            lines.append(tr(language, "league.aftermath.more"))
            break
        lines.append(f"• {offer.prompt}")
        opts = [discord.SelectOption(label=label[:100], value=value[:100], description=(desc or None) and desc[:100])
                for label, value, desc in offer.options]
        panel.add_item(AftermathSelect(_VERBS[offer.kind], am.id, am.version, offer.key, opts, placeholder=offer.prompt))
        if offer.kind == "potion":
            panel.add_item(AftermathButton("nopotion", am.id, am.version, label=tr(language, "league.aftermath.no_potion")))
        rows += need
    if not view.offers:
        lines.append(tr(language, "league.aftermath.settled"))
    text = "\n".join(lines)
    return Post(text[:MAX_TEXT], None, panel if view.offers else None, am.coach_id)


async def aftermath_pressed(interaction: discord.Interaction, verb: str, am: int, version: int, key: str,
                            values: list[str]) -> None:
    svc, user, value = _svc(interaction), interaction.user.id, (values[0] if values else "")

    def work() -> AftermathView:
        if verb == "potion":
            return svc.drink(am, version, user, value)
        if verb == "nopotion":
            return svc.potions_done(am, version, user)
        if verb == "answer":
            return svc.answer(am, version, user, value)
        if verb == "injury":
            return svc.choose_injury(am, version, user, int(key), value)
        if verb == "learn":
            return svc.advance(_guild(interaction), am, version, user, int(key), value)
        raise Refusal("league.refuse.unknown_choice", verb=repr(verb))

    async def answer() -> None:
        done = await run_work(interaction, work, component=True)
        lang = (await languages(interaction)).public
        view = await asyncio.to_thread(svc.aftermath, done.aftermath.id, language=lang, name=safe_name)
        await _send(interaction, aftermath_post(view, lang), edit_panel=True)

    await answer_press(interaction, answer())


async def after_outcome(interaction: discord.Interaction, outcome: Outcome) -> None:
    """When a command ends a league match: each coach's post-match panel, below the final board."""
    if not outcome.finished or not any(isinstance(e, MatchEnded) for e in outcome.events):
        return
    lang = (await languages(interaction)).public
    views = await asyncio.to_thread(_svc(interaction).aftermath_views, outcome.match.id, language=lang, name=safe_name)
    for v in views:
        if v.offers:
            await _send(interaction, aftermath_post(v, lang))


async def after_outcome_listener(interaction: discord.Interaction | None, outcome: Outcome) -> None:
    """The poster's listener: only a command's own outcome has an interaction to answer below."""
    if interaction is not None:
        await after_outcome(interaction, outcome)


async def setup(bot: ElfballBot) -> None:
    """The league extension: its service, ``/league``, the Advanced ``/team`` commands (in the team
    cog's group) and the post-match panels."""
    if bot.league is None:
        bot.league = LeagueService(bot.service)
    bot.tree.add_command(league_group)
    teams = bot.tree.get_command("team")
    if not isinstance(teams, app_commands.Group):
        raise RuntimeError("the team extension loads before the league's (app.EXTENSIONS)")
    for command in list(team_group.commands):
        team_group.remove_command(command.name)
        teams.add_command(command)
    bot.add_dynamic_items(AftermathButton, AftermathSelect, AuditPageButton, DecideButton, RuleButton)
    bot.sweeps.append(lambda: deadline_sweep(bot))  # round deadlines, in the reminder loop
    if after_outcome_listener not in bot.poster.listeners:
        bot.poster.listeners.append(after_outcome_listener)
    bot.add_dynamic_items(DrawButton)  # a previewed draw's "Draw it" (survives a restart)
