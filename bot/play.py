"""Playing a match: set-up and the play commands, and presses on the decision panel.

Each slash command's options become the engine command's fields directly (``service.typed``):
nothing is joined into a line and parsed again, so no option can change another. The match
service applies the command in a worker thread and ``Poster`` shows the outcome (one message per
action, ``bot.reply``). Autocomplete offers what the engine allows first; the engine checks
whatever is submitted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from service.vocabulary import StoreError
from service.vocabulary import commands as C
from service.vocabulary import ABILITIES
from service.vocabulary import ElfballError
from service.vocabulary import Catalogue
from service.vocabulary import standard_field
from service.vocabulary import Direction, distance
from service.vocabulary import legal_commands
from service import presses
from service.refusal import Refused
from service.typed import Request
from service.grammar import TACKLE_USES, parse_path, resolve_player
from service.matches import Outcome

from .choices import completer
from .i18n import languages, tr
from .items import command_for
from .reply import Refusal, guild_only_refusal, refuse, run_work, server_only

__all__ = ["Play", "act", "show", "same_guild", "DIRECTIONS", "setup"]

F = standard_field()
DIRECTIONS = [app_commands.Choice(name=f"{d.name} ({d.value})", value=d.name) for d in Direction]
#: Abilities that pay movement with Momentum counters (``Move.ability``).
MOVE_ABILITIES = ("ruthless", "goalie", "beeline", "teammate", "burst", "shamble", "swarm", "lead-pass", "react")
MOVE_ABILITY_CHOICES = [app_commands.Choice(name=ABILITIES[a].name, value=a) for a in MOVE_ABILITIES]
TACKLE_CHOICES = [app_commands.Choice(name=ABILITIES[u].name, value=u) for u in TACKLE_USES]
SPELL_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                 (("System Shock", "system_shock"), ("Inferno", "inferno"), ("Transformation", "transformation"))]


def same_guild(m: Any, interaction: discord.Interaction) -> None:
    """A channel id names one channel on Discord, but a match is its server's: refuse otherwise."""
    if m.guild_id != (interaction.guild_id or 0):
        raise Refusal("refuse.other_server")


async def act(interaction: discord.Interaction, command: C.Command | Request) -> None:
    """Apply a coach's command (an engine command, or a slash command's typed options read
    against the match's state and the coach's side) to the channel's match and show the outcome."""
    bot: Any = interaction.client
    refusal = guild_only_refusal(interaction)
    if refusal is not None:
        await refuse(interaction, refusal)
        return
    channel = interaction.channel_id or 0

    def work() -> Outcome:
        m = bot.service.current(channel)
        same_guild(m, interaction)
        if isinstance(command, Request):
            if command.is_undo:
                return bot.service.undo(channel, interaction.user.id)
            cmd = command.build(m.engine_state(), bot.service.side_of(m, interaction.user.id))
        else:
            cmd = command
        return bot.service.act(channel, interaction.user.id, cmd, match=m)

    await show(interaction, work)


async def show(interaction: discord.Interaction, work: Callable[[], Outcome], *, component: bool = False) -> None:
    """Run ``work`` (a match service call) off the event loop and show its outcome in the match's
    channel; a refusal is private and changes nothing."""
    try:
        outcome = await run_work(interaction, work, component=component)
    except (ElfballError, StoreError, Refused, ValueError) as exc:
        await refuse(interaction, exc)
        return
    await interaction.client.poster.publish(interaction, outcome)  # type: ignore[attr-defined]


async def pressed(interaction: discord.Interaction, verb: str, match_id: int, version: int, arg: str | None,
                  values: list[str]) -> None:
    """A press on a panel: only the deciding coach, only on the newest panel of that match."""
    bot: Any = interaction.client

    def work() -> Outcome:
        p = presses.press(match_id, version, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id,
                          user_id=interaction.user.id)
        m = p.match
        if verb == "undo":
            return bot.service.undo(m.channel_id, interaction.user.id, expected_version=version)
        cmd = command_for(p.state, verb, arg, values)
        # (Not waiting on the AI: the deciding coach pressed it, so ``m`` is what ``current`` gives.)
        return bot.service.act(m.channel_id, interaction.user.id, cmd, expected_version=version, as_side=p.side,
                               match=m)

    await show(interaction, work, component=True)


# --- autocomplete -------------------------------------------------------------------------------
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


# --- the commands -------------------------------------------------------------------------------
class Play(commands.Cog):
    """``/setup`` and the play commands; panel presses (``ElfballBot.panel_pressed``)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.panel_pressed = pressed  # type: ignore[attr-defined]
        server_only(self)

    setup_group = app_commands.Group(name="setup", description="Set your team up for the Test", guild_only=True)

    @setup_group.command(name="place", description="Place one of your players for the Test")
    @app_commands.describe(player="a Bench player", hex="a set-up hex (e.g. J12)", facing="the way he faces")
    @app_commands.choices(facing=DIRECTIONS)
    @app_commands.autocomplete(player=completer(_bench), hex=completer(_setup_hexes))
    async def setup_place(self, interaction: discord.Interaction, player: str, hex: str, facing: str) -> None:
        await act(interaction, Request("setup place", player=player, hex=hex, facing=facing))

    @setup_group.command(name="auto", description="Let the bot set your team up")
    async def setup_auto(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.AutoSetup())

    @setup_group.command(name="done", description="Finish your set-up")
    async def setup_done(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.SetupDone())

    @app_commands.command(name="act", description="Choose the player who takes this turn's action")
    @app_commands.autocomplete(player=completer(_players_to_act))
    async def act_(self, interaction: discord.Interaction, player: str) -> None:
        await act(interaction, Request("act", player=player))

    @app_commands.command(name="move", description="Move hex by hex: K11 K10 L10, or directions NE NE E")
    @app_commands.describe(path="hexes or directions, separated by spaces", facing="the way to face at the end",
                           ability="pay the steps with Momentum counters (Beeline, Lead Pass, Swarm, React…)",
                           player="another of your players who moves (Lead Pass, Swarm, React)")
    @app_commands.choices(facing=DIRECTIONS, ability=MOVE_ABILITY_CHOICES)
    @app_commands.autocomplete(path=completer(_path_suggestions), player=completer(_movers))
    async def move(self, interaction: discord.Interaction, path: str, facing: str | None = None,
                   ability: str | None = None, player: str | None = None) -> None:
        await act(interaction, Request("move", path=path, facing=facing, ability=ability, player=player))

    @app_commands.command(name="face", description="Turn the acting player (free)")
    @app_commands.choices(direction=DIRECTIONS)
    async def face(self, interaction: discord.Interaction, direction: str) -> None:
        await act(interaction, Request("face", direction=direction))

    @app_commands.command(name="throw", description="Throw to a team-mate's or an empty hex")
    @app_commands.describe(target="a hex (e.g. L12)", long="declare a long throw (up to 18; nothing else this action)")
    @app_commands.autocomplete(target=completer(_throw_targets))
    async def throw(self, interaction: discord.Interaction, target: str, long: bool = False) -> None:
        await act(interaction, Request("throw", target=target, long=long))

    @app_commands.command(name="tackle", description="Tackle an adjacent opponent")
    @app_commands.describe(target="the opponent",
                           use="a Tackle ability: Cutblock, Steal, Pummel, Cheapshot (on a Down or Dazed one)")
    @app_commands.choices(use=TACKLE_CHOICES)
    @app_commands.autocomplete(target=completer(_tackle_targets))
    async def tackle(self, interaction: discord.Interaction, target: str, use: str | None = None) -> None:
        await act(interaction, Request("tackle", target=target, use=use))

    @app_commands.command(name="shove", description="Shove an adjacent standing opponent one hex back")
    @app_commands.autocomplete(target=completer(_opponents_adjacent))
    async def shove(self, interaction: discord.Interaction, target: str) -> None:
        await act(interaction, Request("shove", target=target))

    @app_commands.command(name="stand", description="Stand the acting player up (costs Jog)")
    @app_commands.choices(facing=DIRECTIONS)
    async def stand(self, interaction: discord.Interaction, facing: str | None = None) -> None:
        await act(interaction, Request("stand", facing=facing))

    @app_commands.command(name="dash", description="Spend Momentum counters on a Dash (or Sprint)")
    @app_commands.describe(counters="Momentum counters to roll", sprint="Sprinter: roll Jog dice instead, no counters")
    async def dash(self, interaction: discord.Interaction, counters: app_commands.Range[int, 1, 6] | None = None,
                   sprint: bool = False) -> None:
        if not sprint and counters is None:
            await refuse(interaction, Refusal("refuse.dash_counters"))
            return
        await act(interaction, Request("dash", counters=counters, sprint=sprint))

    @app_commands.command(name="cheer", description="A Cheerleader adds one Momentum counter at the beginning of an action")
    async def cheer(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.Cheer())

    @app_commands.command(name="quickling",
                          description="Quickling, after the other team's Shift in Momentum: double the counters")
    @app_commands.describe(player="your Little Guy with Quickling: he takes the action")
    @app_commands.autocomplete(player=completer(_quicklings))
    async def quickling(self, interaction: discord.Interaction, player: str) -> None:
        await act(interaction, Request("quickling", player=player))

    @app_commands.command(name="taunt",
                          description="Taunt, after the other team's Shift in Momentum: turn an opponent to face him")
    @app_commands.describe(player="your Little Guy with Taunt", target="an opponent within 6 hexes",
                           counters="Momentum counters to roll")
    @app_commands.autocomplete(player=completer(_taunters), target=completer(_taunt_targets))
    async def taunt(self, interaction: discord.Interaction, player: str, target: str,
                    counters: app_commands.Range[int, 1, 6]) -> None:
        await act(interaction, Request("taunt", player=player, target=target, counters=counters))

    @app_commands.command(name="potion", description="A Magic Potion for one of your players who is not on the field")
    @app_commands.autocomplete(player=completer(_potion_drinkers))
    async def potion(self, interaction: discord.Interaction, player: str) -> None:
        await act(interaction, Request("potion", player=player))

    @app_commands.command(name="spell", description="The Hired Gun Wizard's spell, instead of an action (once per match)")
    @app_commands.describe(spell="which spell", target="System Shock, Transformation: the player",
                           hex="Inferno: the centre hex")
    @app_commands.choices(spell=SPELL_CHOICES)
    @app_commands.autocomplete(target=completer(_spell_targets), hex=completer(_spell_hexes))
    async def spell(self, interaction: discord.Interaction, spell: str, target: str | None = None,
                    hex: str | None = None) -> None:
        if not (hex if spell == "inferno" else target):
            name = Catalogue("engine", "data/text", (await languages(interaction)).user).get(f"challenge.{spell}", spell)
            await refuse(interaction, Refusal("refuse.spell_hex") if spell == "inferno" else
                         Refusal("refuse.spell_target", spell=name))
            return
        await act(interaction, Request("spell", spell=spell, target=target, hex=hex))

    @app_commands.command(name="end", description="End the action")
    @app_commands.choices(facing=DIRECTIONS)
    async def end(self, interaction: discord.Interaction, facing: str | None = None) -> None:
        await act(interaction, Request("end", facing=facing))

    @app_commands.command(name="undo", description="Take back your last step or turn of this action (until a die is rolled)")
    async def undo(self, interaction: discord.Interaction) -> None:
        await act(interaction, Request("undo"))

    @app_commands.command(name="replace", description="Bring a Bench player on near a stairway instead of an action")
    @app_commands.choices(facing=DIRECTIONS)
    @app_commands.autocomplete(player=completer(_bench), hex=completer(_replacement_hexes))
    async def replace(self, interaction: discord.Interaction, player: str, hex: str, facing: str) -> None:
        await act(interaction, Request("replace", player=player, hex=hex, facing=facing))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
