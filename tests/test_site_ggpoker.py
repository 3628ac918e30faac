"""GGPoker (``parsers/ggpoker.py``) on the real corpus, through the per-site harness
(``tests/site_corpus.py``: what each test proves is written there)."""

from __future__ import annotations

import re

from site_corpus import SiteSpec, site_tests

SPEC = SiteSpec(
    parser="ggpoker",
    folders=("tour/GGPoker", "cash/GGPoker"),
    marker=re.compile(r"^Poker Hand #", re.M),
    # run it twice and three times are stored, each run's board and collects with their run
    # (docs/sites.md); the four such hands are judged run by run in tests/test_run_it_twice.py
    expected_rejections={},
    mutation_header=re.compile(r"^(Poker Hand #[A-Z]*)(\d+)(:.*)$"),
)

globals().update(site_tests(SPEC))
