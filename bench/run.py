"""Throughput benchmark: tda-audit side by side with the references, on the same input.

    python bench/run.py                 # 10k PokerStars hands and the PHH corpus
    python bench/run.py --sizes 10000 100000

Prints, per input: end-to-end ``tda-audit audit`` hands per second and peak RSS
(a child process, measured with getrusage), each stage alone (parse, store,
replay, checks), pokerkit's own parse + replay of the same hands (its
PokerStars parser and its PHH loader) as the reference, and a bare regular
expression line scan of the same text as the floor for pure-Python parsing; then
the ratios. Targets (issue 7): PokerStars >= 10,000 hands/s end to end, PHH >= 5x
pokerkit, flat from 10k to 1M hands, peak RSS < 1 GiB at 1M hands.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_corpus import CORPUS, build_stars  # noqa: E402


PEAK = "\nimport re as _re, sys as _sys\n_sys.stderr.write('VmHWM=' + _re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n"


def child(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object.  Adds its peak
    RSS (VmHWM: the child's own high-water mark; ru_maxrss would mix in other runs)."""
    out = subprocess.run([sys.executable, "-c", code + PEAK], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["peak_rss_mib"] = round(int(re.search(r"VmHWM=(\d+)", out.stderr).group(1)) / 1024, 1)
    return result


END_TO_END = """
import json, time
from auditor.pipeline import audit
t = time.perf_counter(); r = audit([{path!r}], db={db!r}); s = time.perf_counter() - t
print(json.dumps({{"hands": r.replay.hands, "seconds": s}}))
"""

STAGES = """
import json, time
from auditor.store import connect
from auditor.ingest import ingest
from parsers import detect_parser, iter_lines, open_source
from pathlib import Path
from replay.runner import replay_store
from auditor.checks import run_checks
paths = [p for p in Path({path!r}).rglob('*') if p.is_file()] if Path({path!r}).is_dir() else [Path({path!r})]
t = time.perf_counter(); n = 0
for p in paths:
    info = open_source(p); parser = detect_parser(info.head, str(p))
    if parser:
        n += sum(1 for _ in parser.iter_hands(iter_lines(p, info.encoding), str(p)))
parse = time.perf_counter() - t
con = connect({db!r})
t = time.perf_counter(); ingest([{path!r}], con=con); ingest_s = time.perf_counter() - t
t = time.perf_counter(); r = replay_store(con, 'tda-2019'); replay_s = time.perf_counter() - t
t = time.perf_counter(); run_checks(con, 'tda-2019'); check_s = time.perf_counter() - t
print(json.dumps({{"hands": n, "parse": parse, "store": max(ingest_s - parse, 0.0), "replay": replay_s, "checks": check_s}}))
"""

POKERKIT_STARS = """
import json, time
from pokerkit import PokerStarsParser
text = open({path!r}, encoding='utf-8').read()
t = time.perf_counter(); n = 0
for hh in PokerStarsParser()(text, error_status=False):
    try:
        for _ in hh:  # replay every state
            pass
        n += 1
    except Exception:
        pass
print(json.dumps({{"hands": n, "seconds": time.perf_counter() - t}}))
"""

POKERKIT_PHH = """
import json, time
from pathlib import Path
from pokerkit import HandHistory
files = sorted(Path({path!r}).rglob('*.phh'))
t = time.perf_counter(); n = 0
for f in files:
    try:
        with open(f, 'rb') as fh:
            hh = HandHistory.load(fh)
        for _ in hh:
            pass
        n += 1
    except Exception:
        pass
print(json.dumps({{"hands": n, "seconds": time.perf_counter() - t}}))
"""

REGEX_FLOOR = """
import json, re, time
from pathlib import Path
line = re.compile(r'^(\\S[^:]*): (posts|folds|checks|calls|bets|raises)(?: (\\d+))?')
paths = [p for p in Path({path!r}).rglob('*') if p.is_file()] if Path({path!r}).is_dir() else [Path({path!r})]
t = time.perf_counter(); n = 0; m = 0
for p in paths:
    for l in open(p, encoding='utf-8', errors='replace'):
        if l.startswith(('PokerStars ', 'variant')):
            n += 1
        elif line.match(l):
            m += 1
print(json.dumps({{"hands": n, "seconds": time.perf_counter() - t}}))
"""


def rate(hands: int, seconds: float) -> float:
    return hands / seconds if seconds else float("inf")


def bench(label: str, path: Path, reference: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        e2e = child(END_TO_END.format(path=str(path), db=os.path.join(tmp, "e2e.duckdb")))
        st = child(STAGES.format(path=str(path), db=os.path.join(tmp, "stages.duckdb")))
    ref = child(reference.format(path=str(path)))
    floor = child(REGEX_FLOOR.format(path=str(path)))
    n = e2e["hands"]
    rows = [
        ("tda-audit audit (end to end)", n, e2e["seconds"], e2e["peak_rss_mib"]),
        ("  parse", st["hands"], st["parse"], None),
        ("  store", st["hands"], st["store"], None),
        ("  replay", st["hands"], st["replay"], None),
        ("  checks", st["hands"], st["checks"], None),
        ("pokerkit parse + replay (reference)", ref["hands"], ref["seconds"], ref["peak_rss_mib"]),
        ("regex line scan (floor)", floor["hands"], floor["seconds"], floor["peak_rss_mib"]),
    ]
    print(f"\n{label}: {path}")
    print(f"{'':38} {'hands':>9} {'seconds':>9} {'hands/s':>10} {'peak MiB':>9}")
    for name, h, s, mem in rows:
        print(f"{name:38} {h:9d} {s:9.2f} {rate(h, s):10.0f} {mem if mem is not None else '':>9}")
    ours, theirs = rate(n, e2e["seconds"]), rate(ref["hands"], ref["seconds"])
    print(f"ratio tda-audit / pokerkit: {ours / theirs:.1f}x;  tda-audit / regex floor: {ours / rate(floor['hands'], floor['seconds']):.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10000], help="PokerStars input sizes in hands")
    ap.add_argument("--no-phh", action="store_true", help="skip the PHH corpus run")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"the corpus is not at {CORPUS}")
    for n in args.sizes:
        bench(f"PokerStars tournament text, {n} hands", build_stars(n), POKERKIT_STARS)
    if not args.no_phh:
        bench("PHH corpus", CORPUS / "phh", POKERKIT_PHH)


if __name__ == "__main__":
    main()
