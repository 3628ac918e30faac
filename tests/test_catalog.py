"""The rule catalog cites real rules: numbers, titles and quotes checked against the TDA texts."""

from __future__ import annotations

import pytest

from auditor import catalog
from auditor.catalog import EDITIONS, citation, load_catalog, normalize, rule, rule_text
from conftest import TDA_TEXTS, needs_tda

CHECK_IDS = (
    "illegal-underraise", "illegal-reopen", "limit-raise-cap", "pot-limit-overbet", "undercall",
    "check-facing-bet", "out-of-turn", "uncalled-bet", "odd-chip", "side-pot", "wrong-winner",
    "chip-conservation", "allin-muck", "showdown-order", "dead-button", "heads-up-button",
    "blind-level", "stack-continuity", "new-player-seating", "betting-unrecorded", "record-incomplete", "bring-in", "seat-unrecorded", "disconnect-all-in",
    "unread-lines", "stack-unrecorded", "award-amount",
)  # fmt: skip

CITATIONS = [
    pytest.param(c, id=f"{check_id}-{edition}-{c.ref or 'missing'}")
    for check_id, info in load_catalog().items()
    for edition in EDITIONS
    for c in info.citations[edition]
    if not c.missing
]


@pytest.fixture(autouse=True)
def _texts_here(monkeypatch):
    """Read the texts the tests' conftest points at, whatever TDA_TEXTS the environment has."""
    monkeypatch.setenv("TDA_TEXTS", str(TDA_TEXTS))
    catalog.rules.cache_clear()
    yield
    catalog.rules.cache_clear()


def test_catalog_has_every_check():
    assert set(load_catalog()) == set(CHECK_IDS)


@pytest.mark.parametrize("check_id", CHECK_IDS)
def test_check_fields(check_id):
    info = load_catalog()[check_id]
    assert info.check_id == check_id
    assert set(info.citations) == set(EDITIONS)


def test_every_sql_check_is_in_the_catalog():
    from auditor.checks import load_checks

    sql_ids = {c.check_id for c in load_checks()}
    assert sql_ids <= set(load_catalog()), sql_ids - set(load_catalog())


@pytest.mark.parametrize("check_id", CHECK_IDS)
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_edition_cited_or_missing_with_note(check_id, edition):
    cites = citation(check_id, edition)
    assert cites, "at least one citation (or a missing entry)"
    for c in cites:
        assert c.edition == edition
        if c.missing:
            assert c.note and c.rule is None and c.quote is None
            assert len(cites) == 1, "a missing entry stands alone"
        else:
            assert c.rule and c.title and c.quote


@needs_tda
@pytest.mark.parametrize("c", CITATIONS)
def test_citation_matches_text(c):
    found = rule(c.edition, c.rule)
    assert found is not None, f"{c.edition} has no rule {c.rule}"
    assert found.title == c.title, f"{c.edition} rule {c.rule} is titled {found.title!r}"
    text = rule_text(c.edition, c.rule, c.part)
    assert text is not None, f"{c.edition} rule {c.rule} has no paragraph {c.part}"
    assert normalize(c.quote) in normalize(text), f"quote not in {c.edition} rule {c.ref}"


@needs_tda
def test_rule_text_examples():
    assert rule_text("tda-2011", "18") == "Each side pot will be split separately."
    assert rule("tda-2011", "HPT-2").text.endswith("with no forward moving button.")
    assert rule("tda-2013", "41").title == "Raises"
    assert rule_text("tda-2013", "41", "A").startswith("A: A raise must be at least the size")
    # a rule split by a page break keeps its continuation (2017 42-B) ...
    assert normalize(rule_text("tda-2017", "42", "B")).endswith("For underbets and underraises, see Rule 43.")
    # ... and section headings between rules are not part of the rule before them
    assert rule_text("tda-2019", "31").endswith("is subject to penalty.")
    assert rule("tda-2019", "RP-11").title == "Ante Formats. No Ante Reduction"
    # Illustration Addendum headings ("Rule 43: Raise Amounts. ...") are not rules
    assert rule_text("tda-2019", "43").startswith("A: A raise must be at least equal")
    assert rule_text("tda-2019", "43", "Z") is None


@needs_tda
def test_rule_text_2024():
    # a rule's wrapped "See Illustration Addendum." (10-B) does not end the rules there
    assert rule("tda-2024", "71").title == "Warnings, Penalties, and Disqualification"
    assert rule("tda-2024", "RP-22").title.startswith("Betting Non-Denominational Items")
    # the page footer inside a rule that crosses a page is not part of it
    assert "Copyright" not in rule_text("tda-2024", "12")
    assert normalize(rule_text("tda-2024", "20")).endswith("C) H/L split: the odd chip in the total pot goes to the high side. D) Deleted 2022.")
    assert rule("tda-2024", "34").title == "Button Placement and Movement"
    assert rule_text("tda-2024", "34", "B").startswith("B: Heads-up, the small blind is the button")
    assert "big-blind-first calculation" in rule_text("tda-2024", "RP-11")
    # every check has a rule in 2024
    assert all(not c.missing for info in load_catalog().values() for c in info.citations["tda-2024"])


def test_rule_text_without_texts(monkeypatch, tmp_path):
    monkeypatch.setenv("TDA_TEXTS", str(tmp_path / "absent"))
    catalog.rules.cache_clear()
    assert rule_text("tda-2019", "43") is None
    assert rule("tda-2019", "43") is None


def test_unknown_edition():
    with pytest.raises(KeyError):
        citation("side-pot", "tda-2015")
