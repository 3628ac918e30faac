"""Bovada / Ignition / Bodog (``parsers/bovada.py``) on the real corpus, through the per-site
harness (``tests/site_corpus.py``: what each test proves is written there).

Seen: every ``Bovada Hand #``, ``Ignition Hand #``, ``Bodog Hand #`` and ``Bodog UK Hand #``
in the folders, a header glued to a cut-off line or after a byte-order mark included.  Stored
share: below the bar, for what the record leaves out (the xfail below says what); every
rejection is listed here with its reason code, read hand by hand.

Mutation recall is not run: the library writes PokerStars' wording, and no converter
between it and Bovada's position-named lines is written yet.
"""

from __future__ import annotations

import re

import pytest

from site_corpus import SiteSpec, site_tests


def _each(rel: str, code: str, lines: tuple[int, ...]) -> dict[tuple[str, int], str]:
    return {(rel, n): code for n in lines}


SPEC = SiteSpec(
    parser="bovada",
    folders=("tour/Bovada", "cash/Bovada"),
    marker=re.compile(r"(?:Bovada|Ignition|Bodog UK|Bodog) Hand #\d+"),
    expected_rejections={
        # 'Big Blind [ME] : All-in 166' before the deal, then the dealer's 'Ante chip 240' and a
        # return: the all-in may be the big blind or the ante (ante.all.in)
        **_each('tour/Bovada/Flop/NLHE-9max-USD-10-201211.ante.all.in.txt',
                'all-in-unclear', (5,)),
        # the header writes the speed ('Normal-', 'Turbo-') where the limit would be: no limit,
        # pot limit or fixed limit is recorded (Ignition tournaments, and one 2012 Bovada one)
        **_each('tour/Bovada/Flop/NLHE-6max-USD-STT - Hyper Turbo (500 Chips) - $25-$1.25 - 201706.txt',
                'betting-unrecorded', (1, 61, 99, 135, 177, 213, 260, 294, 341, 383, 420,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-3-201204.missing.limit.info.txt',
                'betting-unrecorded', (1,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-MTT - $25-$2.50 - 202104.Ignititon.MVS.txt',
                'betting-unrecorded', (1,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-MTT - Monthly Milly - $1.000.000 Guaranteed - TT$500-$35 - 202106.txt',
                'betting-unrecorded', (1, 58, 120, 193, 245, 301, 371, 441, 505, 573, 636, 703, 760, 822, 880, 952, 1012, 1072, 1137,
                 1203, 1260, 1323, 1382, 1434, 1504, 1568, 1620, 1682, 1742, 1794, 1854, 1907, 1973, 2039, 2097,
                 2151, 2214, 2275, 2325, 2379, 2428, 2483, 2532, 2588, 2641, 2695, 2747, 2810, 2863, 2924, 2976,
                 3029, 3088, 3140, 3202, 3254, 3310, 3357, 3414, 3461, 3506, 3559, 3618, 3664, 3719, 3766, 3819,
                 3878, 3931, 3983, 4040, 4092, 4149, 4202, 4255, 4317, 4372, 4435, 4492, 4552, 4609, 4664, 4726,
                 4778, 4835, 4899, 4952, 5004, 5056, 5119, 5182, 5234, 5293, 5340, 5398, 5445, 5490, 5539, 5584,
                 5633, 5681, 5735, 5787, 5834, 5881, 5935, 5987, 6045, 6102, 6164, 6226, 6296, 6353, 6410, 6465,
                 6523, 6580, 6641, 6704, 6756, 6809, 6861, 6913, 6969, 7021, 7073, 7126, 7187, 7247, 7306, 7367,
                 7428, 7485, 7547, 7617, 7678, 7745, 7802, 7861, 7925, 7996, 8056, 8115, 8178, 8250, 8316, 8375,
                 8434, 8493, 8559, 8628, 8680, 8739, 8796, 8863, 8921, 8979, 9040, 9107, 9165, 9224, 9283, 9342,
                 9406,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-MTT - Monthly Milly Satellite 10 Seats Gtd (Turbo) - $55-$5 - 202105.txt',
                'betting-unrecorded', (1, 25, 53, 97, 137, 183, 238, 293, 343, 385, 427, 469, 523, 563, 605, 651, 693, 733, 778, 832,
                 881, 937, 986, 1037, 1079, 1123, 1172, 1230, 1284, 1344, 1390, 1444, 1486, 1536, 1589, 1637,
                 1690, 1745, 1805, 1856, 1909, 1956, 2010, 2059, 2118, 2163, 2215, 2270, 2322, 2374, 2428, 2470,
                 2518, 2573, 2616, 2664, 2711, 2758, 2809, 2858, 2912, 2954, 3002, 3044, 3091, 3138, 3188, 3251,
                 3297, 3351, 3414, 3481, 3532, 3584, 3641, 3695, 3751, 3805, 3864, 3921, 3985, 4041, 4087, 4148,
                 4214, 4263, 4315, 4360, 4405, 4459, 4507, 4565, 4617, 4668,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-MTT - SMPO Super Duper High Roller No.145 - $150.000 Gtd - $1,000-$55 - 202108.txt',
                'betting-unrecorded', (1, 52, 104, 161,)),
        # the summary's board holds cards no line of the hand dealt (no street marker, no 'Card
        # dealt to table'): where each street began, and so what each bet faced, is not recorded
        **_each('cash/Bovada/Flop/LHE-9max-USD - $20-$40 - 201204.limit.blinds.txt',
                'streets-unrecorded', (37,)),
        **_each('cash/Bovada/Flop/LHE-USD-2-4-201205.Bodog.txt',
                'streets-unrecorded', (27,)),
        **_each('cash/Bovada/Flop/PLO-USD-2.00-4.00-201205.multiway.allin.txt',
                'streets-unrecorded', (36,)),
        **_each('cash/Bovada/Flop/PLO-USD-5-10-201204.new.format.txt',
                'streets-unrecorded', (31, 73, 109, 182, 222, 264, 301, 366, 399, 438, 479, 540, 583, 621, 664, 700, 774,)),
        **_each('tour/Bovada/Flop/NLHE-9max-Freeroll-201207.disconnect.timeout.txt',
                'streets-unrecorded', (46,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-15-201207.allin.raise.timeout.txt',
                'streets-unrecorded', (41,)),
        **_each('tour/Bovada/Flop/NLHE-9max-USD-3-201208.raises.timout.txt',
                'streets-unrecorded', (45,)),
        **_each('tour/Bovada/Flop/PLO8-9max-USD-10-MTT-201207.txt',
                'streets-unrecorded', (37,)),
        **_each('tour/Bovada/Flop/PLO8-USD-MTT - $10-$1 - 201207.allin.call.pf.txt',
                'streets-unrecorded', (55,)),
        # seven card stud: 'Card dealt to a spot [9d Td 5c]' does not say which cards are face up
        # (the bring-in and the order of play rest on them)
        **_each('cash/Bovada/Stud/7-Stud-USD-2.00-4.00-201205.txt',
                'stud-cards-unmarked', (1, 37, 81, 123,)),
        **_each('cash/Bovada/Stud/7-StudHL-USD-RING-$5-$10,$1.25Ante-201404.txt',
                'stud-cards-unmarked', (1,)),
        **_each('tour/Bovada/Stud/7-Stud-USD-MTT - $10-$1 - 201206.txt',
                'stud-cards-unmarked', (1, 66, 130, 193, 257, 296, 357, 411, 462, 505, 574, 640, 694, 760, 838, 901, 978, 1054, 1101,
                 1151, 1191, 1246, 1312, 1360, 1409, 1459, 1504, 1544, 1602, 1655, 1699, 1780, 1854, 1910, 1966,
                 2035, 2065, 2110, 2160, 2208,)),
        # the summary is another hand's (old.format line 7822: its board, seats and 4-card holes
        # are not the hand's)
        **_each('cash/Bovada/Flop/LHE-USD-8-16-201204.old.format.txt',
                'summary-mismatch', (7860,)),
        # a hand cut off: no summary (partial.hand: the next header follows at line 10), or the
        # summary runs into another hand's seat lines with no header (concatenated.partial)
        **_each('cash/Bovada/Flop/NLHE-USD-5-10-201511.concatenated.partial.txt',
                'truncated', (37,)),
        **_each('tour/Bovada/Flop/NLHE-HU-USD-STT - $20-$1 - 201509.partial.hand.txt',
                'truncated', (1,)),
    },
)

globals().update(site_tests(SPEC))

# 1,217 of 1,565 (77.8%) are stored: 275 Ignition tournament hands record no limit, 45 are
# seven card stud whose deal lines do not mark the up cards, 25 record no streets, 1 holds
# another hand's summary, 2 are cut off.  Of the hold'em and Omaha hands that record their
# limit, 1,217 of 1,245 (97.8%) are.
test_bovada_stored_share = pytest.mark.xfail(
    strict=True, reason="275 Ignition hands record no limit and 45 stud hands no up cards (listed above)"
)(test_bovada_stored_share)  # noqa: F821 (bound by site_tests)
