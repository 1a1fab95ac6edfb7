"""Playing a match: set-up and the play commands, and presses on the decision panel.

Each slash command's options become the engine command's fields directly (``service.typed``):
nothing is joined into a line and parsed again, so no option can change another. The match
service applies the command in a worker thread and the poster shows the outcome (one message
per action, ``bot.play.poster``). Autocomplete offers what the engine allows first
(``bot.play.autocomplete``); the engine checks whatever is submitted. Refusals are answered by
the one error handler (``bot.common.errors``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import discord
from discord import app_commands

from bot.app import ElfballBot, elfball
from bot.common.checks import ServerCog
from bot.common.i18n import languages, read_languages_now
from bot.common.reply import Refusal, refuse, run_work
from bot.common.transformers import HexOption, PlayerOption
from bot.play.autocomplete import (
    bench,
    completer,
    movers,
    opponents_adjacent,
    path_suggestions,
    players_to_act,
    potion_drinkers,
    quicklings,
    replacement_hexes,
    setup_hexes,
    spell_hexes,
    spell_targets,
    tackle_targets,
    taunt_targets,
    taunters,
    throw_targets,
)
from bot.play.items import command_for
from service import presses
from service.grammar import TACKLE_USES
from service.matches import Outcome
from service.refusal import Refused
from service.typed import Request
from service.vocabulary import ABILITIES, Catalogue, Direction, Hex
from service.vocabulary import commands as C

__all__ = ["Play", "act", "show", "same_guild", "DIRECTIONS", "setup"]

DIRECTIONS = [app_commands.Choice(name=f"{d.name} ({d.value})", value=d.name) for d in Direction]
#: Abilities that pay movement with Momentum counters (``Move.ability``).
MOVE_ABILITIES = ("ruthless", "goalie", "beeline", "teammate", "burst", "shamble", "swarm", "lead-pass", "react")
MOVE_ABILITY_CHOICES = [app_commands.Choice(name=ABILITIES[a].name, value=a) for a in MOVE_ABILITIES]
TACKLE_CHOICES = [app_commands.Choice(name=ABILITIES[u].name, value=u) for u in TACKLE_USES]
SPELL_CHOICES = [app_commands.Choice(name=n, value=v) for n, v in
                 (("System Shock", "system_shock"), ("Inferno", "inferno"), ("Transformation", "transformation"))]

# The options: what each one is, and what its autocomplete offers.
BenchPlayer = app_commands.Transform[str, PlayerOption(completer(bench))]
ActingPlayer = app_commands.Transform[str, PlayerOption(completer(players_to_act))]
Mover = app_commands.Transform[str, PlayerOption(completer(movers))]
TackleTarget = app_commands.Transform[str, PlayerOption(completer(tackle_targets))]
ShoveTarget = app_commands.Transform[str, PlayerOption(completer(opponents_adjacent))]
Quickling = app_commands.Transform[str, PlayerOption(completer(quicklings))]
Taunter = app_commands.Transform[str, PlayerOption(completer(taunters))]
TauntTarget = app_commands.Transform[str, PlayerOption(completer(taunt_targets))]
Drinker = app_commands.Transform[str, PlayerOption(completer(potion_drinkers))]
SpellTarget = app_commands.Transform[str, PlayerOption(completer(spell_targets))]
SetupHex = app_commands.Transform[Hex, HexOption("place", completer(setup_hexes))]
ReplacementHex = app_commands.Transform[Hex, HexOption("replace", completer(replacement_hexes))]
ThrowTarget = app_commands.Transform[Hex, HexOption("throw", completer(throw_targets))]


def same_guild(m: Outcome | object, interaction: discord.Interaction) -> None:
    """A channel id names one channel on Discord, but a match is its server's: refuse otherwise."""
    if getattr(m, "guild_id", None) != (interaction.guild_id or 0):
        raise Refusal("refuse.other_server")


async def act(interaction: discord.Interaction, command: C.Command | Request) -> None:
    """Apply a coach's command (an engine command, or a slash command's typed options read
    against the match's state and the coach's side) to the channel's match and show the outcome."""
    service = elfball(interaction).service
    channel = interaction.channel_id or 0

    def work() -> Outcome:
        m = service.current(channel)
        same_guild(m, interaction)
        if isinstance(command, Request):
            if command.is_undo:
                return service.undo(channel, interaction.user.id)
            cmd = command.build(m.engine_state(), service.side_of(m, interaction.user.id))
        else:
            cmd = command
        return service.act(channel, interaction.user.id, cmd, match=m)

    await show(interaction, work)


async def show(interaction: discord.Interaction, work: Callable[[], Outcome], *, component: bool = False) -> None:
    """Run ``work`` (a match service call) off the event loop and show its outcome in the match's
    channel (a refusal reaches the error handler with nothing changed). The post's languages are
    read in the same worker thread, after the work (one thread hop less per action)."""
    def work_then_languages() -> Outcome:
        outcome = work()
        read_languages_now(interaction)
        return outcome

    outcome = await run_work(interaction, work_then_languages, component=component)
    await elfball(interaction).poster.publish(interaction, outcome)


#: The owed-board sweeps a press started (kept referenced until they end).
_SWEEPS: set[asyncio.Task[int]] = set()


async def pressed(interaction: discord.Interaction, verb: str, match_id: int, version: int, arg: str | None,
                  values: list[str]) -> None:
    """A press on a panel: only the deciding coach, only on the newest panel of that match."""
    service = elfball(interaction).service

    def work() -> Outcome:
        p = presses.press(match_id, version, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id,
                          user_id=interaction.user.id)
        m = p.match
        if verb == "undo":
            return service.undo(m.channel_id, interaction.user.id, expected_version=version)
        cmd = command_for(p.state, verb, arg, values)
        # (Not waiting on the AI: the deciding coach pressed it, so ``m`` is what ``current`` gives.)
        return service.act(m.channel_id, interaction.user.id, cmd, expected_version=version, as_side=p.side, match=m)

    try:
        await show(interaction, work, component=True)
    except Refused as exc:
        if exc.key == "refuse.panel_board_owed":  # the coach is told it is coming: post it now, not at the next sweep
            task = asyncio.create_task(elfball(interaction).poster.sweep())
            _SWEEPS.add(task)
            task.add_done_callback(_SWEEPS.discard)
        raise


# --- the commands -------------------------------------------------------------------------------
class Play(ServerCog):
    """``/setup`` and the play commands; panel presses (``bot.common.presses``)."""

    def __init__(self, bot: ElfballBot) -> None:
        self.bot = bot

    async def panel_pressed(self, interaction: discord.Interaction, verb: str, match_id: int, version: int,
                            arg: str | None, values: list[str]) -> None:
        await pressed(interaction, verb, match_id, version, arg, values)

    setup_group = app_commands.Group(name="setup", description="Set your team up for the Test", guild_only=True)

    @setup_group.command(name="place", description="Place one of your players for the Test")
    @app_commands.describe(player="a Bench player", hex="a set-up hex (e.g. J12)", facing="the way he faces")
    @app_commands.choices(facing=DIRECTIONS)
    async def setup_place(self, interaction: discord.Interaction, player: BenchPlayer, hex: SetupHex, facing: str) -> None:
        await act(interaction, Request("setup place", player=player, hex=hex, facing=facing))

    @setup_group.command(name="auto", description="Let the bot set your team up")
    async def setup_auto(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.AutoSetup())

    @setup_group.command(name="done", description="Finish your set-up")
    async def setup_done(self, interaction: discord.Interaction) -> None:
        await act(interaction, C.SetupDone())

    @app_commands.command(name="act", description="Choose the player who takes this turn's action")
    async def act_(self, interaction: discord.Interaction, player: ActingPlayer) -> None:
        await act(interaction, Request("act", player=player))

    @app_commands.command(name="move", description="Move hex by hex: K11 K10 L10, or directions NE NE E")
    @app_commands.describe(path="hexes or directions, separated by spaces", facing="the way to face at the end",
                           ability="pay the steps with Momentum counters (Beeline, Lead Pass, Swarm, React…)",
                           player="another of your players who moves (Lead Pass, Swarm, React)")
    @app_commands.choices(facing=DIRECTIONS, ability=MOVE_ABILITY_CHOICES)
    @app_commands.autocomplete(path=completer(path_suggestions))
    async def move(self, interaction: discord.Interaction, path: str, facing: str | None = None,
                   ability: str | None = None, player: Mover | None = None) -> None:
        await act(interaction, Request("move", path=path, facing=facing, ability=ability, player=player))

    @app_commands.command(name="face", description="Turn the acting player (free)")
    @app_commands.choices(direction=DIRECTIONS)
    async def face(self, interaction: discord.Interaction, direction: str) -> None:
        await act(interaction, Request("face", direction=direction))

    @app_commands.command(name="throw", description="Throw to a team-mate's or an empty hex")
    @app_commands.describe(target="a hex (e.g. L12)", long="declare a long throw (up to 18; nothing else this action)")
    async def throw(self, interaction: discord.Interaction, target: ThrowTarget, long: bool = False) -> None:
        await act(interaction, Request("throw", target=target, long=long))

    @app_commands.command(name="tackle", description="Tackle an adjacent opponent")
    @app_commands.describe(target="the opponent",
                           use="a Tackle ability: Cutblock, Steal, Pummel, Cheapshot (on a Down or Dazed one)")
    @app_commands.choices(use=TACKLE_CHOICES)
    async def tackle(self, interaction: discord.Interaction, target: TackleTarget, use: str | None = None) -> None:
        await act(interaction, Request("tackle", target=target, use=use))

    @app_commands.command(name="shove", description="Shove an adjacent standing opponent one hex back")
    async def shove(self, interaction: discord.Interaction, target: ShoveTarget) -> None:
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
    async def quickling(self, interaction: discord.Interaction, player: Quickling) -> None:
        await act(interaction, Request("quickling", player=player))

    @app_commands.command(name="taunt",
                          description="Taunt, after the other team's Shift in Momentum: turn an opponent to face him")
    @app_commands.describe(player="your Little Guy with Taunt", target="an opponent within 6 hexes",
                           counters="Momentum counters to roll")
    async def taunt(self, interaction: discord.Interaction, player: Taunter, target: TauntTarget,
                    counters: app_commands.Range[int, 1, 6]) -> None:
        await act(interaction, Request("taunt", player=player, target=target, counters=counters))

    @app_commands.command(name="potion", description="A Magic Potion for one of your players who is not on the field")
    async def potion(self, interaction: discord.Interaction, player: Drinker) -> None:
        await act(interaction, Request("potion", player=player))

    @app_commands.command(name="spell", description="The Hired Gun Wizard's spell, instead of an action (once per match)")
    @app_commands.describe(spell="which spell", target="System Shock, Transformation: the player",
                           hex="Inferno: the centre hex")
    @app_commands.choices(spell=SPELL_CHOICES)
    @app_commands.autocomplete(hex=completer(spell_hexes))
    async def spell(self, interaction: discord.Interaction, spell: str, target: SpellTarget | None = None,
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
    async def replace(self, interaction: discord.Interaction, player: BenchPlayer, hex: ReplacementHex,
                      facing: str) -> None:
        await act(interaction, Request("replace", player=player, hex=hex, facing=facing))


async def setup(bot: ElfballBot) -> None:
    await bot.add_cog(Play(bot))
