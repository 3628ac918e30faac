"""Build large benchmark inputs from the real corpus (kept out of git: bench/data/).

PokerStars: the hands of ../shared/corpus/fpdb/tour/Stars/ replicated with fresh
hand numbers and tournament/table ids into one file of N hands.
PHH: the files of ../shared/corpus/phh/ replicated under fresh folder names.
An input is built once and then reused; it appears under its final name only when
complete (a build that was cut off is started again, never reused).

    python bench/build_corpus.py 10000 100000
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "bench" / "data"
HEADER = re.compile(r"^PokerStars (?:Hand|Game) #(\d+):")
ANY_HEADER = re.compile(r"PokerStars (?:Hand|Game) #(\d+):")
TOURNAMENT = re.compile(r"Tournament #(\d+)", re.IGNORECASE)  # old exports write TOURNAMENT


def stars_hands() -> list[str]:
    """Every complete tournament hand of the Stars corpus, as text."""
    hands: list[str] = []
    for path in sorted((CORPUS / "fpdb" / "tour" / "Stars").rglob("*.txt")):
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig", errors="replace")
        chunks = re.split(r"(?m)^(?=PokerStars (?:Hand|Game) #)", text)
        hands += [c.strip("\n") + "\n" for c in chunks if HEADER.match(c) and "*** SUMMARY ***" in c]
    return hands


def stars_copy(hand: str, i: int, copy: int) -> str:
    """Hand ``hand`` as the ``i``-th of the input, in its ``copy``-th pass over the
    corpus: every header gets a number of its own, also one glued mid-line onto the
    hand before it (the corpus has one), so no copy repeats a hand id; the tournament
    number, and the table names that begin with it, get the copy's suffix, so each
    copy is a tournament of its own with tables of its own.

    >>> print(stars_copy("PokerStars Hand #12: Tournament #604, Freeroll\\nTable '604 7' 9-max\\n", 3, 2), end="")
    PokerStars Hand #4000000000012: Tournament #6040002, Freeroll
    Table '6040002 7' 9-max
    >>> stars_copy("PokerStars Game #5: TOURNAMENT #16, $10+$1\\n", 0, 1)
    'PokerStars Game #4000000000000: TOURNAMENT #160001, $10+$1\\n'
    """
    serial = iter(range(4 * (10**12 + i), 4 * (10**12 + i) + 4))
    hand = ANY_HEADER.sub(lambda m: m.group(0).replace(m.group(1), str(next(serial))), hand)
    tournaments = set(TOURNAMENT.findall(hand))
    hand = TOURNAMENT.sub(lambda m: m.group(0) + f"{copy:04d}", hand)
    return re.sub(r"(?m)^Table '(\d+) ",
                  lambda m: f"Table '{m.group(1)}{copy:04d} " if m.group(1) in tournaments else m.group(0), hand)


def build_stars(n: int, data: Path = DATA) -> Path:
    """One file of ``n`` PokerStars tournament hands (built once, in ``data``)."""
    out = data / f"stars-{n}.txt"
    if out.exists():
        return out
    data.mkdir(parents=True, exist_ok=True)
    base = stars_hands()
    part = out.with_name(out.name + ".part")
    with open(part, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(stars_copy(base[i % len(base)], i, i // len(base)) + "\n\n\n")
    os.replace(part, out)
    return out


def build_phh(n: int, data: Path = DATA) -> Path:
    """A folder of ``n`` PHH hands, the corpus files copied under fresh folder names
    (PHH hand ids come from the path) and marked with their copy (built once, in ``data``)."""
    out = data / f"phh-{n}"
    if out.exists():
        return out
    part = data / f"phh-{n}.part"
    shutil.rmtree(part, ignore_errors=True)
    files = sorted((CORPUS / "phh").rglob("*.phh"))
    for i in range(n):
        src = files[i % len(files)]
        dst = part / f"c{i // len(files):04d}" / src.parent.name / src.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text(encoding="utf-8")
        dst.write_text(text + f"\n_copy = {i // len(files)}\n", encoding="utf-8")
    os.replace(part, out)
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["10000"]:
        print(build_stars(int(arg)))
