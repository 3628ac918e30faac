"""Fuzzing the parsers and ingest with mutated real hands and random text (issue 7).

Real hands (``sample_histories`` and, when present, the external corpus, read in
place) are mutated line by line: lines deleted, duplicated, swapped, cut,
numbers changed, characters flipped, lines from other hands spliced in.  The
parsers must never raise: every input becomes ``ParsedHand``s and
``HandError``s whose line numbers point into the input.  Through the full
``auditor.ingest`` every bad hand is an ``ingest_errors`` row with the file and
line, good hands of the same file still go in, and the totals reconcile.
Where the parsers run compiled (setup.py), each parser-level input is also read
by their source, interpreted, and must give the same hands and rejections.

Case counts (derandomized, so CI runs the same cases every time): PokerStars
mutants 1,500 examples x 4 hands = 6,000; PHH mutants 700 x 4 = 2,800;
PartyPoker and 888poker mutants 600 x 4 = 2,400; random text 1,000 x 4 parsers =
4,000; token soup 1,000 x 4 parsers = 4,000: 19,200 parser inputs, plus 100 + 60
full ingests (each ingested twice).
"""

from __future__ import annotations

import functools
import re
import sys
from itertools import count
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor.ingest import ingest
from auditor.store import connect
from parsers import iter_lines, open_source
from parsers.base import HandError, ParsedHand
from parsers._native import running_compiled
from parsers.ipoker import IPokerParser
from parsers.pacific import PacificParser
from parsers.party_family import MARKER as FAMILY_MARKER
from parsers.partypoker import PartyPokerParser
from parsers.phh import PhhParser
from parsers.pokerstars import PokerStarsParser
from tests.ipoker_games import games_of, session_text
from tests.native_doctests import source_copy

HEADER = re.compile(r"^(PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #)(\d+)(:)", re.IGNORECASE)
FUZZ = dict(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


# --- the pools of real input --------------------------------------------------------


def _split_pokerstars(path: Path) -> list[list[str]]:
    """The hands of one PokerStars file, each as its list of lines (no trailing blanks)."""
    info = open_source(path)
    hands: list[list[str]] = []
    for _, _, text in iter_lines(path, info.encoding):
        if HEADER.match(text):
            hands.append([text])
        elif hands:
            hands[-1].append(text)
    for h in hands:
        while len(h) > 1 and not h[-1].strip():
            h.pop()
    return hands


def _pokerstars_pool() -> list[list[str]]:
    files = sorted((SAMPLES / "pokerstars").glob("*.txt"))
    if CORPUS.is_dir():
        for sub in ("tour/Stars", "cash/Stars"):
            files += sorted(p for p in (CORPUS / "fpdb" / sub).rglob("*") if p.is_file() and not p.name.startswith("."))
    pool: list[list[str]] = []
    for f in files:
        try:
            if not PokerStarsParser().detect(open_source(f).head, str(f)):
                continue
        except OSError:
            continue
        pool += _split_pokerstars(f)
    return pool


def _phh_pool() -> list[list[str]]:
    files = sorted((SAMPLES / "phh").glob("*.phh"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "phh").glob("*.phh"))
        files += sorted((CORPUS / "phh" / "wsop").rglob("*.phh"))
        files += sorted((CORPUS / "phh" / "pluribus").rglob("*.phh"))[:300]
    return [f.read_text(encoding="utf-8").splitlines() for f in files]


def _ipoker_games() -> list[tuple]:
    """(session general, game) of the iPoker samples and, when present, the corpus."""
    files = sorted((SAMPLES / "ipoker").glob("*.xml"))
    if CORPUS.is_dir():
        for sub in ("tour/iPoker", "cash/iPoker"):
            files += sorted(p for p in (CORPUS / "fpdb" / sub).rglob("*") if p.is_file() and not p.name.startswith("."))
    games = []
    for f in files:
        if IPokerParser().detect(open_source(f).head, str(f)):
            games += games_of(f)
    return games


def _family_pool() -> list[tuple[str, list[str]]]:
    """(parser name, lines) of every PartyPoker and 888poker hand: samples and corpus."""
    files = sorted((SAMPLES / "partypoker").glob("*.txt")) + sorted((SAMPLES / "pacific").glob("*.txt"))
    if CORPUS.is_dir():
        for sub in ("tour/PartyPoker", "cash/PartyPoker", "tour/PacificPoker", "cash/PacificPoker"):
            files += sorted(p for p in (CORPUS / "fpdb" / sub).rglob("*") if p.is_file() and not p.name.startswith("."))
    pool: list[tuple[str, list[str]]] = []
    for f in files:
        info = open_source(f)
        name = "pacific" if PacificParser().detect(info.head, str(f)) else "partypoker"
        hands: list[list[str]] = []
        for _, _, text in iter_lines(f, info.encoding):
            if text.startswith(("Game #", "#Game No")) or (FAMILY_MARKER.match(text) and not (hands and hands[-1][-1].startswith("#Game No"))):
                hands.append([text])
            elif hands:
                hands[-1].append(text)
        pool += [(name, h) for h in hands]
    return pool


class _Pools:
    """The pools of real input, each read on first use, not at import: every xdist worker
    imports this module to collect it (and the per-site harness imports its fuzzing
    operations), and a worker that runs none of these tests need not read them."""

    @functools.cached_property
    def PS_POOL(self) -> list[list[str]]:
        return _pokerstars_pool()

    @functools.cached_property
    def PHH_POOL(self) -> list[list[str]]:
        return _phh_pool()

    @functools.cached_property
    def FAMILY_POOL(self) -> list[tuple[str, list[str]]]:
        return _family_pool()

    # lines to splice in: every distinct line of a few hundred real hands
    @functools.cached_property
    def PS_LINES(self) -> list[str]:
        return sorted({line for h in self.PS_POOL[:400] for line in h})

    @functools.cached_property
    def PHH_LINES(self) -> list[str]:
        return sorted({line for h in self.PHH_POOL[:100] for line in h})

    @functools.cached_property
    def FAMILY_LINES(self) -> list[str]:
        return sorted({line for _, h in self.FAMILY_POOL[:300] for line in h})

    @functools.cached_property
    def IP_GAMES(self) -> list[tuple]:
        return _ipoker_games()

    # sessions of one to three real games, one element a line (or more)
    @functools.cached_property
    def IP_POOL(self) -> list[list[str]]:
        return [session_text(self.IP_GAMES[i][0], [g for _, g in self.IP_GAMES[i:i + 1 + i % 3]]).splitlines()
                for i in range(0, len(self.IP_GAMES), 2)]

    @functools.cached_property
    def IP_LINES(self) -> list[str]:
        return sorted({line for h in self.IP_POOL[:150] for line in h})

    @functools.cached_property
    def GOOD_PS(self) -> list[list[str]]:
        return _good_pokerstars()

    @functools.cached_property
    def GOOD_PHH(self) -> list[list[str]]:
        return [h for h in self.PHH_POOL if all(isinstance(x, ParsedHand) for x in run_parser(PhhParser(), h, "g/h.phh"))]

    @functools.cached_property
    def GOOD_IP(self) -> list[tuple]:
        return _good_ipoker()


P = _Pools()


FAMILY_PARSERS = {"partypoker": PartyPokerParser, "pacific": PacificParser}


# --- mutations ------------------------------------------------------------------------

NUM = re.compile(r"\d+")

_op = st.one_of(
    st.tuples(st.just("del"), st.integers(0, 10**6)),
    st.tuples(st.just("dup"), st.integers(0, 10**6)),
    st.tuples(st.just("swap"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.floats(0, 1)),
    st.tuples(st.just("num"), st.integers(0, 10**6), st.sampled_from(["0", "-1", "1", "99999999999999999999", "1.5", "1,0", "", "x", "00"])),
    st.tuples(st.just("char"), st.integers(0, 10**6), st.floats(0, 1), st.characters()),
    st.tuples(st.just("text"), st.integers(0, 10**6), st.text(max_size=40)),
    st.tuples(st.just("splice"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("blank"), st.integers(0, 10**6)),
    st.tuples(st.just("end"), st.floats(0, 1)),  # the file stops here (mid-line)
)


def mutate(lines: list[str], ops: list[tuple], donors: list[str], keep_first: bool = False) -> list[str]:
    """Apply ``ops`` to a copy of ``lines``.  With ``keep_first`` line 0 (the header) is never touched."""
    out = list(lines)
    lo = 1 if keep_first else 0
    for op in ops:
        n = len(out)
        if n <= lo:
            out.append("x")
            continue
        kind = op[0]
        if kind == "end":
            if keep_first:
                continue
            text = "\n".join(out)
            out = text[: int(len(text) * op[1])].split("\n")
            continue
        i = lo + op[1] % (n - lo)
        if kind == "del":
            del out[i]
        elif kind == "dup":
            out.insert(i, out[i])
        elif kind == "swap":
            j = lo + op[2] % (n - lo)
            out[i], out[j] = out[j], out[i]
        elif kind == "cut":
            out[i] = out[i][: int(len(out[i]) * op[2])]
        elif kind == "num":
            nums = list(NUM.finditer(out[i]))
            if nums:
                m = nums[op[1] % len(nums)]
                out[i] = out[i][: m.start()] + op[2] + out[i][m.end() :]
        elif kind == "char":
            k = int(len(out[i]) * op[2])
            out[i] = out[i][:k] + op[3] + out[i][k + 1 :]
        elif kind == "text":
            out.insert(i, op[2])
        elif kind == "splice":
            out.insert(i, donors[op[2] % len(donors)])
        elif kind == "blank":
            out.insert(i, "")
    return out


def run_parser(parser, lines: list[str], path: str) -> list[ParsedHand | HandError]:
    """Run ``parser`` on ``lines`` and check what it yields; raises on any uncaught exception."""
    # the text as ingest would see it: no line holds a line break
    flat = [piece for line in lines for piece in line.replace("\r", "\n").split("\n")] if any(
        "\n" in x or "\r" in x for x in lines) else lines
    items = list(parser.iter_hands(((i, 0, t) for i, t in enumerate(flat, 1)), path))
    n = len(flat)
    # the module that reads (a source copy builds its own copy's classes; a site of the
    # PokerStars family reads through parsers.stars_family)
    # (the class that defines iter_hands: a compiled method has no __module__ of its own)
    module = sys.modules[next(c.__module__ for c in type(parser).__mro__ if "iter_hands" in c.__dict__)]
    for it in items:
        assert isinstance(it, (module.ParsedHand, module.HandError)), it
        if isinstance(it, module.HandError):
            assert 1 <= it.line_no <= max(n, 1), (it, n)
            assert it.reason_code and it.reason
        else:
            assert it.hand_id
            assert 1 <= it.first_line <= it.last_line <= n, (it.first_line, it.last_line, n)
            assert all(it.first_line <= e.line_no <= it.last_line for e in it.events)
            assert [e.seq for e in it.events] == list(range(len(it.events)))
            assert len(it.content_hash) == 64
    return items


def same_as_source(parser, lines: list[str], path: str, items: list) -> None:
    """Where the parsers run compiled (setup.py), their source, interpreted, reads
    the same input to the same hands and rejections: mypyc checks annotations at
    run time, and a value that belies one would be a rejection only there."""
    module = type(parser).__module__
    if module not in COMPILED:
        return
    source_parser = getattr(source_copy(module), type(parser).__name__)()
    assert [repr(x) for x in run_parser(source_parser, lines, path)] == [repr(x) for x in items]


COMPILED = running_compiled()


def _headers(lines: list[str]) -> int:
    return sum(1 for t in lines if HEADER.match(t))


# --- parser-level fuzzing (fast: no store) ------------------------------------------


# each example applies its mutations to PER_EXAMPLE hands spread over the pool:
# hypothesis spends ~4 ms generating an example, parsing a hand takes ~0.4 ms
PER_EXAMPLE = 4


def _spread(pool: list, idx: int) -> list:
    stride = max(1, len(pool) // PER_EXAMPLE)
    return [pool[(idx + k * stride) % len(pool)] for k in range(PER_EXAMPLE)]


@settings(max_examples=1500, **FUZZ)
@given(idx=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=6))
def test_pokerstars_parser_survives_mutated_real_hands(idx, ops):
    """1,500 examples x 4 hands = 6,000 mutated PokerStars hands."""
    for hand in _spread(P.PS_POOL, idx):
        lines = mutate(hand, ops, P.PS_LINES)
        items = run_parser(PokerStarsParser(), lines, "fuzz.txt")
        # every header line starts exactly one hand (stored or rejected)
        assert len(items) >= _headers(lines)
        same_as_source(PokerStarsParser(), lines, "fuzz.txt", items)


@settings(max_examples=700, **FUZZ)
@given(idx=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=6), multi=st.booleans())
def test_phh_parser_survives_mutated_real_hands(idx, ops, multi):
    """700 examples x 4 hands = 2,800 mutated PHH hands (.phh, or two tables of a .phhs)."""
    for hand in _spread(P.PHH_POOL, idx):
        lines = mutate(hand, ops, P.PHH_LINES)
        if multi:
            lines = ["[1]", *lines, "", "[2]", *hand]
        path = "fuzz/hand.phhs" if multi else "fuzz/hand.phh"
        items = run_parser(PhhParser(), lines, path)
        if not multi:
            assert len(items) == (1 if lines else 0)  # a .phh file is one hand, stored or rejected
        same_as_source(PhhParser(), lines, path, items)


@settings(max_examples=600, **FUZZ)
@given(idx=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=6))
def test_party_and_888_parsers_survive_mutated_real_hands(idx, ops):
    """600 examples x 4 hands = 2,400 mutated PartyPoker and 888poker hands, each
    read by its own parser: every marker line starts one hand (stored or rejected)."""
    for name, hand in _spread(P.FAMILY_POOL, idx):
        lines = mutate(hand, ops, P.FAMILY_LINES)
        items = run_parser(FAMILY_PARSERS[name](), lines, "fuzz.txt")
        assert len(items) >= sum(1 for t in lines if FAMILY_MARKER.match(t.replace("\x00", "").lstrip("\ufeff")))


@settings(max_examples=1000, **FUZZ)
@given(text=st.text(max_size=2000))
def test_both_parsers_survive_random_text(text):
    lines = text.splitlines()
    run_parser(PartyPokerParser(), lines, "random.txt")
    run_parser(PacificParser(), lines, "random.txt")
    same_as_source(PokerStarsParser(), lines, "random.txt", run_parser(PokerStarsParser(), lines, "random.txt"))
    same_as_source(PhhParser(), lines, "random.phh", run_parser(PhhParser(), lines, "random.phh"))


_TOKENS = st.sampled_from([
    "PokerStars Hand #1: ", "PokerStars Game #2: Tournament #3, ", "Hold'em No Limit", " - Level I (10/20) - ",
    "2020/01/02 3:04:05 ET", "Table '1 2' 9-max Seat #1 is the button", "Seat 1: ", "Seat 2: ", "Ann", "Bob",
    " (1500 in chips)", ": posts small blind ", ": posts big blind ", ": raises ", " to ", ": calls ", ": bets ",
    ": folds", ": checks", " and is all-in", "*** HOLE CARDS ***", "*** FLOP *** [", "*** SUMMARY ***",
    "*** SHOW DOWN ***", "Total pot ", " | Rake ", "Uncalled bet (", ") returned to ", " collected ", " from pot",
    "Dealt to Ann [", "As Kd]", "10", "20", "$1.50", "€0.05", "1,500", "-5", "9" * 30, "\n", "\n", "\n", " ",
    "[", "]", "(", ")", ":", "variant = ", '"NT"', "actions = [", '"p1 cbr 6"', "starting_stacks = [100, 100]",
    "antes = [0, 0]", "blinds_or_straddles = [1, 2]", "min_bet = 2", "[1]", "[2.x]", "= ", "#", '"', "'",
    "***** Hand History for Game 7 *****", "***** 888poker Hand History for Game 8 *****", "#Game No : 7",
    "Game #7 starts.", "$1/$2 Blinds No Limit Holdem - *** 04 05 2012 07:59:45", "NL Texas Hold'em ",
    "Trny: 5 Level: 1", "Blinds(10/20)", "Table T (Real Money)", "Seat 1 is the button", "Seat 1: Ann ( ",
    " )", "Ann posts small blind [", "Bob posts big blind [", "** Dealing down cards **", "** Dealing Flop ** [ ",
    "Ann raises [", "Bob calls [", "Ann is all-In  [", "** Summary **", "Ann collected [ ", "Bob wins ",
    " chips from the main pot", "Main Pot: ", " Rake: ", "1 000", "0,01 $", "1.183.764", "Ann balance ",
])


@settings(max_examples=1000, **FUZZ)
@given(parts=st.lists(_TOKENS, max_size=120))
def test_both_parsers_survive_token_soup(parts):
    lines = "".join(parts).split("\n")
    run_parser(PartyPokerParser(), lines, "soup.txt")
    run_parser(PacificParser(), lines, "soup.txt")
    same_as_source(PokerStarsParser(), lines, "soup.txt", run_parser(PokerStarsParser(), lines, "soup.txt"))
    same_as_source(PhhParser(), lines, "soup.phh", run_parser(PhhParser(), lines, "soup.phh"))


@settings(max_examples=300, **FUZZ)
@given(idx=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=6))
def test_ipoker_parser_survives_mutated_real_sessions(idx, ops):
    """300 examples x 4 sessions of one to three real iPoker games = 1,200 mutated sessions:
    lines deleted, cut, swapped, numbers and characters changed (broken XML included)."""
    for session in _spread(P.IP_POOL, idx):
        lines = mutate(session, ops, P.IP_LINES)
        items = run_parser(IPokerParser(), lines, "fuzz.xml")
        # a game element whose start tag is intact is one hand, stored or rejected (unless an
        # open comment or declaration runs on over it, as XML reads it)
        if any(x in t.replace('<?xml version="1.0" encoding="utf-8"?>', "") for t in lines for x in ("<!", "<?")):
            continue
        assert len(items) >= sum(1 for t in lines if t.strip().startswith('<game gamecode="') and t.strip().endswith('">')
                                 and t.count("<") == 1 and t.count('"') == 2 and "&" not in t)


_XML_TOKENS = st.sampled_from([
    '<?xml version="1.0" encoding="utf-8"?>', '<session sessioncode="1">', "</session>", "<general>", "</general>",
    "<gametype>Holdem NL $0.01/$0.02</gametype>", "<gametype>Omaha PL €0,50/€1</gametype>",
    "<gametype>7 Card Stud L</gametype>", '<game gamecode="7">', '<game gamecode="8">', "</game>", "<players>",
    "</players>", '<player seat="1" name="Ann" chips="$2" dealer="1" win="$0.03" bet="$0.02"/>',
    '<player seat="2" name="Bob" chips="1,500" dealer="0" win="0" bet="20"/>', '<round no="0">', '<round no="1">',
    '<round no="2">', "</round>", '<action no="1" player="Ann" type="1" sum="$0.01"/>',
    '<action no="2" player="Bob" type="2" sum="$0.02"/>', '<action no="3" player="Ann" type="23" sum="$0.06"/>',
    '<action no="4" player="Bob" type="7" sum="$9"/>', '<action no="5" player="Ann" type="0" sum="$0"/>',
    '<cards type="Pocket" player="Ann">SA H10</cards>', '<cards type="Flop" player="">D2 C3 X</cards>',
    '<cards type="Third Street" player="Bob">X X HA</cards>', "<startdate>2011-01-02 03:04:05</startdate>",
    "\n", "\n", " ", "<", ">", "&", '"', "<!--", "-->", "<![CDATA[", "]]>", "€", "\x00", "9" * 30,
])


@settings(max_examples=500, **FUZZ)
@given(parts=st.lists(_XML_TOKENS, max_size=120), text=st.text(max_size=300))
def test_ipoker_parser_survives_token_soup_and_random_text(parts, text):
    run_parser(IPokerParser(), "".join(parts).split("\n"), "soup.xml")
    run_parser(IPokerParser(), text.splitlines(), "random.xml")
    run_parser(IPokerParser(), ['<session sessioncode="1">', *text.splitlines()], "random.xml")


# --- through the full ingest --------------------------------------------------------

_numbers = count(9_400_000_000_000)


def _renumber(lines: list[str], number: int) -> list[str]:
    return [HEADER.sub(lambda m: f"{m.group(1)}{number}{m.group(3)}", lines[0], count=1), *lines[1:]]


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    """One store for all ingest examples (hand numbers are fresh per example), in memory: the
    ingest into it is the same, without the store file's syncs at each of some 400 commits."""
    d = tmp_path_factory.mktemp("fuzz-ingest")
    con = connect(":memory:")
    yield d, con
    con.close()


def _error_rows(con, path: Path) -> set[tuple]:
    """(line, reason code) of the ingest_errors rows for this file's content (rows are kept once per content)."""
    sha = open_source(path).sha256
    return {
        (r[0], r[1])
        for r in con.execute(
            "SELECT line_no, reason_code FROM ingest_errors WHERE coalesce(sha256, source_path) = ?", [sha]
        ).fetchall()
    }


def _good_pokerstars() -> list[list[str]]:
    """Pool hands the parser stores as they are."""
    return [h for h in P.PS_POOL if all(isinstance(x, ParsedHand) for x in run_parser(PokerStarsParser(), h, "g.txt"))]




def _check_file_outcome(con, path: Path, n_lines: int, summary, before: int) -> None:
    s = summary
    assert s.hands_seen == s.stored + s.duplicates + s.rejected
    (after,) = con.execute("SELECT count(*) FROM hands").fetchone()
    assert after - before == s.stored
    hand_errors = [e for e in s.errors if e["reason_code"] not in ("not-a-history", "empty-file", "unreadable")]
    assert len(hand_errors) == s.rejected
    stored_errors = _error_rows(con, path)
    for e in s.errors:
        assert e["file"] == str(path)
        if e in hand_errors:
            assert 1 <= e["line"] <= n_lines, e
        assert (e["line"], e["reason_code"]) in stored_errors, e


@settings(max_examples=100, **FUZZ)
@given(a=st.integers(0, 10**6), m=st.integers(0, 10**6), b=st.integers(0, 10**6),
       ops=st.lists(_op, min_size=1, max_size=5), crlf=st.booleans())
def test_ingest_stores_good_hands_around_a_mutated_one(fuzz_store, a, m, b, ops, crlf):
    d, con = fuzz_store
    na, nm, nb = next(_numbers), next(_numbers), next(_numbers)
    good_a = _renumber(P.GOOD_PS[a % len(P.GOOD_PS)], na)
    good_b = _renumber(P.GOOD_PS[b % len(P.GOOD_PS)], nb)
    bad = mutate(_renumber(P.PS_POOL[m % len(P.PS_POOL)], nm), ops, P.PS_LINES, keep_first=True)
    bad = [piece for line in bad for piece in line.replace("\r", "\n").split("\n")]
    lines = [*good_a, "", "", *bad, "", "", *good_b]
    path = d / f"fuzz-{na}.txt"
    path.write_bytes(("\r\n" if crlf else "\n").join(lines).encode("utf-8", errors="surrogatepass"))
    (before,) = con.execute("SELECT count(*) FROM hands").fetchone()
    s = ingest([path], con=con)
    _check_file_outcome(con, path, len(lines), s, before)
    stored = dict(con.execute("SELECT hand_id, content_hash FROM hands WHERE hand_id IN (?, ?)",
                              [f"PS-{na}", f"PS-{nb}"]).fetchall())
    assert set(stored) == {f"PS-{na}", f"PS-{nb}"}, "a good hand next to a bad one was not stored"
    # a second ingest of the same file stores nothing and records no new error
    (errs,) = con.execute("SELECT count(*) FROM ingest_errors").fetchone()
    (hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
    s2 = ingest([path], con=con)
    assert s2.hands_seen == s.hands_seen and s2.stored == 0
    assert s2.hands_seen == s2.duplicates + s2.rejected
    assert con.execute("SELECT count(*) FROM ingest_errors").fetchone()[0] == errs
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == hands


@settings(max_examples=60, **FUZZ)
@given(g=st.integers(0, 10**6), m=st.integers(0, 10**6), ops=st.lists(_op, min_size=1, max_size=5))
def test_ingest_phh_folder_with_a_mutated_hand(fuzz_store, g, m, ops):
    d, con = fuzz_store
    n = next(_numbers)
    folder = d / f"phh-{n}"
    folder.mkdir()
    good = P.GOOD_PHH[g % len(P.GOOD_PHH)]
    bad = mutate(P.PHH_POOL[m % len(P.PHH_POOL)], ops, P.PHH_LINES)
    bad = [piece for line in bad for piece in line.replace("\r", "\n").split("\n")]
    (folder / "a-good.phh").write_text("\n".join(good) + "\n", encoding="utf-8")
    bad_path = folder / "b-mutated.phh"
    bad_path.write_bytes(("\n".join(bad) + "\n").encode("utf-8", errors="surrogatepass"))
    (before,) = con.execute("SELECT count(*) FROM hands").fetchone()
    s = ingest([folder], con=con)
    assert s.files == 2
    assert s.hands_seen == s.stored + s.duplicates + s.rejected
    assert con.execute("SELECT count(*) FROM hands").fetchone()[0] - before == s.stored
    # the good hand is in the store (stored now, or earlier with the same content)
    [parsed] = run_parser(PhhParser(), good, str(folder / "a-good.phh"))
    assert isinstance(parsed, ParsedHand)
    assert con.execute("SELECT count(*) FROM hands WHERE content_hash = ?", [parsed.content_hash]).fetchone()[0] == 1
    for e in s.errors:
        assert e["file"] == str(bad_path), e
        if e["reason_code"] not in ("not-a-history", "empty-file"):
            assert 1 <= e["line"] <= max(len(bad), 1), e
        assert (e["line"], e["reason_code"]) in _error_rows(con, bad_path), e


def _renumber_game(game, number: int):
    import xml.etree.ElementTree as ET
    g = ET.fromstring(ET.tostring(game))
    g.set("gamecode", str(number))
    return g


def _good_ipoker() -> list[tuple]:
    good = []
    for general, game in P.IP_GAMES:
        items = run_parser(IPokerParser(), session_text(general, [game]).splitlines(), "g.xml")
        if len(items) == 1 and isinstance(items[0], ParsedHand):
            good.append((general, game))
    return good




@settings(max_examples=40, **FUZZ)
@given(a=st.integers(0, 10**6), m=st.integers(0, 10**6), b=st.integers(0, 10**6),
       ops=st.lists(_op, min_size=1, max_size=5))
def test_ingest_stores_good_ipoker_games_around_a_mutated_one(fuzz_store, a, m, b, ops):
    """A session of three games, the middle one mutated: the first is always stored; the
    last too, unless the mutation opened a comment, CDATA section or processing
    instruction, which in XML runs on over what follows."""
    d, con = fuzz_store
    na, nm, nb = next(_numbers), next(_numbers), next(_numbers)
    general = P.GOOD_IP[a % len(P.GOOD_IP)][0]
    same = [g for gen, g in P.GOOD_IP if gen.findtext("gametype") == general.findtext("gametype")]  # one session's game
    good_a = _renumber_game(P.GOOD_IP[a % len(P.GOOD_IP)][1], na)
    good_b = _renumber_game(same[b % len(same)], nb)
    mid = session_text(general, [_renumber_game(P.IP_GAMES[m % len(P.IP_GAMES)][1], nm)]).splitlines()
    k = next(i for i, t in enumerate(mid) if "<game " in t)
    bad = mutate(mid[k:-1], ops, P.IP_LINES, keep_first=True)
    bad = [piece for line in bad for piece in line.replace("\r", "\n").split("\n")]
    head = session_text(general, [good_a]).splitlines()[:-1]
    tail = session_text(general, [good_b]).splitlines()
    tail = tail[next(i for i, t in enumerate(tail) if "<game " in t):]
    lines = [*head, *bad, *tail]
    path = d / f"fuzz-{na}.xml"
    path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
    (before,) = con.execute("SELECT count(*) FROM hands").fetchone()
    s = ingest([path], con=con)
    _check_file_outcome(con, path, len(lines), s, before)
    stored = {r[0] for r in con.execute("SELECT hand_id FROM hands WHERE hand_id IN (?, ?)",
                                        [f"IP-{na}", f"IP-{nb}"]).fetchall()}
    assert f"IP-{na}" in stored, "the good game before a bad one was not stored"
    if not any(x in t for t in bad for x in ("<!", "<?")):
        assert f"IP-{nb}" in stored, "the good game after a bad one was not stored"
    s2 = ingest([path], con=con)
    assert s2.hands_seen == s.hands_seen and s2.stored == 0


def test_pools_are_real():
    """The fuzzers start from real hands: the samples at least, the corpus when present."""
    assert len(P.GOOD_PS) >= 40 and len(P.PHH_POOL) >= 4 and len(P.GOOD_IP) >= 2
    assert {name for name, _ in P.FAMILY_POOL} == {"partypoker", "pacific"}
    if CORPUS.is_dir():
        assert len(P.PS_POOL) >= 1000 and len(P.PHH_POOL) >= 300 and len(P.GOOD_IP) >= 250
        assert len(P.FAMILY_POOL) >= 400
