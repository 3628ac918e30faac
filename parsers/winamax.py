"""Winamax text hand histories (tournaments, Expresso / Go Fast, cash), a PokerStars-family format.

A hand starts at ``Winamax Poker - ...``.  What Winamax writes its own way, and
nothing else, is here (``parsers.stars_family`` reads the rest):

- the header names the hand late: ``Winamax Poker - Tournament "<name>" buyIn: <x>
  level: <n> - HandId: #<a>-<b>-<c> - Holdem no limit (<ante>/<sb>/<bb>) - <date> UTC``,
  ``... - CashGame - HandId: ...``, ``... - Go Fast "<table>" - HandId: ...`` and, from 2023,
  ``... - HOLD-UP "<pool>" - HandId: ...`` (the fast-fold cash games);
  the tournament's number is in the table's name: ``Table: 'KING 5(1468666)#118'``;
- game names of its own (``Holdem``, ``Omaha5``, ``7-Card Stud``, ``Lowball27``)
  and lower-case limits;
- actions without a colon (``Ann folds``), amounts with the euro after them
  (``2.50€``), ``posts ante``, ``brings in 10€``, ``discard 2 cards``, and blinds
  posted by a player out of the blinds' positions (``posts big blind 2€ out of
  position``: a live blind, as PokerStars writes a new player's);
- section markers ``*** ANTE/BLINDS ***``, ``*** PRE-FLOP ***``, and for draw games
  ``*** FIRST-BET ***`` .. ``*** FOURTH-BET ***`` (betting on the current street)
  and ``*** FIRST-DRAW ***`` .. ``*** THIRD-DRAW ***``;
- ``Total pot 16.35€ | Rake 0.65€``: the total is what is left *after* the rake
  (the chips put in are the sum: 17€; the log's total_pot is that sum), ``| No
  rake``; a large tournament total may be written rounded (``15.52k``): the line is
  kept with no amount, the collects and seat lines carry the exact figures;
- no ``Uncalled bet`` line: a bet nobody called is counted in the total pot and in
  the bettor's ``collected`` amount (or written as a side pot he collects).  The
  return is inferred from the last street's commitments and recorded as inferred
  events on the collect line (``StarsSite.implied_returns``; docs/sites.md);
- the summary lists the seats that won or showed and, in most hands, the others;
  cash hands often list the winner only;
- a player waiting for the button is listed with his stack and named by no other line:
  where the pre-flop betting goes around his seat he was not dealt in (an inferred
  ``out_of_hand``, :func:`mark_waiting_seats`);
- over the years: the table line ``Table: 'Neuilly-sur-Seine' 5-max (real money) Seat 0000005
  is the button`` (2012), ``Table 'Nagoya' ...`` without the colon (2021), ``Omaha8`` for
  Omaha Hi/Lo (the play-money export), ``Ann denies big blind`` (2012: she sits the hand
  out, as ``deny BB``), a big blind's ``bets 292.50`` over his blind (2010: his street total
  is the blind plus it).  English throughout; French only in names (``buyIn: Gratuit``).

Rejected, with their reason: a raise in the blinds section (``action-before-blinds``), a
blind of 0 (``zero-blind``), and ``raises -6.10€ to 18.90€`` (``negative-amount``: the
chips added written as the total raised to; the raise the other lines imply is not
written in its place).
"""

from __future__ import annotations

import re

from auditor.schema import VOLUNTARY_KINDS, EventKind, Variant
from parsers.base import Event, HandError, ParsedHand, inferred_from
from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import LIMITS, StarsSite, game_pattern, hand_headers
from parsers.stars_tables import SUFFIX_STAND_IN

_WINAMAX_GAMES = {
    "holdem": Variant.HOLDEM.value,
    "omaha": Variant.OMAHA.value,
    "omaha hi/lo": Variant.OMAHA_HILO.value,
    "omaha8": Variant.OMAHA_HILO.value,  # the play-money export's name for Omaha Hi/Lo (2016)
    "omaha5": Variant.OMAHA5.value,
    "5 card omaha": Variant.OMAHA5.value,
    "5 card omaha hi/lo": Variant.OMAHA5_HILO.value,
    "7-card stud": Variant.STUD.value,
    "7stud": Variant.STUD.value,
    "7-card stud hi/lo": Variant.STUD_HILO.value,
    "razz": Variant.RAZZ.value,
    "2-7 triple draw": Variant.DRAW_2_7_TRIPLE.value,
    "lowball27": Variant.DRAW_2_7_TRIPLE.value,  # three draws, as '2-7 Triple Draw'
}
_GAME = game_pattern(_WINAMAX_GAMES)
# the fast-fold cash games, named with their pool: 'Go Fast "Buzau"' (2017) and, from 2023,
# 'HOLD-UP "Colorado"'
_FAST_FOLD = "|".join(re.escape(name) for name in ("Go Fast", "HOLD-UP"))

WINAMAX = StarsSite(
    name="winamax",
    label="Winamax",
    id_prefix="WMX-",
    **{
        # (a tournament summary, 'Winamax Poker - Tournament summary : ...', is no hand)
        **hand_headers(("Winamax Poker - ",), r"Winamax Poker - (?!Tournament summary)(?P<num>)"),
        # the hand number comes after the game's kind: the game's text is read around it.  The
        # text before ' - HandId: #' is read as `.*?` would read it (the first place the rest
        # matches from), a word at a time: `.*?` would try every character
        "header": re.compile(
            r"^Winamax Poker - (?P<rest>[^ \n]*+(?: [^ \n]*+)*?) - HandId: #(?P<num>\d+-\d+-\d+)(?P<rest_end> - .*)$"),
        "header_anywhere": None,
    },
    header_rest_end=True,
    tourney=re.compile(
        # a hand dealt before the first level is named writes none ('level:  - ', 2017)
        rf'^Tournament "(?P<name>[^"]*)" buyIn: (?P<buyin>.*?) level: (?P<level>\w+)? - {_GAME} '
        r"\((?:(?P<ante>[^/()]+)/)?(?P<sb>[^/()]+)/(?P<bb>[^/()]+)\) - (?P<date>.+)$",
        re.IGNORECASE,
    ),
    cash=re.compile(
        rf'^(?:CashGame|(?:{_FAST_FOLD}) "[^"]*") - {_GAME} \((?P<stakes>[^()]*)\) - (?P<date>.+)$', re.IGNORECASE
    ),
    games=_WINAMAX_GAMES,
    limits=LIMITS,
    # '1€/2€'; stud: '5€/25€/50€' (ante, small bet, big bet)
    stakes=(re.compile(r"^(?:(?P<ante>[^/ ]+)/)?(?P<sb>[^/ ]+)/(?P<bb>[^/ ]+)$"),),
    # 'Table: ' and, in a 2021 cash hand, 'Table ' without the colon
    table_prefix="Table",
    # (the name as '.*?' would read it, from one '(' or "'" to the next: '.*?' tried every character);
    # the button 'Seat #3' and, in 2012 cash hands, 'Seat 0000005' (zero-padded, no '#')
    table=re.compile(
        r"^Table:? '(?P<name>[^('\n]*+(?:[('][^('\n]*+)*?(?:\((?P<tid>\d+)\)#\d+)?)' (?P<max>\d+)-max \((?:real|play) money\)"
        r"(?: Seat #?(?P<btn>\d+) is the button)?$"
    ),
    seat=re.compile(
        r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^,() ]+)(?:, (?P<bounty>[^()]+ bounty))?\)(?P<tail>.*)$"
    ),
    total_pot=re.compile(r"^Total pot (?P<total>\S+)(?P<pots>) \| (?:No rake|Rake (?P<rake>\S+))$"),
    total_after_rake=True,
    rounded_amount=re.compile(r"^\d+(?:\.\d+)?k$"),
    markers={
        "*** ANTE/BLINDS ***": "",
        "*** PRE-FLOP ***": "",
        "*** FIRST-BET ***": "",
        "*** FIRST-DRAW ***": "first_draw",
        "*** SECOND-BET ***": "",
        "*** SECOND-DRAW ***": "second_draw",
        "*** THIRD-BET ***": "",
        "*** THIRD-DRAW ***": "third_draw",
        "*** FOURTH-BET ***": "",
        # stud in the play-money export: the streets by name
        "*** THIRD ***": "third",
        "*** FOURTH ***": "fourth",
        "*** FIFTH ***": "fifth",
        "*** SIXTH ***": "sixth",
        "*** SEVENTH ***": "seventh",
    },
    actor_sep=" ",
    amount_suffix="€",
    suffix_currency="EUR",
    action_aliases=(
        ("posts ante ", re.compile(r"^posts ante "), "posts the ante "),
        # (first words of the blinds only: not tried on the antes)
        ("posts small blind ", re.compile(r"^(posts small blind \S+) out of position$"), r"\1"),
        ("posts big blind ", re.compile(r"^(posts big blind \S+) out of position$"), r"\1"),
        ("bring", re.compile(r"^(?:brings in|bring-in) (?=\S+$)"), "brings in for "),
        ("discard ", re.compile(r"^discard (\d+ cards?)"), r"discards \1"),
        ("stands pat [", re.compile(r"^stands pat \["), "stands pat on ["),
        # a seated player declining the big blind (2012) sits the hand out, as 'sits out'
        ("denies big blind", re.compile(r"^denies big blind$"), "sits out"),
    ),
    # a player declining to post the big blind ('Ann deny BB 0€', a player with no seat
    # line at times; a seated one's 'denies big blind': an alias above) posts nothing and
    # sits out: no chips move
    ignored_line_pattern=re.compile(r"^.+ (?:deny BB |denies big blind$)"),
    forced_marker="*** ANTE/BLINDS ***",
    rejected_actions=(
        *((f"posts {blind} blind 0", re.compile(rf"^posts {blind} blind 0(?:\.0+)?[€{SUFFIX_STAND_IN}]?(?: |$)"), "zero-blind",
           "a blind of nothing posted (with a dead blind of both blinds' size): what was posted live cannot be told")
          for blind in ("small", "big")),
        # 'raises -6.10€ to 18.90€' (a stud all-in over a completion to 25€, 2016): the 'to' is the
        # chips the player added (all he had after his bring-in of 10€), the increment their excess
        # over the bet faced; the call of 3.90€ after it and the total pot imply a raise to 28.90€:
        # the line as written is no action, and it is not rewritten into the one implied
        ("raises -", re.compile(r"^raises -"), "negative-amount",
         "a raise written with a negative increment (the chips added written as the total raised to): "
         "the raise the other lines imply is not what the line says"),
    ),
    summary_ignored=("Board: [",),
    collect=re.compile(r"^(.+) collected (\S+) from (pot|main pot|side pot \d+) ?(?:\((HI|LO)\))?$"),
    won=re.compile(r"won (\S+)"),
    summary_lists_every_seat=False,
    # a seat written with an empty stack ('Seat 1: Ann ()'): a player at the table with no
    # chips, not dealt in: nothing is recorded for him (as WPN's seat held with no stack)
    seat_not_in_hand=(" ()",),
    implied_returns=True,
    # Winamax tables every hand at showdown itself and writes the winner last
    showdown_listed_by_site=True,
)


_OUT_OF_HAND = EventKind.OUT_OF_HAND.value
_UNREAD = EventKind.UNREAD.value


def mark_waiting_seats(hand: ParsedHand, lines: list[tuple[int, int, str]]) -> None:
    """A seat Winamax lists with chips whom no line of the hand names (no post, cards, action,
    show, win or summary line) while the pre-flop betting goes from the seat before his to the
    seat after it (two actions in a row, no line between them): he was not dealt in (a player
    who has just sat down waits for the button; a dealt player with chips acts at his turn or
    wins uncontested).  Recorded as an inferred ``out_of_hand`` (street summary) on his seat
    line, inferred from that line and the two actions.  Where the betting does not pass his
    seat (no pre-flop action, a line not understood between), nothing is inferred."""
    if hand.record_cut is not None:
        return
    named = {e.seat for e in hand.events if e.seat is not None}
    silent = [s for s in hand.seats if s.seat not in named and (s.starting_stack or 0) > 0]
    if not silent:
        return
    ring = {seat: i for i, seat in enumerate(sorted(s.seat for s in hand.seats))}
    n = len(ring)
    # the pre-flop actions in order, a line not understood breaking the run
    run = [e for e in hand.events if e.street == "preflop" and (e.kind in VOLUNTARY_KINDS or e.kind == _UNREAD)]
    # (ring place of the seat acting, of the seat acting next, their lines)
    passes = [(ring[a.seat], ring[b.seat], a.line_no, b.line_no) for a, b in zip(run, run[1:])
              if a.kind in VOLUNTARY_KINDS and b.kind in VOLUNTARY_KINDS and a.seat is not None and b.seat is not None
              and a.seat in ring and b.seat in ring and a.seat != b.seat]
    texts = {no: text for no, _, text in lines}
    for s in silent:
        seat_line = s.line_no
        if seat_line is None:  # a seat no seat line lists is not one 'listed with chips'
            continue
        i = ring[s.seat]
        for ia, ib, line_a, line_b in passes:
            if 0 < (i - ia) % n < (ib - ia) % n:
                hand.events.append(Event(len(hand.events), "summary", _OUT_OF_HAND, seat_line, s.seat, s.player,
                                         text=texts.get(seat_line), inferred_from=inferred_from(seat_line, line_a, line_b)))
                break


class WinamaxParser(StarsFamilyParser):
    """Reads Winamax text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(WINAMAX)

    def _hand(self, buf: list[tuple[int, int, str]], cut_by: int | None) -> ParsedHand | HandError:
        item = super()._hand(buf, cut_by)
        if isinstance(item, ParsedHand):
            mark_waiting_seats(item, buf)
        return item
