"""The check registry: one SQL file per check, discovered from this folder.

Each ``<check-id>.sql`` starts with a header of ``-- key: value`` lines::

    -- check: illegal-underraise
    -- title: Raise below the minimum left standing
    -- severity: error
    -- category: violation
    -- group: betting
    -- scope: hand
    -- judges: rules
    -- rationale: A bet or raise below the legal minimum by a player with chips behind ...

and then one ``SELECT`` over the event log and the replay facts, with the
parameter ``$edition``.  Its result columns are the finding contract:

    hand_id, street, seq, seat, player, expected, actual, message, line_no

and, optionally, ``category`` and ``category_basis``: a row's own category where it
is not the header's (e.g. uncalled-bet: a return the record cannot support is a
``record`` finding), and why; and ``house_policy``: the house policies the hand
followed instead of the edition's rule (``auditor/house.py``).  ``category`` in the header is the check's default:
``violation`` (the rules in force were broken in the hand) or ``record`` (the history
does not record what the audit needs, or contradicts itself).  A house profile may
then make a violation a ``departure`` (``auditor/house.py``).  ``judges`` says what the
check's findings rest on: the TDA's ``rules``, its ``recommended procedures`` (RP-1 ...), or
``rules and recommended procedures``.  A Recommended Procedure recommends, it does not rule:
a row that rests on one alone names it in the column ``rp`` (``'RP-11'``), cites it alone,
and is a ``departure`` from it at most, never a violation (``insert_findings``).

Rule numbers and titles are not in the SQL: they come from the one rule catalog
(``auditor/rules/catalog.toml``) by check id and edition.

Award checks (``group: award``) report an award error once, under the most
specific check: ``precedence`` orders them (odd-chip 1, side-pot 2,
wrong-winner 3, chip-conservation 4), and a hand reported by a more specific
award check is not reported again by a later one.

Table checks (``group: table``) judge the sequence of hands at a table.  They run a
batch of tournaments at a time, not over the whole store at once, so that their
memory does not grow with the store (``_run_table_checks``, ``table_batch``; docs/table-checks.md,
"Memory").

``scope`` says what rows a check reads to judge a hand, and so where it can run:

* ``hand``: that hand's own rows only (its hand, seats, events and facts, joined by
  ``hand_id``).  ``audit`` on a Dask cluster runs these in the ingest workers, over each batch of
  some 30,000 committed hands as the ingest goes (``WorkerChecks``), and their rows
  are committed right after; ``run_checks`` then runs them only for the
  hands the workers did not check (docs/storage.md, "Where the checks run"), over a
  large store a range of hand ids at a time, so that their memory does not grow
  with the store either (``_run_hand_checks``, ``HAND_BATCH``).
* ``table``: the hands of a table or tournament (exactly the ``group: table``
  checks: a batch of tournaments at a time, above).
* ``store``: other hands of the store, found otherwise (uncalled-bet reads the
  player's next hand at the table): run over the whole store, in the coordinator.

The award checks share one scope: their precedence is applied among them.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path

import duckdb
import pyarrow as pa

from auditor.schema import SEGMENT_TABLES
from auditor import segments
from auditor.store import MEMORY_ENV, id_ranges, memory_limit, one_thread, segments_root, transaction
from replay.editions import edition as edition_rules

SEVERITIES = ("info", "warning", "error")
SCOPES = ("hand", "table", "store")  # what a check reads to judge a hand (module docstring)
CATEGORIES = ("violation", "departure", "record")  # docs/semantics.md, "Finding categories"
JUDGES = ("rules", "recommended procedures")  # what a check's findings rest on (header 'judges:')


@dataclass(frozen=True)
class Check:
    check_id: str
    title: str
    severity: str
    group: str
    rationale: str
    precedence: int
    sql: str
    path: Path
    category: str = "violation"  # the default category of its findings (header 'category:')
    scope: str = "store"  # the rows it reads to judge a hand: hand, table or store (header 'scope:')
    # what its findings rest on (header 'judges:'): TDA Rules, and Recommended Procedures,
    # whose findings are departures at most (a row resting on one alone names it in column rp)
    judges: tuple[str, ...] = ("rules",)

    @property
    def body(self) -> str:
        return "\n".join(line for line in self.sql.splitlines() if not line.startswith("-- "))


def parse_check(path: Path) -> Check:
    text = path.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        body = line[2:].strip()
        if ":" in body and body.split(":", 1)[0].strip().isidentifier():
            key, val = body.split(":", 1)
            last = key.strip()
            meta[last] = val.strip()
        elif last and body:
            meta[last] += " " + body  # continuation line
    missing = {"check", "title", "severity", "category", "scope", "judges", "rationale"} - meta.keys()
    if missing:
        raise ValueError(f"{path}: header lacks {', '.join(sorted(missing))}")
    if meta["check"] != path.stem:
        raise ValueError(f"{path}: header says check {meta['check']!r} but the file is {path.name}")
    if meta["severity"] not in SEVERITIES:
        raise ValueError(f"{path}: severity must be one of {SEVERITIES}")
    if meta["category"] not in ("violation", "record"):  # departures come from house profiles only
        raise ValueError(f"{path}: category must be violation or record")
    judges = judged(meta["judges"])
    if not judges:
        raise ValueError(f"{path}: judges must say rules, recommended procedures, or rules and recommended procedures")
    if judges == ("recommended procedures",) and meta["category"] == "violation":
        raise ValueError(f"{path}: a check that judges recommended procedures alone finds no violation")
    group = meta.get("group", "betting")
    if meta["scope"] not in SCOPES:
        raise ValueError(f"{path}: scope must be one of {SCOPES}")
    if (meta["scope"] == "table") != (group == "table"):  # the table checks run in batches of tournaments
        raise ValueError(f"{path}: scope table is for the group table checks, and only them")
    return Check(
        check_id=meta["check"],
        title=meta["title"],
        severity=meta["severity"],
        category=meta["category"],
        group=group,
        rationale=meta["rationale"],
        precedence=int(meta.get("precedence", "0")),
        sql=text,
        path=path,
        scope=meta["scope"],
        judges=judges,
    )


def judged(value: str) -> tuple[str, ...]:
    """What a check's header ``judges``: ``rules``, ``recommended procedures`` or both
    (the words before any parenthesis).

    >>> judged("rules"), judged("rules and recommended procedures (RP-11: a departure at most)")
    (('rules',), ('rules', 'recommended procedures'))
    >>> judged("rulings")
    ()
    """
    head = value.split("(", 1)[0].strip().lower()
    parts = tuple(p.strip() for p in head.split(" and "))
    if not parts or any(p not in JUDGES for p in parts) or len(set(parts)) != len(parts):
        return ()
    return tuple(j for j in JUDGES if j in parts)


def checks_dir() -> Path:
    return Path(str(resources.files("auditor.checks")))


def load_checks() -> list[Check]:
    """All checks, award checks last in precedence order."""
    found = [parse_check(p) for p in sorted(checks_dir().glob("*.sql"))]
    award_scopes = {c.scope for c in found if c.group == "award"}
    if len(award_scopes) > 1:  # a hand reported by one award check is skipped by the next: they run together
        raise ValueError(f"the award checks must share one scope, not {sorted(award_scopes)}")
    return sorted(found, key=lambda c: (c.group == "award", c.precedence, c.check_id))


# A store of at most this many hands is checked on one DuckDB thread: there a second
# thread costs CPU and buys no time; and over copies of its tables (_run_checks)
# (bench/README.md, 2026-12-07).
ONE_THREAD_HANDS = 5_000


def run_checks(con: duckdb.DuckDBPyConnection, edition: str, only: list[str] | None = None,
               house: str = "auto", checked_from_unit: int | None = None, cluster=None) -> dict[str, int]:
    """Run the checks under ``edition`` and replace that edition's findings (for the
    checks run; naming one award check runs them all).  Returns findings per check
    id.  Each check's rows go into the findings table in one set-based INSERT,
    joined with the hand's tournament, table and source file.  Then the house-rule
    profiles ``house`` chooses categorise the findings (``auditor.house.apply``).

    ``checked_from_unit``: the ingest just made (``audit``) ran the scope-hand checks
    under ``edition`` in its workers for the hands of its units, numbered from this
    one on, and committed their findings (``WorkerChecks``), having removed those
    checks' findings of the hands stored before (``clear_hand_findings``): the
    workers' are kept, and the checks run here for the hands stored before only,
    over views of those hands (none: not run at all).  No query sets the new hands
    apart by their ids, whose number grows with the ingest.

    The table checks run a batch of tournaments at a time: in this connection, or,
    with ``cluster`` (a ``distributed.Client``), on its workers, each batch in a
    DuckDB connection of its own (``table_batch``), while this connection runs the
    other checks."""
    from auditor import house as house_rules

    house_rules.choose(house)  # an unknown profile fails before anything changes
    ((n,),) = con.execute("SELECT count(*) FROM hands").fetchall()
    if n > ONE_THREAD_HANDS:
        return _run_checks(con, edition, only, house, checked_from_unit, cluster, n)
    with one_thread(con):
        return _run_checks(con, edition, only, house, checked_from_unit, cluster, n)


def _run_checks(con: duckdb.DuckDBPyConnection, edition: str, only: list[str] | None,
                house: str, checked_from_unit: int | None, cluster, n_hands: int) -> dict[str, int]:
    from auditor import house as house_rules
    from auditor.catalog import citation

    counts: dict[str, int] = {}
    every = load_checks()
    wanted = set(only) if only else {c.check_id for c in every}
    if any(c.group == "award" and c.check_id in wanted for c in every):
        # an award error is reported once, under the most specific award check: they
        # run together, or one run alone would report hands another already has
        wanted |= {c.check_id for c in every if c.group == "award"}
    checks = [c for c in every if c.check_id in wanted]
    rules = {c.check_id: _rule(c, edition, citation) for c in checks}
    # the table checks' rows, found a batch of tournaments at a time (before any findings change)
    # until the last check is in, the edition's findings may mix this run's and the last.  A
    # run of some checks completes them only if they were complete before it: not what an
    # interrupted run left, nor after a replay (which clears them: every check must run again)
    state_before = _checks_state(con, edition)
    with transaction(con):
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, 'in-progress')", [f"checks:{edition}"])
    table = [c for c in checks if c.group == "table" and rules[c.check_id]]
    found: dict[str, str] = {}
    tables: _TableRun | None = None
    copied = False
    made_here: set[str] = set()  # the checks whose rows this run inserted (not the ingest workers')
    # each check replaces its own findings in its own transaction: atomic per check,
    # and DuckDB never holds every check's work in memory at once
    con.execute("CREATE OR REPLACE TEMP TABLE _award_hands (hand_id VARCHAR)")

    @functools.cache
    def files() -> tuple[str, segments.Spans]:
        """The segment folder and its committed files' hand-id bounds (``segments.file_spans``):
        read once a run, for the table checks' batches and the hand checks' ranges."""
        root = segments_root(con)
        return root, segments.file_spans(con, root, edition)

    try:
        if table and cluster is not None:
            # on the cluster's workers, while this connection runs the other checks; their
            # rows are gathered before their findings go in (last)
            tables = _TableRun(con, table, edition, cluster)
        elif table:
            found = _run_table_checks(con, table, edition, files)
        # which hands the workers checked: None (none), or the units from checked_from_unit
        # on, which are every stored hand (a new store) or not
        in_workers = _checked_in_workers(con, checked_from_unit) if checked_from_unit is not None else None
        # a small store's tables, copied once into temp tables of their names (searched first):
        # binding the views over Parquet files was a third of each check's cost there
        # (bench/README.md, 2026-12-07).  Not where the hand checks read ranges of hands or the
        # hands stored before the workers' through temp views of those names (_run_hand_checks)
        copied = n_hands <= min(ONE_THREAD_HANDS, HAND_BATCH) and in_workers is None
        if copied:
            for t in SEGMENT_TABLES:
                con.execute(f"CREATE OR REPLACE TEMP TABLE {t.name} AS SELECT * FROM main.{t.name}")
        if in_workers != _EVERY_HAND:
            # the scope-hand checks over the store (or its hands stored before the workers'):
            # over more than HAND_BATCH hands, a range of hand ids at a time, so that their
            # memory does not grow with the store
            hand = [c for c in checks if c.scope == "hand" and rules[c.check_id]]
            found |= _run_hand_checks(con, hand, edition, files, before_unit=in_workers) if hand else {}
        for c in sorted(checks, key=lambda c: c.group == "table"):
            if c.group == "table" and tables is not None:
                found |= tables.finish(con)
                tables = None
            with transaction(con):
                if c.scope != "hand" or in_workers is None:
                    counts[c.check_id] = _run_one(con, c, edition, rules[c.check_id], found.get(c.check_id))
                    made_here.add(c.check_id)
                    continue
                if in_workers != _EVERY_HAND and rules[c.check_id] is not None:
                    # the hands stored before, beside the workers' (the ingest removed their old findings)
                    _run_one(con, c, edition, rules[c.check_id], found[c.check_id], replace=False)
                    made_here.add(c.check_id)
                [(counts[c.check_id],)] = con.execute(
                    "SELECT count(*) FROM findings WHERE edition = ? AND check_id = ?", [edition, c.check_id]).fetchall()
    finally:
        if tables is not None:
            tables.close()
        for t in ["_found", "_award_hands", *found.values(), *(s.name for s in SEGMENT_TABLES if copied)]:
            con.execute(f"DROP TABLE IF EXISTS temp.{t}")
    counts = {c.check_id: counts[c.check_id] for c in checks if c.check_id in counts}  # in the checks' order
    record_what_cannot_be_judged(con, edition, made_here)
    house_rules.apply(con, edition, house)
    if not only or state_before == "complete":
        with transaction(con):
            con.execute("INSERT OR REPLACE INTO meta VALUES (?, 'complete')", [f"checks:{edition}"])
    elif state_before is None:  # some checks run after a replay: the others have still not run
        with transaction(con):
            con.execute("DELETE FROM meta WHERE key = ?", [f"checks:{edition}"])
    return counts


_EVERY_HAND = -1  # _checked_in_workers: the workers checked every stored hand


def _checked_in_workers(con: duckdb.DuckDBPyConnection, first_unit: int) -> int | None:
    """Which hands' scope-hand checks the ingest workers ran, those of the units from
    ``first_unit`` on (the hidden unit column of the hands segments): ``_EVERY_HAND``
    when they are all the stored hands (a new store), None when there are none, else
    ``first_unit`` (the other hands are those of the units before it)."""
    mine, others = segments.hands_of_units(segments_root(con), first_unit)
    [(any_mine, any_others)] = con.execute(f"SELECT EXISTS ({mine}), EXISTS ({others})").fetchall()
    if not any_mine:
        return None
    return first_unit if any_others else _EVERY_HAND


def clear_hand_findings(con: duckdb.DuckDBPyConnection, edition: str) -> None:
    """Remove the scope-hand checks' findings under ``edition``: as an ``audit`` whose
    workers check its new hands commits its first hands (in that transaction, which
    marks the edition's checks 'in-progress'), so that ``run_checks`` then adds the
    findings of the hands stored before beside the workers' without telling the two
    apart by hand id."""
    ids = [c.check_id for c in load_checks() if c.scope == "hand"]
    con.execute("DELETE FROM findings WHERE edition = ? AND check_id IN (SELECT unnest(?::VARCHAR[]))", [edition, ids])


def _checks_state(con: duckdb.DuckDBPyConnection, edition: str) -> str | None:
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"checks:{edition}"]).fetchone()
    return row[0] if row else None


def findings_gap(con: duckdb.DuckDBPyConnection, edition: str) -> str | None:
    """Why the findings under ``edition`` do not judge every stored hand, with what to
    run; None when they do (or nothing is stored).  Every command that reads findings
    says it: a store never audited under an edition, or with hands stored since, must
    not read as a clean audit."""
    from auditor.store import replay_state

    (n,) = con.execute("SELECT count(*) FROM hands").fetchone()
    if n == 0:
        return None
    redo = f"run 'tda-audit replay --rules {edition}' then 'tda-audit check --rules {edition}'"
    state = replay_state(con, edition)
    if state is None:
        return f"the store was never audited under {edition}: none of its {n} hands was judged under it; {redo}"
    if state == "stale":
        return f"hands were stored after the last audit under {edition}: its findings do not judge them; {redo}"
    if state != "complete":
        return f"the last replay under {edition} did not finish: its facts and findings are incomplete; {redo}"
    checks = _checks_state(con, edition)
    if checks is None:
        return (f"the checks have not all run under {edition} since its replay: its findings are missing or partial; "
                f"run 'tda-audit check --rules {edition}'")
    if checks != "complete":
        return (f"the last 'tda-audit check' or audit under {edition} did not finish: its findings may mix that "
                f"run's and older ones, or miss the hands it stored; run 'tda-audit check --rules {edition}' again")
    return None


def _rule(c: Check, edition: str, citation) -> tuple[str, str] | None:
    """The check's rule numbers and titles under ``edition``; None when the edition
    has no such rule (the check does not run)."""
    cites = [x for x in citation(c.check_id, edition) if not x.missing]
    if not cites:
        return None
    return ", ".join(x.ref for x in cites), "; ".join(dict.fromkeys(x.title for x in cites))


def _params(c: Check, edition: str) -> dict | None:
    """``$edition``, and any ruling switch of :class:`replay.editions.EditionRules` the SQL
    names (``$bb_ante_order``): what differs by edition is said once, there."""
    rules = edition_rules(edition)
    params = {f.name: getattr(rules, f.name) for f in fields(rules) if f"${f.name}" in c.body}
    if "$edition" in c.body:
        params["edition"] = edition
    return params or None


def _run_one(con: duckdb.DuckDBPyConnection, c: Check, edition: str, rule: tuple[str, str] | None,
             found: str | None = None, replace: bool = True) -> int:
    """Replace the check's findings under ``edition`` (``replace`` False: add to them,
    the ingest having removed them: ``run_checks``): its rows are the check's query,
    or the temp table ``found`` already holding them (table checks, ranges)."""
    if replace:
        con.execute("DELETE FROM findings WHERE edition = ? AND check_id = ?", [edition, c.check_id])
    if rule is None:
        return 0  # the edition has no such rule: the check does not run
    if found is None:
        con.execute(f"CREATE OR REPLACE TEMP TABLE _found AS {c.body}", _params(c, edition))
        found = "_found"
    return insert_findings(con, c, edition, rule, found)


def insert_findings(con: duckdb.DuckDBPyConnection, c: Check, edition: str, rule: tuple[str, str], found: str) -> int:
    """Insert the check's rows, held in the temp table ``found``, into ``findings``,
    each completed with its finding id, the check's severity and default category,
    the rule and title under ``edition``, and its hand's tournament, table and source
    file (``hands`` and ``sources``): the one place a finding row is made, for
    ``run_checks`` over the store and for ``WorkerChecks`` over a batch in an
    ingest worker.  Of rows with one finding id, the first in the check's own order is
    kept.  An award check leaves out the hands a more specific one reported
    (``_award_hands``), then adds its own.  Returns the rows inserted."""
    if con.execute(f"SELECT NOT EXISTS (FROM temp.{found})").fetchone() == (True,):
        return 0  # most checks find nothing in most stores: none of the work below
    conds = []
    if c.group == "award":
        conds.append("f.hand_id NOT IN (SELECT hand_id FROM _award_hands)")
    cols = {d[0] for d in con.execute(f"SELECT * FROM temp.{found} LIMIT 0").description}
    category = "coalesce(f.category, $category)" if "category" in cols else "$category"
    basis = "f.category_basis" if "category_basis" in cols else "NULL"
    rule_ref, rule_title = "$rule", "$rule_title"
    if "rp" in cols:
        # a row that rests on a Recommended Procedure alone (column rp: its ref, 'RP-11') cites
        # it alone, and is a departure from it at most, never a violation: an RP recommends,
        # it does not rule (docs/semantics.md, "Finding categories")
        con.execute("CREATE OR REPLACE TEMP TABLE _rp (ref VARCHAR, title VARCHAR, basis VARCHAR)")
        from auditor.catalog import recommended

        rps = recommended(c.check_id, edition)
        if rps:
            con.executemany("INSERT INTO _rp VALUES (?, ?, ?)", [(ref, t, b) for ref, (t, b) in rps.items()])
        category = f"CASE WHEN rp.ref IS NOT NULL AND {category} = 'violation' THEN 'departure' ELSE {category} END"
        basis = f"CASE WHEN rp.ref IS NOT NULL THEN rp.basis || coalesce('; ' || {basis}, '') ELSE {basis} END"
        rule_ref, rule_title = "coalesce(rp.ref, $rule)", "coalesce(rp.title, $rule_title)"
    house = "f.house_policy" if "house_policy" in cols else "NULL"
    message = "f.message"
    if c.group == "betting":
        # a capped table's betting is judged with its cap, a house structure the TDA rules do not cover
        message = ("f.message || CASE WHEN h.cap IS NOT NULL THEN ' Judged with the table''s cap of ' || chips(h.cap, h.amount_scale)"
                   " || ' a player a hand, the house''s structure from the header (the TDA rules have no cap).' ELSE '' END")
    (n,) = con.execute(
        f"""INSERT INTO findings
            SELECT $check_id || ':' || f.hand_id || ':' || coalesce(CAST(f.seq AS VARCHAR), '-') || ':' || coalesce(CAST(f.seat AS VARCHAR), '-'),
                   $check_id, $severity, {category}, {basis}, {house}, $edition, {rule_ref}, {rule_title}, f.hand_id, h.tournament_id, h.table_name, f.street, f.seq, f.seat, f.player,
                   CAST(f.expected AS VARCHAR), CAST(f.actual AS VARCHAR), {message}, s.path, f.line_no
            FROM temp.{found} f JOIN hands h USING (hand_id) JOIN sources s USING (source_id)
            {"LEFT JOIN _rp rp ON rp.ref = f.rp" if "rp" in cols else ""}
            WHERE {" AND ".join(conds) or "true"}
            -- rows of one finding id (one seat in two pots): the first the check lists is kept,
            -- wherever the check ran (the joins' order is not the check's, and varies with threads)
            QUALIFY row_number() OVER (PARTITION BY f.hand_id, f.seq, f.seat ORDER BY f.rowid) = 1
            ON CONFLICT DO NOTHING""",
        {"check_id": c.check_id, "severity": c.severity, "category": c.category, "edition": edition,
         "rule": rule[0], "rule_title": rule[1]},
    ).fetchone()
    con.execute("DROP TABLE IF EXISTS temp._rp")
    if c.group == "award":
        con.execute(f"INSERT INTO _award_hands SELECT DISTINCT hand_id FROM temp.{found}")
    return n


def record_what_cannot_be_judged(con: duckdb.DuckDBPyConnection, edition: str,
                                 check_ids: Collection[str] | None = None) -> None:
    """Make a record finding of each violation under ``edition`` that the record cannot
    support (``run_checks`` and ``WorkerChecks``, once every check's rows are in and before
    the house profiles): one that a line not understood could change (the line names a
    seated player, on a street before the summary, at or before the finding or on its
    street: docs/semantics.md, "Lines not understood"), and one in a hand whose record
    contradicts itself (its total pot differs from the chips its action lines put in, or
    from its collects and the house's take: a line left out or wrong, and no line shows
    which; chip-conservation reports the contradiction itself).  ``check_ids``: the checks
    whose rows the caller inserted (None: every check), so that the rows an ingest worker
    judged are not read again.  Reads only the hands with such violations."""
    if check_ids is not None and not check_ids:
        return
    judged = "f.edition = $edition AND f.category = 'violation'"
    params: dict[str, object] = {"edition": edition}
    if check_ids is not None:
        judged += " AND list_contains($check_ids, f.check_id)"
        params["check_ids"] = sorted(check_ids)
    if con.execute(f"SELECT NOT EXISTS (FROM findings f WHERE {judged})", params).fetchall() == [(True,)]:
        return  # most stores: nothing to judge here
    hands = f"hand_id IN (SELECT f.hand_id FROM findings f WHERE {judged})"
    # the total the history states: recorded, or read from its own total line less the
    # uncalled chips the format counts in it (total_less_uncalled, Winamax: inferred, its line
    # among those it rests on); a total inferred from other lines (iPoker's; Party's and
    # Bovada Zone's, placed on a line they rest on) states nothing
    stated = "(ev.inferred_from IS NULL OR total_less_uncalled(h.format) AND list_contains(ev.inferred_from, ev.line_no))"
    unread = "list_filter(ul.lines, lambda x: f.seq IS NULL OR x.seq <= f.seq OR x.street = f.street)[1]"
    con.execute(f"""CREATE OR REPLACE TEMP TABLE _unjudged AS
        WITH ul AS (
          SELECT u.hand_id, list({{'seq': u.seq, 'street': u.street, 'line_no': u.line_no, 'text': trim(u.text)}} ORDER BY u.seq) AS lines
          FROM events u WHERE u.kind = 'unread' AND u.seat IS NOT NULL AND u.street <> 'summary' AND {hands}
          GROUP BY u.hand_id
        ), e AS (
          SELECT hand_id,
                 max(ev.amount) FILTER (WHERE ev.kind = 'total_pot' AND {stated}) AS total,
                 coalesce(max(ev.to_amount) FILTER (WHERE ev.kind = 'total_pot' AND {stated}), 0) AS house,
                 sum(ev.amount) FILTER (WHERE ev.kind = 'collect') AS collected,
                 coalesce(sum(ev.amount) FILTER (WHERE ev.kind = 'house_added'), 0) AS added
          FROM events ev JOIN hands h USING (hand_id) WHERE {hands} GROUP BY hand_id
        ), p AS (
          SELECT hand_id, sum(contributed) AS contributed, sum(coalesce(returned_recorded, returned_expected)) AS ret,
                 sum(returned_expected) AS ret_exp
          FROM hand_results WHERE edition = $edition AND {hands} GROUP BY hand_id
        ), k AS (  -- the shares the house kept for players who cashed out, paid nothing from the pots, as their
                   -- summary lines say (NULL where a line does not say it: not judged; chip-conservation's own)
          -- (from the cash-outs, few: the hand's other rows are read only for them)
          SELECT c.hand_id, CASE WHEN bool_and(s.amount IS NOT NULL OR r.won_expected = 0) THEN coalesce(sum(s.amount), 0) END AS kept
          FROM (SELECT DISTINCT hand_id, seat FROM events WHERE kind = 'cash_out' AND {hands}) c
          JOIN hand_results r ON r.hand_id = c.hand_id AND r.seat = c.seat AND r.edition = $edition AND r.won_recorded = 0
          LEFT JOIN (SELECT hand_id, seat, amount FROM events WHERE kind = 'seat_result'
                     AND hand_id IN (SELECT hand_id FROM events WHERE kind = 'cash_out' AND {hands})) s
            ON s.hand_id = c.hand_id AND s.seat = c.seat
          GROUP BY ALL
        ), ct AS (
          SELECT e.hand_id, e.total, p.contributed + e.added - p.ret AS put_in,
                 coalesce(e.collected, 0) + e.house + coalesce(k.kept, 0) AS paid_out
          FROM e JOIN p USING (hand_id) LEFT JOIN k USING (hand_id)
          WHERE e.total IS NOT NULL
            AND (e.total NOT IN (p.contributed + e.added - p.ret, p.contributed + e.added - p.ret_exp)
                 OR e.collected IS NOT NULL AND e.collected + e.house + CASE WHEN k.hand_id IS NULL THEN 0 ELSE k.kept END
                    <> e.total)
        )
        SELECT f.finding_id,
               CASE WHEN {unread} IS NOT NULL
                    THEN 'line ' || CAST({unread}.line_no AS VARCHAR) || ' was not understood (''' || {unread}.text
                         || '''), and it could change this: not judged as a violation'
                    ELSE 'the record contradicts itself: its total pot is ' || chips(ct.total, h.amount_scale)
                         || ', its action lines put ' || chips(ct.put_in, h.amount_scale) || ' in the pot, and its collects and the'
                         || ' house''s take come to ' || chips(ct.paid_out, h.amount_scale) || ': a line is missing or wrong, and no line'
                         || ' shows which; not judged as a violation' END AS basis
        FROM findings f JOIN hands h USING (hand_id) LEFT JOIN ul USING (hand_id) LEFT JOIN ct USING (hand_id)
        WHERE {judged}
          AND ({unread} IS NOT NULL OR f.check_id <> 'chip-conservation' AND ct.hand_id IS NOT NULL)""",
                params)
    try:
        with transaction(con):
            con.execute("UPDATE findings f SET category = 'record', category_basis = u.basis FROM temp._unjudged u "
                        "WHERE f.edition = $edition AND f.finding_id = u.finding_id", {"edition": edition})
    finally:
        con.execute("DROP TABLE IF EXISTS temp._unjudged")


# --- the scope-hand checks in an ingest worker, a committed batch at a time ------------------

# DuckDB's bound in a worker: $TDA_AUDIT_MEMORY where the worker's environment sets it (the
# local pool's processes inherit the audit's), else this
WORKER_MEMORY = "256MB"


class WorkerChecks:
    """The scope-hand checks under one edition, run by an ingest worker over the
    segments of one committed batch of units at a time (``check_segments``): an
    in-memory DuckDB connection, single-threaded, with the project's macros and a
    ``findings`` table of the store's shape, kept for the worker's life
    (``worker_checks``).  The batch's segments are read through temp views of the
    stored names (``hands`` with each file's ``source_id`` as the ``hands`` view gives
    it, ``sources`` with the files' paths, ``seats``, ``events`` and the replay facts),
    then every scope-hand check runs as ``run_checks`` runs it: in the same order,
    with the same award precedence, each row made by ``insert_findings``, and then
    ``record_what_cannot_be_judged``.

    A batch, not a unit: DuckDB plans and starts each of these queries in some 6 ms
    whatever the rows, so over one unit's hands they would cost the worker more a hand
    than the coordinator pays over the whole store (figures: bench/README.md)."""

    def __init__(self, edition: str):
        from auditor.catalog import citation
        from auditor.schema import FINDINGS
        from auditor.store import macros_sql

        self.edition = edition
        checks = [c for c in load_checks() if c.scope == "hand"]
        rules = {c.check_id: _rule(c, edition, citation) for c in checks}
        self.checks = [(c, rule, _params(c, edition)) for c in checks if (rule := rules[c.check_id]) is not None]
        self.con = con = duckdb.connect(":memory:")
        con.execute("SET threads = 1")
        con.execute(f"SET memory_limit = '{os.environ.get(MEMORY_ENV) or WORKER_MEMORY}'")
        con.execute("SET enable_progress_bar = false")
        con.execute(macros_sql())
        con.execute(FINDINGS.ddl())
        con.execute("CREATE TEMP TABLE _award_hands (hand_id VARCHAR)")

    def run(self, root: str, files: dict[str, list[str]], parts: list[tuple[int, int, str]]) -> pa.Table:
        """The findings of the hands in the committed segments ``files`` (table name ->
        file names in its folder under ``root``), whose units' parts are ``parts``
        (unit id, part, the file's path as ``sources`` keeps it), as rows of ``findings``."""
        con = self.con
        paths = list(dict.fromkeys(p for _, _, p in parts))
        at = {p: i for i, p in enumerate(paths)}
        con.register("_units", pa.table({"unit_id": pa.array([u for u, _, _ in parts], pa.int64()),
                                         "part": pa.array([k for _, k, _ in parts], pa.int32()),
                                         "source_id": pa.array([at[p] for _, _, p in parts], pa.int32())}))
        con.register("sources", pa.table({"source_id": pa.array(range(len(paths)), pa.int32()),
                                          "path": pa.array(paths, pa.string())}))
        try:
            for t in SEGMENT_TABLES:
                # views, not copies: each check reads only its columns, and nothing is held
                con.execute(f"CREATE OR REPLACE TEMP VIEW {t.name} AS "
                            + segments.files_sql(t, root, files.get(t.name, []), units="_units"))
            for c, rule, params in self.checks:
                con.execute(f"CREATE OR REPLACE TEMP TABLE _found AS {c.body}", params)
                # a check that finds nothing has nothing to complete, nor award hands to add
                if con.execute("SELECT count(*) FROM temp._found").fetchall()[0][0]:
                    insert_findings(con, c, self.edition, rule, "_found")
            record_what_cannot_be_judged(con, self.edition)
            return con.sql("SELECT * FROM findings").to_arrow_table()
        finally:
            con.execute("DELETE FROM findings")
            con.execute("DELETE FROM _award_hands")
            con.execute("DROP TABLE IF EXISTS temp._found")
            for t in SEGMENT_TABLES:
                con.execute(f"DROP VIEW IF EXISTS temp.{t.name}")
            con.unregister("_units")
            con.unregister("sources")


_workers = threading.local()  # a thread's WorkerChecks (a Dask worker may run tasks on several threads)


def worker_checks(edition: str) -> WorkerChecks:
    """This thread's ``WorkerChecks`` for ``edition``, made at its first batch."""
    kept = getattr(_workers, "checks", None)
    if kept is None or kept.edition != edition:
        kept = _workers.checks = WorkerChecks(edition)
    return kept


def check_segments(root: str, edition: str, files: dict[str, list[str]], parts: list[tuple[int, int, str]]) -> pa.Table:
    """Run by a worker (``auditor.ingest``'s ``run.submit``: the pool's or Dask's): the
    findings of the scope-hand checks under ``edition`` over a committed batch's
    segments (``WorkerChecks.run``).  Plain data in and out."""
    return worker_checks(edition).run(root, files, parts)


# --- table checks, a batch of tournaments at a time ------------------------------------------

# Hands per batch.  A table check compares hands of one table, or of one tournament,
# never of two tournaments, so a batch is whole tournaments (cash tables: all hands
# without a tournament number together), cut when it holds this many hands; one
# tournament larger than this is a batch of its own.
BATCH_HANDS = 25_000

# The batch's slice of the store, as temp tables that shadow the stored tables of the
# same name (temp is searched first: the views in auditor/views.sql, and the checks,
# then read the batch only).  Events and hand results: only the rows and columns the
# table views and checks read (not the events' source text, most of their bytes);
# hand results and decisions of the edition checked only (expected end stacks depend on
# it; dead-button reads which hands reached substantial action).
TABLE_EVENT_KINDS = ("small_blind", "big_blind", "ante", "dead_blind", "out_of_hand", "rebuy", "addon", "finish")
_SLICE = {  # {src}: the stored view (main.<name>), or the rows of the batch's segment files
    "hands": "SELECT h.* FROM {src} h JOIN temp._tc_keys k ON k.tkey = {key} WHERE k.batch = $batch AND {range}",
    "seats": "SELECT x.* FROM {src} x SEMI JOIN temp.hands USING (hand_id) WHERE {range}",
    "events": "SELECT x.hand_id, x.seq, x.street, x.kind, x.seat, x.player, x.amount, x.all_in, x.line_no "
              "FROM {src} x SEMI JOIN temp.hands USING (hand_id) WHERE {range} AND x.kind IN ({kinds})",
    "decisions": "SELECT x.hand_id, x.edition, x.seq, x.seat, x.expected_seat, x.committed_before, x.committed_after "
                 "FROM {src} x SEMI JOIN temp.hands USING (hand_id) WHERE {range} AND x.edition = $edition",
    "hand_results": "SELECT x.hand_id, x.edition, x.seat, x.player, x.starting_stack, x.contributed, x.returned_expected, "
                    "x.won_expected, x.won_recorded, x.end_stack_expected, x.end_stack_recorded "
                    "FROM {src} x SEMI JOIN temp.hands USING (hand_id) WHERE {range} AND x.edition = $edition",
}
_SEGMENT_BY_NAME = {t.name: t for t in SEGMENT_TABLES}
# The views the table checks read, materialised once per batch (in this order: each
# reads the ones before it) instead of being evaluated again by every check.
_MATERIALISED = ("hand_seats", "table_hands", "hand_chips", "stack_links", "table_transitions")
# a hand's table sequence key, as table_hands partitions it
_TKEY = "coalesce({h}.tournament_id || coalesce(' ' || {h}.buy_in, ''), '')"


def _table_batches(con: duckdb.DuckDBPyConnection) -> list[tuple[int, str | None, str | None]]:
    """Number the tournaments with tournament hands at a table into batches of about
    ``BATCH_HANDS`` hands (temp table ``_tc_keys``: tkey, batch), in the order of
    their first hand id so that a batch's hands lie close together in the store.
    Returns (batch, lowest hand id, highest hand id) for each batch."""
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE _tc_keys AS
        WITH k AS (
          SELECT {_TKEY.format(h="h")} AS tkey, count(*) AS n, min(hand_id) AS lo, max(hand_id) AS hi
          FROM main.hands h WHERE h.table_name IS NOT NULL
          GROUP BY tkey HAVING bool_or(h.is_tournament)
        ), c AS (
          SELECT *, sum(n) OVER (ORDER BY lo, tkey ROWS UNBOUNDED PRECEDING) - n AS before FROM k
        )
        SELECT tkey, lo, hi, CAST(before // {BATCH_HANDS} AS INTEGER) AS batch FROM c""")
    return con.execute("SELECT batch, min(lo), max(hi) FROM temp._tc_keys GROUP BY batch ORDER BY batch").fetchall()


# On a Dask cluster (``audit --dask``) each batch of the table checks is a task on a
# worker, in an in-memory DuckDB connection of its own over the committed segment files
# (``table_batch``), while the coordinator runs the other checks.  Such a connection
# is bounded to TABLE_MEMORY (or the store's bound, if lower): measured on 121,700
# copied hands, one batch of all of them runs out under 160 MB and completes under 200
# MB, and batches of 5,000 hands complete under 120 MB (DuckDB's fixed cost, whatever
# the rows).  On one machine the store's connection runs them (``_run_table_checks``):
# there DuckDB already spreads a batch over the cores (1.5 of 2 at 1M hands), and
# connections of their own beside it cost more CPU and memory than they saved in time
# (1M hands, compiled: the checks 51.6 -> 45.3 s, their CPU 80 -> 89 s, the
# process's peak RSS some 900 MB).
TABLE_MEMORY = 200 * 2**20


def table_batch(root: str, files: dict[str, list[str]], units: pa.Table, memory: int,
                edition: str, check_ids: tuple[str, ...], keys: list[str], lo: str | None, hi: str | None) -> list[pa.Table]:
    """Run by a Dask worker: the rows of the table checks ``check_ids`` (in that order)
    over one batch of tournaments, whose table keys are ``keys`` and hand ids lie from
    ``lo`` to ``hi``.  An in-memory DuckDB connection of its own, single-threaded and
    bounded to ``memory`` bytes, reads the store's committed segments ``files`` (table
    name -> file names in its folder under ``root``; the hands' source ids from
    ``units``, the store's unit_sources rows) through views of the stored names, with
    the project's macros and table views; the batch is then loaded and checked as
    ``_run_table_checks`` does in the store's connection.  Plain data in and out."""
    from auditor.store import views_sql

    by_id = {c.check_id: c for c in load_checks()}
    spill = tempfile.mkdtemp(prefix="tda-audit-table-checks-")
    con = duckdb.connect(":memory:")
    try:
        con.execute("SET threads = 1")
        con.execute(f"SET memory_limit = '{int(memory)} bytes'")
        con.execute(f"SET temp_directory = {segments._sql_str(spill)}")
        con.execute("SET enable_progress_bar = false")
        con.register("_units", units)
        con.execute("CREATE TABLE unit_sources AS SELECT unit_id, part, source_id FROM _units")
        con.unregister("_units")
        for t in SEGMENT_TABLES:
            con.execute(f"CREATE VIEW {t.name} AS " + segments.files_sql(t, root, files.get(t.name, [])))
        con.execute(views_sql())
        con.execute("CREATE TEMP TABLE _tc_keys AS SELECT unnest(?::VARCHAR[]) AS tkey, 0 AS batch", [keys])
        _load_table_batch(con, edition, 0, lo, hi)
        return [con.sql(by_id[i].body, params=_params(by_id[i], edition)).to_arrow_table() for i in check_ids]
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)


class _TableRun:
    """The table checks' batches as tasks on ``cluster`` (a ``distributed.Client``), a
    batch a task (``table_batch``), started before the coordinator runs the other
    checks; ``finish`` gathers their rows, in batch order, into one temp table a
    check, as ``_run_table_checks`` leaves them."""

    def __init__(self, con: duckdb.DuckDBPyConnection, checks: list[Check], edition: str, cluster):
        self.checks = checks
        try:
            # no tournament hands at a table: one empty batch, so that each check's table gets its
            # columns from empty slices
            batches = _table_batches(con) or [(0, None, None)]
            keys: dict[int, list[str]] = {}
            for tkey, batch in con.execute("SELECT tkey, batch FROM temp._tc_keys ORDER BY batch, lo, tkey").fetchall():
                keys.setdefault(batch, []).append(tkey)
        finally:
            con.execute("DROP TABLE IF EXISTS temp._tc_keys")
        store = (segments_root(con), segments.committed_files(con, edition),
                 con.sql("SELECT unit_id, part, source_id FROM unit_sources ORDER BY ALL").to_arrow_table(),
                 min(TABLE_MEMORY, memory_limit(con)))  # a user's smaller bound holds there too
        ids = tuple(c.check_id for c in checks)
        self.futures = [cluster.submit(table_batch, *store, edition, ids, keys.get(batch, []), lo, hi, pure=False)
                        for batch, lo, hi in batches]

    def finish(self, con: duckdb.DuckDBPyConnection) -> dict[str, str]:
        """Each check's rows of every batch, in a temp table (returned by check id)."""
        out = {c.check_id: f"_tc_found_{i}" for i, c in enumerate(self.checks)}
        try:
            for i, future in enumerate(self.futures):
                for c, rows in zip(self.checks, future.result()):
                    con.register("_tc_rows", rows)
                    try:
                        into = f"CREATE OR REPLACE TEMP TABLE {out[c.check_id]} AS " if i == 0 else f"INSERT INTO temp.{out[c.check_id]} "
                        con.execute(into + "SELECT * FROM _tc_rows")
                    finally:
                        con.unregister("_tc_rows")
        except BaseException:
            for t in out.values():
                con.execute(f"DROP TABLE IF EXISTS temp.{t}")
            raise
        finally:
            self.close()
        return out

    def close(self) -> None:
        for f in self.futures:
            f.cancel()


def _load_table_batch(con: duckdb.DuckDBPyConnection, edition: str, batch: int, lo: str | None, hi: str | None,
                      stored: tuple[str, segments.Spans] | None = None) -> None:
    """One batch of tournaments (``batch`` of ``temp._tc_keys``, hand ids from ``lo`` to
    ``hi``): its slices of the stored tables as temp tables shadowing them, and the
    table views materialised from those (``_drop_slice`` drops them).  With ``stored``
    (the store's segment folder and its files' ``segments.file_spans``), the slices
    read the segment files that may hold the batch's hands, not the stored views over
    every file."""
    rng = "x.hand_id BETWEEN $lo AND $hi"  # lets DuckDB skip the row groups of other batches
    for name, sql in _SLICE.items():
        src = f"main.{name}"
        if stored is not None:
            root, spans = stored
            src = f"({segments.files_sql(_SEGMENT_BY_NAME[name], root, segments.in_range(spans, name, lo, hi))})"
        sql = sql.format(src=src, key=_TKEY.format(h="h"), range=rng.replace("x.", "h." if name == "hands" else "x."),
                         kinds=", ".join(f"'{k}'" for k in TABLE_EVENT_KINDS))
        params = {"lo": lo, "hi": hi, **({"batch": batch} if "$batch" in sql else {}),
                  **({"edition": edition} if "$edition" in sql else {})}
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS {sql}", params)
    for name in _MATERIALISED:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM main.{name}")
    # the views must have read the batch, not the whole store
    [(n_views, n_batch)] = con.execute(
        "SELECT (SELECT count(*) FROM temp.table_hands), (SELECT count(*) FROM temp.hands WHERE table_name IS NOT NULL)").fetchall()
    if n_views != n_batch:
        raise RuntimeError(f"table checks: the views read {n_views} hands, the batch has {n_batch}")


def _run_table_checks(con: duckdb.DuckDBPyConnection, checks: list[Check], edition: str,
                      files: Callable[[], tuple[str, segments.Spans]]) -> dict[str, str]:
    """Run the table checks a batch of tournaments at a time; their rows go into one
    temp table per check (returned by check id).  Each batch: its hands, seats,
    events and hand results as temp tables shadowing the stored ones, the table
    views materialised from them, then every check over those.  ``files``: the
    segment folder and its files' hand-id bounds (``run_checks``)."""
    out = {c.check_id: f"_tc_found_{i}" for i, c in enumerate(checks)}
    for t in out.values():
        con.execute(f"DROP TABLE IF EXISTS temp.{t}")
    try:
        # no tournament hands at a table: one empty batch, so that each check's table gets its
        # columns from empty slices (over the whole store's views a check would read every
        # cash hand only to keep none of them)
        batches = _table_batches(con) or [(0, None, None)]
        for i, (batch, lo, hi) in enumerate(batches):
            try:
                _load_table_batch(con, edition, batch, lo, hi, files())
                _batch_rows(con, checks, out, i == 0, edition)
            finally:
                _drop_slice(con)
    except BaseException:
        for t in out.values():
            con.execute(f"DROP TABLE IF EXISTS temp.{t}")
        raise
    finally:
        con.execute("DROP TABLE IF EXISTS temp._tc_keys")
    return out


# --- hand checks, a range of hand ids at a time ---------------------------------------------

# Hands per range of the checks that judge one hand (a store of at most this many: one
# query a check over the whole store).  Their joins keep the ids of the hands they read
# in hash tables, so one query's memory grows with the store: at 10M hands one of them
# outgrew the 400 MB bound (store.DEFAULT_MEMORY; at 1M, showdown-order and odd-chip are the
# first to outgrow a smaller one).  Measured at 1M hands under a 150 MB
# bound: ranges of 100,000 hands complete, of 250,000 do not; under the 400 MB default
# the whole 1M store completes in one query, so ranges of 250,000 leave a margin of four.
# The CPU is the same as one query's (39.5 and 38.7 s at 1M: DuckDB skips the row groups
# of other ranges, as hands are stored in the order they were read).
HAND_BATCH = 250_000


def _hand_batches(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str | None]]:
    """The store's hand ids cut into ranges of ``HAND_BATCH`` hands in id order: (lowest
    id, first id of the next range or None; ``store.id_ranges``); none when the store
    holds no more than one batch."""
    ((n,),) = con.execute("SELECT count(*) FROM hands").fetchall()
    return id_ranges(con, "SELECT hand_id FROM hands", HAND_BATCH) if n > HAND_BATCH else []


def _run_hand_checks(con: duckdb.DuckDBPyConnection, checks: list[Check], edition: str,
                     files: Callable[[], tuple[str, segments.Spans]], before_unit: int | None = None) -> dict[str, str]:
    """Over a store of more than ``HAND_BATCH`` hands, run the checks that judge one hand
    a range of hand ids at a time: temp views of the stored tables' names, each reading
    the range only, shadow the stored tables (temp is searched first, as for the table
    checks), and each check's rows of every range go into a temp table (returned by check
    id).  ``before_unit``: of the hands of the units before it only (those the ingest
    workers did not check), whatever the store's size.  A smaller store, every hand:
    nothing here (each check runs over the whole store).  ``files``: the segment
    folder and its files' hand-id bounds (``run_checks``)."""
    batches: list[tuple[str | None, str | None]] = list(_hand_batches(con))
    if not batches:
        if before_unit is None:
            return {}
        batches = [(None, None)]
    out = {c.check_id: f"_hc_found_{i}" for i, c in enumerate(checks)}
    root, spans = files()  # a writing connection: its views of the tables are the stored ones
    try:
        for i, rng in enumerate(batches):
            try:
                for t in SEGMENT_TABLES:
                    con.execute(segments.view_sql(t, root, temp=True, hand_range=rng, before_unit=before_unit,
                                                  files=segments.in_range(spans, t.name, *rng)))
                _batch_rows(con, checks, out, i == 0, edition)
            finally:
                for t in SEGMENT_TABLES:
                    con.execute(f"DROP VIEW IF EXISTS temp.{t.name}")  # schema-qualified: never the stored view
    except BaseException:
        for t in out.values():
            con.execute(f"DROP TABLE IF EXISTS temp.{t}")
        raise
    return out


def _batch_rows(con: duckdb.DuckDBPyConnection, checks: list[Check], out: dict[str, str], first: bool,
                edition: str) -> None:
    """Each check's rows over one batch (of tournaments or of hand ids) into its temp
    table named in ``out`` (by check id), made by the first batch."""
    for c in checks:
        into = f"CREATE OR REPLACE TEMP TABLE {out[c.check_id]} AS " if first else f"INSERT INTO temp.{out[c.check_id]} "
        con.execute(into + c.body, _params(c, edition))


def _drop_slice(con: duckdb.DuckDBPyConnection) -> None:
    # always schema-qualified: an unqualified DROP TABLE hands would drop the stored table
    for name in (*reversed(_MATERIALISED), *_SLICE):
        con.execute(f"DROP TABLE IF EXISTS temp.{name}")
