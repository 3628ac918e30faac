"""Inferred events: one column, ``events.inferred_from``, marks an event the format
leaves out but its other lines imply (docs/sites.md, "Inferred events are marked by
one column"); ``text`` holds only what the source said.

Per parser that infers (iPoker, PartyPoker, 888poker, Winamax) a real hand of the
corpus whose inferred events carry the lines read by hand; over every non-PHH corpus
file and the samples, no event's text carries an "inferred" marker, every inferred
event's lines lie in its hand, and its text is a line of the source; the store, the
``showdown-order`` check, ``explain`` and the report read the column.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from auditor.cli import main
from auditor.pipeline import audit
from parsers import detect_parser, iter_lines, open_source
from parsers.base import Event, ParsedHand
from tests.conftest import CORPUS, needs_corpus

FPDB = CORPUS / "fpdb"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_histories"
MARKER = re.compile(r"^\[?inferred", re.IGNORECASE)


def hands_of(path: Path) -> list[ParsedHand]:
    info = open_source(path)
    parser = detect_parser(info.head, str(path))
    if parser is None:  # not a hand history (a folder's other files)
        return []
    return [h for h in parser.iter_hands(iter_lines(path, info.encoding), str(path)) if isinstance(h, ParsedHand)]


def hand(path: Path, hand_id: str) -> ParsedHand:
    return next(h for h in hands_of(path) if h.hand_id == hand_id)


def inferred(h: ParsedHand) -> list[tuple]:
    return [(e.kind, e.seat, e.amount, e.line_no, e.inferred_from) for e in h.events if e.inferred_from is not None]


def source_lines(path: Path) -> list[str]:
    """The file's lines as the parsers decode them (index = line number - 1)."""
    return [text for _, _, text in iter_lines(path, open_source(path).encoding)]


# --- one real hand per parser that infers --------------------------------------------

@needs_corpus
def test_partypoker_blinds_the_2005_format_never_posts_are_inferred_from_the_button_and_blinds_lines():
    path = FPDB / "tour/PartyPoker/Flop/NLHE-MTT-USD-30-3-200508.Old.Format.txt"
    h = hand(path, "PP-2621679197")
    # line 3: the game line 'Blinds(50/100)', line 5: 'Seat 4 is the button', line 16: 'Blinds(50/100)'
    assert inferred(h) == [("small_blind", 6, 50, 16, [3, 5, 16]), ("big_blind", 7, 100, 16, [3, 5, 16])]
    lines = source_lines(path)
    assert "is the button" in lines[4] and lines[15].startswith("Blinds(50/100)")
    assert all(e.text == lines[15] for e in h.events if e.inferred_from)  # the line it is placed on, verbatim


@needs_corpus
def test_partypoker_silent_post_is_inferred_from_the_check_and_the_win_line():
    path = FPDB / "cash/PartyPoker/Flop/NLHE-6max-USD-0.05-0.10-201209.silent.post.both.txt"
    h = hand(path, "PP-14067958")
    # line 18 'Player2 checks.' with nothing in (blinds $0.05/$0.10, nobody raised); line 40
    # 'Player4 wins $0.58 USD' with his $0.20 river bet (line 31) nobody called: $0.38 won is
    # more than the $0.35 in the pot with a big blind alone, so the post was small + big
    post, ret, won, total = inferred(h)
    assert post == ("dead_blind", 3, 15, 18, [18, 40])
    assert ret == ("uncalled_return", 6, 20, 40, [31, 40]) and won == ("collect", 6, 38, 40, [31, 40])
    assert total[:4] == ("total_pot", None, 40, 40)  # rake $0.02
    lines = source_lines(path)
    assert lines[17] == "Player2 checks." and lines[39] == "Player4 wins $0.58 USD"
    # the post comes before the first action of the hand, after the written blinds
    kinds = [(e.kind, e.seat) for e in h.events[:4]]
    assert kinds == [("small_blind", 5), ("big_blind", 6), ("dead_blind", 3), ("fold", 1)]


@needs_corpus
def test_888_cash_total_pot_is_inferred_from_every_chip_line_and_the_collect():
    path = FPDB / "cash/PacificPoker/Flop/888-FLH-PM-0.50-1.00.txt"
    h = hand(path, "888-362981853")
    [(kind, seat, amount, line, lines)] = inferred(h)
    chip_lines = sorted(e.line_no for e in h.events if e.kind in ("small_blind", "big_blind", "call", "bet", "raise"))
    assert (kind, seat, amount, line) == ("total_pot", None, 3100, 60)
    assert lines == chip_lines + [60]
    assert source_lines(path)[59] == "sausekater collected [ 29.75 ]"


@needs_corpus
def test_winamax_uncalled_return_collect_and_total_rest_on_the_bet_and_the_collect():
    path = FPDB / "cash/Winamax/Flop/NLHE-2max-EUR-2-4-201704.go.fast.txt"
    h = hand(path, "WMX-9434802-28434-1490719852")
    # line 19 'Hero bets 9.50€' (nobody called), line 21 'Hero collected 24.46€ from pot',
    # line 23 'Total pot 24.46€ | Rake 1.04€': 9.50 went back, 14.96 came from the pot
    assert inferred(h) == [("uncalled_return", 2, 950, 21, [19, 21]), ("collect", 2, 1496, 21, [19, 21]),
                           ("total_pot", None, 1600, 23, [19, 21, 23])]
    lines = source_lines(path)
    assert lines[18] == "Hero bets 9.50€" and lines[20] == "Hero collected 24.46€ from pot"
    assert [e.text for e in h.events if e.inferred_from] == [lines[20], lines[20], lines[22]]


@needs_corpus
def test_fulltilt_fold_the_matrix_export_leaves_out_rests_on_the_summary_line():
    path = FPDB / "tour/FTP/Flop/NLHE-6max-Matrix-USD-26-201211.match2.txt"
    h = hand(path, "FT-31493013637")
    # line 273 'Player0 raises to 345, and is all in', 274 'Player2 folds', then the summary: line 280
    # 'Seat 4: Player3 (big blind) folded before the Flop' is the only word of the big blind's fold
    assert inferred(h) == [("fold", 4, None, 280, [280])]
    lines = source_lines(path)
    assert lines[279] == "Seat 4: Player3 (big blind) folded before the Flop"
    [fold] = [e for e in h.events if e.inferred_from]
    assert (fold.street, fold.text) == ("preflop", lines[279])
    assert [e.kind for e in h.events if e.street == "preflop"][-3:] == ["raise", "fold", "fold"]


@needs_corpus
def test_ipoker_return_collect_and_total_rest_on_the_elements_that_imply_them():
    path = FPDB / "cash/iPoker/Flop/6+Holdem-EUR-0.25-0.50-201702.txt"
    h = hand(path, "IP-7423436714")
    # line 42: mickymurphy's €5.50 bet nobody called; line 25: his player element (bet €9.50,
    # win €13.10, which counts the return); line 26: the other player's (bet €4)
    assert inferred(h) == [("uncalled_return", 1, 550, 42, [42]), ("collect", 1, 760, 25, [25, 42]),
                           ("total_pot", None, 800, 21, [25, 26, 42])]
    lines = source_lines(path)
    assert 'sum="€5.50"' in lines[41] and 'win="€13.10"' in lines[24] and 'bet="€4"' in lines[25]
    # a show inferred from the cards visible at a showdown rests on its cards element
    shows = [e for p in (FPDB / "cash/iPoker").rglob("*") if p.is_file() for x in hands_of(p) for e in x.events if e.kind == "show"]
    assert shows and all(e.inferred_from == [e.line_no] for e in shows)


# --- the whole corpus and the samples ------------------------------------------------

def _files() -> list[Path]:
    files = sorted(SAMPLES.glob("*"))
    if CORPUS.is_dir():
        files += sorted(p for p in FPDB.rglob("*") if p.is_file())
    return [p for p in files if p.is_file()]


def test_no_event_text_carries_an_inferred_marker_and_every_inferred_event_rests_on_its_hands_lines():
    per_parser: dict[str, int] = {}
    for path in _files():
        try:
            info = open_source(path)
        except OSError:
            continue
        parser = detect_parser(info.head, str(path))
        if parser is None:
            continue
        lines = source_lines(path) if "ipoker" != parser.name else None
        for h in parser.iter_hands(iter_lines(path, info.encoding), str(path)):
            if not isinstance(h, ParsedHand):
                continue
            for e in h.events:
                assert not (e.text and MARKER.search(e.text)), (path, e)
                if e.inferred_from is None:
                    continue
                per_parser[parser.name] = per_parser.get(parser.name, 0) + 1
                assert e.inferred_from == sorted(set(e.inferred_from)), (path, e)
                assert h.first_line <= e.inferred_from[0] and e.inferred_from[-1] <= h.last_line, (path, e)
                if lines is not None:  # text formats: the text is the source line the event is placed on
                    # (as the parser reads it: Party's reader drops the NULs a few files hold)
                    assert e.line_no in e.inferred_from and e.text == lines[e.line_no - 1].replace("\x00", ""), (path, e)
    if CORPUS.is_dir():
        # the parsers that infer, and only they (PokerStars, GGPoker, WPN write what they imply;
        # Bovada infers a walk's return, the house take its summary leaves out, the stud up cards its
        # deal lines leave unmarked and a board only its summary writes; Full Tilt the fold its 2012
        # Matrix exports leave out, which the summary states)
        assert set(per_parser) == {"bovada", "fulltilt", "ipoker", "partypoker", "pacific", "winamax"}, per_parser


# --- the store, the checks, explain and the report read the column --------------------

@needs_corpus
def test_the_store_explain_and_report_show_inferred_events_from_the_column(tmp_path):
    path = FPDB / "cash/Winamax/Flop/NLHE-2max-EUR-2-4-201704.go.fast.txt"
    db = str(tmp_path / "wmx.duckdb")
    audit([str(path)], db)
    with duckdb.connect(db, read_only=True) as con:
        rows = con.execute("SELECT kind, line_no, inferred_from FROM events WHERE hand_id = 'WMX-9434802-28434-1490719852' "
                           "AND inferred_from IS NOT NULL ORDER BY seq").fetchall()
        assert con.execute("SELECT count(*) FROM events WHERE regexp_matches(text, '^\\[?inferred')").fetchone()[0] == 0
    assert rows == [("uncalled_return", 21, [19, 21]), ("collect", 21, [19, 21]), ("total_pot", 23, [19, 21, 23])]
    out = CliRunner().invoke(main, ["explain", "WMX-9434802-28434-1490719852", "--db", db], catch_exceptions=False).output
    assert "Inferred events:" in out
    assert "line 21: seat 2 (Hero) uncalled return 9.50: inferred, not recorded; inferred from lines 19, 21" in out
    assert "total pot 16.00: inferred, not recorded; inferred from lines 19, 21, 23" in out
    assert "uncalled return 9.50 (inferred)" in out  # the timeline marks the row
    ev = json.loads(CliRunner().invoke(main, ["explain", "WMX-9434802-28434-1490719852", "--db", db, "--format", "json"],
                                       catch_exceptions=False).output)
    assert [r["inferred_from"] for r in ev["timeline"] if r["inferred_from"]] == [[19, 21], [19, 21], [19, 21, 23]]
    # the report's hand evidence carries the column; its script shows the lines in place of a source line
    from reports.html import build

    page, _ = build(db, hand_ids=["WMX-9434802-28434-1490719852"])
    start = page.index('id="report-data">') + len('id="report-data">')
    payload = json.loads(page[start:page.index("</script>", start)])
    col = payload["cols"].index("inferred_from")
    rows = payload["hands"]["WMX-9434802-28434-1490719852"]["timeline"]
    assert [r[col] for r in rows if r[col]] == [[19, 21], [19, 21], [19, 21, 23]]
    assert '"inferred from lines "' in page


@needs_corpus
def test_showdown_order_passes_over_shows_a_parser_inferred(tmp_path):
    from auditor.checks import run_checks
    from auditor.pipeline import DEFAULT_EDITION

    # iPoker's XML records no showing order: its shows are inferred, and not judged
    db = str(tmp_path / "ip.duckdb")
    res = audit([str(FPDB / "cash/iPoker")], db)
    assert [f for f in res.findings if f["check_id"] == "showdown-order"] == []
    from auditor import segments, store

    with store.connect(db) as con:
        # the same shows taken as recorded: the check judges them (it reads the column, nothing else)
        segments.rewrite(con, store.segments_root(con), "events",
                         "SELECT * REPLACE (CASE WHEN kind = 'show' THEN NULL ELSE inferred_from END AS inferred_from) FROM events")
        counts = run_checks(con, DEFAULT_EDITION, only=["showdown-order"])
    assert counts["showdown-order"] > 0


def test_an_event_is_recorded_unless_it_names_its_lines():
    e = Event(0, "preflop", "fold", 3)
    assert e.inferred_from is None
