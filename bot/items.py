"""The decision panel's persistent items and what pressing them does.

Custom ids: ``elfball:<verb>:<match>:<version>[:<arg>]`` for buttons and
``elfball-select:<verb>:<match>:<version>`` for selects (at most 100 characters). A restarted
bot rebuilds each item from its id (``DynamicItem``), re-reads the match from the database,
and refuses clicks from anyone but the deciding coach or on a panel that is out of date.
"""

from __future__ import annotations

from typing import Any

import discord

from engine import commands as C
from engine.abilities import ABILITIES
from engine.field import standard_field
from engine.hexes import Direction, distance
from engine.legal import legal_commands
from engine.match import pending
from engine.preview import contact_previews, die_faces, step_previews, throw_preview
from engine.state import MatchState
from service.grammar import OPTION_WORDS, option_label
from service.matches import Outcome

from .panels import ARROWS, reroll_odds

__all__ = ["PanelButton", "PanelSelect", "build_view", "command_for", "option_text"]

F = standard_field()
_ID = r"(?P<verb>[a-z]+):(?P<match>[0-9]+):(?P<version>[0-9]+)"


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball:" + _ID + r"(?::(?P<arg>[A-Za-z0-9_-]+))?"):
    def __init__(self, verb: str, match_id: int, version: int, arg: str | None = None, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        custom_id = f"elfball:{verb}:{match_id}:{version}" + (f":{arg}" if arg else "")
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=custom_id, disabled=disabled, row=row))
        self.verb, self.match_id, self.version, self.arg = verb, match_id, version, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> PanelButton:  # type: ignore[override]
        return cls(match["verb"], int(match["match"]), int(match["version"]), match["arg"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        from .app import panel_pressed

        await panel_pressed(interaction, self.verb, self.match_id, self.version, self.arg, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"elfball-select:" + _ID):
    def __init__(self, verb: str, match_id: int, version: int, options: list[discord.SelectOption] | None = None, *,
                 placeholder: str = "", max_values: int = 1, row: int | None = None) -> None:
        opts = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"elfball-select:{verb}:{match_id}:{version}", options=opts,
                                           placeholder=placeholder or None, min_values=1,
                                           max_values=max(1, min(max_values, len(opts))), row=row))
        self.verb, self.match_id, self.version = verb, match_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any) -> PanelSelect:  # type: ignore[override]
        return cls(match["verb"], int(match["match"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        from .app import panel_pressed

        values = list((interaction.data or {}).get("values", []))  # type: ignore[union-attr]
        await panel_pressed(interaction, self.verb, self.match_id, self.version, None, values)


# --- from a press to an engine command ----------------------------------------------------------
def command_for(state: MatchState, verb: str, arg: str | None, values: list[str]) -> C.Command:
    """The command a press means in ``state`` (the engine then judges it like any other)."""
    side = pending(state).side
    if verb == "step":
        p = state.acting_player
        assert p is not None and p.hex is not None and arg is not None
        return C.Move((p.hex.neighbour(Direction[arg]),))
    if verb == "stand":
        return C.StandUp()
    if verb == "end":
        return C.EndAction()
    if verb == "dash":
        return C.Dash(int(arg or 1))
    if verb == "sprint":
        return C.Dash(sprint=True)
    if verb == "cheer":
        return C.Cheer()
    if verb == "hit":
        kind, target, *use = values[0].split(":")
        return C.Tackle(target, use[0] if use else None) if kind == "tackle" else C.Shove(target)
    if verb == "abil":  # a step paid by an ability: "beeline::K11", "swarm:w4:K11"
        ability, mover, to = values[0].split(":")
        return C.Move((F.parse(to),), None, ability, mover or None)
    if verb == "ooc":  # out of sequence after a SiM
        kind, who, *rest = values[0].split(":")
        if kind == "quickling":
            return C.Quickling(who)
        if kind == "taunt":
            return C.Taunt(who, rest[0], int(rest[1]))
        return C.Move((F.parse(rest[0]),), None, "react", who)
    if verb == "potion":
        return C.DrinkPotion(values[0])
    if verb == "spell":
        spell, target, where = values[0].split(":")
        return C.CastSpell(spell, target or None, F.parse(where) if where else None)
    if verb == "opt":  # one of the pending question's options, by its place in the list
        q = pending(state).question or {}
        options = list(q.get("options", ()))
        i = int(arg if arg is not None else values[0])
        if not 0 <= i < len(options):
            raise ValueError("that choice is no longer offered")
        return C.Answer(options[i])
    if verb == "throw":
        return C.Throw(F.parse(values[0]))
    if verb == "act":
        return C.StartAction(values[0])
    if verb == "auto":
        return C.AutoSetup()
    if verb == "done":
        return C.SetupDone()
    if verb == "next":
        return C.StartTest()
    if verb == "keep":
        return C.Answer(())
    if verb == "reroll":
        return C.Answer(tuple(sorted(int(v) for v in values)))
    if verb == "icpt":
        return C.Answer(None if values[0] == "none" else values[0])
    if verb == "catch":
        return C.Answer(arg)
    if verb == "fo":
        if arg == "pickup":
            return C.FaceoffPickup()
        contacts = [c for c in legal_commands(state, side).of(C.FaceoffContact) if c.challenge == arg]  # type: ignore[arg-type,attr-defined]
        if not contacts:
            return C.FaceoffContact((), arg or "shove")  # the engine will say why not
        return min(contacts, key=lambda c: len(c.path))  # type: ignore[attr-defined]
    raise ValueError(f"unknown panel verb {verb!r}")


# --- building a panel -----------------------------------------------------------------------------
def build_view(outcome: Outcome) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    st, m = outcome.state, outcome.match
    pend = pending(st)
    mid, ver = m.id, m.version
    if pend.side is None:
        return view

    def button(verb: str, arg: str | None = None, **kw: Any) -> None:
        view.add_item(PanelButton(verb, mid, ver, arg, **kw))

    q = pend.question
    if q is not None:
        _question_items(view, q, mid, ver, st)
        return view
    legal = legal_commands(st, pend.side)
    if pend.kind == "setup":
        button("auto", label="Auto set-up", style=discord.ButtonStyle.primary, row=0)
        button("done", label="Done", style=discord.ButtonStyle.success, disabled=not legal.of(C.SetupDone), row=0)
        _between_actions(view, st, legal, mid, ver, rows=[1, 2, 3, 4])
    elif pend.kind == "faceoff":
        button("fo", "pickup", label="Pick up the ball", style=discord.ButtonStyle.primary)
        contacts = {c.challenge for c in legal.of(C.FaceoffContact)}  # type: ignore[attr-defined]
        button("fo", "shove", label="Shove", disabled="shove" not in contacts)
        button("fo", "tackle", label="Tackle", disabled="tackle" not in contacts)
    elif pend.kind == "turn":
        starts = legal.of(C.StartAction)[:25]
        if starts:
            opts = [discord.SelectOption(label=_label(st, c.player), value=c.player) for c in starts]  # type: ignore[attr-defined]
            view.add_item(PanelSelect("act", mid, ver, opts, placeholder="Who acts?", row=0))
        _between_actions(view, st, legal, mid, ver, rows=[1, 2, 3, 4], out_of_sequence=True)
    elif pend.kind == "action":
        _action_items(view, st, legal, mid, ver)
    elif pend.kind == "test_over":
        button("next", label="Start the next Test", style=discord.ButtonStyle.primary, row=0)
        _between_actions(view, st, legal, mid, ver, rows=[1, 2, 3, 4])
    return view


def _label(st: MatchState, pid: str) -> str:
    p = st.players[pid]
    where = F.format(p.hex) if p.hex else p.location.value
    state = "" if p.status.value == "standing" else f", {p.status.value}"
    return f"{p.name} ({where}{state})"[:100]


def _question_items(view: discord.ui.View, q: dict, mid: int, ver: int, st: MatchState) -> None:
    kind = q["kind"]
    if kind in ("reroll", "force_reroll"):
        opts = []
        for i, face in zip(q["eligible"], die_faces(q)):
            desc = f"chance of success if only this die is re-rolled: {reroll_odds(q, [i]):.0%}" if kind == "reroll" else None
            opts.append(discord.SelectOption(label=f"Die {i}: {face}", value=str(i), description=desc))
        view.add_item(PanelSelect("reroll", mid, ver, opts[:25], max_values=q["max"],
                                  placeholder=f"Spend Momentum: re-roll up to {q['max']} dice"))
        view.add_item(PanelButton("keep", mid, ver, label="Keep the roll", style=discord.ButtonStyle.secondary))
    elif kind == "interceptor":
        opts = [discord.SelectOption(label=_label(st, pid), value=pid) for pid in q["options"] if pid]
        opts.append(discord.SelectOption(label="Nobody intercepts", value="none"))
        view.add_item(PanelSelect("icpt", mid, ver, opts[:25], placeholder="Who tries to intercept?"))
    elif kind == "catch":
        view.add_item(PanelButton("catch", mid, ver, "catch", label="Catch", style=discord.ButtonStyle.primary))
        view.add_item(PanelButton("catch", mid, ver, "decline", label="Let it drop"))
    elif "eligible" in q:
        _dice_items(view, q, mid, ver)
    elif "options" in q:
        _option_items(view, q, mid, ver, st)


def _dice_items(view: discord.ui.View, q: dict, mid: int, ver: int) -> None:
    """Any question answered by choosing dice (an ability's re-roll): the dice, and keep."""
    faces = die_faces(q) if "roll" in q else ["" for _ in q["eligible"]]
    opts = [discord.SelectOption(label=f"Die {i}: {face}" if face else f"Die {i}", value=str(i))
            for i, face in zip(q["eligible"], faces)]
    what = f"Use {ABILITIES[q['ability']].name}: re-roll" if q.get("ability") in ABILITIES else "Re-roll"
    view.add_item(PanelSelect("reroll", mid, ver, opts[:25], max_values=int(q.get("max", 1)),
                              placeholder=f"{what} up to {q.get('max', 1)} dice"))
    view.add_item(PanelButton("keep", mid, ver, label="Keep the roll", style=discord.ButtonStyle.secondary))


def _option_items(view: discord.ui.View, q: dict, mid: int, ver: int, st: MatchState) -> None:
    """Any question with ``options``: a button each (up to five), else one select. The option's
    place in the list travels in the custom id; the "do nothing" default is the grey one."""
    options = list(q["options"])
    # An option with a word of its own (Bankshot's None: "Roll") shows that word, as typed.
    words = {value: word.title() for word, value in OPTION_WORDS.get(q["kind"], {}).items()}
    texts = [words[o] if o in words else option_text(st, o) for o in options]
    if len(options) <= 5:
        for i, (o, text) in enumerate(zip(options, texts)):
            style = discord.ButtonStyle.secondary if o == q.get("default") else discord.ButtonStyle.primary
            view.add_item(PanelButton("opt", mid, ver, str(i), label=text[:80], style=style))
        return
    opts = [discord.SelectOption(label=text[:100], value=str(i)) for i, text in enumerate(texts)]
    view.add_item(PanelSelect("opt", mid, ver, opts[:25], placeholder="Choose…"))


def option_text(st: MatchState, option: Any) -> str:
    """A question's option for a button: a player with his hex, a direction with its arrow,
    an ability by its printed name, ``+1`` for numbers."""
    if isinstance(option, str) and option in st.players:
        return _label(st, option)
    if isinstance(option, str) and option in Direction.__members__:
        return ARROWS[Direction[option]]
    text = option_label(st, option)
    return text[:1].upper() + text[1:]


def _action_items(view: discord.ui.View, st: MatchState, legal: Any, mid: int, ver: int) -> None:
    p = st.acting_player
    assert p is not None and p.hex is not None
    all_moves = legal.of(C.Move)
    moves = {c.path[-1] for c in all_moves if c.ability is None and c.player is None}  # type: ignore[attr-defined]
    layout = [(Direction.NW, 0), (Direction.NE, 0), (Direction.W, 1), (Direction.E, 1), (Direction.SW, 2), (Direction.SE, 2)]
    for d, row in layout:
        to = p.hex.neighbour(d)
        odds_text = _step_odds(st, to) if to in moves else ""
        view.add_item(PanelButton("step", mid, ver, d.name, label=f"{ARROWS[d]}{odds_text}"[:80], row=row,
                                  disabled=to not in moves))
    view.add_item(PanelButton("stand", mid, ver, label="Stand up", row=0, disabled=not legal.of(C.StandUp)))
    view.add_item(PanelButton("end", mid, ver, label="End action", style=discord.ButtonStyle.danger, row=1))
    a = st.action
    view.add_item(PanelButton("undo", mid, ver, label="Undo", row=1,
                              disabled=a is None or a.challenged or a.dash != "none"))
    dashes = legal.of(C.Dash)
    for c in [c for c in dashes if not c.sprint][:3]:  # type: ignore[attr-defined]
        view.add_item(PanelButton("dash", mid, ver, str(c.counters), label=f"Dash ({c.counters})", row=2))  # type: ignore[attr-defined]
    if any(c.sprint for c in dashes):  # type: ignore[attr-defined]
        view.add_item(PanelButton("sprint", mid, ver, label="Sprint", row=0))
    if legal.of(C.Cheer):
        view.add_item(PanelButton("cheer", mid, ver, label="Cheer (+1 Momentum)", style=discord.ButtonStyle.success, row=0))
    hits = []
    for c in legal.of(C.Tackle) + legal.of(C.Shove):
        t = st.players[c.target]  # type: ignore[attr-defined]
        kind = "tackle" if isinstance(c, C.Tackle) else "shove"
        use = getattr(c, "use", None)
        name = ABILITIES[use].name if use else kind.title()
        hits.append(discord.SelectOption(label=f"{name} {t.name}"[:100], value=f"{kind}:{t.id}" + (f":{use}" if use else ""),
                                         description=_hit_odds(st, p, t, kind) if not use else None))
    free = [3, 4]
    if hits:
        view.add_item(PanelSelect("hit", mid, ver, hits[:25], placeholder="Tackle or shove…", row=free.pop(0)))
    throws = []
    for mate in st.on_field(p.side):
        if mate.id != p.id and mate.hex is not None and C.Throw(mate.hex) in legal:
            pv = throw_preview(st, mate.hex)
            throws.append(discord.SelectOption(label=f"Throw to {mate.name} ({F.format(mate.hex)})"[:100],
                                               value=F.format(mate.hex),
                                               description=f"{distance(p.hex, mate.hex)} hexes, Skill {pv.dice} dice need "
                                               f"{pv.need}: {pv.success:.0%} on target, {pv.flop:.0%} flop"[:100]))
    if throws:
        view.add_item(PanelSelect("throw", mid, ver, throws[:25], placeholder="Throw to… (/throw for any hex)", row=free.pop()))
    paid = [c for c in all_moves if c.ability is not None]  # type: ignore[attr-defined]
    if paid and free:  # steps paid with Momentum (Beeline, Swarm, Lead Pass…); /move takes whole paths
        view.add_item(PanelSelect("abil", mid, ver, [_paid_step(st, c) for c in paid][:25],
                                  placeholder="Move with an ability…", row=free.pop(0)))


def _paid_step(st: MatchState, c: Any) -> discord.SelectOption:
    mover = st.players[c.player] if c.player else st.acting_player
    to = c.path[-1]
    arrow = next((ARROWS[d] for d in Direction if mover.hex is not None and mover.hex.neighbour(d) == to), "")
    who = f"{mover.name} " if c.player else ""
    return discord.SelectOption(label=f"{ABILITIES[c.ability].name}: {who}{arrow} to {F.format(to)}"[:100],
                                value=f"{c.ability}:{c.player or ''}:{F.format(to)}")


def _between_actions(view: discord.ui.View, st: MatchState, legal: Any, mid: int, ver: int, *, rows: list[int],
                     out_of_sequence: bool = False) -> None:
    """What a team may do besides (or before) an action, where the engine offers it: after the
    other team's SiM Quickling, Taunt and React; a Magic Potion; the Wizard's spell; a Cheer.
    Each select takes a row of its own (Discord allows five)."""
    rows = list(rows)

    def select(verb: str, options: list[discord.SelectOption], placeholder: str) -> None:
        if options and rows:
            view.add_item(PanelSelect(verb, mid, ver, options[:25], placeholder=placeholder, row=rows.pop(0)))

    if out_of_sequence:
        ooc = [discord.SelectOption(label=f"Quickling: {st.players[c.player].name} acts with double Momentum"[:100],  # type: ignore[attr-defined]
                                    value=f"quickling:{c.player}") for c in legal.of(C.Quickling)]  # type: ignore[attr-defined]
        ooc += [discord.SelectOption(label=f"Taunt: {st.players[c.player].name} → {st.players[c.target].name} "  # type: ignore[attr-defined]
                                     f"({c.counters} counters)"[:100], value=f"taunt:{c.player}:{c.target}:{c.counters}")  # type: ignore[attr-defined]
                for c in legal.of(C.Taunt)]
        ooc += [discord.SelectOption(label=_paid_step(st, c).label, value=f"react:{c.player}:{F.format(c.path[-1])}")  # type: ignore[attr-defined]
                for c in legal.of(C.Move) if c.ability == "react" and c.player]  # type: ignore[attr-defined]
        select("ooc", ooc, "After the Shift in Momentum: Quickling, Taunt, React…")
    select("potion", [discord.SelectOption(label=f"Potion for {_label(st, c.player)}"[:100], value=c.player)  # type: ignore[attr-defined]
                      for c in legal.of(C.DrinkPotion)], "Magic Potion for…")
    select("spell", [discord.SelectOption(label=_spell_label(st, c), value=f"{c.spell}:{c.target or ''}:"  # type: ignore[attr-defined]
                                          f"{F.format(c.hex) if c.hex else ''}") for c in legal.of(C.CastSpell)],  # type: ignore[attr-defined]
           "Wizard: cast a spell instead of an action…")
    if legal.of(C.Cheer) and rows:
        view.add_item(PanelButton("cheer", mid, ver, label="Cheer (+1 Momentum)", style=discord.ButtonStyle.success,
                                  row=rows.pop(0)))


def _spell_label(st: MatchState, c: Any) -> str:
    if c.spell == "inferno":
        return f"Inferno at {F.format(c.hex)}"
    who = st.players[c.target].name if c.target in st.players else c.target
    return (f"System Shock on {who}" if c.spell == "system_shock" else f"Transformation of {who}")[:100]


def _step_odds(st: MatchState, to: Any) -> str:
    """The rolls a step calls for, with their odds (the engine's preview)."""
    return "".join(f" · {pv}" for pv in step_previews(st, to))


def _hit_odds(st: MatchState, p: Any, t: Any, kind: str) -> str:
    return " then ".join(f"{pv.name.title()} {pv.describe()}" for pv in contact_previews(st, p, t, kind))[:100]
