"""Run It Once Poker text hand histories (2019-2021), a PokerStars-family format.

A hand starts at ``Run It Once Poker Hand #<n>: ...``.  What Run It Once writes
its own way is here (``parsers.stars_family`` reads the rest):

- the header: ``Tournament #<id>, <buy-in> <name>, <game> (<sb>/<bb>) - <date> UTC [...]``
  (no level) or ``<game> (<sb>/<bb>) - ...`` for cash;
- ``Table ID '<id>' 6-Max``; the recording player's seat line ends ``[hero]``;
- ``<player> shows [cards] for <hand>`` (no colon) at the showdown;
- the summary's award without brackets: ``mucked hand and won 120``;
- ``raises X to Y``: Y leaves out the player's own earlier bets and raises on the
  street (not his blind): ``Ann: bets 0.19``, ``Bob: raises 0.39 to 0.58``,
  ``Ann: raises 0.54 to 1.12``, ``Bob: calls 0.73``: Ann's total is 1.31, as the call
  and the total pot say; a small blind's ``raises 20 to 40`` is a total of 40.  X is Y
  less the bet faced.  The event's to_amount is the total, its amount the raise over
  the level (as PokerStars writes them).  No ``and is all-in`` is written, and all-in
  players' ``checks`` are written on later streets (the replay notes them).  By August
  2019 the site wrote raises the PokerStars way (``to`` the total; ``and is all-in``
  written).  The two readings differ only where a player raises over his own earlier
  bet or raise on the street, and a hand does not say which it uses: there its own
  lines decide.  It is read the older way where that fits (no player puts in more
  than his stack, the chips re-add to the Total pot line), else the PokerStars way
  where that fits, else rejected (``raise-reading``);
- "splash the pot" (``STP added: €0.50``, after ``*** HOLE CARDS ***``): the house
  adds money to the pot, a ``house_added`` event with no seat; the summary's total
  pot counts it (``Total pot €0.75 | Main pot €0.25 | STP €0.50 | Rake €0.04``).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from parsers.base import Event, HandError, ParsedHand
from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import GAME, RAISE_BY, RAISE_TO_ADDED, SEAT, amount_units, stars_site

RUN_IT_ONCE = stars_site(
    "runitonce", "Run It Once Poker", "RIO-", ("Run It Once Poker Hand #",), r"Run It Once Poker Hand #(?P<num>\d+):",
    rf"(?P<buyin>\S+) (?P<name>[^,]*), {GAME} ",
    table_prefix="Table ID '",
    table=re.compile(r"^Table ID '(?P<name>.*)' (?P<max>\d+)-Max(?: Seat #(?P<btn>\d+) is the button)?$"),
    seat=re.compile(SEAT.pattern.replace(r"\)(?P<tail>.*)$", r"\)(?: \[hero\])?(?P<tail>.*)$")),
    markers={"*** SHOWDOWN ***": "showdown"},
    raise_amounts=RAISE_TO_ADDED,
    line_events=((re.compile(r"^(?P<player>.+) shows \[(?P<cards>[^\]]*)\] for .*$"), "show"),
                 (re.compile(r"^STP added: (?P<amount>\S+)$"), "house_added")),
    # 'Hero collected €60.60 from pot' beside '... from side pot 1': 'pot' is the main pot
    collect=re.compile(r"^(.+) collected (\S+) from (pot|side pot(?: \d+)?)(?: \((hi|lo|high|low)\))?$"),
    main_pot_words=("pot",),
    pot_claim=re.compile(r" \| (Main pot|Side pot(?: \d+)?|STP) (\S+)"),
    house_pot_words=("STP",),
    won=re.compile(r"(?:won|collected) \(?([^()\s]+)\)?"),
    # every amount of a cash hand is '€0.05': its lines, read with an ASCII stand-in for the
    # euro, are strs of a byte a character (see stars_tables.SUFFIX_STAND_IN)
    amount_sign="€",
    # the client's export writes '**** **** **** **** **** **** **** ****' between hands
    between_hands=re.compile(r"^\*{4}(?: \*{4})*\s*$"),
)


class RunItOnceParser(StarsFamilyParser):
    """Reads Run It Once Poker text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(RUN_IT_ONCE)

    def _hand(self, buf: list[tuple[int, int, str]], cut_by: int | None) -> ParsedHand | HandError:
        # one hand's lines (the family's reader hands them here): a second reading needs them
        item = super()._hand(buf, cut_by)
        if isinstance(item, ParsedHand) and reading_matters(item):
            item = self.decide_reading(item, buf)
        return item

    def decide_reading(self, hand: ParsedHand, hand_lines: list[tuple[int, int, str]]) -> ParsedHand | HandError:
        """The hand as the reading its own lines allow (see the module docstring)."""
        older = misfit(hand)
        if older is None:
            return hand
        # the PokerStars reading: from the raise lines where it can be (see as_totals), else a
        # second reading of the whole hand
        other = hand if as_totals(hand) else StarsFamilyParser(RUN_IT_ONCE_TOTALS)._hand(list(hand_lines), None)
        if isinstance(other, ParsedHand) and misfit(other) is None:
            return other
        line, why = older
        return HandError(line, "raise-reading", f"line {line}: {why} when its raises are read as Run It Once wrote "
                         "them until 2019 ('raises X to Y', Y without the player's own earlier bets on the street), "
                         "and read the PokerStars way (Y the total) "
                         + ("they fit as badly" if isinstance(other, ParsedHand) else "the hand cannot be read"),
                         hand.hand_id)


# Run It Once from about August 2019: 'raises X to Y', Y the total (as PokerStars)
RUN_IT_ONCE_TOTALS = replace(RUN_IT_ONCE, raise_amounts=RAISE_BY)
_RAISE_LINE = re.compile(r"^raises (\S+) to (\S+)$")  # a raise, as the family reads its action


def as_totals(hand: ParsedHand) -> bool:
    """Turn ``hand``, read the older way, into its PokerStars reading (``RUN_IT_ONCE_TOTALS``),
    as a second reading of its lines would make it, and say whether that was done.

    The two readings differ in the raises' amounts only: read the PokerStars way a raise is
    the 'X' and 'Y' of its line ('raises X to Y'), whatever came before it; every other line
    is read alike, and a raise's total moves no other event's amount but a completion's.  So
    each raise's line is read again, not the hand's.  Not done (False, the hand untouched) for
    a hand with a completion, a record cut short (its reading names what cut it), or a raise
    line that is not read so."""
    site = RUN_IT_ONCE
    if hand.record_cut is not None or site.action_aliases or site.bare_posts or site.action_suffixes_ignored \
            or site.amount_suffix:
        return False  # (what would make a raise's action other than its line's words after the name)
    raises: list[tuple[Event, int, int]] = []
    for e in hand.events:
        if e.kind == "complete":
            return False
        if e.kind != "raise":
            continue
        text, player = (e.text or "").rstrip(), e.player or ""
        if not text.startswith(player + ": "):
            return False
        action = text[len(player) + 2:]
        for suffix in site.all_in_suffixes:  # as the family strips it
            if action.endswith(suffix):
                action = action[: -len(suffix)]
                break
        m = _RAISE_LINE.match(action)
        if m is None:
            return False
        raises.append((e, amount_units(m.group(1), hand.amount_scale), amount_units(m.group(2), hand.amount_scale)))
    for e, by, to in raises:
        e.amount, e.to_amount = by, to
    return True
# (frozensets: a kind is looked up, not compared with each in turn; every hand is walked so)
_CHIPS_KINDS: Final = frozenset({"small_blind", "big_blind", "straddle", "dead_blind", "bring_in", "call", "bet", "raise",
                                 "complete"})
_BLINDS: Final = frozenset({"small_blind", "big_blind", "straddle", "dead_blind", "bring_in"})
_BETS: Final = _CHIPS_KINDS - _BLINDS  # the chips a player chooses to put in


def reading_matters(hand: ParsedHand) -> bool:
    """Does a player raise over his own earlier bet or raise on the street (where the two
    ways of writing raises differ)?"""
    street: str | None = None
    bettors: set[int | None] = set()
    for e in hand.events:
        kind = e.kind
        if kind not in _CHIPS_KINDS:
            continue
        if e.street != street:
            street, bettors = e.street, set()
        if kind == "raise" and e.seat in bettors:
            return True
        if kind in _BETS:
            bettors.add(e.seat)
    return False


def misfit(hand: ParsedHand) -> tuple[int, str] | None:
    """(line, why) if the hand's chips, as read, cannot be: a player puts in more than his
    stack, or the chips put in (less returns, with the house's money) are not the Total
    pot line's; None if they fit."""
    stacks = {s.seat: s.starting_stack for s in hand.seats if s.starting_stack is not None}  # the site writes every stack
    put: dict[int, int] = {}
    committed: dict[int, int] = {}
    street = None
    in_pot = 0
    total = None
    chips_kinds = _CHIPS_KINDS
    # (each event's fields read once, each dict looked up once: the hands whose reading
    # matters are walked so once or twice)
    for e in hand.events:
        kind = e.kind
        if kind in chips_kinds or kind == "ante":
            seat = e.seat
            if seat is None:
                continue
            if kind == "ante":
                add = e.amount or 0
            else:
                if e.street != street:
                    street, committed = e.street, {}
                before = committed.get(seat, 0)
                to_amount = e.to_amount
                after = to_amount if (kind == "raise" or kind == "complete") and to_amount is not None \
                    else before + (e.amount or 0)
                committed[seat] = after
                add = after - before
            seat_put = put.get(seat, 0) + add
            put[seat] = seat_put
            in_pot += add
            if seat_put > stacks.get(seat, seat_put):
                return e.line_no, f"{e.player} puts in {seat_put} (stored units), more than his stack of {stacks[seat]},"
        elif kind == "house_added":
            in_pot += e.amount or 0
        elif kind == "uncalled_return":
            in_pot -= e.amount or 0
        elif kind == "total_pot":
            total = e
    if total is not None and total.amount is not None and total.amount != in_pot:
        return total.line_no, f"the chips put in less returns ({in_pot}) are not the Total pot ({total.amount})"
    return None
