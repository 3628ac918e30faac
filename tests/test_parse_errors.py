"""Where the Stars family's reader (``parsers/stars_family.py``) and the Party family's
(``parsers/party_family.py``: PartyPoker, 888poker) say a hand cannot be read, and what they
keep of a file that holds more than hands.

- A bad amount is rejected at the line that holds it: a seat line's stack, an action's amount
  and the summary's 'Total pot', garbled in a real hand of every site the shared reader reads
  (PokerStars, GGPoker, Winamax, WPN, Bovada and classic Full Tilt from ``sample_histories``;
  the same sites, Run It Once and Full Tilt 2016 from the external corpus).  A seat line's was
  once named at the hand's first line.  PartyPoker's and 888's seat stacks, action amounts
  and win lines (their summary: no 'Total pot' line but Party's 'Main Pot:') named the hand's
  marker line, all three.
- Binary junk after a whole hand (``cat file; head -c 2000 /dev/urandom``) is one
  ``unread-lines`` error, no hand: the hand is stored, and ingest counts the junk neither as a
  hand seen nor as rejected.  A hand cut or garbled before its end is rejected as before.
  A Party-family hand is whole before the junk after a blank line (its hands hold none after
  the marker) or when its pot is awarded to the chip (a tournament's, or one with a written
  total): its files end with the last win line, no blank line.
- Text after a whole hand and a blank line (a mail's footer after an exported history) is
  likewise one ``unread-lines`` error, no hand, not the last hand's lines not understood.
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
    ("bovada", "bovada/nlhe-mtt-underraise.txt", b""),  # its summary lists every seat (as its files end: no blank line)
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


# a mail's footer, as an exported history sent by mail ends (our words, in that shape)
FOOTER = (b"You are getting this email because it holds information about your account.\n\n"
          b"Please do not reply to this message: this address receives no mail.\n\n"
          b"Copyright (c) 2001-2026. All rights reserved.\n")
TEXT_CASES = [
    ("pokerstars", "pokerstars/nlhe-mtt-9max-table.txt"),
    ("pokerstars", "pokerstars/nlhe-cash-usd-6max.txt"),
    ("ggpoker", "ggpoker/nlhe-mtt-and-plo-cash.txt"),
    ("winamax", "winamax/nlhe-mtt-violation.txt"),  # (its summary lists some seats only: the blank line tells)
    ("wpn", "wpn/nlhe-mtt-underraise.txt"),
    ("bovada", "bovada/nlhe-mtt-underraise.txt"),  # (its summary reader cannot read the text: the error path)
    ("partypoker", "partypoker/nlhe-sng-underraise.txt"),
    ("pacific", "pacific/nlhe-mtt-wrong-winner.txt"),
]


def _hand_at(got: list, hand: ParsedHand, line: int) -> bool:
    """Whether the last of ``got`` is ``hand`` holding line ``line`` as a line not understood, or
    ``hand`` rejected at that line."""
    last = got[-1]
    if isinstance(last, HandError):
        return (last.hand_id, last.line_no, last.reason_code) == (hand.hand_id, line, "parse-error")
    return last.hand_id == hand.hand_id and line in [e.line_no for e in last.events if e.kind == "unread"]


@pytest.mark.parametrize("site, sample", TEXT_CASES)
def test_text_after_a_whole_hand_and_a_blank_line_is_unread_lines_not_the_hand_s(site, sample):
    """A mail's footer after a file's last hand and blank lines: the hand is stored as from the
    file alone (same content hash, no line it did not understand), and the footer is one
    ``unread-lines`` error, no hand, at its first line.  Glued to the hand's last line (no blank
    line), the same text stays the hand's: a line not understood, or where it cannot be read."""
    data = (SAMPLES / sample).read_bytes()
    clean = data.rstrip(b"\r\n") + b"\n\n\n\n"
    hands = [x for x in _read_bytes(site, data) if isinstance(x, ParsedHand)]
    assert hands and len(hands) == len(_read_bytes(site, data))
    got = _read_bytes(site, clean + FOOTER)
    errors = [x for x in got if isinstance(x, HandError)]
    assert [(h.hand_id, h.content_hash, h.last_line) for h in got if isinstance(h, ParsedHand)] == \
        [(h.hand_id, h.content_hash, h.last_line) for h in hands]
    assert not any(e.kind == "unread" for h in got if isinstance(h, ParsedHand) for e in h.events)
    assert [(e.line_no, e.reason_code, e.hand_id) for e in errors] == [(_first_unread_line(clean, FOOTER), "unread-lines", None)]
    assert f"after hand {hands[-1].hand_id} " in errors[0].reason and "after a blank line" in errors[0].reason
    glued = data.rstrip(b"\r\n") + b"\n"
    assert _hand_at(_read_bytes(site, glued + FOOTER), hands[-1], _first_unread_line(glued, FOOTER))


def test_text_after_a_blank_line_where_hands_hold_blank_lines_stays_the_hand_s():
    """Full Tilt's hands hold blank lines (its UTF-16 exports write one after every line): there
    a blank line does not end a hand, and a footer after one stays the last hand's lines not
    understood."""
    data = (SAMPLES / "fulltilt/nlhe-cash-underraise.txt").read_bytes()
    clean = data.rstrip(b"\r\n") + b"\n\n\n\n"
    [*_, last] = [x for x in _read_bytes("fulltilt", data) if isinstance(x, ParsedHand)]
    got = _read_bytes("fulltilt", clean + FOOTER)
    assert not [e for e in got if isinstance(e, HandError)]
    assert _hand_at(got, last, _first_unread_line(clean, FOOTER))


def test_text_after_a_blank_line_in_a_hand_not_yet_whole_stays_the_hand_s():
    """A blank line, then text, inside a hand before its summary: no footer, the hand's own lines
    (its reading is as without the blank line's split: the text is a line it did not understand,
    or the hand is rejected, as before)."""
    lines = _pokerstars_lines()
    last = max(i for i, t in enumerate(lines) if t.startswith("PokerStars Hand #"))
    flop = next(i for i in range(last, len(lines)) if lines[i].startswith("*** FLOP ***"))
    before = "\n".join(lines[:flop]) + "\n\nSent by mail.\n" + "\n".join(lines[flop:])
    got = _read_bytes("pokerstars", before.encode("utf-8"))
    assert not [e for e in got if isinstance(e, HandError) and e.reason_code == "unread-lines"]


@pytest.mark.parametrize("site, sample", [("winamax", "winamax/nlhe-mtt-violation.txt")])
def test_junk_right_after_a_summary_that_lists_some_seats_still_rejects_the_hand(site, sample):
    """A summary that lists only some seats (Winamax) cannot show the hand whole before the
    junk: with no blank line between, the junk's first line may be the hand's own, garbled,
    and the hand is rejected there.  (Bovada's summary lists every seat: its reader says
    which, ``listed``; see test_bovada_corpus_junk_right_after_the_last_summary.)"""
    clean = (SAMPLES / sample).read_bytes().rstrip(b"\r\n") + b"\n"
    junk = _junk(1)
    got = _read_bytes(site, clean + junk)
    assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == \
        [(_first_unread_line(clean, junk), "parse-error")]


@needs_corpus
def test_bovada_corpus_junk_right_after_the_last_summary():
    """Junk right after each Bovada corpus file's last hand (whole), as the files end (no blank
    line: 0 of 42 ends with one): the hand is stored and the junk is unread lines where its
    summary lists every seat of the hand (Bovada's reader reads the seats listed off its
    summary's seat-result events: it once said nothing, and every such hand was rejected);
    where it lists fewer (a seat re-joining, sitting out), the junk's first line may be a
    seat's summary line, garbled, and the hand is rejected there, as before."""
    kept = rejected = 0
    for path in sorted((FPDB).glob("*/Bovada/*/*.txt")):
        data = path.read_bytes()
        clean = _read_bytes("bovada", data)
        last = clean[-1]
        if not isinstance(last, ParsedHand) or last.record_cut is not None:
            continue
        junk = _junk(5)
        got = _read_bytes("bovada", data + junk)
        listed = {e.seat for e in last.events if e.kind == "seat_result"}
        line = _first_unread_line(data, junk)
        if all(s.seat in listed for s in last.seats):
            kept += 1
            assert got[:-1] == clean and (got[-1].line_no, got[-1].reason_code) == (line, "unread-lines"), path.name
        else:
            rejected += 1
            assert got[:-1] == clean[:-1] and (got[-1].line_no, got[-1].reason_code) == (line, "parse-error"), path.name
    assert (kept, rejected) == (45, 5)  # (the corpus's December 2026 Bovada files: 10 more kept)


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


@pytest.mark.parametrize("sample", ["pokerstars/nlhe-mtt-9max-table.txt", "ggpoker/nlhe-mtt-and-plo-cash.txt",
                                    "partypoker/nlhe-sng-underraise.txt", "pacific/nlhe-mtt-wrong-winner.txt",
                                    "ipoker/nlhe-cash-eur-violations.xml"])
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


# --- the Party family: PartyPoker and 888poker (parsers/party_family.py) -------------------

PARTY_SAMPLES = {
    "partypoker": SAMPLES / "partypoker/nlhe-sng-underraise.txt",
    "pacific": SAMPLES / "pacific/nlhe-mtt-wrong-winner.txt",
}
PARTY_CORPUS = [
    ("partypoker", FPDB / "tour/PartyPoker/Flop/NLHE-USD-STT-10-201104.new.hand.delimiter.txt"),  # 'wins N chips'
    ("partypoker", FPDB / "tour/PartyPoker/Flop/NLHE-MTT-USD-4.8-0.2-202104.anon.txt"),  # 'raises A to B', a summary
    ("partypoker", FPDB / "cash/PartyPoker/Flop/NLHE-EUR-0.05-0.10-201011.Sample.txt"),  # '€0,35 EUR'
    ("partypoker", FPDB / "cash/PartyPoker/Flop/PLO-6max-USD-0.10-0.25-202607.multi.hand.split.txt"),  # 'Main Pot: X | Rake: Y'
    ("pacific", FPDB / "tour/PacificPoker/Flop/NLHE-USD-HUSNG-0.25-201201.Sample.txt"),
    ("pacific", FPDB / "cash/PacificPoker/Flop/NLHE-6max-USD-0.12-0.25-202206.ca-on.txt"),
]


def _digit_after(text: str, name: str | None) -> int:
    """Where the first digit after ``name`` (a player's: 'Player4' holds one) is in ``text``."""
    start = text.index(name) + len(name) if name else 0
    found = re.compile(r"\d").search(text, start)
    assert found is not None, (text, name)
    return found.start()


def _party_cases(site: str, lines: list[str]) -> dict[str, tuple[int, str]]:
    """As ``_cases`` for the Party family, whose summary writes no 'Total pot' line: the
    first whole hand's first seat line, first bet, call or raise, and first win line
    ('wins', 'collected', a summary's balance), and Party's written 'Main Pot:' line in
    the first hand that has one, each with an amount garbled."""
    hands = [h for h in _read(site, lines) if isinstance(h, ParsedHand) and h.record_cut is None]
    hand, action, won = next((h, a, w) for h in hands
                             for a in h.events if a.kind in ("bet", "raise", "call") and a.amount and a.inferred_from is None
                             for w in h.events if w.kind == "collect" and w.amount)
    seat = hand.seats[0]
    text, a_text, w_text = lines[seat.line_no - 1], lines[action.line_no - 1], lines[won.line_no - 1]
    last = list(re.finditer(r"\d+", a_text))[-1]  # the amount it ends with: a call's, a raise's total
    cases = {
        "seat": (seat.line_no, _garbled(text, _digit_after(text, seat.player))),
        "action": (action.line_no, _garbled(a_text, last.start())),
        # (a summary's balance line: its 'collected' amount, the one it is read for)
        "summary": (won.line_no, _garbled(w_text, _digit_after(w_text, " collected" if " collected " in w_text else won.player))),
    }
    pot = next((e for h in hands for e in h.events if e.kind == "total_pot" and e.inferred_from is None), None)
    if pot is not None:
        p_text = lines[pot.line_no - 1]
        cases["pot"] = (pot.line_no, _garbled(p_text, _digit_after(p_text, None)))
    return cases


def _assert_party_named_at_its_line(site: str, lines: list[str]) -> int:
    """A garbled seat line rejects its hand at that line (without its seats nothing can be
    judged); a garbled action, win or 'Main Pot:' line inside the hand is kept as an unread
    event at that line (issue 33), and the hand, whose chips then do not reconcile, is one the
    ingest refuses 'unreconciled' naming that line (auditor/units.py)."""
    from parsers.base import has_unread, unreconciled

    cases = _party_cases(site, lines)
    for what, (no, text) in cases.items():
        bad = list(lines)
        bad[no - 1] = text
        got = _read(site, bad)
        errors = [x for x in got if isinstance(x, HandError)]
        if what == "seat":
            assert [(e.line_no, e.reason_code) for e in errors] == [(no, "parse-error")], (site, what, no, text, errors)
            assert f"line {no}: not an amount" in errors[0].reason, errors[0].reason
            continue
        if errors:  # a cash hand with no written total pot: its rake unknown, nothing reconciles (refused at once)
            assert [(e.line_no, e.reason_code) for e in errors] == [(no, "unreconciled")], (site, what, no, text, errors)
            continue
        unread = [(h, e) for h in got for e in h.events if e.kind == "unread"]
        assert [(e.line_no, e.text) for _, e in unread] == [(no, text)], (site, what, no, text)
        hand = unread[0][0]
        assert has_unread(hand)
        if what == "pot" and hand.is_tournament:
            # a tournament's total pot line lost: its chips still add up (all put in is won), so it is stored
            assert unreconciled(hand) is None
        else:
            assert unreconciled(hand) is not None, (site, what, no, text)
    return len(cases)


@pytest.mark.parametrize("site", sorted(PARTY_SAMPLES))
def test_party_family_a_bad_amount_is_rejected_at_its_line_sample(site):
    """The samples' seat (line 9 / 7), action and win lines: each once named line 4 / 2, the marker."""
    lines = _lines(PARTY_SAMPLES[site])
    assert _assert_party_named_at_its_line(site, lines) == 3
    seat = _party_cases(site, lines)["seat"][0]
    assert (site, seat) in (("partypoker", 9), ("pacific", 7))


@needs_corpus
@pytest.mark.parametrize("site, path", PARTY_CORPUS, ids=[p.name for _, p in PARTY_CORPUS])
def test_party_family_a_bad_amount_is_rejected_at_its_line_corpus(site, path):
    n = _assert_party_named_at_its_line(site, _lines(path))
    assert n == (4 if "Main Pot" in path.read_text(encoding="utf-8", errors="replace") else 3)


# site, sample, bytes between the last hand's last line and the junk (None: the file as it is)
PARTY_JUNK_CASES = [
    ("partypoker", "partypoker/nlhe-sng-underraise.txt", None),  # ends with its win line: the pot awarded
    ("partypoker", "partypoker/nlhe-sng-underraise.txt", b"\n\n"),
    ("pacific", "pacific/nlhe-mtt-wrong-winner.txt", None),
    ("pacific", "pacific/nlhe-mtt-wrong-winner.txt", b"\n"),
]


@pytest.mark.parametrize("site, sample, gap", PARTY_JUNK_CASES)
def test_party_family_random_junk_after_a_whole_hand_is_unread_lines_not_a_hand(site, sample, gap):
    test_random_junk_after_a_whole_hand_is_unread_lines_not_a_hand(site, sample, gap)


def _party_file(path: Path, gap: bytes | None) -> bytes:
    data = path.read_bytes()
    return data if gap is None else data.rstrip(b"\r\n") + b"\n" + gap


@needs_corpus
@pytest.mark.parametrize("site, path", PARTY_CORPUS, ids=[p.name for _, p in PARTY_CORPUS])
def test_party_family_corpus_junk_after_the_last_hand(site, path):
    """Junk after a corpus file's last hand: after a blank line, the hand is stored and the
    junk is unread lines; right after the hand's last line, so too where its pot is awarded
    to the chip (a tournament's, or a written 'Main Pot:' with its rake), and a cash hand
    whose rake is only inferred from its wins is rejected at the junk's first line (a win
    line may be missing: the junk's first line may be one, garbled)."""
    clean = _read_bytes(site, path.read_bytes())
    hands = [(h.hand_id, h.content_hash) for h in clean if isinstance(h, ParsedHand)]
    assert hands and all(isinstance(h, ParsedHand) for h in clean)
    last = clean[-1]
    awarded = last.is_tournament or any(e.kind == "total_pot" and e.inferred_from is None for e in last.events)
    for gap in (b"\n", b""):
        data = _party_file(path, gap)
        junk = _junk(11)
        got = _read_bytes(site, data + junk)
        errors = [(e.line_no, e.reason_code, e.hand_id) for e in got if isinstance(e, HandError)]
        kept = [(h.hand_id, h.content_hash) for h in got if isinstance(h, ParsedHand)]
        if gap or awarded:
            assert (kept, errors) == (hands, [(_first_unread_line(data, junk), "unread-lines", None)]), gap
        else:
            assert (kept, errors) == (hands[:-1], [(_first_unread_line(data, junk), "parse-error", hands[-1][0])]), gap
    assert any(not (h.is_tournament or any(e.kind == "total_pot" and e.inferred_from is None for e in h.events))
               for h in clean) == ("cash" in path.parts and "Main Pot" not in path.read_text(encoding="utf-8", errors="replace"))


@pytest.mark.parametrize("site", sorted(PARTY_SAMPLES))
def test_party_family_a_hand_cut_or_garbled_before_its_end_is_rejected_as_before(site):
    """The last hand cut after an action line, then a blank line and junk: rejected at the
    junk's first line (read without it, no win line: cut).  A control character in an
    action line or in the last win line rejects the hand at that line, whatever follows
    (NULs the reader drops: a ``\\x01``)."""
    lines = _lines(PARTY_SAMPLES[site])
    n = sum(isinstance(h, ParsedHand) for h in _read(site, lines))
    first = max(i for i, t in enumerate(lines) if "Hand History" in t)  # the last hand's marker
    action = next(i for i in range(first, len(lines)) if " raises [" in lines[i])
    win = max(i for i, t in enumerate(lines) if " wins " in t or " collected " in t)
    junk = _junk(3)
    cut = ("\n".join(lines[: action + 1]) + "\n\n").encode("utf-8")
    got = _read_bytes(site, cut + junk)
    assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == \
        [(_first_unread_line(cut, junk), "parse-error")]
    assert sum(isinstance(h, ParsedHand) for h in got) == n - 1
    for at in (action, win):
        bad = list(lines)
        bad[at] = bad[at][:6] + "\x01" + bad[at][7:]
        for tail in (b"", b"\n\n" + junk):
            got = _read_bytes(site, "\n".join(bad).encode("utf-8") + tail)
            assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == [(at + 1, "parse-error")], (at, tail[:4])
            assert sum(isinstance(h, ParsedHand) for h in got) == n - 1


# --- iPoker (parsers/ipoker.py): its games are read whatever follows; the junk is no hand -----


def test_ipoker_junk_after_the_session_is_unread_lines_and_inside_it_an_xml_error():
    """Junk after the file's '</session>': every game stored as from the file alone, and the
    junk one ``unread-lines`` error, no hand (it was an ``xml-error``, counted by ingest as a
    hand seen and rejected).  Junk where the session is still open (the file cut after its
    last '</game>') stays an ``xml-error``: text inside the document, not after it.  A bad
    amount is named at its line, as it was (a player's chips, an action's sum)."""
    data = (SAMPLES / "ipoker/nlhe-cash-eur-violations.xml").read_bytes()
    hands = [(h.hand_id, h.content_hash) for h in _read_bytes("ipoker", data) if isinstance(h, ParsedHand)]
    assert len(hands) == 2 == len(_read_bytes("ipoker", data))
    cut = data[: data.rindex(b"</session>")]
    for seed in range(8):
        junk = _junk(seed)
        for clean, code in ((data, "unread-lines"), (cut, "xml-error")):
            got = _read_bytes("ipoker", clean + junk)
            assert [(h.hand_id, h.content_hash) for h in got if isinstance(h, ParsedHand)] == hands
            [error] = [e for e in got if isinstance(e, HandError)]
            assert (error.reason_code, error.hand_id) == (code, None), (seed, error)
            # (after the session, any text is an error at once; inside it, text is the session's
            # character data up to the first character XML does not allow)
            assert error.line_no == _first_unread_line(clean, junk) if code == "unread-lines" else \
                error.line_no > clean.count(b"\n"), (seed, error)
    lines = _lines(SAMPLES / "ipoker/nlhe-cash-eur-violations.xml")
    # a seat's stack not understood rejects the game; an action's amount not understood is an
    # unread event on its line (ingest stores the hand only if its chips still reconcile)
    for old, new, unread in (('chips="€8,50"', 'chips="€8x,50"', False), ('sum="€0,30"', 'sum="€0x,30"', True)):
        no = next(i for i, t in enumerate(lines, 1) if old in t)
        bad = list(lines)
        bad[no - 1] = bad[no - 1].replace(old, new)
        got = _read("ipoker", bad)
        assert [(e.line_no, e.reason_code) for e in got if isinstance(e, HandError)] == ([] if unread else [(no, "parse-error")])
        # (and a call the unread raise leaves past the bet after it: the record makes no sense of it either)
        assert [e.line_no for h in got if isinstance(h, ParsedHand) for e in h.events if e.kind == "unread"][:1] == \
            ([no] if unread else [])


@pytest.mark.parametrize("site, sample", [
    ("winamax", "winamax/nlhe-mtt-violation.txt"),  # no header is looked for mid-line: the hand glued is lost
    ("pokerstars", "pokerstars/nlhe-mtt-9max-table.txt"),  # a glued header starts a hand where it is
    ("partypoker", "partypoker/nlhe-sng-underraise.txt"),
])
def test_a_hand_glued_to_junk_is_never_taken_for_junk(site, sample):
    """Junk with no line break before the next hand's header: the lines from the junk on
    hold a whole hand, so they are not 'unread-lines' (no hand): the hand before is read as
    before this rule (rejected, or kept where the reader splits a glued header off)."""
    data = (SAMPLES / sample).read_bytes()
    lines = data.split(b"\n")
    hands = [h for h in _read_bytes(site, data) if isinstance(h, ParsedHand)]
    assert len(hands) >= 2
    second = hands[1].first_line - 1  # its header's index in lines
    glued = b"\n".join(lines[:second]).rstrip(b"\r\n") + b"\n\n" + b"\x00" * 40 + b"\n".join(lines[second:])
    got = _read_bytes(site, glued)
    assert not [e for e in got if isinstance(e, HandError) and e.reason_code == "unread-lines"], got
    assert got and not (isinstance(got[0], HandError) and got[0].reason_code == "unread-lines")
