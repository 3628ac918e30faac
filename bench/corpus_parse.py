"""The whole external corpus parsed, every site together: seconds and hands a second.

    python bench/corpus_parse.py [--rounds 5] [--corpus ../shared/corpus]

Every file of ``fpdb/`` and ``phh/`` that a parser recognises is read into memory once,
then parsed (``iter_hands``, each item settled as ingest settles it) ``rounds`` times; the
figure is the fastest round, so the machine's other load counts as little as it can.  Run
it on two checkouts, each installed (compiled where a C compiler is), to compare them: the
line it prints names the commit, for the table in bench/README.md.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import time
from pathlib import Path

from parsers import detect_parser, iter_lines, open_source

try:
    from parsers.base import settle
except ImportError:  # pragma: no cover  (a checkout before parsers.base.settle: what its ingest did)
    from parsers.base import out_of_range

    def settle(item):  # type: ignore[no-redef]
        return item if not hasattr(item, "events") or out_of_range(item) is None else None

ROOT = Path(__file__).resolve().parent.parent


def corpus_files(root: Path) -> list[tuple[object, str, list[tuple[int, int, str]]]]:
    """(parser, path, lines) of every corpus file a parser recognises."""
    out = []
    for path in sorted(p for sub in ("fpdb", "phh") for p in (root / sub).rglob("*") if p.is_file()):
        try:
            info = open_source(path)
        except OSError:
            continue
        parser = detect_parser(info.head, str(path)) if info.size else None
        if parser is not None:
            out.append((parser, str(path), list(iter_lines(path, info.encoding))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    args = ap.parse_args()
    files = corpus_files(args.corpus)
    best = float("inf")
    hands = stored = 0
    gc.disable()  # as in the parse workers
    for _ in range(args.rounds):
        hands = stored = 0
        start = time.process_time()
        for parser, path, lines in files:
            for item in parser.iter_hands(iter(lines), path):
                item = settle(item)
                hands += 1
                stored += hasattr(item, "events")
        best = min(best, time.process_time() - start)
        gc.collect()
    gc.enable()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"{commit}: {len(files)} files, {hands} items ({stored} hands stored): "
          f"{best:.3f} s CPU (best of {args.rounds}), {hands / best:,.0f} items/s")


if __name__ == "__main__":
    main()
