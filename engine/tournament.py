"""Tournament play, from the French text's "JOUER EN TOURNOIS" (FR 0.0.6 only).

"Utiliser 120 à 150 Points d'équipe. Une équipe doit toujours avoir au moins 6 joueurs." "Les
potions magique sont limitées à 2 au lieu de 3." "Les règles optionnelles de Mise en jeu et de
l'étoile sur le dé de défi sont utilisées." "Le temps de jeu doit être limité à la première
chose atteinte parmi un temps de 75 minutes, au premier but, ou avoir vidé les cartes."
Scoring: "a. 100 points pour une victoire + (nombre de cartes restante dans la pioche divisée
par 5) b. 1 point pour chaque carte 'Aucun Événement Inhabituel' en cas d'égalité ou de défaite.
c. 2 points pour chaque joueur adverse mit hors jeu, dans la zone de repos ou à l'infirmerie à
la fin du match."

"Une équipe peut acheter un Arbitre corrompu, des Fûts de Zlurpee, des Pom-pom girls et des
potions magiques": the Hired Gun Wizard is not on the list, so a tournament team may not hire
one (rules edition 2; edition 1 allowed him, and its stored matches replay so).

The profile (``engine/options.py``) turns on the face-off and star rules, the event deck
(``engine/clock.py``) and the first goal; ``check_entries`` holds the team limits at the start
of a match; ``score`` reads the final state. Our readings: the cards left are divided by 5
rounded down; b. counts the "no unusual event" cards the team itself drew; c. counts opposing
players sent off or ejected ("hors jeu"), in Recovery or in the Infirmary when the game ends.
"""

from __future__ import annotations

from .entries import TeamEntry
from .errors import MalformedInputError
from .field import SIDES, other_side
from .refusals import Term
from .state import RULES_EDITION, Location, MatchState
from .teambuilding import ABILITY_COST, ROOKIE_COST, support_value

__all__ = ["SUPPORT", "MIN_POINTS", "MAX_POINTS", "MAX_POTIONS", "MIN_PLAYERS", "team_points", "check_entries", "score"]

MIN_POINTS, MAX_POINTS = 120, 150
MAX_POTIONS = 2
MIN_PLAYERS = 6
_OUT = (Location.SENT_OFF, Location.EJECTED, Location.RECOVERY, Location.INFIRMARY)


def team_points(entry: TeamEntry) -> int:
    """Team points as the Advanced Rules count them: 15 a player, 5 an ability he learned,
    and the team support's cost (p. 11)."""
    players = entry.roster.total
    learned = sum(len(p.abilities) for p in entry.players if p is not None)
    return players * ROOKIE_COST + learned * ABILITY_COST + support_value(dict(entry.support))


#: The support a tournament team may buy, by ``TeamEntry.support`` key.
SUPPORT = ("bribed_referee", "kegs", "cheerleaders", "potions")


def check_entries(*entries: TeamEntry, edition: int = RULES_EDITION) -> None:
    for entry in entries:
        support = dict(entry.support)
        bought = [k for k, n in support.items() if n and k not in SUPPORT]
        if bought and edition >= 2:
            raise MalformedInputError.of("tournament.support", text=entry.name, text2=Term("support", bought[0]))
        if support.get("potions", 0) > MAX_POTIONS:
            raise MalformedInputError.of("tournament.potions", text=entry.name, n=MAX_POTIONS)
        if entry.roster.total < MIN_PLAYERS:
            raise MalformedInputError.of("tournament.players", text=entry.name, n=MIN_PLAYERS)
        points = team_points(entry)
        if not MIN_POINTS <= points <= MAX_POINTS:
            raise MalformedInputError.of("tournament.points", text=entry.name, n=MIN_POINTS, n2=MAX_POINTS, n3=points)


def score(state: MatchState) -> dict[str, int]:
    """Each side's tournament points once the match is over (0 for both before)."""
    out = {"west": 0, "east": 0}
    if state.winner is None:
        return out
    left = state.deck.left if state.deck is not None else 0
    for side in SIDES:
        other = other_side(side)
        if state.winner == side:
            out[side] += 100 + left // 5
        elif state.deck is not None:
            out[side] += state.deck.no_event.get(side, 0)
        out[side] += 2 * sum(1 for p in state.team_players(other) if p.location in _OUT)
    return out
