"""PartyPoker text histories, in the header formats the corpus holds from 2005 to 2026:

* ``Game #N starts.`` / ``#Game No : N`` / ``***** Hand History for Game N *****``
  then ``NL Texas Hold'em $30 Buy-in + $3 Entry Fee Trny:15286975 Level:4 Blinds(50/100) - <date>``
  (tournaments; the ``Trny:`` and ``Blinds(`` parts may instead follow the seats) or
  ``$0.50/$1 USD NL Texas Hold'em - <date>`` (cash); wins written as
  ``X wins 4,080 chips from the main pot with ...`` and no summary;
* ``***** Hand History For Game 1618961225358jrdwo4ad458 *****`` (2021 on) then
  ``2000000/4000000 Tourney Texas Holdem Game Table (NL) (MTT Tournament #N) (Buyin $50.0 + $5.0) - <date>``,
  ``raises A to B``, and a ``** Summary **`` with ``Main Pot: X Rake: Y`` and one balance line a seat;
* histories of other rooms converted to this shape by tracking tools, marked
  ``***** Hand History for Game N ***** (PokerBros)``: their site is that room.

The shared shape (posts, actions, streets, the inferred uncalled bet) is read by
:mod:`parsers.party_family`.

>>> text = '''Game #5 starts.
...
... #Game No : 5
... ***** Hand History for Game 5 *****
... NL Texas Hold'em $1 USD Buy-in Trny: 77 Level: 1  Blinds(10/20) - Sunday, July 24, 19:32:00 CEST 2016
... Table $1 Sit & Go (77) Table #1 (Real Money)
... Seat 3 is the button
... Total number of players : 2/4
... Seat 3: Ann ( 1,500 )
... Seat 1: Bob ( 500 )
... Ann posts small blind [10].
... Bob posts big blind [20].
... ** Dealing down cards **
... Ann raises [60]
... Bob folds
... Ann does not show cards.
... Ann wins 90 chips'''
>>> [h] = PartyPokerParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.tournament_id, h.level, h.big_blind, h.first_line, [s.starting_stack for s in h.seats]
('PP-5', '77', '1', 20, 1, [1500, 500])
>>> [(e.kind, e.amount, e.to_amount) for e in h.events if e.kind in ('raise', 'uncalled_return', 'collect')]
[('raise', 50, 70), ('uncalled_return', 50, None), ('collect', 40, None)]
"""

from __future__ import annotations

import re
from itertools import product
from typing import Final, cast

from auditor.schema import Betting, Variant
from parsers.base import Event, HandError, ParsedHand, inferred_from
from parsers.party_family import (K, S, FamilyParser, Marker, FamilyReader, Reject, ascending, chips_in_pot, currency_of, date_at,
                                    date_plan)

_LIMIT: Final = re.compile(r"(?:^|[\s(])(NL|PL|FL)(?:[\s)]|$)")
_LIMITS: Final = {"NL": Betting.NO_LIMIT.value, "PL": Betting.POT_LIMIT.value, "FL": Betting.FIXED_LIMIT.value}
# longest first: 'Omaha Hi-Lo' before 'Omaha Hi' before 'Omaha'
_GAMES: Final[tuple[tuple[str, str], ...]] = (  # typed: compiled, 'name in head' is a str search
    ("7 Card Stud Hi-Lo", Variant.STUD_HILO.value),
    ("7 Card Stud", Variant.STUD.value),
    ("Omaha Hi-Lo", Variant.OMAHA_HILO.value),
    ("Omaha Hi", Variant.OMAHA.value),
    ("Omaha", Variant.OMAHA.value),
    ("Double Hold'em", Variant.DOUBLE_HOLDEM.value),
    ("Texas Hold'em", Variant.HOLDEM.value),
    ("Texas Holdem", Variant.HOLDEM.value),
    ("Holdem", Variant.HOLDEM.value),
    # ante-only: each player antes, the button adds a button blind (read as the big blind,
    # as PokerStars' 6+ hold'em); the header's pair is the ante and the least raise-to
    ("Short Deck", Variant.SIX_PLUS_HOLDEM.value),
)
_STUD: Final = {Variant.STUD.value, Variant.STUD_HILO.value}
_FIXED_LIMIT: Final = Betting.FIXED_LIMIT.value  # (an Enum's value is a Python call a use, compiled too)
_SIX_PLUS: Final = Variant.SIX_PLUS_HOLDEM.value
_TRNY: Final = re.compile(r"Trny: ?(\d+)")
_TOURNAMENT: Final = re.compile(r"Tournament #(\d+)")
_TABLE_TOURNAMENT: Final = re.compile(r"\((\d+)\) Table #")  # a sit-and-go's table line: 'Table $1 Sit & Go (77) Table #1'
_LEVEL: Final = re.compile(r"Level: ?(\d+)")
# the words that open a stakes part, 'Blinds(20/40)', 'Blinds-Antes(20/40 -5)', 'Stakes(200/400)' (fixed limit: the
# small and big bet), 'Stakes-Antes(60/120-10)' (stud): one entry a wording
_STAKES_WORDS: Final[tuple[str, ...]] = ("Blinds", "Stakes")
# a big blind may group its thousands with a space, as the small blind: 'Blinds-Antes(1 200/2 400 -400)' (a 2016
# Powerfest main event, Moscow time)
_BLINDS: Final = re.compile(r"(?:" + "|".join(_STAKES_WORDS) + r")(?:-Antes)?\((?P<sb>[^/()]+)/(?P<bb>[^/()\s-]+(?: \d{3})*)(?: ?-(?P<ante>[^()]+))?\)")
_STAKES: Final = re.compile(r"^\s*(?P<sb>[$€£]?[\d.,]+)/(?P<bb>[$€£]?[\d.,]+)\b")
_BUY_IN: Final = re.compile(r"(?:^|\s)(?P<buyin>[$€£]?\s?[\d.,]+(?: USD| EUR)? Buy-in(?:\s+\+ [$€£]?[\d.,]+ Entry Fee)?)|\(Buyin (?P<buyin2>[^)]*)\)")
# what follows the dash that ends a game line's game part (split_date)
_WEEKDAY: Final = re.compile(r"\s*(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*[ ,]")
_TABLE: Final = re.compile(r"^Table (?P<name>.*?)\s*\(\s*(?:Real|Play) Money\s*\)(?:\s*--\s*Seat (?P<btn>\d+) is the button)?\s*$")
_WINS: Final = re.compile(
    r"^wins (?:Lo \((?P<lo>[^)]*)\)|(?P<amt>[^()]+?)(?: chips)?)"
    r"(?:\s+from\s+(?:the\s+)?(?P<pot>main pot|side pot(?:\s+#?(?P<n>\d+))?))?\s*(?:with .*)?\.?$"
)
_BALANCE: Final = re.compile(
    r"^balance (?P<bal>[^,]+), (?:bet (?P<bet>[^,]+), collected (?P<col>[^,]+), net [+-]?[^\[]+?"
    r"|lost (?P<lost>[^\[(]+?)(?: \(folded\))?|didn't bet \(folded\)|sits out)\s*(?P<cards>\[.*)?$"
)
# 'Main Pot: X[ Side Pot 1: Y ...][ Rake: Z]' (an amount may be followed by its currency word)
_MAIN_POT: Final = re.compile(r"^Main Pot: (?P<main>[^ ]+(?: [^ RS]+)?)(?P<sides>(?: Side Pot \d+: [^ ]+(?: [^ RS]+)?)*)"
                              r"(?: Rake: (?P<rake>\S+))?$")
_SIDE_POT: Final = re.compile(r" Side Pot \d+: ([^ ]+(?: [^ RS]+)?)")
_CASH_OUT: Final[tuple[str, ...]] = ("opted for cash-out", "Cash-out Premium", "Cashout Amount", "Cashed out", "probabilty is")
# a cash-out's lines after the player's name: the offer's terms and his choice, which record
# nothing of their own (the amount line is the event), and the amount the house pays him
_CASH_OUT_NOTES: Final[tuple[str, ...]] = ("Cash-out Premium % is ", "opted for cash-out", "probabilty is ")
_CASH_OUT_AMOUNT: Final = "Cashout Amount is "
_CASHED_OUT: Final = "Cashed out "  # the summary's balance line of a player who cashed out
_ORIGINS: Final = {"Poker Stars": "pokerstars", "PokerStars": "pokerstars", "PokerBros": "pokerbros", "WPN": "wpn"}

# notices the Mac client writes with the next line glued on
_GLUED_NOTICES: Final[tuple[str, ...]] = ("is sitting out", "has joined the table", "has left the table", "has returned", "sits out",
                                          "does not show cards.")  # 'Player2 does not show cards.Player2 wins $1,10 USD'
_GLUED_FIRST: Final = frozenset(n[0] for n in _GLUED_NOTICES)
_POST_KINDS: Final = frozenset({K.ANTE, K.SMALL_BLIND, K.BIG_BLIND, K.DEAD_BLIND, K.STRADDLE})
_BLINDS_LINES: Final[tuple[str, ...]] = ("Seat ", "NL ", "PL ", "FL ") + _STAKES_WORDS  # where implied blinds are read from


def _spaces_end(text: str, i: int) -> int:
    """Where the spaces from ``i`` on end."""
    while i < len(text) and text[i] == " ":
        i += 1
    return i


def _win_end(text: str, i: int) -> bool:
    """Does the end of ``_WINS`` (``\\s*(?:with .*)?\\.?$``) read ``text`` from ``i``, spaces its only blanks?"""
    rest = text[i:].lstrip(" ")
    return rest == "" or rest == "." or rest.startswith("with ")


def _win_pot(text: str, i: int) -> tuple[bool, str | None, str | None]:
    """Whether ``_WINS``' pot part and end read ``text`` from ``i`` (spaces its only blanks), and
    its groups pot and n: the choices the pattern makes, in its order."""
    j = _spaces_end(text, i)
    if j > i and text.startswith("from", j):
        k = _spaces_end(text, j + 4)
        if k > j + 4:
            after = _spaces_end(text, k + 3) if text.startswith("the", k) else k
            for at in ((after, k) if after > k + 3 else (k,)):  # 'the ' read first, then without it
                if text.startswith("main pot", at):
                    if _win_end(text, at + 8):
                        return True, "main pot", None
                elif text.startswith("side pot", at):
                    end = at + 8
                    digits_at = _spaces_end(text, end)
                    if digits_at > end:
                        if text.startswith("#", digits_at):
                            digits_at += 1
                        d = digits_at
                        while d < len(text) and "0" <= text[d] <= "9":
                            d += 1
                        if d > digits_at and _win_end(text, d):  # (the end never starts at a digit)
                            return True, text[at:d], text[digits_at:d]
                    if _win_end(text, end):
                        return True, "side pot", None
    return _win_end(text, i), None, None


def win_fields(action: str) -> tuple[str | None, str | None, str | None, str | None] | None:
    """The groups of ``_WINS`` (lo, amount, pot, pot number) in a win line's action, or None.

    A line of printable ASCII without parentheses (its only blank a space, no 'Lo (...)') is
    read by string methods, as the pattern reads it: its amount is the shortest (lazy) that
    the rest then reads; any other line by the pattern.

    >>> win_fields("wins 1,250 chips from  the main pot  with a pair."), win_fields("wins $3.04 USD")
    ((None, '1,250', 'main pot', None), (None, '$3.04 USD', None, None))
    >>> win_fields("wins 20 chips from side pot #1"), win_fields("wins Lo ($1 USD) from the main pot")
    ((None, '20', 'side pot #1', '1'), ('$1 USD', None, 'main pot', None))
    """
    if "(" in action or ")" in action or not (action.isascii() and action.isprintable()):
        wm = _WINS.match(action)
        return cast("tuple[str | None, str | None, str | None, str | None]", wm.groups()) if wm else None
    if not action.startswith("wins "):
        return None
    size = len(action)
    p = 6
    while p <= size:
        # the rest starts at a space, a '.', a 'with ' or the end: the next such place
        q = size
        at = action.find(" ", p, q)
        if at >= 0:
            q = at
        at = action.find(".", p, q)
        if at >= 0:
            q = at
        at = action.find("with ", p, q + 4)
        if 0 <= at < q:
            q = at
        p = q
        ok, pot, n = _win_pot(action, p + 6 if action.startswith(" chips", p) else p)
        if ok:
            return None, action[5:p], pot, n
        p += 1
    return None


class _GameLine:
    """What ``PartyReader.game`` read of a game line's text before its date (at one scale):
    the hands of a table repeat that text, and only their dates differ."""

    def __init__(self, hand: ParsedHand, scale: int, chips: bool) -> None:
        self.variant, self.betting, self.game_label = hand.variant, hand.betting, hand.game_label
        self.is_tournament, self.tournament_id, self.level = hand.is_tournament, hand.tournament_id, hand.level
        self.buy_in, self.currency, self.ante = hand.buy_in, hand.currency, hand.ante
        self.small_blind, self.big_blind, self.min_bet = hand.small_blind, hand.big_blind, hand.min_bet
        self.small_bet, self.big_bet = hand.small_bet, hand.big_bet
        self.scale, self.chips = scale, chips

    def put(self, hand: ParsedHand) -> None:
        """The fields ``game`` sets, on a hand just begun (every other one is its default)."""
        hand.variant, hand.betting, hand.game_label = self.variant, self.betting, self.game_label
        hand.is_tournament, hand.tournament_id, hand.level = self.is_tournament, self.tournament_id, self.level
        hand.buy_in, hand.currency, hand.ante = self.buy_in, self.currency, self.ante
        hand.small_blind, hand.big_blind, hand.min_bet = self.small_blind, self.big_blind, self.min_bet
        hand.small_bet, hand.big_bet = self.small_bet, self.big_bet


_KEPT: Final = 4096  # game and table lines a cache holds before it starts again
_MASK_DIGITS: Final = bytes.maketrans(b"123456789", b"000000000")
# by the game line with its digits masked: where its date starts (the dash), and date_plan's plan of the date
_DATE_CUTS: Final[dict[bytes, tuple[int, tuple[int, ...]]]] = {}


def digits_masked(text: str) -> bytes:
    """``text`` in UTF-8 with every ASCII digit made '0' (the bytes of a digit are no part of
    any other character's; a bytes table, where str.translate looks each character up).

    >>> digits_masked("Sunday, July 24, 19:32:00 CEST 2016 €5")
    b'Sunday, July 00, 00:00:00 CEST 0000 \\xe2\\x82\\xac0'
    """
    return text.encode("utf-8").translate(_MASK_DIGITS)
_GAME_LINES: Final[dict[tuple[str, int], _GameLine]] = {}  # by the text before the date, and the scale read at
_TABLE_LINES: Final[dict[str, tuple[str, str | None, str | None]]] = {}  # table line -> name, button, tournament
_LEVEL_LINES: Final[dict[str, tuple[str | None, str | None]]] = {}  # 'Trny:1 Level:4' -> its tournament and level
_BLINDS_TEXTS: Final[dict[str, tuple[str, str, str | None]]] = {}  # 'Blinds(20/40)' -> _BLINDS' groups (sb, bb, ante)


def split_date(text: str) -> list[str]:
    """The game line cut at the first dash followed by a weekday (spaces between
    allowed; the parts are stripped after), or the line whole if none: the weekday
    pattern tried at the dashes only, not at every position of the line.

    >>> split_date("$1/$2 USD FL Omaha Hi-Lo - Thursday, January 26, 18:13:53 EST 2012")
    ['$1/$2 USD FL Omaha Hi-Lo ', ' Thursday, January 26, 18:13:53 EST 2012']
    >>> split_date("Omaha Hi-Saturday,February 4"), split_date("no date")
    (['Omaha Hi', 'Saturday,February 4'], ['no date'])
    """
    dash = text.find("-")
    while dash >= 0:
        if _WEEKDAY.match(text, dash + 1):
            return [text[:dash], text[dash + 1:]]
        dash = text.find("-", dash + 1)
    return [text]


class PartyReader(FamilyReader):
    site = "partypoker"
    format = "partypoker"
    id_prefix = "PP"

    def site_of(self, m: Marker) -> str:
        origin = m[2]
        if not origin:
            return self.site
        return _ORIGINS.get(origin, "".join(c for c in origin.lower() if c.isalnum()))

    def header(self, hand: ParsedHand, i: int) -> int:
        no, off, game = self.buf[i]
        self.raw = game
        text = game.strip()
        # where the date starts and how it reads: the same for a table's hands, whose game lines
        # differ in their digits only (a line with its ASCII digits masked keys it; split_date and
        # date_plan read any digit alike), found once a table, not by two or three searches a hand
        masked = digits_masked(text)
        cut = _DATE_CUTS.get(masked)
        if cut is None:
            parts = split_date(text)  # also 'Omaha Hi-Saturday,February 4, ...': the date glued to the game
            if len(parts) != 2:
                raise self.fail(no, game, "game line not understood")
            cut = (len(parts[0]), date_plan(parts[1].strip()))
            if len(_DATE_CUTS) >= _KEPT:
                _DATE_CUTS.clear()
            _DATE_CUTS[masked] = cut
        dash, plan = cut
        head, date = text[:dash].strip(), text[dash + 1:].strip()
        hand.started_at_text = date
        hand.started_at = date_at(date, plan)
        # what the game line says before its date is read once a table, not once a hand
        key = (head, self.scale)
        read = _GAME_LINES.get(key)
        if read is None:
            self.game(hand, no, game, head)
            if len(_GAME_LINES) >= _KEPT:
                _GAME_LINES.clear()
            _GAME_LINES[key] = _GameLine(hand, self.scale, self.chips)
        else:
            read.put(hand)
            self.scale, self.chips = read.scale, read.chips
        i += 1
        no_t, off, table = self.buf[i]
        found = _TABLE_LINES.get(table)
        if found is None:
            tm2 = _TABLE.match(table.strip())
            if not tm2:
                raise self.fail(no_t, table, "table line not understood")
            table_name, btn = tm2.groups()
            tr = _TABLE_TOURNAMENT.search(table)
            found = (cast(str, table_name), cast("str | None", btn), tr.group(1) if tr else None)
            if len(_TABLE_LINES) >= _KEPT:
                _TABLE_LINES.clear()
            _TABLE_LINES[table] = found
        table_name, btn, table_tournament = found
        hand.table_name = table_name
        if btn:
            hand.button_seat = int(btn)
        if hand.tournament_id is None and hand.is_tournament:
            hand.tournament_id = table_tournament
        return i + 1

    def game(self, hand: ParsedHand, no: int, game: str, head: str) -> None:
        """The game line's text before its date: the game, limit, stakes or tournament."""
        for name, variant in _GAMES:
            if name in head:
                hand.variant, hand.game_label = variant, name
                break
        else:
            raise Reject("unsupported-game", no, f"line {no}: game not understood: {game!r}")
        # each pattern searched only where the words it needs are (a search is a Python call, compiled or not)
        lm = _LIMIT.search(head) if "NL" in head or "PL" in head or "FL" in head else None
        # histories of fixed-limit games before 2012 name no limit
        limit = lm.group(1) if lm else None
        hand.betting = _LIMITS[limit] if limit else _FIXED_LIMIT
        hand.game_label = f"{limit + ' ' if limit else ''}{hand.game_label}"
        hand.is_tournament = "Buy-in" in head or "Trny" in head or "Tourney" in head or "Tournament" in head
        self.scale = self.scale or (1 if hand.is_tournament else 100)
        self.chips = hand.is_tournament
        if hand.is_tournament:
            tm = (_TRNY.search(head) if "Trny:" in head else None) or (_TOURNAMENT.search(head) if "Tournament #" in head else None)
            hand.tournament_id = tm.group(1) if tm else None
            lv = _LEVEL.search(head) if "Level:" in head else None
            hand.level = lv.group(1) if lv else None
            bi = _BUY_IN.search(head) if "Buy-in" in head or "(Buyin " in head else None
            if bi:
                hand.buy_in = " ".join((bi.group("buyin") or bi.group("buyin2")).split())
        else:
            hand.currency = currency_of(head)
        bl = _BLINDS.search(head) if "Blinds" in head or "Stakes" in head else None
        st = None if bl or hand.variant == _SIX_PLUS or "/" not in head else _STAKES.match(head)
        if bl:
            self.blinds(hand, bl)
        elif st and (hand.is_tournament or "/" in head.split(" ")[0]):
            sb, bb = st.groups()  # one call
            if hand.betting == _FIXED_LIMIT:
                hand.small_bet, hand.big_bet = self.amt(sb), self.amt(bb)
            else:
                hand.small_blind, hand.big_blind = self.amt(sb), self.amt(bb)
                hand.min_bet = hand.big_blind
        elif not hand.is_tournament:
            # '$0.80 USD NL Texas Hold'em': the table's buy-in, not its stakes; blinds come from the posts
            hand.buy_in = head.split(" NL ")[0].split(" PL ")[0] if "USD" in head or "EUR" in head else None

    def blinds(self, hand: ParsedHand, bl: re.Match) -> None:
        self.blinds_of_texts(hand, cast("tuple[str, str, str | None]", bl.groups()))

    def blinds_of_texts(self, hand: ParsedHand, texts: tuple[str, str, str | None]) -> None:
        """The blinds (and ante) of ``_BLINDS``' groups."""
        sb_text, bb_text, ante_text = texts
        sb, bb = self.amt(sb_text), self.amt(bb_text)
        if hand.betting == _FIXED_LIMIT:
            hand.small_bet, hand.big_bet = sb, bb
        else:
            hand.small_blind, hand.big_blind, hand.min_bet = sb, bb, bb
        if ante_text:
            hand.ante = self.amt(ante_text)

    def header_line(self, hand: ParsedHand, no: int, text: str) -> bool:
        t = text.strip()
        if t.startswith("Trny:"):
            # (a table's hands repeat the line: its two searches' groups are kept by its text)
            found = _LEVEL_LINES.get(t)
            if found is None:
                tm, lv = _TRNY.search(t), _LEVEL.search(t)
                found = (tm.group(1) if tm else None, lv.group(1) if lv else None)
                if len(_LEVEL_LINES) >= _KEPT:
                    _LEVEL_LINES.clear()
                _LEVEL_LINES[t] = found
            tournament, level = found
            if hand.tournament_id is None and tournament is not None:
                hand.tournament_id = tournament
            if level is not None:  # the level the hand was played at: it may have changed since the game line
                hand.level = level
            return True
        if t.startswith(_STAKES_WORDS):
            # (a table's hands repeat the line, as the 'Trny:' line: its match's groups kept by its text)
            texts = _BLINDS_TEXTS.get(t)
            if texts is None:
                bl = _BLINDS.match(t)
                if not bl:
                    raise self.fail(no, text, "blinds not understood")
                texts = cast("tuple[str, str, str | None]", bl.groups())
                if len(_BLINDS_TEXTS) >= _KEPT:
                    _BLINDS_TEXTS.clear()
                _BLINDS_TEXTS[t] = texts
            self.blinds_of_texts(hand, texts)  # as the level line: these are the hand's blinds
            return True
        return False

    def body(self, hand: ParsedHand, i: int) -> None:
        # a cash-out's words are looked for in each line only where the hand holds them
        self.cash_out_words = "ash" in self.text or "probabilty" in self.text
        self.pending_blinds: list[Event] = []
        self.silent: list[tuple[int | None, str, int]] = []  # (seat, name, check line) of left-out posts
        self.limit_blinds(hand, i)
        if hand.variant not in _STUD and hand.big_blind and not self.posts_written(i):
            self.pending_blinds = self.implied_blinds(hand)
        super().body(hand, i)

    def limit_blinds(self, hand: ParsedHand, i: int) -> None:
        """Fixed-limit tournaments of 2012 write 'Stakes(200/400)', the small and big bet, and no
        posts: the blinds are half the small bet and the small bet (the structure of Party's limit
        games, as the raises and the win of these hands add up to), posted as ``implied_blinds`` says."""
        if (hand.variant not in _STUD and hand.big_blind is None and hand.betting == _FIXED_LIMIT and hand.small_bet
                and hand.small_bet % 2 == 0 and not self.posts_written(i)):
            hand.small_blind, hand.big_blind = hand.small_bet // 2, hand.small_bet

    def posts_written(self, i: int) -> bool:
        """Whether a blind post is written from line ``i`` on: looked for in the hand's text
        from that line's place (a word with no line break is found there in those lines only)."""
        buf = self.buf
        start = 0
        for k in range(i):  # (the text joins the lines with one line break each)
            start += len(buf[k][2]) + 1
        text = self.text
        return text.find(" posts small blind", start) >= 0 or text.find(" posts big blind", start) >= 0

    def implied_blinds(self, hand: ParsedHand) -> list[Event]:
        """Tournament histories before 2013 write no blind posts: the two seats after the
        button (heads-up: the button, then the other) post the level's blinds, as the
        calls that follow show.  Seats with no line in the hand are passed over.  Recorded
        as inferred, from the button and blinds lines."""
        buf = self.buf
        text = self.text
        if text.count("\n") != len(buf) - 1:  # a line holds a line break (not from a file): line by line
            return self.implied_blinds_by_lines(hand)
        # the lines are the text's, between its line breaks: each word looked for in the text once
        # (where each line was tried for it: the seats' names, the button and blinds words)
        hits: set[int] = set()
        for word in (" is the button",) + _STAKES_WORDS:
            at = text.find(word)
            while at >= 0:
                hits.add(text.count("\n", 0, at))
                at = text.find(word, at + 1)
        lines: list[int] = []
        for k in sorted(hits):
            if buf[k][2].strip().startswith(_BLINDS_LINES):
                lines.append(buf[k][0])
        # seats in play: with chips, and named by a line of the hand (a player moved in
        # from another table waits for the big blind and has no line): a line from the
        # marker's on that starts '<name> ' and not '<name> has joined'
        start = 0
        for k in range(self.marker_at):
            start += len(buf[k][2]) + 1
        spoken: set[str] = set()
        for name in self.names:
            n = len(name)
            if start == 0 and text.startswith(name + " ") and not text.startswith(" has joined", n):
                spoken.add(name)
                continue
            key = "\n" + name + " "
            at = text.find(key, start - 1 if start > 0 else 0)
            while at >= 0:
                if not text.startswith(" has joined", at + 1 + n):
                    spoken.add(name)
                    break
                at = text.find(key, at + 1)
        return self.blinds_of(hand, lines, spoken)

    def implied_blinds_by_lines(self, hand: ParsedHand) -> list[Event]:
        """``implied_blinds`` read a line at a time (for lines that hold a line break)."""
        buf = self.buf
        lines: list[int] = []
        for no, off, t in buf:
            if (" is the button" in t or "Blinds" in t or "Stakes" in t) and t.strip().startswith(_BLINDS_LINES):
                lines.append(no)
        spoken: set[str] = set()
        by_first = self.by_first
        for k in range(self.marker_at, len(buf)):
            t = buf[k][2]
            sp = t.find(" ")
            names = by_first.get(t[:sp]) if sp >= 0 else None
            if names is None:
                continue
            for name in names:
                n = len(name)
                if len(t) > n and t[n] == " " and t.startswith(name) and not t.startswith(" has joined", n):
                    spoken.add(name)
        return self.blinds_of(hand, lines, spoken)

    def blinds_of(self, hand: ParsedHand, lines: list[int], spoken: set[str]) -> list[Event]:
        """The blinds the button implies, given the button and blinds lines and the names
        that have a line of the hand."""
        named = {s.seat for s in hand.seats if s.player in spoken}
        seats = sorted(s.seat for s in hand.seats if s.starting_stack is not None and s.starting_stack > 0 and s.seat in named)
        if hand.button_seat is None or len(seats) < 2:
            raise Reject("no-blind-posts", self.buf[self.marker_at][0], f"hand at line {self.buf[self.marker_at][0]} writes no blind posts and no button to infer them from")
        after = [s for s in seats if s > hand.button_seat] + [s for s in seats if s <= hand.button_seat]
        sb_seat, bb_seat = (hand.button_seat, after[0]) if len(seats) == 2 else (after[0], after[1])
        if len(seats) == 2 and hand.button_seat not in seats:
            raise Reject("no-blind-posts", self.buf[self.marker_at][0], f"hand at line {self.buf[self.marker_at][0]} writes no blind posts and its button seat is empty")
        stacks = {s.seat: s.starting_stack for s in hand.seats if s.starting_stack is not None}  # Party writes every stack
        # the format writes no blind posts: inferred from the button and blinds lines, placed on the last
        placed = lines[-1] if lines else self.buf[self.marker_at][0]
        out = []
        for seat, kind, blind in ((sb_seat, K.SMALL_BLIND, hand.small_blind), (bb_seat, K.BIG_BLIND, hand.big_blind)):
            if blind is None:
                continue
            amount = min(blind, stacks[seat])
            out.append(Event(0, S.PREFLOP, kind, placed, seat, self.player_of(seat), amount, None, amount == stacks[seat],
                             text=self.line_text(placed), inferred_from=ascending(lines + [placed])))
        return out

    def marker(self, hand: ParsedHand, no: int, text: str) -> None:
        FamilyReader.marker(self, hand, no, text)
        if self.pending_blinds and self.street == S.PREFLOP:
            for e in self.pending_blinds:
                self.events.append(e)
                self.put(cast(int, e.seat), cast(int, e.amount))
            self.pending_blinds = []

    def action(self, hand: ParsedHand, no: int, text: str, name: str, action: str) -> None:
        if action[:1] in _GLUED_FIRST and self.glued(hand, no, text, action):
            return
        if (action.startswith("checks") and action.rstrip(". ") == "checks" and self.street == S.PREFLOP
                and self.current_bet > 0):
            seat = self.names[name]
            if self.committed.get(seat, 0) == 0:
                self.silent_post(hand, no, text, seat, name)
        FamilyReader.action(self, hand, no, text, name, action)  # directly: super() costs on every line

    def glued(self, hand: ParsedHand, no: int, text: str, action: str) -> bool:
        """The Mac client writes some notices with no line end before the next line
        ('Player3 is sitting outPlayer4 posts big blind [$0,25 USD].'): the notice
        records nothing, the seated player's line after it is read as its own."""
        for notice in _GLUED_NOTICES:
            if action.startswith(notice) and len(action) > len(notice):
                other, rest = self.actor(action[len(notice):])
                if other:
                    # (a win or balance line glued on is the site's own: read as such)
                    if not self.site_action(hand, no, text, other, rest.strip()):
                        self.action(hand, no, text, other, rest.strip())
                    return True
        return False

    def silent_post(self, hand: ParsedHand, no: int, text: str, seat: int | None, name: str) -> None:
        """A check before the flop by a player with nothing in: the history left out his
        post (Party's 'silent' post of a returning player).  The check shows the live
        part: the big blind, when nobody raised.  The post is the big blind or the small
        and big blind (the small dead); which one, :meth:`resolve_silent_posts` reads
        from the chips the hand settles."""
        if hand.is_tournament or hand.small_blind is None or hand.big_blind is None or self.current_bet != hand.big_blind:
            raise Reject("unrecorded-post", no, f"line {no}: {name!r} checks with no chips in before the flop: "
                         f"the history leaves out a post whose amount it does not say: {text!r}")
        self.silent.append((seat, name, no))
        self.put(seat, hand.big_blind)

    def resolve_silent_posts(self, hand: ParsedHand) -> None:
        """Each left-out post is recorded, inferred from its check line and the lines the
        pot settles on, when exactly one choice of amounts (big blind, or small + big)
        settles the hand: the wins and any written total re-add, and a cash rake is not
        below 0.  Otherwise the record does not say, and the hand is rejected."""
        assert hand.small_blind is not None and hand.big_blind is not None
        options = (hand.big_blind, hand.small_blind + hand.big_blind)
        fits = [amounts for amounts in product(options, repeat=len(self.silent))
                if self.settles(hand, self.with_posts(hand, amounts, ()))]
        checks = ", ".join(str(no) for _, _, no in self.silent)
        if len(fits) != 1:
            no = self.silent[0][2]
            why = "no choice of" if not fits else "more than one choice of"
            raise Reject("unrecorded-post", no, f"line {no}: a check before the flop with no chips in (lines {checks}): the "
                         f"history leaves out a post, and {why} big blind or small + big blind settles its pot")
        settle_lines = [e.line_no for e in self.events if e.kind in (K.COLLECT, K.TOTAL_POT)]
        self.events = self.with_posts(hand, fits[0], settle_lines)

    def with_posts(self, hand: ParsedHand, amounts: tuple[int, ...], settle_lines: list[int] | tuple[()]) -> list[Event]:
        """Copies of the events with the left-out posts inserted after the written ones."""
        events = [Event(e.seq, e.street, e.kind, e.line_no, e.seat, e.player, e.amount, e.to_amount, e.all_in, e.cards,
                        e.pot_label, e.half, e.text, e.inferred_from, e.run) for e in self.events]
        at = max((i + 1 for i, e in enumerate(events) if e.street == S.PREFLOP and e.kind in _POST_KINDS), default=0)
        posts = [Event(0, S.PREFLOP, K.BIG_BLIND if amount == hand.big_blind else K.DEAD_BLIND, no, seat, name,
                       amount, text=self.line_text(no), inferred_from=inferred_from(no, *settle_lines))
                 for (seat, name, no), amount in zip(self.silent, amounts)]
        return events[:at] + posts + events[at:]

    def settles(self, hand: ParsedHand, events: list[Event]) -> bool:
        """Whether the hand settles with these events: its wins are no more than the chips
        in the pot (cash: the rest is the rake), all of them in a tournament, and a
        written total is what was put in and, less its rake, what was won."""
        if not self.settled:
            return False  # a record cut before its results settles nothing (no post is inferred from it)
        # settled on the trial events in place of the reader's own (settle changes no other
        # state; a copy of the reader would need a compiled class to be copyable)
        own, self.events = self.events, events
        try:
            FamilyReader.settle(self, hand)
        except Reject:
            return False
        finally:
            self.events = own
        in_pot = chips_in_pot(events, hand.big_blind)
        won = sum(cast(int, e.amount) for e in events if e.kind == K.COLLECT)
        total = next((e for e in events if e.kind == K.TOTAL_POT), None)
        if total is not None and total.inferred_from is None:
            return total.amount == in_pot and won + (total.to_amount or 0) == in_pot
        return won == in_pot if hand.is_tournament else won <= in_pot

    def site_line(self, hand: ParsedHand, no: int, text: str) -> bool:
        if self.cash_out_words and ("ash" in text or "probabilty" in text) and any(c in text for c in _CASH_OUT):
            return self.cash_out(no, text)
        if text.startswith("Main Pot:"):
            mp = _MAIN_POT.match(text)
            if not mp:
                raise self.fail(no, text, "pot line not understood")
            main = self.amt(mp.group("main"))
            for side in _SIDE_POT.findall(mp.group("sides")):
                main += self.amt(side)
            rake = self.amt(mp.group("rake")) if mp.group("rake") else 0
            # the main pot (and the side pots) are written after rake: the total is all
            self.add(S.SUMMARY, K.TOTAL_POT, no, amount=main + rake, to_amount=rake)
            return True
        if self.raw.startswith(" ") and "" in self.names and (" wins " in text or " balance " in text):
            # a line of the nameless seat's hand that starts with a space: its win is looked for
            # as the line stripped reads (body reads the line with its space, for the nameless seat)
            name, action = self.actor(text)
            return name is not None and self.site_action(hand, no, text, name, action)
        return False

    def site_action(self, hand: ParsedHand, no: int, text: str, name: str, action: str) -> bool:
        # (actor found a name of the stripped line, never the nameless seat's: the line holds the
        # ' wins ' or ' balance ' that site_line tested for before, right after the name)
        if action.startswith("wins "):
            self.wins(hand, no, text, name, action)
            return True
        if action.startswith("balance "):
            self.balance(no, text, name, action)
            return True
        return False

    def wins(self, hand: ParsedHand, no: int, text: str, name: str, action: str) -> None:
        # a Mac client writes two win lines on one: '...Aces and Queens.Player4 wins $27,36 USD ...'
        # (the action starts 'wins ': a second win holds ' wins ')
        if " wins " in action:
            for other in sorted(self.names, key=len, reverse=True):  # longest first: one name may start another
                glued = action.find("." + other + " wins ")
                if other and glued > 0:
                    self.wins(hand, no, text, name, action[: glued + 1])
                    self.wins(hand, no, text, other, action[glued + 2 + len(other):])
                    return
        fields = win_fields(action)
        if fields is None:
            raise self.fail(no, text)
        lo, amt, pot, n = fields
        label = "pot" if not pot else "main" if pot == "main pot" else f"side-{n or 1}"
        if lo is not None:
            self.collect(no, name, self.amt(lo), label, "lo")
        else:
            assert amt is not None  # (the pattern's other branch)
            half = "hi" if hand.variant in ("omaha_hilo", "stud_hilo") and " for low" not in action else None
            self.collect(no, name, self.amt(amt), label, half)

    def cash_out(self, no: int, text: str) -> bool:
        """A cash-out's line (event cash_out): 'Ann Cashout Amount is 23.01', the amount the
        house pays him, on the street it is written on (the fee is written as a premium
        percent, not an amount: none recorded); the offer's other lines record nothing; the
        summary's 'Ann Cashed out  balance ...' is his seat's result, whose 'collected' is
        the cash-out's money, not a pot's."""
        name, action = self.actor(text)
        if name is None:
            raise self.fail(no, text, "cash-out line not understood")
        if action.startswith(_CASH_OUT_NOTES):
            return True
        if action.startswith(_CASH_OUT_AMOUNT):
            self.add(self.street, K.CASH_OUT, no, self.names[name], name, amount=self.amt(action[len(_CASH_OUT_AMOUNT):].strip()))
            return True
        if action.startswith(_CASHED_OUT):
            self.balance(no, text, name, action[len(_CASHED_OUT):].lstrip(), cashed_out=True)
            return True
        raise self.fail(no, text, "cash-out line not understood")

    def balance(self, no: int, text: str, name: str, action: str, cashed_out: bool = False) -> None:
        bm = _BALANCE.match(action)
        if not bm:
            raise self.fail(no, text, "balance line not understood")
        self.settled = True
        seat = self.names[name]
        # a player who cashed out: 'collected' is what the house paid him (his cash_out), no pot's
        won = bm.group("col") if not cashed_out else None
        self.add(S.SUMMARY, K.SEAT_RESULT, no, seat, name, amount=self.amt(won) if won else None)
        if won:
            self.collect(no, name, self.amt(won))
        cards = bm.group("cards")
        if cards and "(folded)" not in action:
            self.add(S.SUMMARY, K.SHOW, no, seat, name, cards=self.cards(cards[: cards.index("]") + 1], no))

    def settle(self, hand: ParsedHand) -> None:
        # the summary's seat results hold what the seat collected as written (with any
        # uncalled chips); the collect events carry the pot, after settle
        if self.silent:
            self.resolve_silent_posts(hand)
        super().settle(hand)
        if hand.variant in _STUD and hand.bring_in is None:
            hand.bring_in = next((e.amount for e in self.events if e.kind == K.BRING_IN), None)


class PartyPokerParser(FamilyParser):
    """Reads PartyPoker text histories (see the module docstring)."""

    name = "partypoker"
    reader = PartyReader

    def accepts_marker(self, m: Marker) -> bool:
        """The marker names no brand (an 888 marker names one).

        >>> PartyPokerParser().detect("#Game No : 1\\n***** Hand History for Game 1 *****", "a")
        True
        >>> PartyPokerParser().detect("***** 888poker Hand History for Game 1 *****", "a")
        False
        """
        return m[0] is None


__all__ = ["PartyPokerParser", "PartyReader", "Event", "HandError", "ParsedHand"]
