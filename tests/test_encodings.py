"""Source encodings are told from the bytes (``parsers.sniff_encoding``, ``open_source``,
``read_source``), and every way of reading a file gives the same text.

UTF-8 with or without a BOM, UTF-16 LE or BE with or without one (Full Tilt writes
UTF-16) and cp1252 (the 8-bit encoding of the older exports).  The failures guarded here:
a UTF-8 file whose first non-ASCII character comes after the first 64 KiB, or whose
character straddles two reads; a cp1252 file whose bytes happen to form UTF-8 on some
lines; UTF-16 without a BOM (not starting with ASCII either); junk or another program's
line in a UTF-8 file; a file cut inside a character; and a big file read in chunks (each
chunk must read as the same lines of the whole file).  Synthetic files always run; one real
file per encoding and a sweep of the whole corpus run where ../shared is.
"""

from __future__ import annotations

import codecs
import random
from pathlib import Path

import pytest

from auditor.units import _read_range, scan_file
from parsers import HEAD_BYTES, bytes_lines, detect_parser, iter_lines, open_source, read_source, sniff_encoding
from parsers.base import ParsedHand

from conftest import CORPUS, SAMPLES, needs_corpus

FPDB = CORPUS / "fpdb"

# a PokerStars sample with names every encoding here can write (cp1252 has no dotless i)
TEXT = (SAMPLES / "pokerstars" / "nlhe-cash-usd-6max.txt").read_text(encoding="utf-8-sig").replace("Yılmaz", "Müller")
assert "Ümit Müller" in TEXT and TEXT.count("PokerStars Hand #") == 3

# name, how the text becomes bytes, the encoding sniffed
ENCODINGS = [
    ("utf-8", lambda t: t.encode("utf-8"), "utf-8"),
    ("utf-8 BOM", lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
    ("utf-16-le BOM", lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"), "utf-16"),
    ("utf-16-be BOM", lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"), "utf-16"),
    ("utf-16-le", lambda t: t.encode("utf-16-le"), "utf-16-le"),
    ("utf-16-be", lambda t: t.encode("utf-16-be"), "utf-16-be"),
    ("cp1252", lambda t: t.encode("cp1252"), "cp1252"),
]


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _lines(path: Path) -> list[str]:
    info = open_source(path)
    return [t for _, _, t in iter_lines(path, info.encoding)]


def _hands(path: Path) -> list[ParsedHand]:
    info = open_source(path)
    parser = detect_parser(info.head, str(path))
    assert parser is not None, path
    return [h for h in parser.iter_hands(iter_lines(path, info.encoding), str(path)) if isinstance(h, ParsedHand)]


@pytest.mark.parametrize("name, encode, expected", ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_each_encoding_is_told_and_reads_as_written(tmp_path, name, encode, expected):
    data = encode(TEXT)
    path = _write(tmp_path, "h.txt", data)
    info, whole = read_source(path)
    assert (open_source(path).encoding, info.encoding, sniff_encoding(data)) == (expected,) * 3
    assert whole == data and info.head.startswith("PokerStars Hand #")  # no BOM in the head
    want = TEXT.split("\n")[:-1]  # the text ends with a line ending
    assert _lines(path) == want
    assert [t for _, _, t in bytes_lines(data, info.encoding)] == want
    # the same hands as from the UTF-8 file: names, amounts, content hashes
    ref = _hands(_write(tmp_path, "ref.txt", TEXT.encode("utf-8")))
    got = _hands(path)
    assert [(h.hand_id, h.content_hash, [s.player for s in h.seats]) for h in got] == \
           [(h.hand_id, h.content_hash, [s.player for s in h.seats]) for h in ref]
    assert "Ümit Müller" in [s.player for s in got[0].seats]


@pytest.mark.parametrize("name, encode, expected", ENCODINGS, ids=[e[0] for e in ENCODINGS])
def test_offsets_are_where_each_line_starts_in_the_file(tmp_path, name, encode, expected):
    data = encode(TEXT)
    path = _write(tmp_path, "h.txt", data)
    for no, offset, text in iter_lines(path, open_source(path).encoding):
        # the line's bytes in the file's own encoding start at its offset; the first line's
        # at the file's start, its BOM with it
        body = encode(text + "\n")
        if no > 1:
            body = body[len(encode("")):]
        assert data[offset : offset + len(body)] == body, (offset, text)


def test_utf8_whose_first_non_ascii_character_comes_after_the_head(tmp_path):
    """The review's case: 'é' or a no-break space past the first 64 KiB.  Judged by the
    whole file, not its head: never cp1252 ('3Â\\xa0023,50 $')."""
    ascii_hands = TEXT.replace("Ümit Müller", "Umit Muller")
    n = HEAD_BYTES // len(ascii_hands) + 2
    text = ascii_hands * n + TEXT.replace("La Pulga", "3\u00a0023,50 $ José")
    assert text[:HEAD_BYTES].isascii()
    path = _write(tmp_path, "late.txt", text.encode("utf-8"))
    assert open_source(path).encoding == read_source(path)[0].encoding == "utf-8"
    lines = _lines(path)
    assert "Seat 4: 3\u00a0023,50 $ José ($38.10 in chips)" in lines
    assert not any("Â" in t or "Ã" in t for t in lines)


def test_cp1252_whose_first_non_ascii_byte_comes_after_the_head(tmp_path):
    """The head is ASCII, so it reads alike in both; the rest decides: cp1252, whole, even on
    a line whose bytes happen to form UTF-8 ('Ã¼' written in cp1252 is the UTF-8 of 'ü')."""
    lines = ["x" * 80] * (HEAD_BYTES // 80 + 10) + ["Seat 1: José", "Seat 2: MÃ¼ller", "Seat 3: Renée", "José: folds"]
    data = "\n".join(lines).encode("cp1252")
    assert "MÃ¼ller".encode("cp1252").decode("utf-8") == "Müller"  # the trap
    path = _write(tmp_path, "late.txt", data)
    assert open_source(path).encoding == read_source(path)[0].encoding == "cp1252"
    assert _lines(path) == lines


def test_utf8_character_straddling_reads(tmp_path):
    """A character across the 1 MiB reads of ``open_source`` and the end of its 64 KiB
    head: UTF-8, and the head holds no half character."""
    for cut in (HEAD_BYTES, 1 << 20):
        text = "a" * (cut - 1) + "é\n" + "b" * 10 + "\n"
        path = _write(tmp_path, f"s{cut}.txt", text.encode("utf-8"))
        info = open_source(path)
        assert info.encoding == "utf-8" and "\ufffd" not in info.head, cut
        assert _lines(path) == ["a" * (cut - 1) + "é", "b" * 10]
    # a sample that ends inside a character is no evidence against UTF-8
    assert sniff_encoding("Seat 1: José\n".encode("utf-8")[:-2], whole=False) == "utf-8"


def test_file_cut_inside_a_character(tmp_path):
    """A record cut mid-character is UTF-8 up to the cut: its lines read as UTF-8, the
    broken last one as what its bytes are."""
    data = "Seat 1: José\nSeat 2: Ümit\n".encode("utf-8") + "Seat 3: Ü".encode("utf-8")[:-1]
    path = _write(tmp_path, "cut.txt", data)
    assert open_source(path).encoding == read_source(path)[0].encoding == "utf-8"
    assert _lines(path)[:2] == ["Seat 1: José", "Seat 2: Ümit"]


def test_utf8_with_another_programs_line_or_junk(tmp_path):
    """A UTF-8 file holding a line in cp1252 (written by another program) or binary junk
    stays UTF-8: its own lines read as UTF-8, only the stray line as cp1252."""
    data = ("Seat 1: José\nSeat 2: Ümit\n".encode("utf-8") + "Seat 3: Renée\n".encode("cp1252")
            + "Seat 4: Çağrı\n".encode("utf-8"))
    path = _write(tmp_path, "mixed.txt", data)
    assert open_source(path).encoding == read_source(path)[0].encoding == "utf-8"
    assert _lines(path) == ["Seat 1: José", "Seat 2: Ümit", "Seat 3: Renée", "Seat 4: Çağrı"]
    # the stray line first: the file was read whole as cp1252 from it ('3Â\xa0023,50 $')
    lines = ["Seat 3: Renée"] + [f"Seat {i}: Player{i} (3\u00a0023,50 $)" for i in range(4, 9)]
    data = lines[0].encode("cp1252") + b"\n" + "\n".join(lines[1:]).encode("utf-8")
    path = _write(tmp_path, "stray-first.txt", data)
    assert open_source(path).encoding == read_source(path)[0].encoding == "utf-8"
    assert _lines(path) == lines
    junk = TEXT.encode("utf-8") + b"\n\n" + random.Random(7).randbytes(3000)
    path = _write(tmp_path, "junk.txt", junk)
    assert open_source(path).encoding == read_source(path)[0].encoding == "utf-8"
    assert _lines(path)[: TEXT.count("\n")] == TEXT.split("\n")[:-1]


def test_utf16_without_bom_not_starting_with_ascii(tmp_path):
    """UTF-16 is told by where its zero bytes fall, not by the first four bytes."""
    text = "漢字 Ümit\n" + TEXT
    for enc in ("utf-16-le", "utf-16-be"):
        path = _write(tmp_path, enc, text.encode(enc))
        assert open_source(path).encoding == enc
        assert _lines(path) == text.split("\n")[:-1]


def test_utf16_lines_end_at_newline_only(tmp_path):
    """Lines end at '\\n' in UTF-16 as in every other encoding: a U+0085 or U+2028 in a
    name does not cut its line (str.splitlines would)."""
    text = "Seat 1: a\u2028b (100)\r\nSeat 2: c\x85d (200)\r\n"
    path = _write(tmp_path, "u16.txt", text.encode("utf-16"))
    assert _lines(path) == ["Seat 1: a\u2028b (100)", "Seat 2: c\x85d (200)"]


@pytest.mark.parametrize("name, encode, expected", [e for e in ENCODINGS if not e[2].startswith("utf-16")],
                         ids=[e[0] for e in ENCODINGS if not e[2].startswith("utf-16")])
def test_chunks_read_as_the_whole_file(tmp_path, name, encode, expected):
    """A big file is planned in chunks cut where a hand starts (``scan_file``); each chunk,
    decoded alone with the file's encoding, gives the same lines as the whole file."""
    hands = TEXT.split("\n\n\n")
    text = "\n\n\n".join(h.replace("900000000", f"9{i:08d}") for i in range(40) for h in hands)
    data = encode(text)
    path = _write(tmp_path, "big.txt", data)
    parts = scan_file(str(path), str(path), 4096)
    assert len(parts) > 5 and parts[0].info.encoding == expected
    got = []
    for part in parts:
        chunk, err = _read_range(part)
        assert err is None
        got += list(bytes_lines(chunk, part.info.encoding, part.first_line, part.first_offset))
    assert got == list(iter_lines(path, expected))
    assert sum(t.count("Ümit Müller") for _, _, t in got) == text.count("Ümit Müller")


# --- the corpus -------------------------------------------------------------------------

# one real file per encoding: (path under fpdb, encoding, a line it holds, read exactly)
REAL = [
    ("cash/FTP/Flop/NLHE-6max-EUR-0.01-0.02.201008.Weird.table.character.txt", "utf-16",
     "Full Tilt Poker Game #20000000801: Table Douai–Lens (6 max) - €0.01/€0.02 - No Limit Hold'em - 21:59:02 CET - 2010/08/13"),
    ("tour/Stars/Flop/NLHE-GBP-MTT-201107-£5 + £0.50.txt", "utf-8-sig",
     "Hero re-buys and receives 3000 chips for £5.00"),
    ("cash/Winamax/Flop/5-Card-PLO-6max-EUR-2.00-4.00-201611.raiseTo.txt", "utf-8", "Seat 1: Player0 (400€)"),
    ("cash/Stars/Flop/6+Holdem-6max-USD-0.50-0.50-201907.no.break.space.txt", "cp1252",
     "PokerStars Hand #202058540722:  6+ Hold'em No Limit (Button Blind\xa0$0.50 - Ante\xa0$0.50  USD) - 2019/07/07 0:30:30 JST [2019/07/06 11:30:30 ET]"),
]


@needs_corpus
@pytest.mark.parametrize("rel, encoding, line", REAL, ids=[r[1] for r in REAL])
def test_real_file_of_each_encoding(rel, encoding, line):
    path = FPDB / rel
    assert open_source(path).encoding == read_source(path)[0].encoding == encoding
    lines = _lines(path)
    assert line in lines
    if encoding == "utf-16":  # the file ends in one byte more than its UTF-16 units: that byte, as U+FFFD
        assert path.stat().st_size % 2 == 1 and lines[-1] == "\ufffd"
        lines = lines[:-1]
    assert not any("\ufffd" in t or "Ã" in t or "Â" in t for t in lines)
    assert _hands(path)


@needs_corpus
def test_corpus_no_utf8_file_is_read_as_cp1252():
    """Every file of the corpus: one that is UTF-8 (all its bytes) is read as UTF-8, and
    one read as cp1252 is not UTF-8; every BOM is honoured."""
    seen: dict[str, int] = {}
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        enc = open_source(path).encoding
        assert enc == sniff_encoding(data), path
        seen[enc] = seen.get(enc, 0) + 1
        if data.startswith(codecs.BOM_UTF8):
            assert enc == "utf-8-sig", path
        elif data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
            assert enc == "utf-16", path
        elif enc == "cp1252":
            with pytest.raises(UnicodeDecodeError):
                data.decode("utf-8")
        else:
            assert enc == "utf-8", path
    assert seen.keys() >= {"utf-8", "utf-8-sig", "utf-16", "cp1252"}, seen
