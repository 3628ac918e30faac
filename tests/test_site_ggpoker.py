"""GGPoker (``parsers/ggpoker.py``) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there)."""

from __future__ import annotations

import functools
import re

from conftest import CORPUS, needs_corpus
from mutate import HEADER
from mutate_stars_family import STARS
from parsers.ggpoker import GGPokerParser
from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="ggpoker",
    folders=("tour/GGPoker", "cash/GGPoker"),
    marker=re.compile(r"^Poker Hand #", re.M),
    # run it twice and three times are stored, each run's board and collects with their run
    # (docs/sites.md); the four such hands are judged run by run in tests/test_run_it_twice.py
    expected_rejections={},
    arithmetic_explained={
        # '3b7dff87: posts missed blind $2' then 'posts big blind $5', 'raises $14 to $19': the
        # missed blind is dead (out of the raise's total, as the replay counts it); this re-add
        # counts it toward the raise, so it finds 2 dollars less put in than the total pot
        "GG-OM232657303": "put in 10100 != total pot 10300",
        # 'd379b979: posts missed blind $5' then 'posts big blind $10', 'raises $30 to $40': as above
        "GG-OM232604226": "put in 2500 != total pot 3000",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py), cash hands too
    mutation_header=HEADER,
    mutation_text=functools.partial(STARS.as_stars, parser=GGPokerParser()),
    mutant_text=STARS.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))


# --- wordings on the corpus (each is also read on a hand written for it: tests/test_ggpoker.py)

@needs_corpus
def test_the_corpus_cash_drop_hand_is_stored():
    """'Cash Drop to Pot : total $0.2' (line 9): the hand reconciles with the drop ($2.61 put
    in by the players + $0.20 = 'Total pot $2.81')."""
    from parsers import iter_lines, open_source
    from parsers.base import ParsedHand, unreconciled

    rel = "cash/GGPoker/Flop/PLO-6max-USD-0.01-0.02-202104.STP.txt"
    path = CORPUS / "fpdb" / rel
    [hand] = list(GGPokerParser().iter_hands(iter_lines(path, open_source(path).encoding), rel))
    assert isinstance(hand, ParsedHand), hand
    assert [(e.line_no, e.amount) for e in hand.events if e.kind == "house_added"] == [(9, 20)]
    assert unreconciled(hand) is None
