"""Build large benchmark inputs from the real corpus (kept out of git: bench/data/).

PokerStars: the hands of ../shared/corpus/fpdb/tour/Stars/ replicated with fresh
hand numbers and tournament/table ids into one file of N hands.
PHH: the files of ../shared/corpus/phh/ replicated under fresh folder names.

    python bench/build_corpus.py 10000 100000
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "bench" / "data"
HEADER = re.compile(r"^PokerStars (?:Hand|Game) #(\d+):")
ANY_HEADER = re.compile(r"PokerStars (?:Hand|Game) #(\d+):")


def stars_hands() -> list[str]:
    """Every complete tournament hand of the Stars corpus, as text."""
    hands: list[str] = []
    for path in sorted((CORPUS / "fpdb" / "tour" / "Stars").rglob("*.txt")):
        raw = path.read_bytes()
        text = raw.decode("utf-8-sig", errors="replace")
        chunks = re.split(r"(?m)^(?=PokerStars (?:Hand|Game) #)", text)
        hands += [c.strip("\n") + "\n" for c in chunks if HEADER.match(c) and "*** SUMMARY ***" in c]
    return hands


def build_stars(n: int) -> Path:
    out = DATA / f"stars-{n}.txt"
    if out.exists():
        return out
    DATA.mkdir(parents=True, exist_ok=True)
    base = stars_hands()
    with open(out, "w", encoding="utf-8") as f:
        for i in range(n):
            h = base[i % len(base)]
            copy = i // len(base)
            # every header gets a number of its own, also one glued mid-line onto the
            # hand before it (the corpus has one): no copy repeats a hand id
            serial = iter(range(4 * (10**12 + i), 4 * (10**12 + i) + 4))
            h = ANY_HEADER.sub(lambda m: m.group(0).replace(m.group(1), str(next(serial))), h)
            h = re.sub(r"Tournament #(\d+)", lambda m: f"Tournament #{m.group(1)}{copy:04d}", h)
            f.write(h + "\n\n\n")
    return out


def build_phh(n: int) -> Path:
    out = DATA / f"phh-{n}"
    if out.exists():
        return out
    files = sorted((CORPUS / "phh").rglob("*.phh"))
    for i in range(n):
        src = files[i % len(files)]
        dst = out / f"c{i // len(files):04d}" / src.parent.name / src.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        text = src.read_text(encoding="utf-8")
        dst.write_text(text + f"\n_copy = {i // len(files)}\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["10000"]:
        print(build_stars(int(arg)))
