"""What ends a game besides goals: the Timed Game's deck (OP1, p. 18), the French text's event
deck for tournaments, and a turn limit.

"Take a standard playing card deck and set it beside the board. Each time the player that lost
the face-off finishes his team's turn remove one card from the deck. When you run out of cards,
the game is finished." The French text (variant ``fr_timed_any_turn``) removes a card
"chaque fois qu'un joueur termine son tour", every turn of either team, and allows 2 decks.

Tournament ("JOUER EN TOURNOIS", FR): "Utilisez un jeu de cartes standard avec les Joker.
Chaque figure (du Valet à l'As) donne +1 Temps fort au joueur pour ce tour. Chaque Joker donne
+3 Temps fort ... Toutes les autres cartes (2 à 10) sont traitées comme Aucun Événement
Inhabituel". A team draws its card as its turn begins (the counters are for that turn); the
card drawn is the card the timer removes, so the deck empties after as many turns as cards.

A card is drawn with the match's dice (``draw_index``: D6s read as base-6 digits, rejection
sampling), never Python's random, so a match stays a function of its commands and dice.

When the deck runs out, or a turn limit is reached, the game ends: the side with more goals
wins; level is a draw (rules-analysis G55).
"""

from __future__ import annotations

from .challenges.base import gain_momentum
from .context import Ctx
from .events import CardDrawn
from .field import Side
from .options import variant
from .state import Deck, MatchState, RuleOptions

__all__ = ["new_deck", "draw_index", "turn_started", "turn_finished", "CARD_MOMENTUM"]

#: Momentum an event card gives for the turn.
CARD_MOMENTUM = {"plain": 0, "face": 1, "joker": 3}
_ORDER = ("plain", "face", "joker")


def new_deck(options: RuleOptions) -> Deck | None:
    if not options.timed:
        return None
    if options.tournament:
        # 2-10 of four suits, J Q K A of four suits, two Jokers (per deck).
        return Deck({"plain": 36 * options.decks, "face": 16 * options.decks, "joker": 2 * options.decks})
    return Deck({"plain": 52 * options.decks})


def draw_index(ctx: Ctx, n: int) -> int:
    """A uniform index in ``range(n)`` from D6 rolls: k dice read as a base-6 number from 0 to
    6**k - 1, rolled again while it falls in the incomplete last block."""
    if n <= 1:
        return 0
    k, span = 1, 6
    while span < n:
        k, span = k + 1, span * 6
    limit = span - span % n
    while True:
        v = 0
        for _ in range(k):
            v = v * 6 + ctx.d6() - 1
        if v < limit:
            return v % n


def _draw(ctx: Ctx, deck: Deck) -> str:
    kinds = [k for k in _ORDER if deck.cards.get(k, 0)]
    if len(kinds) == 1:
        card = kinds[0]  # only one kind left: no roll tells anything
    else:
        i = draw_index(ctx, deck.left)
        for card in kinds:
            if i < deck.cards[card]:
                break
            i -= deck.cards[card]
    deck.cards[card] -= 1
    return card


def turn_started(ctx: Ctx, side: Side) -> None:
    """A tournament team draws its event card as its turn begins."""
    st = ctx.state
    deck = st.deck
    if deck is None or not st.options.tournament or deck.left == 0:
        return
    card = _draw(ctx, deck)
    bonus = CARD_MOMENTUM[card]
    if card == "plain":
        deck.no_event[side] = deck.no_event.get(side, 0) + 1
    ctx.emit(CardDrawn(side, card, deck.left, bonus))
    gain_momentum(ctx, side, bonus, "event card")


def _counts(state: MatchState, side: Side) -> bool:
    if variant(state, "fr_timed_any_turn"):
        return True
    # The face-off of the Test being played; before any face-off nobody has lost one.
    return state.faceoff_winner is not None and side != state.faceoff_winner


def turn_finished(ctx: Ctx, side: Side) -> str | None:
    """Count a finished team turn (and its card); why the game is over now, or None."""
    st = ctx.state
    st.turns += 1
    deck = st.deck
    if deck is not None:
        if not st.options.tournament and deck.left and _counts(st, side):
            _draw(ctx, deck)
            ctx.emit(CardDrawn(side, "plain", deck.left, 0))
        if deck.left == 0:
            return "the deck ran out"
    if st.options.turn_limit and st.turns >= st.options.turn_limit:
        return "the turn limit was reached"
    return None


def result(state: MatchState) -> str:
    """The winner when time runs out: more goals wins, level is a draw."""
    w, e = state.teams["west"].score, state.teams["east"].score
    return "west" if w > e else "east" if e > w else "draw"
