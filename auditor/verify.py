"""``tda-audit verify``: audit a report's inputs again and say whether its findings are
the same.

The report's manifest (``auditor.manifest``) names its inputs by path, sha256 and
size, its edition, raise cap and house profiles, and holds its findings.  Each input
is found (``locate``: a file given on the command line with the recorded sha256, else
one of its name there, else the file at the recorded path), read as it is now, and
audited in a temporary store by the pipeline
``tda-audit audit`` runs (``auditor.pipeline.audit``), under the same edition, raise
cap and house profiles.  Every difference is named: an input missing or changed, a
hand of a dossier whose content changed, a house profile changed, a manifest whose
findings no longer match their digest, and each finding added, removed or changed.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from auditor import __version__
from auditor import manifest as mf


class VerifyError(Exception):
    """A usage error: no report, no manifest in it, a path given that is not there."""


@dataclass
class Input:
    """A recorded input, and what was found for it: status 'same' (read from
    ``read_from``, with the recorded sha256), 'changed' (a file at the recorded path,
    or one given with the same name, whose content differs) or 'missing'."""
    path: str
    sha256: str
    size: int
    status: str = "missing"
    read_from: str | None = None
    sha256_now: str | None = None
    size_now: int | None = None

    def as_json(self) -> dict:
        return {"path": self.path, "sha256": self.sha256, "size": self.size, "status": self.status,
                "read_from": self.read_from, "sha256_now": self.sha256_now, "size_now": self.size_now}


@dataclass
class Verification:
    report: str
    recorded: dict  # the report's manifest
    inputs: list[Input]
    house: str  # the --house the inputs were audited under
    now: dict | None = None  # the manifest of the audit made now (None when no input was there)
    differences: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not self.differences

    def lines(self, shown: int = 50) -> list[str]:
        """What ``tda-audit verify`` prints: the verdict, each difference (the first
        ``shown``), the notes, and what was audited."""
        n = len(self.differences)
        out = [f"{self.report}: " + ("identical" if self.identical else f"NOT identical ({n} difference{'' if n == 1 else 's'})")]
        out += [f"  {d['text']}" for d in self.differences[:shown]]
        if n > shown:
            out.append(f"  ... and {n - shown} more (--json lists them all)")
        out += [f"  note: {x}" for x in self.notes]
        read = sum(i.read_from is not None for i in self.inputs)
        out.append(f"re-audited {read} of {len(self.inputs)} input files under {self.recorded['edition']} (house {self.house}): "
                   f"{len(self.recorded['findings']['rows'])} findings in the report, "
                   f"{len(self.now['findings']['rows']) if self.now else 0} now")
        return out

    def as_json(self) -> dict:
        rec = self.recorded["findings"]
        return {
            "report": self.report,
            "identical": self.identical,
            "scope": self.recorded.get("scope"),
            "edition": self.recorded["edition"],
            "raise_cap": self.recorded.get("raise_cap"),
            "house": self.house,
            "tool": {"recorded": self.recorded.get("tool"), "now": self.now["tool"] if self.now else None},
            "inputs": [i.as_json() for i in self.inputs],
            "findings": {"recorded": len(rec["rows"]), "now": len(self.now["findings"]["rows"]) if self.now else None,
                         "digest": rec.get("digest"), "digest_now": self.now["findings"]["digest"] if self.now else None},
            "differences": self.differences,
            "notes": self.notes,
        }


def verify(report: str | os.PathLike, paths: tuple[str, ...] | list[str] = (), jobs: int | None = None) -> Verification:
    """Verify the report file ``report``: re-read its inputs (``paths`` given are matched
    to them by sha256 first), audit them in a temporary store and compare.  Raises
    VerifyError on a usage error."""
    from replay.editions import EDITIONS

    try:
        m = mf.read(report)
    except mf.ManifestError as e:
        raise VerifyError(f"{report}: {e}") from None
    _check_shape(m)
    if m["edition"] not in EDITIONS:
        raise VerifyError(f"{report}: its manifest names the edition {m['edition']!r}, which this version of "
                          f"tda-audit does not know ({', '.join(EDITIONS)})")
    given = _given_files(paths)
    v = Verification(str(report), m, locate(m["inputs"], given), "auto")
    for i in v.inputs:
        if i.status == "missing":
            v.differences.append({"kind": "input-missing", "path": i.path, "sha256": i.sha256, "size": i.size,
                                  "text": f"input missing: {i.path} (sha256 {i.sha256}, {i.size} bytes): not at its "
                                          "path, and no file given has its sha256"})
        elif i.status == "changed":
            v.differences.append({"kind": "input-changed", "path": i.path, "read_from": i.read_from, "sha256": i.sha256,
                                  "sha256_now": i.sha256_now, "size": i.size, "size_now": i.size_now,
                                  "text": f"input changed: {i.read_from}"
                                          + (f" (recorded as {i.path})" if i.read_from != i.path else "")
                                          + f": sha256 {i.sha256} recorded, {i.sha256_now} now ({i.size} bytes recorded, "
                                            f"{i.size_now} now)"})
    rows = m["findings"]["rows"]
    if mf.findings_digest(m["edition"], rows) != m["findings"].get("digest"):
        v.differences.append({"kind": "digest-mismatch", "digest": m["findings"].get("digest"),
                              "digest_of_rows": mf.findings_digest(m["edition"], rows),
                              "text": "the manifest was altered: its edition and findings do not match its findings "
                                      "digest"})
    v.house = _house_choice(m.get("house"), given, v)
    tool = m.get("tool") or {}
    if tool.get("version") != __version__:
        v.notes.append(f"the report was made by tda-audit {tool.get('version')}, this is {__version__}")
    from parsers._native import running_description

    if tool.get("running") != running_description():  # the same findings either way; said, as --version says it
        v.notes.append(f"the report was made running {tool.get('running')}, this runs {running_description()}")
    hand_ids = [h["hand"] for h in m.get("hands") or []] if m.get("scope") == "hands" else None
    files = [i.read_from for i in v.inputs if i.read_from]
    if files:
        v.now = reaudit(files, m, v.house, hand_ids, jobs, v)
    now_rows = v.now["findings"]["rows"] if v.now else []
    v.differences += compare_findings(rows, now_rows)
    if v.now:
        v.differences += compare_house(m.get("house"), v.now.get("house"))
    return v


def _check_shape(m: dict) -> None:
    """A manifest whose parts are missing or malformed is a usage error, not a difference."""
    try:
        ok = (isinstance(m["edition"], str) and all(isinstance(i["path"], str) and isinstance(i["sha256"], str)
                                                     for i in m["inputs"])
              and all(isinstance(r, list) and len(r) == len(mf.FINDING_FIELDS) for r in m["findings"]["rows"])
              and (m.get("scope") != "hands" or all(isinstance(h["hand"], str) and isinstance(h["content_hash"], str)
                                                    for h in m["hands"])))
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise VerifyError("the report's manifest lacks its edition, inputs or findings, or they are malformed")


def _given_files(paths) -> dict[str, str]:
    """sha256 -> file for the files PATHS name (folders recursively)."""
    if not paths:
        return {}
    from auditor.ingest import InputError, expand_paths

    try:
        files = expand_paths(paths)
    except InputError as e:
        raise VerifyError(str(e)) from None
    out: dict[str, str] = {}
    for f in files:
        try:
            out.setdefault(mf.sha256_file(f), str(f))
        except OSError as e:
            raise VerifyError(f"cannot read {f}: {e.strerror or e}") from None
    return out


def locate(inputs: list[dict], given: dict[str, str]) -> list[Input]:
    """Each recorded input as found now: a given file with its sha256; else a given file
    of its name (changed: the files given are the inputs now); else its recorded path
    (the same or changed); else missing."""
    matched = {rec["sha256"] for rec in inputs} & given.keys()
    spare = [p for sha, p in given.items() if sha not in matched]  # given, matching no input's sha256
    out = []
    for rec in inputs:
        i = Input(rec["path"], rec["sha256"], rec.get("size"))
        if rec["sha256"] in given:
            i.status, i.read_from = "same", given[rec["sha256"]]
            i.sha256_now, i.size_now = i.sha256, os.path.getsize(i.read_from)
        else:
            here = _same_name(rec["path"], spare) or (rec["path"] if os.path.isfile(rec["path"]) else None)
            if here:
                try:
                    i.sha256_now, i.size_now = mf.sha256_file(here), os.path.getsize(here)
                    i.status, i.read_from = "same" if i.sha256_now == i.sha256 else "changed", here
                except OSError:
                    pass
        out.append(i)
    return out


def _same_name(recorded: str, files: list[str]) -> str | None:
    """The file of ``files`` named as ``recorded`` whose folders end most like its folders."""
    want = Path(recorded).parts[::-1]

    def common(f: str) -> int:
        n = 0
        for a, b in zip(Path(f).parts[::-1], want):
            if a != b:
                break
            n += 1
        return n

    best = max(files, key=common, default=None)
    return best if best is not None and common(best) > 0 else None


def _house_choice(house: dict | None, given: dict[str, str], v: Verification) -> str:
    """The --house to audit under, as the report's findings were categorised."""
    if not house or house.get("mode") is None:
        v.notes.append("the report does not record its house profiles in full: audited under --house auto")
        return "auto"
    if house["mode"] in ("auto", "none"):
        return house["mode"]
    # chosen: the profile file, found by its sha256 like an input
    from auditor.house import profiles_dir

    (p,) = house["profiles"][:1] or [None]
    if p is None:
        return "none"
    shipped = {mf.sha256_file(f): str(f) for f in sorted(profiles_dir().glob("*.toml"))}
    for candidate in (given.get(p.get("sha256")), shipped.get(p.get("sha256")), p["file"]):
        if candidate and os.path.isfile(candidate):
            return candidate  # a changed file is named after the audit (compare_house)
    v.differences.append({"kind": "house-profile-missing", "profile": p["profile"], "file": p["file"],
                          "sha256": p.get("sha256"),
                          "text": f"house profile missing: {p['file']} (sha256 {p.get('sha256')}): audited under "
                                  "--house none"})
    return "none"


def reaudit(files: list[str], m: dict, house: str, hand_ids: list[str] | None, jobs: int | None,
            v: Verification) -> dict:
    """Audit ``files`` in a temporary store as the manifest ``m`` says; the new manifest
    (of ``hand_ids`` only, for a dossier: each hand's content hash compared)."""
    from auditor.house import HouseError
    from auditor.pipeline import audit
    from auditor.store import connect

    with tempfile.TemporaryDirectory(prefix="tda-verify-") as tmp:
        db = os.path.join(tmp, "verify.duckdb")
        try:
            audit(files, db=db, edition_name=m["edition"], raise_cap=m.get("raise_cap"), house=house, jobs=jobs,
                  keep_findings=False)
        except HouseError as e:  # the profile found is no longer one (edited since)
            raise VerifyError(f"cannot audit under the report's house profile: {e}") from None
        con = connect(db, read_only=True)
        try:
            if hand_ids is not None:
                now = dict(con.execute("SELECT hand_id, content_hash FROM hands WHERE hand_id IN "
                                       "(SELECT unnest(?::VARCHAR[]))", [hand_ids]).fetchall())
                for h in m["hands"]:
                    if h["hand"] not in now:
                        v.differences.append({"kind": "hand-missing", "hand": h["hand"], "content_hash": h["content_hash"],
                                              "text": f"hand missing: {h['hand']} is not in its file now"})
                    elif now[h["hand"]] != h["content_hash"]:
                        v.differences.append({"kind": "hand-changed", "hand": h["hand"], "content_hash": h["content_hash"],
                                              "content_hash_now": now[h["hand"]],
                                              "text": f"hand changed: {h['hand']}: content hash {h['content_hash']} "
                                                      f"recorded, {now[h['hand']]} now"})
            return mf.build(con, m["edition"], hand_ids)
        finally:
            con.close()


def finding_text(f: dict) -> str:
    """'PS-900000000201 illegal-underraise (flop, seq 12, seat 3): violation, rule 43-A, expected 800, actual 600, line 16'."""
    where = ", ".join(x for x in (f["street"], f"seq {f['seq']}" if f["seq"] is not None else None,
                                  f"seat {f['seat']}" if f["seat"] is not None else None) if x)
    return (f"{f['hand']} {f['check']}" + (f" ({where})" if where else "") + f": {f['category']}, rule {f['rule']}, "
            f"expected {f['expected']}, actual {f['actual']}, line {f['line']}")


def _sort_key(key: tuple):
    hand, check, seq, seat = key
    return (str(hand), seq if isinstance(seq, int) else 1 << 30, str(check), seat if isinstance(seat, int) else -1)


def compare_findings(recorded: list[list], now: list[list]) -> list[dict]:
    """Each finding removed (recorded, not found now), added (found now only) or changed
    (the same check, hand, action and seat; another field differs)."""
    n = len(mf.KEY_FIELDS)
    rec = {tuple(r[:n]): dict(zip(mf.FINDING_FIELDS, r)) for r in recorded}
    cur = {tuple(r[:n]): dict(zip(mf.FINDING_FIELDS, r)) for r in now}
    out = []
    for k in sorted(rec.keys() | cur.keys(), key=_sort_key):
        a, b = rec.get(k), cur.get(k)
        if b is None:
            out.append({"kind": "finding-removed", "finding": a,
                        "text": f"finding removed (in the report, not found now): {finding_text(a)}"})
        elif a is None:
            out.append({"kind": "finding-added", "finding": b,
                        "text": f"finding added (found now, not in the report): {finding_text(b)}"})
        elif a != b:
            changes = {f: [a[f], b[f]] for f in mf.FINDING_FIELDS if a[f] != b[f]}
            out.append({"kind": "finding-changed", "finding": a, "now": b, "changes": changes,
                        "text": f"finding changed: {finding_text(a)}; now "
                                + ", ".join(f"{f} {x} -> {y}" for f, (x, y) in changes.items())})
    return out


def compare_house(recorded: dict | None, now: dict | None) -> list[dict]:
    """Each house profile that categorised both the report's findings and now's, and whose
    file changed (its sha256).  (Under auto a profile applies to its sites' hands: one
    applied in one audit only follows from the hands stored, which the findings show.)"""
    if not recorded or recorded.get("profiles") is None or not now:
        return []
    cur = {p["profile"]: p for p in now.get("profiles") or []}
    out = []
    for a in recorded["profiles"]:
        b = cur.get(a["profile"])
        if b is not None and a.get("sha256") != b.get("sha256"):
            out.append({"kind": "house-profile-changed", "profile": a["profile"], "file": b["file"],
                        "sha256": a.get("sha256"), "sha256_now": b.get("sha256"),
                        "text": f"house profile changed: {b['file']}: sha256 {a.get('sha256')} recorded, "
                                f"{b.get('sha256')} now"})
    return out
