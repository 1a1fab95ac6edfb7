"""The decision panel's persistent items and what pressing them does.

Custom ids: ``elfball:<verb>:<match>:<version>[:<arg>]`` for buttons and
``elfball-select:<verb>:<match>:<version>`` for selects (at most 100 characters). A restarted
bot rebuilds each item from its id (``DynamicItem``), re-reads the match from the database,
and refuses clicks from anyone but the deciding coach or on a panel that is out of date.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.common.errors import ImpossiblePress
from bot.common.i18n import catalogue, tr
from bot.common.presses import press_panel
from service.grammar import OPTION_WORDS, option_label
from service.matches import Outcome
from service.vocabulary import (
    ABILITIES,
    Direction,
    MatchState,
    contact_previews,
    die_faces,
    distance,
    legal_commands,
    load,
    pending,
    reroll_chance,
    standard_field,
    step_previews,
    throw_preview,
)
from service.vocabulary import commands as C

__all__ = ["ARROWS", "PanelButton", "PanelSelect", "arrow", "build_view", "command_for", "option_text", "reroll_odds"]

F = standard_field()
#: Each direction's arrow; ``arrow`` adds its letters in the reader's language (``↖ NO``).
ARROWS = {
    Direction.NW: "↖",
    Direction.NE: "↗",
    Direction.W: "←",
    Direction.E: "→",
    Direction.SW: "↙",
    Direction.SE: "↘",
}


def arrow(d: Direction, language: str = "en") -> str:
    """``↖ NW`` (``↖ NO`` in French): a direction on a button."""
    return f"{ARROWS[d]} {tr(language, 'dir.' + d.name)}"


def reroll_odds(question: dict, indices: list[int]) -> float:
    """The chance that re-rolling ``indices`` turns the roll into a success."""
    return reroll_chance(question, indices)
_ID = r"(?P<verb>[a-z]+):(?P<match>[0-9]+):(?P<version>[0-9]+)"


class PanelButton(discord.ui.DynamicItem[discord.ui.Button], template=r"elfball:" + _ID + r"(?::(?P<arg>[A-Za-z0-9_-]+))?"):
    def __init__(self, verb: str, match_id: int, version: int, arg: str | None = None, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None) -> None:
        custom_id = f"elfball:{verb}:{match_id}:{version}" + (f":{arg}" if arg else "")
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=custom_id, disabled=disabled, row=row))
        self.verb, self.match_id, self.version, self.arg = verb, match_id, version, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any) -> PanelButton:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["verb"], int(match["match"]), int(match["version"]), match["arg"], label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await press_panel(interaction, self.verb, self.match_id, self.version, self.arg, [])


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"elfball-select:" + _ID):
    def __init__(self, verb: str, match_id: int, version: int, options: list[discord.SelectOption] | None = None, *,
                 placeholder: str = "", max_values: int = 1, row: int | None = None) -> None:
        opts = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"elfball-select:{verb}:{match_id}:{version}", options=opts,
                                           placeholder=placeholder or None, min_values=1,
                                           max_values=max(1, min(max_values, len(opts))), row=row))
        self.verb, self.match_id, self.version = verb, match_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any) -> PanelSelect:  # type: ignore[override]  # discord.py's DynamicItem.from_custom_id is generic over the item's type
        return cls(match["verb"], int(match["match"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:

        values = list((interaction.data or {}).get("values", []))
        await press_panel(interaction, self.verb, self.match_id, self.version, None, values)


# --- from a press to an engine command ----------------------------------------------------------
def command_for(state: MatchState, verb: str, arg: str | None, values: list[str]) -> C.Command:
    """The command a press means in ``state`` (the engine then judges it like any other).

    A press the panel could not have sent (a verb, an argument or a value that is not on it: a
    tampered or garbled custom id) raises ``ImpossiblePress``: refused privately, nothing changed."""
    try:
        return _command_for(state, verb, arg, values)
    except ImpossiblePress:
        raise
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
        raise ImpossiblePress(f"{verb}:{arg}:{values!r}: {exc!r}") from exc


def _command_for(state: MatchState, verb: str, arg: str | None, values: list[str]) -> C.Command:
    side = pending(state).side
    if verb == "step":
        p = state.acting_player
        if p is None or p.hex is None or arg not in Direction.__members__:
            raise ImpossiblePress(f"step {arg!r} with no acting player on the field or no such direction")
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
        # The shortest legal path: the candidates come shortest first.
        contact = legal_commands(state, side).first(C.FaceoffContact, lambda c: c.challenge == arg)
        return contact if contact is not None else C.FaceoffContact((), arg or "shove")  # the engine will say why not
    raise ImpossiblePress(f"unknown panel verb {verb!r}")


# --- building a panel -----------------------------------------------------------------------------
def build_view(outcome: Outcome, language: str = "en") -> discord.ui.View:
    """The deciding coach's controls, labelled in ``language``."""
    lang = language
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
        _question_items(view, q, mid, ver, st, lang)
        return view
    legal = legal_commands(st, pend.side)
    if pend.kind == "setup":
        button("auto", label=tr(lang, "panel.auto_setup"), style=discord.ButtonStyle.primary, row=0)
        button("done", label=tr(lang, "panel.done"), style=discord.ButtonStyle.success, disabled=not legal.of(C.SetupDone),
               row=0)
        _between_actions(view, st, legal, mid, ver, rows=[1, 2, 3, 4], lang=lang)
    elif pend.kind == "faceoff":
        button("fo", "pickup", label=tr(lang, "panel.faceoff_pickup"), style=discord.ButtonStyle.primary,
               disabled=not legal.of(C.FaceoffPickup))  # the simplified face-off may rule it out
        contacts = {ch for ch in ("shove", "tackle") if legal.first(C.FaceoffContact, lambda c, ch=ch: c.challenge == ch)}
        button("fo", "shove", label=tr(lang, "panel.shove"), disabled="shove" not in contacts)
        button("fo", "tackle", label=tr(lang, "panel.tackle"), disabled="tackle" not in contacts)
    elif pend.kind == "turn":
        starts = legal.of(C.StartAction)[:25]
        if starts:
            opts = [discord.SelectOption(label=_label(st, c.player, lang), value=c.player) for c in starts]
            view.add_item(PanelSelect("act", mid, ver, opts, placeholder=tr(lang, "panel.who_acts"), row=0))
        rows = [1, 2, 3, 4]
        if legal.of(C.EndAction):  # double player movement: the second player is optional
            button("end", label=tr(lang, "panel.no_second_player"), row=rows.pop(0))
        _between_actions(view, st, legal, mid, ver, rows=rows, out_of_sequence=True, lang=lang)
    elif pend.kind == "action":
        _action_items(view, st, legal, mid, ver, lang)
    elif pend.kind == "test_over":
        button("next", label=tr(lang, "panel.next_test"), style=discord.ButtonStyle.primary, row=0)
        _between_actions(view, st, legal, mid, ver, rows=[1, 2, 3, 4], lang=lang)
    return view


def _label(st: MatchState, pid: str, lang: str = "en") -> str:
    """``Hunter #2 (K11, Down)``: a player, where he is and how."""
    p = st.players[pid]
    where = F.format(p.hex) if p.hex else tr(lang, f"where.{p.location.value}")
    state = "" if p.status.value == "standing" else ", " + tr(lang, f"status.{p.status.value}")
    return f"{p.name} ({where}{state})"[:100]


def _face(lang: str, face: str) -> str:
    return tr(lang, f"face.{face}") if face else ""


def _question_items(view: discord.ui.View, q: dict, mid: int, ver: int, st: MatchState, lang: str = "en") -> None:
    kind = q["kind"]
    if kind in ("reroll", "force_reroll"):
        opts = []
        for i, face in zip(q["eligible"], die_faces(q)):
            desc = tr(lang, "panel.die_chance", chance=f"{reroll_odds(q, [i]):.0%}") if kind == "reroll" else None
            opts.append(discord.SelectOption(label=tr(lang, "panel.die", index=i, face=_face(lang, face)), value=str(i),
                                             description=desc))
        view.add_item(PanelSelect("reroll", mid, ver, opts[:25], max_values=q["max"],
                                  placeholder=tr(lang, "panel.spend_momentum", max=q["max"])))
        view.add_item(PanelButton("keep", mid, ver, label=tr(lang, "panel.keep"), style=discord.ButtonStyle.secondary))
    elif kind == "interceptor":
        opts = [discord.SelectOption(label=_label(st, pid, lang), value=pid) for pid in q["options"] if pid]
        opts.append(discord.SelectOption(label=tr(lang, "panel.nobody_intercepts"), value="none"))
        view.add_item(PanelSelect("icpt", mid, ver, opts[:25], placeholder=tr(lang, "panel.who_intercepts")))
    elif kind == "catch":
        view.add_item(PanelButton("catch", mid, ver, "catch", label=tr(lang, "panel.catch"), style=discord.ButtonStyle.primary))
        view.add_item(PanelButton("catch", mid, ver, "decline", label=tr(lang, "panel.let_drop")))
    elif "eligible" in q:
        _dice_items(view, q, mid, ver, lang)
    elif "options" in q:
        _option_items(view, q, mid, ver, st, lang)


def _dice_items(view: discord.ui.View, q: dict, mid: int, ver: int, lang: str = "en") -> None:
    """Any question answered by choosing dice (an ability's re-roll): the dice, and keep."""
    faces = die_faces(q) if "roll" in q else ["" for _ in q["eligible"]]
    opts = [discord.SelectOption(label=tr(lang, "panel.die", index=i, face=_face(lang, face)) if face
                                 else tr(lang, "panel.die.bare", index=i), value=str(i))
            for i, face in zip(q["eligible"], faces)]
    if q.get("ability") in ABILITIES:
        placeholder = tr(lang, "panel.ability_reroll", ability=ABILITIES[q["ability"]].name_in(lang), max=q.get("max", 1))
    else:
        placeholder = tr(lang, "panel.reroll", max=q.get("max", 1))
    view.add_item(PanelSelect("reroll", mid, ver, opts[:25], max_values=int(q.get("max", 1)), placeholder=placeholder))
    view.add_item(PanelButton("keep", mid, ver, label=tr(lang, "panel.keep"), style=discord.ButtonStyle.secondary))


def _option_items(view: discord.ui.View, q: dict, mid: int, ver: int, st: MatchState, lang: str = "en") -> None:
    """Any question with ``options``: a button each (up to five), else one select. The option's
    place in the list travels in the custom id; the "do nothing" default is the grey one."""
    options = list(q["options"])
    # An option with a word of its own (Bankshot's None: "Roll") shows that word, as typed.
    words = {value: word for word, value in OPTION_WORDS.get(q["kind"], {}).items()}
    texts = [_answer_word(lang, words[o]) if o in words else option_text(st, o, lang, q["kind"]) for o in options]
    if len(options) <= 5:
        for i, (o, text) in enumerate(zip(options, texts)):
            style = discord.ButtonStyle.secondary if o == q.get("default") else discord.ButtonStyle.primary
            view.add_item(PanelButton("opt", mid, ver, str(i), label=text[:80], style=style))
        return
    opts = [discord.SelectOption(label=text[:100], value=str(i)) for i, text in enumerate(texts)]
    view.add_item(PanelSelect("opt", mid, ver, opts[:25], placeholder=tr(lang, "panel.choose")))


def _answer_word(lang: str, word: str) -> str:
    key = f"answer.{word}"
    return tr(lang, key) if key in catalogue(lang) else word.title()


def option_text(st: MatchState, option: Any, lang: str = "en", kind: str = "") -> str:
    """A question's option for a button: a player with his hex, a direction with its arrow,
    an ability by its printed name, ``+1`` for numbers, an answer word in ``lang`` (the
    question ``kind``'s own word first: a Dash die on the ``tackle`` is Plaquer, not Tacle)."""
    if isinstance(option, str) and option in st.players:
        return _label(st, option, lang)
    if isinstance(option, str) and option in Direction.__members__:
        return arrow(Direction[option], lang)
    if isinstance(option, str) and option in ABILITIES:
        return ABILITIES[option].name_in(lang)
    if isinstance(option, str) and "+" in option and all(part in ABILITIES for part in option.split("+")):
        return " + ".join(ABILITIES[part].name_in(lang) for part in option.split("+"))
    if option is None or isinstance(option, bool | str):
        word = "none" if option is None else ("yes" if option else "no") if isinstance(option, bool) else option
        if f"answer.{kind}.{word}" in catalogue(lang):
            return tr(lang, f"answer.{kind}.{word}")
        if f"answer.{word}" in catalogue(lang):
            return tr(lang, f"answer.{word}")
    text = option_label(st, option)
    return text[:1].upper() + text[1:]


def _action_items(view: discord.ui.View, st: MatchState, legal: Any, mid: int, ver: int, lang: str = "en") -> None:
    p = st.acting_player
    assert p is not None and p.hex is not None
    all_moves = legal.of(C.Move)
    moves = {c.path[-1] for c in all_moves if c.ability is None and c.player is None}
    layout = [(Direction.NW, 0), (Direction.NE, 0), (Direction.W, 1), (Direction.E, 1), (Direction.SW, 2), (Direction.SE, 2)]
    for d, row in layout:
        to = p.hex.neighbour(d)
        odds_text = _step_odds(st, to, lang) if to in moves else ""
        view.add_item(PanelButton("step", mid, ver, d.name, label=f"{arrow(d, lang)}{odds_text}"[:80], row=row,
                                  disabled=to not in moves))
    view.add_item(PanelButton("stand", mid, ver, label=tr(lang, "panel.stand"), row=0, disabled=not legal.of(C.StandUp)))
    view.add_item(PanelButton("end", mid, ver, label=tr(lang, "panel.end"), style=discord.ButtonStyle.danger, row=1))
    a = st.action
    view.add_item(PanelButton("undo", mid, ver, label=tr(lang, "panel.undo"), row=1,
                              disabled=a is None or a.challenged or a.dash != "none"))
    dashes = legal.of(C.Dash)
    for c in [c for c in dashes if not c.sprint][:3]:
        view.add_item(PanelButton("dash", mid, ver, str(c.counters), label=tr(lang, "panel.dash", counters=c.counters), row=2))
    if any(c.sprint for c in dashes):
        view.add_item(PanelButton("sprint", mid, ver, label=tr(lang, "panel.sprint"), row=0))
    if legal.of(C.Cheer):
        view.add_item(PanelButton("cheer", mid, ver, label=tr(lang, "panel.cheer"), style=discord.ButtonStyle.success, row=0))
    hits = []
    for c in legal.of(C.Tackle) + legal.of(C.Shove):
        t = st.players[c.target]
        kind = "tackle" if isinstance(c, C.Tackle) else "shove"
        use = getattr(c, "use", None)
        name = ABILITIES[use].name_in(lang) if use else tr(lang, f"panel.{kind}")
        hits.append(discord.SelectOption(label=f"{name} {t.name}"[:100], value=f"{kind}:{t.id}" + (f":{use}" if use else ""),
                                         description=_hit_odds(st, p, t, kind, lang) if not use else None))
    free = [3, 4]
    if hits:
        view.add_item(PanelSelect("hit", mid, ver, hits[:25], placeholder=tr(lang, "panel.hit"), row=free.pop(0)))
    throws = []
    for mate in st.on_field(p.side):
        if mate.id != p.id and mate.hex is not None and C.Throw(mate.hex) in legal:
            pv = throw_preview(st, mate.hex)
            throws.append(discord.SelectOption(
                label=tr(lang, "panel.throw_to", player=mate.name, hex=F.format(mate.hex))[:100], value=F.format(mate.hex),
                description=tr(lang, "panel.throw_odds", distance=distance(p.hex, mate.hex), dice=pv.dice, need=pv.need,
                               success=f"{pv.success:.0%}", flop=f"{pv.flop:.0%}")[:100]))
    if throws:
        view.add_item(PanelSelect("throw", mid, ver, throws[:25], placeholder=tr(lang, "panel.throw"), row=free.pop()))
    paid = [c for c in all_moves if c.ability is not None]
    if paid and free:  # steps paid with Momentum (Beeline, Swarm, Lead Pass…); /move takes whole paths
        view.add_item(PanelSelect("abil", mid, ver, [_paid_step(st, c, lang) for c in paid][:25],
                                  placeholder=tr(lang, "panel.ability_move"), row=free.pop(0)))


def _paid_step(st: MatchState, c: Any, lang: str = "en") -> discord.SelectOption:
    mover = st.players[c.player] if c.player else st.acting_player
    to = c.path[-1]
    way = next((arrow(d, lang) for d in Direction if mover.hex is not None and mover.hex.neighbour(d) == to), "")
    who = f"{mover.name} " if c.player else ""
    label = tr(lang, "panel.paid_step", ability=ABILITIES[c.ability].name_in(lang), who=who, arrow=way, hex=F.format(to))
    return discord.SelectOption(label=label[:100], value=f"{c.ability}:{c.player or ''}:{F.format(to)}")


def _between_actions(view: discord.ui.View, st: MatchState, legal: Any, mid: int, ver: int, *, rows: list[int],
                     out_of_sequence: bool = False, lang: str = "en") -> None:
    """What a team may do besides (or before) an action, where the engine offers it: after the
    other team's SiM Quickling, Taunt and React; a Magic Potion; the Wizard's spell; a Cheer.
    Each select takes a row of its own (Discord allows five)."""
    rows = list(rows)

    def select(verb: str, options: list[discord.SelectOption], placeholder: str) -> None:
        if options and rows:
            view.add_item(PanelSelect(verb, mid, ver, options[:25], placeholder=placeholder, row=rows.pop(0)))

    if out_of_sequence:
        ooc = [discord.SelectOption(label=tr(lang, "panel.quickling", player=st.players[c.player].name)[:100],
                                    value=f"quickling:{c.player}") for c in legal.of(C.Quickling)]
        ooc += [discord.SelectOption(label=tr(lang, "panel.taunt", player=st.players[c.player].name,
                                              target=st.players[c.target].name, counters=c.counters)[:100],
                                     value=f"taunt:{c.player}:{c.target}:{c.counters}")
                for c in legal.of(C.Taunt)]
        ooc += [discord.SelectOption(label=_paid_step(st, c, lang).label, value=f"react:{c.player}:{F.format(c.path[-1])}")
                for c in legal.of(C.Move) if c.ability == "react" and c.player]
        select("ooc", ooc, tr(lang, "panel.after_sim"))
    select("potion", [discord.SelectOption(label=tr(lang, "panel.potion_for", player=_label(st, c.player, lang))[:100],
                                           value=c.player) for c in legal.of(C.DrinkPotion)], tr(lang, "panel.potion"))
    select("spell", [discord.SelectOption(label=_spell_label(st, c, lang), value=f"{c.spell}:{c.target or ''}:"
                                          f"{F.format(c.hex) if c.hex else ''}") for c in legal.of(C.CastSpell)],
           tr(lang, "panel.spell"))
    if legal.of(C.Cheer) and rows:
        view.add_item(PanelButton("cheer", mid, ver, label=tr(lang, "panel.cheer"), style=discord.ButtonStyle.success,
                                  row=rows.pop(0)))


def _spell_label(st: MatchState, c: Any, lang: str = "en") -> str:
    if c.spell == "inferno":
        return tr(lang, "panel.spell.inferno", hex=F.format(c.hex))[:100]
    who = st.players[c.target].name if c.target in st.players else c.target
    return tr(lang, f"panel.spell.{c.spell}", player=who)[:100]


def _step_odds(st: MatchState, to: Any, lang: str = "en") -> str:
    """The rolls a step calls for, with their odds (the engine's preview)."""
    return "".join(" · " + tr(lang, "preview.short", challenge=_challenge(lang, pv.challenge).lower(), success=f"{pv.success:.0%}")
                   for pv in step_previews(st, to))


def _hit_odds(st: MatchState, p: Any, t: Any, kind: str, lang: str = "en") -> str:
    return tr(lang, "preview.then").join(
        tr(lang, "preview.long", challenge=_challenge(lang, pv.challenge), dice=pv.dice, need=pv.need,
           success=f"{pv.success:.0%}", flop=f"{pv.flop:.0%}")
        for pv in contact_previews(st, p, t, kind))[:100]


def _challenge(lang: str, challenge: str) -> str:
    """A challenge's name as the narration writes it (``Pick-up``, ``Ramasser``)."""
    words = {**load("engine", "data/text", "en"), **(load("engine", "data/text", lang) if lang != "en" else {})}
    return words.get(f"challenge.{challenge}", challenge)
