"""A site's words made ready to read, once a site and not once a hand
(:class:`_SiteTables`, kept by :func:`_site_tables`): its header patterns, with the
text before the date matched once and reused (``_kept_match``), the amounts it posts,
its rewordings applied without ``re.sub`` (``_template_parts``), and the ASCII stand-in
that a non-ASCII amount suffix or sign is read as (``SUFFIX_STAND_IN``)."""

from __future__ import annotations

import re
from typing import Final

from parsers.stars_site import STREET_CHIPS, K, StarsSite


# what a player posts ('Ann: posts small blind 10'), by the words before the amount
_POSTS = {
    "the ante ": K.ANTE,
    "small blind ": K.SMALL_BLIND,
    "big blind ": K.BIG_BLIND,
    "small & big blinds ": K.DEAD_BLIND,
    "button blind ": K.BIG_BLIND,  # 6+ hold'em: the one blind, posted by the button
    "straddle ": K.STRADDLE,
}

_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _template_parts(words: str, groups: int) -> tuple[tuple[str, int], ...] | None:
    """A sub's replacement as (literal text, group number or -1) parts, where it holds no
    backslash but before a group reference of one digit, 1 to ``groups`` (``\\1``, not
    ``\\12``, ``\\g<1>``, ``\\n`` or ``\\0``); None for any other replacement (read by the sub).

    >>> _template_parts(r"discards \\1 now", 1)
    (('discards ', 1), (' now', -1))
    >>> _template_parts(r"\\1", 1), _template_parts(r"\\2", 1), _template_parts(r"\\12", 9), _template_parts(r"a\\n", 1)
    ((('', 1),), None, None, None)
    """
    parts: list[tuple[str, int]] = []
    literal = ""
    k = 0
    while k < len(words):
        c = words[k]
        if c != "\\":
            literal += c
            k += 1
            continue
        digit = words[k + 1 : k + 2]
        if not ("1" <= digit <= "9" and int(digit) <= groups) or words[k + 2 : k + 3].isdigit():
            return None
        parts.append((literal, int(digit)))
        literal = ""
        k += 2
    if literal or not parts:
        parts.append((literal, -1))
    return tuple(parts)


def _substituted(text: str, m: re.Match[str], parts: tuple[tuple[str, int], ...]) -> str:
    """What ``m.re.sub(words, text, count=1)`` gives where ``m`` is the pattern's first match
    in ``text`` and ``parts`` are ``_template_parts(words)``: the match replaced by the
    parts, each group as matched (an unmatched group: '')."""
    done = text[: m.start()]
    for literal, group in parts:
        done += literal
        if group >= 0:
            done += m.group(group) or ""
    return done + text[m.end() :]

# A suffix beyond ASCII after amounts (Winamax's '2.50€') makes every line holding it a str
# of 2 bytes a character, costlier to slice, search and match.  A hand's lines are read with
# this ASCII character in its place, one for one (amt takes it off as it takes the suffix off;
# what the hand stores of those lines, names, cards, buy-ins, is given back as written), unless
# the hand writes it itself; a hand that cannot be read so (a seated name holding the suffix
# too) is read again as written, so that what a line lacks is named in the site's own words.
# Events keep the raw line; the content hash is the text's as written.  A site's pattern for a
# body line that names the suffix names this too (Winamax's zero blind).  A sign beyond ASCII
# before amounts (StarsSite.amount_sign: Run It Once's '€0.05') is stood in for alike.
# (Final: compiled, a constant, not a module global's dict lookup at each use)
SUFFIX_STAND_IN: Final = "\x1a"


class _SiteTables:
    """What a reader derives from its site's description: made once a site, not once a hand."""

    def __init__(self, site: StarsSite) -> None:
        self.site = site
        self.posts = {**_POSTS, **site.extra_posts} if site.extra_posts else _POSTS
        self.alias_firsts = tuple(a[0] for a in site.action_aliases)
        self.rejected_firsts = tuple(r[0] for r in site.rejected_actions)
        self.special_firsts = self.alias_firsts + self.rejected_firsts
        # the same first words by their first character: most actions (folds, calls, checks,
        # raises) start with a character none of them starts with, told by one lookup, where
        # the tuple's startswith tries every first words in turn (Winamax: eight, on every
        # action).  None: some first words are '' (every action starts so)
        by_initial: dict[str, tuple[str, ...]] = {}
        for first in self.special_firsts:
            by_initial[first[:1]] = by_initial.get(first[:1], ()) + (first,)
        self.specials_by_initial: dict[str, tuple[str, ...]] | None = None if "" in self.special_firsts else by_initial
        # names without a colon (actor_sep ' '): a line is tested for a collect (collect_word
        # searched in it, then the pattern) where no seated player starts it, or where the one who
        # does is followed by this verb ('collected '), as a collect's player is: its pattern reads
        # him as all the text before collect_word ('^(.+) collected ').  A longer seated name that
        # started such a line would hold the verb's word (collect_key): a hand seating one tests
        # every line.  '' : every line is tested (the pattern reads its player otherwise)
        word, pattern = site.collect_word, site.collect
        reads_before = (pattern.pattern.startswith("^(.+)" + word) and not pattern.groupindex) or \
            pattern.pattern.startswith("^(?P<player>.+)" + word)
        self.collect_key = word.strip()
        self.collect_verb = word[1:] if (site.actor_sep == " " and word.startswith(" ") and reads_before
                                         and self.collect_key and " " not in self.collect_key
                                         and not pattern.flags & re.IGNORECASE) else ""
        # infer_return may take the commitments the reader follows as it reads (see
        # _HandReader.left_commitments) where every event of a street's chips is one of its
        # actions that count in them: the site has no line events of its own, and posts
        # nothing but a street's chips or an ante
        self.commitments_followed = not site.line_events and all(
            kind == K.ANTE or kind in STREET_CHIPS for kind in self.posts.values())
        # a suffix beyond ASCII after amounts (Winamax's euro), or a sign before them (Run It
        # Once's): the one character SUFFIX_STAND_IN stands for (see there)
        suffix, sign = site.amount_suffix, site.amount_sign
        self.stood_for = suffix if suffix and not suffix.isascii() else \
            sign if not suffix and len(sign) == 1 and not sign.isascii() else ""
        self.stand_in = bool(self.stood_for)
        # (first words, pattern, replacement, swap): swap when the pattern is '^' and the
        # first words alone (no flag, no regex syntax) and the replacement plain text, so
        # that its sub only puts the replacement in place of the first words
        # ...and the replacement's parts where it is plain text or holds group references ('\\1')
        # and nothing else a template may (see _template_parts), put together from the search's
        # match: the sub would search again, and prepares a replacement with references in
        # Python on every call (re._subx, expand_template)
        self.aliases = tuple(
            (first, pattern, words, pattern.pattern == "^" + first and not pattern.flags & (re.I | re.M)
             and not _REGEX_SPECIAL.intersection(first) and "\\" not in words,
             _template_parts(words, pattern.groups))
            for first, pattern, words in site.action_aliases)
        # the first characters of the words body tests a seated player's action for before
        # reading it (not_actions, ignored_actions, the ignored pattern's starts): an action
        # starting with none of them is none of those (classic Full Tilt tested seven starts on
        # every fold, call, ...).  action_tests False: the site has none; initials None: one is
        # '' (every action is tested)
        starts = (*site.not_actions, *site.ignored_actions,
                  *(site.ignored_action_starts if site.ignored_action_pattern is not None else ()))
        self.action_tests = bool(starts)
        self.action_initials: frozenset[str] | None = None if "" in starts else frozenset(s[:1] for s in starts)
        # run_markers' matches by the marker's text (a hand's markers repeat from hand to hand,
        # and few of them are runs)
        self.run_markers_kept: dict[str, re.Match[str] | None] = {}
        # whether ignored_action_pattern matches an action, by its text ('has 15 seconds left to
        # act', 'is dealt 2 cards', 'has reconnected': the same few, many times a table)
        self.ignored_actions_kept: dict[str, bool] = {}
        # a button line that is words, then the seat's digits ('^The button is in seat #(?P<btn>\\d+)$'):
        # read by the words and str.isdecimal (what '\\d' matches), not the pattern
        self.button_words = _literal_head(site.button_line, r"(?P<btn>\d+)$") if site.button_line is not None else ""
        self.collect_run = "run" in site.collect.groupindex  # ('wins pot 2 (x)': Full Tilt's run's pot)
        # where a collect pattern's named groups (player, amount, pot, half, then run or -1) are in
        # its groups(), each name a look-up a call (); () where it names none (groups 1 to 4) or
        # lacks one (looked up by name, as before)
        index = site.collect.groupindex
        names = ("player", "amount", "pot", "half")
        self.collect_groups: tuple[int, ...] = \
            (*(index[name] - 1 for name in names), index["run"] - 1 if "run" in index else -1) \
            if index and all(name in index for name in names) else ()
        # amounts as read, by scale and by whether the suffix was read as SUFFIX_STAND_IN
        # (amt takes off the one it reads with): a table's amounts repeat ('$0.02', '1,500',
        # '0.05€'), and one written with a sign, commas or decimals costs several string
        # operations to read
        self.amounts: dict[tuple[int, bool], dict[str, int]] = {}
        # the tournament and cash headers' matches, by the text before the date (see tourney_match)
        self.date_sep = _date_sep(site.tourney)
        self.tourneys: dict[str, re.Match[str] | None] = {}
        # (a cash header whose date is written time first is kept too, classic Full Tilt's: its
        # pattern, a lazy table name then the games tried case-blind, costs more than the cut)
        self.cash_date_sep = _date_sep(site.cash)
        self.cashes: dict[str, re.Match[str] | None] = {}
        # the other header patterns' (classic Full Tilt's, the game before the stakes), kept alike,
        # and the last rest's time-first cut (the same rest is cut for each of them)
        self.tourneys_more = tuple((pattern, _date_sep(pattern), _kept_dict()) for pattern in site.tourney_more)
        self.cashes_more = tuple((pattern, _date_sep(pattern), _kept_dict()) for pattern in site.cash_more)
        self.cut_rest = ""
        self.cut_at = -1
        # a cash header's stakes' groups by their text (site.stakes' first match; None: none
        # matches): a table's stakes repeat, the groups read only
        self.stakes_found: dict[str, dict[str, str | None] | None] = {}
        # where site.date_pattern's groups are in its groups(), in _parse_date's order
        date_pattern = site.date_pattern
        self.date_groups = tuple(date_pattern.groupindex[name] - 1 for name in ("y", "mo", "d", "h", "mi", "s")) \
            if date_pattern is not None else ()

    def run_marker(self, head: str) -> re.Match[str] | None:
        """``site.run_markers``' match of a marker's text, kept."""
        kept = self.run_markers_kept
        if head in kept:
            return kept[head]
        pattern = self.site.run_markers
        m = pattern.match(head) if pattern is not None else None
        if len(kept) >= _KEPT:
            kept.clear()
        kept[head] = m
        return m

    def ignored_action(self, action: str) -> bool:
        """Does ``site.ignored_action_pattern`` match ``action`` (kept)?"""
        kept = self.ignored_actions_kept
        found = kept.get(action)
        if found is None:
            pattern = self.site.ignored_action_pattern
            found = pattern is not None and pattern.match(action) is not None
            if len(kept) >= _KEPT:
                kept.clear()
            kept[action] = found
        return found

    def amounts_at(self, scale: int, stood_in: bool = False) -> dict[str, int]:
        key = (scale, stood_in)
        found = self.amounts.get(key)
        if found is None:
            found = self.amounts[key] = {}
        return found

    def tourney_match(self, rest: str) -> tuple[re.Match[str] | None, str | None]:
        """``site.tourney``'s match of a header's rest (after the hand number), and its date.

        A pattern ending ``\\) - (?P<date>.+)$`` (:func:`tourney_header`, PokerStars',
        Winamax's; WPN's ``\\)- ``: ``_DATE_LAST``) matches a rest or not by the text up
        to its last ') - ' alone, and takes the same way through the pattern: every way
        ends at one of those ') - ',
        and any non-empty remainder without a newline is a date (so nothing before may
        look ahead: ``_LOOKS_AHEAD``).  That text repeats from hand to hand (the
        tournament, its level and blinds), and finding where the game starts in a long
        tournament name tries every game at every position (GGPoker's: 12 to 40 us a
        header, PokerStars' 4 to 12), so the match of that text (with a one-letter date)
        is kept, and the date is the rest's own."""
        # (the cut asked for only where the date is written time first: a call a header, pure Python)
        return _kept_match(self.site.tourney, self.date_sep, self.tourneys, rest,
                           self.time_first_cut(self.date_sep, rest) if self.date_sep == _TIME_FIRST else -2)

    def cash_match(self, rest: str) -> tuple[re.Match[str] | None, str | None]:
        """``site.cash``'s match of a header's rest, and its date, as ``tourney_match``: a
        table's cash header repeats but for its date (Winamax's; PokerStars' and GGPoker's
        cash tables)."""
        return _kept_match(self.site.cash, self.cash_date_sep, self.cashes, rest,
                           self.time_first_cut(self.cash_date_sep, rest) if self.cash_date_sep == _TIME_FIRST else -2)

    def more_match(self, more: tuple[tuple[re.Pattern[str], str, dict[str, re.Match[str] | None]], ...],
                   rest: str) -> tuple[re.Match[str] | None, str | None]:
        """The first match of ``tourneys_more`` or ``cashes_more``, kept as ``tourney_match``'s."""
        for pattern, sep, kept in more:
            m, date = _kept_match(pattern, sep, kept, rest, self.time_first_cut(sep, rest))
            if m is not None:
                return m, date
        return None, None

    def time_first_cut(self, sep: str, rest: str) -> int:
        """``_time_first_cut(rest)`` where ``sep`` is a time-first date's (else -2: not asked), the
        last rest's kept (a header the first pattern does not match is cut again for the others)."""
        if sep != _TIME_FIRST:
            return -2
        if rest is not self.cut_rest:
            self.cut_at = _time_first_cut(rest)
            self.cut_rest = rest
        return self.cut_at

    def stakes(self, stakes: str) -> dict[str, str | None] | None:
        """The groups of the first of ``site.stakes`` to match a cash header's stakes (kept)."""
        kept = self.stakes_found
        if stakes in kept:
            return kept[stakes]
        found: dict[str, str | None] | None = None
        for pattern in self.site.stakes:
            if (sm := pattern.match(stakes)) is not None:
                found = sm.groupdict()
                break
        if len(kept) >= _KEPT:
            kept.clear()
        kept[stakes] = found
        return found


def _literal_head(pattern: re.Pattern[str], tail: str) -> str:
    """The words ``pattern`` is, where it is '^', plain words (no regex syntax, no flag but
    the default), then ``tail``; else ''.

    >>> _literal_head(re.compile(r"^Button: #(?P<btn>\\d+)$"), r"(?P<btn>\\d+)$"), _literal_head(re.compile(r"^B.(\\d+)$"), r"(\\d+)$")
    ('Button: #', '')
    """
    text = pattern.pattern
    head = text[1 : len(text) - len(tail)]
    if not (text.startswith("^") and text.endswith(tail) and head) or _REGEX_SPECIAL.intersection(head) \
            or pattern.flags & (re.I | re.M | re.S | re.X | re.A):
        return ""
    return head


def _date_sep(pattern: re.Pattern[str]) -> str:
    """What ends a header pattern's text before the date ('': its matches are not kept)."""
    sep = next((sep for sep, end in _DATE_LAST if pattern.pattern.endswith(end)), "")
    # (an empty negative lookahead never matches and reads nothing: WPN's never-written group)
    if pattern.flags & (re.S | re.M) or any(look in pattern.pattern.replace("(?!)", "") for look in _LOOKS_AHEAD):
        return ""
    return sep


def _kept_dict() -> dict[str, re.Match[str] | None]:
    return {}


def _kept_match(pattern: re.Pattern[str], sep: str, kept: dict[str, re.Match[str] | None],
                rest: str, time_first_cut: int = -2) -> tuple[re.Match[str] | None, str | None]:
    """``pattern``'s match of ``rest`` and its date, the match kept by the text before the
    date (``_SiteTables.tourney_match``); ``time_first_cut``: ``_time_first_cut(rest)`` if
    known (-2: not)."""
    if sep and "\n" not in rest:
        if sep == _TIME_FIRST:
            cut = _time_first_cut(rest) if time_first_cut == -2 else time_first_cut
            stand_in = "0:00 x - x"  # a date of the pattern's shape (so the match's way is the rest's)
        else:
            cut = rest.rfind(sep) + len(sep)
            stand_in = "x"
        if len(sep) <= cut < len(rest):
            key = rest[:cut]
            if key in kept:
                m = kept[key]
            else:
                m = pattern.match(key + stand_in)
                if len(kept) >= _KEPT:
                    kept.clear()
                kept[key] = m
            return m, (rest[m.start("date") :] if m is not None else None)
    m = pattern.match(rest)
    return m, (m.group("date") if m is not None else None)


# how a header pattern whose date is written time first ends (classic Full Tilt's '11:37:56 ET -
# 2010/03/03', at times the Eastern time after it in brackets): the date group's own shape
TIME_FIRST_END = r" - (?P<date>\d{1,2}:\d{2}(?::\d{2})? \w+ - .+)$"
_TIME_FIRST = " - "  # _date_sep's answer for it (no other ending's)
# (what ends the text before the date, how a pattern ends): tourney_header's and PokerStars',
# WPN's ('(250.00/500.00)- 2019/07/21 17:44:50 UTC'), Full Tilt's
_DATE_LAST = ((") - ", r"\) - (?P<date>.+)$"), (")- ", r"\)- (?P<date>.+)$"), (_TIME_FIRST, TIME_FIRST_END))
# the last ' - ' before a time ('\\d{1,2}:', greedy '.*' backtracking from the end), and whether
# the date group's shape (time, zone, ' - ', one character) is there: 'bad' None when it is (the
# lookahead's second way, taken where the first fails, holds the time alone).  Written for
# speed: no group around '.* - ', '.' as any character, ASCII classes (bench/README.md, 2026-12-07)
_TIME_FIRST_AT = re.compile(r"(?s:.*) - (?=\d{1,2}:(?:\d{2}(?::\d{2})? \w+ - .|(?P<bad>)))", re.A)


def _time_first_cut(rest: str) -> int:
    """Where a TIME_FIRST_END date starts in a header's rest (-1: not found so).

    A date group can start only after ' - ' and at a time ('\\d{1,2}:'); the last such
    place in an ASCII rest is the only one the pattern can take there, and when the date's
    own shape (time, zone, ' - ', one character) is there, the text before it decides the
    match and its way as the text before ') - ' does (``_SiteTables.tourney_match``): every
    way that ends with a date starting before it reads the same text in both.  A rest
    holding a line break is not cut where this says (``_kept_match`` matches it whole)."""
    if not rest.isascii():
        return -1
    m = _TIME_FIRST_AT.match(rest)
    return m.end() if m is not None and m.group("bad") is None else -1


# what could read past the text before the date, or commit to a choice by it (lookahead,
# atomic groups, possessive repeats): a pattern holding one is matched on every header
_LOOKS_AHEAD = ("(?=", "(?!", "(?>", "*+", "++", "?+", "}+")
_KEPT = 4096  # entries a cache of _SiteTables holds before it starts again


_SITE_TABLES: dict[int, _SiteTables] = {}  # by id(site); each holds its site, so the id stays its own


def _site_tables(site: StarsSite) -> _SiteTables:
    tables = _SITE_TABLES.get(id(site))
    if tables is None or tables.site is not site:
        tables = _SITE_TABLES[id(site)] = _SiteTables(site)
    return tables
