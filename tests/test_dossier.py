"""The one-hand dossier (``tda-audit explain HAND --format html``; reports/dossier.py) read
without a browser: it opens with the hand and carries this hand's provenance only; the
table it steps through follows the replay (the stacks and pot at every decision are the
replay's, the end stacks the rules'); and names made of markup or spreadsheet formulas
stay text in the dossier, the report and every export.  The page in a browser:
tests/test_dossier_browser.py."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner
from conftest import CORPUS, SAMPLES, needs_corpus

from auditor.cli import main
from auditor.pipeline import audit
from reports import data
from reports.dossier import dossiers, render

EDITION = "tda-2024"
IMG = '"><img src=x onerror=alert(1)>'
SCRIPT = "<script>alert(1)</script>"
# names a spreadsheet would read as formulas, and a table name that starts like a negative number
FORMULAS = ("=HYPERLINK(1)", "@SUM(1)", "+cmd")
TABLE = "-2+3 x"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def sample_hand(number: str) -> str:
    """One hand of the PokerStars sample of violations, as written."""
    text = (SAMPLES / "pokerstars" / "violations-nlhe-mtt.txt").read_text(encoding="utf-8-sig")
    return next(h for h in text.split("\n\n\n") if f"#{number}:" in h).strip("\n")


def hostile_history(folder: Path) -> Path:
    """The underraise sample hand (900000000201) with its players named in markup and
    formulas: its raiser ``IMG``, the big blind ``SCRIPT``, the others ``FORMULAS``, the
    table ``TABLE``."""
    hand = sample_hand("900000000201")
    for old, new in (("Maëlle R", IMG), ("ChipLeader88", SCRIPT), ("d0nk3y", FORMULAS[0]), ("Lukas_W", FORMULAS[1]),
                     ("'3120046002 21'", f"'{TABLE}'"), ("900000000201", "900000099201")):
        assert old in hand
        hand = hand.replace(old, new)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hostile.txt"
    path.write_text(hand + "\n\n\n", encoding="utf-8")
    return path


# Written for these tests: ten seats, three short stacks all in pre-flop for 1000, 2000
# and 3000, called by two big stacks who bet on: a main pot and three side pots.
TEN_SEATS = """PokerStars Hand #900000099301: Tournament #3120099301, $10+$1 USD Hold'em No Limit - Level V (100/200) - 2024/03/01 20:00:00 ET
Table '3120099301 1' 10-max Seat #1 is the button
Seat 1: Alpha Alphonse (10000 in chips)
Seat 2: Bravo Bravissimo (10000 in chips)
Seat 3: Charlie Charleston (10000 in chips)
Seat 4: Delta Deltoid (1000 in chips)
Seat 5: Echo Echolalia (2000 in chips)
Seat 6: Foxtrot Foxglove (3000 in chips)
Seat 7: Golf Golfer (10000 in chips)
Seat 8: Hotel Hotelier (10000 in chips)
Seat 9: India Indigo (10000 in chips)
Seat 10: Juliet Julienne (10000 in chips)
Bravo Bravissimo: posts small blind 100
Charlie Charleston: posts big blind 200
*** HOLE CARDS ***
Delta Deltoid: raises 800 to 1000 and is all-in
Echo Echolalia: raises 1000 to 2000 and is all-in
Foxtrot Foxglove: raises 1000 to 3000 and is all-in
Golf Golfer: folds
Hotel Hotelier: folds
India Indigo: folds
Juliet Julienne: folds
Alpha Alphonse: calls 3000
Bravo Bravissimo: folds
Charlie Charleston: calls 2800
*** FLOP *** [2c 7d 9h]
Charlie Charleston: bets 1000
Alpha Alphonse: calls 1000
*** TURN *** [2c 7d 9h] [Ks]
Charlie Charleston: checks
Alpha Alphonse: checks
*** RIVER *** [2c 7d 9h Ks] [3s]
Charlie Charleston: checks
Alpha Alphonse: checks
*** SHOW DOWN ***
Charlie Charleston: shows [Ah Ad] (a pair of Aces)
Alpha Alphonse: shows [Qc Qd] (a pair of Queens)
Charlie Charleston collected 2000 from side pot-3
Foxtrot Foxglove: shows [Jc Jd] (a pair of Jacks)
Charlie Charleston collected 3000 from side pot-2
Echo Echolalia: shows [Tc Td] (a pair of Tens)
Charlie Charleston collected 4000 from side pot-1
Delta Deltoid: shows [8c 8d] (a pair of Eights)
Charlie Charleston collected 5100 from main pot
*** SUMMARY ***
Total pot 14100 Main pot 5100. Side pot-1 4000. Side pot-2 3000. Side pot-3 2000. | Rake 0
Board [2c 7d 9h Ks 3s]
Seat 1: Alpha Alphonse (button) showed [Qc Qd] and lost with a pair of Queens
Seat 2: Bravo Bravissimo (small blind) folded before Flop
Seat 3: Charlie Charleston (big blind) showed [Ah Ad] and won (14100) with a pair of Aces
Seat 4: Delta Deltoid showed [8c 8d] and lost with a pair of Eights
Seat 5: Echo Echolalia showed [Tc Td] and lost with a pair of Tens
Seat 6: Foxtrot Foxglove showed [Jc Jd] and lost with a pair of Jacks
Seat 7: Golf Golfer folded before Flop (didn't bet)
Seat 8: Hotel Hotelier folded before Flop (didn't bet)
Seat 9: India Indigo folded before Flop (didn't bet)
Seat 10: Juliet Julienne folded before Flop (didn't bet)
"""


def audit_text(folder: Path, text: str, name: str = "hand.txt") -> str:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    db = str(folder / "a.duckdb")
    res = audit([str(folder / name)], db=db, edition_name=EDITION)
    assert res.ingest.stored >= 1, res.ingest.errors
    return db


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("dossier") / "samples.duckdb")
    audit([str(SAMPLES)], db=db, edition_name=EDITION)
    return db


def embedded(page: str, element_id: str) -> dict:
    """The JSON a page embeds; a dossier's lists written as tables made rows of dicts again."""
    m = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    assert m, element_id
    d = json.loads(m[1])
    for k, v in d.items():
        if isinstance(v, dict) and set(v) == {"cols", "rows"}:
            d[k] = [dict(zip(v["cols"], r)) for r in v["rows"]]
    return d


def replay_facts(db: str, hand_id: str | None = None) -> dict:
    """What the replay stored, read from the store directly, per hand (of one hand, when
    ``hand_id`` is given): its decisions, its end stacks by the rules, and its recorded
    uncalled returns (seq, seat, amount)."""
    con = duckdb.connect(db, read_only=True)
    where = "" if hand_id is None else f" AND hand_id = '{hand_id}'"
    out: dict = {}

    def of(h):
        return out.setdefault(h, ([], {}, []))

    cur = con.execute("SELECT hand_id, seq, seat, stack_before, stack_after, pot_before FROM decisions "
                      f"WHERE edition = ?{where} ORDER BY hand_id, seq", [EDITION])
    cols = [d[0] for d in cur.description]
    for r in cur.fetchall():
        of(r[0])[0].append(dict(zip(cols[1:], r[1:])))
    for h, seat, end in con.execute(f"SELECT hand_id, seat, end_stack_expected FROM hand_results WHERE edition = ?{where}",
                                    [EDITION]).fetchall():
        of(h)[1][seat] = end
    for h, *ret in con.execute("SELECT hand_id, seq, seat, amount FROM events WHERE kind = 'uncalled_return'"
                               f"{where} ORDER BY hand_id, seq").fetchall():
        of(h)[2].append(tuple(ret))
    con.close()
    return out if hand_id is None else out.get(hand_id, ([], {}, []))


def test_every_sample_dossier_opens_with_its_hand_and_only_its_provenance(sample_store, tmp_path):
    con = duckdb.connect(sample_store, read_only=True)
    hands = con.execute("SELECT h.hand_id, s.path, s.sha256, h.first_line, h.last_line FROM hands h "
                        "JOIN sources s USING (source_id) ORDER BY hand_id").fetchall()
    sources = con.execute("SELECT path, sha256 FROM sources").fetchall()
    con.close()
    assert len(hands) > 60
    # the command writes the page: once by it, the others as it renders them, from one read of the store
    r = run("explain", hands[0][0], "--db", sample_store, "--format", "html", "--out", tmp_path / "d.html")
    assert r.exit_code == 0, r.output
    con, ed = data.open_store(sample_store, EDITION)
    every = dossiers(con, ed, [h[0] for h in hands])
    con.close()
    for i, (hand_id, path, sha, first, last) in enumerate(hands):
        page = (tmp_path / "d.html").read_text(encoding="utf-8") if i == 0 else render(every[hand_id])
        body = page[page.index("<body>"):]
        # the hand in one line first, before its findings, its replay and its provenance
        first_text = re.sub(r"<[^>]+>", "", body[:body.index("</h1>")]).strip()
        assert first_text.startswith(hand_id.replace("&", "&amp;")), first_text
        assert body.index('id="findings"') < body.index('id="replay"') < body.index('id="provenance"')
        d = embedded(page, "dossier-data")
        assert d["hand"]["hand_id"] == hand_id
        assert d["provenance"] == {**d["provenance"], "path": path, "sha256": sha, "first_line": first, "last_line": last}
        for other_path, other_sha in sources:
            if other_sha != sha:
                assert other_sha not in page and other_path not in page, (hand_id, other_path)
        assert {f["hand_id"] for f in d["findings"]} <= {hand_id}


def follows_replay(db: str) -> int:
    """At every decision of every hand of ``db`` the table shows the replay's stacks and
    pot (less the uncalled chips the history returned before it: the replay counts them
    back at the end of the hand), and after the last step each seat's end stack by the
    rules; the number of decisions checked."""
    con, ed = data.open_store(db, EDITION)
    ids = [r[0] for r in con.execute("SELECT hand_id FROM hands ORDER BY hand_id").fetchall()]
    all_d = dossiers(con, ed, ids)
    con.close()
    facts = replay_facts(db)
    checked = 0
    for hand_id in ids:
        d = all_d[hand_id]
        decisions, ends, returns = facts.get(hand_id, ([], {}, []))
        index = {e["seq"]: i for i, e in enumerate(d["events"])}
        for dec in decisions:
            i = index[dec["seq"]]
            back = [(seq, seat, amt) for seq, seat, amt in returns if seq < dec["seq"]]
            mine = sum(a for _, s, a in back if s == dec["seat"])
            before, after = d["steps"][i], d["steps"][i + 1]
            assert before["pot"] == dec["pot_before"] - sum(a for *_, a in back), (hand_id, dec)
            if dec["stack_before"] is not None:
                assert before["stacks"][str(dec["seat"])] == dec["stack_before"] + mine, (hand_id, dec)
                assert after["stacks"][str(dec["seat"])] == dec["stack_after"] + mine, (hand_id, dec)
            checked += 1
        last = d["steps"][-1]
        for seat, end in ends.items():
            if end is not None and seat is not None:
                assert last["stacks"][str(seat)] == end, (hand_id, seat)
    return checked


def test_steps_follow_the_replay_in_every_sample_hand(sample_store):
    assert follows_replay(sample_store) > 500


# corpus files whose hands the table's chips must follow as the replay does: a dead small
# blind and blinds posted together, a player with no seat line, a re-buy written mid-hand,
# a player sitting out, money the house adds (STP), a draw game, a limit cap
ODD_CHIPS_FILES = (
    "fpdb/cash/Bovada/Flop/LHE-USD-8-16-201204.old.format.txt",
    "fpdb/cash/FTP/Draw/3-Draw-Limit-USD-5-10-201211.txt",
    "fpdb/cash/FTP/Mix/10Game-6max-USD-2.50-5.201104.Sample.txt",
    "fpdb/cash/GGPoker/Flop/PLO-6max-USD-0.01-0.02-202104.STP.txt",
    "fpdb/cash/GGPoker/Flop/PLO-6max-USD-5-10-202101.missed.txt",
    "fpdb/cash/PacificPoker/Flop/888-FLH-USD-0.02-0.04.txt",
    "fpdb/cash/PartyPoker/Flop/NLHE-EUR-6max-0.10-0.25-201112.post.both.txt",
    "fpdb/cash/PartyPoker/Flop/NLHE-USD-0.01-0.02-201105.Unseated.player.is.only.big.blind.txt",
    "fpdb/cash/Stars/Flop/NLHE-6max-EUR-0.05-0.10-201906.RIO.STP.txt",
    "fpdb/cash/iPoker/Flop/LHE-10max-USD-0.10-0.20-201107.player.sitting.out.xml",
    "fpdb/tour/Winning/NLHE-NA-0-0 HH00000000 T1-G0-201601.unknown.player.acts.txt",
)


@needs_corpus
def test_steps_follow_the_replay_in_corpus_hands_with_odd_chips(tmp_path):
    db = str(tmp_path / "odd.duckdb")
    audit([str(CORPUS / f) for f in ODD_CHIPS_FILES], db=db, edition_name=EDITION)
    assert follows_replay(db) > 1000


def test_ten_seats_three_side_pots(tmp_path):
    db = audit_text(tmp_path, TEN_SEATS)
    con, ed = data.open_store(db, EDITION)
    d = dossiers(con, ed, ["PS-900000099301"])["PS-900000099301"]
    stored = con.execute("SELECT pot_label, amount, eligible FROM pots WHERE hand_id = 'PS-900000099301' "
                         "AND edition = ? ORDER BY pot_index", [EDITION]).fetchall()
    con.close()
    assert [p[0] for p in stored] == ["main", "side-1", "side-2", "side-3"]
    at_showdown = next(i for i, e in enumerate(d["events"]) if e["kind"] == "show")
    live = d["steps"][at_showdown]["pots"]
    # the pots the table shows before the award are the replay's
    assert [(p["amount"], p["eligible"]) for p in live] == [(a, sorted(e)) for _, a, e in stored]


def test_hostile_names_stay_text_in_dossier_report_and_exports(tmp_path):
    db = str(tmp_path / "h.duckdb")
    res = audit([str(hostile_history(tmp_path / "histories"))], db=db, edition_name=EDITION)
    assert [f["player"] for f in res.findings] == [IMG]
    hand = "PS-900000099201"
    r = run("explain", hand, "--db", db, "--format", "html", "--out", tmp_path / "d.html")
    assert r.exit_code == 0
    r = run("report", "--db", db, "--out", tmp_path / "r.html", "-q")
    assert r.exit_code == 0
    for page in ((tmp_path / "d.html").read_text(encoding="utf-8"), (tmp_path / "r.html").read_text(encoding="utf-8")):
        assert IMG not in page and SCRIPT not in page  # escaped in the markup, \u003c in the JSON
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page or "\\u003cscript\\u003e" in page
        assert "<img" not in page
        assert page.count("<script") == page.count("</script>")
    d = embedded((tmp_path / "d.html").read_text(encoding="utf-8"), "dossier-data")
    assert {s["player"] for s in d["seats"]} == {IMG, SCRIPT, *FORMULAS[:2]}
    # Markdown: no markup a viewer would render
    for args in (["explain", hand, "--format", "md"], ["export", "--format", "md"], ["export", "--format", "md", "--what", "facts"]):
        md = run(*args, "--db", db).output
        assert "<script" not in md and "<img" not in md and "&lt;img src=x onerror=alert(1)&gt;" in md, args
    # CSV and XLSX: no text cell starts a formula; the names are there, as text
    seen = set()
    for what in ("findings", "hands", "facts"):
        out = tmp_path / f"{what}-csv"
        assert run("export", "--db", db, "--format", "csv", "--what", what, "--out", out / f"{what}.csv").exit_code == 0
        for f in sorted(out.rglob("*.csv")) if what != "facts" else sorted((out / f"{what}.csv").glob("*.csv")):
            for row in csv.reader(io.StringIO(f.read_text(encoding="utf-8"))):
                for cell in row:
                    assert not (cell[:1] in "=+-@" and cell and not re.fullmatch(r"[+-]?\d+(\.\d+)?", cell)), (f.name, cell)
                    seen.add(cell)
        xlsx = tmp_path / f"{what}.xlsx"
        assert run("export", "--db", db, "--format", "xlsx", "--what", what, "--out", xlsx).exit_code == 0
        from openpyxl import load_workbook

        for ws in load_workbook(xlsx).worksheets:
            for row in ws.iter_rows(values_only=True):
                for cell in row:
                    if isinstance(cell, str):
                        assert not (cell[:1] in "=+-@" and not re.fullmatch(r"[+-]?\d+(\.\d+)?", cell)), (ws.title, cell)
                        seen.add(cell)
    assert {"'" + FORMULAS[0], "'" + FORMULAS[1], "'" + TABLE, IMG, SCRIPT} <= seen


def test_five_card_stud_cards_on_the_table(sample_store):
    """5-card stud deals one card down and one up on its first street, second, then one up
    on each of third to fifth: third street is not the first here (7-card stud's, whose two
    unwritten down cards the table draws), so no seat ever shows more than its five cards,
    and a shown hand is down only in its first card."""
    con, ed = data.open_store(sample_store, EDITION)
    hand = "FT-900000004101"
    d = dossiers(con, ed, [hand])[hand]
    con.close()
    assert d["hand"]["variant"] == "5_card_stud"
    for step in d["steps"]:
        assert all(len(c) <= 5 for c in step["cards"].values()), step
    last = d["steps"][-1]["cards"]
    assert [c for c, _ in last["3"]] == ["Ah", "3c", "Jd", "Js", "5h"]
    assert [up for _, up in last["3"]] == [False, True, True, True, True]
    assert len(last["1"]) == 3  # folded on third street: one down (unknown), two up


def test_small_blind_written_after_the_big_blind_is_live_on_the_table(tmp_path):
    """Winamax writes the blinds in either order: the small blind of the seat left of the
    button, written after the big blind, is the small blind, live as the replay holds it
    (replay.engine.small_blind_out_of_position, which the table calls too): in front of its
    poster, no dead money in the middle, and his call of the rest matches the big blind."""
    from test_site_wordings_winamax_fulltilt import _WMX_BB_FIRST

    text = _WMX_BB_FIRST.format(sb_act="calls 0.50€\nWim checks\n*** FLOP *** [2c 8d Kh]\nVic checks\nWim bets 2€\nVic folds",
                                won="4€", total="4€")
    db = audit_text(tmp_path, text)
    con, ed = data.open_store(db, EDITION)
    hand = con.execute("SELECT hand_id FROM hands").fetchone()[0]
    d = dossiers(con, ed, [hand])[hand]
    con.close()
    kinds = [e["kind"] for e in d["events"]]
    after_blinds = d["steps"][kinds.index("small_blind") + 1]
    assert after_blinds["bets"] == {"1": 50, "2": 100} and after_blinds["middle"] == 0, after_blinds
    after_call = d["steps"][kinds.index("call") + 1]
    assert after_call["bets"] == {"1": 100, "2": 100} and after_call["middle"] == 0, after_call
    assert follows_replay(db) >= 3
