"""WPN / Winning Poker Network (``parsers/wpn.py``) on the real corpus, through the
per-site harness (``tests/site_corpus.py``: what each test proves is written there).

Two formats share the folders.  The 2019 format (``Game Hand #``/``Hand #``) is read
and stored.  The format of 2016 and before (``Game started at:``) does not record the
betting structure; each of its hands is accounted for and rejected (``betting-unrecorded``,
docs/sites.md), so only the harness's counting tests apply to it.
"""

from __future__ import annotations

import functools
import re

from mutate import HEADER
from mutate_stars_family import WPN as WORDING
from parsers.wpn import WpnParser
from site_corpus import SiteSpec, site_tests

W = "tour/Winning/"
C = "cash/Winning/"

SPEC = SiteSpec(
    parser="wpn",
    folders=("tour/Winning", "cash/Winning"),
    marker=re.compile(r"^(?:Game )?Hand #\d+ - ", re.M),
    expected_rejections={
        # a capped no-limit table: 'caps $0.55' takes the bet to the table's cap, a
        # structure the engine does not model (as PokerStars' 'Cap' stakes)
        (C + "NLHE-9max-USD-0.01-0.02-201911.CASHID-TN-Miramar (Cap) GAMETYPE.txt", 20): "capped-no-limit",
    },
    # 11 of 12 (the capped hand above): the 97% bar cannot be met by a 12-hand corpus
    # with one hand of an unsupported structure
    min_stored=11 / 12,
    award_exceptions={
        # walks: WPN writes no 'Uncalled bet' line; the big blind's award ('won $0.07')
        # holds his own unmatched chips, which the replay returns before the award
        "WPN-779388412": "walk: award 9.00 = pot 6.00 + the big blind's unreturned 3.00",
        "WPN-784373412": "walk: award 0.07 = pot 0.04 + the big blind's unreturned 0.03",
    },
    # mutation: hands written as tests/mutate.py reads them and back (tests/mutate_stars_family.py);
    # the 2019 format's 3 tournament hands are too few: cash hands are sources too
    mutation_header=HEADER,
    mutation_text=functools.partial(WORDING.as_stars, parser=WpnParser()),
    mutant_text=WORDING.write,
    mutation_cash=True,
)

globals().update(site_tests(SPEC))


# --- the format of 2016 and before: counted and rejected --------------------------------

_LEGACY_FILES = {
    W + "NLHE-2max-USD-2.20 HH00000000 T5732408-G0-201608.Turbo.txt": [3],
    W + "NLHE-9max-FREE-HH20160914 T6106397-G34835015-201609.ante.txt": [2],
    W + "NLHE-9max-USD- HH20160828 T5795043-G33949698-201608.ante.2.txt": [2],
    W + "NLHE-NA-0-0 HH00000000 T1-G0-201601.unknown.player.acts.txt": [2],
    W + "NLHE-NA-0-0 HH00000000 T2-G0-201801.data.mined.format.txt": [2],
    W + "NLHE-NA-0-0 HH20190118 T9360380-G0-201901.txt": [2],
}

LEGACY_SPEC = SiteSpec(
    parser="wpn-legacy",
    site="wpn",
    folders=("tour/Winning", "cash/Winning"),
    marker=re.compile(r"^\ufeff?Game started at: ", re.M),
    expected_rejections={},  # filled below: every hand, at its 'Game ID' line
)


def test_wpn_legacy_every_hand_rejected_betting_unrecorded():
    from site_corpus import parsed

    items = parsed(LEGACY_SPEC)
    codes = {h.reason_code for hs in items.values() for h in hs}
    assert codes == {"betting-unrecorded"}
    assert sum(map(len, items.values())) == 75
    for rel, lines in _LEGACY_FILES.items():
        assert [h.line_no for h in items[rel]] == lines, rel


_legacy = site_tests(LEGACY_SPEC)
test_wpn_legacy_hands_seen_equal_markers = _legacy["test_wpn_legacy_hands_seen_equal_markers"]
