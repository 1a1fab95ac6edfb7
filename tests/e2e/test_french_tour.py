"""A French coach on a French server reads no English (and an English one no French).

Two members of a French server play through Discord (the fake one) what a coach meets in a
match: /rules, /preferences, /odds, /roll, a challenge declined and one with a rules profile,
a player set up by hand, set-up and face-off by the panel, moves by buttons and by /move, an
undone step, a Tackle, a Dash, a throw, a Momentum re-roll answered on the panel, /match
describe, status and log, autocompletes, refusals (moves off the field, an unknown player, a
command out of turn, someone else's panel, an out-of-date panel, a spell without a target…),
a concession, /match verify and replay, a match against the bot's AI coach; then an Advanced
match of stored teams with abilities and team support (Cheerleaders, a Potion, the Wizard,
a Tackle with an ability from the panel), abandoned by both coaches.

Every text a member sees is collected (message contents; embeds' titles, descriptions,
fields and footers; button labels; selects' placeholders, options and their descriptions;
attachments' alt text and the /match log file; autocomplete choices; the words drawn on the
board pictures) and a leak detector reads it (``leaks``): split into lines and sentences, rid
of what is no language (mentions, links, `code` (what one types), coordinates, counters'
letters, numbers, the players', teams', team lists' and positions' names), a piece is an English leak
when it holds one of the English words no French text uses as a whole word (``ENGLISH``:
``the``, ``your``, ``with``…) or the English compass letters NW, SW, W (French: NO, SO, O);
the English tour is read the other way round (``FRENCH``: ``les``, ``vous``, ``joueur``…, any
accented word, NO, SO, O). ``ELFBALL_TOUR_TEXTS=/tmp/tour`` writes every text seen, to read by eye.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from support.tours import Seen, leaks, read_tour, report

from bot.app import ElfballBot
from engine import commands as C
from ai import AICoach
from engine.field import standard_field
from engine.hexes import direction_between
from engine.legal import legal_commands
from engine.match import pending
from engine.state import Phase
from service.matches import MatchService

F = standard_field()


# --- playing ------------------------------------------------------------------------------------
def panel(fake, channel):  # type: ignore[no-untyped-def]
    for m in reversed(fake.channel_messages(channel)):
        if m.custom_ids and any(c.startswith("elfball") and not c.startswith("elfball-describe") for c in m.custom_ids):
            return m
    raise AssertionError("no panel in the channel")


def cid(board, prefix: str, suffix: str = "") -> str:  # type: ignore[no-untyped-def]
    return next(c for c in board.custom_ids if c.startswith(prefix) and c.endswith(suffix))


async def press(fake, pitch, member, cmd, state):  # type: ignore[no-untyped-def]
    """The gesture for ``cmd``, found by custom id (the labels are in the server's language)."""
    board = panel(fake, pitch)
    q = state.in_progress.question if state.in_progress else None
    if isinstance(cmd, C.Answer):
        if "eligible" in q:
            if not cmd.value:
                return await fake.click(member, board, cid(board, "elfball:keep:"))
            return await fake.select(member, board, "elfball-select:reroll:*", values=[str(i) for i in cmd.value])
        if q["kind"] == "interceptor":
            return await fake.select(member, board, "elfball-select:icpt:*", values=[cmd.value or "none"])
        if q["kind"] == "catch":
            return await fake.click(member, board, cid(board, "elfball:catch:", ":" + ("catch" if cmd.value == "catch" else "decline")))
        i = list(q["options"]).index(cmd.value)
        if len(q["options"]) <= 5:
            return await fake.click(member, board, cid(board, "elfball:opt:", f":{i}"))
        return await fake.select(member, board, "elfball-select:opt:*", values=[str(i)])
    if isinstance(cmd, C.Cheer):
        return await fake.click(member, board, cid(board, "elfball:cheer:"))
    if isinstance(cmd, C.Quickling):
        return await fake.slash(member, pitch, "quickling", player=cmd.player)
    if isinstance(cmd, C.Taunt):
        return await fake.slash(member, pitch, "taunt", player=cmd.player, target=cmd.target, counters=cmd.counters)
    if isinstance(cmd, C.DrinkPotion):
        return await fake.select(member, board, "elfball-select:potion:*", values=[cmd.player])
    if isinstance(cmd, C.CastSpell):
        where = {"hex": F.format(cmd.hex)} if cmd.hex else {"target": cmd.target}
        return await fake.slash(member, pitch, "spell", spell=cmd.spell, **where)
    if isinstance(cmd, C.AutoSetup):
        return await fake.click(member, board, cid(board, "elfball:auto:"))
    if isinstance(cmd, C.SetupDone):
        return await fake.click(member, board, cid(board, "elfball:done:"))
    if isinstance(cmd, C.FaceoffPickup):
        return await fake.click(member, board, cid(board, "elfball:fo:", ":pickup"))
    if isinstance(cmd, C.FaceoffContact):
        return await fake.click(member, board, cid(board, "elfball:fo:", ":" + cmd.challenge))
    if isinstance(cmd, C.StartAction):
        return await fake.select(member, board, "elfball-select:act:*", values=[cmd.player])
    if isinstance(cmd, C.Move):
        p = state.acting_player
        if cmd.ability is not None:
            return await fake.select(member, board, "elfball-select:abil:*",
                                     values=[f"{cmd.ability}:{cmd.player or ''}:{F.format(cmd.path[-1])}"])
        if len(cmd.path) == 1 and cmd.facing is None and state.seq % 2:
            d = direction_between(p.hex, cmd.path[0])
            return await fake.click(member, board, cid(board, "elfball:step:", f":{d.name}"))
        path = " ".join(F.format(h) for h in cmd.path)
        return await fake.slash(member, pitch, "move", path=path, **({"facing": cmd.facing.name} if cmd.facing else {}))
    if isinstance(cmd, C.Face):
        return await fake.slash(member, pitch, "face", direction=cmd.facing.name)
    if isinstance(cmd, C.StandUp):
        if cmd.facing is None:
            return await fake.click(member, board, cid(board, "elfball:stand:"))
        return await fake.slash(member, pitch, "stand", facing=cmd.facing.name)
    if isinstance(cmd, C.EndAction):
        if cmd.facing is None:
            return await fake.click(member, board, cid(board, "elfball:end:"))
        return await fake.slash(member, pitch, "end", facing=cmd.facing.name)
    if isinstance(cmd, C.Tackle):
        if cmd.use:
            return await fake.select(member, board, "elfball-select:hit:*", values=[f"tackle:{cmd.target}:{cmd.use}"])
        return await fake.slash(member, pitch, "tackle", target=cmd.target)
    if isinstance(cmd, C.Shove):
        return await fake.select(member, board, "elfball-select:hit:*", values=[f"shove:{cmd.target}"])
    if isinstance(cmd, C.Throw):
        return await fake.slash(member, pitch, "throw", target=F.format(cmd.target), long=bool(cmd.long))
    if isinstance(cmd, C.Dash):
        if cmd.sprint:
            return await fake.click(member, board, cid(board, "elfball:sprint:"))
        return await fake.slash(member, pitch, "dash", counters=cmd.counters)
    if isinstance(cmd, C.Replace):
        return await fake.slash(member, pitch, "replace", player=cmd.player, hex=F.format(cmd.hex), facing=cmd.facing.name)
    if isinstance(cmd, C.StartTest):
        return await fake.click(member, board, cid(board, "elfball:next:"))
    raise AssertionError(f"no Discord gesture for {cmd}")


def _is_reroll(state) -> bool:  # type: ignore[no-untyped-def]
    q = state.in_progress.question if state.in_progress else None
    return bool(q and "eligible" in q)


#: What the tour wants to have done once, in order of preference: (name, which legal commands).
WANTED = (
    ("ability tackle", lambda c, st: isinstance(c, C.Tackle) and c.use not in (None, "cheapshot")),
    ("tackle", lambda c, st: isinstance(c, C.Tackle) and c.use is None),
    ("cheer", lambda c, st: isinstance(c, C.Cheer)),
    ("potion", lambda c, st: isinstance(c, C.DrinkPotion)),
    ("spell", lambda c, st: isinstance(c, C.CastSpell)),
    ("dash", lambda c, st: isinstance(c, C.Dash) and not c.sprint),
    ("throw", lambda c, st: isinstance(c, C.Throw)),
    ("reroll", lambda c, st: _is_reroll(st) and isinstance(c, C.Answer) and c.value),
    ("ability move", lambda c, st: isinstance(c, C.Move) and c.ability is not None),
)


TACKLERS = {"cutblock", "steal", "pummel"}


class Tour:
    """The AI coach, except that it does once each thing of ``WANTED`` the engine allows."""

    def __init__(self, seen: set[str]) -> None:
        self.ai, self.seen = AICoach(), seen

    def choose(self, state, side):  # type: ignore[no-untyped-def]
        legal = list(legal_commands(state, side))
        for name, wanted in WANTED:
            if name not in self.seen:
                found = [c for c in legal if wanted(c, state)]
                if found:
                    self.seen.add(name)
                    return found[0]
        cmd = self.ai.choose(state, side)
        if isinstance(cmd, C.StartAction) and "ability tackle" not in self.seen:  # those who have Tackle abilities act
            able = [c for c in legal if isinstance(c, C.StartAction) and set(state.players[c.player].abilities) & TACKLERS]
            return able[0] if able else cmd
        return cmd


async def play(fake, pitch, service, coaches, seen, stop, limit=400):  # type: ignore[no-untyped-def]
    done: set[str] = set()
    tours = {"west": Tour(done), "east": Tour(done)}
    for _ in range(limit):
        if service.current_or_none(pitch.id) is None:
            raise AssertionError(f"the match ended before the tour got there: {sorted(done)}\n"
                                 + "\n".join(m.content for m in fake.channel_messages(pitch)[-3:]))
        out = service.status(pitch.id)
        if stop(done, out.state):
            return out, done
        state = out.state
        side = pending(state).side
        cmd = tours[side].choose(state, side)
        reply = seen.add(await press(fake, pitch, coaches[side], cmd, state))
        # A command within the action updates its message and is acknowledged privately ("✓").
        assert not reply.ephemeral or reply.content.startswith("✓"), f"{cmd} was refused: {reply.content}"
    raise AssertionError(f"the tour did not get there: {sorted(done)}")


# --- the tour -----------------------------------------------------------------------------------
ABILITIES_LEARNED = {"gnolls/hunters": ["cutblock"], "gnolls/strikers": ["steal", "beeline"],
                     "middle-kingdoms/midfielders": ["pummel"], "middle-kingdoms/ogres-cyclops-minotaurs": ["pummel"]}


def _stored_teams(guild_id: int, west_id: int, east_id: int) -> None:
    """Two teams of the server with learned abilities and team support (made in the store: the
    /team replies are another slice's)."""
    from sqlmodel import select

    from db import teams as db_teams
    from db.engine import session_scope
    from db.models import Team

    with session_scope() as s:
        db_teams.create_team(session=s, guild_id=guild_id, coach_id=west_id, name="Howlers", team_list="gnolls")
        db_teams.create_team(session=s, guild_id=guild_id, coach_id=east_id, name="Crowns", team_list="middle-kingdoms")
    with session_scope() as s:
        for name, support in (("Howlers", {"cheerleaders": 2, "potions": 1, "wizard": 1}),
                              ("Crowns", {"cheerleaders": 1, "kegs": 2})):
            team = s.exec(select(Team).where(Team.name == name)).one()
            team.support = support
            for p in team.players:
                p.abilities = [*p.abilities, *ABILITIES_LEARNED.get(p.position_id, [])]
            s.add(team)
        s.commit()


async def tour(fake, language: str) -> Seen:  # type: ignore[no-untyped-def]
    locale = "fr" if language == "fr" else "en-US"
    guild = fake.add_guild("Club Elfball", locale=locale)
    pitch = guild.add_text_channel("terrain")
    west = guild.add_member("Amélie" if language == "fr" else "Alice", locale=locale)
    east = guild.add_member("Bruno" if language == "fr" else "Bob", locale=locale)
    bot = ElfballBot(service=MatchService(width=300), dev_guild=guild.id, warm=False)  # only the posts' words drawn
    await fake.start_bot(bot)
    service, seen = bot.service, Seen()
    coaches = {"west": west, "east": east}

    async def say(member, command, **options):  # type: ignore[no-untyped-def]
        return seen.add(await fake.slash(member, pitch, command, **options))

    async def suggest(member, command, option, value="", **options):  # type: ignore[no-untyped-def]
        seen.texts += [c.name for c in await fake.autocomplete(member, pitch, command, option=option, value=value,
                                                               options=options or None)]

    # Rules, preferences, odds: before any match.
    for topic in ("Momentum", "Tackle", "Dash", "Throw", "Cutblock", "Wizard", "Cheerleaders", "xyzzy"):
        await say(west, "rules", topic=topic)
    await suggest(west, "rules", "topic", "pl")
    await suggest(west, "match challenge", "team", "")
    await say(west, "preferences", language=language)
    await say(west, "preferences", screen_reader=True)
    await say(east, "preferences")
    assert (await say(east, "preferences", server_language=language)).ephemeral  # refused: no Manage Server
    await say(west, "odds", dice=4, need=2, momentum=1)
    await say(west, "roll", dice=3, need=1)
    await say(west, "move", path="K11")  # refused: no match here
    # A challenge declined, one accepted (a refused accept first).
    await say(west, "match challenge", opponent=east, team="gnolls")
    await say(east, "match decline")
    assert (await say(east, "match decline")).ephemeral  # refused: nothing to decline
    await say(west, "match challenge", opponent=east, team="gnolls", profile="beginner", rules="double")
    r = await say(east, "match accept", team="sarcos")
    assert not r.ephemeral and r.attachments, r.content
    state = service.status(pitch.id).state
    seen.names_of(state)
    # A player placed by hand, the rest by the panel.
    setter = coaches[service.status(pitch.id).deciding_side]
    await suggest(setter, "setup place", "player")
    await suggest(setter, "setup place", "hex")
    bench = next(iter(c for c in legal_commands(state, pending(state).side) if isinstance(c, C.Place)))
    await say(setter, "setup place", player=bench.player, hex=F.format(bench.hex), facing=bench.facing.name)
    assert (await say(setter, "setup place", player=bench.player, hex="K12", facing="E")).ephemeral  # not a set-up hex
    # Set-up and face-off, up to the first action.
    await play(fake, pitch, service, coaches, seen, lambda done, st: st.phase is Phase.ACTION and st.in_progress is None)
    out = service.status(pitch.id)
    side = out.deciding_side
    me, other = coaches[side], coaches["east" if side == "west" else "west"]
    board = panel(fake, pitch)
    for command, option in (("move", "path"), ("throw", "target"), ("tackle", "target"), ("shove", "target"),
                            ("spell", "target"), ("potion", "player"), ("replace", "player"), ("replace", "hex")):
        await suggest(me, command, option)
    for refused in (await say(me, "move", path="A1"),  # off the field
                    await say(me, "move", path="zz"),  # not a hex
                    await say(me, "tackle", target="xyzzy"),  # no such player
                    await say(me, "spell", spell="system_shock"),  # whom?
                    await say(other, "end"),  # not his decision
                    seen.add(await fake.click(other, board, cid(board, "elfball:end:")))):  # someone else's panel
        assert refused.ephemeral, refused.content
    await say(me, "throw", target="K12")  # refused, most likely: he has no ball
    await say(west, "match describe")
    await say(east, "match status")  # a newer panel: the board above it goes out of date at the next press
    await say(east, "match log", lines=10)
    await say(west, "match verify")  # refused: the match is being played
    await say(west, "match forfeit")  # refused: moderators only
    await say(west, "match challenge", opponent=east, team="gnolls")  # refused: the channel is busy
    await say(me, "dash")  # refused: how many counters?
    describe = next((c for c in panel(fake, pitch).custom_ids if c.startswith("elfball-describe")), None)
    if describe:
        seen.add(await fake.click(east, panel(fake, pitch), describe))
    newest = panel(fake, pitch)
    step = next(c for c in newest.custom_ids if c.startswith("elfball:step:") and not newest.find_component(c).get("disabled"))
    seen.add(await fake.click(me, panel(fake, pitch), step))
    seen.add(await fake.click(me, panel(fake, pitch), cid(panel(fake, pitch), "elfball:undo:")))  # taken back
    # An older message of the match lost its panel when a newer one took it (nothing stale to press).
    assert board.id == panel(fake, pitch).id or not [c for c in fake.message(board).custom_ids if c.startswith("elfball:")]
    # Moves, a Tackle, a Dash, a throw, a Momentum re-roll: until all of them happened.
    await play(fake, pitch, service, coaches, seen,
               lambda done, st: {"tackle", "dash", "throw", "reroll"} <= done and st.phase is Phase.ACTION, limit=600)
    await say(me, "match concede")
    await say(west, "match status")  # refused: no match any more
    await say(east, "match verify")
    await say(east, "match replay")
    # Against the bot's AI coach: its commitment posted, then the challenger's words start it.
    r = await say(west, "match challenge", opponent=guild.bot_member, team="gnolls")
    modal = seen.add(await fake.click(west, r, "elfball-startw:*"))
    seen.add(await fake.submit_modal(west, modal, {"words": "Orcs"}))
    seen.names_of(service.status(pitch.id).state)
    await say(west, "match abandon")
    # The Advanced match: stored teams with abilities and support.
    _stored_teams(guild.id, west.id, east.id)
    await say(west, "match challenge", opponent=east, team="Howlers", goals=3)
    r = await say(east, "match accept", team="Crowns")
    assert not r.ephemeral, r.content
    seen.names_of(service.status(pitch.id).state)
    seen.names |= {"Howlers", "Crowns"}
    wanted = {"cheer", "ability tackle", "spell", "potion"}
    _, done = await play(fake, pitch, service, coaches, seen, lambda done, st: wanted <= done and st.in_progress is None,
                         limit=600)
    await say(west, "match abandon")
    await say(east, "match abandon")
    return seen


async def _run(monkeypatch, language: str) -> Seen:
    import db.challenges
    import render.panels
    import service.match_rules

    monkeypatch.setattr(service.match_rules, "secrets", SimpleNamespace(token_hex=lambda n: ("tour" * n)[: 2 * n]))  # fixed dice
    # ... with no entropy from the accept (an interaction id changes every run): the secret alone.
    monkeypatch.setattr(db.challenges, "challenge_seed", lambda **_: None)
    return await read_tour(monkeypatch, tour, language, (render.panels,), "")


@pytest.mark.slow
async def test_a_french_coach_on_a_french_server_reads_no_english(database, monkeypatch):
    seen = await _run(monkeypatch, "fr")
    found = leaks(seen.texts, sorted(seen.names), "fr")
    assert found == [], f"{len(found)} English texts in French:" + report(found)


@pytest.mark.slow
async def test_an_english_coach_on_an_english_server_reads_no_french(database, monkeypatch):
    seen = await _run(monkeypatch, "en")
    found = leaks(seen.texts, sorted(seen.names), "en")
    assert found == [], f"{len(found)} French texts in English:" + report(found)


# --- the detector, and the fixes it led to, one by one ----------------------------------------------
def test_the_detector_finds_english_and_passes_names_code_and_hexes():
    names = ["Hunter #2", "Night Elves"]
    texts = ["Hunter #2 va de K11 à K12 (4 de Mouvement restant).", "<@12> — Ouest (Night Elves) : `act JOUEUR`",
             "Hunter #2 moves from K11 to K12.", "↖ NW · se dégager 42%", "Règles : profile standard; first to 1 goal."]
    assert leaks(texts, names, "fr") == [("Hunter #2 moves from K11 to K12.", ["from", "moves", "to"]),
                                         ("first to 1 goal.", ["first", "goal", "to"]),
                                         ("↖ NW · se dégager 42%", ["NW"])]
    assert leaks(["Hunter #2 se place en K12.", "↖ NO", "Hunter #2 sets up on K12."], names, "en") == [
        ("Hunter #2 se place en K12.", ["se"]), ("↖ NO", ["NO"])]


def test_the_board_picture_speaks_french(monkeypatch):
    import render.panels
    from support.builders import P, position
    from render import render_board

    st = position(P("w1", "gnolls/hunters", "J12", "E"), P("e1", "sarcos/midfielders", "L12", "W"), P("e2", "sarcos/strikers"))
    drawn: list[str] = []
    real = render.panels.draw_text
    monkeypatch.setattr(render.panels, "draw_text",
                        lambda canvas, xy, text, *a, **kw: (drawn.append(text), real(canvas, xy, text, *a, **kw)))
    english = render_board(st, width=300)
    english_words, drawn[:] = list(drawn), []
    french = render_board(st, width=300, language="fr")
    assert english != french
    assert {"West · round tokens", "Momentum", "Bench"} <= set(english_words)
    assert {"Ouest · pions ronds", "Est · pions carrés", "Temps fort", "Banc", "Ouest : 1 sur le terrain"} <= set(drawn)
    assert leaks(drawn, [st.teams[s].name for s in st.teams] + [p.name for p in st.players.values()], "fr") == []


def test_the_fixed_texts_in_french_and_english():
    from bot.common.reply import reason_text
    from bot.play.items import option_text
    from bot.play.panels import arrow
    from bot.common.rule_options import status_line
    from support.builders import P, position
    from engine.hexes import Direction
    from engine.narrate import describe_question

    assert (arrow(Direction.NW), arrow(Direction.NW, "fr"), arrow(Direction.W, "fr")) == ("↖ NW", "↖ NO", "← O")
    st = position(P("w1", "gnolls/hunters", "J12", "E"), P("e1", "sarcos/midfielders", "L12", "W"))
    assert status_line(st) == "Rules: profile standard; first to 1 goal."
    assert status_line(st, "fr").startswith("Règles : ")
    # The refusals of the field's parser, the set-up, the store.
    from db.errors import MatchNotActiveError
    from engine import IllegalCommandError, OffFieldError, Term, side_term
    assert reason_text(OffFieldError.of("hex.off_row", text="A1", n=1, hex="H1", hex2="M1"), "fr") == \
        "A1 est hors du terrain : la ligne 1 va de H1 à M1"
    assert reason_text(IllegalCommandError.of("setup.not_setup_hex", rule="setup", hex="K12", side=side_term("west")),
                       "fr").startswith(
        "K12 n'est pas un hexagone de placement pour l'Ouest : ")
    assert reason_text(MatchNotActiveError("match_status", match=3, status=Term("status", "finished")), "fr") == \
        "la partie n°3 est terminée"
    assert reason_text("the match changed, try again", "fr") == "la partie a changé entre-temps, réessayez"
    assert reason_text("the match changed, try again", "en") == "the match changed, try again"
    # A question's options: the typed word after its French words; English as before.
    q = {"kind": "plough", "side": "west", "player": "w1", "options": ["plough", "stay"], "ability": "plough"}
    assert describe_question(q, st).endswith(": plough, or stay")
    assert describe_question(q, st, language="fr").endswith(" : Écrasement (`plough`) ou rester (`stay`)")
    assert option_text(st, "tackle", "fr", "dash_die") == "Plaquer" and option_text(st, "tackle", "fr") == "Tacle"
    # The picture's decision line: "Tour d'Orcs", "Tour de Gnomes" ("Orcs' turn" in English).
    from render.describe import possessive

    assert (possessive("Orcs", "fr"), possessive("Gnomes", "fr"), possessive("Orcs")) == ("d'Orcs", "de Gnomes", "Orcs'")


def test_every_rules_topic_reads_in_its_language():
    """/rules for each of its topics (the rules, the support, every ability): what the tour asks
    for a few of, here all of them."""
    from bot.lookup.rules_topics import topics

    for language in ("fr", "en"):
        found = leaks([f"{title}\n{text}" for title, text in topics(language).values()], [], language)
        assert found == [], f"/rules in {language}:" + report(found)


def test_timed_and_turn_limited_matches_read_in_french():
    """The phrases only the optional rules write: a deck or a turn limit that ends the match, the
    French variant's failed Disengage, a potion's +1 to an attribute."""
    import dataclasses
    import random

    from engine.dice import SeededDice
    from engine.fuzz import RandomCoach, random_entries
    from engine.match import apply, new_match
    from engine.narrate import Narrator
    from engine.options import parse_rules

    fr = Narrator(language="fr")
    for rules, seed in (("timed double fr_failed_disengage_sim", 0), ("turns=20", 1)):
        rng = random.Random(seed)
        west, east, options = random_entries(rng, advanced=True)
        dice = SeededDice(seed)
        res = new_match(west, east, dice, options=dataclasses.replace(parse_rules(rules), advanced=True), field=F)
        state, events, coach = res.state, list(res.events), RandomCoach(rng)
        while state.phase is not Phase.MATCH_OVER:
            side = pending(state).side
            res = apply(state, coach.choose(state, side, F), dice, by=side, field=F)
            state, events = res.state, events + list(res.events)
        lines = fr.narrate(events, state)
        assert leaks(lines, [p.name for p in state.players.values()] + [t.name for t in state.teams.values()], "fr") == []
    assert fr.missing == set()
    assert fr.phrase("the deck ran out") == "le paquet est épuisé" and fr.bonus("+1 might") == "+1 Force"
    assert Narrator().bonus("+1 might") == "+1 might"
