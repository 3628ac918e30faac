"""The PokerStars family base (parsers/stars_family.py) and the sites read through it,
on small hands written here: what each site writes its own way, detection by content,
and the pot-limit-preflop betting structure through the replay and its check."""

from __future__ import annotations

import duckdb

from auditor.pipeline import audit
from parsers import all_parsers, detect_parser
from parsers.base import HandError, ParsedHand
from parsers.ggpoker import GGPokerParser
from parsers.pokerstars import PokerStarsParser
from parsers.runitonce import RunItOnceParser


def _read(parser, text: str) -> list[ParsedHand | HandError]:
    return list(parser.iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt"))


GG_CASH = """Poker Hand #SD1: ShortDeck No Limit ($0.02) - 2021/03/02 18:21:18
Table 'SDWhite20' 5-max Seat #1 is the button
Seat 1: Ann ($2.48 in chips)
Seat 2: Bob ($2.33 in chips)
Seat 3: Cy ($2 in chips)
Bob: posts the ante $0.02
Cy: posts the ante $0.02
Ann: posts the ante $0.02
Ann: posts button blind $0.02
Bob: straddle $0.04
Bob: straddle $0.08
Cy: posts missed blind $0.01
*** HOLE CARDS ***
Dealt to Ann
Dealt to Bob
Dealt to Cy [Ac Tc]
Cy: folds
Ann: folds
Uncalled bet ($0.06) returned to Bob
*** SHOWDOWN ***
Bob collected $0.07 from pot
*** SUMMARY ***
Total pot $0.11 | Rake $0.02 | Jackpot $0.01 | Bingo $0.01
Seat 1: Ann (button) folded before Flop
Seat 2: Bob collected ($0.07)
Seat 3: Cy folded before Flop"""


def test_ggpoker_own_lines():
    [h] = _read(GGPokerParser(), GG_CASH)
    assert isinstance(h, ParsedHand), h
    assert (h.hand_id, h.site, h.variant, h.betting, h.currency, h.amount_scale) == (
        "GG-SD1", "ggpoker", "6plus_holdem", "no-limit", "USD", 100)
    assert (h.ante, h.big_blind, h.min_bet) == (2, 2, 2)  # the ante-only header; the blind from its post
    kinds = [(e.kind, e.player, e.amount, e.to_amount) for e in h.events if e.kind not in ("ante", "fold")]
    # the re-straddle adds 4 to a total of 8; the missed blind is a (dead) small blind; bare deals record nothing
    assert kinds[:4] == [("big_blind", "Ann", 2, None), ("straddle", "Bob", 4, 4), ("straddle", "Bob", 4, 8),
                         ("small_blind", "Cy", 1, None)]
    assert [e.cards for e in h.events if e.kind == "deal_hole"] == ["Ac Tc"]
    [total] = [e for e in h.events if e.kind == "total_pot"]
    assert (total.amount, total.to_amount) == (11, 4)  # the house's take: rake, jackpot and bingo fees


def test_ggpoker_a_lone_first_run_is_rejected_with_its_reason():
    # (GGPoker's EV Cashout is read since issue 34: tests/test_ggpoker.py)
    twice = GG_CASH.replace("*** SHOWDOWN ***", "*** FIRST FLOP *** [2c 3d 4h]")
    [e] = _read(GGPokerParser(), twice)
    # a first run and no second: not a board run twice (tests/test_run_it_twice.py reads real ones)
    assert isinstance(e, HandError) and e.reason_code == "run-it-twice" and "no second" in e.reason, e


def test_a_value_beyond_the_stores_range_rejects_its_hand_and_no_other(tmp_path):
    # found by the fuzzer and its like: a table size or button beyond SMALLINT, or amounts each
    # within BIGINT whose sums are not (a call of 2**63 - 1), stopped the whole audit (an
    # overflow building the unit's rows or the replay's facts)
    from conftest import SAMPLES

    text = (SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt").read_text(encoding="utf-8")
    hands = [h for h in text.split("\n\n\n") if h.strip()]
    assert len(hands) >= 2 and "9-max Seat #4 is the button" in hands[0] and "ChipLeader88: calls 150\n" in hands[0]
    for old, new, why in [
        ("9-max Seat #4 is the button", "99999999999999999999-max Seat #4 is the button",
         "max_seats 99999999999999999999 is out of range"),
        ("9-max Seat #4 is the button", "9-max Seat #99999999999999999999 is the button",
         "button_seat 99999999999999999999 is out of range"),
        ("ChipLeader88: calls 150\n", "ChipLeader88: calls 9223372036854775807\n",
         "the hand's stacks and amounts add up to"),
    ]:
        path = tmp_path / f"{len(why)}.txt"
        path.write_text("\n\n\n".join([hands[0].replace(old, new, 1), *hands[1:]]), encoding="utf-8")
        r = audit([path], db=str(tmp_path / f"{len(why)}.duckdb"), jobs=1)
        s = r.ingest
        assert (s.hands_seen, s.stored, s.rejected) == (len(hands), len(hands) - 1, 1)
        [e] = s.errors
        assert (e["file"], e["line"], e["reason_code"]) == (str(path), 1, "amount-out-of-range")
        assert why in e["reason"], e
        assert r.replay.hands == len(hands) - 1


def test_a_seat_number_beyond_the_stores_range_is_a_seat_line_not_understood():
    # found by the fuzzer: 'Seat 99999999999999999999:' made the reader crash (a seat's bit in an int)
    [e] = _read(GGPokerParser(), GG_CASH.replace("Seat 1: Ann", "Seat 99999999999999999999: Ann", 1))
    assert isinstance(e, HandError) and e.reason_code == "parse-error" and "seat number out of range" in e.reason, e


def test_tournament_header_kept_by_its_text_before_the_date_matches_as_the_pattern_does():
    """A tourney_header pattern's match is kept by the header's text up to its last ') - ';
    the kept match and the date must be what the pattern gives the whole text, first read
    and kept, in the shapes that could tell them apart."""
    from parsers.ggpoker import GGPOKER
    from parsers.stars_tables import _SiteTables
    from parsers.wpn import WPN

    tables = _SiteTables(GGPOKER)
    assert tables.date_sep == ") - "
    rests = [
        "Tournament #5948181, High Rollers PLO Main Event $1K Omaha Pot Limit - Level4 (90/180) - 2020/06/23 19:21:09",
        "Tournament #25942319, Omaholic Bounty $8.40 Omaha (NL postflop) - Level18(1,250/2,500) - 2021/04/15 13:55:42",
        # the name holds ') - ', a game and '- Level'; the date holds ') - '
        "Tournament #7, Day (1) - PLO - Level2 Hold'em No Limit - Level3(10/20) - 2021/04/04 16:06:27 (x) - y",
        "Tournament #7, Demo 5 Card Omaha Pot Limit - Level1(100/200) - 2021/04/04 16:06:27",
        "Tournament #7, Demo Hold'em No Limit - Level1(100/200) - ",  # no date: no match
        "Tournament #7, Demo Hold'em No Limit - Level1(100/200)",
        "Tournament #7, Demo Razz - Level1 (100/200) - 2021/04/04",  # a game with no limit written
    ]
    wpn = _SiteTables(WPN)
    assert wpn.date_sep == ")- "
    wpn_rests = [
        "$5,000 GTD Tournament #27099516 - Holdem(No Limit) - Level 10 (3000.00/6000.00)- 2022/07/11 01:11:44 UTC",
        "Tournament #11212445 - Omaha H/L(Pot Limit) - Level 1 (250.00/500.00)- 2019/07/25 02:31:33 UTC",
        "A (b)- c Tournament #1 - Holdem(No Limit) - Level 1 (1/2)- 2019/07/25 (x)- y",
        "Tournament #1 - Holdem(No Limit) - Level 1 (1/2)- ",
    ]
    for site, tables, rest in [(GGPOKER, tables, r) for r in rests] + [(WPN, wpn, r) for r in wpn_rests]:
        expected = site.tourney.match(rest)
        for _ in range(2):  # read, then kept
            _assert_as_the_pattern(tables.tourney_match(rest), expected, rest)


def _assert_as_the_pattern(kept: tuple, expected, rest: str) -> None:
    """A kept header match (match, date) is the pattern's own: the same groups' spans, the same date."""
    m, date = kept
    assert (m is None) == (expected is None), rest
    if expected is not None:
        assert m is not None
        names = [k for k in expected.re.groupindex if k != "date"]
        assert [m.span(k) for k in names] == [expected.span(k) for k in names], rest
        assert date == expected.group("date"), rest


def test_time_first_headers_kept_match_as_the_patterns_do():
    """Classic Full Tilt's headers end with a date written time first (TIME_FIRST_END): a
    header's match is kept by the text before the date (found by _time_first_cut).
    The kept match must be the pattern's, on the shapes the corpus writes and on seeded
    mutations of them (a time, ' - ' or brackets moved into names and dates, a euro, digits
    dropped), for each of Full Tilt's four header patterns.  (Branch s8-ftrio's test, without
    its dates read by position.)"""
    import random

    from parsers.fulltilt import FULL_TILT
    from parsers.stars_tables import _SiteTables, _TIME_FIRST, _kept_match

    tables = _SiteTables(FULL_TILT)
    assert tables.date_sep == _TIME_FIRST and tables.cash_date_sep == _TIME_FIRST
    rests = [
        "$26 Super Turbo Matrix (244669447), Match 4 - 25/50 - No Limit Hold'em - 11:37:56 ET - 2010/03/03",
        "$5 Sit & Go (Super Turbo) (253843023), Table 1 - NL Hold'em - 20/40 - 9:07:56 EET - 2010/3/3 [02:07:56 ET - 2010/03/03]",
        "Table Fpdb - $2/$4 Ante $0.40 - Limit Stud Hi - 11:37 ET - Wed, July 19, 2010",
        "Table Rymer (6 max, shallow) - $2/$4 - Pot Limit Omaha Hi - 21:37:56 CET - 2010/03/03 [15:37:56 ET - 2010/03/03]",
        "Table A - 1:2 x - $1/$2 - NL Hold'em - 1:02 ET - 2010/03/03 - 3:04 ET - x",  # times in the name and the date
        "Table A - $1/$2 - NL Hold'em - 1:02 ET - ",  # nothing after the zone: no date
        "Table A\u20ac - $1/$2 - NL Hold'em - 1:02 ET - 2010/03/03",
        "$26 Matrix (1), Match 4 - 1:2 x - 25/50 - No Limit Hold'em - 11:37:56 ET - 2010/03/03",
    ]
    patterns = [FULL_TILT.tourney, FULL_TILT.cash, *FULL_TILT.tourney_more, *FULL_TILT.cash_more]
    rng = random.Random(15)
    pieces = [*" -:/()[]0123456789aT_,\u20ac", " - ", " - 1:2", "11:37:56 ET - ", "(12), Match 3"]

    def mutated(text: str) -> str:
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(chars))
            if rng.random() < 0.5:
                chars.insert(k, rng.choice(pieces))
            else:
                del chars[k]
        return "".join(chars)

    matched = 0
    kept_by_pattern: list[dict] = [{} for _ in patterns]  # (kept across the rests, as a table's headers are)
    for rest in rests + [mutated(rng.choice(rests)) for _ in range(4000)]:
        for pattern, kept in zip(patterns, kept_by_pattern):
            expected = pattern.match(rest)
            for _ in range(2):  # read, then kept
                _assert_as_the_pattern(_kept_match(pattern, _TIME_FIRST, kept, rest), expected, rest)
                matched += expected is not None
    assert matched > 1000


def test_amounts_kept_by_text_read_as_written():
    """An amount is read once a scale and kept; what cannot be read is an error every time."""
    from parsers.base import Rescale
    from parsers.stars_hand import _HandReader
    from parsers.stars_site import to_units
    from parsers.wpn import WPN

    for scale, texts in ((100, ["$0.5", "$1,270.5", "$0.02", "$60.00", "$1,492.66"]), (1, ["27,617", "3000.00", "$60"])):
        reader = _HandReader(WPN, [(1, 0, "")], None, scale)
        for _ in range(2):
            assert [reader.amt(t) for t in texts] == [to_units(t, scale) for t in texts]
    reader = _HandReader(WPN, [(1, 0, "")], None, 100)
    for _ in range(2):
        try:
            reader.amt("$0.125")
        except Rescale as r:
            assert r.digits == 3
        else:
            raise AssertionError("a third decimal at a cents scale is read again at a finer scale")
        try:
            reader.amt("$x")
        except ValueError:
            pass
        else:
            raise AssertionError("'$x' is no amount")


def test_winamax_header_and_table_read_as_their_lazy_patterns_read():
    """Winamax's header reads the text before ' - HandId: #' a word at a time, its table line the
    table's name from one '(' or quote to the next, where a lazy '.*?' tried every character: the
    same match and groups as the lazy patterns, on seeded random lines built of the pieces that
    could tell them apart (the key twice, a number cut short, spaces, line breaks)."""
    import random
    import re

    from parsers.winamax import WINAMAX

    lazy_header = re.compile(r"^Winamax Poker - (?P<rest>.*?) - HandId: #(?P<num>\d+-\d+-\d+)(?P<rest_end> - .*)$")
    lazy_table = re.compile(r"^Table: '(?P<name>.*?(?:\((?P<tid>\d+)\)#\d+)?)' (?P<max>\d+)-max \((?:real|play) money\)"
                            r"(?: Seat #(?P<btn>\d+) is the button)?$")
    header_parts = [" - HandId: #", " - HandId: #1-2-3 - x", " - HandId: #1-2", "1", "-", " ", "  ", "\n", "a", " - ",
                    "#", "\t", "1-2-3", "€", " - HandId: #12-3-4 -", "-4"]
    table_parts = ["'", "(", ")", "(12)", "(12)#3", "#3", "a", " ", "\n", "' 9-max (real money)", " 9-max", "(1)#2'",
                   "' 9-max (play money) Seat #2 is the button", "x(", "€"]
    ends = ["' 9-max (real money)", "' 9-max (play money) Seat #2 is the button", ""]
    rng = random.Random(14)
    matched = [0, 0]
    for _ in range(20000):
        head = "".join(rng.choice(header_parts) for _ in range(rng.randint(0, 6)))
        tail = "".join(rng.choice(header_parts) for _ in range(rng.randint(0, 6)))
        header = f"Winamax Poker - {head} - HandId: #{tail}"
        table = ("Table: '" + "".join(rng.choice(table_parts) for _ in range(rng.randint(0, 8))) + rng.choice(ends)
                 + "".join(rng.choice(table_parts) for _ in range(rng.randint(0, 2))))
        for k, (pattern, lazy, line) in enumerate(((WINAMAX.header, lazy_header, header), (WINAMAX.table, lazy_table, table))):
            m, expected = pattern.match(line), lazy.match(line)
            assert (m and m.groupdict()) == (expected and expected.groupdict()), line
            matched[k] += expected is not None
    assert min(matched) > 5000, matched  # (most lines match: the groups are compared)


def test_action_aliases_with_group_references_rewrite_as_their_sub():
    """An alias whose replacement holds a group reference (Winamax's 'discard 2 cards' ->
    'discards 2 cards', 'posts big blind 2€ out of position') is put together from its match,
    not by the sub that prepared the replacement in Python at every call: the same action as
    the pattern's sub on seeded random actions built of its pieces, for every site's aliases;
    a replacement a template reads otherwise is left to the sub."""
    import random

    from parsers.stars_family import StarsFamilyParser
    from parsers.stars_tables import _site_tables, _substituted, _template_parts

    assert _template_parts("discards \\1", 1) == (("discards ", 1),)
    assert _template_parts("\\1\\2", 1) is None and _template_parts("\\g<1>", 1) is None
    assert _template_parts("a\\12", 12) is None and _template_parts("\\0", 1) is None
    pieces = ["discard ", "1 card", "2 cards", "3 cards", "posts small blind ", "posts big blind ", "2€", "0.50\x1a",
              " out of position", " ", "", "x", "cards", "\\1", "brings in ", "bring-in ", "10€", "stands pat [", "Ks]"]
    rng = random.Random(15)
    tried = rewritten = 0
    for parser in all_parsers():
        if not isinstance(parser, StarsFamilyParser):
            continue
        for first, pattern, words, _swap, parts in _site_tables(parser.site).aliases:
            if parts is None:
                continue
            for _ in range(3000):
                action = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3)))
                if rng.random() < 0.7:
                    action = first + action
                if rng.random() < 0.5:
                    action += " out of position"
                m = pattern.search(action)
                if m is None:
                    continue
                tried += 1
                got = _substituted(action, m, parts)
                assert got == pattern.sub(words, action, count=1), (words, action)
                rewritten += got != action
    assert tried > 500 and rewritten > 500, (tried, rewritten)


def test_names_without_a_colon_the_longest_seated_name_acts():
    """Where actions have no colon, a line's actor is the longest seated name it starts with:
    'Ann Lee' and 'Ann' both seated, each line is the right one's."""
    from parsers.winamax import WinamaxParser

    text = """Winamax Poker - Tournament "T" buyIn: 1€ level: 1 - HandId: #1-2-3 - Holdem no limit (10/20) - 2020/01/01 10:00:00 UTC
Table: 'T(5)#1' 3-max (real money) Seat #1 is the button
Seat 1: Ann (1000)
Seat 2: Ann Lee (1000)
Seat 3: Lee (1000)
*** ANTE/BLINDS ***
Ann Lee posts small blind 10
Lee posts big blind 20
*** PRE-FLOP ***
Ann raises 40 to 60
Ann Lee folds
Lee calls 40
*** FLOP *** [2c 3d 4h]
Lee checks
Ann bets 100
Lee folds
Ann collected 230 from pot
*** SUMMARY ***
Total pot 230 | No rake
Seat 1: Ann (button) won 230
Seat 2: Ann Lee (small blind) folded on the pre-flop
Seat 3: Lee (big blind) folded on the flop"""
    [h] = _read(WinamaxParser(), text)
    assert isinstance(h, ParsedHand), h
    acts = [(e.kind, e.player, e.amount) for e in h.events if e.kind in ("small_blind", "big_blind", "raise", "fold", "call", "bet")]
    assert acts == [("small_blind", "Ann Lee", 10), ("big_blind", "Lee", 20), ("raise", "Ann", 40), ("fold", "Ann Lee", None),
                    ("call", "Lee", 40), ("bet", "Ann", 100), ("fold", "Lee", None)]
    # the flop's bet was not called: its return is inferred from the bet's line and the collect's
    [back] = [e for e in h.events if e.kind == "uncalled_return"]
    assert (back.player, back.amount, back.inferred_from) == ("Ann", 100, [15, 17])


def test_names_without_a_colon_a_collect_is_read_whatever_names_are_seated():
    """A line a seated player starts with an action's verb is read as his action without a search
    for the collect's word; a collect line is still its player's collect where a longer seated
    name ('Ann collected') would start it too."""
    from parsers.winamax import WinamaxParser

    text = """Winamax Poker - Tournament "T" buyIn: 1€ level: 1 - HandId: #1-2-3 - Holdem no limit (10/20) - 2020/01/01 10:00:00 UTC
Table: 'T(5)#1' 3-max (real money) Seat #1 is the button
Seat 1: Ann (1000)
Seat 2: Ann collected (1000)
*** ANTE/BLINDS ***
Ann posts small blind 10
Ann collected posts big blind 20
*** PRE-FLOP ***
Ann calls 10
Ann collected checks
*** FLOP *** [2c 3d 4h]
Ann collected bets 20
Ann folds
Ann collected collected 60 from pot
*** SUMMARY ***
Total pot 60 | No rake
Seat 2: Ann collected won 60"""
    [h] = _read(WinamaxParser(), text)
    assert isinstance(h, ParsedHand), h
    assert [(e.kind, e.player, e.amount) for e in h.events if e.kind in ("call", "check", "bet", "fold", "collect")] == [
        ("call", "Ann", 10), ("check", "Ann collected", None), ("bet", "Ann collected", 20), ("fold", "Ann", None),
        ("collect", "Ann collected", 40)]
    ann = text.replace("Ann collected collected 60 from pot", "Ann collected 60 from pot")
    [h] = _read(WinamaxParser(), ann)  # the collect's player is the text before ' collected ': Ann
    assert [(e.kind, e.player) for e in h.events if e.kind == "collect"] == [("collect", "Ann")]


def test_run_it_once_raise_leaves_out_the_players_own_bets():
    text = """Run It Once Poker Hand #7: Hold'em No Limit (€0.02/€0.04) - 2019/02/08 15:19 UTC [2019/02/08 16:19 CET]
Table ID '3' 6-Max Seat #1 is the button
Seat 1: Ann (€4 in chips)
Seat 2: Bob (€5 in chips) [hero]
Ann: posts small blind €0.02
Bob: posts big blind €0.04
*** HOLE CARDS ***
Ann: raises €0.08 to €0.12
Bob: calls €0.08
*** FLOP *** [4c Qc 5h]
Bob: bets €0.19
Ann: raises €0.39 to €0.58
Bob: raises €0.54 to €1.12
Ann: calls €0.73
*** TURN *** [4c Qc 5h] [6d]
Bob: bets €1
Ann: folds
Uncalled bet (€1) returned to Bob
*** SHOWDOWN ***
Bob collected €2.86 from pot
*** SUMMARY ***
Total pot €2.86 | Rake €0
Board [4c Qc 5h 6d]
Seat 1: Ann (button) (small blind) folded on the Turn
Seat 2: Bob (big blind) won €2.86"""
    [h] = _read(RunItOnceParser(), text)
    assert isinstance(h, ParsedHand), h
    raises = [(e.player, e.amount, e.to_amount) for e in h.events if e.kind == "raise"]
    # the small blind's 'to 0.12' includes the blind; Bob's 'to 1.12' leaves out his 0.19
    assert raises == [("Ann", 8, 12), ("Ann", 39, 58), ("Bob", 73, 131)]
    assert [e.amount for e in h.events if e.kind == "seat_result" and e.player == "Bob"] == [286]


def test_each_format_is_recognised_by_content_not_name():
    heads = {
        "pokerstars": "PokerStars Hand #1: Tournament #2, $1+$0.10 USD Hold'em No Limit - Level I (10/20) - 2020/01/02 3:04:05 ET",
        "ggpoker": "Poker Hand #TM1: Tournament #2, X Hold'em No Limit - Level1(10/20) - 2021/04/04 16:06:27",
        "runitonce": "Run It Once Poker Hand #1: Hold'em No Limit (€0.02/€0.04) - 2019/02/08 15:19 UTC",
        "fulltilt-stars": "Full Tilt Hand #1: Hold'em No Limit (5/10) - 2016/05/20 8:19:23 ET",
    }
    for name, head in heads.items():
        for path in ("hand.txt", "PokerStars.txt", "GGPoker/x.txt"):
            p = detect_parser(head + "\n", path)
            assert p is not None and p.name == name, (name, path)
    assert len({p.name for p in all_parsers()}) == len(all_parsers())


PLNL = """PokerStars Hand #{n}: Tournament #9{n}, $200+$15 USD Hold'em Pot Limit Pre-Flop, No Limit Post-Flop - Level I (10/20) - 2012/09/14 17:05:13 ET
Table '9{n} 1' 9-max Seat #1 is the button
Seat 1: Ann (5000 in chips)
Seat 2: Bob (5000 in chips)
Seat 3: Cy (5000 in chips)
Bob: posts small blind 10
Cy: posts big blind 20
*** HOLE CARDS ***
Ann: raises {pre} to {pre_to}
Bob: folds
Cy: calls {pre_call}
*** FLOP *** [2c 7d 9h]
Cy: bets 2000
Ann: folds
Uncalled bet (2000) returned to Cy
Cy collected {pot} from pot
Cy: doesn't show hand
*** SUMMARY ***
Total pot {pot} | Rake 0
Board [2c 7d 9h]
Seat 1: Ann (button) folded on the Flop
Seat 2: Bob (small blind) folded before Flop
Seat 3: Cy (big blind) collected ({pot})
"""


def test_pot_limit_preflop_no_limit_after(tmp_path):
    """Pre-flop the pot limit holds (max raise to 70 here: 20 + the pot after calling, 50);
    after the flop a bet of any size is legal."""
    over = PLNL.format(n=101, pre=80, pre_to=100, pre_call=80, pot=10 + 100 + 100)
    legal = PLNL.format(n=102, pre=50, pre_to=70, pre_call=50, pot=10 + 70 + 70)
    path = tmp_path / "plnl.txt"
    path.write_text(over + "\n\n" + legal, encoding="utf-8")
    [h, _] = _read(PokerStarsParser(), over + "\n\n" + legal)
    assert h.betting == "pot-limit-preflop"
    res = audit([str(path)], db=str(tmp_path / "a.duckdb"))
    assert res.ingest.rejected == 0
    found = {(f["hand_id"], f["check_id"], f["street"]) for f in res.findings}
    assert found == {("PS-101", "pot-limit-overbet", "preflop")}
    with duckdb.connect(str(tmp_path / "a.duckdb"), read_only=True) as con:
        assert con.execute("SELECT DISTINCT betting FROM hands").fetchall() == [("pot-limit-preflop",)]
