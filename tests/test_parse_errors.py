"""Where the Stars family's reader (``parsers/stars_family.py``) says a hand cannot be read,
and what it keeps of a file that holds more than hands.

- A bad amount is rejected at the line that holds it: a seat line's stack, an action's amount
  and the summary's 'Total pot', garbled in a real hand of every site the shared reader reads
  (PokerStars, GGPoker, Winamax, WPN, Bovada and classic Full Tilt from ``sample_histories``;
  the same sites, Run It Once and Full Tilt 2016 from the external corpus).  A seat line's was
  once named at the hand's first line.
- Binary junk after a whole hand (``cat file; head -c 2000 /dev/urandom``) is one
  ``unread-lines`` error, no hand: the hand is stored, and ingest counts the junk neither as a
  hand seen nor as rejected.  A hand cut or garbled before its end is rejected as before.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLES, needs_corpus

from parsers import all_parsers, iter_lines, open_source
from parsers.base import HandError, ParsedHand

SAMPLE_FILES = {
    "pokerstars": SAMPLES / "pokerstars/nlhe-mtt-9max-table.txt",
    "ggpoker": SAMPLES / "ggpoker/nlhe-mtt-and-plo-cash.txt",
    "winamax": SAMPLES / "winamax/nlhe-mtt-violation.txt",
    "wpn": SAMPLES / "wpn/nlhe-mtt-underraise.txt",
    "bovada": SAMPLES / "bovada/nlhe-mtt-underraise.txt",
    "fulltilt": SAMPLES / "fulltilt/nlhe-cash-underraise.txt",
}
FPDB = CORPUS / "fpdb"
CORPUS_FILES = {
    "pokerstars": FPDB / "cash/Stars/Flop/NLH-PLO-6max-USD-0.10-0.20-201204.txt",
    "ggpoker": FPDB / "tour/GGPoker/Flop/NLHE-8max-MTT-USD-52.50-202104.KO.txt",
    "winamax": FPDB / "cash/Winamax/Flop/NLHE-2max-EUR-2-4-201704.go.fast.txt",
    "wpn": FPDB / "cash/Winning/Flop/NLHE-9max-USD-0.02-0.05-202104.post.dead.txt",
    "bovada": FPDB / "cash/Bovada/Flop/NLHE-6max-USD - $0.10-$0.25 - 202104.ZonePoker.txt",
    "fulltilt": FPDB / "cash/FTP/Flop/NLHE-6max-EUR-0.01-0.02.201008.Weird.table.character.txt",  # UTF-16
    "runitonce": FPDB / "cash/Stars/Flop/NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.txt",  # splash the pot
    "fulltilt-stars": FPDB / "cash/Stars/Flop/NLHE-6max-play-5-10-201605.FullTilt.txt",
}
PARSERS = {p.name: p for p in all_parsers()}


def _lines(path: Path) -> list[str]:
    """The file's lines as ingest reads them (decoded, numbered from 1)."""
    info = open_source(path)
    return [t for _, _, t in iter_lines(path, info.encoding)]


def _read(site: str, lines: list[str], path: str = "x.txt") -> list[ParsedHand | HandError]:
    return list(PARSERS[site].iter_hands(((i, 0, t) for i, t in enumerate(lines, 1)), path))


def _garbled(text: str, at: int) -> str:
    """``text`` with an 'x' after the digit at ``at``: '1500' -> '1x500', no amount."""
    assert text[at].isdigit(), (text, at)
    return text[: at + 1] + "x" + text[at + 1 :]


def _cases(site: str, lines: list[str]) -> dict[str, tuple[int, str]]:
    """The first whole hand with a bet, call or raise and a 'Total pot' line: its first seat
    line, first bet, call or raise and 'Total pot' line, each with an amount garbled
    ({what: (line number, garbled text)})."""
    hand, action, pot = next((h, a, p) for h in _read(site, lines) if isinstance(h, ParsedHand) and h.record_cut is None
                             for a in h.events if a.kind in ("bet", "raise", "call") and a.amount
                             # (Bovada's is on its summary marker where the summary holds no 'Total Pot' line)
                             for p in h.events if p.kind == "total_pot" and re.search(r"\d", p.text))
    seat = hand.seats[0]
    text = lines[seat.line_no - 1]
    stack = re.compile(r"\d").search(text, text.index(seat.player) + len(seat.player))  # the stack, after the name
    a_text = lines[action.line_no - 1]
    last = list(re.finditer(r"\d+", a_text))[-1]  # the amount it ends with: a call's, a raise's total
    p_text = lines[pot.line_no - 1]
    return {
        "seat": (seat.line_no, _garbled(text, stack.start())),
        "action": (action.line_no, _garbled(a_text, last.start())),
        "summary": (pot.line_no, _garbled(p_text, re.search(r"\d", p_text).start())),
    }


def _assert_named_at_its_line(site: str, lines: list[str]) -> None:
    for what, (no, text) in _cases(site, lines).items():
        bad = list(lines)
        bad[no - 1] = text
        errors = [x for x in _read(site, bad) if isinstance(x, HandError)]
        assert [(e.line_no, e.reason_code) for e in errors] == [(no, "parse-error")], (site, what, no, text, errors)
        assert f"line {no}: " in errors[0].reason, errors[0].reason


@pytest.mark.parametrize("site", sorted(SAMPLE_FILES))
def test_a_bad_amount_is_rejected_at_its_line_sample(site):
    _assert_named_at_its_line(site, _lines(SAMPLE_FILES[site]))


@needs_corpus
@pytest.mark.parametrize("site", sorted(CORPUS_FILES))
def test_a_bad_amount_is_rejected_at_its_line_corpus(site):
    _assert_named_at_its_line(site, _lines(CORPUS_FILES[site]))


def test_ingest_names_the_seat_line_of_a_bad_stack(tmp_path):
    """The review's case: line 102 of the 9-max sample, a seat line, garbled; ingest's
    rejection names line 102 (it named line 100, the hand's header)."""
    from auditor.ingest import ingest

    lines = SAMPLE_FILES["pokerstars"].read_text(encoding="utf-8").split("\n")
    assert lines[101] == "Seat 1: Old Man River (1500 in chips)" and lines[99].startswith("PokerStars Hand #")
    lines[101] = "Seat 1: Old Man River (15x0 in chips)"
    f = tmp_path / "g_seat.txt"
    f.write_text("\n".join(lines), encoding="utf-8")
    s = ingest([f], db=str(tmp_path / "s.duckdb"))
    assert (s.hands_seen, s.stored, s.rejected) == (15, 14, 1)
    [e] = s.errors
    assert (e["line"], e["reason_code"]) == (102, "parse-error") and "line 102: not an amount: '15x0'" in e["reason"], e


# --- lines after a whole hand that are no hand's -------------------------------------


def _junk(seed: int) -> bytes:
    """2,000 random bytes (seeded), as `head -c 2000 /dev/urandom` appends."""
    import random

    return random.Random(seed).randbytes(2000)


def _read_bytes(site: str, data: bytes, path: str = "x.txt") -> list[ParsedHand | HandError]:
    from parsers import bytes_lines, sniff_encoding

    return list(PARSERS[site].iter_hands(bytes_lines(data, sniff_encoding(data[:65536])), path))


def _first_unread_line(clean: bytes, junk: bytes) -> int:
    """The first line of ``clean + junk`` after ``clean``'s that is not blank."""
    lines = (clean + junk).split(b"\n")
    k = clean.count(b"\n")
    while not lines[k].strip(b"\r\n\t "):
        k += 1
    return k + 1


# site, sample, bytes between the last hand's last line and the junk ("": the next line)
JUNK_CASES = [
    ("pokerstars", "pokerstars/nlhe-mtt-9max-table.txt", None),  # the review's case: the file as it is, then junk
    ("pokerstars", "pokerstars/nlhe-cash-usd-6max.txt", b""),  # no blank line: the summary lists every seat
    ("ggpoker", "ggpoker/nlhe-mtt-and-plo-cash.txt", None),  # (it ends with its last line's line break)
    ("ggpoker", "ggpoker/nlhe-mtt-and-plo-cash.txt", b"\n\n"),
    ("winamax", "winamax/nlhe-mtt-violation.txt", b"\n"),  # a blank line (its summary lists some seats only)
    ("wpn", "wpn/nlhe-mtt-underraise.txt", b""),
    ("fulltilt", "fulltilt/nlhe-cash-underraise.txt", b""),
    ("bovada", "bovada/nlhe-mtt-underraise.txt", b"\n"),
]


@pytest.mark.parametrize("site, sample, gap", JUNK_CASES)
def test_random_junk_after_a_whole_hand_is_unread_lines_not_a_hand(site, sample, gap):
    """Random bytes (seeded) after a file's last hand, whole: every hand is stored as from the
    file alone (same content hash), and the junk is one ``unread-lines`` error, no hand, at
    the junk's first line."""
    data = (SAMPLES / sample).read_bytes()
    clean = data if gap is None else data.rstrip(b"\r\n") + b"\n" + gap
    hands = [x for x in _read_bytes(site, data) if isinstance(x, ParsedHand)]
    assert hands and len(hands) == len(_read_bytes(site, data))
    for seed in range(8):
        junk = _junk(seed)
        got = _read_bytes(site, clean + junk)
        errors = [x for x in got if isinstance(x, HandError)]
        assert [(h.hand_id, h.content_hash, h.last_line) for h in got if isinstance(h, ParsedHand)] == \
            [(h.hand_id, h.content_hash, h.last_line) for h in hands], seed
        assert [(e.line_no, e.reason_code, e.hand_id) for e in errors] == \
            [(_first_unread_line(clean, junk), "unread-lines", None)], (seed, errors)
        assert f"after hand {hands[-1].hand_id} " in errors[0].reason
        assert got[-1] is errors[0]  # after the hand it follows


@pytest.mark.parametrize("site, sample", [("winamax", "winamax/nlhe-mtt-violation.txt"),
                                          ("bovada", "bovada/nlhe-mtt-underraise.txt")])
def test_junk_right_after_a_summary_that_lists_some_seats_still_rejects_the_hand(site, sample):
    """A summary that lists only some seats (Winamax), or a reader that does not say
    (Bovada's), cannot show the hand whole before the junk: with no blank line between,
    the junk's first line may be the hand's own, garbled, and the hand is rejected there."""
    clean = (SAMPLES / sample).read_bytes().rstrip(b"\r\n") + b"\n"
    junk = _junk(1)
    got = _read_bytes(site, clean + junk)
    assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == \
        [(_first_unread_line(clean, junk), "parse-error")]


def _pokerstars_lines() -> list[str]:
    return SAMPLES.joinpath("pokerstars/nlhe-mtt-9max-table.txt").read_text(encoding="utf-8-sig").split("\n")


def test_a_hand_cut_or_garbled_before_its_end_is_rejected_as_before_whatever_follows():
    """The junk is unread only after a whole hand: the last hand cut after an action line, then
    junk, is rejected at the junk's first line; a NUL in an action line or in the summary's
    last seat line rejects the hand at that line (the lines before it are no whole hand)."""
    lines = _pokerstars_lines()
    last = max(i for i, t in enumerate(lines) if t.startswith("PokerStars Hand #"))  # the last hand, line last + 1
    action = next(i for i in range(last, len(lines)) if lines[i].startswith("Hero: raises"))
    seat_line = max(i for i, t in enumerate(lines) if t.startswith("Seat "))
    junk = _junk(3)
    cut = ("\n".join(lines[: action + 1]) + "\n\n").encode("utf-8")
    got = _read_bytes("pokerstars", cut + junk)
    assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == \
        [(_first_unread_line(cut, junk), "parse-error")]
    assert sum(isinstance(h, ParsedHand) for h in got) == 14
    for at in (action, seat_line):
        bad = list(lines)
        bad[at] = bad[at][:6] + "\x00" + bad[at][7:]
        for tail in (b"", b"\n\n" + junk):
            got = _read_bytes("pokerstars", "\n".join(bad).encode("utf-8") + tail)
            assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == [(at + 1, "parse-error")], at
            assert sum(isinstance(h, ParsedHand) for h in got) == 14


@pytest.mark.parametrize("sample", ["pokerstars/nlhe-mtt-9max-table.txt", "ggpoker/nlhe-mtt-and-plo-cash.txt"])
def test_ingest_stores_the_hand_before_junk_and_counts_the_junk_as_no_hand(tmp_path, sample):
    """The review's case through ingest (``cat file; head -c 2000 /dev/urandom``): every hand
    stored, none rejected, the junk an ingest_errors row (file, line, 'unread-lines', no hand)
    that is not a hand seen: hands seen = stored + duplicates + rejected.  Ingested again:
    every hand a duplicate, no new row."""
    import duckdb

    from auditor.ingest import ingest

    data = (SAMPLES / sample).read_bytes()
    n = sum(isinstance(x, ParsedHand) for x in _read_bytes(sample.split("/")[0], data))
    junk = _junk(7)
    f = tmp_path / "tailjunk.txt"
    f.write_bytes(data + junk)
    db = str(tmp_path / "s.duckdb")
    s = ingest([f], db=db)
    assert (s.hands_seen, s.stored, s.duplicates, s.rejected) == (n, n, 0, 0)
    [e] = s.errors
    line = _first_unread_line(data, junk)
    assert (e["file"], e["line"], e["reason_code"], e["hand"]) == (str(f), line, "unread-lines", None), e
    s2 = ingest([f], db=db)
    assert (s2.hands_seen, s2.stored, s2.duplicates, s2.rejected) == (n, 0, n, 0)
    with duckdb.connect(db, read_only=True) as con:
        assert con.execute("SELECT source_path, line_no, hand_id, reason_code FROM ingest_errors").fetchall() == \
            [(str(f), line, None, "unread-lines")]
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (n,)
