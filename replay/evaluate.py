"""Showdown evaluation through pokerkit's hand types (we do not write an evaluator),
plus the small card orderings the TDA rules need (odd chip by suit, stud upcards).

Suits rank clubs < diamonds < hearts < spades (TDA 2019 Rule 20-B, "high card by suit").

>>> best_hands("holdem", "Ah Kh", "Qh Jh Th 2c 3d").hi.startswith("Straight flush")
True
>>> best_hands("omaha_hilo", "As 2d Kc Kd", "3h 4s 8c Qd Jh").lo
'High card (As2d3h4s8c)'
>>> card_key("As", ace_low=False) > card_key("Ks", ace_low=False)
True

The strongest hand is pokerkit's own ``from_game`` hand, cards in the same order:

>>> from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand, StandardHighHand, StandardLowHand
>>> deals = [(StandardHighHand, "AhAd", "AsAcKhKdKs"), (StandardHighHand, "2c3d", "9h9s9d9c8h"),
...          (StandardLowHand, "2c7d", "3h4s5d8c2h"), (OmahaHoldemHand, "AcKcQcJc", "AdKdQdJd2s"),
...          (OmahaEightOrBetterLowHand, "As2d3c4h", "5s6d7c8hAh")]
>>> all(repr(strongest(t, h, b)) == repr(t.from_game(h, b)) for t, h, b in deals)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from auditor.schema import STREET_FAMILY


RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs < diamonds < hearts < spades

# variant -> (high hand type, low hand type or None), pokerkit's class names; hand types
# compare "greater is better".  pokerkit is imported at the first showdown, not with this
# module: a process that only stores hands (the audit's main one) never pays its import.
_HI_LO = {
    "holdem": ("StandardHighHand", None),
    "irish": ("StandardHighHand", None),  # the two hole cards kept after the discard, as hold'em: pokerkit has no Irish game
    # pokerkit has no Double Hold'em game: each pair of the point card with another hole card is
    # a hold'em hand (the two non-point cards do not play together); see best_hands, point_card_weakest
    "double_holdem": ("StandardHighHand", None),
    "6plus_holdem": ("ShortDeckHoldemHand", None),
    "omaha": ("OmahaHoldemHand", None),
    "omaha5": ("OmahaHoldemHand", None),
    "omaha6": ("OmahaHoldemHand", None),
    "courchevel": ("OmahaHoldemHand", None),
    "omaha_hilo": ("OmahaHoldemHand", "OmahaEightOrBetterLowHand"),
    "omaha5_hilo": ("OmahaHoldemHand", "OmahaEightOrBetterLowHand"),
    "courchevel_hilo": ("OmahaHoldemHand", "OmahaEightOrBetterLowHand"),
    "stud": ("StandardHighHand", None),
    "5_card_stud": ("StandardHighHand", None),  # the five cards dealt: pokerkit has no 5-card stud game, its hand type is stud's
    "stud_hilo": ("StandardHighHand", "EightOrBetterLowHand"),
    "razz": ("RegularLowHand", None),
    "2-7_single_draw": ("StandardLowHand", None),
    "2-7_triple_draw": ("StandardLowHand", None),
    "a-5_triple_draw": ("RegularLowHand", None),
    "5_card_draw": ("StandardHighHand", None),
    "badugi": ("BadugiHand", None),
}
BOARD_VARIANTS = frozenset(
    {"holdem", "irish", "double_holdem", "6plus_holdem", "omaha", "omaha5", "omaha6", "courchevel", "omaha_hilo", "omaha5_hilo", "courchevel_hilo"}
)
STUD_VARIANTS = frozenset(v for v, family in STREET_FAMILY.items() if family == "stud")
HILO_VARIANTS = frozenset(v for v, (_, lo) in _HI_LO.items() if lo is not None)
# low-only games: the single pot goes to the best low, and the odd chip rule treats
# the ace as low when it ranks cards (razz, A-5)
ACE_LOW_VARIANTS = frozenset({"razz", "a-5_triple_draw", "badugi"})


@dataclass(frozen=True, slots=True)
class Evaluated:
    hi: str | None  # description, e.g. "Two pair (AsAdKcKd2h)"
    lo: str | None
    hi_hand: object | None  # pokerkit hand (comparable) or None
    lo_hand: object | None
    # the hands' strengths as plain ints, greater is better (see _strength): comparing
    # pokerkit hands looks both entries up again at every comparison
    hi_rank: int | None
    lo_rank: int | None


def supported(variant: str) -> bool:
    return variant in _HI_LO


def _compact(cards: str) -> str:
    return cards.replace(" ", "")


@lru_cache(maxsize=65536)
def best_hands(variant: str, hole: str, board: str = "") -> Evaluated:
    """Best high (and low, in hi/lo games) hand of ``hole`` + ``board`` (space-separated cards)."""
    import pokerkit

    hi_name, lo_name = _HI_LO[variant]
    if variant == "double_holdem":
        # the best hand any choice of point card makes: the best hold'em hand of a pair of the hole cards
        cards = hole.split()
        return max((best_hands("holdem", " ".join(pair), board) for pair in combinations(cards, 2)),
                   key=lambda ev: -1 if ev.hi_rank is None else ev.hi_rank)
    hi_type, lo_type = getattr(pokerkit, hi_name), lo_name and getattr(pokerkit, lo_name)
    h, b = _compact(hole), _compact(board)
    hi = strongest(hi_type, h, b)
    lo = strongest(lo_type, h, b) if lo_type else None
    return Evaluated(str(hi) if hi else None, str(lo) if lo else None, hi, lo, _strength(hi), _strength(lo))


def point_card_weakest(hole: str, board: str) -> int | None:
    """Double Hold'em: the strength of the weakest hand a choice of point card can leave the
    player (with each point card, the better of its two pairs; then the least of those), when
    the history does not say which card he chose.  With :func:`best_hands`' the strongest,
    it bounds his hand.

    >>> point_card_weakest("As Ad 2c", "Ah 7d 8s Tc Jh") == best_hands("holdem", "As 2c", "Ah 7d 8s Tc Jh").hi_rank
    True
    """
    cards = hole.split()
    out: int | None = None
    for i, point in enumerate(cards):
        ranks = [best_hands("holdem", f"{point} {other}", board).hi_rank for j, other in enumerate(cards) if j != i]
        known = [r for r in ranks if r is not None]
        if not known:
            return None
        better = max(known)
        out = better if out is None or better < out else out
    return out


def strongest(hand_type, hole, board):
    """``hand_type.from_game(hole, board)``, or None when no valid hand can be formed
    (e.g. no qualifying eight-or-better low).

    For the combination hands (every type here but badugi) this walks pokerkit's own
    candidate combinations, in its order, and keeps the first strongest as
    ``from_game`` does, but asks the hand type's lookup once per candidate instead of
    building and comparing pokerkit hands (each comparison looks both entries up
    again: about five lookups per candidate).  The same hand at a fraction of the
    cost; the strengths are still pokerkit's lookup entries, and the module doctest
    checks the result against ``from_game``."""
    from pokerkit import Card, CombinationHand, HoleBoardCombinationHand

    try:
        hole, board = Card.clean(hole), Card.clean(board)
    except ValueError:  # not cards: from_game raises the same
        return None
    n = hand_type.card_count if issubclass(hand_type, CombinationHand) else None
    if _from_game_is(hand_type, HoleBoardCombinationHand):  # Omaha: so many hole and so many board cards
        candidates = (c for h in combinations(hole, hand_type.hole_card_count)
                      for b in combinations(board, hand_type.board_card_count) for c in combinations(h + b, n))
    elif _from_game_is(hand_type, CombinationHand):
        candidates = combinations(hole + board, n)
    else:  # badugi: a rule of its own, and few cards
        try:
            return hand_type.from_game(hole, board)
        except ValueError:
            return None
    lookup, low = hand_type.lookup, hand_type.low
    best = best_entry = None
    for cards in candidates:
        try:
            entry = lookup.get_entry(cards)
        except ValueError:  # not a hand of this type (e.g. not an eight-or-better low)
            continue
        # pokerkit ranks low hands by decreasing entry; a tie keeps the first, as from_game does
        if best_entry is None or (entry < best_entry if low else entry > best_entry):
            best, best_entry = cards, entry
    return None if best is None else hand_type(best)


def _from_game_is(hand_type, base) -> bool:
    """Does ``hand_type`` combine cards by ``base``'s own ``from_game``?"""
    return issubclass(hand_type, base) and hand_type.from_game.__func__ is base.from_game.__func__


def _strength(hand) -> int | None:
    """A pokerkit hand's strength as an int, greater is better: pokerkit compares
    hands by their lookup entry's index, reversed for low hand types."""
    if hand is None:
        return None
    index = hand.entry.index
    return -index if hand.low else index


def hand_cards(hand) -> list[str]:
    """The cards of a pokerkit hand as strings like 'As'."""
    return [f"{c.rank.value}{c.suit.value}" for c in hand.cards]


def card_key(card: str, *, ace_low: bool) -> tuple[int, int]:
    """Order cards by rank then suit (clubs lowest, spades highest)."""
    r = -1 if (ace_low and card[0] == "A") else RANKS.index(card[0])
    return (r, SUITS.index(card[1]))


def high_card_by_suit(cards: list[str], *, ace_low: bool) -> tuple[int, int]:
    return max(card_key(c, ace_low=ace_low) for c in cards)


def split_cards(cards: str | None) -> list[str]:
    return cards.split() if cards else []


# --- stud: who brings in, who acts first -------------------------------------------


def bring_in_key(upcard: str, *, razz: bool) -> tuple[int, int]:
    """Smaller key brings in: the lowest upcard (razz: highest, ace low), ties by suit
    (clubs lowest brings in in stud; in razz the highest card by suit brings in)."""
    r, s = card_key(upcard, ace_low=razz)
    return (-r, -s) if razz else (r, s)


def showing_key(upcards: list[str], *, razz: bool) -> tuple:
    """Larger key acts first on 4th street and later: the best exposed hand
    (stud: pairs and ranks high; razz: the lowest exposed hand, ace low)."""
    from collections import Counter

    ace_low = razz
    ranks = [card_key(c, ace_low=ace_low)[0] for c in upcards]
    counts = Counter(ranks)
    if razz:
        # lower is better: fewer pairs, then lowest high cards
        groups = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0]))
        shape = tuple(-n for _, n in groups)
        order = tuple(-r for r, _ in sorted(counts.items(), key=lambda kv: -kv[0]))
        return (shape, order)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    top_suit = max(card_key(c, ace_low=False) for c in upcards)[1] if upcards else 0
    return (shape, order, top_suit)
