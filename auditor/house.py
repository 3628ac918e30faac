"""House-rule profiles: a house's declared policies where the TDA leaves a choice, or
where the house departs from it (``auditor/house/<name>.toml``).

A check that judges a hand by a rule a house may set differently says, per finding,
which house policy the hand followed instead (``findings.house_policy``, e.g.
``button=both-blinds-moved``).  Applying a profile makes each such finding whose
policy the profile declares, for the hand's site and date, a ``departure`` that
cites the profile line and its source; a finding that breaks the house's policy too
stays a ``violation``.  ``--house none`` judges by the TDA edition alone.

>>> [p.name for p in load_profiles()]
['888poker', 'bovada', 'fulltilt', 'ggpoker', 'ipoker', 'partypoker', 'phh', 'pokerbros', 'pokerstars', 'runitonce', 'winamax', 'wpn']
>>> follows("raise_cap=5", {"raise_cap": 5}), follows("raise_cap=5", {"raise_cap": 4})
(True, False)
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from auditor.catalog import load_catalog, recommended
from auditor.store import id_ranges, transaction

SOURCES = {"published": "the site's published rules", "observed": "behaviour observed on the corpus"}

# Every policy a profile may declare: what it decides, the TDA 2019 position, and the
# check whose findings it can turn into departures (None: no check judges it yet).
POLICIES: dict[str, tuple[str, str, str | None]] = {
    "raise_cap": ("bets and raises allowed in a limit round", "the house limit applies (Rule 48)", "limit-raise-cap"),
    "raise_cap_heads_up": ("whether the limit cap applies heads-up (true) or is lifted (false)",
                           "the cap applies heads-up until the event is down to 2 players (Rule 48)", "limit-raise-cap"),
    "button": ("dead-button, or both-blinds-moved (a moving button: the next players dealt in post both blinds)",
               "dead-button (Rule 32)", "dead-button"),
    "allin_muck": ("whether a hand still in may be mucked at an all-in showdown", "false: all hands are tabled (Rule 16)",
                   "allin-muck"),
    "bb_ante_order": ("big-blind ante: ante-first or blind-first, the split of a short payer's chips",
                      "RP-11 recommends ante-first (2019) or big-blind-first (2024): a departure at most", "blind-level"),
    "smallest_chip": ("the smallest chip in play, in the hand's recorded unit", "odd chips are broken to the smallest "
                      "denomination in play (Rule 20)", None),
    "odd_chip": ("where an odd chip goes: first-left-of-button, high-card-by-suit, ...", "Rule 20", None),
    "run_split_odd_chip": ("run it twice: which runs receive the odd chips of a pot that does not divide evenly between "
                           "the runs (first-runs: the first run first)", "none: the rules say nothing of running it "
                           "twice (docs/semantics.md)", None),
    "disconnect_all_in": ("a player who disconnects is played all in for what he has put in, his chips behind kept "
                          "(true)", "none: the rules have no online disconnection (docs/semantics.md)", None),
}


class HouseError(ValueError):
    """A profile that cannot be read, or a --house value naming none."""


@dataclass(frozen=True)
class Policy:
    name: str
    value: Any
    source: str  # published | observed
    evidence: str
    line: int  # the line of its [name] table in the profile
    since: dt.date | None = None
    until: dt.date | None = None

    def era(self) -> str:
        if not (self.since or self.until):
            return ""
        return f" ({self.since or '...'} to {self.until or '...'})"


@dataclass(frozen=True)
class Profile:
    name: str  # file stem: the name --house takes
    title: str
    sites: tuple[str, ...]
    path: Path
    policies: tuple[Policy, ...]

    def cite(self, p: Policy) -> str:
        """The profile line and its source, as a departure cites them."""
        return (f"house profile {self.path.name} line {p.line}: {p.name} = {_toml_value(p.value)}{p.era()}; "
                f"source: {p.source} ({p.evidence})")

    def as_json(self) -> dict:
        return {
            "profile": self.name, "title": self.title, "sites": list(self.sites), "file": str(self.path),
            "policies": [{"policy": p.name, "value": p.value, "since": p.since and str(p.since),
                          "until": p.until and str(p.until), "source": p.source, "evidence": p.evidence,
                          "line": p.line, "judged_by": POLICIES[p.name][2]} for p in self.policies],
        }


def _toml_value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else f'"{v}"' if isinstance(v, str) else str(v)


def profiles_dir() -> Path:
    # a data folder next to this module, not a package (it would shadow auditor.house)
    return Path(__file__).with_name("house")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# What each policy's value may be: (test, what it must be).  A value no check can read
# would be a declared policy that silently decides nothing.
VALUES: dict[str, tuple[Any, str]] = {
    "raise_cap": (lambda v: _is_int(v) and v >= 1, "a whole number of bets and raises, 1 or more"),
    "raise_cap_heads_up": (lambda v: isinstance(v, bool), "true or false"),
    "button": (lambda v: v in ("dead-button", "both-blinds-moved"), '"dead-button" or "both-blinds-moved"'),
    "allin_muck": (lambda v: isinstance(v, bool), "true or false"),
    "bb_ante_order": (lambda v: v in ("ante-first", "blind-first"), '"ante-first" or "blind-first"'),
    "smallest_chip": (lambda v: _is_int(v) and v >= 1, "a whole number of the hand's units, 1 or more"),
    "odd_chip": (lambda v: isinstance(v, str) and bool(v.strip()), "a text naming the rule"),
    "run_split_odd_chip": (lambda v: v == "first-runs", '"first-runs"'),
    "disconnect_all_in": (lambda v: isinstance(v, bool), "true or false"),
}


def read_profile(path: Path) -> Profile:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise HouseError(f"{path}: not a house profile (TOML text): {e}") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise HouseError(f"{path}: not valid TOML: {e}") from e
    lines = text.splitlines()
    policies = []
    for key, spec in data.items():
        if not isinstance(spec, dict):
            continue
        if key not in POLICIES:
            raise HouseError(f"{path}: unknown policy [{key}]; known: {', '.join(POLICIES)}")
        where = f"{path}: [{key}]"
        if "value" not in spec:
            raise HouseError(f"{where} has no value")
        if spec.get("source") not in SOURCES:
            raise HouseError(f"{where}: source must be one of {', '.join(SOURCES)} (say which)")
        if not str(spec.get("evidence", "")).strip():
            raise HouseError(f"{where}: no evidence (which rules, or what was observed where)")
        valid, must_be = VALUES[key]
        if not valid(spec["value"]):
            raise HouseError(f"{where}: value {spec['value']!r} is not {must_be}")
        for end in ("since", "until"):
            if end in spec and not isinstance(spec[end], dt.date):
                raise HouseError(f"{where}: {end} must be a date (since = 2012-01-01), not {spec[end]!r}")
        if "since" in spec and "until" in spec and spec["since"] > spec["until"]:
            raise HouseError(f"{where}: since {spec['since']} is after until {spec['until']}")
        line = next(i for i, t in enumerate(lines, 1) if t.strip() == f"[{key}]")
        policies.append(Policy(key, spec["value"], spec["source"], spec["evidence"], line,
                               spec.get("since"), spec.get("until")))
    if not data.get("name") or not data.get("sites"):
        raise HouseError(f"{path}: a profile needs a name and its sites")
    return Profile(path.stem, data["name"], tuple(data["sites"]), path, tuple(policies))


def load_profiles() -> list[Profile]:
    return [_read_unchanged(p, p.stat().st_mtime_ns) for p in sorted(profiles_dir().glob("*.toml"))]


@functools.lru_cache(maxsize=64)
def _read_unchanged(path: Path, mtime_ns: int) -> Profile:
    """A shipped profile read once a process while its file is unchanged (every audit and
    check run applies them)."""
    return read_profile(path)


def choose(house: str) -> list[Profile] | None:
    """The profiles ``--house`` names: 'auto' (every shipped profile, each applied to
    the hands of its sites), 'none' (bare TDA: []), a shipped profile's name, or a
    TOML file.  None for auto."""
    if house == "auto":
        return None
    if house == "none":
        return []
    shipped = {p.name: p for p in load_profiles()}
    if house in shipped:
        return [shipped[house]]
    path = Path(house)
    if path.is_file():
        return [read_profile(path)]
    raise HouseError(f"--house {house}: not auto, none, a shipped profile ({', '.join(shipped)}) or a profile file")


def follows(item: str, declared: dict[str, Any]) -> bool:
    """Whether a finding's ``house_policy`` item (``name=value``) is what the profile's
    ``declared`` policies allow.  raise_cap=N: the house allows N or more bets."""
    name, _, value = item.partition("=")
    if name not in declared:
        return False
    want = declared[name]
    if name == "raise_cap":
        return int(value) <= int(want)
    if isinstance(want, bool):
        return value == str(want).lower()
    return value == str(want)


CASH_BASIS = ("cash game: judged by the TDA edition's rules as the audit's standard; the TDA governs tournaments, "
              "and the house's cash-game rules are not in the record (docs/semantics.md, 'Cash games')")


def apply(con: duckdb.DuckDBPyConnection, edition: str, house: str = "auto") -> dict:
    """Categorise the edition's findings under ``house``: departures back to violations
    first (so that --house none gives bare TDA), then each finding that followed a
    declared policy, for its hand's site and date, becomes a departure citing it.
    Returns the provenance (``provenance``; also stored in meta 'house:<edition>', as JSON).

    What a finding becomes depends only on its policies, its hand's site and its day:
    each distinct such triple (a handful in a store) is decided here, and the findings
    are updated by a join with those decisions in SQL.  (Deciding each finding here
    cost 46 s and 1 GB of memory for 570,000 departures, and the 10M audit ran out
    of DuckDB's memory updating them from a table of one row each.)"""
    chosen = choose(house)
    profiles = load_profiles() if chosen is None else chosen
    kinds = con.execute(
        "SELECT DISTINCT f.house_policy, h.site, CAST(h.started_at AS DATE) FROM findings f JOIN hands h USING (hand_id) "
        "WHERE f.edition = ? AND f.house_policy IS NOT NULL", [edition]).fetchall()
    decided: list[tuple[str, str | None, object, str]] = []  # (policies, site, day, basis)
    for items, site, day in kinds:
        for prof in profiles:
            if chosen is None and site not in prof.sites:
                continue  # auto: a site's profile for that site's hands only
            live = [p for p in prof.policies if (p.since is None or (day and day >= p.since))
                    and (p.until is None or (day and day <= p.until))]
            declared = {p.name: p.value for p in live}
            hit = next((i for i in items.split(", ") if follows(i, declared)), None)
            if hit:
                policy = next(p for p in live if p.name == hit.partition("=")[0])
                decided.append((items, site, day, prof.cite(policy)))
                break
    # auto: the profiles of the sites the store holds (the provenance of these findings)
    present = {r[0] for r in con.execute("SELECT DISTINCT site FROM hands").fetchall()} if chosen is None else set()
    what = provenance(profiles, chosen is None, present)
    # the inserted findings written to the database first: DuckDB holds rows not yet
    # checkpointed in memory, and updating them there costs more of it
    con.execute("CHECKPOINT")
    con.execute("CREATE OR REPLACE TEMP TABLE _departures (policies VARCHAR, site VARCHAR, day DATE, basis VARCHAR)")
    # the findings that rest on a Recommended Procedure alone cite it alone (checks.insert_findings)
    con.execute("CREATE OR REPLACE TEMP TABLE _recommended (check_id VARCHAR, rule VARCHAR, basis VARCHAR)")
    rps = [(check_id, ref, basis) for check_id in load_catalog() for ref, (_, basis) in recommended(check_id, edition).items()]
    try:
        if rps:
            con.executemany("INSERT INTO _recommended VALUES (?, ?, ?)", rps)
        if decided:
            con.executemany("INSERT INTO _departures VALUES (?, ?, ?, ?)", decided)
        # a range of the findings' hands at a time, each in a transaction of its own: an
        # UPDATE holds what it changes in memory until its commit (the 10M audit ran out of
        # DuckDB's 400 MB updating 534,000 findings in one); the edition's checks stay
        # 'in-progress' until run_checks has applied the profiles, so a crash in between shows
        # a violation in a cash game says what it was judged by (CASH_BASIS): one column of
        # hands read, so a store of tournaments pays one scan
        (any_cash,) = con.execute("SELECT coalesce(bool_or(NOT is_tournament), false) FROM hands").fetchall()[0]
        for lo, hi in _hand_ranges(con, edition):
            in_range = "f.hand_id >= $lo AND ($hi IS NULL OR f.hand_id < $hi)"
            with transaction(con):
                # a departure from a Recommended Procedure is one under bare TDA too: back to its own
                # basis (catalog.recommendation_basis), the others back to the violations they are
                con.execute("UPDATE findings f SET category_basis = r.basis FROM _recommended r "
                            f"WHERE f.edition = $edition AND f.category = 'departure' AND {in_range} "
                            "AND r.check_id = f.check_id AND r.rule = f.rule AND f.category_basis LIKE 'house profile %'",
                            {"edition": edition, "lo": lo, "hi": hi})
                con.execute("UPDATE findings f SET category = 'violation', category_basis = NULL "
                            f"WHERE f.edition = $edition AND f.category = 'departure' AND {in_range} "
                            "AND NOT EXISTS (SELECT 1 FROM _recommended r WHERE r.check_id = f.check_id AND r.rule = f.rule)",
                            {"edition": edition, "lo": lo, "hi": hi})
                if decided:
                    con.execute(
                        "UPDATE findings f SET category = 'departure', category_basis = d.basis "
                        "FROM hands h, _departures d "
                        f"WHERE f.edition = $edition AND {in_range} AND {in_range.replace('f.', 'h.')} "
                        "AND h.hand_id = f.hand_id AND d.policies = f.house_policy "
                        "AND (f.category = 'violation' OR f.category = 'departure' AND EXISTS (SELECT 1 FROM _recommended r "
                        "WHERE r.check_id = f.check_id AND r.rule = f.rule)) "
                        "AND d.site IS NOT DISTINCT FROM h.site AND d.day IS NOT DISTINCT FROM CAST(h.started_at AS DATE)",
                        {"edition": edition, "lo": lo, "hi": hi})
                if any_cash:
                    con.execute("UPDATE findings f SET category_basis = $basis FROM hands h "
                                f"WHERE f.edition = $edition AND {in_range} AND {in_range.replace('f.', 'h.')} "
                                "AND h.hand_id = f.hand_id AND NOT h.is_tournament AND f.category = 'violation' "
                                "AND f.category_basis IS NULL",
                                {"edition": edition, "lo": lo, "hi": hi, "basis": CASH_BASIS})
    finally:
        con.execute("DROP TABLE IF EXISTS temp._departures; DROP TABLE IF EXISTS temp._recommended")
    with transaction(con):
        con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", [f"house:{edition}", json.dumps(what)])
    return what


def provenance(profiles: list[Profile], auto: bool, present: set[str]) -> dict:
    """What categorised the findings, for a script and for a reader: ``mode`` ('auto':
    each site's profile for that site's hands; 'chosen': the profiles named, for every
    hand; 'none': bare TDA), the ``profiles`` applied (name, file, sites) and ``text``, a
    line saying it.  Under auto, only the profiles of the sites the store holds.

    >>> p = Profile("pokerstars", "PokerStars", ("pokerstars",), Path("auditor/house/pokerstars.toml"), ())
    >>> provenance([p], True, {"pokerstars", "winamax"})["text"]
    'auto: pokerstars (pokerstars.toml) for pokerstars hands'
    >>> provenance([p], True, {"winamax"})
    {'mode': 'auto', 'profiles': [], 'text': 'auto: no profile for the sites stored'}
    >>> provenance([], False, set())["mode"], provenance([], False, set())["text"]
    ('none', 'none (bare TDA)')
    """
    used = [p for p in profiles if present & set(p.sites)] if auto else profiles
    if auto:
        text = "auto: " + (", ".join(f"{p.name} ({p.path.name}) for {'/'.join(p.sites)} hands" for p in used)
                           or "no profile for the sites stored")
    else:
        text = ", ".join(f"{p.name} ({p.path})" for p in used) or "none (bare TDA)"
    return {"mode": "auto" if auto else "chosen" if used else "none",
            "profiles": [{"profile": p.name, "file": str(p.path), "sites": list(p.sites)} for p in used],
            "text": text}


UPDATE_FINDINGS = 100_000  # findings a transaction of apply's updates covers (about: whole hands)


def _hand_ranges(con: duckdb.DuckDBPyConnection, edition: str) -> list[tuple[str, str | None]]:
    """The edition's findings' hand ids cut into ranges of about ``UPDATE_FINDINGS``
    findings (``store.id_ranges``); one range from the lowest id when there are fewer
    (none without findings)."""
    return id_ranges(con, "SELECT hand_id FROM findings WHERE edition = ?", UPDATE_FINDINGS, [edition])


def applied(con: duckdb.DuckDBPyConnection, edition: str) -> dict | None:
    """The house profiles the edition's findings were categorised under (``provenance``),
    None if they were never categorised.  A store written before the provenance was
    structured holds its line only: ``mode`` and ``profiles`` are then None."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [f"house:{edition}"]).fetchone()
    if row is None:
        return None
    try:
        return dict(json.loads(row[0]))
    except ValueError:
        return {"mode": None, "profiles": None, "text": row[0]}
