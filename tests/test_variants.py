"""What the replay cannot know of Irish and Double Hold'em hands, and what it then judges
(docs/sites.md, "Game variants beyond the common ones"), on the hand-written samples edited.

- Irish: a player's hand is the two cards he kept.  Four known cards and a discard that
  names none (`Ann Arbor discards`) leave it unknown: the pot is not judged.  With the
  discard's cards written, the two left are his hand even when he does not table them.
- Double Hold'em: the history does not say which card is a player's point card.  A pot is
  judged where every choice gives the same winner, and only there.
"""

from __future__ import annotations

import duckdb

from auditor.pipeline import audit
from conftest import SAMPLES

IRISH = SAMPLES / "fulltilt" / "irish-cash-wrong-winner.txt"
DOUBLE = SAMPLES / "partypoker" / "double-holdem-cash-wrong-winner.txt"


def _twin(path, first_line: str) -> str:
    """The sample's clean twin: the text from the line that starts with ``first_line``."""
    text = path.read_text(encoding="utf-8")
    return text[text.index(first_line):]


def _pots(tmp_path, name: str, text: str) -> list[tuple]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    db = str(tmp_path / f"{name}.duckdb")
    res = audit([str(path)], db=db)
    assert res.ingest.rejected == 0, res.ingest.errors[:3]
    with duckdb.connect(db, read_only=True) as con:
        return con.execute("SELECT hi_winners, verified, note FROM pots ORDER BY hand_id, pot_index").fetchall()


def test_irish_hand_is_the_two_cards_kept(tmp_path):
    twin = _twin(IRISH, "Full Tilt Poker Game #900000004302")
    # Ann Arbor does not table her cards: the discard's cards say which two she kept (Kc Qd),
    # Bob's Kh Ad beat them
    unshown = twin.replace("Ann Arbor shows [Kc Qd] a pair of Kings\n", "")
    assert _pots(tmp_path, "kept.txt", unshown) == [([2], True, None)]
    # her discard names no card: four known, which two she kept is not known
    unknown = unshown.replace("Ann Arbor discards [7h 7s]", "Ann Arbor discards")
    assert _pots(tmp_path, "unknown.txt", unknown) == [(None, False, "hands of seats [1] not tabled")]


def test_double_holdem_pot_is_judged_where_the_point_cards_do_not_matter(tmp_path):
    twin = _twin(DOUBLE, "#Game No : 900000006002")
    # Bob's Jc Js 9c: at least two pair whatever his point card, Ann's Ah Qh 3c at most a pair: judged
    assert _pots(tmp_path, "decided.txt", twin) == [([2], True, None)]
    # Bob's Kc Ks 9c: Kings with the Kc or Ks as point card, but with the 9c a pair of Nines, which
    # Ann's pair of Queens beats: who won depends on a card the history does not name
    open_ = twin.replace("Jc, Js, 9c ]two pairs, Jacks and Nines", "Kc, Ks, 9c ]a pair of Kings")
    assert _pots(tmp_path, "open.txt", open_) == [
        (None, False, "Double Hold'em: the point cards are not recorded, and the winner depends on them")]


def test_a_discard_without_a_count_is_full_tilt_s_wording_only():
    """Full Tilt's Irish writes 'discards [7h 7s]' and bare 'discards' (a site-table entry of
    its own, StarsSite.discard): draws, the count the cards counted or not known. Another
    Stars-shaped site writes the count ('discards 2 cards'): a bare 'discards' there is a line
    not understood, not a draw."""
    from parsers.fulltilt import FullTiltParser
    from parsers.pokerstars import PokerStarsParser

    def events(parser, text: str, line: str) -> list[tuple]:
        lines = text.split("\n")
        no = lines.index(line) + 1
        [hand] = [h for h in parser.iter_hands(((i, 0, t) for i, t in enumerate(lines, 1)), "x.txt")
                  if any(e.line_no == no for e in getattr(h, "events", []))]
        return [(e.kind, e.amount) for e in hand.events if e.line_no == no]

    twin = _twin(IRISH, "Full Tilt Poker Game #900000004302")
    assert events(FullTiltParser(), twin, "Ann Arbor discards [7h 7s]") == [("draw", 2)]
    bare = twin.replace("Ann Arbor discards [7h 7s]", "Ann Arbor discards")
    assert events(FullTiltParser(), bare, "Ann Arbor discards") == [("draw", None)]
    stars = (SAMPLES / "pokerstars" / "triple-draw-27-mtt.txt").read_text(encoding="utf-8")
    assert events(PokerStarsParser(), stars, "snow_man: discards 2 cards") == [("draw", 2)]
    for wording in ("snow_man: discards", "snow_man: discards [7h 7s]"):
        assert events(PokerStarsParser(), stars.replace("snow_man: discards 2 cards", wording, 1), wording) == [
            ("unread", None)], wording
