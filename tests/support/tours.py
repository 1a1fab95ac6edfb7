"""What a member of a French (or English) server is shown, and the words of the other language in it.

``Seen`` collects every text of the replies (message contents, embeds, buttons, selects,
attachments' alt text, the /match log, autocomplete choices); ``read_tour`` runs a tour through the
fake Discord and adds the words drawn on its pictures; ``leaks`` reads the texts for the other
language's words (``ENGLISH``, ``FRENCH``, the compass letters) once what is no language is cut out
(mentions, links, `code`, names, hexes, counters' letters, seeds) and ``report`` prints them.
"""

from __future__ import annotations

import json
import os
import re

from fakediscord import FakeDiscord

from engine.rosters import all_team_lists, extra_players

# --- the detector ---------------------------------------------------------------------------------
#: English words that are no French word (whole words, any case).
ENGLISH = frozenset("""
the and is are was were be been being you your yours has have had having with without not his her
hers him he she it its they their them we our us this that these those from to of for by at
into onto out off up what which who whom whose when where why how there here then than if
will would shall should can cannot could must may might does did doing done do no yes
each every any some other only just more most over under after before again still yet already
now next last first both back down turn turns player players move moves moved moving team teams
ball goal goals roll rolls rolled dice die success failure tackle tackles tackled shove shoved
dash throw throws thrown catch caught pass pick picked stand stands standing end ends ended keep
choose chooses spend spends counter counters hex hexes field bench west east north south wins won
lost conceded concede waiting decision describe board rules rule seed left right new old let
drop none nobody someone own one two three four five momentum bench round square token tokens cards card
challenge challenges hit hits flop flops blank need needs acting facing dazed sent ejected recovery infirmary
injury pickup intercept replay commitment verified loose ground carried xp
""".split())
#: French words that are no English word.
FRENCH = frozenset("""
le la les un une des du au aux est sont vous votre vos nous notre il elle ils elles leur leurs
avec dans sur sous pas qui que quoi mais ou où donc ni ce cette ces sa ses
joueur joueurs équipe équipes balle ballon dés dé réussite échec partie plaquer pousser relancer
garder choisir fini finir aucun aucune entraîneur attendre déplacer se lève debout ouest nord sud
jets être été
""".split())
ACCENTED = re.compile(r"[éèêëàâçùûôîï]", re.I)

MENTION = re.compile(r"<[@#][!&]?\d+>")
URL = re.compile(r"https?://\S+")
CODE = re.compile(r"`[^`]*`")  # what one types: /partie accepter, `act JOUEUR`, a seed
INITIALS = re.compile(r"\[[A-Za-z]{1,3}\]|\b\d+[A-Z][A-Za-z]{0,2}\b")  # a counter's letters: [Sa], a chip 4Sa
HEXES = re.compile(r"\b[A-Z]{1,2}\d{1,2}\b")
SEEDS = re.compile(r"\b[0-9a-f]{8,}\b")
#: Compass letters both languages write alike; NW, SW and W are English (NO, SO, O in French).
DIRECTIONS = re.compile(r"\b(?:NE|SE|E|N|S)\b")
ENGLISH_COMPASS = re.compile(r"\b(?:NW|SW|W)\b")
FRENCH_COMPASS = re.compile(r"\b(?:NO|SO|O)\b")
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def pieces(text: str) -> list[str]:
    """Lines, then sentences: the units a leak is reported in."""
    out = []
    for line in text.splitlines():
        out += [p.strip() for p in re.split(r"(?<=[.!?;:])\s+", line) if p.strip()]
    return out


def clean(piece: str, names: list[str]) -> str:
    """The piece without what is no language: mentions, links, code, names, hexes, numbers."""
    text = CODE.sub(" ", MENTION.sub(" ", URL.sub(" ", piece)))
    for name in names:  # longest first: "Night Elves" before "Elves"
        text = text.replace(name, " ")
    return DIRECTIONS.sub(" ", SEEDS.sub(" ", HEXES.sub(" ", INITIALS.sub(" ", text))))


def leaks(texts: list[str], names: list[str], language: str) -> list[tuple[str, list[str]]]:
    """(piece, its foreign words) for every piece of ``texts`` (written for a reader of
    ``language``) holding a word of the other language."""
    words, own, foreign = (ENGLISH, FRENCH_COMPASS, ENGLISH_COMPASS) if language == "fr" else \
        (FRENCH, ENGLISH_COMPASS, FRENCH_COMPASS)
    names = sorted(set(names), key=len, reverse=True)
    found: dict[str, list[str]] = {}
    for text in texts:
        for piece in pieces(text):
            rest = own.sub(" ", clean(piece, names))
            bad = foreign.findall(rest) + [w for w in WORD.findall(foreign.sub(" ", rest))
                                           if w.lower() in words or (language == "en" and ACCENTED.search(w))]
            if bad:
                found.setdefault(piece, sorted(set(bad)))
    return sorted(found.items())


def report(found: list[tuple[str, list[str]]]) -> str:
    return "\n" + "\n".join(f"  {words}: {piece}" for piece, words in found)


# --- what a member sees ---------------------------------------------------------------------------
def message_texts(msg) -> list[str]:  # type: ignore[no-untyped-def]
    out = [msg.content] if msg.content else []
    for e in msg.embeds:
        out += [str(e[k]) for k in ("title", "description") if e.get(k)]
        for f in e.get("fields") or []:
            out += [f.get("name", ""), f.get("value", "")]
        out += [x["text"] for x in [e.get("footer") or {}] if x.get("text")]
        out += [x["name"] for x in [e.get("author") or {}] if x.get("name")]
    for c in msg.all_components:
        out += [c[k] for k in ("label", "placeholder", "content") if c.get(k)]
        for o in c.get("options") or []:
            out += [o[k] for k in ("label", "description") if o.get(k)]
    out += [a.description for a in msg.attachments if getattr(a, "description", None)]
    out += [a.data.decode() for a in msg.attachments if a.filename.endswith(".txt")]  # /match log
    return out


class Seen:
    """Every text the members were shown, reply by reply."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.names: set[str] = set()

    def add(self, reply):  # type: ignore[no-untyped-def]
        for m in [*reply.messages, *reply.posted, *reply.edited]:
            self.texts += message_texts(m)
        if reply.modal:
            self.texts.append(str(reply.modal.get("title", "")))
        self.texts += [c.name for c in reply.choices]
        return reply

    def names_of(self, state) -> None:  # type: ignore[no-untyped-def]
        self.names |= {p.name for p in state.players.values()} | {t.name for t in state.teams.values()}
        self.names |= {t.name for t in all_team_lists()}  # team lists and their positions: proper nouns
        self.names |= {p.name for t in all_team_lists() for p in t.positions} | {e.name for e in extra_players()}


# --- a tour, read ---------------------------------------------------------------------------------
async def read_tour(monkeypatch, tour_of, language: str, pictures: tuple, name: str) -> Seen:  # type: ignore[no-untyped-def]
    """Run ``tour_of(fake, language)`` and return what it saw plus every word drawn on the
    pictures (``draw_text`` of the ``pictures`` modules); ``ELFBALL_TOUR_TEXTS`` writes it all."""
    drawn: list[str] = []
    for module in pictures:
        def recording(canvas, xy, text, *a, _real=module.draw_text, **kw):  # type: ignore[no-untyped-def]
            drawn.append(text)
            return _real(canvas, xy, text, *a, **kw)

        monkeypatch.setattr(module, "draw_text", recording)
    async with FakeDiscord(timeout=10.0, settle=0.01) as fake:
        seen = await tour_of(fake, language)
    assert drawn, "no picture was drawn"
    seen.texts += sorted(set(drawn))
    if os.environ.get("ELFBALL_TOUR_TEXTS"):  # every text the tour saw, to read by eye
        with open(f"{os.environ['ELFBALL_TOUR_TEXTS']}.{name}{language}.json", "w", encoding="utf-8") as f:
            json.dump(sorted(set(seen.texts)), f, ensure_ascii=False, indent=0)
    return seen
