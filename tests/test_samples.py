"""The hand-written sample histories: every hand ingests, and every PokerStars
hand's own arithmetic adds up (Total pot = chips put in - uncalled bets;
collected + rake = Total pot), except hands the README lists as deliberately off.

The deliberate rule violations in ``sample_histories/`` keep the site's
arithmetic consistent on purpose, so only the dealer-error check they
demonstrate should fire; see sample_histories/README.md.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from auditor.ingest import ingest

SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
# a Stars-shaped hand header (PokerStars, GGPoker): the hand number
PS_HEADER = re.compile(r"^(?:\ufeff)?(?:PokerStars (?:Hand|Game)|Poker Hand) #([A-Z]*\d+):")
# every Stars-family sample format's hand header and its number (the colon-less formats,
# WPN's, Full Tilt's and Bovada's, are counted here; their arithmetic is re-added from the parsed
# events below); Winamax names the hand late in the line
HAND_HEADER = re.compile(r"^(?:\ufeff)?(?:(?:PokerStars (?:Hand|Game)|Poker Hand|Full Tilt Poker Game|Game Hand|Bovada Hand) #([A-Z]*\d+)[: ]"
                         r"|Winamax Poker - .*? - HandId: #(\d+-\d+-\d+) - )")
# blinds and bring-ins are posted before these headers and count toward the first street
FIRST_STREET = ("*** HOLE CARDS", "*** 3rd STREET", "*** DEALING HANDS")
AMT = r"[$€£]?([\d,]+(?:\.\d+)?)"


def _files(ext: str) -> list[Path]:
    return sorted(p for p in SAMPLES.rglob(f"*.{ext}") if not any(part.startswith(".") for part in p.parts))


def _deliberately_off() -> set[str]:
    """Hand numbers whose README row says the site's arithmetic is deliberately off."""
    text = (SAMPLES / "README.md").read_text(encoding="utf-8")
    return {m for line in text.splitlines() if "arithmetic off" in line for m in re.findall(r"\b(9\d{11})\b", line)}


def _amt(s: str) -> Decimal:
    return Decimal(s.replace(",", ""))


def _ps_hands(path: Path) -> list[tuple[str, list[str]]]:
    hands: list[tuple[str, list[str]]] = []
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        m = PS_HEADER.match(line)
        if m:
            hands.append((m.group(1), []))
        if hands:
            hands[-1][1].append(line.rstrip())
    return hands


def _family_hands(path: Path) -> list[str]:
    """Hand numbers of a PartyPoker or 888poker sample, from its markers."""
    return re.findall(r"^\*{5} (?:\S+ )?Hand History for Game (\d+) \*{5}", path.read_text(encoding="utf-8"), re.M)


def _hands_of(path: Path) -> int:
    return len(_family_hands(path)) if path.parent.name in FAMILY_DIRS else _stars_family_hands(path)


def _hand_numbers(path: Path) -> list[str]:
    return _family_hands(path) if path.parent.name in FAMILY_DIRS else _hand_ids(path)


FAMILY_DIRS = ("partypoker", "pacific")


def _stars_family_hands(path: Path) -> int:
    """Hand headers of any PokerStars-family site (PokerStars, Winamax, ...) in a text file."""
    from parsers import all_parsers
    from parsers.stars_family import StarsFamilyParser

    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    return sum(len(p.hand_start.findall(data)) for p in all_parsers() if isinstance(p, StarsFamilyParser))


def _arithmetic(lines: list[str]) -> tuple[Decimal, Decimal, Decimal, Decimal]:
    """(chips put in - uncalled, Total pot, collected, rake) as written in the hand."""
    put_in = Decimal(0)
    street: dict[str, Decimal] = {}
    total = rake = collected = None
    collected = Decimal(0)
    in_summary = False
    for ln in lines:
        if ln.startswith("*** SUMMARY"):
            in_summary = True
        if in_summary:
            m = re.match(rf"Total pot {AMT}.*\| Rake {AMT}", ln)
            if m:
                # the house's take: the rake and the fees beside it (GGPoker's jackpot)
                total, rake = _amt(m.group(1)), _amt(m.group(2))
                rake += sum((_amt(f) for f in re.findall(rf"\| (?:Jackpot|Bingo) {AMT}", ln)), Decimal(0))
            continue
        if ln.startswith("*** ") and not ln.startswith(FIRST_STREET):
            street = {}
            continue
        m = re.match(rf"(.+?) collected {AMT} from ", ln)
        if m:
            collected += _amt(m.group(2))
            continue
        m = re.match(rf"Uncalled bet \({AMT}\) returned to ", ln)
        if m:
            put_in -= _amt(m.group(1))
            continue
        m = re.match(rf"(.+?): posts the ante {AMT}", ln)
        if m:
            put_in += _amt(m.group(2))
            continue
        m = re.match(rf"(.+?): (?:posts (?:small|big) blind|posts small & big blinds|brings in for|calls|bets) {AMT}", ln)
        if m:
            name, a = m.group(1), _amt(m.group(2))
            street[name] = street.get(name, Decimal(0)) + a
            put_in += a
            continue
        m = re.match(rf"(.+?): raises {AMT} to {AMT}", ln)
        if m:
            name, to = m.group(1), _amt(m.group(3))
            put_in += to - street.get(name, Decimal(0))
            street[name] = to
    assert total is not None, lines[0]
    return put_in, total, collected, rake


def test_every_sample_hand_is_stored(tmp_path):
    db = str(tmp_path / "samples.duckdb")
    s = ingest([str(SAMPLES)], db=db)
    assert s.rejected == 0, s.errors
    assert s.stored == s.hands_seen
    # only the README is not a history
    assert all(r.path.endswith(".md") for r in s.file_results if r.error)

    con = duckdb.connect(db, read_only=True)
    try:
        per_file = Counter(
            {
                Path(p).name: n
                for p, n in con.execute(
                    "SELECT s.path, count(*) FROM hands h JOIN sources s USING (source_id) GROUP BY s.path"
                ).fetchall()
            }
        )
    finally:
        con.close()
    expected = Counter({p.name: _hands_of(p) for p in _files("txt")})
    expected.update({p.name: 1 for p in _files("phh")})
    expected.update({p.name: p.read_text(encoding="utf-8").count("<game gamecode=") for p in _files("xml")})
    assert per_file == expected

    again = ingest([str(SAMPLES)], db=db)
    assert again.stored == 0 and again.rejected == 0 and again.duplicates == again.hands_seen


def _hand_ids(path: Path) -> list[str]:
    """The hand numbers of a Stars-family sample, from their headers."""
    return [m.group(1) or m.group(2) for line in path.read_text(encoding="utf-8-sig").splitlines()
            if (m := HAND_HEADER.match(line))]


def test_hand_numbers_are_unique():
    ids = [hid for p in _files("txt") for hid in _hand_numbers(p)]
    assert len(ids) == len(set(ids))
    # the headers' numbers and the parsers' hand starts count the same hands in every file
    assert all(_hands_of(p) == len(_hand_numbers(p)) > 0 for p in _files("txt"))


@pytest.mark.parametrize("path", [p for p in _files("txt") if p.parent.name in FAMILY_DIRS], ids=lambda p: p.name)
def test_party_and_888_samples_re_add(path):
    """These formats write no total pot: every chip put in is returned or won (tournaments, and
    cash hands with no rake written)."""
    from parsers import detect_parser, iter_lines, open_source

    info = open_source(path)
    hands = list(detect_parser(info.head, str(path)).iter_hands(iter_lines(path, info.encoding), str(path)))
    assert len(hands) == len(_family_hands(path))
    for h in hands:
        put = sum(e.amount for e in h.events if e.kind in ("ante", "small_blind", "big_blind", "call", "bet"))
        committed: dict[tuple[str, int], int] = {}
        for e in h.events:
            if e.kind in ("small_blind", "big_blind", "call", "bet"):
                committed[e.street, e.seat] = committed.get((e.street, e.seat), 0) + e.amount
            elif e.kind == "raise":
                put += e.to_amount - committed.get((e.street, e.seat), 0)
                committed[e.street, e.seat] = e.to_amount
        out = sum(e.amount for e in h.events if e.kind in ("uncalled_return", "collect"))
        assert put == out, h.hand_id


# the sample formats whose arithmetic is re-added from their parsed events (no '<name>: <action>'
# lines, or Winamax's, which writes no return line): test_colon_less_samples_add_up
PARSED_ARITHMETIC = ("wpn", "fulltilt", "bovada", "winamax")


@pytest.mark.parametrize("path", [p for p in _files("txt") if p.parent.name not in (*FAMILY_DIRS, *PARSED_ARITHMETIC)],
                         ids=lambda p: p.name)
def test_site_arithmetic_adds_up(path):
    off = _deliberately_off()
    hands = _ps_hands(path)
    # every hand of the file is read here (a header this reading does not know would leave it none)
    assert hands and len(hands) == _hands_of(path), (path, len(hands), _hands_of(path))
    for hid, lines in hands:
        if hid in off:
            continue
        put_in, total, collected, rake = _arithmetic(lines)
        assert put_in == total, f"hand {hid}: chips put in less uncalled {put_in} != Total pot {total}"
        assert collected + rake == total, f"hand {hid}: collected {collected} + rake {rake} != Total pot {total}"


def test_tournament_table_stacks_carry_over():
    """In the one-table tournament file each hand starts with the stacks the previous one ended with."""
    path = SAMPLES / "pokerstars" / "nlhe-mtt-9max-table.txt"
    prev_end: dict[str, Decimal] | None = None
    for hid, lines in _ps_hands(path):
        start = {m.group(1): _amt(m.group(2)) for ln in lines if (m := re.match(rf"Seat \d+: (.+?) \({AMT} in chips\)", ln))}
        if prev_end is not None:
            assert start == {n: v for n, v in prev_end.items() if v > 0}, hid
        end = dict(start)
        street: dict[str, Decimal] = {}
        for ln in lines:
            if ln.startswith("*** SUMMARY"):
                break
            if ln.startswith("*** ") and not ln.startswith(FIRST_STREET):
                street = {}
            if m := re.match(rf"(.+?): posts the ante {AMT}", ln):
                end[m.group(1)] -= _amt(m.group(2))
            elif m := re.match(rf"(.+?): (?:posts (?:small|big) blind|calls|bets) {AMT}", ln):
                end[m.group(1)] -= _amt(m.group(2))
                street[m.group(1)] = street.get(m.group(1), Decimal(0)) + _amt(m.group(2))
            elif m := re.match(rf"(.+?): raises {AMT} to {AMT}", ln):
                to = _amt(m.group(3))
                end[m.group(1)] -= to - street.get(m.group(1), Decimal(0))
                street[m.group(1)] = to
            elif m := re.match(rf"Uncalled bet \({AMT}\) returned to (.+)$", ln):
                end[m.group(2)] += _amt(m.group(1))
            elif m := re.match(rf"(.+?) collected {AMT} from ", ln):
                end[m.group(1)] += _amt(m.group(2))
        prev_end = end


@pytest.mark.parametrize("folder", PARSED_ARITHMETIC)
def test_colon_less_samples_add_up(folder):
    """WPN's, Full Tilt's, Bovada's and Winamax's samples (no '<name>: <action>' lines; Winamax writes no
    return line): their parsed events re-add (chips put in less returns = total pot = collects + rake), as
    the per-site corpus tests judge them."""
    from site_corpus import rearithmetic

    from parsers import detect_parser, iter_lines, open_source
    from parsers.base import ParsedHand

    off = _deliberately_off()
    files = 0
    for path in _files("txt"):
        if path.parent.name != folder:
            continue
        info = open_source(path)
        hands = list(detect_parser(info.head, str(path)).iter_hands(iter_lines(path, info.encoding), str(path)))
        assert hands and all(isinstance(h, ParsedHand) for h in hands), hands
        assert len(hands) == _hands_of(path), path
        for h in hands:
            # a pot someone collects (rearithmetic re-adds what the events say; a hand with no collect
            # and a house take of the whole pot would re-add too)
            assert any(e.kind == "collect" and e.amount for e in h.events), h.hand_id
            assert h.hand_number in off or rearithmetic(h) is None, (h.hand_id, rearithmetic(h))
        files += 1
    assert files, f"no sample in {folder}/"
