"""Streaming a big iPoker session: memory stays bounded whatever the file's size.

    python bench/ipoker_stream.py                 # a 200 MB session, parsed in a child process
    python bench/ipoker_stream.py --mb 20 50 200  # several sizes

The session is made by repeating the games of the largest session of the external
corpus (fpdb/tour/iPoker/Stud/7-StudHi-USD-STT-5-201103.txt, 117 games under one
<general>), each copy with a fresh game code, written as it goes (never held whole).
A child process parses it with ``IPokerParser`` (an ET.XMLParser fed line by line, the reader its target) and
reports its peak resident set (VmHWM); a second child parses one copy of the games
alone, the baseline: the difference is what the file's size costs.  Figures in
bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
SOURCE = CORPUS / "fpdb" / "tour" / "iPoker" / "Stud" / "7-StudHi-USD-STT-5-201103.txt"
FIRST_CODE = 8_000_000_000

CHILD = """
import json, re, sys, time
from pathlib import Path
from parsers import iter_lines, open_source
from parsers.base import ParsedHand
from parsers.ipoker import IPokerParser
p = Path(sys.argv[1])
info = open_source(p)
t = time.perf_counter(); games = stored = 0
for h in IPokerParser().iter_hands(iter_lines(p, info.encoding), str(p)):
    games += 1
    stored += isinstance(h, ParsedHand)
s = time.perf_counter() - t
peak = int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))
print(json.dumps({"games": games, "stored": stored, "seconds": s, "peak_kib": peak, "bytes": p.stat().st_size}))
"""


def templates(source: Path = SOURCE) -> tuple[str, list[str]]:
    """The session's <general> and its games, each game's text with '{code}' for its game code."""
    sys.path.insert(0, str(ROOT))
    from tests.ipoker_games import games_of  # noqa: E402  (the same reading of real games as the tests)

    pairs = games_of(source)
    general = ET.tostring(pairs[0][0], encoding="unicode")
    games = []
    for _, game in pairs:
        game.set("gamecode", "CODE")
        ET.indent(game, "  ", 1)
        games.append(ET.tostring(game, encoding="unicode").replace('gamecode="CODE"', 'gamecode="{code}"'))
    return general, games


def build(path: Path, size_bytes: int, source: Path = SOURCE) -> int:
    """Write a session of at least ``size_bytes`` to ``path``; returns the games written."""
    general, games = templates(source)
    n = 0
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<session sessioncode="1">\n  ' + general + "\n")
        written = 0
        while written < size_bytes:
            for g in games:
                text = "  " + g.replace("{code}", str(FIRST_CODE + n)) + "\n"
                f.write(text)
                written += len(text)
                n += 1
        f.write("</session>\n")
    return n


def measure(path: Path) -> dict:
    """Parse ``path`` in a child process: games, stored, seconds, peak RSS (KiB)."""
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, nargs="*", default=[200], help="session sizes in MB")
    ap.add_argument("--dir", default="/tmp", help="where the sessions are written (removed after)")
    args = ap.parse_args()
    base_path = Path(args.dir) / "ipoker-baseline.xml"
    build(base_path, 1)
    base = measure(base_path)
    base_path.unlink()
    print(f"baseline: one copy of {base['games']} games, peak {base['peak_kib'] / 1024:.1f} MiB")
    for mb in args.mb:
        p = Path(args.dir) / f"ipoker-{mb}mb.xml"
        written = build(p, mb * 1_000_000)
        r = measure(p)
        p.unlink()
        assert r["games"] == written, (r, written)
        print(f"{r['bytes'] / 1e6:,.0f} MB: {r['games']:,} games ({r['stored']:,} stored) in {r['seconds']:.1f} s = "
              f"{r['games'] / r['seconds']:,.0f} games/s; peak {r['peak_kib'] / 1024:.1f} MiB "
              f"(+{(r['peak_kib'] - base['peak_kib']) / 1024:.1f} MiB over the baseline)")


if __name__ == "__main__":
    main()
