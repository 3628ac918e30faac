"""Build large benchmark inputs from the real corpus (kept out of git: bench/data/).

PokerStars: the hands of ../shared/corpus/fpdb/tour/Stars/ replicated with fresh
hand numbers and tournament/table ids into one file of N hands.
PHH: the files of ../shared/corpus/phh/ replicated under fresh folder names.
An input is built once and then reused. It is written under a temporary name
(``*.part``) and renamed when complete, so a build that fails or is cut off is
never taken for a complete input (a failed one removes its part; one killed
outright leaves it, and nothing reads it).

    python bench/build_corpus.py 10000 100000
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
DATA = ROOT / "bench" / "data"
HEADER = re.compile(r"^PokerStars (?:Hand|Game) #(\d+):")
ANY_HEADER = re.compile(r"PokerStars (?:Hand|Game) #(\d+):")
TOURNAMENT = re.compile(r"Tournament #(\d+)", re.IGNORECASE)  # old exports write TOURNAMENT
COPY_DIGITS = 4  # copies are numbered with this many digits, appended to each tournament number


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
    suffix = f"{copy:0{COPY_DIGITS}d}"
    hand = TOURNAMENT.sub(lambda m: m.group(0) + suffix, hand)
    return re.sub(r"(?m)^Table '(\d+) ",
                  lambda m: f"Table '{m.group(1)}{suffix} " if m.group(1) in tournaments else m.group(0), hand)


def _copies(n: int, base: int) -> None:
    if base == 0:
        raise SystemExit(f"no hands to replicate under {CORPUS}")
    if -(-n // base) > 10**COPY_DIGITS:
        raise ValueError(f"{n:,} hands need more than {10**COPY_DIGITS:,} copies of the corpus; "
                         "raise COPY_DIGITS (their tournament numbers would repeat)")


def build_stars(n: int, data: Path = DATA) -> Path:
    """One file of ``n`` PokerStars tournament hands (built once, in ``data``)."""
    out = data / f"stars-{n}.txt"
    if out.exists():
        return out
    data.mkdir(parents=True, exist_ok=True)
    base = stars_hands()
    _copies(n, len(base))
    # written under a name of its own, renamed when complete: a build cut off (or one
    # running beside it) never leaves a file that looks complete
    fd, part = tempfile.mkstemp(prefix=out.name + ".", suffix=".part", dir=data)
    try:
        with open(fd, "w", encoding="utf-8") as f:
            for i in range(n):
                f.write(stars_copy(base[i % len(base)], i, i // len(base)) + "\n\n\n")
        os.replace(part, out)
    except BaseException:
        Path(part).unlink(missing_ok=True)
        raise
    return out


def _flat_folder(rel: Path) -> str:
    """The folder of a corpus file as one name (``pluribus/100/12.phh`` ->
    ``pluribus_100``): a PHH hand's id is the last three parts of its path, so each
    copy's folder must be one of them, and the file's folder, whole, the next.

    >>> _flat_folder(Path("pluribus/100/12.phh")), _flat_folder(Path("x.phh"))
    ('pluribus_100', '_')
    """
    return "_".join(rel.parent.parts) or "_"


def build_phh(n: int, data: Path = DATA) -> Path:
    """A folder of ``n`` PHH hands: the corpus files copied, each copy under a folder
    of its own (PHH hand ids come from the path: ``_flat_folder``) and marked with
    its number (built once, in ``data``)."""
    out = data / f"phh-{n}"
    if out.exists():
        return out
    data.mkdir(parents=True, exist_ok=True)
    root = CORPUS / "phh"
    files = sorted(root.rglob("*.phh"))
    _copies(n, len(files))
    part = Path(tempfile.mkdtemp(prefix=out.name + ".", suffix=".part", dir=data))
    try:
        for i in range(n):
            src, copy = files[i % len(files)], i // len(files)
            dst = part / f"c{copy:0{COPY_DIGITS}d}" / _flat_folder(src.relative_to(root)) / src.name
            dst.parent.mkdir(parents=True, exist_ok=True)
            text = src.read_text(encoding="utf-8")
            dst.write_text(text + f"\n_copy = {copy}\n", encoding="utf-8")
        try:
            os.replace(part, out)
        except OSError:
            if not out.is_dir():  # else a build beside this one finished first: the same folder
                raise
            shutil.rmtree(part)
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise
    return out


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["10000"]:
        print(build_stars(int(arg)))
