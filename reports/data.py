"""What the reports show, read from the store with DuckDB queries.

Everything here reads; nothing writes.  :func:`open_store` opens the store
read-only and creates the people-named TEMP views of ``reports/views.sql`` for
one TDA edition.  The other functions return plain dicts and lists, which the
HTML report, ``explain`` and the exports render.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from pathlib import Path

import duckdb

from auditor import __version__
from auditor.checks import CATEGORIES
from auditor.store import connect

VIEWS_SQL = Path(__file__).with_name("views.sql")
#: The TEMP views ``reports/views.sql`` creates, with one line each (docs/reports.md).
VIEWS = {
    "actions": "every event in order, with the replay's decision facts (stack, pot, to call, min raise-to, betting open)",
    "findings_by_check": "findings, hands and tournaments per check, with severity, rule and the count per category",
    "findings_by_category": "findings, hands, tournaments and checks per category: violation, departure, record",
    "hand_summary": "one row per hand: table, level, players, pots verified, findings and checks",
    "player_summary": "per player: hands, tournaments, findings that name the player",
    "source_summary": "per ingested file: sha256, hands stored, hands rejected, findings",
}


def open_store(db: str, edition: str | None = None) -> tuple[duckdb.DuckDBPyConnection, str]:
    """Open ``db`` read-only, pick the edition and create the TEMP views; (con, edition).

    Raises :class:`auditor.store.StoreError` when there is no store.
    """
    con = connect(db, read_only=True)
    ed = pick_edition(con, edition)
    install_views(con, ed)
    return con, ed


def install_views(con: duckdb.DuckDBPyConnection, edition: str) -> None:
    """Create the TEMP views for ``edition`` on ``con`` (works read-only)."""
    con.execute("SET VARIABLE edition = ?", [edition])
    con.execute(VIEWS_SQL.read_text(encoding="utf-8"))


def pick_edition(con: duckdb.DuckDBPyConnection, requested: str | None) -> str:
    """The edition asked for, else the default edition if the store was replayed under
    it, else the edition with the most replayed hands."""
    from replay.editions import DEFAULT_EDITION

    if requested:
        return requested
    rows = con.execute(
        "SELECT edition, count(DISTINCT hand_id) n FROM hand_results GROUP BY edition ORDER BY n DESC, edition DESC"
    ).fetchall()
    editions = [r[0] for r in rows]
    if not editions or DEFAULT_EDITION in editions:
        return DEFAULT_EDITION
    return editions[0]


def _dicts(cur) -> list[dict]:
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def provenance(con: duckdb.DuckDBPyConnection, db: str, edition: str) -> dict:
    """Who made the report, when, from what: tool version, edition, store and every source file."""
    sources = _dicts(con.execute(
        "SELECT path, format, sha256, size, hands, rejected, findings, ingested_at FROM source_summary ORDER BY path"
    ))
    from auditor.house import applied

    return {
        "tool": "tda-audit",
        "version": __version__,
        "edition": edition,
        # the house-rule profiles that made findings departures (tda-audit audit --house):
        # auditor.house.provenance's mode, profiles and text
        "house": applied(con, edition) or {"mode": None, "profiles": None,
                                           "text": "none recorded (findings judged by the TDA edition alone)"},
        "generated_at": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "store": str(Path(db).resolve()),
        "sources": sources,
        "sites": _dicts(con.execute(SITES_SQL)),
    }


# per site: the files read as its format(s), the hands stored and rejected, the findings
SITES_SQL = """
WITH f AS (SELECT s.source_id, coalesce(any_value(h.site), s.format) AS site FROM sources s
           LEFT JOIN hands h USING (source_id) GROUP BY s.source_id, s.format)
SELECT f.site, string_agg(DISTINCT s.format, ', ' ORDER BY s.format) AS formats, count(*) AS files,
       sum(ss.hands) AS hands, sum(ss.rejected) AS rejected, sum(ss.findings) AS findings
FROM f JOIN sources s USING (source_id) JOIN source_summary ss USING (source_id)
GROUP BY f.site ORDER BY hands DESC, f.site
"""


def summary(con: duckdb.DuckDBPyConnection, edition: str) -> dict:
    """The executive summary's numbers."""
    (hands,) = con.execute("SELECT count(*) FROM hands").fetchone()
    (replayed,) = con.execute("SELECT count(DISTINCT hand_id) FROM hand_results WHERE edition = ?", [edition]).fetchone()
    # a hand rejected, then stored from a corrected file, is stored: not counted as rejected
    rejected = _dicts(con.execute(
        "SELECT reason_code, count(DISTINCT hand_id) AS n, "
        "any_value(source_path || ':' || coalesce(CAST(line_no AS VARCHAR), '?') || ': ' || reason) AS example "
        "FROM ingest_errors WHERE hand_id IS NOT NULL AND hand_id NOT IN (SELECT hand_id FROM hands) "
        "GROUP BY reason_code ORDER BY n DESC, reason_code"
    ))
    (stored_since,) = con.execute(
        "SELECT count(DISTINCT hand_id) FROM ingest_errors WHERE hand_id IN (SELECT hand_id FROM hands)").fetchone()
    unread = _dicts(con.execute(
        "SELECT source_path AS path, reason_code, reason FROM ingest_errors WHERE hand_id IS NULL ORDER BY source_path"
    ))
    by_check = _dicts(con.execute(
        "SELECT check_id, severity, rule, rule_title, findings, hands FROM findings_by_check ORDER BY findings DESC, check_id"
    ))
    by_severity = dict(con.execute(
        "SELECT severity, count(*) FROM findings WHERE edition = ? GROUP BY severity", [edition]
    ).fetchall())
    by_category = dict(con.execute(
        "SELECT category, count(*) FROM findings WHERE edition = ? GROUP BY category", [edition]
    ).fetchall())
    (n_findings, hands_with) = con.execute(
        "SELECT count(*), count(DISTINCT hand_id) FROM findings WHERE edition = ?", [edition]
    ).fetchone()
    pots = con.execute(
        "SELECT count(*), count(*) FILTER (WHERE verified), count(*) FILTER (WHERE contested), "
        "count(*) FILTER (WHERE contested AND verified) FROM pots WHERE edition = ? AND run = 1", [edition]
    ).fetchone()
    (fully,) = con.execute("SELECT count(*) FROM hand_summary WHERE fully_verified").fetchone()
    (notes,) = con.execute("SELECT count(DISTINCT hand_id) FROM replay_notes WHERE edition = ?", [edition]).fetchone()
    from auditor.checks import findings_gap

    return {
        "hands": hands,
        "hands_replayed": replayed,
        "gap": findings_gap(con, edition),  # why the findings do not judge every stored hand, or None
        "hands_rejected": sum(r["n"] for r in rejected),
        "rejected_by_reason": rejected,
        "rejected_then_stored": stored_since,  # rejected once, stored later (a corrected file)
        "files_not_read": unread,
        "findings": n_findings,
        "hands_with_findings": hands_with,
        "by_check": by_check,
        "by_severity": {s: by_severity.get(s, 0) for s in ("error", "warning", "info")},
        "by_category": {c: by_category.get(c, 0) for c in CATEGORIES},
        "pots": pots[0],
        "pots_verified": pots[1],
        "contested_pots": pots[2],
        "contested_pots_verified": pots[3],
        "hands_fully_verified": fully,
        "hands_with_replay_notes": notes,
    }


def charts(con: duckdb.DuckDBPyConnection, edition: str, top: int = 20) -> dict[str, list[tuple[str, int]]]:
    """Findings counted per check, table, level, hour of day and tournament (largest first, ``top`` at most)."""
    q = lambda sql: [(str(k), int(n)) for k, n in con.execute(sql, [edition]).fetchall()]  # noqa: E731
    return {
        "check": q("SELECT check_id, count(*) n FROM findings WHERE edition = ? GROUP BY 1 ORDER BY n DESC, 1"),
        "table": q(
            "SELECT coalesce(f.table_name, '(no table)'), count(*) n FROM findings f WHERE edition = ? "
            f"GROUP BY 1 ORDER BY n DESC, 1 LIMIT {top}"
        ),
        "level": q(
            "SELECT coalesce(h.level, '(none)') || coalesce(' (' || h.small_blind || '/' || h.big_blind || ')', ''), count(*) n "
            "FROM findings f JOIN hands h USING (hand_id) WHERE edition = ? "
            f"GROUP BY 1 ORDER BY min(h.big_blind) NULLS LAST, 1 LIMIT {top}"
        ),
        "hour": q(
            "SELECT coalesce(lpad(CAST(hour(h.started_at) AS VARCHAR), 2, '0') || ':00', '(unknown)'), count(*) n "
            "FROM findings f JOIN hands h USING (hand_id) WHERE edition = ? GROUP BY 1 ORDER BY 1"
        ),
        "site": q(
            "SELECT coalesce(h.site, '(none)'), count(*) n FROM findings f LEFT JOIN hands h USING (hand_id) "
            "WHERE edition = ? GROUP BY 1 ORDER BY n DESC, 1"
        ),
        "tournament": q(
            "SELECT coalesce(f.tournament_id, '(cash / none)'), count(*) n FROM findings f WHERE edition = ? "
            f"GROUP BY 1 ORDER BY n DESC, 1 LIMIT {top}"
        ),
    }


# the site of a finding's hand (a finding names its hand; the hand names its site)
SITE_JOIN = "LEFT JOIN (SELECT hand_id, site FROM hands) h USING (hand_id)"
FINDING_COLS = (
    "finding_id", "check_id", "severity", "category", "category_basis", "rule", "rule_title", "hand_id", "tournament_id", "table_name",
    "street", "seq", "seat", "player", "expected", "actual", "message", "source_path", "line_no",
)


def findings(con: duckdb.DuckDBPyConnection, edition: str, hand_id: str | None = None) -> list[dict]:
    """The findings of the edition (of one hand): violations, then departures, then
    record findings, each in hand and action order, each with its hand's site."""
    sql = f"SELECT {', '.join(FINDING_COLS)}, h.site FROM findings {SITE_JOIN} WHERE edition = ?"
    args = [edition]
    if hand_id is not None:
        sql += " AND hand_id = ?"
        args.append(hand_id)
    order = " ".join(f"WHEN '{c}' THEN {i}" for i, c in enumerate(CATEGORIES))
    sql += f" ORDER BY CASE category {order} END, hand_id, coalesce(seq, 1 << 30), check_id, seat"
    return _dicts(con.execute(sql, args))


def check_titles() -> dict[str, dict]:
    """check id -> title, severity, rationale (from the SQL headers)."""
    from auditor.checks import load_checks

    return {c.check_id: {"title": c.title, "severity": c.severity, "rationale": c.rationale} for c in load_checks()}


def rules_for(check_ids, edition: str) -> dict[str, dict]:
    """Per check: its title and rationale and the rules it cites in ``edition``, each with
    its number, title, the catalog's quote and the full text from the edition's document
    (``text`` is None when the document is not available)."""
    from auditor.catalog import citation, rule_text

    titles = check_titles()
    out = {}
    for cid in sorted(set(check_ids)):
        try:
            cites = citation(cid, edition)
        except KeyError:
            cites = []
        out[cid] = {
            "title": titles.get(cid, {}).get("title", cid),
            "rationale": titles.get(cid, {}).get("rationale", ""),
            "citations": [
                {"ref": c.ref, "rule": c.rule, "part": c.part, "title": c.title, "quote": c.quote,
                 "text": reflow(rule_text(edition, c.rule, c.part) or (rule_text(edition, c.rule) if c.part else None))}
                if not c.missing else {"missing": True, "note": c.note}
                for c in cites
            ],
        }
    return out


#: where a rule's text starts a new paragraph: a lettered part ('B: ', '- C: ') or a bullet
PARAGRAPH_START = re.compile(r"^(?:- )?[A-Z]:\s|^[-\u2022] |^\d+[.)] ")


def reflow(text: str | None) -> str | None:
    """A rule's text with the transcription's line breaks removed: its lines joined into
    paragraphs, a new one only where a lettered part or a bullet starts; a word broken
    at a line's hyphen is joined.

    >>> reflow("A: A raise must be\\nat least equal. A player\\nwho raises\\nB: In limit, re-\\nopening")
    'A: A raise must be at least equal. A player who raises\\nB: In limit, re-opening'
    """
    if text is None:
        return None
    out: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        if not out or PARAGRAPH_START.match(line):
            out.append(line)
        elif out[-1].endswith("-") and line[:1].islower():
            out[-1] += line
        else:
            out[-1] += " " + line
    return "\n".join(out)


#: The columns of a timeline row (compact arrays in the report's JSON).
#: a seat's columns in ``evidence`` (position: PHH's acting order, Bovada's from its position names)
SEAT_COLS = ("seat", "player", "starting_stack", "sitting_out", "position")
TIMELINE_COLS = (
    "seq", "line_no", "street", "kind", "seat", "player", "amount", "to_amount", "all_in", "cards", "pot_label",
    "stack_before", "pot_before", "to_call", "min_raise_to", "max_raise_to", "betting_open", "betting_open_why",
    "action_class", "expected_seat", "text", "inferred_from",
)


def evidence(con: duckdb.DuckDBPyConnection, edition: str, hand_ids: list[str] | None = None,
             progress=None) -> dict[str, dict]:
    """Per hand: its header, seats, timeline (events with decision facts), pots and results.

    ``hand_ids`` None means every hand with a finding.  Done with one query per fact
    table over all the hands at once, so it stays fast for thousands of hands.
    """
    if hand_ids is None:
        con.execute("CREATE OR REPLACE TEMP TABLE _ev_hands AS SELECT DISTINCT hand_id FROM findings WHERE edition = ?", [edition])
    else:
        con.execute("CREATE OR REPLACE TEMP TABLE _ev_hands (hand_id VARCHAR)")
        if hand_ids:
            con.executemany("INSERT INTO _ev_hands VALUES (?)", [[h] for h in hand_ids])
    out: dict[str, dict] = {}
    for h in _dicts(con.execute(
        "SELECT h.hand_id, h.site, h.hand_number, h.tournament_id, h.tournament_name, h.table_name, h.level, "
        "h.small_blind, h.big_blind, h.ante, h.variant, h.betting, h.game_label, h.started_at_text, h.button_seat, "
        "h.amount_scale AS scale, s.path AS source_path, s.sha256, h.first_line, h.last_line "
        "FROM hands h JOIN _ev_hands USING (hand_id) JOIN sources s USING (source_id) ORDER BY h.hand_id"
    )):
        h["seats"], h["timeline"], h["pots"], h["results"], h["notes"] = [], [], [], [], []
        out[h["hand_id"]] = h
    if progress:
        progress("hands")
    for r in con.execute(
        f"SELECT hand_id, {', '.join(SEAT_COLS)} FROM seats JOIN _ev_hands USING (hand_id) ORDER BY hand_id, seat"
    ).fetchall():
        out[r[0]]["seats"].append(list(r[1:]))
    cols = ", ".join(f"a.{c}" for c in TIMELINE_COLS)
    cur = con.execute(f"SELECT a.hand_id, {cols} FROM actions a JOIN _ev_hands USING (hand_id) ORDER BY a.hand_id, a.seq")
    while batch := cur.fetchmany(20000):
        for r in batch:
            out[r[0]]["timeline"].append(list(r[1:]))
    if progress:
        progress("timeline")
    for p in _dicts(con.execute(
        # a board run twice: a row per pot and run, labelled with its run
        "SELECT p.hand_id, pot_index, CASE WHEN max(run) OVER (PARTITION BY p.hand_id, pot_index) > 1 "
        "THEN pot_label || ' (run ' || run || ')' ELSE pot_label END AS pot_label, amount, eligible, contested, "
        "hi_winners, lo_winners, verified, note "
        "FROM pots p JOIN _ev_hands USING (hand_id) WHERE edition = ? ORDER BY p.hand_id, pot_index, run", [edition]
    )):
        out[p.pop("hand_id")]["pots"].append(p)
    for r in _dicts(con.execute(
        "SELECT r.hand_id, seat, player, starting_stack, contributed, returned_expected, returned_recorded, won_expected, "
        "won_recorded, end_stack_expected, end_stack_recorded, returned_basis, returned_from, returned_line "
        "FROM hand_results r JOIN _ev_hands USING (hand_id) "
        "WHERE edition = ? ORDER BY r.hand_id, seat", [edition]
    )):
        out[r.pop("hand_id")]["results"].append(r)
    for n in _dicts(con.execute(
        "SELECT n.hand_id, seq, code, message FROM replay_notes n JOIN _ev_hands USING (hand_id) WHERE edition = ? "
        "ORDER BY n.hand_id, seq", [edition]
    )):
        out[n.pop("hand_id")]["notes"].append(n)
    con.execute("DROP TABLE _ev_hands")
    return out


def hand_evidence(con: duckdb.DuckDBPyConnection, edition: str, hand_id: str) -> dict | None:
    """Everything ``explain`` shows for one hand: the hand, its findings with the rules
    they cite (text quoted from the edition's document) and its timeline."""
    ev = evidence(con, edition, [hand_id]).get(hand_id)
    if ev is None:
        return None
    fs = findings(con, edition, hand_id)
    ev["edition"] = edition
    ev["findings"] = fs
    ev["rules"] = rules_for([f["check_id"] for f in fs], edition)
    ev["timeline"] = [dict(zip(TIMELINE_COLS, r)) for r in ev["timeline"]]
    ev["seats"] = [dict(zip(SEAT_COLS, s)) for s in ev["seats"]]
    return ev


def resolve_hand(con: duckdb.DuckDBPyConnection, ref: str) -> list[str]:
    """Hand ids matching ``ref``: the exact id, else the site's hand number, else an id ending in it
    (at most 1,000 of those)."""
    if not ref.strip():
        return []
    for sql in ("SELECT hand_id FROM hands WHERE hand_id = ?",
                "SELECT hand_id FROM hands WHERE hand_number = ?",
                "SELECT hand_id FROM hands WHERE hand_id LIKE '%' || ? ORDER BY hand_id LIMIT 1000"):
        rows = [r[0] for r in con.execute(sql, [ref]).fetchall()]
        if rows:
            return rows
    return []


def offending(f: dict, timeline: list) -> set[int]:
    """Indexes of the timeline rows a finding points at: its action (seq), else its source line."""
    def get(r, k):
        return r[k] if isinstance(r, dict) else r[TIMELINE_COLS.index(k)]

    if f.get("seq") is not None:
        hits = {i for i, r in enumerate(timeline) if get(r, "seq") == f["seq"]}
        if hits:
            return hits
    if f.get("line_no") is not None:
        return {i for i, r in enumerate(timeline) if get(r, "line_no") == f["line_no"]}
    return set()


def group_by(rows, key) -> dict:
    out = defaultdict(list)
    for r in rows:
        out[r[key]].append(r)
    return out
