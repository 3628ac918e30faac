"""The one-hand dossier in a real headless Chromium (as tests/test_report_browser.py):
stepping by key, button, slider and link; the facts shown at an action are the
replay's ``decisions`` rows; the stacks and pot shown at every decision, and the end
stacks, are the replay's; one hand of each kind of game (hold'em, Omaha hi/lo, stud,
draw, a board run twice, PHH) drawn; the report's findings open their hand's dossier;
names made of markup are shown as text; ten seats and three side pots stay readable at
1280x800.  Without a browser these tests skip."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from test_dossier import EDITION, IMG, SCRIPT, TEN_SEATS, audit_text, hostile_history, replay_facts, run
from test_report_browser import browser, console_errors, pytestmark  # noqa: F401  (the module's browser, its skip)
from test_run_it_twice import WRITTEN

from auditor.pipeline import audit
from conftest import SAMPLES
from reports import data
from reports.dossier import dossiers, render
from reports.explain import amount

HOLDEM, HILO, STUD, DRAW, PHH = ("PS-900000000201", "PS-900000000401", "PS-900000000601", "PS-900000000801",
                                 "PHH-sample_histories/phh/stud-mtt")
TWICE = "PS-700000000001"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The dossier page of each hand the tests open, written to files: (hand -> path, hand -> store)."""
    tmp = tmp_path_factory.mktemp("dossiers")
    samples = str(tmp / "samples.duckdb")
    audit([str(SAMPLES)], db=samples, edition_name=EDITION)
    twice = audit_text(tmp / "twice", WRITTEN)
    paths, stores = {}, {}
    for db, ids in ((samples, [HOLDEM, HILO, STUD, DRAW, PHH]), (twice, [TWICE])):
        con, ed = data.open_store(db, EDITION)
        for hand_id, d in dossiers(con, ed, ids).items():
            p = tmp / (hand_id.replace("/", "_") + ".html")
            p.write_text(render(d), encoding="utf-8")
            paths[hand_id], stores[hand_id] = p, db
        con.close()
    return paths, stores


def at(driver, page: Path, step: int | None = None) -> None:
    driver.get(page.as_uri() + ("" if step is None else f"#step-{step}"))
    assert console_errors(driver) == []


def step_of(driver) -> int:
    return int(driver.find_element("css selector", "[data-dossier]").get_attribute("data-step"))


def shown(driver, css: str) -> str:
    return driver.find_element("css selector", css).text


def cards(driver, seat: int) -> list[str]:
    return [c.text for c in driver.find_elements("css selector", f'.seat[data-seat="{seat}"] .hole .pcard')]


def steps_by_seq(page_path: Path, driver) -> dict[int, int]:
    """seq -> the step that applies it (the page's own numbering: step n applies event n)."""
    return {s: i + 1 for i, s in enumerate(driver.execute_script(
        "return window.TdaDossier.current.data.events.map(e => e.seq)")) if s is not None}


def follows_replay(driver, page: Path, db: str, hand_id: str) -> int:
    """At every decision the actor's stack and the pot shown before and after are the
    replay's (less the uncalled chips the history returned before it, which the replay
    counts back at the hand's end), and at the last step every seat's stack is its end
    stack by the rules; the number of decisions checked."""
    at(driver, page)
    scale = driver.execute_script("return window.TdaDossier.current.data.hand.scale")
    step = steps_by_seq(page, driver)
    decisions, ends, returns = replay_facts(db, hand_id)
    go = "window.TdaDossier.current.go(arguments[0]);"
    for d in decisions:
        back = [(seq, seat, a) for seq, seat, a in returns if seq < d["seq"]]
        mine = sum(a for _, seat, a in back if seat == d["seat"])
        driver.execute_script(go, step[d["seq"]] - 1)
        assert shown(driver, ".pot-now") == amount(d["pot_before"] - sum(a for *_, a in back), scale), (hand_id, d)
        if d["stack_before"] is not None:
            assert shown(driver, f'.seat[data-seat="{d["seat"]}"] .chips') == amount(d["stack_before"] + mine, scale)
        driver.execute_script(go, step[d["seq"]])
        if d["stack_after"] is not None:
            assert shown(driver, f'.seat[data-seat="{d["seat"]}"] .chips') == amount(d["stack_after"] + mine, scale)
            assert shown(driver, ".stack-after") == amount(d["stack_after"] + mine, scale)
    driver.execute_script("window.TdaDossier.current.go(1e9);")
    for seat, end in ends.items():
        assert shown(driver, f'.seat[data-seat="{seat}"] .chips') == amount(end, scale), (hand_id, seat)
    assert console_errors(driver) == []
    return len(decisions)


def test_step_by_key_button_slider_and_finding_link(browser, pages):  # noqa: F811
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    paths, _ = pages
    at(browser, paths[HOLDEM])
    assert step_of(browser) == 0
    body = browser.find_element(By.TAG_NAME, "body")
    ActionChains(browser).move_to_element(body).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_RIGHT).perform()
    assert step_of(browser) == 2 and browser.execute_script("return location.hash") == "#step-2"
    browser.find_element(By.ID, "next").click()
    assert step_of(browser) == 3 and shown(browser, "#step-label") == "3 / " + str(len(steps_by_seq(paths[HOLDEM], browser)) + 1)
    browser.find_element(By.ID, "prev").click()
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    assert step_of(browser) == 1
    slider = browser.find_element(By.ID, "slider")
    slider.send_keys(Keys.ARROW_RIGHT)  # the slider's own arrow moves one step, not two
    assert step_of(browser) == 2 and slider.get_attribute("value") == "2"
    # the finding's link opens the step of the action in dispute, with the rule
    raise_step = steps_by_seq(paths[HOLDEM], browser)[8]  # 'Maëlle R: raises 200 to 600'
    link = browser.find_element(By.CSS_SELECTOR, "#finding-list a")
    assert link.get_attribute("href").endswith(f"#step-{raise_step}")
    link.click()
    assert step_of(browser) == raise_step
    assert shown(browser, ".panel .event") == "seat 3 (Maëlle R): raise to 600"
    card = browser.find_element(By.CSS_SELECTOR, ".panel .finding")
    assert "illegal-underraise" in card.text and "Rule 43-A" in card.text
    quote = card.find_elements(By.CSS_SELECTOR, "blockquote.rule-text")
    if quote:  # the edition's text, reflowed: a paragraph is one line
        assert "A player who raises 50% or more" in quote[0].text
    assert card.find_element(By.CSS_SELECTOR, ".expected").text.startswith("at least 800")
    mark = browser.find_element(By.CSS_SELECTOR, ".marks a.mark")
    assert mark.get_attribute("href").endswith(f"#step-{raise_step}")
    # a link straight to the step
    at(browser, paths[HOLDEM], raise_step)
    assert step_of(browser) == raise_step and browser.find_elements(By.CSS_SELECTOR, ".panel .finding")
    browser.find_element(By.ID, "last").click()
    assert "settlement" in shown(browser, ".panel .step-head")
    assert console_errors(browser) == []


def test_three_steps_show_the_replays_decisions(browser, pages):  # noqa: F811
    """The bet before the dispute (open), the underraise (open), and the call after it,
    which the short raise did not reopen (closed): as the decisions rows say."""
    paths, stores = pages
    con = duckdb.connect(stores[HOLDEM], read_only=True)
    rows = {r[0]: r[1:] for r in con.execute(
        "SELECT seq, to_call, min_raise_to, max_raise_to, may_raise, may_raise_reason FROM decisions "
        "WHERE hand_id = ? AND edition = ? AND seq IN (7, 8, 9)", [HOLDEM, EDITION]).fetchall()}
    con.close()
    assert len(rows) == 3 and {r[3] for r in rows.values()} == {True, False}
    at(browser, paths[HOLDEM])
    step = steps_by_seq(paths[HOLDEM], browser)
    for seq, (to_call, min_to, max_to, may, why) in rows.items():
        at(browser, paths[HOLDEM], step[seq])
        assert shown(browser, ".to-call") == str(to_call)
        assert shown(browser, ".min-raise") == str(min_to)
        assert shown(browser, ".max-raise").startswith(str(max_to))
        assert shown(browser, ".open") == f"{'open' if may else 'closed'} ({why.replace('-', ' ')})"


def test_holdem(browser, pages):  # noqa: F811
    from selenium.webdriver.common.by import By

    paths, stores = pages
    assert follows_replay(browser, paths[HOLDEM], stores[HOLDEM], HOLDEM) >= 10
    show = steps_by_seq(paths[HOLDEM], browser)[17]  # the second hand tabled
    browser.execute_script("window.TdaDossier.current.go(arguments[0]);", show)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".center .board .pcard")) == 5
    assert cards(browser, 3) == ["A♥", "8♥"]
    assert shown(browser, '.seat[data-seat="4"]').find("D") >= 0  # the button


def test_omaha_hi_lo(browser, pages):  # noqa: F811
    from selenium.webdriver.common.by import By

    paths, stores = pages
    follows_replay(browser, paths[HILO], stores[HILO], HILO)  # ends at the last step
    assert "high 2, low 4" in shown(browser, ".center .pots")  # the halves
    panel = shown(browser, ".panel")
    assert "split in halves" in panel and "low High card" in panel
    assert len(browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="4"] .hole .pcard')) == 4


def test_stud(browser, pages):  # noqa: F811
    from selenium.webdriver.common.by import By

    paths, stores = pages
    follows_replay(browser, paths[STUD], stores[STUD], STUD)
    step = steps_by_seq(paths[STUD], browser)
    browser.execute_script("window.TdaDossier.current.go(arguments[0]);", step[9])  # third street dealt
    other = browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="2"] .hole .pcard')
    assert [c.get_attribute("class").split()[1:] for c in other] == [["back"], ["back"], ["suit-d", "up"]]
    browser.execute_script("window.TdaDossier.current.go(arguments[0]);", step[38])  # Hero tables seven cards
    hero = browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="1"] .hole .pcard')
    assert len(hero) == 7
    assert ["down" in c.get_attribute("class") for c in hero] == [True, True, False, False, False, False, True]


def test_draw(browser, pages):  # noqa: F811
    paths, stores = pages
    follows_replay(browser, paths[DRAW], stores[DRAW], DRAW)
    step = steps_by_seq(paths[DRAW], browser)
    browser.execute_script("window.TdaDossier.current.go(arguments[0]);", step[7] - 1)
    assert cards(browser, 2) == ["2♦", "3♠", "7♥", "8♣", "K♦"]
    browser.execute_script("window.TdaDossier.current.go(arguments[0]);", step[8])  # discards Kd, draws Jh
    assert cards(browser, 2) == ["2♦", "3♠", "7♥", "8♣", "J♥"]
    assert "draw 1 card [Kd]" in browser.find_element("css selector", ".event-list").get_attribute("textContent")


def test_run_it_twice(browser, pages):  # noqa: F811
    from selenium.webdriver.common.by import By

    paths, stores = pages
    follows_replay(browser, paths[TWICE], stores[TWICE], TWICE)
    boards = browser.find_elements(By.CSS_SELECTOR, ".center .board")
    assert [b.text.split("\n")[0] for b in boards] == ["run 1", "run 2"]
    assert [len(b.find_elements(By.CSS_SELECTOR, ".pcard")) for b in boards] == [5, 5]
    pots = shown(browser, ".center .pots")
    assert "main (run 1) 75.02" in pots and "main (run 2) 75.01" in pots


def test_phh(browser, pages):  # noqa: F811
    from selenium.webdriver.common.by import By

    paths, stores = pages
    follows_replay(browser, paths[PHH], stores[PHH], PHH)
    assert len(browser.find_elements(By.CSS_SELECTOR, '.seat[data-seat="3"] .hole .pcard')) == 7


def test_report_findings_open_their_dossier(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    db = str(tmp_path / "s.duckdb")
    audit([str(SAMPLES / "pokerstars")], db=db, edition_name=EDITION)
    assert run("report", "--db", db, "--out", tmp_path / "r.html", "-q").exit_code == 0
    browser.get((tmp_path / "r.html").as_uri())
    h2 = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "main > section > h2")]
    assert h2[:2] == ["Executive summary", "Findings"] and h2[-1] == "Provenance"
    rows = browser.find_elements(By.CSS_SELECTOR, "#findings tbody tr")
    assert all(r.find_elements(By.CSS_SELECTOR, "a.dossier-link") for r in rows)
    row = next(r for r in rows if "PS-900000000201" in r.text)
    row.find_element(By.CSS_SELECTOR, "a.dossier-link").click()
    box = browser.find_element(By.ID, "dossier-body")
    assert "illegal-underraise" in box.find_element(By.CSS_SELECTOR, ".panel .finding").text
    assert browser.find_element(By.ID, "dossier-line").text.startswith("PS-900000000201")
    n = int(box.get_attribute("data-step"))
    box.find_element(By.CSS_SELECTOR, "button[id$='next']").click()
    box.find_element(By.CSS_SELECTOR, "button[id$='next']").send_keys(Keys.ARROW_RIGHT)
    assert int(box.get_attribute("data-step")) == n + 2
    assert browser.execute_script("return location.hash").endswith(f"-step-{n + 2}")
    assert console_errors(browser) == []


def test_names_made_of_markup_are_text(browser, tmp_path):  # noqa: F811
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    db = str(tmp_path / "h.duckdb")
    audit([str(hostile_history(tmp_path / "histories"))], db=db, edition_name=EDITION)
    assert run("explain", "PS-900000099201", "--db", db, "--format", "html", "--out", tmp_path / "d.html").exit_code == 0
    assert run("report", "--db", db, "--out", tmp_path / "r.html", "-q").exit_code == 0
    for page, first in ((tmp_path / "d.html", None), (tmp_path / "r.html", "a.dossier-link")):
        browser.get(page.as_uri())
        if first:
            browser.find_element(By.CSS_SELECTOR, first).click()
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text  # noqa: B018
        assert browser.execute_script("return document.querySelectorAll('img').length") == 0
        seats = browser.find_element(By.CSS_SELECTOR, ".table-wrap").text
        assert IMG in seats and SCRIPT in seats
        assert console_errors(browser) == []


def test_ten_seats_and_three_side_pots_readable_at_1280x800(browser, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    db = audit_text(tmp_path / "ten", TEN_SEATS)
    out = tmp_path / "ten.html"
    assert run("explain", "PS-900000099301", "--db", db, "--format", "html", "--out", out).exit_code == 0
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",  # a viewport of exactly 1280x800
                            {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    try:
        browser.get(out.as_uri())
        show = next(i for i, e in enumerate(browser.execute_script(
            "return window.TdaDossier.current.data.events.map(e => e.kind)")) if e == "show")
        browser.get(out.as_uri() + f"#step-{show}")  # the table before the hands are tabled: four pots
        assert [p.text.split(" ")[0] for p in browser.find_elements(By.CSS_SELECTOR, ".center .pot")] == [
            "main", "side-1", "side-2", "side-3"]
        browser.save_screenshot(str(tmp_path / "ten-seats-1280x800.png"))
        assert (tmp_path / "ten-seats-1280x800.png").stat().st_size > 10_000
        rects = browser.execute_script(
            "return Array.from(document.querySelectorAll('.seat')).map(e => e.getBoundingClientRect().toJSON())")
        assert len(rects) == 10
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                apart = a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
                assert apart, (a, b)
        wrap = browser.execute_script("return document.querySelector('.table-wrap').getBoundingClientRect().toJSON()")
        panel = browser.execute_script("return document.querySelector('.panel').getBoundingClientRect().toJSON()")
        assert all(wrap["left"] <= r["left"] and r["right"] <= wrap["right"] for r in rects)
        assert all(r["right"] <= panel["left"] for r in rects)  # the facts beside the table, not over it
        assert browser.execute_script("return [innerWidth, innerHeight]") == [1280, 800]
        assert console_errors(browser) == []
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_inferred_events_and_lines_not_understood_are_marked(browser, tmp_path):  # noqa: F811
    """An uncalled return iPoker never writes (inferred from the lines that imply it) and
    a line the parser did not understand are steps flagged as such."""
    from test_unread_lines import CLEAN

    (tmp_path / "unread.txt").write_text(CLEAN.replace("Rafferty: bets 300", "Rafferty: bets 300\ncheckmate_jo: drums on the table"),
                                         encoding="utf-8")
    db = str(tmp_path / "m.duckdb")
    audit([str(SAMPLES / "ipoker"), str(tmp_path / "unread.txt")], db=db, edition_name=EDITION)
    con = duckdb.connect(db, read_only=True)
    marked = con.execute("SELECT hand_id, seq, kind, inferred_from, text FROM events WHERE inferred_from IS NOT NULL "
                         "OR kind = 'unread' ORDER BY kind = 'unread' DESC, hand_id, seq").fetchall()
    con.close()
    unread = marked[0]
    inferred = next(m for m in marked if m[2] == "uncalled_return")
    assert unread[2] == "unread" and inferred[3]
    con, ed = data.open_store(db, EDITION)
    for hand_id, seq, kind, lines, text in (unread, inferred):
        page = tmp_path / "m.html"
        page.write_text(render(dossiers(con, ed, [hand_id])[hand_id]), encoding="utf-8")
        at(browser, page)
        browser.execute_script("window.TdaDossier.current.go(arguments[0]);", steps_by_seq(page, browser)[seq])
        if kind == "unread":
            assert "not understood" in shown(browser, ".panel .flag.unread")
            assert shown(browser, ".panel pre.source") == text.strip()
        else:
            flag = shown(browser, ".panel .flag.inferred")
            assert flag.startswith("Inferred, not recorded") and f"lines {', '.join(map(str, lines))}." in flag
        row = browser.find_element("css selector", ".event-list tr.current")
        assert ("unread" if kind == "unread" else "inferred") in row.get_attribute("class").split()
    con.close()
