"""The self-contained HTML audit report.

One file with everything inline (CSS, SVG charts, JavaScript, data): it opens
from disk with no network.  The summary, charts and findings table are written
as HTML (escaped); a finding's evidence (timeline, pots, rule text) is rendered
in the page on demand from JSON embedded in a ``<script type="application/json">``
block, so a report over thousands of findings stays small and quick to open.

The page opens with its executive summary and findings; the evidence, the dossiers of
the findings' hands (``reports/dossier.py``, embedded: a finding's link opens its hand
at the step in dispute), the charts and the provenance follow.

Everything that comes from the histories (player, table, tournament and file
names, source lines) is escaped with ``reports.markup.esc``, or inserted as text by
the page's script, never as markup.
"""

from __future__ import annotations

import time
from pathlib import Path

from auditor import manifest
from reports import data
from reports.markup import esc, json_for_script

HERE = Path(__file__).parent


def pct(n: int, d: int) -> str:
    """'97.4%' (one decimal), or 'n/a' for nothing to count.

    >>> pct(1, 3), pct(0, 0), pct(5, 5)
    ('33.3%', 'n/a', '100%')
    """
    if not d:
        return "n/a"
    p = 100.0 * n / d
    return "100%" if n == d else f"{p:.1f}%"


def bar_chart(title: str, items: list[tuple[str, int]], chart_id: str, width: int = 560) -> str:
    """A horizontal bar chart as inline SVG (labels escaped)."""
    if not items:
        return f'<div class="chart" id="{chart_id}"><h3>{esc(title)}</h3><p class="muted">no findings</p></div>'
    bar_h, gap, label_w, pad_r = 18, 5, 210, 50
    h = len(items) * (bar_h + gap) + gap
    top = max(n for _, n in items) or 1
    span = width - label_w - pad_r
    parts = [f'<svg viewBox="0 0 {width} {h}" role="img" aria-label="{esc(title)}" xmlns="http://www.w3.org/2000/svg">']
    for i, (label, n) in enumerate(items):
        y = gap + i * (bar_h + gap)
        w = max(1, round(span * n / top))
        short = label if len(label) <= 32 else label[:31] + "\u2026"
        parts.append(
            f'<g><title>{esc(label)}: {n}</title>'
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{esc(short)}</text>'
            f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar_h}" rx="2"></rect>'
            f'<text x="{label_w + w + 4}" y="{y + 13}">{n}</text></g>'
        )
    parts.append("</svg>")
    return f'<div class="chart" id="{chart_id}"><h3>{esc(title)}</h3>{"".join(parts)}</div>'


def build(db: str, edition: str | None = None, hand_ids: list[str] | None = None, progress=None) -> tuple[str, dict]:
    """The report for the store ``db`` (all findings, or only ``hand_ids``); (html, stats).

    ``progress(stage)`` is called as each part is done.
    """
    t0 = time.perf_counter()
    step = progress or (lambda s: None)
    con, ed = data.open_store(db, edition)
    try:
        prov = data.provenance(con, db, ed)
        step("provenance")
        summ = data.summary(con, ed)
        step("summary")
        chart_data = data.charts(con, ed)
        if hand_ids is None:
            fs = data.findings(con, ed)
        else:
            fs = [f for h in hand_ids for f in data.findings(con, ed, h)]
        step(f"{len(fs)} findings")
        hands = data.evidence(con, ed, None if hand_ids is None else list(hand_ids), progress=step)
        rules = data.rules_for([f["check_id"] for f in fs], ed)
        step("evidence")
        made_from = manifest.build(con, ed, hand_ids)  # for tda-audit verify
        from reports.dossier import dossiers as read_dossiers

        # every finding's hand as a dossier (the table replayed step by step), in the page
        dossier_ids = sorted({f["hand_id"] for f in fs})
        by_hand = read_dossiers(con, ed, dossier_ids)
        dossiers = [by_hand[h] for h in dossier_ids]
        step(f"{len(dossiers)} dossiers")
    finally:
        con.close()
    payload = {
        "edition": ed,
        "cols": list(data.TIMELINE_COLS),
        "findings": fs,
        "hands": hands,
        "rules": rules,
        "focus": hand_ids[0] if hand_ids else None,
    }
    dossier_of = {h: k for k, h in enumerate(dossier_ids)}
    for f in fs:  # where each finding's link opens its hand's dossier
        f["dossier"] = dossier_of[f["hand_id"]]
        f["dossier_step"] = next((g["step"] for g in dossiers[f["dossier"]]["findings"]
                                  if g["finding_id"] == f["finding_id"]), None)
    page = render(prov, summ, chart_data, fs, payload, scoped=hand_ids, dossiers=dossiers, made_from=made_from)
    stats = {"bytes": len(page.encode("utf-8")), "findings": len(fs), "hands": len(hands),
             "seconds": round(time.perf_counter() - t0, 2), "edition": ed}
    return page, stats


def render(prov: dict, summ: dict, chart_data: dict, fs: list[dict], payload: dict, scoped=None,
           dossiers: list[dict] | None = None, made_from: dict | None = None) -> str:
    """The page: the executive summary and the findings first, then the evidence and the
    dossiers of the findings' hands, the charts, and the provenance last.  ``made_from``
    (``auditor.manifest.build``: what the page was made from; ``tda-audit verify`` reads
    it) is embedded as ``<script type="application/json" id="tda-manifest">``."""
    from reports import dossier

    ed = prov["edition"]
    css = (HERE / "report.css").read_text(encoding="utf-8") + dossier.component_css()
    js = dossier.script() + (HERE / "report.js").read_text(encoding="utf-8")
    title = "TDA audit report" + (f" \u2013 hand {scoped[0]}" if scoped else "")
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>{esc(title)} ({esc(ed)})</title>",
        manifest.script_tag(made_from) if made_from else "",  # what it was made from: tda-audit verify
        f"<style>{css}</style></head><body>",
        f'<header class="top"><h1>{esc(title)}</h1>'
        f'<div class="sub">Poker TDA rules, edition {esc(ed)} &middot; tda-audit {esc(prov["version"])} &middot; '
        f'generated {esc(prov["generated_at"])}</div></header><main>',
        "<noscript><p><b>JavaScript is off:</b> the summary and findings table below are complete; the per-finding "
        "evidence needs JavaScript (or run <code>tda-audit explain HAND</code>).</p></noscript>",
        summary_html(summ, prov, fs),
        findings_html(fs, summ),
        '<section id="evidence"><h2>Evidence</h2><div id="evidence-body">'
        '<p class="placeholder">Choose a finding in the table above (its hand id) to see its evidence: the hand as a '
        "timeline with the offending action highlighted, what the rule required, and the rule's text.</p></div></section>",
        '<section id="dossier"><h2>Dossier</h2><p id="dossier-line" class="muted">Choose a finding\'s step in the table '
        "above to replay its hand on the table, event by event, at the action in dispute.</p>"
        '<div id="dossier-body" class="dossier"></div></section>',
        charts_html(chart_data),
        provenance_html(prov, summ),
        f'<footer>Made by tda-audit {esc(prov["version"])} from the store {esc(prov["store"])}. Amounts are as recorded '
        "(tournament chips, or currency for cash games). Findings are what the replay of the recorded actions under the "
        "chosen edition shows; a finding is evidence to review, not a ruling.</footer>",
        "</main>",
        f'<script type="application/json" id="report-data">{json_for_script(payload)}</script>',
        f'<script type="application/json" id="dossiers-data">{json_for_script([dossier.for_page(d, shared_rules=True) for d in dossiers or []])}</script>',
        f"<script>{js}</script>",
        "</body></html>",
    ]
    return "\n".join(out)


def provenance_html(prov: dict, summ: dict) -> str:
    srcs = prov["sources"]
    root = common_root([s["path"] for s in srcs])
    cut = len(root.rstrip("/")) + 1 if root else 0
    rows = "".join(
        f'<tr><td class="mono">{esc(s["path"][cut:])}</td><td>{esc(s["format"])}</td><td class="mono">{esc(s["sha256"])}</td>'
        f'<td class="num">{s["hands"]}</td><td class="num">{s["rejected"]}</td><td class="num">{s["findings"]}</td></tr>'
        for s in srcs
    )
    table = ('<table id="sources"><thead><tr><th>file' + (f' (under <code>{esc(root)}</code>)' if root else '') + '</th><th>format</th><th>sha256</th><th class="num">hands</th>'
             f'<th class="num">rejected</th><th class="num">findings</th></tr></thead><tbody>{rows}</tbody></table>')
    n_hands = sum(s["hands"] for s in srcs)
    src_block = (table if len(srcs) <= 25 else
                 f"<details><summary>all {len(srcs)} files with their sha256 and hand counts</summary>"
                 f'<div class="scroll">{table}</div></details>')
    unread = summ["files_not_read"]
    unread_block = ""
    if unread:
        urows = "".join(f'<tr><td class="mono">{esc(u["path"])}</td><td>{esc(u["reason_code"])}</td><td>{esc(u["reason"])}</td></tr>'
                        for u in unread)
        unread_block = (f"<details><summary>{len(unread)} {'file' if len(unread) == 1 else 'files'} given to the audit "
                        f"{'was' if len(unread) == 1 else 'were'} not read as hand histories</summary>"
                        f'<table id="unread"><thead><tr><th>file</th><th>code</th><th>reason</th></tr></thead>'
                        f"<tbody>{urows}</tbody></table></details>")
    return (
        '<section id="provenance"><h2>Provenance</h2><table class="kv">'
        f'<tr><th>tool</th><td>tda-audit <span id="tool-version">{esc(prov["version"])}</span></td></tr>'
        f'<tr><th>rules</th><td>Poker TDA, edition <b id="edition">{esc(prov["edition"])}</b></td></tr>'
        f'<tr><th>house rules</th><td id="house">{esc(prov["house"]["text"])}</td></tr>'
        f'<tr><th>report made</th><td id="generated-at">{esc(prov["generated_at"])}</td></tr>'
        f'<tr><th>store</th><td class="mono" id="store-path">{esc(prov["store"])}</td></tr>'
        f'<tr><th>source files</th><td>{len(srcs)} files holding {n_hands} stored hands</td></tr>'
        f"</table>{sites_html(prov.get('sites', []))}{src_block}{unread_block}</section>"
    )


def sites_html(sites: list[dict]) -> str:
    """Provenance by site: the formats read, files, hands stored and rejected, findings."""
    rows = "".join(
        f'<tr><td>{esc(s["site"])}</td><td>{esc(s["formats"])}</td><td class="num">{s["files"]}</td>'
        f'<td class="num">{s["hands"]}</td><td class="num">{s["rejected"]}</td><td class="num">{s["findings"]}</td></tr>'
        for s in sites
    )
    return ('<table id="sites"><thead><tr><th>site</th><th>format</th><th class="num">files</th>'
            '<th class="num">hands</th><th class="num">rejected</th><th class="num">findings</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def common_root(paths: list[str]) -> str:
    """The folder all ``paths`` are under ('' if none in common).

    >>> common_root(["/a/b/c.txt", "/a/b/d/e.txt"]), common_root(["/x.txt"]), common_root([])
    ('/a/b', '/', '')
    """
    import os

    if not paths:
        return ""
    try:
        return os.path.commonpath([os.path.dirname(p) for p in paths])
    except ValueError:
        return ""


def summary_html(s: dict, prov: dict, fs: list[dict]) -> str:
    cards = [
        ("sum-hands", s["hands"], "hands stored"),
        ("sum-hands-replayed", s["hands_replayed"], f"hands replayed under {prov['edition']}"),
        ("sum-rejected", s["hands_rejected"], "hands rejected at ingest"),
        ("sum-violations", sum(f["category"] == "violation" for f in fs), "violations: the rules in force broken"),
        ("sum-departures", sum(f["category"] == "departure" for f in fs), "departures: the house's declared policy followed"),
        ("sum-records", sum(f["category"] == "record" for f in fs), "record findings: the history lacks or contradicts"),
        ("sum-findings", len(fs), "findings in all"),
        ("sum-hands-with", len({f["hand_id"] for f in fs}), "hands with a finding"),
        ("sum-errors", sum(f["severity"] == "error" for f in fs), "errors"),
        ("sum-warnings", sum(f["severity"] == "warning" for f in fs), "warnings"),
        ("sum-pots-verified", pct(s["contested_pots_verified"], s["contested_pots"]),
         f"contested pots verified ({s['contested_pots_verified']} of {s['contested_pots']}: every hand tabled)"),
        ("sum-hands-verified", pct(s["hands_fully_verified"], s["hands"]),
         f"hands fully verified ({s['hands_fully_verified']} of {s['hands']}: every pot's winner known, no replay note)"),
    ]
    cards_html = "".join(f'<div class="card"><div class="n" id="{i}">{esc(n)}</div><div class="l">{esc(label)}</div></div>'
                         for i, n, label in cards)
    by_check: dict[tuple[str, str], int] = {}
    for f in fs:
        by_check[(f["check_id"], f["severity"])] = by_check.get((f["check_id"], f["severity"]), 0) + 1
    rules = {r["check_id"]: r for r in s["by_check"]}
    titles = data.check_titles()
    check_rows = "".join(
        f'<tr data-check="{esc(c)}"><td><a href="#findings-section" data-filter-check="{esc(c)}">{esc(c)}</a></td>'
        f'<td>{esc(titles.get(c, {}).get("title", ""))}</td><td><span class="sev sev-{esc(sev)}">{esc(sev)}</span></td>'
        f'<td>{esc(rules.get(c, {}).get("rule", ""))}</td><td class="num">{n}</td></tr>'
        for (c, sev), n in sorted(by_check.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    check_table = ('<table id="by-check"><thead><tr><th>check</th><th>what it looks for</th><th>severity</th>'
                   f'<th>rule ({esc(prov["edition"])})</th><th class="num">findings</th></tr></thead><tbody>{check_rows}'
                   f'</tbody><tfoot><tr><th colspan="4">total</th><th class="num" id="by-check-total">{len(fs)}</th></tr></tfoot></table>')
    rej = s["rejected_by_reason"]
    rej_html = ""
    if rej:
        rej_rows = "".join(f'<tr><td>{esc(r["reason_code"])}</td><td class="num">{r["n"]}</td><td>{esc(r["example"])}</td></tr>' for r in rej)
        rej_html = ('<h3>Hands rejected at ingest, and why</h3><table id="rejected"><thead><tr><th>reason</th>'
                    f'<th class="num">hands</th><th>example</th></tr></thead><tbody>{rej_rows}</tbody></table>')
    if s["rejected_then_stored"]:
        rej_html += (f'<p class="muted" id="rejected-then-stored">{s["rejected_then_stored"]} hands rejected at an '
                     'earlier ingest were stored since, from a corrected file: they are counted as stored.</p>')
    notes = ""
    if s["hands_with_replay_notes"]:
        notes = f'<p class="muted">{s["hands_with_replay_notes"]} hands have replay notes (facts may be partial); see the <code>replay_notes</code> table.</p>'
    gap = ""
    if s.get("gap"):  # a store not (wholly) audited under this edition must not read as a clean audit
        gap = (f'<p class="incomplete" id="incomplete" role="alert"><strong>Incomplete audit.</strong> '
               f'{esc(s["gap"])}.</p>')
    return (f'<section id="summary"><h2>Executive summary</h2>{gap}<div class="cards">{cards_html}</div>'
            f"{categories_html(fs, titles, rules, prov)}"
            f"<h3>Findings by check and severity</h3>{check_table if fs else '<p>No findings.</p>'}{rej_html}{notes}</section>")


CATEGORY_TEXT = {
    "violation": ("Violations", "the rules in force were broken in the hand: a wrong amount stood, a pot went to the "
                  "wrong player, someone acted out of turn."),
    "departure": ("Departures", "the house's declared policy differs from the TDA edition, and the hand followed the "
                  "house's policy (the profile line and its source are cited)."),
    "record": ("Record findings", "the history does not record what the audit needs, or contradicts itself in a way "
               "no ruling explains (hands missing from a table, a total pot that does not add up, an implied event "
               "the record cannot support)."),
}


def categories_html(fs: list[dict], titles: dict, rules: dict, prov: dict) -> str:
    """Violations first, then departures, then record findings: each with its count,
    its findings per check and a chart."""
    out = []
    for cat in ("violation", "departure", "record"):
        mine = [f for f in fs if f["category"] == cat]
        name, what = CATEGORY_TEXT[cat]
        per: dict[str, int] = {}
        for f in mine:
            per[f["check_id"]] = per.get(f["check_id"], 0) + 1
        items = sorted(per.items(), key=lambda kv: (-kv[1], kv[0]))
        rows = "".join(
            f'<tr><td><a href="#findings-section" data-filter-check="{esc(c)}">{esc(c)}</a></td>'
            f'<td>{esc(titles.get(c, {}).get("title", ""))}</td><td>{esc(rules.get(c, {}).get("rule", ""))}</td>'
            f'<td class="num">{n}</td></tr>' for c, n in items)
        table = (f'<table id="by-check-{cat}"><thead><tr><th>check</th><th>what it looks for</th>'
                 f'<th>rule ({esc(prov["edition"])})</th><th class="num">findings</th></tr></thead><tbody>{rows}</tbody></table>'
                 if mine else "")
        out.append(f'<div class="category" id="category-{cat}"><h3>{esc(name)}: <span id="count-{cat}">{len(mine)}</span></h3>'
                   f'<p class="muted">{esc(what)}</p>{table}'
                   + (bar_chart(f"{name} per check", items, f"chart-{cat}") if mine else "") + "</div>")
    return "".join(out)


def charts_html(c: dict) -> str:
    return ('<section id="charts"><h2>Charts</h2><div class="charts">'
            + bar_chart("Findings per check", c["check"], "chart-check")
            + bar_chart("Findings per site", c["site"], "chart-site")
            + bar_chart("Findings per table (top 20)", c["table"], "chart-table")
            + bar_chart("Findings per tournament (top 20)", c["tournament"], "chart-tournament")
            + bar_chart("Findings per blind level", c["level"], "chart-level")
            + bar_chart("Findings per hour of day (hand start, site time)", c["hour"], "chart-hour")
            + "</div></section>")


FINDING_TABLE = (
    ("#", None), ("category", "category"), ("severity", "severity"), ("check", "check_id"), ("rule", "rule"), ("hand", "hand_id"),
    ("dossier", None),
    ("tournament", "tournament_id"), ("table", "table_name"), ("street", "street"), ("seat", "seat"),
    ("player", "player"), ("expected", "expected"), ("actual", "actual"), ("message", "message"), ("source", None),
)


def findings_html(fs: list[dict], s: dict) -> str:
    sev_rank = {"error": 0, "warning": 1, "info": 2}
    cat_rank = {"violation": 0, "departure": 1, "record": 2}
    rows = []
    for i, f in enumerate(fs):
        src = f"{Path(f['source_path']).name if f['source_path'] else ''}:{f['line_no'] or ''}"
        cells = [
            f'<td class="num">{i + 1}</td>',
            f'<td data-sort="{cat_rank.get(f["category"], 9)}" title="{esc(f.get("category_basis") or "")}">{esc(f["category"])}</td>',
            f'<td data-sort="{sev_rank.get(f["severity"], 9)}"><span class="sev sev-{esc(f["severity"])}">{esc(f["severity"])}</span></td>',
            f'<td>{esc(f["check_id"])}</td>', f'<td>{esc(f["rule"])}</td>',
            f'<td><a class="ev-link" href="#f-{i}">{esc(f["hand_id"])}</a></td>',
            (f'<td><a class="dossier-link" href="#dossier-{f["dossier"]}-step-{f["dossier_step"]}" '
             f'title="replay the hand at this step">step {f["dossier_step"]}</a></td>'
             if f.get("dossier_step") is not None else
             f'<td><a class="dossier-link" href="#dossier-{f["dossier"]}-step-0">hand</a></td>'
             if f.get("dossier") is not None else "<td></td>"),
            f'<td>{esc(f["tournament_id"])}</td>', f'<td>{esc(f["table_name"])}</td>', f'<td>{esc(f["street"])}</td>',
            f'<td class="num">{esc(f["seat"])}</td>', f'<td>{esc(f["player"])}</td>', f'<td>{esc(f["expected"])}</td>',
            f'<td>{esc(f["actual"])}</td>', f'<td class="msg">{esc(f["message"])}</td>',
            f'<td class="mono" title="{esc(f["source_path"])}">{esc(src)}</td>',
        ]
        rows.append(f'<tr id="row-{i}" data-category="{esc(f["category"])}" data-severity="{esc(f["severity"])}" data-check="{esc(f["check_id"])}">{"".join(cells)}</tr>')
    head = "".join(f'<th{" class=num" if h in ("#", "seat") else ""}>{esc(h)}</th>' for h, _ in FINDING_TABLE)
    checks = sorted({f["check_id"] for f in fs})
    opts = "".join(f'<option value="{esc(c)}">{esc(c)}</option>' for c in checks)
    return (
        '<section id="findings-section"><h2>Findings</h2>'
        '<div class="controls"><input type="search" id="filter" placeholder="Filter: any words (hand, player, table, check, message...)" '
        'aria-label="filter findings">'
        '<select id="filter-severity" aria-label="severity"><option value="">all severities</option><option>error</option>'
        '<option>warning</option><option>info</option></select>'
        f'<select id="filter-check" aria-label="check"><option value="">all checks</option>{opts}</select>'
        f'<span><b id="shown-count">{len(fs)}</b> of <b id="total-count">{len(fs)}</b> shown</span></div>'
        f'<div class="scroll"><table id="findings"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        '<div class="pager"><button id="prev" type="button">&larr; previous</button><span id="page-info"></span>'
        '<button id="next" type="button">next &rarr;</button></div></section>'
    )


def write(path: str | Path, page: str) -> None:
    Path(path).write_text(page, encoding="utf-8")
