"""The rules state machine: re-apply one hand's recorded events and record, at
every decision, what the TDA rules allowed at that moment.

It never refuses an action.  Whatever the history says happened is applied and
the replay continues from there; the facts it writes (``decisions``, ``pots``,
``pot_shares``, ``hand_results``, ``replay_notes``) let the SQL checks judge each
action.  The semantics are written down in ``docs/semantics.md``.

Rule references are to the 2019 longform text unless noted; what differs by
edition comes from :mod:`replay.editions`.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, cast

from auditor.schema import FORCED_KINDS, VOLUNTARY_KINDS, betting_streets, street_family
from parsers.base import Event, ParsedHand, Seat
from replay.editions import EditionRules
from replay.evaluate import (
    ACE_LOW_VARIANTS,
    HILO_VARIANTS,
    best_hands,
    bring_in_key,
    card_key,
    hand_cards,
    point_card_weakest,
    showing_key,
    split_cards,
    supported,
)

# plain strings: the event log stores kinds as text, and str lookups are the hot path
VOLUNTARY = frozenset(str(k) for k in VOLUNTARY_KINDS)
FORCED = frozenset(str(k) for k in FORCED_KINDS)
DEFAULT_RAISE_CAP = 4  # a bet and three raises (2019 Rule 48: "the house limit applies")
HOLE_COUNT = {"holdem": 2, "6plus_holdem": 2, "omaha": 4, "omaha_hilo": 4, "omaha5": 5, "omaha5_hilo": 5,
              "omaha6": 6, "courchevel": 5, "courchevel_hilo": 5,
              "irish": 2, "double_holdem": 3}  # Irish: the two kept after the discard


def clockwise(seats: list[int], positions: list[int | None], button: int | None, stud: bool,
              max_seats: int | None, small_blind_seat: int | None) -> list[int]:
    """The indexes of ``seats`` in acting order, starting left of the button.  PHH lists
    players by position already (``positions``, p1 first); stud by seat number; sites
    give seat numbers and the button (none written: iPoker leaves out the empty seat
    that holds a dead button, then with three or more dealt in the small blind's poster,
    ``small_blind_seat``, is the first seat after it).

    >>> clockwise([1, 3, 6], [None] * 3, 3, False, 6, None), clockwise([2, 5], [None, None], None, False, 9, 5)
    ([2, 0, 1], [0, 1])
    """
    idx = list(range(len(seats)))
    if seats and all(p is not None for p in positions):
        return sorted(idx, key=lambda i: cast(int, positions[i]))
    btn = button
    if not stud and btn is None and small_blind_seat is not None and len(seats) >= 3:
        btn = small_blind_seat - 1
    if stud or btn is None:
        return sorted(idx, key=lambda i: seats[i])
    # the table has at least as many seats as the highest seat written, the button's too
    # (a button on an empty seat 10 past the last player's seat 9 is not seat 1's)
    first: int = btn + 1
    n = max([max_seats or 0, btn] + seats)
    return sorted(idx, key=lambda i: (seats[i] - first) % n)


def small_blind_out_of_position(posted: list[tuple[str, int]], order: int, seat: int | None, button: int | None,
                                players: int) -> bool:
    """Whether a small blind is posted out of position (dead: it does not count toward the
    poster's call), ``posted`` being the street's blinds before it, each (kind, its poster's
    place in ``clockwise`` order), and ``order`` and ``seat`` the poster's, of ``players``
    dealt in: after another small blind (``dead_small_blind``: one already dead), or after
    a big blind from a seat that is not the positional small blind's.  That seat is before
    the (first) big blind's poster clockwise from the button, heads-up the button itself:
    posted after the big blind (Winamax writes the blinds in either order), it is still the
    small blind, live.

    >>> small_blind_out_of_position([("big_blind", 2)], 1, 3, 1, 4), small_blind_out_of_position([("big_blind", 1)], 2, 4, 1, 4)
    (False, True)
    >>> small_blind_out_of_position([("big_blind", 1)], 0, 5, 5, 2), small_blind_out_of_position([("small_blind", 0)], 3, 6, 1, 4)
    (False, True)
    """
    bb: int | None = None
    for kind, at in posted:
        if kind in ("small_blind", "dead_small_blind"):
            return True
        if kind == "big_blind" and bb is None:
            bb = at
    if bb is None:
        return False
    if players == 2:
        return seat is None or seat != button
    return order > bb


# a seat number, or None for the player who acts with no seat line (his seat is not recorded)
SeatNo = int | None


@dataclass(slots=True, init=False)
class SeatState:
    seat: int | None  # None: the player who acts with no seat line (``seatless``)
    player: str | None
    order: int  # clockwise position, 0 = first seat left of the button
    start: int
    stack: int
    street_in: int = 0  # live chips committed on the current street
    total_in: int = 0  # all chips put in (antes and dead blinds included)
    folded: bool = False
    all_in: bool = False
    acted: bool = False  # acted voluntarily on this street
    level_acted: int = 0  # the street bet level they left themselves at when they last acted
    full_raises_since: int = 0  # full bets/raises by others since they last acted
    # short bets/raises by others since they last acted whose fullness needs a stack the
    # record does not give (``*-unjudged``): whether they reopened the betting is not known
    unjudged_raises_since: int = 0
    cards: list[str] = field(default_factory=list)  # every known card, in deal order
    upcards: list[str] = field(default_factory=list)  # stud: exposed cards
    shown: str | None = None
    mucked: bool = False
    returned_expected: int = 0
    returned_recorded: int = 0
    returned_line: int | None = None
    collected: int = 0
    finishing_stack: int | None = None
    winnings: int | None = None
    table_ante: int = 0  # a big-blind ante posted for the whole table
    dead_small_blind: int = 0  # an out-of-position small blind, dead unless the history plays it live
    # a player who acts with no seat line (seat None): his place in the turn order and his
    # stack are not recorded; ``stack`` stays 0 and ``all_in`` is what his lines say
    seatless: bool = False
    # the record knows his starting stack (False for the seatless player and for a seat whose
    # stack the record does not know, PHH's ``inf``): else ``start`` and ``stack`` stay 0 and
    # are never read nor recorded, his reach is unbounded and ``all_in`` is what his lines say
    stack_known: bool = True

    # written out (init=False), as parsers.base's are: mypyc compiles it
    def __init__(self, seat: SeatNo, player: str | None, order: int, start: int, stack: int,
                 seatless: bool = False, stack_known: bool = True) -> None:
        self.seat = seat
        self.player = player
        self.order = order
        self.start = start
        self.stack = stack
        self.street_in = 0
        self.total_in = 0
        self.folded = False
        self.all_in = False
        self.acted = False
        self.level_acted = 0
        self.full_raises_since = 0
        self.unjudged_raises_since = 0
        self.cards = []
        self.upcards = []
        self.shown = None
        self.mucked = False
        self.returned_expected = 0
        self.returned_recorded = 0
        self.returned_line = None
        self.collected = 0
        self.finishing_stack = None
        self.winnings = None
        self.table_ante = 0
        self.dead_small_blind = 0
        self.seatless = seatless
        self.stack_known = stack_known and not seatless


@dataclass(init=False)
class HandFacts:
    decisions: list[tuple]
    pots: list[tuple]
    pot_shares: list[tuple]
    hand_results: list[tuple]
    notes: list[tuple]

    def __init__(self) -> None:
        self.decisions = []
        self.pots = []
        self.pot_shares = []
        self.hand_results = []
        self.notes = []


@dataclass(slots=True, init=False)
class Pot:
    index: int
    amount: int
    contributors: list[SeatNo]
    eligible: list[SeatNo]

    def __init__(self, index: int, amount: int, contributors: list[SeatNo], eligible: list[SeatNo]) -> None:
        self.index = index
        self.amount = amount
        self.contributors = contributors
        self.eligible = eligible


def run_amounts(amount: int, runs: int, unit: int) -> list[int]:
    """A pot run ``runs`` times: each run's share, in whole chips of ``unit``, the odd
    chips to the first runs (as PokerStars and GGPoker split; the TDA rules say nothing
    of running it twice, docs/semantics.md).

    >>> run_amounts(7, 2, 1), run_amounts(8, 2, 1), run_amounts(10, 3, 1), run_amounts(700, 2, 100)
    ([4, 3], [4, 4], [4, 3, 3], [400, 300])
    """
    base, odd = divmod(amount // unit, runs)
    return [(base + (i < odd)) * unit for i in range(runs)]


class Replay:
    """Replays one hand: ``hand``, its ``seats`` and its ``events`` (in seq order) as
    the parser made them (``parsers.base``: ParsedHand, Seat, Event, whose fields are
    the store's columns), from a parse worker or read back from the store."""

    def __init__(self, hand: ParsedHand, seats: list[Seat], events: list[Event], rules: EditionRules,
                 raise_cap: int = DEFAULT_RAISE_CAP):
        self.hand = hand
        self.rules = rules
        self.ed = rules.name
        self.hid = hand.hand_id
        self.variant = hand.variant
        self.betting = hand.betting
        self.family = street_family(self.variant)
        self.streets = betting_streets(self.variant, self.family)
        self.events = events
        self.raise_cap = raise_cap if self.betting == "fixed-limit" else None
        # the history does not say no-limit, pot-limit or fixed-limit: every action is applied,
        # but no fact that depends on the structure is recorded (docs/semantics.md)
        self.structure_known = self.betting != "unrecorded"
        self.unit = hand.chip_unit or 1
        # headers are metadata, posts are the record (docs/semantics.md, "Headers and posts"):
        # the blinds and ante in play are the ones posted in full, the header's where none is
        posted_sb, posted_bb, posted_ante = posted_in_full(seats, events)
        stated_bb = hand.big_blind or 0
        if self.betting == "fixed-limit" and hand.small_bet and self.family != "stud":  # (stud: no blinds)
            # a limit header states the bets, and the parsers read the blinds from the posts: with
            # no big blind posted in full, the level's is the small bet, not a short all-in post
            stated_bb = hand.small_bet
        self.big_blind = posted_bb or stated_bb
        self.small_blind = posted_sb or hand.small_blind or 0
        self.ante = posted_ante or hand.ante or 0
        # the smallest opening bet: the big blind in play, unless the history states another
        # (PHH's min_bet); the parsers that copy the header's big blind into it state none
        stated = hand.min_bet or 0
        self.min_bet: int = stated if stated and stated != hand.big_blind else self.big_blind
        # fixed-limit bet sizes (see _bet_size), asked at every action
        self.limit_small = hand.small_bet or self.big_blind or self.unit
        self.limit_big = hand.big_bet or 2 * self.limit_small
        # capped tables: the most one player may put in the hand (a house structure the TDA does not
        # cover, from the header); who has put it in is all in for the betting, chips behind kept
        self.cap: int | None = hand.cap or None
        self.late_street = {"board": 2, "stud": 2, "triple_draw": 2, "single_draw": 1}[self.family]
        # PokerStars writes "Uncalled bet (X) returned"; PHH records no returns
        self.records_returns = hand.format != "phh"
        self.facts = HandFacts()
        in_hand = {e.seat for e in events if e.seat is not None and e.street != "summary"}
        self.seats: dict[int | None, SeatState] = {}  # looked up by events' seats, which may be None
        for idx, s in enumerate(self._clockwise([s for s in seats if s.seat in in_hand])):
            # a stack the record does not know (None): followed as unbounded, never judged against
            known = s.starting_stack is not None
            chips = s.starting_stack if s.starting_stack is not None else 0
            self.seats[s.seat] = SeatState(s.seat, s.player, idx, chips, chips, stack_known=known)
        # a player who acts with no seat line (the parser records his events with seat None
        # and his name): kept under the key None, last in ``order``, which only settlement
        # reads for him; every fact that needs his seat or stack is left unknown
        self.seatless: SeatState | None = None
        unseated = {e.player for e in events if e.seat is None and e.player is not None
                     and (e.kind in VOLUNTARY or e.kind in FORCED)}
        if len(unseated) > 1:  # another seatless player who only folds or checks is not followed
            unseated = {e.player for e in events if e.seat is None and e.player is not None
                        and (e.kind in FORCED or e.kind in VOLUNTARY and e.kind not in ("fold", "check"))}
        if len(unseated) == 1:
            self.seatless = SeatState(None, unseated.pop(), len(self.seats), 0, 0, seatless=True)
            self.seats[None] = self.seatless
        self.order = sorted(self.seats.values(), key=lambda x: x.order)
        # the street's turn order cannot be known: the seatless player could act (or post) on it
        self.turn_unknown = False
        self.board: list[str] = []
        # run it twice: each board event's (street index, run, cards); the runs' boards are built from them
        self.board_events: list[tuple[int, int, list[str]]] = []
        self.runs = 1  # how many times the board was run
        self.later_run_collects = False  # a collect is written in a run after the first
        self.collects: list[Event] = []
        self.total_pot: Event | None = None  # the summary's "Total pot X | Rake Y" claim
        # money the house added (house_added: Run It Once's splash the pot, GGPoker's cash drop);
        # no seat's chips, so it is not in self.pot: it counts in the pot limit, and goes into
        # the main pot at settlement
        self.house_added = 0
        # seats that cashed out (cash_out: the house bought their share of the pot while all in):
        # a pot share the record does not pay such a seat went to the house with the cash-out
        self.cashed_out: set[int | None] = set()
        self.return_lines = False  # the hand writes an "Uncalled bet (X) returned" line
        self.street: str | None = None
        self.street_idx = -1
        # every chip put in so far, live or dead (antes, blinds, bets): kept as it goes,
        # as the pot before each action is recorded
        self.pot = 0
        self.current_bet = 0  # highest street commitment
        self.bet_floor = 0  # pre-flop: the full big blind; a short all-in blind changes no limit (43 Ex.2, 54-B)
        self.last_full = 0  # largest full bet or raise increment of the street (43-A)
        self.full_level = 0  # the bet level reached by the last full bet or raise (fixed-limit sizing)
        self.bets_raises = 0
        self.last_actor: SeatState | None = None
        self.voluntary_seen = False  # any voluntary action on this street yet
        self.blind_posters: list[tuple[str, SeatState]] = []
        self.stud_big_fourth = False  # fourth street played at the big bet (open pair)
        self.small_blind_live = 0  # the positional small blind's live chips (2024 54-B)
        self.big_blind_live: int | None = None  # the first big blind's live chips (54-B); None: none posted
        # Rule 36: the hand's actions in turn so far (seq, puts chips in), for substantial action
        self.in_turn: list[tuple[int, bool]] = []

    # --- seating ---------------------------------------------------------------------
    def _clockwise(self, seats: list[Seat]) -> list[Seat]:
        sb = next((e.seat for e in self.events if e.kind == "small_blind" and e.seat is not None), None)
        order = clockwise([s.seat for s in seats], [s.position for s in seats], self.hand.button_seat,
                          self.family == "stud", self.hand.max_seats, sb)
        return [seats[i] for i in order]

    @staticmethod
    def _can_act(s: SeatState) -> bool:
        return not s.folded and not s.all_in

    def _needs_action(self, s: SeatState) -> bool:
        return self._can_act(s) and (not s.acted or s.street_in < self._price())

    def _price(self) -> int:
        """What a player must have in to play on: the highest live commitment, and
        pre-flop at least the level's big blind whatever its poster could put in (a big
        blind all-in for 20 at 15/30 leaves the price at 30, and a small blind of 15
        facing it still owes 15: docs/semantics.md, "The level's big blind is the price")."""
        return max(self.current_bet, self.bet_floor)

    def _due_from(self, start: int) -> tuple[list[SeatState], bool]:
        """The seats that still need to act, in turn order from clockwise position
        ``start``, and whether any betting is possible at all: two players still in,
        and two with chips, or one with chips who faces a bet.  It runs at every
        action, so it is one pass over the seats."""
        bet = self._price()
        live = 0
        able: list[SeatState] = []
        due: list[SeatState] = []
        for s in self.order[start:] + self.order[:start]:
            if s.folded:
                continue
            live += 1
            if s.all_in:
                continue
            able.append(s)
            if not s.acted or s.street_in < bet:
                due.append(s)
        possible = live >= 2 and (len(able) > 1 or (len(able) == 1 and able[0].street_in < bet))
        return due, possible

    def _next_after(self, after: SeatState | None) -> tuple[SeatState | None, list[SeatState]]:
        """The first seat after ``after`` (None: from the button's left) who needs to
        act, or None when no betting is possible, and the seats due from him on."""
        due, possible = self._due_from(0 if after is None else after.order + 1)
        if not possible or not due:
            return None, []
        # nobody between ``after`` and due[0] needs to act, so ``due`` is also the list
        # in turn order from due[0]
        return due[0], due

    # --- streets ---------------------------------------------------------------------
    def _bet_size(self) -> int:
        """Fixed-limit bet of the current street: small bet early, big bet late."""
        if self.stud_big_fourth:
            return self.limit_big  # a big bet was made on fourth street over an open pair
        return self.limit_small if self.street_idx < self.late_street else self.limit_big

    def _open_pair_on_fourth(self) -> bool:
        """Stud: an exposed pair on fourth street lets any player bet the big bet."""
        if self.family != "stud" or self.street_idx != 1 or self.variant == "razz":
            return False
        for s in self.order:
            ranks = [c[0] for c in s.upcards]
            if not s.folded and len(ranks) != len(set(ranks)):
                return True
        return False

    def _open_street(self, name: str) -> None:
        if self.street is not None:
            self._close_street()
        self.street = name
        self.street_idx = self.streets.index(name)
        self.current_bet = self.bets_raises = self.bet_floor = self.full_level = 0
        for s in self.order:
            s.street_in = 0
            s.acted = False
            s.level_acted = 0
            s.full_raises_since = 0
            s.unjudged_raises_since = 0
            s.dead_small_blind = 0  # only a pre-flop call can show it was played live
        if self.betting == "fixed-limit":
            self.last_full = self._bet_size()
        else:
            self.last_full = self.min_bet or self.unit
        self.last_actor = None
        self.voluntary_seen = False
        self.blind_posters = []
        self.stud_big_fourth = False
        u = self.seatless
        self.turn_unknown = u is not None and not u.folded and not u.all_in

    def _close_street(self) -> None:
        """The unmatched part of the street's largest commitment is uncalled and
        goes back (2019 Rule 15-B)."""
        if not self.order:
            return
        top = max(self.order, key=lambda s: s.street_in)
        second = max((s.street_in for s in self.order if s is not top), default=0)
        if top.street_in > second:
            top.returned_expected += top.street_in - second

    # --- the replay ------------------------------------------------------------------
    def run(self) -> HandFacts:
        if not supported(self.variant):
            self._note(None, "unsupported-variant", f"no hand evaluator for variant {self.variant}")
        for e in self.events:
            kind, street = e.kind, e.street
            # most events are on the current street: that test first
            if street != self.street and street in self.streets and (kind in VOLUNTARY or kind in FORCED or kind.startswith("deal")
                                                                     or kind == "disconnect_all_in"):
                if self.street is None or self.streets.index(street) > self.street_idx:
                    self._open_street(street)
            s = self.seats.get(e.seat)  # None: no seat, or a seat not in the hand
            if s is not None and s.seatless and e.player != s.player:
                s = None  # a seatless event of another player (a second one is not followed)
            if kind in FORCED or kind in VOLUNTARY:
                if s is None:
                    self._note(e.seq, "unfollowable", f"{kind} by seat {e.seat}, who is not in the hand")
                    continue
                if self.street is None:
                    self._open_street(self.streets[0])
                (self._forced if kind in FORCED else self._voluntary)(e, s)
            elif kind == "deal_hole" and s is not None:
                new = split_cards(e.cards)
                s.cards.extend(c for c in new if "?" not in c)
                if self.family == "stud":
                    # third street: the last of the three cards (or the only one shown) is up;
                    # fourth to sixth: up; seventh: down (5-card stud: second street's last card, then all up)
                    if street == self.streets[0]:
                        s.upcards.extend(new[-1:])
                    elif street != "seventh" and street in self.streets:
                        s.upcards.extend(new)
            elif kind == "deal_board":
                cards = split_cards(e.cards)
                run_no = e.run
                if run_no == 1:
                    # Courchevel's flop line repeats the card exposed pre-flop: a card is on the board once
                    cards = [c for c in cards if c not in self.board]
                    self.board.extend(cards)
                elif run_no > self.runs:
                    self.runs = run_no
                self.board_events.append((self.streets.index(street) if street in self.streets else -1, run_no, cards))
            elif kind == "draw" and s is not None:
                for c in split_cards(e.cards):
                    if c in s.cards:
                        s.cards.remove(c)
            elif kind == "show" and s is not None:
                s.shown, s.mucked = e.cards, False
            elif kind == "muck" and s is not None and s.shown is None:
                s.mucked = True
            elif kind == "uncalled_return" and s is not None:
                s.returned_recorded += e.amount or 0
                s.returned_line = e.line_no
                self.return_lines = True
            elif kind == "total_pot":
                self.total_pot = e
            elif kind == "house_added":
                self.house_added += e.amount or 0
            elif kind == "collect" and s is not None:
                s.collected += e.amount or 0
                self.collects.append(e)
                if e.run != 1:
                    self.later_run_collects = True
            elif kind == "finishing_stack" and s is not None:
                s.finishing_stack = e.amount
            elif kind == "winnings" and s is not None:
                s.winnings = e.amount
            elif kind == "cash_out" and s is not None:
                self.cashed_out.add(s.seat)
            elif kind == "disconnect_all_in" and s is not None:  # rare: last
                self._disconnect_all_in(s)
        if self.hand.record_cut is not None:
            # the record stops early: every recorded action is judged, but how the hand went
            # on is not known, so no return, pot, award or end stack is recorded for it
            self._sa_windows()
            return self.facts
        if self.street is not None:
            self._close_street()
        self._settle()
        self._sa_windows()
        return self.facts

    def _sa_windows(self) -> None:
        """Each decision's ``sa_after_seq``: the action in turn after it that completed
        substantial action (Rule 36), counted from the next action on."""
        if not self.facts.decisions:
            return
        seqs = [q for q, _ in self.in_turn]
        out = []
        for row in self.facts.decisions:
            start = bisect_right(seqs, row[1])
            done = None
            chips = False
            for n, (q, c) in enumerate(self.in_turn[start:], 1):
                chips = chips or c
                if n >= 3 or (n == 2 and chips):
                    done = q
                    break
            out.append(row[:-1] + (done,))
        self.facts.decisions = out

    # --- forced bets -----------------------------------------------------------------
    def _forced(self, e: Event, s: SeatState) -> None:
        amt = e.amount or 0
        kind = e.kind
        s.stack -= amt
        s.total_in += amt
        if s.stack_known:
            s.all_in = s.all_in or s.stack <= 0
        else:  # his stack is unknown: all-in when his line says so
            s.all_in = s.all_in or e.all_in
        self._mark_capped(s)
        if s.seatless:  # his posts make the turn unknown
            self.turn_unknown = True
        self.pot += amt
        if kind == "ante":
            if self.hand.bb_ante:
                s.table_ante += amt
            return
        if kind == "dead_blind":
            # "posts small & big blinds": the big-blind part is live, the rest is dead
            # (in the pot, in nobody's street commitment)
            amt = min(amt, self.big_blind or amt)
        elif kind == "small_blind" and small_blind_out_of_position(
                [(k, p.order) for k, p in self.blind_posters], s.order, s.seat, self.hand.button_seat, len(self.order)):
            # a small blind posted out of position (a player entering or returning after
            # missing it) is dead: it does not count toward the poster's call
            s.dead_small_blind += amt
            self.blind_posters.append(("dead_small_blind", s))
            return
        s.street_in += amt
        self.current_bet = max(self.current_bet, s.street_in)
        if kind == "straddle":
            # a blind bet of the straddler's whole commitment (a re-straddle adds to it)
            self.last_full = max(self.last_full, s.street_in)
            self.bet_floor = max(self.bet_floor, s.street_in)
        elif kind == "small_blind" and self.big_blind:
            # the big blind is the pre-flop bet even when its player could not post it
            self.bet_floor = max(self.bet_floor, self.big_blind)
            self.small_blind_live += amt
        elif kind in ("big_blind", "dead_blind"):
            if kind == "big_blind" and self.big_blind_live is None:
                self.big_blind_live = amt  # the positional big blind posts first; an entering player's after
            self.bet_floor = max(self.bet_floor, self.big_blind or amt)
            self.bets_raises = max(self.bets_raises, 1)  # the big blind is the round's opening bet (51-B)
        elif kind == "bring_in":
            self.last_full = self.hand.small_bet or self.last_full
        self.full_level = max(self.full_level, self.bet_floor)
        self.blind_posters.append((kind, s))

    def _start_of_round(self) -> SeatState | None:
        """The seat action starts after, before anyone has acted voluntarily."""
        straddles = [s for k, s in self.blind_posters if k == "straddle"]
        if straddles:
            return straddles[-1]
        bring = [s for k, s in self.blind_posters if k == "bring_in"]
        if bring:
            return bring[-1]
        # the positional big blind: the big-blind poster nearest the button's left
        # (a player entering the game may post a big blind out of position)
        bbs = [s for k, s in self.blind_posters if k == "big_blind"]
        if bbs:
            return min(bbs, key=lambda s: s.order)
        sbs = [s for k, s in self.blind_posters if k == "small_blind"]
        if sbs and len(self.order) > 2:
            # no big blind posted (its player was all-in from the ante): the big-blind
            # position is still the seat after the small blind, and action starts after it
            return self.order[(min(sbs, key=lambda s: s.order).order + 1) % len(self.order)]
        return None

    # --- voluntary actions -----------------------------------------------------------
    def _upcards_unknown(self) -> bool:
        """Stud: a seat still in whose upcards on this street the history does not show
        (one up on third street, one more on each street to sixth; seventh's is down;
        a card written '??' is not shown)."""
        up = min(self.street_idx, 3) + 1
        return any(not s.folded and not s.seatless and sum("?" not in c for c in s.upcards) < up for s in self.order)

    def _turn(self) -> tuple[SeatState | None, list[SeatState] | None]:
        """Who is expected to act now, and every seat still due to act, in turn order
        from him (the expected actor heads the list unless he needs no action); the
        list is None when the turn is not known (a stud street whose first actor hangs
        on upcards the history does not show)."""
        if self.voluntary_seen:
            return self._next_after(self.last_actor)
        start = self._start_of_round()
        if start is not None:
            return self._next_after(start)
        if self.family == "stud":
            if self._upcards_unknown():
                # the first actor is the lowest upcard (no bring-in recorded) or the best
                # exposed hand, and the history does not show every live seat's upcards
                # (PartyPoker writes only the hero's, Winamax's play-money export none):
                # who was due is not known, so nothing is judged (to_act NULL).  The next
                # actions are judged clockwise from whoever acted first.
                return None, None
            cands = [s for s in self.order if self._can_act(s) and s.upcards]
            razz = self.variant == "razz"
            if cands and self.street_idx == 0:
                # no bring-in recorded: the lowest upcard (razz: highest) acts first
                first = min(cands, key=lambda s: bring_in_key(s.upcards[-1], razz=razz))
                return first, self._due_from(first.order)[0]
            if cands:
                # fourth street on: the best exposed hand acts first (razz: the lowest)
                first = max(cands, key=lambda s: showing_key(s.upcards, razz=razz))
                if self._needs_action(first):
                    return first, self._due_from(first.order)[0]
                return self._next_after(first)
        return self._next_after(None)

    def _may_raise(self, s: SeatState) -> tuple[bool | None, str]:
        """Is betting open for ``s`` to raise (2019 Rule 47)?  None: not known (a short
        raise since he acted may have been a full one: it needs a stack not recorded)."""
        if not s.acted:
            return True, "not-yet-acted"
        if s.full_raises_since:
            return True, "reopened-by-full-raise"
        facing = self.current_bet - s.level_acted
        if facing <= 0:
            return False, "no-raise-since-acted"
        if s.unjudged_raises_since:
            return None, "reopening-unjudged"
        if self.betting == "fixed-limit":
            if not self.rules.limit_half_raise_reopens:
                return True, "limit-allin-reopens"  # 2011: no limit clause
            if facing * 2 >= self.last_full:  # 47-B: at least 50% of a full bet
                return True, "reopened-by-half-bet"
            return False, "short-allin-not-reopened"
        if self.rules.cumulative_short_allins_reopen and facing >= self.last_full:
            return True, "reopened-by-short-allins"  # 47-A: cumulative short all-ins
        return False, "short-allin-not-reopened"

    def _limits(self, s: SeatState) -> tuple[int, int]:
        """(min_raise_to, max_raise_to) for the actor now.  The minimum is the nominal
        one (an all-in for less is allowed but is not a full raise); the maximum is
        capped at the actor's all-in."""
        level = max(self.current_bet, self.bet_floor)
        # no stack recorded (no seat line, or PHH's ``inf``): the limits are the structure's, not capped by an all-in
        reach = s.street_in + s.stack if s.stack_known else 1 << 62
        if self.cap is not None:  # a capped table: no more than the cap left to put in
            reach = min(reach, s.street_in + max(0, self.cap - s.total_in))
        if self.betting == "fixed-limit":
            b = self._bet_size()
            small = self.hand.small_bet or b
            if self.family == "stud" and self.street_idx == 0 and self.current_bet < small:
                lo = hi = small  # completing the bring-in
            else:
                # a short all-in may be completed to the full level or raised a full bet on top of it
                lo = self.full_level + b
                hi = max(level + b, lo)
                if self._open_pair_on_fourth() and not self.stud_big_fourth and self.current_bet == 0:
                    hi = self.hand.big_bet or hi
            return lo, min(hi, reach)
        lo = level + self.last_full if level > 0 else max(self.last_full, self.min_bet)
        if self.betting == "pot-limit" or self.betting == "pot-limit-preflop" and self.street_idx == 0:
            # raise to: the bet level plus the pot after calling (2019 Rule 54); pre-flop a
            # short all-in big blind counts as a full blind (54-B): what its poster could not
            # put in is added to the pot, a big blind all-in for no more than the small blind
            # included.  2017/2019 for the bet over the blinds; 2024 for the re-pots after it
            # too ("All pre-flop pot and re-pot bets will assume full blinds were posted")
            phantom = 0
            if self.street_idx == 0 and self.bet_floor and (self.rules.pot_limit_assumes_full_blinds
                                                             or self.current_bet <= self.bet_floor):
                # (bet_floor: blinds are in play; the straddle's excess over the big blind is no phantom)
                phantom = max(0, self.big_blind - (self.big_blind_live or 0))
            if self.street_idx == 0 and self.rules.pot_limit_assumes_full_blinds:
                # 2024 54-B: a dead or short small blind counts as posted in full too
                phantom += max(0, self.small_blind - self.small_blind_live)
            # money the house added is in the pot (GGPoker's cash drop counts in its pot-sized
            # raises; Run It Once's, whose raises leave its splash out, stay under the limit)
            hi = level + self.pot + self.house_added + phantom + (level - s.street_in)
        else:
            hi = reach
        return lo, min(hi, reach)

    def _voluntary(self, e: Event, s: SeatState) -> None:
        kind = e.kind
        if s.seatless:
            self.turn_unknown = True
        expected: SeatState | None
        to_act: list[int | None] | None
        if self.turn_unknown:
            # a player with no seat line is in the round: nobody's turn can be known
            # (to_act NULL says so; out-of-turn judges no such decision)
            expected, to_act = None, None
        else:
            expected, due = self._turn()
            to_act = None if due is None else [x.seat for x in due]
        status = "folded" if s.folded else "all_in" if s.all_in else "active"
        current_before = self.current_bet
        # the amount to call is the price: pre-flop the level's big blind at least, even where
        # its poster is all-in short (a call of what he put in stands too: see the call below)
        to_call = max(0, self._price() - s.street_in)
        facing = max(0, current_before - s.street_in)  # what a live commitment in front asks of him
        min_to: int | None = None
        max_to: int | None = None
        may: bool | None = None  # None: betting-unrecorded, or reopening-unjudged
        why = "betting-unrecorded"
        last_full_before: int | None = None
        if self.structure_known:
            min_to, max_to = self._limits(s)
            if not s.stack_known and self.betting == "no-limit":
                max_to = None  # the no-limit maximum is his stack, which is not recorded
            may, why = self._may_raise(s)
            last_full_before = self.last_full
        stack_before: int | None = s.stack if s.stack_known else None
        in_before, pot_before = s.street_in, self.pot
        count_before = self.bets_raises
        amount_to: int | None = None

        if kind == "fold":
            s.folded = True
            cls = "fold"
        elif kind == "check":
            # a check facing no live chip (a small blind level with, or above, a short all-in big
            # blind) checks no bet: the rest of the blind is what he owes to play on, not a bet
            cls = "check-facing-bet" if facing > 0 else "check"
        elif kind == "call":
            # a call the record gives no amount for (PHH's cc) matches the live chips in front, as
            # the format's own arithmetic (pokerkit's) does
            add = e.amount if e.amount is not None else min(facing, s.stack) if s.stack_known else facing
            if s.dead_small_blind and s.street_in + add < self.current_bet == s.street_in + add + s.dead_small_blind:
                # the recorded call only matches the bet with the out-of-position small
                # blind counted live: this history (house) played it live
                s.street_in += s.dead_small_blind
                s.dead_small_blind = 0
            self._put(s, add, e.all_in)
            amount_to = s.street_in
            if s.street_in == self.current_bet:
                cls = "call"
            elif s.street_in < self.current_bet:
                if s.all_in:
                    cls = "call-allin-short"
                else:
                    # with no stack recorded, a short call not written all-in is not judged
                    cls = "call-short-unjudged" if not s.stack_known else "undercall"
            elif s.street_in <= self._price():
                # facing a short all-in big blind, calling up to the level's big blind is a call
                # (the TDA is silent on the amount: PokerStars takes the full blind, Bovada
                # heads-up and PHH the short blind's amount; docs/semantics.md)
                cls = "call"
                self.current_bet = s.street_in
            else:
                cls = "overcall"
                self.current_bet = s.street_in
        else:  # bet, raise, complete
            to = e.to_amount if e.to_amount is not None else s.street_in + (e.amount or 0)
            self._put(s, to - s.street_in, e.all_in)
            amount_to = to
            if min_to is not None and (max_to is not None or not s.stack_known):
                cls = self._classify_aggressive(kind, s, to, min_to, max_to)
            else:
                # its size cannot be judged without the structure: the class says so
                cls = f"{kind}-unjudged"
            self._apply_raise(s, to, cls)

        s.acted = True
        s.level_acted = s.street_in
        s.full_raises_since = 0
        s.unjudged_raises_since = 0
        sa_before = substantial(self.in_turn)
        if expected is None or s is expected:
            # an action out of turn does not move the turn: the skipped players are
            # still due, in order, from where the action really was
            self.last_actor = s
            self.voluntary_seen = True
            self.in_turn.append((e.seq, s.street_in > in_before))
        self.facts.decisions.append((
            self.hid, e.seq, self.ed, e.street, s.seat, s.player, kind,
            expected.seat if expected else None, to_act, status, to_call, current_before,
            min_to, max_to, may, why, last_full_before, count_before, self.raise_cap,
            stack_before, in_before, s.stack if s.stack_known else None, s.street_in, pot_before, amount_to, cls, e.line_no,
            sa_before, None,
        ))

    def _put(self, s: SeatState, add: int, says_all_in: bool) -> None:
        s.stack -= add  # the seatless player's is never read nor recorded
        s.street_in += add
        s.total_in += add
        # a stack not recorded (the seatless player's, PHH's ``inf``): all-in when his line says
        # so; a player the site played all in with chips behind stays all in
        s.all_in = s.all_in or (s.stack <= 0 if s.stack_known else says_all_in)
        self._mark_capped(s)
        self.pot += add

    def _disconnect_all_in(self, s: SeatState) -> None:
        """The site plays a disconnected player as all in for what he has put in, his chips
        behind kept (WPN's disconnect protection; the TDA has no rule for it: a house
        policy, docs/semantics.md).  From here he is all in as any other: he takes no
        further action, nobody waits on him, a bet he has not matched is not his to call,
        and the pots form from the contributions, so he stays eligible for those he has put
        chips in and keeps his stack.  No decision is recorded: he made none (the
        disconnect-all-in check names the event)."""
        s.all_in = True

    def _classify_aggressive(self, kind: str, s: SeatState, to: int, min_to: int, max_to: int | None) -> str:
        opening = max(self.current_bet, self.bet_floor) == 0
        if kind == "complete":
            ok = "complete"
        else:
            ok = "bet" if opening else "raise"
        if max_to is not None and to > max_to and self.betting != "no-limit":
            return "over-limit"
        if to >= min_to:
            return ok
        if s.all_in:
            return "bet-allin-short" if opening else "raise-allin-short"
        # a raise that already puts every opponent who can still act all-in is not an
        # underraise: the excess is simply uncalled (docs/semantics.md)
        others = [o for o in self.order if o is not s and self._can_act(o)]
        if not s.stack_known or any(not o.stack_known for o in others):
            # whether the short wager was all the actor had, or covers an opponent whose
            # stack is not recorded, depends on a stack the record does not give
            return f"{kind}-unjudged"
        if not others or all(o.street_in + self._behind(o) <= to for o in others):
            return ok
        return "underbet" if opening else "underraise"

    def _mark_capped(self, s: SeatState) -> None:
        """At a capped table, a player who has put in the cap is all in for the betting, his
        chips behind kept."""
        if self.cap is not None and s.total_in >= self.cap:
            s.all_in = True

    def _behind(self, s: SeatState) -> int:
        """What ``s`` may still put in: his stack, and at a capped table no more than
        what the cap leaves him."""
        if self.cap is None:
            return s.stack
        return min(s.stack, max(0, self.cap - s.total_in))

    def _apply_raise(self, s: SeatState, to: int, cls: str) -> None:
        level = max(self.current_bet, self.bet_floor)
        increment = to - level
        if to > self.current_bet:
            self.bets_raises += 1  # short all-ins count toward the limit cap (47-B)
        if self.betting == "fixed-limit":
            if self._open_pair_on_fourth() and self.current_bet == 0 and to > self._bet_size():
                self.stud_big_fourth = True
                self.last_full = self._bet_size()
            # full when it adds a whole bet to the last full level: the stud completion
            # of a bring-in is the round's full bet (43-A)
            full = to - self.full_level >= self.last_full
            if full:
                self.full_level = to
        else:
            full = cls in ("bet", "raise", "complete", "over-limit") and increment >= self.last_full
            if full:
                # an underraise that stood, or a short all-in, sets no new increment (43, 47-A)
                self.last_full = increment
        if full:
            for o in self.order:
                if o is not s:
                    o.full_raises_since += 1
        elif cls.endswith("-unjudged") and to > self.current_bet:
            # a short wager whose fullness needs a stack not recorded: whether it reopened is not known
            for o in self.order:
                if o is not s:
                    o.unjudged_raises_since += 1
        self.current_bet = max(self.current_bet, to)

    def _note(self, seq, code, msg) -> None:
        self.facts.notes.append((self.hid, self.ed, seq, code, msg))

    # --- settlement ------------------------------------------------------------------
    def _build_pots(self) -> list[Pot]:
        """Main and side pots from contributions net of the uncalled chips the rules
        return (2019 Rule 21: each pot apart).  Every all-in level starts a new pot,
        also that of a player who then folded (as sites label their pots)."""
        # a big-blind ante is the table's dead money: it goes to the main pot and sets no
        # all-in level (2019 RP-11); per-player antes count toward each player's level
        net = {s.seat: s.total_in - s.returned_expected - s.table_ante for s in self.order}
        live = [s for s in self.order if not s.folded]
        top = max((net[s.seat] for s in live), default=max(net.values(), default=0))
        levels = sorted({net[s.seat] for s in self.order if s.all_in and net[s.seat] < top} | {top})
        pots: list[Pot] = []
        table_ante = sum(s.table_ante for s in self.order)
        if table_ante and any(s.table_ante > 0 and s.all_in and net[s.seat] <= 0 for s in live):
            # its payer all in on the ante alone (no live blind): the dead ante is a main pot
            # of its own, which he and every player still in can win (the sites pay him the
            # antes); the live chips make the side pots
            pots.append(Pot(0, table_ante, [s.seat for s in self.order if s.table_ante], [s.seat for s in live]))
            table_ante = 0
        prev = 0
        for lvl in levels:
            if lvl <= prev:
                continue
            # the top pot also takes what folded players put in above the last live level
            cap = lvl if lvl < top else max(net.values())
            amount = sum(min(v, cap) - min(v, prev) for v in net.values())
            eligible = [s.seat for s in live if not s.all_in or net[s.seat] >= lvl]
            contributors = [s.seat for s in self.order if net[s.seat] > prev]
            if not eligible and pots:
                pots[-1].amount += amount
            else:
                pots.append(Pot(len(pots), amount, contributors, eligible))
            prev = lvl
        if table_ante:
            if pots:
                pots[0].amount += table_ante
            else:
                pots.append(Pot(0, table_ante, [s.seat for s in self.order if s.table_ante], [s.seat for s in live]))
        # dead money (antes) nobody else matched: a pot only its one contributor put
        # chips in goes back to him, as an uncalled bet does (docs/semantics.md)
        while pots and len(pots[-1].contributors) == 1 and pots[-1].eligible == pots[-1].contributors:
            lone = self.seats[pots[-1].contributors[0]]
            lone.returned_expected += pots.pop().amount
        # an uncontested hand has one pot, whatever all-in levels it passed
        if len(pots) > 1 and all(p.eligible == pots[0].eligible and len(p.eligible) == 1 for p in pots):
            contributors = sorted({x for p in pots for x in p.contributors}, key=lambda x: self.seats[x].order)
            pots = [Pot(0, sum(p.amount for p in pots), contributors, pots[0].eligible)]
        # money the house added is in the pot before anyone acts: the main pot's, which every
        # player still in can win; never a lone contributor's to take back (added after that)
        if self.house_added:
            if pots:
                pots[0].amount += self.house_added
            else:
                pots.append(Pot(0, self.house_added, [], [s.seat for s in live]))
        return pots

    def _tabled(self, s: SeatState) -> list[str] | None:
        """The cards a seat has tabled (or that are known face up), or None."""
        if s.mucked:
            return None
        cards = split_cards(s.shown) if s.shown else s.cards
        cards = [c for c in cards if "?" not in c]
        need = HOLE_COUNT.get(self.variant)
        if self.variant == "irish" and len(cards) != need:
            return None  # four known and no discard recorded: which two he kept is not known
        if need is not None:
            return cards[:need] if len(cards) >= need else None
        if self.variant == "badugi":
            return cards if len(cards) >= 4 else None
        return cards if len(cards) >= 5 else None

    def _run_boards(self) -> dict[int, list[str]]:
        """Each run's board: the cards dealt before the runs parted (recorded as run 1's,
        on the streets before the first street another run has cards on), then the run's
        own cards.  A hand run once has one board."""
        if self.runs == 1:
            return {1: self.board}
        parted = min(idx for idx, run_no, _ in self.board_events if run_no > 1)
        shared = [c for idx, run_no, cards in self.board_events if run_no == 1 and idx < parted for c in cards]
        return {r: shared + [c for idx, run_no, cards in self.board_events if run_no == r and idx >= parted for c in cards]
                for r in range(1, self.runs + 1)}

    def _run_amounts(self, amount: int) -> list[int]:
        return run_amounts(amount, self.runs, self.unit)

    def _evaluate(self, seats: list[SeatState], cards_on_board: list[str] | None = None) -> dict[SeatNo, Any]:
        board = " ".join(self.board if cards_on_board is None else cards_on_board) if HOLE_COUNT.get(self.variant) else ""
        out = {}
        for s in seats:
            cards = self._tabled(s)
            if cards is None:
                continue
            try:
                ev = best_hands(self.variant, " ".join(cards), board)
            except (ValueError, KeyError) as exc:
                self._note(None, "unknown-cards", f"seat {s.seat}: cannot evaluate {cards}: {exc}")
                continue
            if ev.hi_hand is not None:  # None: too few cards known (e.g. the board was not run out)
                out[s.seat] = ev
        return out

    def _point_cards_decide(self, contenders: list[SeatState], evals: dict, board: list[str]) -> bool:
        """Double Hold'em: do the tabled cards decide the winners whatever point card each
        player chose (the history does not say which)?  Each hand lies between the weakest a
        point card leaves on ``board`` (``point_card_weakest``) and the strongest (``evals``):
        decided when one player's weakest beats every other's strongest, or when every player
        who could win holds the same hand whatever his point card."""
        table = " ".join(board)
        low: dict[SeatNo, int | None] = {}
        for x in contenders:
            cards = self._tabled(x)
            low[x.seat] = point_card_weakest(" ".join(cards), table) if cards is not None else None
        if any(v is None for v in low.values()):
            return False
        floor = max(cast(int, v) for v in low.values())
        could = [x.seat for x in contenders if evals[x.seat].hi_rank is not None and evals[x.seat].hi_rank >= floor]
        return len(could) == 1 or all(evals[seat].hi_rank == low[seat] == floor for seat in could)

    def _priority(self, winners: list[SeatNo], evals: dict, half: str) -> list[SeatNo]:
        """Who receives odd chips first (2019 Rule 20): board and draw games, the first
        seat left of the button; stud and razz, the high card by suit in the winning
        5-card hand (2011: in the whole hand)."""
        if self.family != "stud":
            return sorted(winners, key=lambda x: self.seats[x].order)
        ace_low = half == "lo" or self.variant in ACE_LOW_VARIANTS

        def key(seat: SeatNo):
            ev = evals.get(seat)
            hand = (ev.lo_hand if half == "lo" else ev.hi_hand) if ev else None
            if hand is not None and self.rules.stud_odd_chip_from_best_five:
                cards = hand_cards(hand)
            else:
                cards = self._tabled(self.seats[seat]) or []
            return max((card_key(c, ace_low=ace_low) for c in cards), default=(-9, -9))

        return sorted(winners, key=key, reverse=True)

    def _split(self, amount: int, order: list[SeatNo]) -> dict[SeatNo, tuple[int, int]]:
        """Split ``amount`` among ``order`` as evenly as possible in whole chips; the
        odd chips go one each in ``order``.  Returns seat -> (share, odd chips)."""
        units, k = amount // self.unit, len(order)
        base, odd = divmod(units, k)
        return {seat: ((base + (i < odd)) * self.unit, self.unit * (i < odd)) for i, seat in enumerate(order)}

    def _settle(self) -> None:
        pots = self._build_pots()
        recorded, attributable = self._recorded_by_pot(pots)
        expected_won: dict[SeatNo, int | None] = {s.seat: 0 for s in self.order}
        boards = self._run_boards()
        for pot in pots:
            elig = [self.seats[x] for x in pot.eligible]
            if self.runs > 1 and len(elig) > 1:
                # run it twice: each run wins its share of the pot on its own board
                for run_no, amount in enumerate(self._run_amounts(pot.amount), 1):
                    self._settle_pot(pot, run_no, amount, elig, boards[run_no], recorded.get((pot.index, run_no), {}),
                                     attributable, expected_won)
            else:
                # one board, or a pot only one player can win (no run decides it): whatever
                # the history collected from it, in any run, is the pot's
                pot_recorded: dict[int | None, tuple[int, int | None]] = recorded.get((pot.index, 1), {})
                if self.later_run_collects:
                    pot_recorded = dict(pot_recorded)
                    for (index, run_no), by_seat in sorted(recorded.items()):
                        if index != pot.index or run_no == 1:
                            continue
                        for seat, (amt, line) in by_seat.items():
                            so_far, first = pot_recorded.get(seat, (0, None))
                            pot_recorded[seat] = (so_far + amt, first or line)
                self._settle_pot(pot, 1, pot.amount, elig, boards[1], pot_recorded, attributable, expected_won)
        self._hand_results(expected_won)

    def _settle_pot(self, pot: Pot, run_no: int, amount: int, elig: list[SeatState], board: list[str],
                    pot_recorded: dict[int | None, tuple[int, int | None]], attributable: bool,
                    expected_won: dict[SeatNo, int | None]) -> None:
        """One pot (or one run's share of it): its winners on ``board``, the rules' award
        and the history's, as pots and pot_shares rows."""
        label = "main" if pot.index == 0 else f"side-{pot.index}"
        evals = self._evaluate(elig, board) if len(elig) > 1 else {}
        hi_w: list[SeatNo] | None
        lo_w: list[SeatNo] | None = None
        note = None
        shares: dict[SeatNo, tuple[int, int]] = {}
        if len(elig) == 1:
            hi_w, verified = [elig[0].seat], True
            lo_w = [] if self.variant in HILO_VARIANTS else None
            shares = {elig[0].seat: (amount, 0)}
        else:
            unknown = [x.seat for x in elig if x.seat not in evals and not x.mucked]
            contenders = [x for x in elig if x.seat in evals]
            if unknown or not contenders:
                hi_w, verified = None, False
                note = f"hands of seats {unknown} not tabled" if unknown else "no hand tabled"
            elif self.variant == "double_holdem" and not self._point_cards_decide(contenders, evals, board):
                hi_w, verified = None, False
                note = "Double Hold'em: the point cards are not recorded, and the winner depends on them"
            else:
                verified = True
                hi_w = self._best(contenders, evals, "hi")
                if self.variant in HILO_VARIANTS:
                    lo_w = self._best(contenders, evals, "lo")
                shares = self._pot_shares(amount, hi_w, lo_w, evals)
                if None in shares and self.family != "stud" and any(odd for _, odd in shares.values()):
                    # the odd chip goes by seat order, and the seat of the player with no seat
                    # line is not recorded: this pot's award cannot be known
                    verified, shares = False, {}
                    note = "odd chip: a winner has no seat line, so the first seat left of the button is not known"
        self.facts.pots.append((
            self.hid, self.ed, pot.index, run_no, label, amount, pot.contributors, pot.eligible,
            len(elig) > 1, hi_w, lo_w, verified, note,
        ))
        for s in self.order:
            if s.seat not in pot.contributors and s.seat not in shares and s.seat not in pot_recorded:
                continue
            exp = shares.get(s.seat, (0, 0)) if verified else (None, None)
            if exp[0] is None:
                if s.seat in pot.eligible:
                    expected_won[s.seat] = None
            elif (so_far := expected_won[s.seat]) is not None:
                expected_won[s.seat] = so_far + exp[0]
            rec = pot_recorded.get(s.seat, (0, None)) if attributable else (None, None)
            if s.seat in self.cashed_out and s.collected == 0:
                rec = (None, None)  # cashed out, and paid nothing from the pots: his share went to the house
            ev = evals.get(s.seat)  # the pot's evaluation: only its eligible seats, when contested
            value = (ev.hi + (f"; low {ev.lo}" if ev.lo else "")) if ev and ev.hi else None
            self.facts.pot_shares.append((
                self.hid, self.ed, pot.index, run_no, s.seat, s.seat in pot.eligible, exp[0], exp[1], rec[0], value, rec[1],
            ))

    def _best(self, contenders: list[SeatState], evals: dict, half: str) -> list[SeatNo]:
        # compare the ranks, not the pokerkit hands: same order, no lookups per comparison
        vals = [(x.seat, evals[x.seat].hi_rank if half == "hi" else evals[x.seat].lo_rank) for x in contenders]
        vals = [(seat, v) for seat, v in vals if v is not None]
        if not vals:
            return []
        best = max(v for _, v in vals)
        return [seat for seat, v in vals if v == best]

    def _pot_shares(self, amount: int, hi_w: list[SeatNo], lo_w: list[SeatNo] | None, evals: dict) -> dict[SeatNo, tuple[int, int]]:
        if not lo_w:  # no qualifying low (or not a hi/lo game): high takes all
            return self._split(amount, self._priority(hi_w, evals, "hi"))
        if self.rules.identical_hands_split_evenly and set(hi_w) == set(lo_w):
            # 20-D: identical hands winning both halves split the pot as evenly as possible
            return self._split(amount, self._priority(hi_w, evals, "hi"))
        units = amount // self.unit
        hi_amt = (units - units // 2) * self.unit  # 20-C: the odd chip of the total pot goes high
        out: dict[SeatNo, list[int]] = {}
        for half, winners, amt in (("hi", hi_w, hi_amt), ("lo", lo_w, amount - hi_amt)):
            for seat, (share, odd) in self._split(amt, self._priority(winners, evals, half)).items():
                acc = out.setdefault(seat, [0, 0])
                acc[0] += share
                acc[1] += odd
        return {seat: (v[0], v[1]) for seat, v in out.items()}

    def _recorded_by_pot(self, pots: list[Pot]) -> tuple[dict[tuple[int, int], dict[int | None, tuple[int, int | None]]], bool]:
        """What the history says each seat collected from each pot, in each run: keyed
        by (pot index, run)."""
        rec: dict[tuple[int, int], dict[int | None, tuple[int, int | None]]] = {}
        if not self.records_returns:  # PHH: only stack outcomes; attributable when one pot
            if len(pots) == 1:
                # some converters (HandHQ's of PartyPoker) count a player's uncalled chips in
                # his winnings: where the winnings exceed the pot and each seat's uncalled
                # chips are in his, they are those chips back, and the rest is from the pot
                won_all = [s.winnings for s in self.order if s.finishing_stack is None and s.winnings is not None]
                counts_returns = sum(won_all) > pots[0].amount and all(
                    (s.winnings or 0) >= s.returned_expected for s in self.order if s.returned_expected)
                for s in self.order:
                    won = self._won_recorded_phh(s)
                    if won and counts_returns and s.finishing_stack is None:
                        won -= s.returned_expected
                    if won:
                        rec.setdefault((0, 1), {})[s.seat] = (won, None)
                return rec, any(s.finishing_stack is not None or s.winnings is not None for s in self.order)
            return rec, False
        n_side = len(pots) - 1
        for e in self.collects:
            label = e.pot_label or "pot"
            if label == "main" or (label == "pot" and len(pots) == 1):
                idx = 0
            elif label == "side" and n_side == 1:
                idx = 1
            elif label.startswith("side-") and label[5:].isdigit() and int(label[5:]) <= n_side:
                idx = int(label[5:])
            else:
                self._note(e.seq, "collect-not-attributable",
                           f"collect from {label!r} cannot be matched to one of {len(pots)} computed pots")
                return {}, False
            by_seat = rec.setdefault((idx, e.run), {})
            amt, line = by_seat.get(e.seat, (0, None))
            by_seat[e.seat] = (amt + (e.amount or 0), line or e.line_no)
        return rec, True

    def _won_recorded_phh(self, s: SeatState) -> int | None:
        if s.finishing_stack is not None and s.stack_known:
            return s.finishing_stack - (s.start - s.total_in + s.returned_expected)
        return s.winnings

    def _inferred_return(self) -> tuple[str, str | None] | None:
        """Whether a return the history does not write is implied by its other lines.

        Old PokerStars histories (2005-2008) and some converters write no "Uncalled bet
        (X) returned" line: the chips went back all the same, as the Total pot and the
        collected amounts show.  None: the hand writes its returns, or needs none, or its
        lines say the chips stayed in the pot (the record contradicts the return: the
        uncalled-bet check reports it).  Else ('inferred', the lines that support it), the
        lines None when no line of the hand supports or contradicts it (the uncalled-bet
        check then looks at the next hand's stack)."""
        if not self.records_returns or self.return_lines:
            return None
        uncalled = sum(s.returned_expected for s in self.order)
        if uncalled == 0:
            return None
        put_in = sum(s.total_in for s in self.order) + self.house_added  # the house's money is in the pot too
        rake = (self.total_pot.to_amount or 0) if self.total_pot is not None else 0
        support: list[str] = []
        contradicts = False
        if self.total_pot is not None and self.total_pot.amount is not None:
            total = self.total_pot.amount
            if put_in - uncalled in (total, total + rake):  # some converters write the pot net of rake
                support.append(f"total pot line {self.total_pot.line_no}")
            elif put_in in (total, total + rake):
                contradicts = True
        if self.collects:
            won = sum(e.amount or 0 for e in self.collects)
            lines = ", ".join(str(e.line_no) for e in self.collects)
            if won == put_in - uncalled - rake:
                support.append(f"collected line{'s' if len(self.collects) > 1 else ''} {lines}")
            elif won == put_in - rake:
                contradicts = True
        if contradicts:
            return None
        return "inferred", "; ".join(support) or None

    def _hand_results(self, expected_won: dict[SeatNo, int | None]) -> None:
        inferred = self._inferred_return()
        for s in self.order:
            basis: str | None = "recorded"
            source: str | None = None
            if not self.records_returns:
                basis = None
            elif inferred is not None and s.returned_expected > 0:
                # the implied event: the uncalled chips went back, as the lines in returned_from show
                basis, source = inferred
                s.returned_recorded = s.returned_expected
            if self.records_returns:
                ret_rec: int | None = s.returned_recorded
                won_rec: int | None = s.collected
                end_rec: int | None = s.start - s.total_in + s.returned_recorded + s.collected
            else:
                ret_rec = None
                won_rec = self._won_recorded_phh(s)
                end_rec = s.finishing_stack
            won_exp = expected_won.get(s.seat)
            end_exp = None if won_exp is None else s.start - s.total_in + s.returned_expected + won_exp
            start: int | None = s.start
            if s.seatless:  # no seat line: no stack at the start, hence none at the end
                start = end_exp = end_rec = None
            elif not s.stack_known:  # a stack the record does not know: none at the start, none expected at the end
                start = end_exp = None
                if self.records_returns:
                    end_rec = None
            self.facts.hand_results.append((
                self.hid, self.ed, s.seat, s.player, start, s.total_in, s.returned_expected, ret_rec,
                won_exp, won_rec, end_exp, end_rec, s.returned_line, basis, source,
            ))


def posted_in_full(seats: list[Seat], events: list[Event]) -> tuple[int | None, int | None, int | None]:
    """The small blind, big blind and ante a hand's posts put in play: the amount of the
    first small blind and of the first big blind posted in full, and the largest ante
    posted in full; None where no such post is written.  A post is in full when its
    player has chips left after it: one who posts all he has (written all-in, or his
    seat's stack used up) may be short, and says nothing of the level's amount (a big
    blind posted all-in for 20 at 15/30 leaves the price at 30).  A dead blind
    ('posts small & big blinds') is not read: it is two blinds in one amount."""
    stacks: dict[int, int] = {s.seat: s.starting_stack for s in seats if s.starting_stack is not None}
    sb: int | None = None
    bb: int | None = None
    ante: int | None = None
    for e in events:
        if e.kind not in ("small_blind", "big_blind", "ante", "dead_blind", "straddle", "bring_in") or not e.amount:
            continue
        left: int | None = None
        if e.seat is not None and e.seat in stacks:
            stacks[e.seat] -= e.amount
            left = stacks[e.seat]
        full = not e.all_in and (left is None or left > 0)
        if not full:
            continue
        if e.kind == "small_blind" and sb is None:
            sb = e.amount
        elif e.kind == "big_blind" and bb is None:
            bb = e.amount
        elif e.kind == "ante":
            ante = max(ante or 0, e.amount)
    return sb, bb, ante


def substantial(actions: list[tuple[int, bool]]) -> bool:
    """Rule 36: "either A) any 2 actions in turn, at least one of which puts chips in the
    pot ... or B) any combination of 3 actions in turn"; posted blinds do not count.

    >>> substantial([(5, False), (6, False)]), substantial([(5, False), (6, True)])
    (False, True)
    """
    return len(actions) >= 3 or (len(actions) == 2 and (actions[0][1] or actions[1][1]))


def replay_hand(hand: ParsedHand, seats: list[Seat], events: list[Event], rules: EditionRules, **kw) -> HandFacts:
    """Replay one hand and return its facts (rows for the replay tables)."""
    try:
        return Replay(hand, seats, events, rules, **kw).run()
    except Exception as exc:  # a hand whose events cannot be followed at all
        facts = HandFacts()
        facts.notes.append((hand.hand_id, rules.name, None, "unfollowable", f"replay failed: {type(exc).__name__}: {exc}"))
        return facts
