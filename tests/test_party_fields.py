"""The PartyPoker reader's fields read by string methods and kept by a masked key
(parsers/party_family.py, parsers/partypoker.py), against the patterns they stand for.

- 'Seat 4 is the button' and 'Total number of players : 5/6' are read by slices where
  ``_BUTTON`` and ``_PLAYERS`` below matched them, the lines before a hand's marker ('Game #N
  starts.') where ``_PREFIX`` did, and a bracketed amount ('[20]', '(25)') where ``_BRACKET``
  did: the same matches and groups.
- A win line is read by string methods where it is printable ASCII without parentheses
  (``win_fields``): the groups ``_WINS`` gives, on lines of that shape and of any other.
- A game line's cut before its date (``split_date``) and where its date's parts lie
  (``date_plan``) are kept by the line with its ASCII digits masked: both must be the same
  for the line and its masked copy, and ``parse_date`` (a plan, then the digits read from
  it) must read what the patterns' groups read.
- The blinds a hand without posts implies (``PartyReader.implied_blinds``) are read from the
  hand's text, its words looked for once: the same events, or the same rejection, as read a
  line at a time (``implied_blinds_by_lines``), on the corpus hands and on hands whose names
  start one another, name the header's words or join the table.
- A hand's marker line in its common shape is read by string methods (``marker_fields``):
  the groups ``MARKER`` gives, on lines of that shape and of any other.
- Cards in their common shape ('[ 9d, 8d, Tc ]') are taken as they stand (``FamilyReader.cards``):
  what the tokens read one by one and joined give, or the same rejection.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers.base import ParsedHand, Reject
from parsers.pacific import PacificReader
from parsers.party_family import _CARDS, MARKER, _BRACKET, marker_fields, _DATE_LONG, _DATE_NUMERIC, _MONTHS, bracket, date_plan, is_prefix_line, parse_date, players_fields
from parsers.partypoker import _WINS, PartyReader, digits_masked, split_date, win_fields
from tests.conftest import CORPUS, needs_corpus

# what the readers matched before (the specification of the slices)
_BUTTON = re.compile(r"^Seat (\d+) is the button$")
_PLAYERS = re.compile(r"^Total number of players : (\d+)(?: */ *(\d+))?\s*$")
_PREFIX = re.compile(r"^\s*(?:Game #\w+ starts\.|#Game No : \w+)\s*$")

FIELDS = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
# digits of several kinds (ASCII, Arabic-Indic, a superscript that is a digit but not decimal), spaces of several kinds
_BITS = ["0", "1", "7", "12", "31", "2011", "\u0663", "\u00b2", " ", "  ", "\xa0", "\t", "\n", "/", ":", ",", ", ", "-",
         " - ", "Seat ", "Seat", " is the button", "Total number of players : ", "May", "Apr", "august", "AUG", "Foo",
         "Tuesday", "Tue", "Sun", "Sunday", "Mon", " EDT", " CEST", "x", "Z", "_", "\u00e9", "Game #", "#Game No : ", " / ",
         " starts.", "(", ")", "[", "]", ".", "$1", " USD", "\r"]
texts = st.lists(st.sampled_from(_BITS), max_size=14).map("".join)


def _long_dates() -> st.SearchStrategy[str]:
    """Dates of the long shape ('Tuesday, May 24, 22:06:44 EDT 2011'), some out of range, with bits put in."""
    day = st.integers(0, 40).map(str)
    two = st.integers(0, 70).map(lambda n: f"{n:02d}")
    shape = st.tuples(st.sampled_from(["", "Tuesday, ", "Sunday,", "Mon ", "x, "]),
                      st.sampled_from(["May", "Apr", "August", "aug", "AUG", "Foo", "Sept"]), day,
                      st.sampled_from([",", ""]), st.integers(0, 30).map(str), two, two,
                      st.sampled_from(["", " EDT", " CEST", " 12"]), st.sampled_from([" ", "  ", "\xa0", "\t"]),
                      st.integers(990, 12000).map(str), texts)
    return shape.map(lambda p: f"{p[0]}{p[1]} {p[2]}{p[3]} {p[4]}:{p[5]}:{p[6]}{p[7]}{p[8]}{p[9]}{p[10]}")


def _date_by_patterns(text: str) -> dt.datetime | None:
    """What the long pattern's groups, else the numeric pattern's, read (a bad date: None)."""
    try:
        m = _DATE_LONG.search(text)
        month = _MONTHS.get(m.group(1).lower()) if m else None
        if m and month is not None:
            _, d, h, mi, s, y = m.groups()
            return dt.datetime(int(y), month, int(d), int(h), int(mi), int(s))
        m = _DATE_NUMERIC.search(text)
        if m:
            d, mo, y, h, mi, s = m.groups()
            return dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s))
    except ValueError:
        return None
    return None


@settings(max_examples=1000, **FIELDS)
@given(texts)
def test_button_and_players_lines_read_as_their_patterns(text):
    line = text.strip()  # the reader reads them stripped
    for candidate in (line, "Seat " + line + " is the button", "Total number of players : " + line):
        bm = _BUTTON.match(candidate)
        sliced = candidate.startswith("Seat ") and candidate.endswith(" is the button") and candidate[5:-14].isdecimal()
        assert sliced == (bm is not None)
        if bm:
            assert int(candidate[5:-14]) == int(bm.group(1))
        pm = _PLAYERS.match(candidate)
        fields = players_fields(candidate[26:]) if candidate.startswith("Total number of players : ") else None
        assert (fields is not None) == (pm is not None)
        if pm and fields:
            assert fields == (pm.group(1), pm.group(2) or "")


@settings(max_examples=1000, **FIELDS)
@given(st.one_of(texts, _long_dates(), st.builds("{} - {}".format, texts, _long_dates())))
def test_date_plans_and_cuts_are_the_same_for_any_digits(text):
    masked = digits_masked(text).decode("utf-8")  # the text the reader's key stands for
    assert masked == "".join("0" if c in "123456789" else c for c in text)
    assert date_plan(text) == date_plan(masked)
    assert [len(part) for part in split_date(text)] == [len(part) for part in split_date(masked)]
    assert parse_date(text) == _date_by_patterns(text)


def test_the_corpus_shapes_of_dates():
    assert parse_date("Tuesday, May 24, 22:06:44 EDT 2011") == dt.datetime(2011, 5, 24, 22, 6, 44)
    assert parse_date("Mon Apr 26 20:17:29 EDT 2021") == dt.datetime(2021, 4, 26, 20, 17, 29)
    assert parse_date("04 05 2012 07:59:45") == dt.datetime(2012, 5, 4, 7, 59, 45)
    assert parse_date("Tuesday, May 34, 22:06:44 EDT 2011") is None  # no such day: no date


@settings(max_examples=1000, **FIELDS)
@given(texts)
def test_prefix_lines_and_brackets_read_as_their_patterns(text):
    assert is_prefix_line(text) == (_PREFIX.match(text) is not None)
    for candidate in (text, f"({text})", f"[{text}]", f"( {text} )."):
        t = candidate.strip()
        m = _BRACKET.match(t)
        # the square brackets' shortcut reads a newline inside too (no line holds one)
        if not (t[:1] == "[" and t[-1:] == "]"):
            assert bracket(candidate) == (m.group(1) if m else None)
        elif "\n" not in t:
            assert bracket(candidate) == m.group(1)


_WIN_BITS = ["wins ", "Lo (", "(", ")", " chips", "chips", " from ", "from", " the ", "the", "main pot", "side pot", " #", "#",
             "1", "23", "1,250", "$3.04", "\u0663", " ", "  ", "\xa0", "\t", ".", ",", " USD", " with ", "with", "w", "a pair",
             "side", "pot", "Lo", " Lo (", "from  the", "  main pot  ", " side pot 2", "with a"]


@settings(max_examples=2000, **FIELDS)
@given(st.lists(st.sampled_from(_WIN_BITS), max_size=10).map("".join), st.booleans())
def test_win_lines_read_as_their_pattern(text, plain):
    action = "wins " + (text.replace("\xa0", " ").replace("\t", " ").replace("\u0663", "3").replace("(", "").replace(")", "")
                        if plain else text)
    wm = _WINS.match(action)
    assert win_fields(action) == (wm.groups() if wm else None)


def _both_blinds(lines: list[str]) -> tuple[object, object]:
    """The blinds a hand's lines imply, read from its text and a line at a time (each the
    events' fields, or the rejection's reason)."""
    buf = [(no, 0, t) for no, t in enumerate(lines, 1)]
    at = next(k for k, t in enumerate(lines) if MARKER.match(t))
    reader = PartyReader(buf, at, 0, marker_fields(lines[at]))
    reader.text = "\n".join(lines)
    hand = ParsedHand("PP-1", "partypoker", "partypoker", "", "", 1, len(lines), 0, "")
    reader.limit_blinds(hand, reader.seats(hand, reader.header(hand, at + 1)))  # as body() does first

    def read(how):
        try:
            return [(e.kind, e.line_no, e.seat, e.player, e.amount, e.all_in, e.text, e.inferred_from) for e in how(hand)]
        except Reject as r:
            return r.code, r.line_no, r.reason
    return read(reader.implied_blinds), read(reader.implied_blinds_by_lines)


def _party_hands_without_posts() -> list[list[str]]:
    from parsers import detect_parser, iter_lines, open_source
    found = []
    for folder, _, files in os.walk(CORPUS / "fpdb"):
        for name in sorted(files):
            path = Path(folder, name)
            info = open_source(path)
            parser = detect_parser(info.head, str(path))
            if parser is None or parser.name != "partypoker":
                continue
            lines = [t for _, _, t in iter_lines(path, info.encoding)]
            for h in parser.iter_hands(iter_lines(path, info.encoding), str(path)):
                if isinstance(h, ParsedHand) and any(e.inferred_from and e.kind == "big_blind" for e in h.events):
                    found.append(lines[h.first_line - 1:h.last_line])
    return found


@needs_corpus
def test_implied_blinds_of_the_corpus_read_from_the_text_as_by_lines():
    hands = _party_hands_without_posts()
    assert len(hands) >= 19  # (the corpus' pre-2013 tournament hands)
    for lines in hands:
        by_text, by_lines = _both_blinds(lines)
        assert by_text == by_lines and isinstance(by_text, list) and by_text


_NAMES = ["Ann", "Ann Lee", "Ann Lee Jr", "Game", "#Game", "Blinds", "Seat", "x has", "Bo", "Bob", "***", "Trny:"]
_LINE_KINDS = ["{} folds", "{} calls [40]", "{} has joined the table", "{} is sitting out", "{} has joined", "{}",
               "{}folds", " {} folds", "{} Blinds(20/40)", "{} is the button"]


@settings(max_examples=400, **FIELDS)
@given(st.lists(st.sampled_from(_NAMES), min_size=2, max_size=6, unique=True), st.integers(1, 6),
       st.lists(st.tuples(st.integers(0, 5), st.sampled_from(_LINE_KINDS)), max_size=12), st.booleans(),
       st.lists(st.integers(0, 1), min_size=6, max_size=6))
def test_implied_blinds_read_from_the_text_as_by_lines(names, button, said, prefixed, broke):
    seats = [f"Seat {k}: {name} ( {broke[k - 1] * 3000} )" for k, name in enumerate(names, 1)]
    lines = (["Game #5 starts.", "", "#Game No : 5"] if prefixed else []) + [
        "***** Hand History for Game 5 *****",
        "NL Texas Hold'em  Trny: 71487580 Level: 1  Blinds(20/40) - Friday, July 27, 23:00:33 MSKS 2012",
        "Table $50 Freeroll (2695506) Table #173 (Real Money)",
        f"Seat {button} is the button", f"Total number of players : {len(names)}/10", *seats,
        "Trny: 71487580 Level: 1", "Blinds(20/40)", "** Dealing down cards **",
    ] + [kind.format(names[k % len(names)]) for k, kind in said]
    by_text, by_lines = _both_blinds(lines)
    assert by_text == by_lines


_CARD_BITS = ["[", "]", " ", "  ", ",", ", ", "As", "5d", "Tc", "9h", "Kn5", "D7", "10h", "A", "s", "\xa0", "\t", "x", "Ad,Kd"]


def _cards_by_tokens(reader, text: str) -> object:
    """What the readers read of cards before (the specification): each token, normalised
    where it is no card, joined by spaces; else the rejection."""
    inner = text.strip()
    inner = inner[1:] if inner.startswith("[") else inner
    inner = inner[:-1] if inner.endswith("]") else inner
    out = []
    for tok in inner.replace(",", " ").split():
        card = tok if tok in _CARDS else reader.normalise_card(tok)
        if card not in _CARDS:
            return "unreadable-cards"
        out.append(card)
    return " ".join(out) if out else "parse-error"


@settings(max_examples=2000, **FIELDS)
@given(st.lists(st.sampled_from(_CARD_BITS), max_size=9).map("".join))
def test_cards_read_as_their_tokens(text):
    for reader_class in (PartyReader, PacificReader):
        reader = reader_class([(1, 0, "***** Hand History for Game 1 *****")], 0, 0)
        try:
            got: object = reader.cards(text, 1)
        except Reject as r:
            got = r.code
        assert got == _cards_by_tokens(reader, text), text


_MARKER_BITS = ["*****", "***** ", "******", " ", "  ", "\t", "Hand History ", "Hand ", "History ", "for Game ", "For Game ",
                "fOr Game ", "Game ", "5", "1618961225358jrdwo4ad458", "_", "\u0663", "\u00e9", "888poker ", "Cassava ",
                "888.ro ", "Hand\tHistory ", " *****", " (", "(", ")", "PokerBros", "Poker Stars", "WPN", "x", ")"]


@settings(max_examples=3000, **FIELDS)
@given(st.lists(st.sampled_from(_MARKER_BITS), max_size=10).map("".join),
       st.sampled_from(["", "888poker ", "Cassava ", "Hand ", "x\ty ", "é ", "a b ", " ", "xHand ", "888.ro BLAST ",
                        "888poker Snap Poker ", "a b c d "]), st.sampled_from(["for", "For", "fOr"]),
       st.sampled_from(["5", "12a", "_1", "", "\u0663"]), st.sampled_from(["", " (PokerBros)", " ()", " (a(b)", " (x) ", "*"]))
def test_marker_lines_read_as_their_pattern(text, brand, word, num, origin):
    for candidate in (text, f"***** {brand}Hand History {word} Game {num} *****{origin}"):
        m = MARKER.match(candidate)
        assert marker_fields(candidate) == (m.groups() if m else None), candidate


# --- wordings read since issue 33, on small hands written here (they always run) -------------

def _read(parser, text: str):
    from parsers.base import HandError as _HandError
    items = list(parser.iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt"))
    return [h if isinstance(h, (ParsedHand, _HandError)) else h for h in items]


_PARTY_FL = """Game #7 starts.

#Game No : 7
***** Hand History for Game 7 *****
FL Texas Hold'em  Trny:71 Level:4  Stakes(200/400) - Tuesday, July 17, 21:37:31 YEKST 2012
Table $50 Freeroll (2685087) Table #101 (Real Money)
Seat 1 is the button
Total number of players : 3 / 10
Seat 1: Ann ( 2,000 )
Seat 2: Bob ( 2,000 )
Seat 3: Cy ( 2,000 )
Trny:71 Level:4
Stakes(200/400)
** Dealing down cards **
Ann raises [400]
Bob juggles his chips
Bob folds
Cy calls [200]
** Dealing Flop ** [ 7h, Qs, 3c ]
Cy checks
Ann bets [200]
Cy folds
Ann does not show cards.Ann wins 1,100 chips"""


def test_party_stakes_lines_spaced_players_and_an_unread_line():
    from parsers.base import has_unread, unreconciled
    from parsers.partypoker import PartyPokerParser
    [h] = _read(PartyPokerParser(), _PARTY_FL)
    assert isinstance(h, ParsedHand), h
    assert (h.small_bet, h.big_bet, h.small_blind, h.big_blind, h.max_seats) == (200, 400, 100, 200, 10)
    assert [(e.kind, e.seat, e.amount, e.inferred_from is not None) for e in h.events[:2]] == [
        ("small_blind", 2, 100, True), ("big_blind", 3, 200, True)]
    [unread] = [e for e in h.events if e.kind == "unread"]
    assert (unread.line_no, unread.seat, unread.player, unread.street, unread.text) == (
        16, 2, "Bob", "preflop", "Bob juggles his chips")
    # its chips reconcile without it: stored (the glued win is read: 400 + 100 + 400 + 200, 200 returned)
    assert has_unread(h) and unreconciled(h) is None
    assert [(e.kind, e.amount) for e in h.events if e.kind in ("collect", "uncalled_return")] == [
        ("uncalled_return", 200), ("collect", 900)]


def test_party_street_marker_not_understood_stays_a_rejection():
    from parsers.partypoker import PartyPokerParser
    [h] = _read(PartyPokerParser(), _PARTY_FL.replace("** Dealing Flop ** [ 7h, Qs, 3c ]", "** Dealing Flopp ** [ 7h, Qs, 3c ]"))
    assert not isinstance(h, ParsedHand) and h.reason_code == "parse-error" and h.line_no == 19


_PARTY_STUD = """#Game No : 8
***** Hand History for Game 8 *****
FL 7 Card Stud $6 USD Buy-in Trny:69 Level:2  Stakes-Antes(60/120-10) - Wednesday, May 30, 14:41:43 EDT 2012
Table Regular (2629813) Table #2 (Real Money)
Seat 0 is the button
Total number of players : 2/8
Seat 1: Ann ( 2,930 )
Seat 4: Bob ( 3,955 )
Trny:69 Level:2
Stakes-Antes(60/120-10)
Ann posts ante [10]
Bob posts ante [10]
** Dealing **
Dealt to Ann [ 2c 3d 4h ]
Ann bring-ins [15]
Bob calls [15]
** Dealing Fourth street **
Bob double bets [120]
Ann folds
Bob wins 170 chips"""


def test_party_stakes_antes_and_double_bets():
    from parsers.partypoker import PartyPokerParser
    [h] = _read(PartyPokerParser(), _PARTY_STUD)
    assert isinstance(h, ParsedHand), h
    assert (h.small_bet, h.big_bet, h.ante, h.bring_in) == (60, 120, 10, 15)
    assert [(e.kind, e.seat, e.amount) for e in h.events if e.line_no == 18] == [("bet", 4, 120)]
    assert not [e for e in h.events if e.kind == "unread"]


_PARTY_2021 = """***** Hand History For Game 16193862 *****
2000000/4000000 Tourney Texas Holdem Game Table (NL) (MTT Tournament #303) (Buyin $50.0 + $5.0) - Mon Apr 26 20:17:29 EDT 2021
Table #5 (Real Money) -- Seat 1 is the button
Total number of players : 3/9
Seat 1: Ann (10000000)
Seat 2: Bob (3000000)
Seat 3: Cy (20000000)
Bob posts small blind (2000000)
Cy posts big blind (4000000)
** Dealing down cards **
Ann raises 10000000 to 10000000
Ann is all-In.
Bob calls (1000000)
Bob is all-In.
Cy calls (6000000)
** Dealing Flop ** : [ 7s, 9c, 5s ]
** Dealing Turn ** : [ 3s ]
** Dealing River ** : [ Qs ]
Creating Main Pot with 9000000 with Bob
Creating Side Pot 1 with 14000000 with Ann
** Summary **
Main Pot: 9000000 Side Pot 1: 14000000
Board: [ 7s, 9c, 5s, 3s, Qs ]
Ann balance 23000000, bet 10000000, collected 23000000, net +13000000
Bob balance 0, lost 3000000
Cy balance 10000000, lost 10000000"""


def test_party_side_pots_on_the_main_pot_line():
    from parsers.partypoker import PartyPokerParser
    [h] = _read(PartyPokerParser(), _PARTY_2021)
    assert isinstance(h, ParsedHand), h
    assert [(e.amount, e.to_amount) for e in h.events if e.kind == "total_pot"] == [(23000000, 0)]
    assert not [e for e in h.events if e.kind == "unread"]


def test_party_a_player_on_no_seat_of_a_full_table_is_refused():
    from parsers.partypoker import PartyPokerParser
    text = """***** Hand History for Game 9 *****
$100 USD PL Omaha - Tuesday, January 05, 20:50:31 EST 2016
Table Santiago (Real Money)
Seat 2 is the button
Total number of players : 2/2
Seat 1: Ann ( $100 USD )
Seat 2: Bob ( $391.63 USD )
Bob posts small blind [$0.50 USD].
Ann posts big blind [$1 USD].
** Dealing down cards **
Cy raises [$1.75 USD]
Ann folds
Cy wins $2.50 USD"""
    [h] = _read(PartyPokerParser(), text)
    assert not isinstance(h, ParsedHand) and (h.reason_code, h.line_no) == ("unseated-player", 11)
    # one who says he joined (as another left) is the hand's seatless player, as before
    [h] = _read(PartyPokerParser(), text.replace("** Dealing down cards **", "Cy has joined the table.\n** Dealing down cards **"))
    assert isinstance(h, ParsedHand), h


_PARTY_JOINS = """***** Hand History for Game 9507514114 *****
$2 USD NL Texas Hold'em - Saturday, August 07, 17:05:05 CEST 2010
Table Table  178053 (Real Money)
Seat 3 is the button
Total number of players : 3/9
Seat 4: Ann ( $1.98 USD )
Seat 3: Bob ( $1.97 USD )
Seat 2: Cy ( $0 USD )
Cy has joined the table.
Ann posts small blind [$0.01 USD].
Bob posts big blind [$0.02 USD].
Cy posts big blind [$0.02 USD].
** Dealing down cards **
Cy checks
Ann calls [$0.01 USD]
Bob checks
** Dealing Flop ** [ 5d, 2s, 8h ]
Ann checks
Bob bets [$0.06 USD]
Cy folds
Ann folds
Bob wins $0.12 USD"""


def test_party_a_player_joining_with_a_zero_seat_line_plays_a_stack_not_written():
    from parsers.partypoker import PartyPokerParser
    [h] = _read(PartyPokerParser(), _PARTY_JOINS)
    assert isinstance(h, ParsedHand), h
    # 'Seat 2: Cy ( $0 USD )' is the chair before his buy-in: his stack is not known, never 0 or a guess
    assert [(s.seat, s.starting_stack) for s in h.seats] == [(4, 198), (3, 197), (2, None)]
    # one who did not join: a seat line of $0 and chips put in is the record contradicting itself
    [h] = _read(PartyPokerParser(), _PARTY_JOINS.replace("Cy has joined the table.\n", ""))
    assert not isinstance(h, ParsedHand) and (h.reason_code, h.line_no) == ("stack-exceeded", 11)


_PACIFIC = """#Game No : 332877236
***** Cassava Hand History for Game 332877236 *****
$ 10/$ 20 Blinds Pot Limit Omaha - *** 05 05 2014 21:32:10
Table San Luis (Real Money)
Seat 7 is the button
Total number of players : 2
Seat 1: Ann ( $ 3.243 )
Seat 7: Bob ( $ 552,72 )
Bob posts small blind [$ 10]
Ann posts big blind [$ 20]
** Dealing down cards **
Dealt to Ann [ Hc, 8Pik, Td, 6Herz ]
Bob calls [$ 10]
Ann checks
** Dealing flop ** [ 7t, Vh, Âs ]
Ann checks
Bob checks
** Dealing turn ** [ Kns ]
Ann checks
Bob checks
** Dealing river ** [ 6p ]
Ann checks
Bob checks
** Summary **
Ann shows [ Hc, 8Pik, Td, 6Herz ]
Bob mucks [ Bd, Ec, Òh, 2Karo ]
Ann collected [ $ 38 ]"""


def test_pacific_cards_of_other_languages_and_a_decimal_comma():
    from parsers.pacific import PacificParser
    [h] = _read(PacificParser(), _PACIFIC)
    assert isinstance(h, ParsedHand), h
    # '$ 3.243' with '$ 552,72': '.' groups thousands
    assert [s.starting_stack for s in h.seats] == [324300, 55272]
    assert [e.cards for e in h.events if e.cards] == [
        "Kc 8s Td 6h", "7c Qh Js", "Js", "6s", "Kc 8s Td 6h", "Jd Ac Ah 2d"]


def test_pacific_blast_marker_and_a_comma_decimal_in_chips():
    from parsers.pacific import PacificParser
    text = """#Game No : 1008664844
***** 888.ro BLAST Hand History for Game 1008664844 *****
42.797,60 $/0 $ Blinds No Limit Holdem - ***
Tournament #133514588 13,95 $ + 1,05 $ - Table #1 4 Max (Real Money)
Seat 7 is the button
Total number of players : 2
Seat 1: Ann ( 3.530 $ )
Seat 7: Bob ( 2.470 $ )
Ann posts ante [3.530 $]
Bob posts ante [2.470 $]
** Dealing down cards **
** Dealing flop ** [ As, 3h, Ac ]
** Dealing turn ** [ 8c ]
** Dealing river ** [ 7c ]
** Summary **
Ann shows [ 4s, Jc ]
Bob shows [ 5d, Kc ]
Bob collected [ 4.940 $ ]"""
    assert PacificParser().detect(text, "x.txt")
    [h] = _read(PacificParser(), text)
    assert isinstance(h, ParsedHand), h
    assert (h.hand_id, h.is_tournament, h.small_blind, h.big_blind, h.amount_scale) == ("888-1008664844", True, 427976, 0, 10)
    assert [s.starting_stack for s in h.seats] == [35300, 24700]


def test_card_names_are_one_table_across_languages():
    from parsers.party_family import _RANK_NAMES, _SUIT_NAMES, local_card
    assert _RANK_NAMES["Kn"] == "J" and _SUIT_NAMES["Pik"] == "s" and _SUIT_NAMES["t"] == "c"
    assert local_card("Tc") == "Tc" and local_card("Kn") is None and local_card("1p") is None


_PACIFIC_EMPTY_BUTTON = """#Game No : 7
***** 888poker Hand History for Game 7 *****
10/20 Blinds No Limit Holdem - *** 21 04 2016 16:34:37
Tournament #9 Free - Table #3 (Real Money)
Seat {button} is the button
Total number of players : 3
Seat 1: Ann ( 1 000 )
Seat 2: Bob ( 1 000 )
Seat 5: Cy ( 1 000 )
Ann posts small blind [10]
Bob posts big blind [20]
** Dealing down cards **
Cy calls [20]
Ann calls [10]
Bob checks
** Dealing flop ** [ 2c, 7d, Ks ]
Ann checks
Bob checks
Cy checks
** Summary **
Ann shows [ Ac, Ad ]
Bob mucks [ 4c, 5d ]
Cy mucks [ 9c, Td ]
Ann collected [ 60 ]
"""


def test_888_button_on_an_empty_seat_past_every_occupied_one_keeps_the_turn_order(tmp_path):
    """888 writes no table size ('Total number of players : 3'); its tables number seats 1 to 10.
    The button on seat 7 or 10, empty, with seats 1, 2, 5 in play: the small blind (seat 1) is
    first after the flop, not seat 5 (the ring once ended at the highest occupied seat, so the
    order wrapped wrongly: six out-of-turn violations)."""
    from auditor.pipeline import audit

    for button in (7, 10, 5):
        f = tmp_path / f"b{button}.txt"
        f.write_text(_PACIFIC_EMPTY_BUTTON.format(button=button), encoding="utf-8")
        res = audit([f], db=str(tmp_path / f"b{button}.duckdb"))
        assert not [x for x in res.findings if x["check_id"] == "out-of-turn"], (button, res.findings)


def test_888_snap_poker_marker():
    from parsers.pacific import PacificParser
    text = """#Game No : 1393225868
***** 888poker Snap Poker Hand History for Game 1393225868 *****
$0.05/$0.10 Blinds No Limit Holdem - *** 16 09 2020 16:15:04
Table Worms 6 Max (Real Money)
Seat 1 is the button
Total number of players : 3
Seat 1: Ann ( $29.78 )
Seat 2: Bob ( $3.25 )
Seat 4: Cy ( $10 )
Bob posts small blind [$0.05]
Cy posts big blind [$0.10]
** Dealing down cards **
Ann raises [$0.30]
Bob folds
Cy folds
** Summary **
Ann did not show his hand
Ann collected [ $0.45 ]"""
    assert PacificParser().detect(text, "x.txt")
    [h] = _read(PacificParser(), text)
    assert isinstance(h, ParsedHand) and h.hand_id == "888-1393225868" and h.table_name == "Worms 6 Max"
    assert [(e.kind, e.amount) for e in h.events if e.kind in ("uncalled_return", "collect", "total_pot")] == [
        ("uncalled_return", 20), ("collect", 25), ("total_pot", 25)]


# an 888.pt tournament hand (888's Portuguese site): the brand in the marker, a buy-in with a
# decimal comma ('4,95 € + 0,55 €') and chips grouped by '.' ('( 4.170 )', 'raises [1.000]')
_PACIFIC_PT = """#Game No : 700000111
***** 888.pt Hand History for Game 700000111 *****
200/400 Blinds No Limit Holdem - *** 22 04 2026 18:50:54
Tournament #200000333 4,95 € + 0,55 € - Table #3 8 Max (Real Money)
Seat 1 is the button
Total number of players : 3
Seat 1: Rui ( 4.170 )
Seat 3: Ines ( 12.030 )
Seat 6: Tiago ( 2.500 )
Rui posts ante [50]
Ines posts ante [50]
Tiago posts ante [50]
Ines posts small blind [200]
Tiago posts big blind [400]
** Dealing down cards **
Rui raises [1.000]
Ines folds
Tiago calls [600]
** Dealing flop ** [ Qh, 8d, Th ]
Tiago checks
Rui checks
** Dealing turn ** [ 3h ]
Tiago checks
Rui checks
** Dealing river ** [ 3s ]
Tiago checks
Rui checks
** Summary **
Rui shows [ Kd, Jh ]
Tiago mucks [ 9c, 9d ]
Rui collected [ 2.350 ]
"""


def test_888_pt_brand_reads_with_its_number_formats(tmp_path):
    """'***** 888.pt Hand History ...' is an 888 marker (it was refused: no parser detected the
    file); its chips grouped by '.' are thousands, the buy-in is kept as written."""
    from auditor.pipeline import audit
    from parsers.pacific import PacificParser

    assert PacificParser().detect(_PACIFIC_PT, "x.txt")
    [h] = _read(PacificParser(), _PACIFIC_PT)
    assert isinstance(h, ParsedHand), h
    assert (h.hand_id, h.tournament_id, h.buy_in, h.table_name, h.small_blind, h.big_blind) == (
        "888-700000111", "200000333", "4,95 € + 0,55 €", "Table #3 8 Max", 200, 400)
    assert [s.starting_stack for s in h.seats] == [4170, 12030, 2500]
    assert [(e.kind, e.seat, e.amount, e.to_amount) for e in h.events if e.kind in ("raise", "call", "collect")] == [
        ("raise", 1, 600, 1000), ("call", 6, 600, None), ("collect", 1, 2350, None)]
    f = tmp_path / "pt.txt"
    f.write_text(_PACIFIC_PT, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "pt.duckdb"))
    assert (res.ingest.stored, res.findings) == (1, [])


# an 888 national site's Snap hand (the shape of a real 888.de export of 2022): the domain after the brand
_PACIFIC_DE_SNAP = """#Game No : 700000222
***** 888.de Snap Poker Hand History for Game 700000222 *****
$0.01/$0.02 Blinds No Limit Holdem - *** 14 06 2022 00:01:43
Table Kiel 6 Max (Real Money)
Seat 1 is the button
Total number of players : 3
Seat 1: Uta ( $1.89 )
Seat 2: Wim ( $2.38 )
Seat 4: Lars ( $2 )
Wim posts small blind [$0.01]
Lars posts big blind [$0.02]
** Dealing down cards **
Dealt to Lars [ 4c, 3h ]
Uta raises [$0.06]
Wim folds
Lars calls [$0.04]
** Dealing flop ** [ 3s, Ks, 8c ]
Lars checks
Uta bets [$0.10]
Lars calls [$0.10]
** Dealing turn ** [ 6c ]
Lars checks
Uta checks
** Dealing river ** [ Kh ]
Lars bets [$0.25]
Uta folds
** Summary **
Lars did not show his hand
Lars collected [ $0.33 ]
"""


def test_888_national_domain_brand_snap_marker(tmp_path):
    """'***** 888.de Snap Poker Hand History ...' is an 888 marker (the file was not read at all:
    no parser detected it); a brand that is not 888's with a domain is still no 888 marker."""
    from auditor.pipeline import audit
    from parsers.pacific import PacificParser

    assert PacificParser().detect(_PACIFIC_DE_SNAP, "x.txt")
    assert not PacificParser().detect(_PACIFIC_DE_SNAP.replace("888.de", "999.de"), "x.txt")
    [h] = _read(PacificParser(), _PACIFIC_DE_SNAP)
    assert isinstance(h, ParsedHand), h
    assert (h.hand_id, h.table_name, h.small_blind, h.big_blind, h.currency) == ("888-700000222", "Kiel 6 Max", 1, 2, "USD")
    # 1 + 6 + 6 + 10 + 10, the river bet of 25 returned (888 writes no return): Lars takes 33
    assert [(e.kind, e.seat, e.amount) for e in h.events if e.kind in ("uncalled_return", "collect", "total_pot")] == [
        ("uncalled_return", 4, 25), ("collect", 4, 33), ("total_pot", None, 33)]
    assert not [e for e in h.events if e.kind == "unread"]
    f = tmp_path / "de.txt"
    f.write_text(_PACIFIC_DE_SNAP, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "de.duckdb"))
    assert (res.ingest.stored, res.findings) == (1, [])


# a Party MTT hand whose blinds group thousands with a space on the game line and the stakes line
# ('Blinds-Antes(1 200/2 400 -400)', as a real 2016 Powerfest export), an all-in over the covered
# stack won back as 'side pot 1' and the main pot won
_PARTY_SPACED_BLINDS = """***** Hand History for Game 700000333 *****
NL Texas Hold'em $215 USD Buy-in Trny:900001 Level:12  Blinds-Antes(1 200/2 400 -400) - Monday, September 26, 01:30:41 MSK 2016
Table Spring Main Event (900001) Table #8 (Real Money)
Seat 3 is the button
Total number of players : 3/9
Seat 1: Ann ( 63,222 )
Seat 2: Bob ( 205,081 )
Seat 3: Cy ( 53,728 )
Trny:900001 Level:12
Blinds-Antes(1 200/2 400 -400)
Ann posts ante [400]
Bob posts ante [400]
Cy posts ante [400]
Ann posts small blind [1,200].
Bob posts big blind [2,400].
** Dealing down cards **
Cy will be using their time bank for this hand.
Cy is all-In  [53,328]
Ann folds
Bob is all-In  [202,281]
** Dealing Flop ** [ Qd, Td, 7s ]
** Dealing Turn ** [ 6d ]
** Dealing River ** [ 6s ]
Bob shows [ Jc, Jh ]two pairs, Jacks and Sixes.
Cy shows [ Th, Kh ]two pairs, Tens and Sixes.
Bob wins 151,353 chips from the side pot 1 with two pairs, Jacks and Sixes.
Bob wins 109,056 chips from the main pot with two pairs, Jacks and Sixes.
Player Cy finished in 840.
"""


def test_party_blinds_grouped_by_a_space(tmp_path):
    """'Blinds-Antes(1 200/2 400 -400)' was 'blinds not understood' (the hand rejected): the big
    blind may group its thousands with a space as the small blind does."""
    from auditor.pipeline import audit
    from parsers.partypoker import PartyPokerParser

    [h] = _read(PartyPokerParser(), _PARTY_SPACED_BLINDS)
    assert isinstance(h, ParsedHand), h
    assert (h.small_blind, h.big_blind, h.ante, h.level, h.tournament_id) == (1200, 2400, 400, "12", "900001")
    # 3 antes of 400 + 1,200 + 53,328 twice = 109,056; Bob's 151,353 over Cy's all-in comes back to him
    assert [(e.kind, e.seat, e.amount) for e in h.events if e.kind in ("uncalled_return", "collect")] == [
        ("uncalled_return", 2, 151353), ("collect", 2, 109056)]
    assert not [e for e in h.events if e.kind == "unread"]
    f = tmp_path / "pp.txt"
    f.write_text(_PARTY_SPACED_BLINDS, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "pp.duckdb"))
    assert (res.ingest.stored, res.findings) == (1, [])


def test_party_names_with_spaces_are_read_whole_and_a_cut_name_stays_unread():
    """A seated name with a space ('Ann Lee') is read whole in dealt, action and win lines; a line
    whose name only starts with a seated one ('Ann Leeway' where 'Ann Lee' sits, as the corpus's
    'Hero Name' where 'Hero' sits) is no line of that player: kept unread, with the seat its
    start names, and the hand then does not reconcile."""
    from parsers.base import unreconciled
    from parsers.partypoker import PartyPokerParser
    text = _PARTY_FL.replace("Ann", "Ann Lee").replace("Dealing down cards **", "Dealing down cards **\nDealt to Ann Lee [ Ad, 5d ]")
    [h] = _read(PartyPokerParser(), text)
    assert isinstance(h, ParsedHand), h
    assert [(e.kind, e.player) for e in h.events if e.kind in ("deal_hole", "collect")] == [
        ("deal_hole", "Ann Lee"), ("collect", "Ann Lee")]
    # 'Ann Leeway' names no seated player: unread, no seat
    [h] = _read(PartyPokerParser(), text.replace("Ann Lee raises [400]", "Ann Leeway raises [400]"))
    assert [(e.seat, e.player) for e in h.events if e.kind == "unread"] == [(None, None), (2, "Bob")] and unreconciled(h) is not None
    # 'Ann Lee' where 'Ann' sits (the corpus's 'Hero Name' where 'Hero' sits): unread, with Ann's seat
    [h] = _read(PartyPokerParser(), _PARTY_FL.replace("Ann raises [400]", "Ann Lee raises [400]"))
    assert [(e.seat, e.player) for e in h.events if e.kind == "unread"] == [(1, "Ann"), (2, "Bob")] and unreconciled(h) is not None


# an 888 hand as an observer's client writes it: no hole cards, so no '** Dealing down cards **'
# line; the blinds' players and everyone else fold, call and raise with nothing between the
# posts and the first street marker
_PACIFIC_NO_DEAL_LINE = """***** 888poker Hand History for Game 900000123 *****
1 $/2 $ Blinds Pot Limit Omaha - *** 21 03 2016 20:14:09
Table Bergamo 6 Max (Real Money)
Seat 2 is the button
Total number of players : 5
Seat 1: Lola ( 210,50 $ )
Seat 2: Mats ( 1 004 $ )
Seat 4: Nico ( 199 $ )
Seat 6: Olle ( 200 $ )
Seat 9: Pia ( 96,20 $ )
Nico posts small blind [1 $]
Olle posts big blind [2 $]
Pia folds
Lola raises [7 $]
Mats folds
Nico folds
Olle calls [5 $]
** Dealing flop ** [ 9h, Dd, 4c ]
Olle checks
Lola bets [12 $]
Olle folds
** Summary **
Lola collected [ 15,40 $ ]
"""


def test_888_hand_with_no_deal_line_folds_in_turn_once_the_betting_starts(tmp_path):
    """An observer's record writes no '** Dealing down cards **' line: its folds are folds as
    written, 'Pia folds' before any bet among them (the first to act, in turn), and the small
    blind's fold (he posted): Nico is not taken for a seat out of the hand that the betting
    then waits for (out-of-turn on every street). Only a fold the record writes before its
    deal line is a seat not dealt in (out_of_hand): the same hand with the line after Pia's
    fold."""
    from auditor.pipeline import audit
    from parsers.pacific import PacificParser

    [h] = _read(PacificParser(), _PACIFIC_NO_DEAL_LINE)
    assert isinstance(h, ParsedHand), h
    assert [(e.kind, e.seat, e.street) for e in h.events if e.kind in ("fold", "out_of_hand")] == [
        ("fold", 9, "preflop"), ("fold", 2, "preflop"), ("fold", 4, "preflop"), ("fold", 6, "flop")]
    dealt = _PACIFIC_NO_DEAL_LINE.replace("Pia folds\n", "Pia folds\n** Dealing down cards **\n")
    [d] = _read(PacificParser(), dealt)
    assert isinstance(d, ParsedHand), d
    assert [(e.kind, e.seat, e.street) for e in d.events if e.kind in ("fold", "out_of_hand")] == [
        ("out_of_hand", 9, "summary"), ("fold", 2, "preflop"), ("fold", 4, "preflop"), ("fold", 6, "flop")]
    f = tmp_path / "observed.txt"
    f.write_text(_PACIFIC_NO_DEAL_LINE, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "observed.duckdb"))
    assert res.ingest.stored == 1
    assert [x for x in res.findings if x["category"] == "violation"] == []


def test_party_time_bank_in_either_wording_is_no_event():
    """'will be using his time bank' (to 2014) and 'will be using their time bank' (2015 on):
    a table message, no event; a cash hand with it is stored (it wrote no total pot, so an
    unread line there would refuse it)."""
    from parsers.partypoker import PartyPokerParser

    text = """***** Hand History for Game 9100000201 *****
$0.50/$1 USD NL Texas Hold'em - Sunday, May 03, 21:05:44 EDT 2015
Table Lusaka (Real Money)
Seat 3 is the button
Total number of players : 3/6 
Seat 1: Rosa ( $100 USD )
Seat 3: Sven ( $88.40 USD )
Seat 5: Tove ( $52 USD )
Tove posts small blind [$0.50 USD].
Rosa posts big blind [$1 USD].
** Dealing down cards **
Sven raises [$3 USD]
Tove will be using their time bank for this hand.
Tove folds
Rosa will be using his time bank for this hand.
Rosa calls [$2 USD]
** Dealing Flop ** [ Kh, 7d, 2s ]
Rosa checks
Sven bets [$4 USD]
Rosa folds
Sven does not show cards.
Sven wins $6.25 USD"""
    [h] = _read(PartyPokerParser(), text)
    assert isinstance(h, ParsedHand), h
    assert [e for e in h.events if e.kind == "unread"] == []
    assert [(e.kind, e.seat) for e in h.events if e.kind in ("fold", "call", "raise", "bet")] == [
        ("raise", 3), ("fold", 5), ("call", 1), ("bet", 3), ("fold", 1)]


def test_888_group_spaces_as_files_hold_them():
    """'1 192,48 $' with a no-break space, a narrow one, or a no-break space's UTF-8 bytes read
    once as cp1252 and saved again ('Â' + no-break space: an 888 file a converter re-encoded):
    the same amount, a table entry (parsers.numbers.SPACE_SPELLINGS), not a code path."""
    from parsers.party_family import family_units

    for space in ("\u00a0", "\u202f", "\u00c2\u00a0", " "):
        assert family_units(f"1{space}192,48 $", 100) == 119248, repr(space)
        assert family_units(f"15{space}552 $", 100) == 1555200, repr(space)
    text = _PACIFIC_NO_DEAL_LINE.replace("( 1 004 $ )", "( 1\u00c2\u00a0004 $ )")
    from parsers.pacific import PacificParser
    [h] = _read(PacificParser(), text)
    assert isinstance(h, ParsedHand), h
    assert [s.starting_stack for s in h.seats if s.player == "Mats"] == [100400]


# The 2024 tournament export ('Hand History For Game <digits + letters>', the Americas Cardroom /
# Winning client): a raise's first amount is its size over the bet faced, a call's chips are bare
# (public tracker's quotes of its real hands: 'Player4 raises 1125 to 2125' over a big blind of 1000,
# 'Hero raises 8070 to 10070' over 2000, 'Player2 calls 8070'); names and ids invented
_PARTY_2024_TOURNEY = """***** Hand History For Game 1729100000001abcdefgh *****
100/200 Tourney Texas Holdem Game Table (NL) (MTT Tournament #500001) (Buyin $10.0 + $1.0) - Tue Oct 15 12:10:00 EDT 2024
Table (500001) Table #3 (Real Money) -- Seat 1 is the button
Total number of players : 3/8
Seat 1: Ann (5000)
Seat 2: Bob (3000)
Seat 3: Cy (8000)
Bob posts small blind (100)
Cy posts big blind (200)
** Dealing down cards **
Dealt to Ann [ Ah, Kh ]
Ann raises 400 to 600
Bob folds
Cy raises 7400 to 8000
Cy is all-In.
Ann calls 4400
Ann is all-In.
** Dealing Flop ** :  [ Kd, 7c, 2s ]
** Dealing Turn ** :  [ 9h ]
** Dealing River ** :  [ 4d ]
** Summary **
Main Pot: 10100
Board: [ Kd, 7c, 2s, 9h, 4d ]
Ann balance 10100, bet 5000, collected 10100, net +5100[ Ah, Kh ] [ a pair of kings -- Ah,Kh,Kd,9h,7c ]
Bob balance 2900, lost 100 (folded)
Cy balance 3000, lost 5000[ Qs, Qd ] [ a pair of queens -- Qs,Qd,Kd,9h,7c ]
"""


def test_party_2024_raise_sized_over_the_bet_faced_and_a_bare_call(tmp_path):
    """'Ann raises 400 to 600' over a big blind of 200 and 'Ann calls 4400' were 'line not
    understood' (the hand rejected: the first amount read as the chips added disagreed with the
    total, a call's chips had no bracket); now the raise is read from its total (the first
    amount is its size over the bet faced), the call from its bare chips, the all-in flags kept,
    Cy's 3000 no one called returned (inferred), every chip reconciled: nothing found."""
    from auditor.pipeline import audit
    from parsers.partypoker import PartyPokerParser

    [h] = _read(PartyPokerParser(), _PARTY_2024_TOURNEY)
    assert isinstance(h, ParsedHand), h
    assert (h.tournament_id, h.small_blind, h.big_blind) == ("500001", 100, 200)
    assert [(e.kind, e.seat, e.amount, e.to_amount, e.all_in) for e in h.events
            if e.kind in ("raise", "call", "uncalled_return", "collect")] == [
        ("raise", 1, 400, 600, False), ("raise", 3, 7400, 8000, True), ("call", 1, 4400, None, True),
        ("uncalled_return", 3, 3000, None, False), ("collect", 1, 10100, None, False)]
    assert not [e for e in h.events if e.kind == "unread"]
    f = tmp_path / "pp2024.txt"
    f.write_text(_PARTY_2024_TOURNEY, encoding="utf-8")
    res = audit([f], db=str(tmp_path / "pp2024.duckdb"))
    assert (res.ingest.stored, res.ingest.rejected, res.findings) == (1, 0, [])


def test_party_a_raise_neither_reading_agrees_with_stays_a_rejection():
    """'raises 500 to 600' over a big blind of 200 from no chips: neither the chips added (500)
    nor the raise's size over the bet (400) makes 600: not understood, as before (kept unread,
    and the hand, whose chips then do not reconcile, is rejected at ingest)."""
    from parsers.base import unreconciled
    from parsers.partypoker import PartyPokerParser

    [h] = _read(PartyPokerParser(), _PARTY_2024_TOURNEY.replace("Ann raises 400 to 600", "Ann raises 500 to 600"))
    assert isinstance(h, ParsedHand), h
    assert [(e.line_no, e.text) for e in h.events if e.kind == "unread"][0] == (12, "Ann raises 500 to 600")
    assert unreconciled(h) is not None
