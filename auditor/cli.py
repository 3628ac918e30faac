"""The ``tda-audit`` command line: a small click CLI over one DuckDB file."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from typing import NoReturn

import click
import duckdb

from auditor import __version__
from auditor.store import DB_ENV, DEFAULT_DB, StoreError
from replay.editions import DEFAULT_EDITION, EDITIONS

DB_OPTION = click.option(
    "--db",
    envvar=DB_ENV,
    default=DEFAULT_DB,
    show_default=True,
    type=click.Path(dir_okay=False),
    help=f"DuckDB store file (also ${DB_ENV}).",
)


DASK_OPTION = click.option(
    "--dask", "dask", default=None, metavar="local|tcp://HOST:PORT",
    help="Run parsing, replay and the table checks on Dask workers: 'local' starts a cluster of this machine's cores (--jobs "
         "processes if given), tcp://HOST:PORT joins a running scheduler.  Inputs must be on storage every worker "
         "reads at the same path (README: Running on several machines).  Needs pip install 'tda-auditor[dask]'.")


@contextmanager
def dask_cluster(spec: str | None, jobs: int | None):
    """The ``distributed.Client`` for --dask (None without it), or exit 2 with why."""
    if spec is None:
        yield None
        return
    from auditor.execution import DaskError, connect

    try:
        with connect(spec, jobs) as client:
            yield client
    except DaskError as e:
        fail(str(e))


def fail(msg: str) -> NoReturn:
    click.echo(f"Error: {msg}", err=True)
    sys.exit(2)


def cannot_write(out, e: Exception) -> str:
    """One line on why ``out`` cannot be written (an OSError's reason, or DuckDB's first line)."""
    why = e.strerror if isinstance(e, OSError) and e.strerror else str(e).splitlines()[0]
    return f"cannot write {out}: {why}"


def input_files(paths: tuple[str, ...]) -> list:
    """The files named by PATHS (folders recursively, globs), or exit 2 with why."""
    from auditor.ingest import InputError, expand_paths

    unreadable: list[tuple[str, str]] = []
    try:
        files = expand_paths(paths, unreadable)
    except InputError as e:
        fail(str(e))
    if not files:
        fail(f"cannot read the folder {unreadable[0][0]}: {unreadable[0][1]}" if unreadable
             else f"no files found in {' '.join(paths)}")
    return files


def file_progress(files: list, quiet: bool):
    """A progress bar over files on stderr, when it is a terminal."""
    if quiet or not sys.stderr.isatty():
        return _null()
    return click.progressbar(length=len(files), label="ingesting", file=sys.stderr)


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from parsers._native import running_description  # the speed depends on it (README: Large inputs)

    click.echo(f"tda-audit {__version__} ({running_description()})")
    ctx.exit()


class _Commands(click.Group):
    """The command group: a DuckDB query that outgrows the store's memory bound, or a
    worker process that ends abruptly, is an error with its remedy, not a traceback
    (what was committed before it stays)."""

    def invoke(self, ctx: click.Context):
        from concurrent.futures.process import BrokenProcessPool

        try:
            return super().invoke(ctx)
        except BrokenProcessPool:
            # a worker killed (by a signal, or by the system when memory ran out): its unit
            # was never committed, and the next run's recovery deletes what it wrote
            fail("a worker process ended abruptly (killed, or out of memory). What was committed before is "
                 "kept; run the command again to store the rest (with --jobs 1 if memory is short).")
        except duckdb.OutOfMemoryException as e:
            from auditor.checks import WORKER_MEMORY
            from auditor.store import MEMORY_ENV, configured_memory

            bound = configured_memory() if os.environ.get(MEMORY_ENV) else \
                f"{configured_memory()} in this process, {WORKER_MEMORY} in an ingest worker"
            fail(f"DuckDB needed more memory than its bound of {bound} ({str(e).splitlines()[0]}). "
                 f"What was committed before is kept; run the command again with a larger bound, "
                 f"e.g. {MEMORY_ENV}=2GB.")


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version, and whether the parsers and the engine run compiled, and exit.")
def main() -> None:
    """Audit poker hand histories against the Poker TDA rules.

    \b
    Typical use:
      tda-audit audit histories/           # ingest, replay and check: the main job
      tda-audit findings --check odd-chip  # list what was found
      tda-audit rules                      # the checks and the rules they cite

    Step by step: ingest -> replay -> check -> findings.
    """


FAIL_ON_REJECTED = click.option(
    "--fail-on-rejected", is_flag=True,
    help="Exit 2 when any hand was rejected, or any file or lines of one not read (the rest is stored, and "
         "judged, first): evidence that was not judged.")


@main.command()
@click.argument("paths", nargs=-1, required=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--jobs", type=int, default=None, help="Worker processes for parsing (default: all cores).")
@click.option("--progress-json", is_flag=True,
              help="After each commit, print one JSON line to stderr: files done, hands seen, stored, duplicates, rejected.")
@DASK_OPTION
@FAIL_ON_REJECTED
def ingest(paths: tuple[str, ...], db: str, as_json: bool, quiet: bool, jobs: int | None, progress_json: bool,
           dask: str | None, fail_on_rejected: bool) -> None:
    """Read hand histories (files, folders, globs) into the event log.

    \b
    Examples:
      tda-audit ingest sample_histories/
      tda-audit ingest 'downloads/**/*.txt' --db event.duckdb --json
    """
    from auditor.ingest import ingest as run_ingest

    def committed(s) -> None:
        line = {"committed": True, "files": s.files, "hands_seen": s.hands_seen, "hands": s.stored,
                "duplicates": s.duplicates, "rejected": s.rejected}
        click.echo(json.dumps(line), err=True)
        sys.stderr.flush()

    files = input_files(paths)
    with dask_cluster(dask, jobs) as cluster, file_progress(files, quiet or as_json or progress_json) as bar:
        try:
            # the paths, not the files listed for the bar: ingest lists them again and
            # reports the folders it cannot read
            summary = run_ingest(paths, db=db, progress=lambda r: bar.update(1), jobs=jobs,
                                 on_commit=committed if progress_json else None, cluster=cluster)
        except StoreError as e:
            fail(str(e))
    if as_json:
        click.echo(json.dumps(summary.as_json(), indent=2))
    else:
        print_ingest_summary(summary)
    if summary.nothing_read or fail_on_rejected and _dropped(summary):
        sys.exit(2)


def _dropped(summary) -> bool:
    """Whether a hand was rejected, a file not read, or lines of a file left unread (--fail-on-rejected)."""
    return bool(summary.errors or summary.files_not_read())  # (each rejected hand has its error)


def print_ingest_summary(summary) -> None:
    from parsers.base import NOT_HANDS

    click.echo(
        f"files {summary.files}  hands seen {summary.hands_seen}: stored {summary.stored}, "
        f"duplicates {summary.duplicates}, rejected {summary.rejected}  ({summary.seconds:.2f}s)"
    )
    for r in summary.file_results:
        if r.error:
            click.echo(f"  not read: {r.path}: {r.error}", err=True)
    for e in summary.errors[:20]:
        if e["line"]:
            # lines that are no hand (junk after the last one) are not read, not a rejected hand
            what = "not read" if e["reason_code"] in NOT_HANDS else "rejected"
            click.echo(f"  {what}: {e['file']}:{e['line']}: {e['reason_code']}: {e['reason']}", err=True)
    if len(summary.errors) > 20:
        click.echo(f"  ... and {len(summary.errors) - 20} more (see the ingest_errors table)", err=True)


def echo_audit_json(result, db: str) -> None:
    """The audit's JSON object, its findings streamed from the store one at a time
    (there may be hundreds of thousands)."""
    from auditor.pipeline import finding_json, iter_findings
    from auditor.store import connect

    obj = result.as_json()
    obj["findings"] = "@findings@"
    head, tail = json.dumps(obj, indent=2, default=str).split('"@findings@"')
    click.echo(head + "[", nl=False)
    con = connect(db, read_only=True)
    try:
        for i, f in enumerate(iter_findings(con, result.edition)):
            item = json.dumps(finding_json(f), indent=2, default=str).replace("\n", "\n    ")
            click.echo(("," if i else "") + "\n    " + item, nl=False)
    finally:
        con.close()
    click.echo("\n  ]" + tail)


RULES_OPTION = click.option(
    "--rules",
    "edition_name",
    type=click.Choice(EDITIONS),
    default=DEFAULT_EDITION,
    show_default=True,
    help="TDA edition to judge the hands by.",
)
SEVERITY_LEVELS = ("info", "warning", "error")
CATEGORY_CHOICES = ("violation", "departure", "record")
HOUSE_OPTION = click.option(
    "--house", default="auto", show_default=True, metavar="auto|none|NAME|FILE",
    help="House-rule profile: auto applies each site's shipped profile to the hands of that site (see 'tda-audit "
         "rules'); none judges by the TDA edition alone; NAME a shipped profile (pokerstars, phh); FILE a profile TOML. "
         "A finding that followed the house's declared policy becomes a departure.")


@main.command()
@click.argument("paths", nargs=-1, required=True)
@DB_OPTION
@RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: hands, rejected, findings, ...")
@click.option("--fail-on", type=click.Choice(SEVERITY_LEVELS), default=None,
              help="Exit 1 when violations at or above this severity exist (departures and record findings do not "
                   "count unless --fail-category names them).")
@click.option("--fail-category", "fail_categories", type=click.Choice(CATEGORY_CHOICES), multiple=True,
              help="Categories --fail-on counts (repeatable; default: violation). E.g. --fail-category violation "
                   "--fail-category record.")
@HOUSE_OPTION
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--jobs", type=int, default=None, help="Worker processes for parsing and replay (default: all cores).")
@DASK_OPTION
@FAIL_ON_REJECTED
def audit(paths, db, edition_name, as_json, fail_on, fail_categories, house, quiet, jobs, dask, fail_on_rejected):
    """Ingest PATHS, replay every stored hand under the chosen TDA edition, run every
    check, and summarise the findings.  Exit 0 when the audit completes, whatever it
    found; 1 with --fail-on when findings reach that severity; 2 for bad input
    (with --fail-on-rejected, also when any hand was rejected or file not read).

    \b
    Examples:
      tda-audit audit sample_histories/
      tda-audit audit event/*.txt --rules tda-2013 --json > findings.json
      tda-audit audit histories/ --fail-on error
      tda-audit audit histories/ --fail-on warning --fail-category violation --fail-category record
      tda-audit audit histories/ --house none      # bare TDA: no house profile
    """
    from auditor.house import HouseError, choose
    from auditor.pipeline import audit as run_audit

    try:
        choose(house)
    except HouseError as e:
        fail(str(e))
    files = input_files(paths)
    with dask_cluster(dask, jobs) as cluster, file_progress(files, quiet or as_json) as bar:
        try:
            result = run_audit(paths, db=db, edition_name=edition_name, progress=lambda r: bar.update(1), jobs=jobs,
                               keep_findings=False, house=house, cluster=cluster)
        except StoreError as e:
            fail(str(e))
    total = result.findings_total
    if as_json:
        echo_audit_json(result, db)
    else:
        print_ingest_summary(result.ingest)
        r = result.replay
        click.echo(f"replayed {r.hands} hands under {r.edition} ({r.decisions} decisions, {r.pots} pots, {r.notes} replay notes)")
        by_cat = result.findings_by_category
        click.echo(f"findings {total}: " + ", ".join(f"{by_cat.get(c, 0)} {c}s" for c in CATEGORY_CHOICES)
                   + f" (house: {result.house['text'] if result.house else 'none recorded'})")
        for check_id, n in sorted(result.findings_by_check.items()):
            if n:
                click.echo(f"  {check_id:20} {n}")
        for f in result.findings[:10]:
            click.echo(f"  {f['hand_id']} {f['check_id']} {f['category']} (rule {f['rule']}): {f['message']}  "
                       f"[{f['source_path']}:{f['line_no']}]")
        if total > 10:
            click.echo(f"  ... {total - 10} more: tda-audit findings --db {db}")
    if result.ingest.nothing_read or fail_on_rejected and _dropped(result.ingest):
        sys.exit(2)  # nothing given was a history this tool reads, as for ingest (or some was not, asked to fail)
    counted = set(fail_categories or ("violation",))
    worst = [s for (c, s), n in result.findings_by_category_severity.items() if n and c in counted]
    if fail_on and any(SEVERITY_LEVELS.index(s) >= SEVERITY_LEVELS.index(fail_on) for s in worst):
        sys.exit(1)


@main.command()
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the counts as one JSON object.")
def compact(db, as_json):
    """Merge the store's small Parquet segments (one per unit of ingest work and
    table) into larger ones.  What every table and view holds stays the same.

    \b
    Example:
      tda-audit compact --db audit.duckdb
    """
    from auditor import segments
    from auditor.store import connect, segments_root

    try:
        con = connect(db, must_exist=True)
    except StoreError as e:
        fail(str(e))
    try:
        r = segments.compact(con, segments_root(con))
    finally:
        con.close()
    if as_json:
        click.echo(json.dumps({"segments_before": r.segments_before, "segments_after": r.segments_after, "rows": r.rows}))
    else:
        click.echo(f"{r.segments_before} segments merged into {r.segments_after} ({r.rows} rows)")


@main.command()
@DB_OPTION
@RULES_OPTION
@click.option("--raise-cap", type=click.IntRange(min=1), default=4, show_default=True,
              help="Fixed-limit bets and raises allowed per round (house rule).")
@click.option("--jobs", type=int, default=None, help="Worker processes for the replay (default: all cores).")
@DASK_OPTION
def replay(db, edition_name, raise_cap, jobs, dask):
    """Rebuild the replay facts (decisions, pots, pot_shares, hand_results,
    replay_notes) for every stored hand.  Idempotent.

    \b
    Example:
      tda-audit replay --rules tda-2011
    """
    from auditor.store import connect
    from auditor.facts import replay_store

    try:
        con = connect(db, must_exist=True)
    except StoreError as e:
        fail(str(e))
    (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
    show = sys.stderr.isatty()
    with dask_cluster(dask, jobs) as cluster, \
            click.progressbar(length=n, label="replaying", file=sys.stderr) if show else _null() as bar:
        r = replay_store(con, edition_name, raise_cap=raise_cap, progress=bar.update, jobs=jobs, cluster=cluster)
    con.close()
    click.echo(f"replayed {r.hands} hands under {r.edition}: {r.decisions} decisions, {r.pots} pots, {r.notes} replay notes ({r.seconds:.2f}s)")


@main.command()
@DB_OPTION
@RULES_OPTION
@click.option("--check", "check_ids", multiple=True, help="Run only this check (repeatable); the award checks (odd-chip, side-pot, wrong-winner, "
                   "chip-conservation) share their work and run together.")
@HOUSE_OPTION
def check(db, edition_name, check_ids, house):
    """Run the checks over the replay facts in the store and record the findings.

    \b
    Examples:
      tda-audit check
      tda-audit check --check odd-chip --check side-pot
    """
    from auditor import house as house_rules
    from auditor.checks import run_checks
    from auditor.store import connect

    try:
        house_rules.choose(house)
    except house_rules.HouseError as e:
        fail(str(e))
    _known_checks(check_ids)
    try:
        con = connect(db, must_exist=True)
    except StoreError as e:
        fail(str(e))
    from auditor.store import replay_state

    state = replay_state(con, edition_name)
    if state != "complete":
        con.close()
        why = {"in-progress": "were interrupted part-way", "stale": "do not cover hands ingested since"}.get(
            state, "do not exist")
        fail(f"the replay facts for {edition_name} in {db} {why}: run 'tda-audit replay --rules {edition_name}' first")
    counts = run_checks(con, edition_name, list(check_ids) or None, house=house)
    con.close()
    click.echo(f"findings under {edition_name}:")
    for cid, n in sorted(counts.items()):
        click.echo(f"{cid:20} {n}")


@main.command()
@DB_OPTION
@click.option("--rules", "edition_name", type=click.Choice(EDITIONS), default=None, help="Only findings under this edition.")
@click.option("--check", "check_ids", multiple=True, help="Only this check (repeatable).")
@click.option("--hand", "hand_ids", multiple=True, help="Only this hand id (repeatable).")
@click.option("--tournament", "tournaments", multiple=True, help="Only this tournament id (repeatable).")
@click.option("--severity", type=click.Choice(SEVERITY_LEVELS), default=None, help="Only findings at or above this severity.")
@click.option("--category", "categories", type=click.Choice(CATEGORY_CHOICES), multiple=True,
              help="Only findings of this category (repeatable): violation, departure, record.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
def findings(db, edition_name, check_ids, hand_ids, tournaments, severity, categories, fmt):
    """List recorded findings.

    \b
    Examples:
      tda-audit findings --severity error
      tda-audit findings --category violation
      tda-audit findings --check side-pot --format json
      tda-audit findings --hand PS-900000000003 --format csv
    """
    from auditor.pipeline import fetch_findings, finding_json
    from auditor.store import connect

    _known_checks(check_ids)
    try:
        con = connect(db, read_only=True)
    except StoreError as e:
        fail(str(e))
    hand_ids = tuple(_one_hand(con, db, h) for h in hand_ids)  # as 'explain' reads a HAND
    missing = [t for t in tournaments
               if not con.execute("SELECT count(*) FROM hands WHERE tournament_id = ?", [t]).fetchone()[0]]
    if missing:
        con.close()
        fail(f"no tournament {', '.join(map(repr, missing))} in {db}")
    conds, params = [], []
    for col, vals in (("check_id", check_ids), ("hand_id", hand_ids), ("tournament_id", tournaments),
                      ("category", categories)):
        if vals:
            conds.append(f"{col} IN ({', '.join('?' * len(vals))})")
            params += list(vals)
    if severity:
        allowed = SEVERITY_LEVELS[SEVERITY_LEVELS.index(severity):]
        conds.append(f"severity IN ({', '.join('?' * len(allowed))})")
        params += list(allowed)
    rows = fetch_findings(con, edition_name, " AND ".join(conds), params)
    if edition_name:
        _warn_gaps(con, [edition_name])
    else:  # every edition the store was replayed under, else the default one
        replayed = [r[0] for r in con.execute(
            "SELECT substr(key, 8) FROM meta WHERE key LIKE 'replay:%' ORDER BY 1").fetchall()]
        _warn_gaps(con, replayed or [DEFAULT_EDITION])
    con.close()
    if fmt == "json":
        click.echo(json.dumps([finding_json(f) for f in rows], indent=2, default=str))
    elif fmt == "csv":
        import csv

        from collections import defaultdict

        # the same columns with no rows: a script's column look-ups still work
        w = csv.DictWriter(sys.stdout, fieldnames=list(finding_json(defaultdict(lambda: None)).keys()))
        w.writeheader()
        for f in rows:
            w.writerow(finding_json(f))
    else:
        if not rows:
            click.echo("no findings")
        for f in rows:
            click.echo(
                f"{f['hand_id']}  {f['check_id']}  {f['category']}  {f['severity']}  {f['edition']} rule {f['rule']} ({f['rule_title']})\n"
                f"    {_where(f)}: expected {f['expected']}, actual {f['actual']}\n"
                f"    {f['message']}\n    {f['source_path']}:{f['line_no']}"
                + (f"\n    {f['category']}: {f['category_basis']}" if f['category_basis'] else "")
            )


@main.command()
@click.option("--rules", "edition_name", type=click.Choice(EDITIONS), default=DEFAULT_EDITION, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def rules(edition_name, as_json):
    """List the checks with the rules they cite in an edition, their default category,
    and the house-rule profiles with their policies and sources.

    \b
    Examples:
      tda-audit rules
      tda-audit rules --rules tda-2011 --json
    """
    from auditor.catalog import EDITION_FILES, citation
    from auditor.checks import load_checks

    out = []
    for c in load_checks():
        cites = citation(c.check_id, edition_name)
        out.append({
            "check": c.check_id,
            "title": c.title,
            "severity": c.severity,
            "category": c.category,
            "edition": edition_name,
            "runs": any(not x.missing for x in cites),
            "citations": [
                {"rule": x.ref, "title": x.title, "quote": x.quote, "note": x.note} if not x.missing else {"missing": True, "note": x.note}
                for x in cites
            ],
            "sql": str(c.path.relative_to(c.path.parent.parent.parent)),
        })
    from auditor.house import POLICIES, load_profiles

    profiles = load_profiles()
    if as_json:
        # the checks, as before, and the house-rule profiles (--house)
        click.echo(json.dumps({"checks": out, "house_profiles": [p.as_json() for p in profiles]}, indent=2, default=str))
        return
    click.echo(f"rules of {edition_name} ({EDITION_FILES[edition_name]}):")
    for r in out:
        refs = "; ".join(f"{x['rule']} {x['title']}" for x in r["citations"] if not x.get("missing")) or "no rule in this edition (check does not run)"
        click.echo(f"{r['check']:20} {r['severity']:8} {r['category']:9} {refs}")
    click.echo("\nhouse-rule profiles (tda-audit audit --house auto|none|NAME|FILE; auto applies a site's profile to its hands):")
    for p in profiles:
        click.echo(f"  {p.name:12} {p.title} ({p.path.name}), sites: {', '.join(p.sites)}")
        for x in p.policies:
            judged = f"; judged by {POLICIES[x.name][2]}" if POLICIES[x.name][2] else "; no check judges it"
            click.echo(f"    line {x.line:<3} {x.name} = {json.dumps(x.value)}{x.era()}  [{x.source}{judged}]")
        if not p.policies:
            click.echo("    no policy declared (no evidence for one): its hands are judged by the TDA edition alone")


# --- reports: report, explain, export, query (reports/; docs/reports.md) ----------------

REPORT_RULES_OPTION = click.option(
    "--rules",
    "edition_name",
    type=click.Choice(EDITIONS),
    default=None,
    help=f"TDA edition of the findings and facts to show (default: {DEFAULT_EDITION} if the store was audited under it, "
         "else the edition it was audited under).",
)


def _progress(enabled: bool):
    """A progress callback writing stages to stderr when it is a terminal."""
    import time

    t0 = time.perf_counter()
    if not (enabled and sys.stderr.isatty()):
        return None
    return lambda stage: click.echo(f"  [{time.perf_counter() - t0:5.1f}s] {stage}", err=True)


def _open_report_store(db, edition_name):
    from reports.data import open_store

    try:
        con, ed = open_store(db, edition_name)
    except StoreError as e:
        fail(str(e))
    _warn_gaps(con, [ed])
    return con, ed


def _known_checks(check_ids) -> None:
    """A usage error for a check id no check has (a typo must not read as 'no findings')."""
    from auditor.checks import load_checks

    known = {c.check_id for c in load_checks()}
    unknown = [c for c in check_ids if c not in known]
    if unknown:
        fail(f"unknown check {', '.join(unknown)}; see 'tda-audit rules'")


def _where(f: dict) -> str:
    """'flop, seat 3 Ann', or the street alone for a finding about the whole hand."""
    if f["seat"] is None:
        return f"{f['street']}" + (f", {f['player']}" if f["player"] else "")
    return f"{f['street']}, seat {f['seat']}" + (f" {f['player']}" if f["player"] else "")


def _one_hand(con, db, hand: str) -> str:
    """The hand id a HAND argument names (an id, the site's hand number, or the end of an
    id: reports.data.resolve_hand), or a usage error naming what it matched."""
    from reports.data import resolve_hand

    ids = resolve_hand(con, hand)
    if len(ids) == 1:
        return ids[0]
    con.close()
    if not ids:
        fail(f"no hand {hand!r} in {db}")
    more = "1,000 or more" if len(ids) >= 1000 else str(len(ids))
    fail(f"{hand!r} matches {more} hands ({', '.join(ids[:5])}{', ...' if len(ids) > 5 else ''}); give the full id")


def _warn_gaps(con, editions) -> None:
    """Say on stderr, for each edition read, why its findings do not judge every stored
    hand (auditor.checks.findings_gap): never audited under it, hands stored since, a run
    interrupted.  Findings read from such a store are not a clean audit."""
    from auditor.checks import findings_gap

    for ed in editions:
        gap = findings_gap(con, ed)
        if gap:
            click.echo(f"warning: {gap}", err=True)


@main.command()
@DB_OPTION
@REPORT_RULES_OPTION
@click.option("--out", "-o", default="audit.html", show_default=True, type=click.Path(dir_okay=False),
              help="HTML file to write ('-' for standard output).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def report(db, edition_name, out, quiet):
    """Write ONE self-contained HTML audit report of the store: provenance (tool
    version, edition, store, every source file with its sha256 and hand count), an
    executive summary, charts, the findings table (sort, filter, page) and, per
    finding, its evidence: the hand as a timeline with the offending action
    highlighted, what the rule required and the rule's text from the edition.

    The file needs no network: CSS, SVG charts, script and data are inline.

    \b
    Examples:
      tda-audit audit histories/ && tda-audit report -o audit.html
      tda-audit report --db event.duckdb --rules tda-2013 --out case-1234.html
    """
    from reports.html import build, write

    try:
        page, stats = build(db, edition_name, progress=_progress(not quiet and out != "-"))
    except StoreError as e:
        fail(str(e))
    if out == "-":
        click.echo(page)
        return
    try:
        write(out, page)
    except OSError as e:
        fail(cannot_write(out, e))
    click.echo(f"wrote {out}: {stats['findings']} findings in {stats['hands']} hands under {stats['edition']}, "
               f"{stats['bytes'] / 1024:.0f} KiB ({stats['seconds']:.2f}s)")


@main.command()
@click.argument("hand")
@DB_OPTION
@REPORT_RULES_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "md", "html", "json"]), default="text", show_default=True)
@click.option("--out", "-o", default=None, type=click.Path(dir_okay=False), help="Write to this file instead of standard output.")
def explain(hand, db, edition_name, fmt, out):
    """Show the evidence for one HAND: its findings, what each rule required and the
    rule's text, and the hand as a timeline (stack, pot, amount to call, minimum
    raise-to and whether betting was open at every action; >> marks the offending
    action).  HAND is a hand id (PS-900000000201), the site's hand number, or the
    end of an id.  --format html writes the hand's dossier: one offline page with
    the hand in one line, its findings, the hand replayed on a drawn table step by
    step (the rules' facts at every action) and this hand's provenance.

    \b
    Examples:
      tda-audit explain PS-900000000201
      tda-audit explain 900000000203 --format md > hand.md
      tda-audit explain PS-900000000207 --format html -o hand.html
      tda-audit explain PS-900000000205 --format json
    """
    from reports import explain as ex
    from reports.data import hand_evidence

    con, ed = _open_report_store(db, edition_name)
    ids = [_one_hand(con, db, hand)]
    if fmt == "html":
        con.close()
        from reports.dossier import build

        text, _ = build(db, ed, ids[0])
    else:
        ev = hand_evidence(con, ed, ids[0])
        if fmt in ("md", "json"):  # what it was made from: tda-audit verify
            from auditor.manifest import build as made_from

            ev["manifest"] = made_from(con, ed, ids)
        con.close()
        text = {"text": ex.to_text, "md": ex.to_markdown, "json": ex.to_json}[fmt](ev)
    if out:
        try:
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as e:
            fail(cannot_write(out, e))
        click.echo(f"wrote {out}", err=True)
    else:
        click.echo(text, nl=not text.endswith("\n"))


@main.command()
@DB_OPTION
@REPORT_RULES_OPTION
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "parquet", "xlsx", "md"]), required=True)
@click.option("--what", type=click.Choice(["findings", "hands", "facts", "store"]), default="findings", show_default=True,
              help="findings; hands (one row per hand: hand_summary); facts (the replay facts: decisions, pots, pot_shares, "
                   "hand_results, replay_notes); store (every table, Parquet partitioned by tournament).")
@click.option("--out", "-o", default=None, type=click.Path(),
              help="File to write (a folder for --what store, and for --what facts as csv/json/parquet). "
                   "csv, json and md go to standard output when omitted.")
def export(db, edition_name, fmt, what, out):
    """Export findings, hands, replay facts or the whole store for analysis.

    CSV, JSON and Parquet are written by DuckDB's COPY; XLSX with openpyxl (one
    sheet per table); Markdown as tables.  The store export writes each table under
    OUT as Parquet partitioned by tournament (table/tournament=ID/*.parquet) with a
    manifest.json of row counts.

    \b
    Examples:
      tda-audit export --format csv > findings.csv
      tda-audit export --format parquet --out findings.parquet
      tda-audit export --format xlsx --what hands --out hands.xlsx
      tda-audit export --format csv --what facts --out facts/
      tda-audit export --format parquet --what store --out store/
      duckdb -c "SELECT tournament, count(*) FROM read_parquet('store/events/*/*.parquet', hive_partitioning=true) GROUP BY 1"
    """
    import os
    import tempfile

    import duckdb

    from reports.export import ExportError
    from reports.export import export as run_export

    if out is None and (fmt in ("parquet", "xlsx") or what in ("store", "facts") and fmt != "md"):
        fail(f"--format {fmt} --what {what} needs --out")
    con, ed = _open_report_store(db, edition_name)
    try:
        if out is None:
            fd, tmp = tempfile.mkstemp(suffix="." + fmt)
            os.close(fd)
            try:
                run_export(con, ed, fmt, what, tmp)
                with open(tmp, encoding="utf-8") as fh:
                    click.echo(fh.read(), nl=False)
            finally:
                os.unlink(tmp)
            return
        written = run_export(con, ed, fmt, what, out)
    except ExportError as e:
        fail(str(e))
    except (OSError, duckdb.IOException) as e:
        fail(cannot_write(out, e))
    finally:
        con.close()
    click.echo(f"wrote {what} ({ed}) as {fmt}: " + (str(out) if len(written) == 1 else f"{len(written)} files under {out}"), err=True)


@main.command()
@click.argument("report_file", metavar="REPORT")
@click.argument("paths", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object: identical, inputs, findings, differences.")
@click.option("--jobs", type=int, default=None, help="Worker processes for parsing and replay (default: all cores).")
def verify(report_file, paths, as_json, jobs):
    """Audit again the inputs a REPORT was made from (an HTML report or dossier, or a
    JSON or Markdown one from explain) and say whether its findings are identical.

    The report's manifest names every input by path, sha256 and size, the edition,
    the house profiles and the findings.  Each input is read from the PATHS given
    (files or folders: matched by sha256, else by name), else at its recorded path;
    they are audited in a temporary store under the same edition and house
    profiles.  Each difference is named: an input missing or changed, a finding
    added, removed or changed.  Exit 0 when identical, 1 when not, 2 on a usage error.

    \b
    Examples:
      tda-audit report -o audit.html && tda-audit verify audit.html
      tda-audit verify case-1234.html evidence/     # the inputs, moved to evidence/
    """
    from auditor.verify import VerifyError, verify as run_verify

    try:
        v = run_verify(report_file, paths, jobs=jobs)
    except (VerifyError, StoreError) as e:
        fail(str(e))
    click.echo(json.dumps(v.as_json(), indent=2, default=str) if as_json else "\n".join(v.lines()))
    sys.exit(0 if v.identical else 1)


@main.command()
@click.argument("sql", required=False)
@DB_OPTION
@REPORT_RULES_OPTION
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--max-rows", type=int, default=1000, show_default=True, help="Rows shown by --format table.")
@click.option("--views", "list_views", is_flag=True, help="List the views you can query, then exit.")
def query(sql, db, edition_name, fmt, max_rows, list_views):
    """Run read-only SQL against the store.  Writes are refused; the store is opened
    read-only.  Besides the tables (docs/schema.md) these views are there, for the
    chosen edition (docs/reports.md):

    \b
      actions            every event in order with the replay's decision facts
      findings_by_check  findings, hands, tournaments per check
      findings_by_category  findings per category: violation, departure, record
      hand_summary       one row per hand: site, table, level, pots verified, findings
      player_summary     per player: hands, tournaments, findings naming them
      source_summary     per file: sha256, hands stored and rejected, findings

    \b
    Examples:
      tda-audit query "SELECT * FROM findings_by_check ORDER BY findings DESC"
      tda-audit query "SELECT hand_id, street, player, kind, to_call, min_raise_to, betting_open
                       FROM actions WHERE action_class = 'underraise'"
      tda-audit query "SELECT table_name, count(*) FROM findings GROUP BY 1" --format csv
    """
    from reports import query as rq
    from reports.data import VIEWS

    if list_views:
        for name, doc in VIEWS.items():
            click.echo(f"{name:18} {doc}")
        return
    if not sql:
        fail("give the SQL to run, e.g. tda-audit query \"SELECT * FROM findings_by_check\" (see --help)")
    con, _ = _open_report_store(db, edition_name)
    try:
        cols, rows = rq.run(con, sql)
    except rq.WriteRefused as e:
        fail(str(e))
    except Exception as e:  # duckdb.Error: a bad query
        # DuckDB's message, without a Python traceback it may carry (a failed import)
        fail(f"query failed: {str(e).split('Traceback (most recent call last)')[0].strip()}")
    finally:
        con.close()
    out = {"table": lambda: rq.as_table(cols, rows, max_rows), "csv": lambda: rq.as_csv(cols, rows),
           "json": lambda: rq.as_json(cols, rows)}[fmt]()
    click.echo(out, nl=False)


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def update(self, n):
        pass


if __name__ == "__main__":
    main()
