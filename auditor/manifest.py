"""The manifest a report carries: what its findings were made from, and the findings
themselves in a canonical form, so that ``tda-audit verify`` (``auditor/verify.py``)
can audit the same inputs again and name every difference.

It holds the tool's version (and which modules ran compiled), the TDA edition and
the fixed-limit raise cap the replay used, the house profiles that categorised the
findings (each file with its sha256), every input file (path, sha256, size) and
the findings: their rows (``FINDING_FIELDS``) and a sha256 digest over the edition
and the rows.  A report of one hand (a dossier) names that hand's file only, and
the hand's content hash (``hands.content_hash``, the identity duplicates are found
by at ingest).

It reads the store only, so the reports and the verify command both reach it.  A
page embeds it with :func:`script_tag`; :func:`from_text` reads it back.

>>> m = {"manifest": 1, "edition": "tda-2024", "findings": {"rows": [["</script><b>"]]}}
>>> tag = script_tag(m)
>>> "</script><b>" in tag, tag.count("</script>")
(False, 1)
>>> from_text(tag) == m
True
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import duckdb

from auditor import __version__

FORMAT = 1  # the manifest's own format: a reader refuses one it does not know
SCRIPT_ID = "tda-manifest"
#: A finding's row in the manifest, in this order; the first four name it (its key).
FINDING_FIELDS = ("hand", "check", "seq", "seat", "street", "category", "rule", "expected", "actual", "line")
KEY_FIELDS = FINDING_FIELDS[:4]
# the findings' columns for FINDING_FIELDS; the file's path is left out (the same
# file read from another folder makes the same finding): the inputs name files by sha256
_FINDING_SQL = ("SELECT hand_id, check_id, seq, seat, street, category, rule, expected, actual, line_no FROM findings "
                "WHERE edition = ? {hands} ORDER BY hand_id, coalesce(seq, 1 << 30), check_id, coalesce(seat, -1)")


class ManifestError(Exception):
    """A file holding no manifest, or one this version cannot read."""


def sha256_file(path: str | Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def canonical(obj) -> str:
    """The one JSON text of ``obj`` a digest is taken over (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def findings_digest(edition: str, rows: list[list]) -> str:
    """sha256 over the edition and the findings' rows: a row, or the edition, edited in a
    manifest no longer matches its digest."""
    return hashlib.sha256(canonical({"edition": edition, "fields": FINDING_FIELDS, "rows": rows}).encode("utf-8")).hexdigest()


def build(con: duckdb.DuckDBPyConnection, edition: str, hand_ids: list[str] | None = None) -> dict:
    """The manifest of the store's findings under ``edition``: of the whole store, or,
    with ``hand_ids`` (a dossier), of those hands only: their files and content hashes."""
    from parsers._native import running_description

    hands = None
    if hand_ids is None:
        inputs = con.execute("SELECT path, sha256, size FROM sources ORDER BY source_id").fetchall()
        where, args = "", [edition]
    else:
        rows = con.execute(
            "SELECT h.hand_id, h.content_hash, s.sha256, h.first_line, h.last_line FROM hands h "
            "JOIN sources s USING (source_id) WHERE h.hand_id IN (SELECT unnest(?::VARCHAR[])) ORDER BY h.hand_id",
            [list(hand_ids)]).fetchall()
        hands = [{"hand": h, "content_hash": c, "file_sha256": s, "first_line": a, "last_line": b} for h, c, s, a, b in rows]
        inputs = con.execute("SELECT path, sha256, size FROM sources WHERE source_id IN (SELECT source_id FROM hands "
                             "WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))) ORDER BY source_id", [list(hand_ids)]).fetchall()
        where, args = "AND hand_id IN (SELECT unnest(?::VARCHAR[]))", [edition, list(hand_ids)]
    rows = [list(r) for r in con.execute(_FINDING_SQL.format(hands=where), args).fetchall()]
    cap = con.execute("SELECT value FROM meta WHERE key = ?", [f"replay_cap:{edition}"]).fetchone()
    out = {
        "manifest": FORMAT,
        "tool": {"name": "tda-audit", "version": __version__, "running": running_description()},
        "edition": edition,
        "raise_cap": int(cap[0]) if cap else None,
        "house": house(con, edition, hand_ids),
        "scope": "store" if hand_ids is None else "hands",
        "inputs": [{"path": p, "sha256": s, "size": n} for p, s, n in inputs],
        "findings": {"fields": list(FINDING_FIELDS), "count": len(rows), "digest": findings_digest(edition, rows),
                     "rows": rows},
    }
    if hands is not None:
        out["hands"] = hands
    return out


def house(con: duckdb.DuckDBPyConnection, edition: str, hand_ids: list[str] | None = None) -> dict | None:
    """The house profiles that categorised the edition's findings (meta 'house:<edition>',
    written by ``auditor.house.apply``): mode, text, and each profile with its file's
    sha256 (None when the file is gone); None when they were never categorised.  With
    ``hand_ids``, under auto, the profiles of those hands' sites only."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"house:{edition}"]).fetchone()
    if row is None:
        return None
    try:
        what = dict(json.loads(row[0]))
    except ValueError:  # a store from before the provenance was structured: its line only
        return {"mode": None, "text": row[0], "profiles": None}
    profiles = []
    used = what.get("profiles") or []
    if hand_ids is not None and what.get("mode") == "auto":
        sites = {r[0] for r in con.execute("SELECT DISTINCT site FROM hands WHERE hand_id IN (SELECT unnest(?::VARCHAR[]))",
                                           [list(hand_ids)]).fetchall()}
        used = [p for p in used if sites & set(p.get("sites") or ())]
        # the line auditor.house.provenance writes, for these profiles
        what["text"] = "auto: " + (", ".join(f"{p['profile']} ({Path(p['file']).name}) for {'/'.join(p['sites'])} hands"
                                             for p in used) or "no profile for the sites stored")
    for p in used:
        f = Path(p["file"])
        profiles.append({"profile": p["profile"], "file": p["file"], "sites": p.get("sites"),
                         "sha256": sha256_file(f) if f.is_file() else None})
    return {"mode": what.get("mode"), "text": what.get("text"), "profiles": profiles}


def script_tag(manifest: dict) -> str:
    """The manifest as ``<script type="application/json" id="tda-manifest">`` for an HTML
    page: '<', '>' and '&' escaped, so no name in it can close the element."""
    s = json.dumps(manifest, ensure_ascii=False, default=str, separators=(",", ":"))
    s = (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
         .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    return f'<script type="application/json" id="{SCRIPT_ID}">{s}</script>'


MARKDOWN_OPEN = f"<!-- {SCRIPT_ID}: what this report was made from, for tda-audit verify -->"


def markdown_block(manifest: dict) -> str:
    """The manifest for a Markdown report: a marked, fenced JSON block at its end."""
    return f"\n{MARKDOWN_OPEN}\n```json\n{json.dumps(manifest, ensure_ascii=False, default=str)}\n```\n"


_SCRIPT = re.compile(r'<script[^>]*\bid="' + SCRIPT_ID + r'"[^>]*>(.*?)</script>', re.S)
_MARKDOWN = re.compile(re.escape(MARKDOWN_OPEN) + r"\s*```json\n(.*?)\n```", re.S)


def from_text(text: str) -> dict:
    """The manifest in a report's text: an HTML page's script element, a Markdown
    report's marked block, or a JSON report's ``manifest`` key.  ManifestError if none."""
    # a Markdown report's block is its last (appended at the end)
    found = _SCRIPT.search(text) or next(reversed(list(_MARKDOWN.finditer(text))), None)
    if found:
        body = found.group(1)
    else:
        try:
            doc = json.loads(text)
        except ValueError:
            raise ManifestError("no tda-audit manifest in it (not a report made by 'tda-audit report' or 'explain')") from None
        if not isinstance(doc, dict) or not isinstance(doc.get("manifest"), dict):
            raise ManifestError("a JSON file without a 'manifest' object (not a report made by tda-audit)")
        body = None
        m = doc["manifest"]
    if body is not None:
        try:
            m = json.loads(body)
        except ValueError as e:
            raise ManifestError(f"its manifest is not valid JSON ({e})") from None
    if not isinstance(m, dict) or m.get("manifest") != FORMAT:
        raise ManifestError(f"its manifest is not of format {FORMAT}, the one this version of tda-audit reads")
    return m


def read(path: str | Path) -> dict:
    """The manifest of the report file ``path`` (ManifestError if it holds none or
    cannot be read)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise ManifestError(f"cannot read it: {why}") from None
    return from_text(text)
