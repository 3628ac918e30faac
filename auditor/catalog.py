"""The rule catalog: which TDA rule each check enforces, per edition.

``auditor/rules/catalog.toml`` is the one place where checks are tied to rule
numbers. Every check lists, for every edition in :data:`EDITIONS`, the rules it
cites (number, optional paragraph letter, title and a verbatim quote), or says
that the edition has no such rule (``missing = true`` with a ``note``).

>>> sorted(load_catalog()["illegal-reopen"].citations)
['tda-2011', 'tda-2013', 'tda-2017', 'tda-2019', 'tda-2024']
>>> [c.ref for c in citation("illegal-reopen", "tda-2019")]
['47-A', '47-B']
>>> [c.ref for c in citation("illegal-reopen", "tda-2011")]
['38']
>>> citation("check-facing-bet", "tda-2013")[0].missing
True

:func:`rule_text` reads the rule itself from the edition's document, for reports
that quote it. The documents live in ``../shared/tda`` beside the project (or in
the folder named by the ``TDA_TEXTS`` environment variable); when they are absent
it returns ``None``.

>>> text = rule_text("tda-2019", "21")
>>> text is None or text == "Each side pot will be split separately."
True
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NamedTuple

from replay.editions import DEFAULT_EDITION, EDITIONS  # one list of editions

SEVERITIES: tuple[str, ...] = ("error", "warning", "info")

#: The document each edition is read from (in the TDA texts folder).
EDITION_FILES: dict[str, str] = {
    "tda-2011": "tda-2011-hpt.txt",
    "tda-2013": "tda-2013.txt",
    "tda-2017": "tda-2017.txt",
    "tda-2019": "tda-2019-longform.txt",
    "tda-2024": "tda-2024-longform.txt",
}

CATALOG_PATH = Path(__file__).resolve().parent / "rules" / "catalog.toml"


@dataclass(frozen=True)
class Citation:
    """One rule (or paragraph of a rule) a check cites under one edition.

    A ``missing`` citation means the edition has no rule for the check;
    ``note`` then says what the check does under that edition.

    >>> Citation("tda-2019", "47", "A", "Re-Opening the Bet.", "...").ref
    '47-A'
    >>> Citation("tda-2011", None, None, None, None, missing=True, note="none").ref is None
    True
    """

    edition: str
    rule: str | None
    part: str | None
    title: str | None
    quote: str | None
    missing: bool = False
    note: str | None = None

    @property
    def ref(self) -> str | None:
        """The rule as reports write it: ``'43'``, or ``'47-A'`` with a paragraph."""
        if self.rule is None:
            return None
        return f"{self.rule}-{self.part}" if self.part else self.rule


@dataclass(frozen=True)
class CheckInfo:
    """A check's rule citations by edition.  Its title, severity and rationale live
    in its SQL file (``auditor/checks/<check-id>.sql``), one place each."""

    check_id: str
    citations: dict[str, tuple[Citation, ...]] = field(default_factory=dict)


@cache
def load_catalog(path: str | Path | None = None) -> dict[str, CheckInfo]:
    """Read and validate the catalog; check id -> :class:`CheckInfo` (cached).

    >>> cat = load_catalog()
    >>> cat["side-pot"].citations["tda-2011"][0].rule
    '18'
    """
    path = Path(path) if path else CATALOG_PATH
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    catalog: dict[str, CheckInfo] = {}
    for check_id, raw in data["checks"].items():
        cites = raw.get("citations", {})
        if set(cites) != set(EDITIONS):
            raise ValueError(f"{check_id}: citations must cover exactly {EDITIONS}, got {sorted(cites)}")
        by_edition = {}
        for edition in EDITIONS:
            entries = tuple(
                Citation(
                    edition=edition,
                    rule=c.get("rule"),
                    part=c.get("part"),
                    title=c.get("title"),
                    quote=c.get("quote"),
                    missing=bool(c.get("missing", False)),
                    note=c.get("note"),
                )
                for c in cites[edition]
            )
            for c in entries:
                if c.missing and not c.note:
                    raise ValueError(f"{check_id}/{edition}: a missing rule needs a note")
                if not c.missing and not (c.rule and c.title and c.quote):
                    raise ValueError(f"{check_id}/{edition}: a citation needs rule, title and quote")
            if not entries:
                raise ValueError(f"{check_id}/{edition}: no citation")
            by_edition[edition] = entries
        catalog[check_id] = CheckInfo(check_id, by_edition)
    return catalog


def citation(check_id: str, edition: str = DEFAULT_EDITION) -> list[Citation]:
    """The citations of a check under an edition, the main one first.

    >>> c = citation("odd-chip", "tda-2011")[0]
    >>> (c.rule, c.title)
    ('17', 'Awarding Odd Chips')
    """
    if edition not in EDITIONS:
        raise KeyError(f"unknown edition {edition!r}; expected one of {EDITIONS}")
    return list(load_catalog()[check_id].citations[edition])


def is_recommended(c: Citation) -> bool:
    """Whether a citation is a Recommended Procedure ('RP-11'), not a Rule.

    >>> is_recommended(citation("blind-level", "tda-2024")[1]), is_recommended(citation("blind-level", "tda-2024")[0])
    (True, False)
    """
    return bool(c.rule and c.rule.startswith("RP-"))


def recommendation_basis(c: Citation) -> str:
    """Why a finding that rests on a Recommended Procedure alone is a departure, not a
    violation: the procedure recommends, it does not rule; with its text.

    >>> recommendation_basis(citation("blind-level", "tda-2019")[1])[:80]
    'RP-11 (Ante Formats. No Ante Reduction) is a Recommended Procedure, not a Rule: '
    """
    return (f"{c.ref} ({c.title}) is a Recommended Procedure, not a Rule: it recommends (\"{c.quote}\"), and a "
            f"hand that followed another practice departs from the recommendation, it breaks no rule")


def recommended(check_id: str, edition: str) -> dict[str, tuple[str, str]]:
    """The Recommended Procedures a check cites under ``edition``: ref -> (title, the
    basis a finding resting on it alone carries, ``recommendation_basis``).

    >>> list(recommended("blind-level", "tda-2024")), recommended("blind-level", "tda-2017")
    (['RP-11'], {})
    """
    return {c.ref: (c.title or "", recommendation_basis(c)) for c in citation(check_id, edition)
            if c.ref and is_recommended(c)}


# --- the rule texts ----------------------------------------------------------------


class Rule(NamedTuple):
    """A rule as written in an edition's document."""

    number: str  # '43', 'RP-11', or 'HPT-2' (2011 "Additional HPT Tournament Rules" item 2)
    title: str
    text: str  # paragraphs separated by newlines


def normalize(text: str) -> str:
    """Collapse whitespace, for comparing quotes with the documents.

    >>> normalize("  a\\n\\n b ")
    'a b'
    """
    return " ".join(text.split())


def texts_dir() -> Path | None:
    """The folder holding the TDA documents: $TDA_TEXTS, else ../shared/tda beside the project."""
    env = os.environ.get("TDA_TEXTS")
    folder = Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "tda"
    return folder if folder.is_dir() else None


_HEADING = re.compile(r"^\s*(?:Rule\s+)?(\d{1,2}):\s+(\S.*?)\s*$")  # '41:  Raises', 'Rule 37: Button ...'
_RP_HEADING = re.compile(r"^\s*(RP-\d{1,2})[.:]\s+(\S.*?)\s*$")  # 'RP-11: Ante Formats...'
# '2013 Recommended Procedures Version 1.0', '... 2019 Recommended Procedures, Version 1.0',
# 2024: '2024 Recommended Procedures,' alone on its line (the version on the next)
_RP_START = re.compile(r"Recommended Procedures,?(?: Version|\s*$)")
# the Addendum's own heading, not a rule's wrapped "See Illustration Addendum." (2024 10-B)
_ADDENDUM_START = re.compile(r"^\s*(?:POKER TOURNAMENT DIRECTORS ASSN\. )?Illustration Addendum(?!\.?\s*$)")
# 2024: the page footer, and a stray backtick line, fall inside rules that cross a page
_PAGE_NOISE = re.compile(r"^\s*(?:© Copyright|`\s*$)")
_PART = re.compile(r"^(?:- )?([A-Z]):\s")  # a paragraph 'A: ...' or '- B: ...'


@cache
def rules(edition: str) -> dict[str, Rule] | None:
    """All rules of an edition's document by number, or None if the document is absent.

    Cached per edition; call ``rules.cache_clear()`` after changing ``TDA_TEXTS``.

    >>> r = rules("tda-2017")
    >>> r is None or r["48"].title == "Re-Opening the Bet."
    True
    """
    folder = texts_dir()
    if edition not in EDITION_FILES or folder is None or not (folder / EDITION_FILES[edition]).is_file():
        return None
    lines = (folder / EDITION_FILES[edition]).read_text(encoding="utf-8").splitlines()
    return _parse_table(lines) if edition == "tda-2011" else _parse_sections(lines)


HPT_TITLE = "Additional HPT Tournament Rules and Guidelines"


def _parse_table(lines: list[str]) -> dict[str, Rule]:
    """The 2011 HPT document: one tab-separated line per rule (number, title, text)."""
    out: dict[str, Rule] = {}
    hpt = False
    for line in lines:
        if line.startswith(HPT_TITLE):
            hpt = True
            continue
        cells = line.split("\t")
        if not cells[0].strip().isdigit():
            continue
        number = cells[0].strip()
        if hpt and len(cells) == 2:  # HPT items have no titles: they are cited by their section
            out[f"HPT-{number}"] = Rule(f"HPT-{number}", HPT_TITLE, cells[1].strip())
        elif not hpt and len(cells) == 3:
            out[number] = Rule(number, normalize(cells[1]), cells[2].strip())
    return out


def _parse_sections(lines: list[str]) -> dict[str, Rule]:
    """2013/2017/2019/2024 documents: a heading line 'N: Title' then paragraphs, numbered in order."""
    found: list[tuple[str, str, list[str]]] = []
    section, numbered, current = "rules", 0, None
    for line in lines:
        if _ADDENDUM_START.search(line):
            break
        if _PAGE_NOISE.match(line):
            continue
        if _RP_START.search(line):  # the Recommended Procedures' preamble belongs to no rule
            section, current = "rp", None
            continue
        m = _HEADING.match(line) if section == "rules" else _RP_HEADING.match(line)
        if m and (section == "rp" or int(m[1]) == numbered + 1):  # rules are numbered in order
            numbered += section == "rules"
            current = []
            found.append((m[1], normalize(m[2]), current))
        elif current is not None and line.strip():
            current.append(line.strip())
    out = {}
    for number, title, paras in found:
        # Drop trailing section headings ("Button / Blinds", "Dealing Rules") swept into the rule.
        while paras and len(paras[-1]) < 70 and not re.search(r"[.!?):\"”]$", paras[-1]):
            paras.pop()
        out[number] = Rule(number, title, "\n".join(paras))
    return out


def rule(edition: str, number: str) -> Rule | None:
    """One rule of an edition (``'43'``, ``'RP-11'``), or None if it or the document is absent."""
    found = rules(edition)
    return None if found is None else found.get(number)


def rule_text(edition: str, number: str, part: str | None = None) -> str | None:
    """The full text of a numbered rule (or of its paragraph ``part``), or None if unavailable.

    >>> text = rule_text("tda-2019", "47", "B")
    >>> text is None or text.startswith("B: In limit, at least 50% of a full bet or raise")
    True
    >>> rule_text("tda-2019", "99") is None
    True
    """
    found = rule(edition, number)
    if found is None:
        return None
    if part is None:
        return found.text
    paras: dict[str, list[str]] = {}
    current = None
    for para in found.text.split("\n"):
        if m := _PART.match(para):
            current = m[1]
            para = para.removeprefix("- ")
        if current:
            paras.setdefault(current, []).append(para)
    return "\n".join(paras[part]) if part in paras else None
