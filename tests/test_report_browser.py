"""The HTML report in a real headless browser (Debian chromium + chromium-driver,
driven by selenium): it loads without console errors, its numbers match its
findings table, filtering hides rows, a finding's evidence shows the rule text,
and names made of HTML are shown as text, never run.  A screenshot of each page
is written to tests/_artifacts/.  Without a browser these tests skip."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SAMPLES, TDA_TEXTS
from test_reports import EVIL, make_evil_history

from auditor.cli import main
from auditor.pipeline import audit

ARTIFACTS = Path(__file__).resolve().parent / "_artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401

    HAVE_SELENIUM = True
except ImportError:  # pragma: no cover
    HAVE_SELENIUM = False

pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER and HAVE_SELENIUM),
    reason="needs a headless browser: apt-get install -y chromium chromium-driver, and pip install selenium "
           f"(found chromium={CHROMIUM}, chromedriver={DRIVER}, selenium={HAVE_SELENIUM})",
)

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,1800")


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="tda-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS:
        opts.add_argument(f)
    opts.add_argument(f"--user-data-dir={profile}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    os.environ.setdefault("SE_OFFLINE", "true")  # never let selenium fetch a driver
    driver = webdriver.Chrome(options=opts, service=Service(DRIVER))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def make_report(tmp: Path, paths: list[str], name: str) -> Path:
    db = str(tmp / f"{name}.duckdb")
    audit(paths, db=db)
    out = tmp / f"{name}.html"
    r = CliRunner().invoke(main, ["report", "--db", db, "--out", str(out)], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory):
    return make_report(tmp_path_factory.mktemp("browser"), [str(SAMPLES)], "samples")


def console_errors(driver) -> list[dict]:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def follow(driver, link) -> None:
    """Click a finding's link and wait for the page to show its evidence: the page
    does so on the 'hashchange' event, which the browser fires after the click
    returns (a slow machine showed the old evidence to an assertion that did not wait)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    row = "row-" + link.get_attribute("href").rsplit("#f-", 1)[1]
    link.click()
    WebDriverWait(driver, 20).until(lambda d: "selected" in d.find_element(By.ID, row).get_attribute("class").split())


def finding_link(driver, hand_id: str):
    """The findings table's link to ``hand_id``'s finding, once the page shows it (waited for,
    as ``follow`` waits: a run on a loaded machine once found no such link right after the
    page loaded)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 20).until(lambda d: next(
        (a for a in d.find_elements(By.CSS_SELECTOR, "#findings a.ev-link") if a.text == hand_id), False))


def visible_rows(driver) -> int:
    return driver.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('#findings tbody tr'), r => !r.hidden).length")


def screenshot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    return path


def test_report_loads_and_numbers_match_table(browser, sample_report):
    from selenium.webdriver.common.by import By

    browser.get(sample_report.as_uri())
    assert console_errors(browser) == []
    rows = browser.find_elements(By.CSS_SELECTOR, "#findings tbody tr")
    n = int(browser.find_element(By.ID, "sum-findings").text)
    assert n == len(rows) > 0
    assert int(browser.find_element(By.ID, "by-check-total").text) == n
    assert int(browser.find_element(By.ID, "shown-count").text) == n
    assert visible_rows(browser) == min(n, 50)
    screenshot(browser, "report-top.png")


def test_filter_hides_rows(browser, sample_report):
    from selenium.webdriver.common.by import By

    browser.get(sample_report.as_uri())
    total = visible_rows(browser)
    box = browser.find_element(By.ID, "filter")
    box.send_keys("Maëlle")  # the one finding naming her: the PokerStars sample's underraise
    assert visible_rows(browser) == 1 < total
    assert int(browser.find_element(By.ID, "shown-count").text) == 1
    box.clear()
    box.send_keys("no such words anywhere")
    assert visible_rows(browser) == 0
    assert "no finding matches" in browser.find_element(By.ID, "page-info").text
    box.clear()
    box.send_keys(" ")  # clearing via keys fires input
    assert visible_rows(browser) == total
    # sorting by a column keeps every row
    browser.find_elements(By.CSS_SELECTOR, "#findings thead th")[2].click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#findings tbody tr")) >= total
    assert console_errors(browser) == []


def test_evidence_shows_timeline_and_rule_text(browser, sample_report):
    from selenium.webdriver.common.by import By

    browser.get(sample_report.as_uri())
    link = finding_link(browser, "PS-900000000201")
    follow(browser, link)
    ev = browser.find_element(By.ID, "evidence-body")
    assert "Hand PS-900000000201" in ev.text
    hit = browser.find_elements(By.CSS_SELECTOR, "#evidence-body table.timeline tr.hit")
    assert len(hit) == 1 and "raise to 600" in hit[0].text and "underraise" in hit[0].text
    current = browser.find_element(By.CSS_SELECTOR, "#evidence-body .finding.current")
    assert "TDA-2024 Rule 43-A: Raise Amounts" in current.text
    assert "at least 800" in current.find_element(By.CSS_SELECTOR, ".expected").text
    if TDA_TEXTS.is_dir():
        quote = current.find_element(By.CSS_SELECTOR, "blockquote.rule-text").text
        assert quote.startswith("A: A raise must be at least equal to the largest prior full bet or raise")
    assert console_errors(browser) == []
    screenshot(browser, "report-evidence.png")


def test_html_names_are_text_not_markup(browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    page = make_report(tmp_path, [str(make_evil_history(tmp_path / "histories"))], "evil")
    browser.get(page.as_uri())
    follow(browser, browser.find_element(By.CSS_SELECTOR, "#findings a.ev-link"))
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018
    body = browser.find_element(By.TAG_NAME, "body").text
    assert body.count(EVIL) >= 4  # table cell, player cell, file name, evidence
    row = browser.find_element(By.CSS_SELECTOR, "#findings tbody tr")
    assert EVIL in row.text
    assert browser.execute_script("return document.querySelectorAll('img').length") == 0
    assert EVIL in browser.find_element(By.ID, "evidence-body").text
    assert console_errors(browser) == []
    screenshot(browser, "report-escaped-names.png")
