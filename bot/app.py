"""The Discord bot: slash commands and panels that translate into match-service calls.

Nothing here rolls a die or applies a rule. Each command or press becomes an engine command
(via the shared grammar or the panel's verb), the match service applies, stores and renders it
in a worker thread, and the reply carries the narration, the board and the next panel.

Words come from the catalogues in ``bot/locales`` (``bot.i18n``): refusals and private answers in
the member's language, posts the channel reads in the server's; the command tree is localised by
``CommandTranslator``.

Replies meet Discord's 3-second window: the work gets 2 seconds; if it is not done by then the
interaction is deferred and answered when it is. Refusals are ephemeral, say why, and change
nothing; an unexpected error answers with a short apology and an incident id that is logged.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from db import matches as store
from db import settings as db_settings
from db import teams as db_teams
from db.engine import session_scope
from db.errors import StoreError
from db.matches import MatchSide
from engine import commands as C
from engine.abilities import ABILITIES
from engine.dice.odds import odds
from engine.dice.stringify import MarkdownStringifier
from engine.errors import ElfballError
from engine.field import standard_field
from engine.hexes import Direction, distance
from engine.i18n import Catalogue, language_of, phrase
from engine.legal import legal_commands
from engine.match import pending
from engine.options import describe as describe_rules
from engine.rosters import all_team_lists, team_list
from service.dice import free_roll
from service.grammar import TACKLE_USES, parse_path, resolve_player
from service.matches import AI_COACH_ID, MatchService, Outcome, prompt_for, refusal_text, structured_refusal
from service.verify import commitment_text, reveal_text

from .help import cmd_help
from .i18n import CommandTranslator, catalogue, languages, server_language, tr
from .items import PanelButton, PanelSelect, command_for
from .panels import Post, build_post, challenge_odds_line
from .rule_options import PROFILE_CHOICES, RULES_HELP, rule_options, rules_autocomplete, status_line
from .rules_topics import find_topic, topic_choices
from .trust import DescribeButton, cmd_preferences, match_describe, match_verify

__all__ = ["ElfballBot", "main", "panel_pressed", "shard_settings", "WORK_WINDOW"]

log = logging.getLogger("elfball.bot")
F = standard_field()
T = TypeVar("T")
#: Seconds of work before a reply is deferred (Discord closes the window at 3).
WORK_WINDOW = 2.0
DIRECTIONS = [app_commands.Choice(name=f"{d.name} ({d.value})", value=d.name) for d in Direction]
#: Abilities that pay movement with Momentum counters (``Move.ability``).
MOVE_ABILITIES = ("ruthless", "goalie", "beeline", "teammate", "burst", "shamble", "swarm", "lead-pass", "react")
MOVE_ABILITY_CHOICES = [app_commands.Choice(name=ABILITIES[a].name, value=a) for a in MOVE_ABILITIES]
TACKLE_CHOICES = [app_commands.Choice(name=ABILITIES[u].name, value=u) for u in TACKLE_USES]
SPELL_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                 (("System Shock", "system_shock"), ("Inferno", "inferno"), ("Transformation", "transformation"))]
AI_NAMES = ("ai", "bot", "computer")


class Refusal(Exception):
    """A reason to refuse politely (ephemeral), with nothing changed: a key of the bot's
    catalogue and its values (or, from older callers, a message written in English)."""

    def __init__(self, key: str, /, **values: Any) -> None:
        self.key, self.values = key, values
        super().__init__(self.text("en"))

    def text(self, language: str) -> str:
        return tr(language, self.key, **self.values) if self.key in catalogue(language) else self.key


def reason_text(reason: str | BaseException, language: str) -> str:
    """Why something was refused, in ``language``: our own refusals from the catalogue; the
    team-building rules' and the store's in their own words (``structured_refusal``); the bot's
    phrases (``phrase.*`` keys); else as the console says them (``service.matches.refusal_text``:
    the parser's usage, the service's phrases, the rules' refusals through ``engine.refusals``)."""
    if isinstance(reason, Refusal):
        return reason.text(language)
    structured = structured_refusal(reason, language)
    if structured is not None:
        return structured
    message = str(reason)
    known = phrase(catalogue(language).text, message)  # the bot's own phrases, numbers kept
    return known if known != message else refusal_text(message, language)


#: Called after a command's outcome is posted (the league posts its post-match panels).
AFTER_OUTCOME: list[Callable[[discord.Interaction, Outcome], Awaitable[None]]] = []


async def _after(interaction: discord.Interaction, outcome: Outcome) -> None:
    for listener in AFTER_OUTCOME:
        await listener(interaction, outcome)


# --- replying -------------------------------------------------------------------------------------
async def _send(interaction: discord.Interaction, post: Post, *, edit_panel: bool = False) -> None:
    kwargs: dict[str, Any] = {"content": post.content, "allowed_mentions": discord.AllowedMentions(users=True, roles=False, everyone=False)}
    if post.file is not None:
        kwargs["file"] = post.file
    if post.view is not None:
        kwargs["view"] = post.view
    if post.embeds:
        kwargs["embeds"] = post.embeds
    if edit_panel and interaction.message is not None:
        # The pressed panel loses its controls: the new board below carries the next ones.
        if interaction.response.is_done():
            await interaction.edit_original_response(view=None)
        else:
            await interaction.response.edit_message(view=None)
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def _say(interaction: discord.Interaction, text: str, *, ephemeral: bool = False, **kwargs: Any) -> None:
    """Answer with ``text`` whether or not the work had to defer the interaction first."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions(users=True, roles=False, everyone=False))
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, **kwargs)


async def _refuse(interaction: discord.Interaction, reason: str | BaseException) -> None:
    """Refuse privately, in the member's language."""
    text = f"⛔ {reason_text(reason, (await languages(interaction)).user)}"[:1900]
    if interaction.response.is_done():
        # A deferred command left a public "thinking…" placeholder: remove it. A deferred press's
        # original response is the pressed panel itself (the board): it stays.
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def run_work(interaction: discord.Interaction, work: Callable[[], T], *, component: bool = False) -> T:
    """Run ``work`` in a thread; defer the interaction if it is not done within the window."""
    started = time.perf_counter()
    task = asyncio.ensure_future(asyncio.to_thread(work))
    done, _ = await asyncio.wait({task}, timeout=WORK_WINDOW)
    if not done and not interaction.response.is_done():
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True)
    try:
        return await task
    finally:
        log.info(
            "command %s guild=%s channel=%s user=%s latency_ms=%.0f",
            _command_name(interaction), interaction.guild_id, interaction.channel_id, interaction.user.id,
            (time.perf_counter() - started) * 1000,
        )


def _command_name(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return interaction.command.qualified_name
    data = interaction.data or {}
    return str(data.get("custom_id", "?"))


async def act(interaction: discord.Interaction, command: str | C.Command, *, header: str | None = None) -> None:
    """Apply a coach's command to the channel's match and post the result."""
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    channel = interaction.channel_id or 0

    def work() -> tuple[Outcome, str | None]:
        m = bot.service.current(channel)
        _same_guild(m, interaction)
        before = pending(m.engine_state()).side
        return bot.service.act(channel, interaction.user.id, command), before

    try:
        outcome, before = await run_work(interaction, work)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    _log_match(interaction, outcome)
    lang = (await languages(interaction)).public
    await _send(interaction, build_post(outcome, previous_side=before, header=header, language=lang))
    await _after(interaction, outcome)


def _log_match(interaction: discord.Interaction, outcome: Outcome) -> None:
    log.info("match %s now at version %s (guild=%s channel=%s user=%s)", outcome.match.id, outcome.match.version,
             interaction.guild_id, interaction.channel_id, interaction.user.id)


def _same_guild(m: Any, interaction: discord.Interaction) -> None:
    if m.guild_id != (interaction.guild_id or 0):
        raise Refusal("refuse.other_server")


async def panel_pressed(interaction: discord.Interaction, verb: str, match_id: int, version: int, arg: str | None,
                        values: list[str]) -> None:
    """A press on a panel; an unexpected failure answers with an incident id, as commands do."""
    try:
        await _panel_pressed(interaction, verb, match_id, version, arg, values)
    except Exception as exc:  # noqa: BLE001 - anything unexpected still gets a polite answer
        incident = secrets.token_hex(4)
        log.exception("incident %s on panel %s (guild=%s channel=%s)", incident, verb, interaction.guild_id,
                      interaction.channel_id, exc_info=exc)
        await _refuse(interaction, Refusal("error.incident", incident=incident))


async def _panel_pressed(interaction: discord.Interaction, verb: str, match_id: int, version: int, arg: str | None,
                         values: list[str]) -> None:
    """A press on a panel: only the deciding coach, only on the newest panel of that match."""
    bot: ElfballBot = interaction.client  # type: ignore[assignment]

    def work() -> tuple[Outcome, str | None]:
        with session_scope() as s:
            m = store.get_match(session=s, match_id=match_id)
        if m.guild_id != (interaction.guild_id or 0) or m.channel_id != interaction.channel_id:
            raise Refusal("refuse.panel_other_channel")
        if not m.active:
            raise Refusal("refuse.match_over")
        if m.version != version:
            raise Refusal("refuse.panel_stale")
        state = m.engine_state()
        side = pending(state).side
        coach = m.west_coach_id if side == "west" else m.east_coach_id
        if interaction.user.id != coach:
            raise Refusal("refuse.not_your_decision", coach=coach)
        if verb == "undo":
            return bot.service.undo(m.channel_id, interaction.user.id, expected_version=version), side
        cmd = command_for(state, verb, arg, values)
        return bot.service.act(m.channel_id, interaction.user.id, cmd, expected_version=version, as_side=side), side

    try:
        outcome, before = await run_work(interaction, work, component=True)
    except (ElfballError, StoreError, Refusal, ValueError) as exc:
        await _refuse(interaction, exc)
        return
    _log_match(interaction, outcome)
    lang = (await languages(interaction)).public
    await _send(interaction, build_post(outcome, previous_side=before, language=lang), edit_panel=True)
    await _after(interaction, outcome)


# --- autocomplete -----------------------------------------------------------------------------------
def _state_for(interaction: discord.Interaction) -> Any:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    m = bot.service.current(interaction.channel_id or 0)
    state = m.engine_state()
    return m, state, bot.service.side_of(m, interaction.user.id)


#: ``make(state, side, typed, namespace, language)``: (label, value) pairs.
Maker = Callable[..., list[tuple[str, str]]]


async def _complete(interaction: discord.Interaction, current: str, make: Maker) -> list[app_commands.Choice[str]]:
    """Suggestions only: whatever the coach submits is checked again by the engine. ``make``
    also gets the options typed so far (``interaction.namespace``: the player who moves, the
    spell being cast)."""
    def work() -> list[tuple[str, str]]:
        try:
            m, state, side = _state_for(interaction)
        except (StoreError, ElfballError):
            return []
        return make(state, side, current, interaction.namespace, language_of(interaction.locale))

    pairs = await asyncio.to_thread(work)
    cur = current.strip().lower()
    ranked = [p for p in pairs if cur in p[0].lower() or cur in p[1].lower()] if cur else pairs
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in ranked[:25]]


def completer(make: Maker) -> Callable[..., Any]:
    """An autocomplete callback (discord.py wants a coroutine function) for ``make``."""

    async def autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _complete(interaction, current, make)

    return autocomplete


def _players_to_act(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    first = [c.player for c in legal_commands(state, side).of(C.StartAction)]  # type: ignore[attr-defined]
    rest = [p.id for p in state.team_players(side) if p.id not in first]
    return [(_name(state, pid, lang), pid) for pid in first + rest]


def _name(state: Any, pid: str, lang: str = "en") -> str:
    """``Hunter #2 — K11, Down``: a player for a list, where he is and how."""
    p = state.players[pid]
    where = F.format(p.hex) if p.hex else tr(lang, f"where.{p.location.value}")
    status = "" if p.status.value == "standing" else ", " + tr(lang, f"status.{p.status.value}")
    return f"{p.name} — {where}{status}"


def _path_suggestions(state: Any, side: str, current: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    mover = getattr(ns, "player", None)
    if mover:  # Lead Pass, Swarm, React: the path starts from the player who moves
        try:
            p = resolve_player(state, str(mover), side=side, on_field=True)
        except ElfballError:
            return []
    if p is None or p.hex is None:
        return []
    tokens = current.split()
    try:
        at = parse_path(tokens, p.hex)[-1] if tokens else p.hex
    except ElfballError:
        return []
    prefix = (" ".join(tokens) + " ") if tokens else ""
    out = []
    for d in Direction:
        h = at.neighbour(d)
        if h in F and state.player_at(h) is None:
            out.append((f"{prefix}{F.format(h)}  ({tr(lang, 'dir.' + d.name)})", f"{prefix}{F.format(h)}"))
    return out


def _throw_targets(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    legal = legal_commands(state, side)  # type: ignore[arg-type]
    mates = [(tr(lang, "complete.throw_target", player=q.name, hex=F.format(q.hex), distance=distance(p.hex, q.hex)),
              F.format(q.hex))
             for q in state.on_field(side) if q.id != p.id and q.hex is not None and C.Throw(q.hex) in legal]
    return mates


def _opponents_adjacent(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    return [(_name(state, o.id, lang), o.id) for o in state.on_field() if o.side != side and o.hex is not None
            and distance(o.hex, p.hex) == 1 and o.standing]


def _first(state: Any, legal: list[str], rest: list[str], lang: str = "en") -> list[tuple[str, str]]:
    """Players the engine offers first, then the others a coach might mean."""
    ordered = list(dict.fromkeys([*legal, *rest]))
    return [(_name(state, pid, lang), pid) for pid in ordered]


def _tackle_targets(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Legal tackles first (with a Tackle ability too); then every adjacent opponent, standing or
    not (a Cheapshot takes a Down or Dazed one)."""
    p = state.acting_player
    if p is None or p.hex is None:
        return []
    legal = [c.target for c in legal_commands(state, side).of(C.Tackle)]  # type: ignore[attr-defined]
    near = [o.id for o in state.on_field() if o.side != side and o.hex is not None and distance(o.hex, p.hex) == 1]
    return _first(state, legal, near, lang)


def _movers(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Move) if c.player]  # type: ignore[attr-defined]
    return _first(state, legal, [p.id for p in state.on_field(side)], lang)


def _quicklings(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Quickling)]  # type: ignore[attr-defined]
    return _first(state, legal, [p.id for p in state.on_field(side)], lang)


def _taunters(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.Taunt)]  # type: ignore[attr-defined]
    return _first(state, legal, [p.id for p in state.on_field(side)], lang)


def _taunt_targets(state: Any, side: str, _cur: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Opponents within 6 hexes of the taunter chosen so far (the engine's candidates first)."""
    taunter = str(getattr(ns, "player", "") or "")
    legal = [c.target for c in legal_commands(state, side).of(C.Taunt) if c.player == taunter]  # type: ignore[attr-defined]
    me = state.players.get(taunter)
    near = [o.id for o in state.on_field() if o.side != side and o.hex is not None
            and (me is None or me.hex is None or distance(o.hex, me.hex) <= 6)]
    return _first(state, legal, near, lang)


def _potion_drinkers(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    legal = [c.player for c in legal_commands(state, side).of(C.DrinkPotion)]  # type: ignore[attr-defined]
    return _first(state, legal, [p.id for p in state.team_players(side) if p.location.value != "field"], lang)


def _spell_targets(state: Any, side: str, _cur: str, ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    spell = str(getattr(ns, "spell", "") or "")
    legal = [c.target for c in legal_commands(state, side).of(C.CastSpell) if c.target and c.spell == spell]  # type: ignore[attr-defined]
    foes = [p.id for p in state.on_field() if p.side != side]
    mine = [p.id for p in state.on_field(side)] if spell == "transformation" else []
    return _first(state, legal, foes + mine, lang)


def _spell_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    """Inferno: the engine's hexes, else the hexes of opposing players."""
    legal = [c.hex for c in legal_commands(state, side).of(C.CastSpell) if c.hex is not None]  # type: ignore[attr-defined]
    foes = [p.hex for p in state.on_field() if p.side != side and p.hex is not None]
    out = []
    for h in dict.fromkeys([*legal, *foes]):
        who = state.player_at(h)
        out.append((F.format(h) + (f" ({who.name})" if who else ""), F.format(h)))  # names need no words
    return out


def _bench(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    return [(_name(state, p.id, lang), p.id) for p in state.team_players(side) if p.location.value in ("bench", "field")]


def _setup_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    out = []
    for zone in ("faceoff", "guardian", "rover-north", "rover-south"):
        for h in F.setup_hexes(side, zone):
            if state.player_at(h) is None:
                out.append((f"{F.format(h)} ({tr(lang, 'zone.' + zone)})", F.format(h)))
    return out


def _replacement_hexes(state: Any, side: str, _cur: str, _ns: Any = None, lang: str = "en") -> list[tuple[str, str]]:
    return [(F.format(h), F.format(h)) for h in sorted(F.replacement_hexes(side)) if state.player_at(h) is None]


def list_name(list_id: str) -> str:
    """A stored team's team list by its name (``Night Elves``, a proper noun in every language),
    not its id (``night-elves``); an unknown id as stored."""
    try:
        return team_list(list_id).name
    except ElfballError:
        return list_id


async def _team_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    lang = language_of(interaction.locale)

    def work() -> list[tuple[str, str]]:
        with session_scope() as s:
            stored = db_teams.list_teams(session=s, guild_id=interaction.guild_id or 0)
        return [(tr(lang, "complete.server_team", team=t.name, list=list_name(t.team_list)), t.name) for t in stored] + [
            (tr(lang, "complete.team_list.optional" if t.optional else "complete.team_list", team=t.name), t.id)
            for t in all_team_lists()
        ]

    pairs = await asyncio.to_thread(work)
    cur = current.lower()
    return [app_commands.Choice(name=n[:100], value=v[:100]) for n, v in pairs if cur in n.lower()][:25]


# --- the command tree --------------------------------------------------------------------------------
match_group = app_commands.Group(name="match", description="Start, follow and end Elfball matches in this channel")
setup_group = app_commands.Group(name="setup", description="Set your team up for the Test")
team_group = app_commands.Group(name="team", description="Your server's Basic teams")


def _side_spec(user_id: int, team: str) -> MatchSide:
    """A stored team of the server by name, or a team list's default Basic team."""
    try:
        team_list(team)
        is_list = True
    except ElfballError:
        is_list = False
    if is_list:
        return MatchSide(coach_id=user_id, team_list=team)
    return MatchSide(coach_id=user_id, team=team)


@match_group.command(name="challenge", description="Challenge another member (or the bot) to a match here")
@app_commands.describe(opponent="who you challenge (mention the bot to play the AI coach)", team="your team or a team list",
                       goals="goals to win (1-3; the profile's otherwise)",
                       clock_hours="hours per decision before a moderator may declare a forfeit (0: none)",
                       profile="a rules profile (default standard)", rules=RULES_HELP)
@app_commands.choices(profile=PROFILE_CHOICES)
@app_commands.autocomplete(team=_team_choices, rules=rules_autocomplete)
async def match_challenge(interaction: discord.Interaction, opponent: discord.User, team: str,
                          goals: app_commands.Range[int, 1, 3] | None = None, clock_hours: app_commands.Range[int, 0, 168] = 0,
                          profile: str = "standard", rules: str = "") -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    try:
        options = rule_options(profile, rules, goals=goals, clock_hours=clock_hours)
    except ElfballError as exc:
        await _refuse(interaction, str(exc))
        return
    if opponent.id == interaction.user.id:
        await _refuse(interaction, Refusal("refuse.challenge_yourself"))
        return
    against_ai = bot.user is not None and opponent.id == bot.user.id
    if opponent.bot and not against_ai:
        await _refuse(interaction, Refusal("refuse.other_bot"))
        return
    channel, guild = interaction.channel_id or 0, interaction.guild_id or 0
    if against_ai:
        ai_team = random.Random(interaction.id).choice([t.id for t in all_team_lists(include_optional=False)])

        def start() -> Outcome:
            return bot.service.start(guild_id=guild, channel_id=channel, west=_side_spec(interaction.user.id, team),
                                     east=MatchSide(coach_id=AI_COACH_ID, team_list=ai_team), options=options)

        try:
            outcome = await run_work(interaction, start)
        except (ElfballError, StoreError) as exc:
            await _refuse(interaction, exc)
            return
        lang = (await languages(interaction)).public
        header = (tr(lang, "match.header.ai", west=outcome.state.teams["west"].name, coach=interaction.user.id,
                     east=outcome.state.teams["east"].name, goals=options.goals_to_win)
                  + "\n" + tr(lang, "match.rules", rules=describe_rules(options, lang))
                  + "\n" + commitment_text(outcome.match.seed_commitment, language=lang))
        await _send(interaction, build_post(outcome, header=header, language=lang))
        return

    def propose() -> None:
        with session_scope() as s:
            if store.active_match(session=s, channel_id=channel) is not None:
                raise Refusal("refuse.channel_busy")
            _side_spec(interaction.user.id, team)
            current = db_settings.get_guild_settings(session=s, guild_id=guild).settings
            challenges = dict(current.get("challenges", {}))
            challenges[str(channel)] = {"challenger": interaction.user.id, "opponent": opponent.id, "team": team,
                                        "goals": options.goals_to_win, "clock_hours": clock_hours,
                                        "options": options.to_dict()}
            db_settings.update_guild_settings(session=s, guild_id=guild, settings={**current, "challenges": challenges})

    try:
        await run_work(interaction, propose)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    lang = (await languages(interaction)).public
    await _say(interaction, tr(lang, "match.challenged", opponent=opponent.id, challenger=interaction.user.id, team=team,
                               goals=options.goals_to_win) + " " + tr(lang, "match.rules", rules=describe_rules(options, lang)))


def _take_challenge(guild: int, channel: int, user_id: int, *, remove: bool = True) -> dict[str, Any]:
    """The challenge made to ``user_id`` in ``channel``; ``remove``: and withdraw it."""
    with session_scope() as s:
        current = db_settings.get_guild_settings(session=s, guild_id=guild).settings
        challenges = dict(current.get("challenges", {}))
        ch = challenges.get(str(channel))
        if ch is None or ch["opponent"] != user_id:
            raise Refusal("refuse.no_challenge")
        if remove:
            del challenges[str(channel)]
            db_settings.update_guild_settings(session=s, guild_id=guild, settings={**current, "challenges": challenges})
    return ch


@match_group.command(name="accept", description="Accept the challenge made to you in this channel")
@app_commands.describe(team="your team or a team list")
@app_commands.autocomplete(team=_team_choices)
async def match_accept(interaction: discord.Interaction, team: str) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    channel, guild = interaction.channel_id or 0, interaction.guild_id or 0

    def start() -> Outcome:
        # The challenge stands until the match has started: a refused accept (a team that does
        # not exist) changes nothing, and the member can accept again.
        ch = _take_challenge(guild, channel, interaction.user.id, remove=False)
        out = bot.service.start(guild_id=guild, channel_id=channel, west=_side_spec(ch["challenger"], ch["team"]),
                                east=_side_spec(interaction.user.id, team),
                                options=ch.get("options") or {"goals_to_win": ch["goals"], "clock_hours": ch.get("clock_hours", 0)})
        try:
            _take_challenge(guild, channel, interaction.user.id)
        except Refusal:  # withdrawn meanwhile: the match has started all the same
            pass
        return out

    try:
        outcome = await run_work(interaction, start)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    st = outcome.state
    lang = (await languages(interaction)).public
    header = (tr(lang, "match.header", west=st.teams["west"].name, west_coach=outcome.match.west_coach_id,
                 east=st.teams["east"].name, east_coach=outcome.match.east_coach_id, goals=st.options.goals_to_win)
              + "\n" + tr(lang, "match.rules", rules=describe_rules(st.options, lang))
              + "\n" + commitment_text(outcome.match.seed_commitment, language=lang))
    await _send(interaction, build_post(outcome, header=header, language=lang))


@match_group.command(name="decline", description="Decline the challenge made to you in this channel")
async def match_decline(interaction: discord.Interaction) -> None:
    try:
        ch = await run_work(interaction, lambda: _take_challenge(interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id))
    except (StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    lang = (await languages(interaction)).public
    await _say(interaction, tr(lang, "match.declined", member=interaction.user.id, challenger=ch["challenger"]))


@match_group.command(name="status", description="The board and whose decision it is")
async def match_status(interaction: discord.Interaction) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    try:
        outcome = await run_work(interaction, lambda: bot.service.status(interaction.channel_id or 0))
        _same_guild(outcome.match, interaction)
    except (StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    lang = (await languages(interaction)).public
    await _send(interaction, build_post(outcome, previous_side=outcome.deciding_side, header=status_line(outcome.state, lang),
                                        language=lang))


@match_group.command(name="log", description="What happened in this match (the last lines)")
@app_commands.describe(lines="how many lines (default 40)")
async def match_log(interaction: discord.Interaction, lines: app_commands.Range[int, 1, 200] = 40) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    lang = (await languages(interaction)).user

    def work() -> list[str]:
        _same_guild(bot.service.current(interaction.channel_id or 0), interaction)
        return bot.service.log(interaction.channel_id or 0, last=lines, language=lang)

    try:
        text = await run_work(interaction, work)
    except (StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    body = "\n".join(text)
    file = discord.File(io.BytesIO(body.encode()), filename="match-log.txt")
    await _say(interaction, tr(lang, "match.log"), ephemeral=True, file=file)


@match_group.command(name="concede", description="Concede the match")
async def match_concede(interaction: discord.Interaction) -> None:
    await act(interaction, C.Concede())


@match_group.command(name="forfeit", description="Moderators: the deciding coach ran out of his clock; he forfeits")
async def match_forfeit(interaction: discord.Interaction) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    perms = getattr(interaction.user, "guild_permissions", None)
    if not (perms and perms.manage_guild):
        await _refuse(interaction, Refusal("refuse.forfeit_moderator"))
        return

    def work() -> Outcome:
        m = bot.service.current(interaction.channel_id or 0)
        _same_guild(m, interaction)
        return bot.service.forfeit(interaction.channel_id or 0, interaction.user.id)

    try:
        outcome = await run_work(interaction, work)
    except (ElfballError, StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    await _send(interaction, build_post(outcome, language=(await languages(interaction)).public))
    await _after(interaction, outcome)


@match_group.command(name="abandon", description="End the match without a result (both coaches, or Manage Server)")
async def match_abandon(interaction: discord.Interaction) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    perms = getattr(interaction.user, "guild_permissions", None)
    moderator = bool(perms and perms.manage_guild)
    channel, guild = interaction.channel_id or 0, interaction.guild_id or 0
    lang = (await languages(interaction)).public

    def work() -> str:
        m = bot.service.current(channel)
        _same_guild(m, interaction)
        if moderator:
            ended = bot.service.abandon(channel, interaction.user.id, "abandoned by a moderator")
            return tr(lang, "match.abandoned", member=interaction.user.id) + "\n" + reveal_text(ended.id, ended.seed,
                                                                                              language=lang)
        coaches = {m.west_coach_id, m.east_coach_id} - {AI_COACH_ID}
        if interaction.user.id not in coaches:
            raise Refusal("refuse.abandon_who")
        with session_scope() as s:
            current = db_settings.get_guild_settings(session=s, guild_id=guild).settings
            votes = set(current.get("abandon_votes", {}).get(str(m.id), [])) | {interaction.user.id}
            all_votes = dict(current.get("abandon_votes", {}))
            all_votes[str(m.id)] = sorted(votes)
            db_settings.update_guild_settings(session=s, guild_id=guild, settings={**current, "abandon_votes": all_votes})
        if coaches <= votes:
            ended = bot.service.abandon(channel, interaction.user.id, "both coaches agreed")
            return tr(lang, "match.abandoned.agreed") + "\n" + reveal_text(ended.id, ended.seed, language=lang)
        other = (coaches - votes).pop()
        return tr(lang, "match.abandon.vote", member=interaction.user.id, other=other)

    try:
        text = await run_work(interaction, work)
    except (StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    await _say(interaction, text)


@match_group.command(name="replay", description="An animated replay of this channel's current (or last) match")
async def match_replay(interaction: discord.Interaction) -> None:
    bot: ElfballBot = interaction.client  # type: ignore[assignment]
    lang = (await languages(interaction)).public

    def work() -> bytes:
        from engine.events import event_from_dict
        from render import Step, render_replay

        m = bot.service.latest(interaction.channel_id or 0)
        _same_guild(m, interaction)
        with session_scope() as s:
            rows = store.match_events(session=s, match_id=m.id)
            state = store.rebuild(session=s, match_id=m.id)
        steps = [Step(state, [event_from_dict(e) for e in r.events]) for r in rows]
        return render_replay(steps, width=600, language=lang) if steps else b""

    try:
        gif = await run_work(interaction, work)
    except (StoreError, Refusal) as exc:
        await _refuse(interaction, exc)
        return
    file = discord.File(io.BytesIO(gif), filename="replay.gif")
    await _say(interaction, tr(lang, "match.replay"), file=file)


@setup_group.command(name="place", description="Place one of your players for the Test")
@app_commands.describe(player="a Bench player", hex="a set-up hex (e.g. J12)", facing="the way he faces")
@app_commands.choices(facing=DIRECTIONS)
@app_commands.autocomplete(player=completer(_bench), hex=completer(_setup_hexes))
async def setup_place(interaction: discord.Interaction, player: str, hex: str, facing: str) -> None:
    await act(interaction, f"place {player} {hex} {facing}")


@setup_group.command(name="auto", description="Let the bot set your team up")
async def setup_auto(interaction: discord.Interaction) -> None:
    await act(interaction, C.AutoSetup())


@setup_group.command(name="done", description="Finish your set-up")
async def setup_done(interaction: discord.Interaction) -> None:
    await act(interaction, C.SetupDone())


@app_commands.command(name="act", description="Choose the player who takes this turn's action")
@app_commands.autocomplete(player=completer(_players_to_act))
async def cmd_act(interaction: discord.Interaction, player: str) -> None:
    await act(interaction, f"act {player}")


@app_commands.command(name="move", description="Move hex by hex: K11 K10 L10, or directions NE NE E")
@app_commands.describe(path="hexes or directions, separated by spaces", facing="the way to face at the end",
                       ability="pay the steps with Momentum counters (Beeline, Lead Pass, Swarm, React…)",
                       player="another of your players who moves (Lead Pass, Swarm, React)")
@app_commands.choices(facing=DIRECTIONS, ability=MOVE_ABILITY_CHOICES)
@app_commands.autocomplete(path=completer(_path_suggestions), player=completer(_movers))
async def cmd_move(interaction: discord.Interaction, path: str, facing: str | None = None, ability: str | None = None,
                   player: str | None = None) -> None:
    await act(interaction, f"move {path}" + (f" facing {facing}" if facing else "") + (f" with {ability}" if ability else "")
              + (f" player {player}" if player else ""))


@app_commands.command(name="face", description="Turn the acting player (free)")
@app_commands.choices(direction=DIRECTIONS)
async def cmd_face(interaction: discord.Interaction, direction: str) -> None:
    await act(interaction, f"face {direction}")


@app_commands.command(name="throw", description="Throw to a team-mate's or an empty hex")
@app_commands.describe(target="a hex (e.g. L12)", long="declare a long throw (up to 18; nothing else this action)")
@app_commands.autocomplete(target=completer(_throw_targets))
async def cmd_throw(interaction: discord.Interaction, target: str, long: bool = False) -> None:
    await act(interaction, f"throw {target}" + (" long" if long else ""))


@app_commands.command(name="tackle", description="Tackle an adjacent opponent")
@app_commands.describe(target="the opponent", use="a Tackle ability: Cutblock, Steal, Pummel, Cheapshot (on a Down or Dazed one)")
@app_commands.choices(use=TACKLE_CHOICES)
@app_commands.autocomplete(target=completer(_tackle_targets))
async def cmd_tackle(interaction: discord.Interaction, target: str, use: str | None = None) -> None:
    await act(interaction, f"tackle {target}" + (f" {use}" if use else ""))


@app_commands.command(name="shove", description="Shove an adjacent standing opponent one hex back")
@app_commands.autocomplete(target=completer(_opponents_adjacent))
async def cmd_shove(interaction: discord.Interaction, target: str) -> None:
    await act(interaction, f"shove {target}")


@app_commands.command(name="stand", description="Stand the acting player up (costs Jog)")
@app_commands.choices(facing=DIRECTIONS)
async def cmd_stand(interaction: discord.Interaction, facing: str | None = None) -> None:
    await act(interaction, "stand" + (f" {facing}" if facing else ""))


@app_commands.command(name="dash", description="Spend Momentum counters on a Dash (or Sprint)")
@app_commands.describe(counters="Momentum counters to roll", sprint="Sprinter: roll Jog dice instead, no counters")
async def cmd_dash(interaction: discord.Interaction, counters: app_commands.Range[int, 1, 6] | None = None,
                   sprint: bool = False) -> None:
    if not sprint and counters is None:
        await _refuse(interaction, Refusal("refuse.dash_counters"))
        return
    await act(interaction, "sprint" if sprint else f"dash {counters}")


@app_commands.command(name="cheer", description="A Cheerleader adds one Momentum counter at the beginning of an action")
async def cmd_cheer(interaction: discord.Interaction) -> None:
    await act(interaction, C.Cheer())


@app_commands.command(name="quickling", description="Quickling, after the other team's Shift in Momentum: double the counters")
@app_commands.describe(player="your Little Guy with Quickling: he takes the action")
@app_commands.autocomplete(player=completer(_quicklings))
async def cmd_quickling(interaction: discord.Interaction, player: str) -> None:
    await act(interaction, f"quickling {player}")


@app_commands.command(name="taunt", description="Taunt, after the other team's Shift in Momentum: turn an opponent to face him")
@app_commands.describe(player="your Little Guy with Taunt", target="an opponent within 6 hexes", counters="Momentum counters to roll")
@app_commands.autocomplete(player=completer(_taunters), target=completer(_taunt_targets))
async def cmd_taunt(interaction: discord.Interaction, player: str, target: str, counters: app_commands.Range[int, 1, 6]) -> None:
    await act(interaction, f"taunt {player} {target} {counters}")


@app_commands.command(name="potion", description="A Magic Potion for one of your players who is not on the field")
@app_commands.autocomplete(player=completer(_potion_drinkers))
async def cmd_potion(interaction: discord.Interaction, player: str) -> None:
    await act(interaction, f"potion {player}")


@app_commands.command(name="spell", description="The Hired Gun Wizard's spell, instead of an action (once per match)")
@app_commands.describe(spell="which spell", target="System Shock, Transformation: the player", hex="Inferno: the centre hex")
@app_commands.choices(spell=SPELL_CHOICES)
@app_commands.autocomplete(target=completer(_spell_targets), hex=completer(_spell_hexes))
async def cmd_spell(interaction: discord.Interaction, spell: str, target: str | None = None, hex: str | None = None) -> None:
    where = hex if spell == "inferno" else target
    if not where:
        name = Catalogue("engine", "data/text", (await languages(interaction)).user).get(f"challenge.{spell}", spell)
        await _refuse(interaction, Refusal("refuse.spell_hex") if spell == "inferno" else
                      Refusal("refuse.spell_target", spell=name))
        return
    await act(interaction, f"spell {spell} {where}")


@app_commands.command(name="end", description="End the action")
@app_commands.choices(facing=DIRECTIONS)
async def cmd_end(interaction: discord.Interaction, facing: str | None = None) -> None:
    await act(interaction, "end" + (f" {facing}" if facing else ""))


@app_commands.command(name="undo", description="Take back your last step or turn of this action (until a die is rolled)")
async def cmd_undo(interaction: discord.Interaction) -> None:
    await act(interaction, "undo")


@app_commands.command(name="replace", description="Bring a Bench player on near a stairway instead of an action")
@app_commands.choices(facing=DIRECTIONS)
@app_commands.autocomplete(player=completer(_bench), hex=completer(_replacement_hexes))
async def cmd_replace(interaction: discord.Interaction, player: str, hex: str, facing: str) -> None:
    await act(interaction, f"replace {player} {hex} {facing}")


@app_commands.command(name="roll", description="Roll Challenge dice in chat (not part of a match)")
@app_commands.describe(dice="how many dice", need="successes needed")
async def cmd_roll(interaction: discord.Interaction, dice: app_commands.Range[int, 0, 12], need: app_commands.Range[int, -5, 12]) -> None:
    roll, seed = free_roll(dice, need)
    lang = (await languages(interaction)).public
    dice_text = MarkdownStringifier().dice(roll)
    outcome = tr(lang, f"roll.band.{roll.band.value}", extra=roll.extra, momentum=min(6, roll.extra))
    await _say(interaction, tr(lang, "roll.line", dice=dice_text, successes=roll.successes, flops=roll.flops, net=roll.net,
                               need=roll.need.value, outcome=outcome, seed=seed))


@app_commands.command(name="odds", description="Exact odds of a challenge")
async def cmd_odds(interaction: discord.Interaction, dice: app_commands.Range[int, 0, 12], need: app_commands.Range[int, -5, 12],
                   momentum: app_commands.Range[int, 0, 6] = 0) -> None:
    o = odds(dice, need, momentum=momentum)
    lang = (await languages(interaction)).user
    extra = " · ".join(f"{i}: {p:.0%}" for i, p in enumerate(o.extra))
    text = challenge_odds_line(dice, max(1, need), False, momentum, language=lang) + tr(lang, "odds.failure", fail=f"{o.fail:.0%}")
    if momentum:
        text += tr(lang, "odds.momentum", momentum=momentum)
    await _say(interaction, text + "\n" + tr(lang, "odds.extra", extra=extra), ephemeral=True)


@team_group.command(name="create", description="Create a Basic team for this server")
@app_commands.describe(name="the team's name", list="a team list", lineup='e.g. "6 imps, 2 hunters, 2 strikers" (default: a balanced team)')
@app_commands.autocomplete(list=_team_choices)
async def team_create(interaction: discord.Interaction, name: str, list: str, lineup: str | None = None) -> None:
    def work() -> Any:
        with session_scope() as s:
            return db_teams.create_team(session=s, guild_id=interaction.guild_id or 0, coach_id=interaction.user.id,
                                        name=name, team_list=list, lineup=lineup)

    try:
        team = await run_work(interaction, work)
    except (ElfballError, StoreError) as exc:
        await _refuse(interaction, exc)
        return
    players = ", ".join(f"#{p.number} {p.name}" for p in team.players)
    lang = (await languages(interaction)).public
    await _say(interaction, tr(lang, "team.created", team=team.name, list=list_name(team.team_list), coach=team.coach_id,
                               players=players)[:1990], allowed_mentions=discord.AllowedMentions.none())


@team_group.command(name="show", description="Show one of this server's teams")
@app_commands.autocomplete(name=_team_choices)
async def team_show(interaction: discord.Interaction, name: str) -> None:
    def work() -> Any:
        with session_scope() as s:
            return db_teams.get_team(session=s, guild_id=interaction.guild_id or 0, team=name)

    try:
        team = await run_work(interaction, work)
    except StoreError as exc:
        await _refuse(interaction, exc)
        return
    lang = (await languages(interaction)).public
    rows = [f"#{p.number} {p.name} — " + "/".join(str(p.attributes[k]) for k in ("jog", "might", "tackle", "dodge", "skill", "grit"))
            + (" — " + ", ".join(ABILITIES[a].name_in(lang) if a in ABILITIES else a for a in p.abilities) if p.abilities else "")
            for p in team.players]
    support = ", ".join(f"{tr(lang, 'support.' + item) if 'support.' + item in catalogue(lang) else item} ×{n}"
                        for item, n in team.support.items() if n)
    if support:
        rows.append(tr(lang, "team.support", support=support))
    await _say(interaction, (tr(lang, "team.show", team=team.name, list=list_name(team.team_list), coach=team.coach_id) + "\n"
                             + "\n".join(rows))[:1990], allowed_mentions=discord.AllowedMentions.none())


@team_group.command(name="list", description="This server's teams")
async def team_list_cmd(interaction: discord.Interaction) -> None:
    def work() -> Any:
        with session_scope() as s:
            return db_teams.list_teams(session=s, guild_id=interaction.guild_id or 0)

    teams = await run_work(interaction, work)
    lang = (await languages(interaction)).public
    text = "\n".join(tr(lang, "team.line", team=t.name, list=list_name(t.team_list), coach=t.coach_id) for t in teams) \
        or tr(lang, "team.none")
    await _say(interaction, text[:1990], allowed_mentions=discord.AllowedMentions.none())


async def _topic_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Topics by their name in the member's language; the value is the English name."""
    return [app_commands.Choice(name=n, value=v) for n, v in topic_choices(current, language_of(interaction.locale))][:25]


@app_commands.command(name="rules", description="A short rule lookup")
@app_commands.autocomplete(topic=_topic_choices)
async def cmd_rules(interaction: discord.Interaction, topic: str) -> None:
    lang = (await languages(interaction)).user
    found = find_topic(topic, lang)
    if found is None:
        await _refuse(interaction, Refusal("refuse.no_topic", topic=topic))
        return
    title, text = found
    await _say(interaction, f"**{title}**\n{text}", ephemeral=True)


COMMANDS = [match_group, setup_group, team_group, cmd_act, cmd_move, cmd_face, cmd_throw, cmd_tackle, cmd_shove, cmd_stand,
            cmd_dash, cmd_cheer, cmd_quickling, cmd_taunt, cmd_potion, cmd_spell, cmd_end, cmd_undo, cmd_replace, cmd_roll,
            cmd_odds, cmd_rules, cmd_preferences, cmd_help]
match_group.add_command(match_verify)
match_group.add_command(match_describe)


# --- the bot -----------------------------------------------------------------------------------------
#: How often the bot looks for decisions that have waited too long.
REMINDER_SWEEP_SECONDS = 60.0


class ElfballBot(commands.AutoShardedBot):
    def __init__(self, service: MatchService | None = None, *, dev_guild: int | None = None,
                 reminder_sweep: float = REMINDER_SWEEP_SECONDS, **kwargs: Any) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)
        self.service = service or MatchService()
        if getattr(self.service, "language_for", "") is None:  # boards are drawn in their server's language
            self.service.language_for = self.match_language
        self.dev_guild = dev_guild
        self.reminder_sweep = reminder_sweep
        self._reminders: asyncio.Task[None] | None = None

    def match_language(self, match: Any) -> str:
        """The language of a match's public posts: its server's (blocking: a worker thread's)."""
        return server_language(match.guild_id, self.get_guild(match.guild_id))

    def serves(self, guild_id: int) -> bool:
        """Whether this process holds the shard of ``guild_id`` (Discord: (id >> 22) % count)."""
        count = self.shard_count or 1
        mine = self.shard_ids if self.shard_ids is not None else range(count)
        return (guild_id >> 22) % count in mine

    async def _remind_forever(self) -> None:
        """Remind the deciding coach of every match whose deadline passed. Deadlines live in the
        database and each reminder is claimed there, so restarts and other processes are safe."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                due = await asyncio.to_thread(self.service.due_reminders, accept=lambda m: self.serves(m.guild_id))
                for match, prompt in due:
                    try:  # one deleted channel must not hold up the other reminders
                        coach = match.deciding_user_id
                        channel = self.get_channel(match.channel_id) or await self.fetch_channel(match.channel_id)
                        lang = await asyncio.to_thread(server_language, match.guild_id, getattr(channel, "guild", None))
                        if lang != "en":
                            prompt = prompt_for(match.engine_state(), language=lang)
                        mention = f"<@{coach}> — " if coach and coach != AI_COACH_ID else ""
                        await channel.send(tr(lang, "reminder", mention=mention, prompt=prompt),  # type: ignore[union-attr]
                                           allowed_mentions=discord.AllowedMentions(users=True))
                    except discord.HTTPException:
                        log.warning("could not remind match %s in channel %s", match.id, match.channel_id)
            except Exception:  # a failed sweep must not stop the next one
                log.exception("reminder sweep failed")
            await asyncio.sleep(self.reminder_sweep)

    async def close(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()
        await super().close()

    async def setup_hook(self) -> None:
        # Panels of earlier runs keep working: their items are rebuilt from the custom ids.
        self.add_dynamic_items(PanelButton, PanelSelect, DescribeButton)
        # French (and any other catalogued) names and descriptions, synced with the tree.
        await self.tree.set_translator(CommandTranslator())
        for cmd in COMMANDS:
            self.tree.add_command(cmd)
        from .league import install  # leagues: /league, the /team Advanced subcommands, post-match panels

        install(self)
        self.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self._reminders = asyncio.create_task(self._remind_forever())
        if self.dev_guild:
            guild = discord.Object(id=self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            await _refuse(interaction, error)
            return
        incident = secrets.token_hex(4)
        log.exception("incident %s in %s (guild=%s channel=%s)", incident, _command_name(interaction),
                      interaction.guild_id, interaction.channel_id, exc_info=error)
        await _refuse(interaction, Refusal("error.incident", incident=incident))


def shard_settings(spec: str) -> dict[str, Any]:
    """``ELFBALL_SHARDS``: empty for Discord's automatic sharding in one process, or
    ``FIRST-LAST/COUNT`` (e.g. ``0-3/8``) for this process's share when several run."""
    spec = spec.strip()
    if not spec:
        return {}
    try:
        shards, count = spec.split("/")
        first, _, last = shards.partition("-")
        ids = list(range(int(first), int(last or first) + 1))
        total = int(count)
    except ValueError:
        raise SystemExit(f"ELFBALL_SHARDS={spec!r}: write FIRST-LAST/COUNT, e.g. 0-3/8") from None
    if not ids or ids[-1] >= total:
        raise SystemExit(f"ELFBALL_SHARDS={spec!r}: shard ids must be below the count {total}")
    return {"shard_ids": ids, "shard_count": total}


def main(argv: list[str] | None = None) -> int:
    """``elfball bot``: run the bot with ``DISCORD_TOKEN`` (and ``ELFBALL_DEV_GUILD``)."""
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(
            "DISCORD_TOKEN is not set.\n"
            "  1. Create an application at https://discord.com/developers/applications, add a Bot, copy its token.\n"
            "  2. Invite it with the 'bot' and 'applications.commands' scopes.\n"
            "  3. DISCORD_TOKEN=... elfball bot   (ELFBALL_DEV_GUILD=<server id> syncs commands there instantly)\n"
            "Meanwhile you can play without Discord: elfball local (or watch elfball demo).",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    from db import migrate

    migrate.upgrade()
    dev = os.environ.get("ELFBALL_DEV_GUILD", "").strip()
    hours = float(os.environ.get("ELFBALL_REMINDER_HOURS", "24") or 24)
    service = MatchService(reminder_after=timedelta(hours=hours))
    bot = ElfballBot(service, dev_guild=int(dev) if dev.isdigit() else None,
                     **shard_settings(os.environ.get("ELFBALL_SHARDS", "")))
    bot.run(token, log_handler=None)
    return 0
