"""Winning Poker Network (WPN: Americas Cardroom, Black Chip, True Poker) text histories.

WPN has written two formats; both are read here, recognised by their content.

**2019 onwards**, a PokerStars-family format (``parsers.stars_family`` reads it).
A hand starts at ``Game Hand #<n> - `` (tournaments) or ``Hand #<n> - `` (cash).
What WPN writes its own way:

- headers ``Game Hand #<n> - [<name> ]Tournament #<id> - Holdem(No Limit) - Level <l> (<sb>/<bb>)- <date> UTC``
  and ``Hand #<n> - Omaha H/L(Fixed Limit) - $20.00/$40.00 - <date> UTC``;
- a table line without ``Table '...'`` for cash (``Fort Lupton 9-max Seat #5 is the button``),
  seat lines ``Seat 1: Ann ($9.10)`` (no ``in chips``);
- actions without a colon (``Ann folds``), ``posts the small blind``, ``posts ante``,
  ``posts dead`` (both blinds, out of position), ``posts $0.25`` (a player entering the
  game posts the big blind out of position: live), ``brings in $0.02``, ``does not show``;
- ``Dan waits for big blind`` (not dealt in: nothing recorded) and a seat held with no
  stack (``Seat 6: Fay will be allowed to play after the button``: no seat recorded);
- run it twice: ``*** RUN IT TWICE ***``, then ``*** FLOP 1 ***`` .. ``*** SHOW DOWN 1 ***``,
  ``collected $92.25 from main pot 1``, the second run likewise, and in the summary
  ``Board 1 [..]`` and ``Board 2 [..]``, each followed by every seat's line;
- a raise's first amount is the chips the player adds, not the increment over the
  bet (``Ann posts the small blind $10``, ``Ann raises $30 to $40``): it is stored as
  written (the raise event's amount) and must equal the total less what the player
  had in on the street, or the hand is a parse error;
- running ``Main pot $x | Rake $y`` and ``Side pot(1) $x | Rake $y`` lines at each
  street (the summary's total is the record); ``Total pot $x | Rake $y | JP Fee $z``, where the total is what is
  left after the rake and the jackpot fee (``Total pot $199.00 | Rake $0.96 | JP Fee $0.04``
  when $200 went in): the total_pot event's amount adds the two back (to_amount: their sum);
- a walk (everyone folds to the big blind) has no ``Uncalled bet`` line: the big blind
  is awarded the whole pot, his own unmatched chips included;
- before the antes of some tournament hands, one ``Dealt to <player> [card]`` a seat:
  the draw for the button, not the hand's cards; nothing is recorded for them;
- capped tables (``<player> caps $0.55``: the chips the player adds, which take him to
  the table's cap, a bet, raise or call by what is in front of him): the header names
  no cap, and the total the first such line takes its player to is the hand's cap
  (hands.cap).

**2016 and before** (``Game started at: ...`` then ``Game ID: <n> <sb>/<bb> <table> (<game>)``,
often UTF-16).  This format never says whether the game was no-limit, pot-limit
or fixed-limit, and the meaning of its stakes (blinds or bets) depends on that.
The auditor does not guess it: every hand of this format is rejected, reason
``betting-unrecorded``, at its ``Game ID`` line.

>>> text = '''Hand #7 - Holdem(No Limit) - $0.01/$0.02 - 2019/11/08 04:43:23 UTC
... Parachute 6-max Seat #1 is the button
... Seat 1: Ann ($1.00)
... Seat 2: Bob ($2.00)
... Ann posts the small blind $0.01
... Bob posts the big blind $0.02
... *** HOLE CARDS ***
... Ann raises $0.05 to $0.06
... Bob folds
... Uncalled bet ($0.04) returned to Ann
... Ann does not show
... *** SUMMARY ***
... Total pot $0.04
... Seat 1: Ann (button) (small blind) did not show and won $0.04
... Seat 2: Bob (big blind) folded on the Pre-Flop'''
>>> [h] = WpnParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.site, h.table_name, h.big_blind
('WPN-7', 'wpn', 'Parachute', 2)
>>> [(e.kind, e.player, e.amount, e.to_amount) for e in h.events[2:4]]
[('raise', 'Ann', 5, 6), ('fold', 'Bob', None, None)]
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Iterator

from auditor.schema import Betting, EventKind, Street, Variant
from parsers.base import MAX_DECIMALS, Event, HandError, ParsedHand, Reject, Rescale, Seat, content_hash, hand_total, second_seatless
from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import RAISE_ADDED, StarsSite, hand_headers

_WPN_GAMES = {
    "holdem": Variant.HOLDEM.value,
    "omaha": Variant.OMAHA.value,
    "omaha h/l": Variant.OMAHA_HILO.value,
    "7stud": Variant.STUD.value,
    "7stud h/l": Variant.STUD_HILO.value,
    "5card omaha": Variant.OMAHA5.value,  # 2026: 'Hand #1 - 5Card Omaha (Pot Limit) - ...'
    "razz": Variant.RAZZ.value,
}
_WPN_LIMITS = {
    "no limit": Betting.NO_LIMIT.value,
    "pot limit": Betting.POT_LIMIT.value,
    "fixed limit": Betting.FIXED_LIMIT.value,
}
_GAME_ALT = "|".join(re.escape(g) for g in sorted(_WPN_GAMES, key=len, reverse=True))
# 'Holdem(No Limit)', from 2026 'Holdem (No Limit)'; the family reads the groups mixed (never
# written here), base and limit
_GAME = rf"(?P<mixed>(?!))?(?P<base>{_GAME_ALT}) ?\((?P<limit>No Limit|Pot Limit|Fixed Limit)\)"

_TOURNEY = (rf"^(?:(?P<name>.*?) )?Tournament #(?P<tid>\d+) - {_GAME} - Level (?P<level>\w+) "
            r"\((?P<sb>[^/()]+)/(?P<bb>[^/()]+)")

WPN = StarsSite(
    name="wpn",
    label="WPN",
    id_prefix="WPN-",
    **hand_headers(("Game Hand #", "Hand #"), r"(?:Game )?Hand #(?P<num>\d+) -"),
    tourney_find=re.compile("Tournament #"),
    tourney=re.compile(rf"{_TOURNEY}\)- (?P<date>.+)$", re.IGNORECASE),
    tourney_more=(re.compile(rf"{_TOURNEY}\) - (?P<date>.+)$", re.IGNORECASE),),  # 2025-2026: ') - '
    # a cash table with an ante names it after the blinds: '$0.01/$0.02, Ante $0.01' (2026)
    cash=re.compile(rf"^{_GAME} - (?P<stakes>[^ ]+/[^ ]+?(?:, Ante [^ ]+)?) - (?P<date>.+)$", re.IGNORECASE),
    stakes=(re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ ,]+)(?:, Ante (?P<ante>\S+))?$"),),
    games=_WPN_GAMES,
    limits=_WPN_LIMITS,
    table_prefix="",
    table=re.compile(r"^(?:Table ')?(?P<name>.+?)'? (?P<max>\d+)-max(?: Seat #(?P<btn>\d+) is the button)?$"),
    # the family reads five groups: seat, name, stack, bounty (never written here), tail
    seat=re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()\s]+)\)(?P<bounty>(?!))?(?P<tail>.*)$"),
    total_pot=re.compile(
        r"^Total pot (?P<total>\S+)(?P<pots>)(?: \| Rake (?P<rake>\S+))?(?: \| JP Fee (?P<fee_jackpot>\S+))?$"
    ),
    won=re.compile(r"won (\S+)"),
    actor_sep=" ",
    summary_collects=True,
    action_aliases=(
        ("brings in ", re.compile(r"^brings in "), "brings in for "),
        ("does not show", re.compile(r"^does not show"), "doesn't show hand"),
    ),
    extra_posts={
        "the small blind ": EventKind.SMALL_BLIND.value,
        "the big blind ": EventKind.BIG_BLIND.value,
        "ante ": EventKind.ANTE.value,
        "dead ": EventKind.DEAD_BLIND.value,  # both blinds, posted out of position
        # 'Eve posts $0.25': a big blind posted by a player entering the game out of
        # position, live (he may check when the betting comes round to him)
        "": EventKind.BIG_BLIND.value,
    },
    # a player entering the game who waits for the big blind to reach him: not in the hand
    ignored_actions=("waits for big blind",),
    seat_not_in_hand=(" will be allowed to play after the button",),
    raise_amounts=RAISE_ADDED,
    total_after_rake=True,
    ignored_lines=("Main pot ", "Side pot("),
    # run it twice: '*** RUN IT TWICE ***' once the betting is over, then each run's streets
    # and showdown numbered ('*** FLOP 1 ***', '*** SHOW DOWN 2 ***'), its pot's collects
    # numbered too ('collected $92.25 from main pot 1'), and in the summary each run's board
    # ('Board 2 [..]') followed by every seat's line again
    markers={"*** RUN IT TWICE ***": ""},
    run_markers=re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER|SHOW DOWN) (?P<run>[123]) \*\*\*$"),
    collect=re.compile(r"^(.+) collected (\S+) from (pot|main pot|side pot(?:-\d+)?)(?: [123])?(?: \((hi|lo|high|low)\))?$"),
    # 'BombPot' (2026): the summary's name for a hand dealt with antes only and no betting
    # before the flop; the posts and the streets are its record
    summary_ignored=("Board 1 [", "Board 2 [", "Board 3 [", "BombPot"),
    predeal_ignored=("Dealt to ",),
    # a capped table ('Miramar (Cap)'): 'caps $0.55' puts in the cap, which the header does not
    # name (hands.cap: the total it takes the player to)
    cap_word="caps",
)


class WpnParser(StarsFamilyParser):
    """Reads WPN's 2019 format (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(WPN)


# --- the format of 2016 and before ----------------------------------------------------

LEGACY_START = "Game started at: "
_LEGACY_ID = re.compile(r"^Game ID: (?P<num>\d+) ")
_LEGACY_HEADER = re.compile(
    r"^Game ID: (?P<num>\d+) (?P<stakes>[\d.]+/[\d.]+) ?(?P<table>.*?) ?\((?P<game>[^()]+)\)(?: (?P<max>\d+)-max)?$")
_LEGACY_GAMES = {
    "Hold'em": Variant.HOLDEM.value,
    "Six Plus Hold'em": Variant.SIX_PLUS_HOLDEM.value,
    "Omaha": Variant.OMAHA.value,
    "Omaha HiLow": Variant.OMAHA_HILO.value,
    "Seven Cards Stud": Variant.STUD.value,
    "Seven Cards Stud HiLow": Variant.STUD_HILO.value,
}
_LEGACY_TOURNEY_TABLE = re.compile(r", Table \d+$")
_LEGACY_DATE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})$")
_LEGACY_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.*) \((?P<stack>[\d.]+)\)\.$")
_LEGACY_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_LEGACY_AMOUNT = re.compile(r"^\(([\d.]+)\)$")
_LEGACY_RETURN = re.compile(r"^Uncalled bet \((?P<amt>[\d.]+)\) returned to(?: (?P<name>.*))?$")
_LEGACY_POT = re.compile(r"^Pot: (?P<pot>[\d.]+)(?:\. Rake (?P<rake>[\d.]+))?(?:\. JP fee (?P<jp>[\d.]+))?$")
_LEGACY_RESULT = re.compile(
    r"^(?P<won>\*?)Player (?P<rest>.*?) ?(?:shows: (?P<desc>.*?)\[(?P<shown>[^\]]*)\].*?|mucks \(does not show: \[(?P<mucked>[^\]]*)\]\)|"
    r"mucks \(does not show cards\)|does not show cards|doesn't show cards)\. ?"
    r"Bets: (?P<bets>[\d.]+)\. Collects: (?P<collects>[\d.]+)\. (?:Wins|Loses): (?P<net>[\d.]+)\.?$")
# WPN labels stud's betting rounds from the first card dealt after the first round: its
# 'Third street' opens the round the rules call fourth street (one more card each), and so on
_LEGACY_STUD = {"Third street": Street.FOURTH.value, "Fourth street": Street.FIFTH.value,
                "Fifth street": Street.SIXTH.value, "Sixth street": Street.SEVENTH.value}
_LEGACY_BOARD = {"FLOP": Street.FLOP.value, "TURN": Street.TURN.value, "RIVER": Street.RIVER.value}
_LEGACY_FORCED = {"ante": EventKind.ANTE.value, "posts ante": EventKind.ANTE.value,
                  "has small blind": EventKind.SMALL_BLIND.value, "has big blind": EventKind.BIG_BLIND.value,
                  # a blind posted by a player entering the game, out of position (played live)
                  "posts": EventKind.DEAD_BLIND.value,
                  "straddle": EventKind.STRADDLE.value, "bring in": EventKind.BRING_IN.value}
# '<forced bet> (N)<suffix>': a forced bet the suffix says is dead ('posts (0.25) as a dead
# bet': the small blind a player missed, posted with his live big blind): in the pot, in no
# player's bet: stored as a small blind, as PHH's and GG's dead small blinds, which the replay
# holds dead when posted after a blind (WPN writes it after both: dead from every seat the
# returning player can sit in, tests/test_wpn.py); one written before them it would hold live
_LEGACY_DEAD = {" as a dead bet": {"posts": EventKind.SMALL_BLIND.value}}
_LEGACY_IGNORED = ("is timed out.", "wait BB")
# '<name> <action>' of a player with no seat line: the name is what precedes a known action
_LEGACY_SEATLESS = re.compile(
    r"^(?P<name>.*?) ?(?P<action>(?:has small blind|has big blind|posts ante|ante|posts|straddle|bring in|calls|bets|"
    r"raises|allin|caps) \([\d.]+\)|folds|checks|mucks cards|received a card\.|received card: \[[^\]]*\]|sitting out|"
    r"is timed out\.|wait BB|allin|is disconnected and ALL IN\.)$")


def _legacy_date(m: re.Match[str] | None) -> dt.datetime | None:
    """'2016/8/4 13:56:8' (no zero padding), naive in the zone written (none is named)."""
    if m is None:
        return None
    y, mo, d, h, mi, s = (int(x) for x in m.groups())
    try:
        return dt.datetime(y, mo, d, h, mi, s)
    except ValueError:
        return None


def _legacy_card(tok: str, no: int) -> str:
    card = "T" + tok[2:] if tok.startswith("10") else tok
    if len(card) != 2 or card[0] not in "23456789TJQKA" or card[1] not in "cdhs":
        raise Reject("unreadable-cards", no, f"line {no}: {tok!r} is not a card")
    return card


class _LegacyHand:
    """Reads one hand of WPN's format of 2016 and before (see WpnLegacyParser)."""

    def __init__(self, buf: list[tuple[int, int, str]], scale: int) -> None:
        self.buf = buf
        self.scale = scale
        self.events: list[Event] = []
        self.names: dict[str, int] = {}
        self.by_length: list[str] = []
        self.street = Street.PREFLOP.value
        self.committed: dict[int | None, int] = {}  # None: the player with no seat line (one a hand)
        self.current_bet = 0
        self.behind: dict[int | None, int] = {}
        self.seatless_name: str | None = None  # the player acting with no seat line, if any
        self.cap: int | None = None  # a capped table's cap: the total the first 'caps (N)' takes its player to
        self.dealt: dict[tuple[str, int | None], Event] = {}  # (street, seat): the cards dealt to a seat on a street
        self.folded: set[int | None] = set()
        self.acted: dict[int | None, bool] = {}  # seats dealt in or acting in the hand
        # 'is disconnected and ALL IN.': the event of a seat whose 'allin' line is still to come
        self.disconnected: dict[int | None, Event] = {}

    def amt(self, text: str, no: int) -> int:
        if text.count(".") > 1 or not text.replace(".", "").isdigit():
            raise Reject("parse-error", no, f"line {no}: {text!r} is not an amount")
        whole, _, frac = text.partition(".")
        frac = frac.rstrip("0")
        digits = len(str(self.scale)) - 1
        if len(frac) > digits:
            raise Rescale(len(frac))
        return int(whole) * self.scale + (int(frac) * 10 ** (digits - len(frac)) if frac else 0)

    def add(self, kind: str, no: int, text: str, seat: int | None = None, player: str | None = None,
            amount: int | None = None, to_amount: int | None = None, all_in: bool = False, cards: str | None = None,
            street: str | None = None, pot_label: str | None = None) -> Event:
        e = Event(len(self.events), street or self.street, kind, no, seat, player, amount, to_amount, all_in, cards,
                  pot_label, None, text)
        self.events.append(e)
        return e

    def put(self, seat: int | None, chips: int) -> None:
        self.committed[seat] = self.committed.get(seat, 0) + chips
        self.current_bet = max(self.current_bet, self.committed[seat])
        if seat in self.behind:  # a player with no seat line (seat None): his stack is not recorded
            self.behind[seat] -= chips

    def actor(self, rest: str, no: int, text: str) -> tuple[str, int | None, str]:
        """'<seated name> <action>' (longest name first: one name may start another)."""
        for name in self.by_length:
            if rest.startswith(name + " "):
                return name, self.names[name], rest[len(name) + 1:]
        return self.seatless_actor(rest, no, text)

    def seatless_actor(self, rest: str, no: int, text: str) -> tuple[str, None, str]:
        """A line of a player with no seat line ('Player  has big blind (2)': WPN writes
        an empty name): his name is what comes before a known action.  His events are
        recorded with no seat; his seat and stack stay unknown (the replay judges nothing
        that needs them, and the seat-unrecorded check names him).  One such player a hand:
        a second could not be told apart in the replay's facts."""
        m = _LEGACY_SEATLESS.match(rest)
        if m is None:
            raise Reject("parse-error", no, f"line {no}: line not understood: {text!r}")
        name = m.group("name")
        if self.seatless_name is not None and name != self.seatless_name:
            raise second_seatless(self.seatless_name, name, no, text)
        self.seatless_name = name
        return name, None, m.group("action")

    def read(self) -> ParsedHand:
        buf = self.buf
        first_no, offset, start_text = buf[0]
        id_at = next((i for i, (_, _, t) in enumerate(buf) if t.startswith("Game ID: ")), None)
        if id_at is None:
            raise Reject("truncated", first_no, f"hand at line {first_no} has no 'Game ID' line")
        id_no, _, id_text = buf[id_at]
        m = _LEGACY_HEADER.match(id_text.strip())
        if not m:
            raise Reject("parse-error", id_no, f"line {id_no}: game line not understood: {id_text!r}")
        variant = _LEGACY_GAMES.get(m.group("game"))
        if variant is None:
            raise Reject("unsupported-game", id_no, f"line {id_no}: game {m.group('game')!r} is not read")
        date_text = start_text[len(LEGACY_START):].strip()
        dm = _LEGACY_DATE.match(date_text)
        table = m.group("table").strip()
        hand = ParsedHand(
            hand_id=f"WPN-{m.group('num')}", site="wpn", format="wpn-legacy", variant=variant,
            # the format never says no-limit, pot-limit or fixed-limit (module docstring)
            betting=Betting.UNRECORDED.value,
            first_line=first_no, last_line=buf[-1][0], byte_offset=offset,
            content_hash=content_hash("\n".join(t for _, _, t in buf)),
            hand_number=m.group("num"), table_name=table or None,
            max_seats=int(m.group("max")) if m.group("max") else None,
            # the stakes are blinds or bets by the structure, which is not recorded
            game_label=f"{m.group('stakes')} ({m.group('game')})",
            started_at_text=date_text,
            started_at=_legacy_date(dm),
            amount_scale=self.scale,
            # a tournament's table is named '<event>, Table <n>'; no other line says so
            is_tournament=bool(_LEGACY_TOURNEY_TABLE.search(table)),
        )
        if hand.is_tournament:
            hand.tournament_name = _LEGACY_TOURNEY_TABLE.sub("", table)
        stud = variant in (Variant.STUD.value, Variant.STUD_HILO.value)
        self.street = Street.THIRD.value if stud else Street.PREFLOP.value
        seats_by_no: dict[int, Seat] = {}
        seat: int | None  # a seat line's number, or None: an actor with no seat line
        antes: list[int] = []
        ended = False
        for no, _, raw in buf[id_at + 1:]:
            text = raw.strip()
            if no == buf[-1][0]:
                text = text.rstrip("\ufffd")  # a UTF-16 file's odd last byte (a file cut off)
            if not text:
                continue
            if ended:
                raise Reject("parse-error", no, f"line {no}: a line after 'Game ended at:': {text!r}")
            if text.startswith("Seat "):
                if (bm := _LEGACY_BUTTON.match(text)):
                    hand.button_seat = int(bm.group(1))
                    continue
                sm = _LEGACY_SEAT.match(text)
                if not sm:
                    raise Reject("parse-error", no, f"line {no}: seat line not understood: {text!r}")
                seat, name = int(sm.group("seat")), sm.group("name")
                if name in self.names or seat in seats_by_no:
                    raise Reject("ambiguous-names", no, f"line {no}: two seat lines for {name!r} or seat {seat}")
                self.names[name] = seat
                stack = self.amt(sm.group("stack"), no)
                self.behind[seat] = stack
                seats_by_no[seat] = Seat(seat, name, stack, None, False, None, no)
                hand.seats.append(seats_by_no[seat])
                self.by_length = sorted(self.names, key=len, reverse=True)
                continue
            if text.startswith("*** "):
                self.marker(text, no, stud)
                continue
            if text.startswith("------ Summary"):
                self.street = Street.SUMMARY.value
                continue
            if text.startswith("Game ended at: "):
                ended = True
                continue
            if text.startswith("Board: "):
                continue
            if (pm := _LEGACY_POT.match(text)):
                pot, rake, jp = (self.amt(pm.group(g), no) if pm.group(g) else 0 for g in ("pot", "rake", "jp"))
                # the pot is written net of the rake and the jackpot fee: the event holds the gross
                self.add(EventKind.TOTAL_POT.value, no, raw, amount=pot + rake + jp, to_amount=rake + jp,
                         street=Street.SUMMARY.value)
                continue
            if (rm := _LEGACY_RETURN.match(text)):
                name = rm.group("name") or ""
                if name not in self.names and name != self.seatless_name:
                    raise Reject("unseated-player", no, f"line {no}: a return to a player with no seat line who did not act: {text!r}")
                self.add(EventKind.UNCALLED_RETURN.value, no, raw, self.names.get(name), name, self.amt(rm.group("amt"), no))
                continue
            if self.street == Street.SUMMARY.value:
                self.result(text, raw, no)
                continue
            if not text.startswith("Player "):
                raise Reject("parse-error", no, f"line {no}: line not understood: {text!r}")
            name, seat, action = self.actor(text[7:], no, text)
            if action not in ("sitting out", "wait BB", "is timed out."):
                self.acted[seat] = True
            if self.action(action, name, seat, no, raw, antes, seats_by_no):
                continue
            raise Reject("parse-error", no, f"line {no}: action not understood: {text!r}")
        if not ended:
            if not hand.seats:  # a hand start with nothing after it: no hand to store
                raise Reject("truncated", first_no, f"hand at line {first_no} ends before its 'Game ended at:' line "
                             "(the file is cut off), and before any seat line")
            # the record stops early: stored as recorded, marked as cut (docs/semantics.md)
            hand.record_cut = (f"the rest of the hand after line {buf[-1][0]}, its summary and its results "
                               "(no 'Game ended at:' line: the file is cut off)")
        if not hand.seats:
            raise Reject("parse-error", id_no, f"hand at line {id_no} has no seat lines")
        if antes:
            hand.ante = max(antes)
        hand.cap = self.cap
        for k, e in enumerate(self.events):
            e.seq = k
        hand.events = self.events
        return hand

    def marker(self, text: str, no: int, stud: bool) -> None:
        head, _, rest = text[4:].partition(" ***")
        if stud and head in _LEGACY_STUD:
            new = _LEGACY_STUD[head]
        elif not stud and head in _LEGACY_BOARD:
            new = _LEGACY_BOARD[head]
            cards = rest.lstrip(":").strip().split("]")
            last = cards[-2].strip().lstrip("[") if len(cards) >= 2 else ""
            if not last:
                raise Reject("board-unrecorded", no, f"line {no}: the {head.lower()} is dealt with no cards written, "
                             f"so no hand can be read against the board: {text!r}")
            self.street = new
            self.add(EventKind.DEAL_BOARD.value, no, text, cards=" ".join(_legacy_card(c, no) for c in last.split()))
        else:
            raise Reject("parse-error", no, f"line {no}: street marker not understood: {text!r}")
        self.street = new
        self.committed, self.current_bet = {}, 0

    def action(self, action: str, name: str, seat: int | None, no: int, raw: str, antes: list[int],
               seats_by_no: dict[int, Seat]) -> bool:
        forced, dead = _LEGACY_FORCED, False
        for suffix, table in _LEGACY_DEAD.items():
            if action.endswith(suffix):
                action, forced, dead = action[:-len(suffix)], table, True
                break
        word, _, arg = action.rpartition(" ")
        am = _LEGACY_AMOUNT.match(arg)
        if am and word in forced:
            chips = self.amt(am.group(1), no)
            kind = forced[word]
            if kind == EventKind.ANTE.value or dead:
                if kind == EventKind.ANTE.value:
                    antes.append(chips)
                if seat in self.behind:
                    self.behind[seat] -= chips
            else:
                self.put(seat, chips)
            self.add(kind, no, raw, seat, name, chips, all_in=self.behind.get(seat, 1) <= 0)
            return True
        if am and word in ("calls", "bets", "raises", "allin", "caps"):
            chips = self.amt(am.group(1), no)
            before = self.committed.get(seat, 0)
            self.put(seat, chips)
            to = self.committed[seat]
            others = max((v for s, v in self.committed.items() if s != seat), default=0)
            all_in = word == "allin" or self.behind.get(seat, 1) <= 0
            if word == "calls" or (word in ("allin", "caps") and to <= others):
                self.add(EventKind.CALL.value, no, raw, seat, name, chips, all_in=all_in)
            elif word == "bets" or (word in ("allin", "caps") and others == 0 and before == 0):
                self.add(EventKind.BET.value, no, raw, seat, name, chips, to, all_in=all_in)
            else:
                # the amount written is the chips the player adds, not the raise-to total
                self.add(EventKind.RAISE.value, no, raw, seat, name, chips, to, all_in=all_in)
            if word == "caps" and self.cap is None and seat is not None:
                # a capped table ('- CAP -'): the header names no cap; 'caps (N)' takes him to it
                self.cap = hand_total(self.events, seat)
            return True
        if action == "is disconnected and ALL IN.":
            # the site's disconnect protection: it plays him all in for what he has put in,
            # his chips behind kept (a house policy; docs/semantics.md)
            self.disconnected[seat] = self.add(EventKind.DISCONNECT_ALL_IN.value, no, raw, seat, name, all_in=True)
            return True
        if action == "allin":
            # 'allin' with no amount: the site's action line that follows its disconnect line,
            # adding nothing; one event with it (its text keeps both lines)
            prev = self.disconnected.pop(seat, None)
            if prev is None or prev.street != self.street:
                raise Reject("allin-unexplained", no, f"line {no}: 'allin' with no amount and no disconnect line "
                             f"before it on this street: the chips it adds are not written: {raw.strip()!r}")
            prev.text = f"{prev.text}\n{raw}"
            return True
        if action in ("folds", "checks"):
            if action == "folds":
                self.folded.add(seat)
            self.add(EventKind.FOLD.value if action == "folds" else EventKind.CHECK.value, no, raw, seat, name)
            return True
        if action == "mucks cards":
            # the same words for a loser's muck and for a winner everyone folded to
            uncontested = {s for s, e in self.acted.items() if e} - self.folded == {seat}
            kind = EventKind.NO_SHOW.value if uncontested else EventKind.MUCK.value
            self.add(kind, no, raw, seat, name, street=Street.SHOWDOWN.value)
            return True
        if action == "sitting out":
            if seat is not None:  # a player with no seat line has no seat row to mark
                seats_by_no[seat].sitting_out = True
            return True
        if action in _LEGACY_IGNORED:
            return True
        if action == "received a card.":
            return True  # a hidden card: nothing to record
        if action.startswith("received card: [") and action.endswith("]"):
            card = _legacy_card(action[16:-1], no)
            # a seat's cards of one street are one deal (stud: the last of third street's is up)
            prev = self.dealt.get((self.street, seat))
            if prev is not None:
                prev.cards = f"{prev.cards} {card}"
                prev.text = f"{prev.text}\n{raw}"
            else:
                self.dealt[(self.street, seat)] = self.add(EventKind.DEAL_HOLE.value, no, raw, seat, name, cards=card)
            return True
        return False

    def result(self, text: str, raw: str, no: int) -> None:
        m = _LEGACY_RESULT.match(text)
        if not m:
            raise Reject("parse-error", no, f"line {no}: summary line not understood: {text!r}")
        rest = m.group("rest")
        name = next((n for n in self.by_length if rest == n), None)
        if name is None and m.group("bets") == m.group("collects") == "0" and m.group("shown") is None:
            return  # a line for a player with no seat who put nothing in and won nothing: nothing to record
        if name is None and rest == self.seatless_name:
            name = rest
        if name is None:
            raise Reject("unseated-player", no, f"line {no}: a result for a player with no seat line who did not act: {text!r}")
        seat = self.names.get(name)
        # the summary lists the seats in seat order, not in the order they showed
        showdown = Street.SUMMARY.value
        if m.group("shown") is not None:
            cards = " ".join(_legacy_card(c, no) for c in m.group("shown").split())
            self.add(EventKind.SHOW.value, no, raw, seat, name, cards=cards, street=showdown)
        elif m.group("mucked") is not None:
            cards = " ".join(_legacy_card(c, no) for c in m.group("mucked").split())
            self.add(EventKind.MUCK.value, no, raw, seat, name, cards=cards, street=showdown)
        collects = self.amt(m.group("collects"), no)
        if collects:
            self.add(EventKind.COLLECT.value, no, raw, seat, name, collects, street=Street.SUMMARY.value, pot_label="pot")


class WpnLegacyParser:
    """WPN's format of 2016 and before.

    It never says whether the game is no-limit, pot-limit or fixed-limit (nor the
    tournament, nor the currency), and its stakes ('Game ID: <n> 1/2 ...') are the
    blinds or the bets according to that structure.  Nothing is guessed: each hand
    is stored with ``betting = 'unrecorded'`` and no blind or bet sizes; the replay
    follows every action and settles the pots, and judges no rule that depends on
    the structure (the ``betting-unrecorded`` check says so, once a hand).

    What the format writes its own way:

    - amounts in parentheses are the chips the player adds (``raises (40)`` after a
      blind of 20 is a raise to 60); ``allin (N)`` adds N as a call, bet or raise;
    - ``posts (N)``: a blind posted by a player entering the game, live;
    - ``posts (N) as a dead bet``: the small blind he missed, posted dead beside it;
    - one ``received card: [Kc]`` line a card, ``received a card.`` for a hidden one;
      ``10`` for a ten;
    - stud's ``*** Third street ***`` opens the round the rules call fourth street;
    - ``Pot: X. Rake R. JP fee J``: X is net of the house's take (the total_pot event's
      amount adds it back, to_amount holds it); each summary line gives the seat's
      ``Collects``, the collect event (its ``Bets`` are not used: some exports write 0).

    A player acting with no seat line ('Player  has big blind (2)': no name written)
    has his events recorded with no seat (``seatless_actor``).  A capped table's
    ``caps (N)`` is a call, bet or raise of N, and the total it takes its player to is
    the hand's cap (hands.cap: the header names none).  ``is disconnected and
    ALL IN.`` then ``allin`` with no amount (the site's disconnect protection: all in
    with chips behind) is one ``disconnect_all_in`` event holding both lines.

    Rejected: a second player with no seat line (``unseated-player``), a board street
    with no cards (``board-unrecorded``), and an ``allin`` with no amount and no disconnect line
    before it (``allin-unexplained``).

    >>> text = '''Game started at: 2016/8/2 10:50:44
    ... Game ID: 693967308 0.02/0.05 (PRR) Cyclops - 6 (Hold'em)
    ... Seat 1 is the button
    ... Seat 1: Ann (5).
    ... Seat 2: Bob (5).
    ... Player Ann has small blind (0.02)
    ... Player Bob has big blind (0.05)
    ... Player Ann raises (0.13)
    ... Player Bob folds
    ... Uncalled bet (0.10) returned to Ann
    ... ------ Summary ------
    ... Pot: 0.10
    ... *Player Ann does not show cards.Bets: 0.05. Collects: 0.10. Wins: 0.05.
    ... Player Bob does not show cards.Bets: 0.05. Collects: 0. Loses: 0.05.
    ... Game ended at: 2016/8/2 10:51:02'''
    >>> [h] = WpnLegacyParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
    >>> h.hand_id, h.betting, h.amount_scale, h.big_blind, h.is_tournament
    ('WPN-693967308', 'unrecorded', 100, None, False)
    >>> [(e.kind, e.player, e.amount, e.to_amount) for e in h.events[2:5]]
    [('raise', 'Ann', 13, 15), ('fold', 'Bob', None, None), ('uncalled_return', 'Ann', 10, None)]
    """

    name = "wpn-legacy"
    hand_start = re.compile(rb"^Game started at: ", re.M)

    def detect(self, head: str, path: str) -> bool:
        # the first hand's start, and a 'Game ID' line in the first lines (a hand whose own
        # is missing is still this format's, and is rejected by itself)
        lines = [line for line in head.lstrip("\ufeff").splitlines()[:200] if line.strip()]
        return bool(lines) and lines[0].startswith(LEGACY_START) and any(x.startswith("Game ID: ") for x in lines)

    def iter_hands(self, lines: Iterator[tuple[int, int, str]], path: str,
                   cut_by_end: int | None = None) -> Iterator[ParsedHand | HandError]:
        buf: list[tuple[int, int, str]] = []
        stray: int | None = None
        for no, off, text in lines:
            text = text.lstrip("\ufeff")
            if text.startswith(LEGACY_START):
                if buf:
                    yield self._hand(buf)
                buf = [(no, off, text)]
            elif buf:
                buf.append((no, off, text))
            elif text.strip() and stray is None:
                stray = no
        if buf:
            yield self._hand(buf)
        if stray is not None:
            yield HandError(stray, "truncated", f"line {stray} comes before any WPN hand ('Game started at:')")

    @staticmethod
    def _hand(buf: list[tuple[int, int, str]]) -> ParsedHand | HandError:
        while len(buf) > 1 and not buf[-1][2].strip():
            buf.pop()
        id_line = next((t for _, _, t in buf if t.startswith("Game ID: ")), "")
        m = _LEGACY_ID.match(id_line)
        hand_id = f"WPN-{m.group('num')}" if m else None
        scale = 1
        try:
            while True:
                try:
                    return _LegacyHand(buf, scale).read()
                except Rescale as r:
                    if r.digits > MAX_DECIMALS:
                        raise Reject("amount-out-of-range", buf[0][0], f"hand at line {buf[0][0]}: an amount has {r.digits} decimal places")
                    scale = 10**r.digits
        except Reject as rej:
            return HandError(rej.line_no, rej.code, rej.reason, hand_id)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError) as e:
            no = buf[0][0]
            return HandError(no, "parse-error", f"hand at line {no}: {e}", hand_id)
