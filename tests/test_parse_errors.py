"""Where the Stars family's reader (``parsers/stars_family.py``) says a hand cannot be read,
and what it keeps of a file that holds more than hands.

- A bad amount is rejected at the line that holds it: a seat line's stack, an action's amount
  and the summary's 'Total pot', garbled in a real hand of every site the shared reader reads
  (PokerStars, GGPoker, Winamax, WPN, Bovada and classic Full Tilt from ``sample_histories``;
  the same sites, Run It Once and Full Tilt 2016 from the external corpus).  A seat line's was
  once named at the hand's first line.
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
