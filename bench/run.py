"""Throughput benchmark: tda-audit side by side with the references, on the same input.

    python bench/run.py                              # 10k PokerStars hands and the PHH corpus
    python bench/run.py --sizes 10000 100000 1000000 --no-phh
    python bench/run.py --sites                      # each site's parse rate on its corpus files
    python bench/run.py --sizes 100000 --no-phh --dask local   # the audit on a Dask LocalCluster

Prints, per input: end-to-end ``tda-audit audit`` hands per second and peak
memory (the audit process and its workers together: the peak of the sum of
their proportional set sizes, sampled every 0.2 s; and the main process's own
high-water mark), each stage alone in one process (parse, store, replay,
checks), pokerkit's own parse + replay of the same hands (its PokerStars parser
and its PHH loader) as the reference, and a bare regular-expression line scan
of the same text as the floor for pure-Python parsing; then the ratios, and the
CPU the audit spent per hand (its main process, and its workers) against what
the machine's cores allow and what the target needs.  Above
``--stages-max`` hands the stages are skipped; above ``--reference-max`` pokerkit
(about 200 hands/s) runs on that many hands spread over the same input.  Targets (issue 7):
PokerStars >= 10,000 hands/s end to end, PHH >= 5x pokerkit, flat from 10k to
1M hands, peak memory < 1 GiB at 1M hands.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_corpus import CORPUS, build_phh, build_stars  # noqa: E402

from auditor.execution import default_jobs, descendants  # noqa: E402


PEAK = "\nimport re as _re, sys as _sys\n_sys.stderr.write('VmHWM=' + _re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n"
PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def _adopt_orphans() -> None:
    """Make this process the reaper of its descendants' orphans (Linux), so that
    when a child run ends, its workers, worker server and resource tracker are
    waited for here, and their CPU counted exactly (``child``)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def _cpu(ru: resource.struct_rusage) -> float:
    return ru.ru_utime + ru.ru_stime


def _tree_pss_kib(tree: set[int]) -> int:
    """The summed proportional set size of the processes ``tree`` (the audit, its
    workers, the forkserver), so pages shared after a fork are not counted twice."""
    total = 0
    for pid in tree:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += int(re.search(r"^Pss:\s+(\d+)", f.read(), re.M).group(1))
        except (OSError, AttributeError):
            pass
    return total


def child(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object.  Adds its own
    peak RSS (VmHWM; ru_maxrss would mix in other runs), the peak memory of it and
    its descendants together (sampled), and CPU seconds, exactly, from the kernel's
    accounts of the processes ended (``_adopt_orphans``): its own, and all its
    descendants' together (workers, worker server, resource tracker)."""
    # output goes to files: a child that writes much (pokerkit's warnings) must not
    # block on a full pipe while it is sampled
    with tempfile.TemporaryFile("w+") as out_f, tempfile.TemporaryFile("w+") as err_f:
        before = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN))
        proc = subprocess.Popen([sys.executable, "-c", code + PEAK], stdout=out_f, stderr=err_f, text=True)
        peak_tree = 0
        started = time.monotonic()
        while True:
            pid, status, own = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                proc.returncode = os.waitstatus_to_exitcode(status)
                break
            peak_tree = max(peak_tree, _tree_pss_kib({proc.pid} | descendants(proc.pid)))
            # every 0.2 s for a short run, then every second: sampling is not free (it walks
            # /proc and the processes' page tables), and at 0.2 s it took some 7% of a core
            # from a 10M-hand audit on two
            time.sleep(0.2 if time.monotonic() - started < 30 else 1.0)
        _reap_orphans()
        cpu_all = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - before
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    if proc.returncode:
        raise SystemExit(f"benchmark step failed:\n{err[-4000:]}")
    result = json.loads(out.strip().splitlines()[-1])
    result["peak_rss_mib"] = round(int(re.search(r"VmHWM=(\d+)", err).group(1)) / 1024, 1)
    result["peak_tree_mib"] = round(peak_tree / 1024, 1)
    # a child that reports its own CPU (cpu_self) is the one process it names; the rest is its descendants'
    result["cpu_main"] = result.pop("cpu_self", _cpu(own))
    result["cpu_others"] = cpu_all - result["cpu_main"]
    return result


def _reap_orphans(timeout: float = 60.0) -> None:
    """Wait for the ended run's orphans (its workers and servers end as soon as it
    has; they are this process's children now), so their CPU is accounted."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # none left
        if not pid:
            if time.monotonic() > deadline:
                print(f"(processes of the last run still running after {timeout:.0f} s; their CPU is not counted)")
                return
            time.sleep(0.02)


END_TO_END = """
import json, time
t = time.perf_counter()  # the import counted too, as 'tda-audit audit FILE' pays it
from auditor.pipeline import audit
r = audit([{path!r}], db={db!r}, keep_findings=False); s = time.perf_counter() - t
print(json.dumps({{"hands": r.replay.hands, "seconds": s}}))
"""

INGEST = """
import json, time
t = time.perf_counter()
from auditor.ingest import ingest
r = ingest([{path!r}], db={db!r}); s = time.perf_counter() - t
print(json.dumps({{"hands": r.stored, "seconds": s}}))
"""

END_TO_END_DASK = """
import json, resource, time
t = time.perf_counter()  # the import and the cluster's start counted too, as 'tda-audit audit FILE --dask local' pays them
from auditor.execution import connect
from auditor.pipeline import audit
if __name__ == "__main__":
    with connect({dask!r}) as client:
        r = audit([{path!r}], db={db!r}, keep_findings=False, cluster=client)
    s = time.perf_counter() - t
    # this process's own CPU (the coordinator and the scheduler): Dask's nannies wait for
    # their workers and this process for its nannies, so the kernel's account of it counts them all
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({{"hands": r.replay.hands, "seconds": s, "cpu_self": ru.ru_utime + ru.ru_stime}}))
"""

STAGES = """
import json, time
from auditor.store import connect
from auditor.ingest import ingest
from parsers import detect_parser, iter_lines, open_source
from pathlib import Path
from auditor.facts import replay_store
from auditor.checks import run_checks
paths = [p for p in Path({path!r}).rglob('*') if p.is_file()] if Path({path!r}).is_dir() else [Path({path!r})]
t = time.perf_counter(); n = 0
for p in paths:
    info = open_source(p); parser = detect_parser(info.head, str(p))
    if parser:
        n += sum(1 for _ in parser.iter_hands(iter_lines(p, info.encoding), str(p)))
parse = time.perf_counter() - t
con = connect({db!r})
t = time.perf_counter(); ingest([{path!r}], con=con, jobs=1); ingest_s = time.perf_counter() - t
t = time.perf_counter(); r = replay_store(con, 'tda-2019', jobs=1); replay_s = time.perf_counter() - t
t = time.perf_counter(); run_checks(con, 'tda-2019'); check_s = time.perf_counter() - t
print(json.dumps({{"hands": n, "parse": parse, "store": max(ingest_s - parse, 0.0), "replay": replay_s, "checks": check_s}}))
"""

POKERKIT_STARS = """
import json, re, time
from pokerkit import PokerStarsParser
header = re.compile(r'PokerStars (?:Hand|Game) #')
# every k-th hand of the file, so that a sample of {limit} hands is spread over all of
# it (the file starts with the games pokerkit does not read); all hands when no limit
hands, cur, index = [], None, -1
with open({path!r}, encoding='utf-8') as f:
    total = sum(1 for line in f if header.match(line)) if {limit} else 0
    step = max(1, -(-total // {limit})) if {limit} else 1
    f.seek(0)
    for line in f:
        if header.match(line):
            index += 1
            cur = [] if index % step == 0 else None
            if cur is not None:
                hands.append(cur)
        if cur is not None:
            cur.append(line)
hands = [''.join(h) for h in hands]
# each hand on its own, timed alone: pokerkit's rate counts the hands it reads and the
# time it spends on them (its parser replays each hand to its final state: that is the
# replay); the hands it cannot read are counted apart, their time left out
parser = PokerStarsParser()
n = failed = 0
seconds = 0.0
for text in hands:
    t = time.perf_counter()
    try:
        ok = any(True for _ in parser(text, error_status=False))
    except Exception:
        ok = False
    dt = time.perf_counter() - t
    if ok:
        n += 1
        seconds += dt
    else:
        failed += 1
print(json.dumps({{"hands": n, "seconds": seconds, "failed": failed, "given": len(hands)}}))
"""

POKERKIT_PHH = """
import json, time
from pathlib import Path
from pokerkit import HandHistory
files = sorted(Path({path!r}).rglob('*.phh'))
files = files[:: -(-len(files) // {limit})][: {limit}] if {limit} else files  # spread evenly, as for PokerStars
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
print(json.dumps({{"hands": n, "seconds": time.perf_counter() - t, "given": len(files)}}))
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


def bench(label: str, path: Path, reference: str, stages_max: int, reference_max: int, target_rate: float | None,
          dask: str | None = None, ingest_max: int | None = None) -> None:
    """One input's rows; ``target_rate``: issue 7's target in hands/s (None: 5x pokerkit's rate); ``dask``:
    the end-to-end run on a Dask cluster (``local``: its scheduler runs in the main process, its workers below);
    ``ingest_max``: above this many hands, no ingest-alone run."""
    with tempfile.TemporaryDirectory(dir=HERE / "data") as tmp:
        db = os.path.join(tmp, "e2e.duckdb")
        e2e = child(END_TO_END_DASK.format(path=str(path), db=db, dask=dask) if dask else
                    END_TO_END.format(path=str(path), db=db))
        n = e2e["hands"]
        ing = (child(INGEST.format(path=str(path), db=os.path.join(tmp, "ingest.duckdb")))
               if ingest_max is None or n <= ingest_max else None)
        st = child(STAGES.format(path=str(path), db=os.path.join(tmp, "stages.duckdb"))) if n <= stages_max else None
    limit = reference_max if n > reference_max else 0
    ref = child(reference.format(path=str(path), limit=limit))
    floor = child(REGEX_FLOOR.format(path=str(path)))
    rows = [(f"tda-audit audit (end to end{', --dask ' + dask if dask else ''})", n, e2e["seconds"], e2e["peak_tree_mib"],
             e2e["peak_rss_mib"])]
    if st:
        rows += [(f"  {s} (one process)", st["hands"], st[s], None, None) for s in ("parse", "store", "replay", "checks")]
    ref_name = "pokerkit parse + replay (reference)" + (f", {ref['given']:,} spread" if limit else "")
    rows += [
        (ref_name, ref["hands"], ref["seconds"], ref["peak_tree_mib"], ref["peak_rss_mib"]),
        ("regex line scan (floor)", floor["hands"], floor["seconds"], floor["peak_tree_mib"], floor["peak_rss_mib"]),
    ]
    print(f"\n{label}: {path}")
    print(f"{'':46} {'hands':>9} {'seconds':>9} {'hands/s':>10} {'peak MiB':>9} {'main MiB':>9}")
    for name, h, s, tree, main in rows:
        print(f"{name:46} {h:9d} {s:9.2f} {rate(h, s):10.0f} {tree if tree is not None else '':>9} {main if main is not None else '':>9}")
    if ref.get("failed"):
        print(f"  (pokerkit could not read {ref['failed']:,} of the {ref['given']:,} hands it was given; "
              "its rate counts the hands it read, over the time it spent on them)")
    ours, theirs = rate(n, e2e["seconds"]), rate(ref["hands"], ref["seconds"])
    print(f"ratio tda-audit / pokerkit: {ours / theirs:.1f}x;  tda-audit / regex floor: {ours / rate(floor['hands'], floor['seconds']):.2f}x")
    # what the cores allow: CPU seconds per hand against the cores' seconds per second
    cores = default_jobs()
    main_ms, workers_ms = (1000 * e2e[k] / n if n else 0.0 for k in ("cpu_main", "cpu_others"))
    target = target_rate or 5 * theirs
    print(f"CPU per hand, end to end: main process {main_ms:.3f} ms (store writes, checks"
          f"{', the Dask scheduler' if dask else ''}), workers {workers_ms:.3f} ms "
          f"(parse, replay; with the {'Dask nannies' if dask else 'worker server'}), together {main_ms + workers_ms:.3f} ms.  On {cores} cores that "
          f"bounds the audit at {rate(cores * 1000, main_ms + workers_ms):,.0f} hands/s, and the workers' share alone at "
          f"{rate(cores * 1000, workers_ms):,.0f}; the target, {target:,.0f} hands/s"
          f"{'' if target_rate else ' (5x pokerkit)'}, needs {cores * 1000 / target:.3f} ms or less in all")
    # ingest alone (tda-audit ingest): the coordinator's share is what no number of
    # workers can spread, so it bounds the rate at any core count
    if ing is None:
        print(f"CPU per hand, ingest alone: not run (--ingest-max {ingest_max:,})")
        sys.stdout.flush()
        return
    coord_ms, ing_workers_ms = (1000 * ing[k] / ing["hands"] if ing["hands"] else 0.0 for k in ("cpu_main", "cpu_others"))
    print(f"CPU per hand, ingest alone ({ing['hands']:,} hands, {rate(ing['hands'], ing['seconds']):,.0f} hands/s, "
          f"peak {ing['peak_tree_mib']} MiB): coordinator {coord_ms:.3f} ms, workers {ing_workers_ms:.3f} ms")
    for c in (16, 64):
        bound = min(rate(c * 1000, main_ms + workers_ms), rate(1000, coord_ms) if coord_ms else float("inf"))
        print(f"  bound on {c} cores: at most {bound:,.0f} hands/s end to end (all CPU spread over {c} cores, "
              f"and the coordinator's {coord_ms:.3f} ms a hand of ingest on one), checks aside")
    sys.stdout.flush()


WARM_HANDS = 5  # hands read untimed before a file's timed pass (--warm-hands)


def site_rates(names: list[str], rounds: int = 9, warm_hands: int = WARM_HANDS) -> None:
    """Each site's parse cost on its own files of the corpus (``fpdb``, recognised by
    content), beside PokerStars' on its tournament files, compared on hands of the same
    length.

    Length is a hand's events: every parser writes one per thing that happened, where
    lines are the format's own (an iPoker game writes one XML element a line, a Winamax
    hand a line an action plus its summary), so a line of one format is not a line of
    another.  Each hand's CPU is measured alone (the time ``iter_hands`` takes to yield
    it, lines already in memory, the cyclic collector paused as in the parse workers);
    every file of every site is parsed in one list, in a new random order each of
    ``rounds`` rounds, so the machine's load, which moves from second to second, falls on
    every site alike; each hand's figure is its median.  PokerStars' cost a hand is fitted
    as a + b x events (least squares over its stored hands); a site's ratio is its stored
    hands' CPU over what PokerStars spends on hands of the same event counts.  Rejected
    hands (a few lines read, then a reason) are left out of the ratios.  Before its timed
    pass each file is parsed untimed, as many passes as it takes to read ``warm_hands``
    hands (one pass of a long file), so that a short file's hands are timed as warm as a
    long file's: after one pass of a one-hand file its hand read some 15% dearer than
    after five (the branch predictors and caches still held the other sites' paths;
    bench/README.md, "Winamax: the euro's 2-byte lines"), and most of the other sites'
    corpus files are short, PokerStars' long.

    Then the same ratios apart for each site's 1-byte and wide hands (``_wide``: lines
    holding the euro are 2-byte strings, dearer for any parser), with PokerStars' parser
    timed on its own cash files too (``STARS_CASH``): a wide hand's yardstick is the fit
    times what PokerStars' own wide hands cost it.  With ``ipoker``, its XML floor
    (``_xml_floor``)."""
    import gc
    import random
    import statistics

    from parsers import all_parsers, iter_lines, open_source
    from parsers._native import running_description
    from parsers.base import ParsedHand

    # wpn-legacy only counts and rejects its hands: it is no parse rate
    parsers = [p for p in all_parsers() if p.name not in ("phh", "wpn-legacy")
               and (not names or p.name in names or p.name == "pokerstars")]
    fpdb = CORPUS / "fpdb"
    # PokerStars' cash files, read by the same parser: its own hands with the euro on every
    # amount line, the yardstick for the sites' wide hands (below)
    stars_parser = next(p for p in parsers if p.name == "pokerstars")
    files: dict[str, list[tuple[list[tuple[int, int, str]], str]]] = {p.name: [] for p in parsers}
    files[STARS_CASH] = []
    for root, dirs, found in os.walk(fpdb):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(found):
            path = Path(root, name)
            if name.startswith("."):
                continue
            try:
                info = open_source(path)
            except OSError:
                continue
            for p in parsers:
                # PokerStars is measured on its tournament files, the shape the other sites are compared with
                if p.detect(info.head, str(path)):
                    key = p.name if p.name != "pokerstars" or "tour/Stars" in str(path) else STARS_CASH
                    files[key].append((list(iter_lines(path, info.encoding)), str(path)))
                    break
    by_key = {p.name: p for p in parsers} | {STARS_CASH: stars_parser}
    jobs = [(key, k) for key in files for k in range(len(files[key]))]
    times: dict[tuple[str, int], list[list[int]]] = {job: [] for job in jobs}
    # (events, lines, wide) of each stored hand
    shape: dict[tuple[str, int], list[tuple[int, int, bool] | None]] = {}
    clock = time.process_time_ns
    for r in range(rounds):
        random.Random(r).shuffle(jobs)
        gc.collect()
        gc.disable()
        try:
            for key, k in jobs:
                p = by_key[key]
                lines, path = files[key][k]
                # passes first, untimed: the file's code and data in the caches, as in the
                # middle of a long file (the sites' corpus files are short, PokerStars' long)
                read = 0
                for _ in range(max(1, warm_hands)):
                    for _ in p.iter_hands(iter(lines), path):
                        read += 1
                    if read >= warm_hands or read == 0:
                        break
                hands = p.iter_hands(iter(lines), path)
                spent = []
                while True:
                    t = clock()
                    try:
                        h = next(hands)
                    except StopIteration:
                        break
                    spent.append(clock() - t)
                    if r == 0:
                        shape.setdefault((key, k), []).append(
                            (len(h.events), h.last_line - h.first_line + 1, _wide(lines, h))
                            if isinstance(h, ParsedHand) else None)
                times[(key, k)].append(spent)
        finally:
            gc.enable()
    # per site: (events, lines, median microseconds) of each stored hand, and whether it is wide
    hands_of: dict[str, list[tuple[int, int, float]]] = {key: [] for key in files}
    wide_of: dict[str, list[bool]] = {key: [] for key in files}
    for key, k in sorted(jobs):
        for sh, per_round in zip(shape.get((key, k), []), zip(*times[(key, k)])):
            if sh is not None:
                hands_of[key].append((sh[0], sh[1], statistics.median(per_round) / 1000))
                wide_of[key].append(sh[2])
    stars = hands_of["pokerstars"]
    n = len(stars)
    mean_ev = sum(e for e, _, _ in stars) / n
    mean_us = sum(t for _, _, t in stars) / n
    slope = (sum((e - mean_ev) * (t - mean_us) for e, _, t in stars)
             / sum((e - mean_ev) ** 2 for e, _, _ in stars))
    fixed = mean_us - slope * mean_ev
    stars_per_event = sum(t for _, _, t in stars) / sum(e for e, _, _ in stars)
    print(f"\nmodules (mypyc): {running_description()}")
    print(f"parse cost per site (corpus files, the CPU of each stored hand, median of {rounds} rounds in random "
          f"order, each file timed after {warm_hands} hands of it read untimed); "
          f"PokerStars: {fixed:.0f} us + {slope:.2f} us an event")
    print(f"{'site':15} {'files':>5} {'hands':>6} {'ev/hand':>7} {'lines/h':>7} {'us/hand':>8} {'us/event':>8} "
          f"{'us/line':>7}  {'vs PokerStars, same events':>26}  {'a event':>7}")
    keys = [p.name for p in parsers] + [STARS_CASH]
    for key in keys:
        rows = hands_of[key]
        if not rows:
            print(f"{key:15} no stored hand in the corpus")
            continue
        h = len(rows)
        ev, ln, us = (sum(r[i] for r in rows) for i in range(3))
        same_length = us / sum(fixed + slope * e for e, _, _ in rows)
        print(f"{key:15} {len(files[key]):>5} {h:>6} {ev / h:>7.1f} {ln / h:>7.1f} {us / h:>8.0f} {us / ev:>8.2f} "
              f"{us / ln:>7.2f}  {same_length:>25.2f}x  {us / ev / stars_per_event:>6.2f}x")
    # the same ratio apart for the hands of 1-byte text and the wide ones (most of their lines
    # hold a character beyond Latin-1, the euro: Python keeps such a line 2 bytes a character,
    # and every slice, search and match of it costs more, whoever parses it)
    def ratio(rows: list[tuple[int, int, float]], factor: float = 1.0) -> float | None:
        return sum(t for _, _, t in rows) / sum(factor * (fixed + slope * e) for e, _, _ in rows) if rows else None

    def apart(key: str, wide: bool) -> list[tuple[int, int, float]]:
        return [r for r, w in zip(hands_of[key], wide_of[key]) if w == wide]

    # PokerStars' own wide hands against its fit: what the width costs its parser, the
    # yardstick of the other sites' wide hands in the last column
    wide_factor = ratio(apart(STARS_CASH, True))
    print(f"\nby text width (wide: a quarter or more of a hand's lines hold a character beyond Latin-1, "
          f"the euro); {STARS_CASH}: PokerStars' parser on its own cash files, whose wide hands read at "
          + (f"{wide_factor:.2f}x its fit: the yardstick of a wide hand in the last column" if wide_factor else
             "(none in the corpus)"))
    print(f"{'site':15} {'1-byte hands':>12} {'vs PokerStars':>13} {'wide hands':>10} {'vs PokerStars':>13}  "
          f"{'vs PokerStars, same events and width':>36}")
    fmt = lambda x: f"{x:>12.2f}x" if x is not None else f"{'-':>13}"  # noqa: E731
    for key in keys:
        if not hands_of[key]:
            continue
        narrow, wide = apart(key, False), apart(key, True)
        both = None
        if wide_factor or not wide:
            both = (sum(t for _, _, t in hands_of[key])
                    / sum((wide_factor if w else 1.0) * (fixed + slope * e) for (e, _, _), w in zip(hands_of[key], wide_of[key])))
        print(f"{key:15} {len(narrow):>12} {fmt(ratio(narrow))} {len(wide):>10} {fmt(ratio(wide))}  {fmt(both):>36}")
    if files.get("ipoker") and hands_of["ipoker"]:
        _xml_floor(files["ipoker"], hands_of["ipoker"], fixed, slope, rounds)
    sys.stdout.flush()


STARS_CASH = "pokerstars-cash"  # --sites' row of PokerStars' cash files (the yardstick is its tournament files)


def _wide(lines: list[tuple[int, int, str]], hand) -> bool:
    """Whether a quarter or more of the hand's lines hold a character beyond Latin-1 (a str
    of 2 bytes a character): a cash hand writing the euro with its amounts (some 30 to 70% of
    its lines on the corpus), not a tournament naming it in its header and table line (under
    20%).  ``lines``: the whole file's, numbered from 1."""
    seg = lines[hand.first_line - 1:hand.last_line]
    return 4 * sum(1 for _, _, t in seg if t and max(t) > "\xff") >= len(seg)


def _xml_floor(files: list[tuple[list[tuple[int, int, str]], str]], games: list[tuple[int, int, float]],
               fixed: float, slope: float, rounds: int) -> None:
    """What reading iPoker's XML costs before the reader does anything: expat, set up as
    ``parsers.ipoker`` sets it up, fed the same lines, its start and end handlers C no-ops
    (a dict's ``__setitem__`` and a list's ``append``), so each element's name and
    attributes are made into Python strings and handed over, and nothing more.  Printed
    beside PokerStars' cost on hands of the iPoker games' event counts: the floor under
    any reader of the format that looks at its attributes.  CPU of each file's pass
    (after an untimed one), median of ``rounds``; over every game of the files, where
    the ratios above count stored games only (a few more, so the floor reads a little high)."""
    import gc
    import statistics
    import xml.parsers.expat as expat

    def read(lines: list[tuple[int, int, str]]) -> None:
        parser = expat.ParserCreate(namespace_separator="}", intern=None)
        parser.ordered_attributes = True
        started: dict[str, list[str]] = {}
        ended: list[str] = []
        parser.StartElementHandler = started.__setitem__
        parser.EndElementHandler = ended.append
        try:
            for _, _, text in lines:
                parser.Parse(text, False)
        except expat.ExpatError:
            pass  # the reader resyncs past a broken game; the floor stops there

    spent = []
    clock = time.process_time_ns
    gc.disable()
    try:
        for lines, _ in files:
            read(lines)
            per_round = []
            for _ in range(rounds):
                t = clock()
                read(lines)
                per_round.append(clock() - t)
            spent.append(statistics.median(per_round) / 1000)
    finally:
        gc.enable()
    stars_same = sum(fixed + slope * e for e, _, _ in games)
    print(f"ipoker's XML alone (expat handing each element to C no-op handlers): {sum(spent) / len(games):.0f} us a game, "
          f"{sum(spent) / stars_same:.2f}x PokerStars on hands of the same events")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10000], help="PokerStars input sizes in hands")
    ap.add_argument("--no-phh", action="store_true", help="skip the PHH corpus run")
    ap.add_argument("--phh-sizes", type=int, nargs="*", default=[],
                    help="also PHH inputs of these many hands (the corpus files replicated)")
    ap.add_argument("--stages-max", type=int, default=100_000, help="above this many hands, skip the per-stage runs")
    ap.add_argument("--ingest-max", type=int, default=None,
                    help="above this many hands stored (the 1M input stores 1,001,902), skip the ingest-alone run "
                         "(the coordinator's CPU a hand; some 25 minutes at 10M)")
    ap.add_argument("--reference-max", type=int, default=20_000,
                    help="run pokerkit (about 200 hands/s) on at most this many hands, spread over the same input")
    ap.add_argument("--sites", nargs="*", default=None,
                    help="each site's parse rate on its corpus files (names: parsers.PARSERS; none given: all), then stop")
    ap.add_argument("--warm-hands", type=int, default=WARM_HANDS,
                    help="--sites: hands each file is read untimed before its timed pass (passes of a short file; "
                         "1: one pass, the measure before 2026-11-27)")
    ap.add_argument("--dask", choices=["local"], default=None,
                    help="run the end-to-end audit on a Dask LocalCluster of the machine's cores (tda-audit audit --dask local)")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"the corpus is not at {CORPUS}")
    if args.sites is not None:
        site_rates(args.sites, warm_hands=args.warm_hands)
        return
    _adopt_orphans()
    from parsers._native import running_description  # the figures depend on it: say which copy runs

    print("modules (mypyc): " + running_description()
          + ("" if os.environ.get("TDA_AUDIT_PURE") != "1" else "  (TDA_AUDIT_PURE=1)"))
    for n in args.sizes:
        bench(f"PokerStars tournament text, {n:,} hands", build_stars(n), POKERKIT_STARS, args.stages_max, args.reference_max,
              10_000, args.dask, args.ingest_max)
    if not args.no_phh:
        bench("PHH corpus", CORPUS / "phh", POKERKIT_PHH, args.stages_max, args.reference_max, None, args.dask, args.ingest_max)
    for n in args.phh_sizes:
        bench(f"PHH, {n:,} hands", build_phh(n), POKERKIT_PHH, args.stages_max, args.reference_max, None, args.dask,
              args.ingest_max)


if __name__ == "__main__":
    main()
