"""Mutate real PartyPoker and 888poker tournament hands into hands with one known
rule violation, in their own text format (tests/mutate.py does this for PokerStars).

A source is a stored corpus hand with no finding.  Its parsed events say which lines
to touch; the mutant is the source text with a fresh game number and the few lines
of the violation rewritten in the hand's own number format, its arithmetic kept
(what the win lines include is taken from the source's own parse).  Whether a
mutation is a violation is decided here, by a small model of no-limit betting
(minimum raise = the largest full bet or raise of the round), never by the engine.

Classes these formats can express:

* illegal-underraise: a full raise that ended the betting becomes a raise of less
  than the minimum with chips behind (twin: the minimum raise);
* wrong-winner: the one pot of a showdown where every hand still in was tabled goes
  to a tabled loser;
* chip-conservation: the one collect of a hand is written some chips off.

Not expressible: uncalled-bet (neither site writes an uncalled-bet line; the return
is inferred by the very rule the check applies), and the classes that need split or
side pots labelled per pot (888 labels none).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from parsers.base import ParsedHand
from parsers.party_family import MARKER

FIRST_NUMBER = 9_200_000_000_000
_AMOUNT = re.compile(r"^(?P<pre>\D*?)(?P<num>\d(?:[\d,.\s\xa0]*\d)?)(?P<post>\D*)$")


@dataclass
class Source:
    path: str
    line: int
    text: str  # the hand's lines joined, from its first line
    hand: ParsedHand  # as parsed (line numbers are the file's)


@dataclass
class Mutant:
    check: str
    text: str
    seat: int | None
    source: str
    what: str
    hand_id: str
    twin: bool = False


def render_like(orig: str, value: int) -> str:
    """``value`` written as ``orig`` writes its amount: '$1,450' -> '$1,300', '6 000' -> '5 500'.

    >>> render_like("$1,450", 1300), render_like("6 000", 5500), render_like("170 chips", 150), render_like("60", 40)
    ('$1,300', '5 500', '150 chips', '40')
    """
    m = _AMOUNT.match(orig)
    if not m:
        raise ValueError(orig)
    num = m.group("num")
    sep = next((c for c in num if not c.isdigit()), "")
    digits = str(value)
    if sep:
        groups = []
        while len(digits) > 3:
            groups.insert(0, digits[-3:])
            digits = digits[:-3]
        digits = sep.join([digits, *groups])
    return m.group("pre") + digits + m.group("post")


def _replace_bracket(line: str, new: int) -> str:
    """The amount inside the line's last '[...]' rewritten."""
    i, j = line.rfind("["), line.rfind("]")
    inner = line[i + 1 : j]
    stripped = inner.strip()
    lead = inner[: len(inner) - len(inner.lstrip())]
    trail = inner[len(inner.rstrip()) :]
    return line[: i + 1] + lead + render_like(stripped, new) + trail + line[j:]


def _replace_win(line: str, new: int) -> str:
    """A win line's amount: '[ $1,450 ]' (888) or 'wins 170 chips' (Party)."""
    if " collected [" in line:
        return _replace_bracket(line, new)
    m = re.search(r" wins (\D*?\d[\d,.\s\xa0]*\d|\D*?\d)", line)
    if not m:
        raise ValueError(line)
    start, end = m.span(1)
    return line[:start] + render_like(line[start:end], new) + line[end:]


class Numberer:
    def __init__(self) -> None:
        self.next = FIRST_NUMBER

    def __call__(self) -> int:
        self.next += 1
        return self.next


def _write(src: Source, number: int, edits: dict[int, str]) -> tuple[str, str]:
    """The source text with its game number replaced and ``edits`` (file line -> text)."""
    old = src.hand.hand_number
    out = []
    for k, line in enumerate(src.text.split("\n")):
        no = src.line + k
        text = edits.get(no, line)
        if MARKER.match(text) or text.startswith(("#Game No", "Game #")):
            text = text.replace(old, str(number))
        elif text.startswith(("Table ", "Tournament #")) and "(Real Money)" in text:
            # a table of its own: mutants of one table are not consecutive hands of it
            text = text.replace(" (Real Money)", f" m{number} (Real Money)", 1)
        out.append(text)
    prefix = "888" if src.hand.format == "pacific" else "PP"
    return "\n".join(out), f"{prefix}-{number}"


def _stacks_after(h: ParsedHand) -> dict[int, int]:
    left = {s.seat: s.starting_stack for s in h.seats}
    committed: dict[tuple[str, int], int] = {}
    for e in h.events:
        if e.seat is None or e.amount is None:
            continue
        if e.kind in ("ante", "small_blind", "big_blind", "call", "bet", "dead_blind"):
            left[e.seat] -= e.amount
            committed[e.street, e.seat] = committed.get((e.street, e.seat), 0) + e.amount
        elif e.kind == "raise":
            left[e.seat] -= e.to_amount - committed.get((e.street, e.seat), 0)
            committed[e.street, e.seat] = e.to_amount
    return left


def underraises(src: Source, num: Numberer) -> list[Mutant]:
    h = src.hand
    if h.betting != "no-limit" or not h.big_blind:
        return []
    evs = h.events
    chips = ("small_blind", "big_blind", "call", "bet", "raise", "dead_blind")
    left = {s.seat: s.starting_stack for s in h.seats}
    committed: dict[tuple[str, int], int] = {}
    last_full, street, level = h.big_blind, None, 0
    for k, e in enumerate(evs):
        if e.kind in chips or e.kind in ("fold", "check"):
            if e.street != street:
                street, last_full, level = e.street, h.big_blind, 0
        if e.kind == "ante":
            left[e.seat] -= e.amount
        if e.kind not in chips:
            continue
        before = committed.get((e.street, e.seat), 0)
        to = e.to_amount if e.kind == "raise" else before + e.amount
        left[e.seat] -= to - before
        committed[e.street, e.seat] = to
        # before the flop the big blind is the bet to raise, even when its player could not post it all
        floor = max(level, h.big_blind) if e.street == "preflop" else level
        if e.kind == "raise" and "raises [" in (e.text or "") and not e.all_in and left[e.seat] > 0:
            inc = to - floor
            rest = evs[k + 1 :]
            ends_here = all(x.kind not in chips and (x.kind != "check") for x in rest if x.street == e.street) and \
                all(x.kind not in chips for x in rest)
            folded = {x.seat for x in evs[:k] if x.kind == "fold"}
            # the largest total an opponent who can still act could reach: a raise that
            # already covers every such opponent's stack needs no minimum (all-in for them)
            reach = max((committed.get((e.street, s), 0) + left[s] for s in left
                         if s != e.seat and s not in folded and left[s] > 0), default=0)
            if inc >= last_full >= 2 and ends_here and reach > floor + max(1, last_full // 2):
                return _underraise_pair(src, num, e, inc, last_full)
        if e.kind in ("bet", "raise") and to - floor >= last_full:
            last_full = to - floor
        level = max(level, to)
    return []


def _underraise_pair(src: Source, num: Numberer, e, inc: int, last_full: int) -> list[Mutant]:
    h = src.hand
    out = []
    added = int(re.sub(r"\D", "", e.text[e.text.rfind("[") + 1 : e.text.rfind("]")]))  # chips: no decimals
    ret = [x for x in h.events if x.kind == "uncalled_return" and x.seat == e.seat]
    for new_inc, twin in ((max(1, last_full // 2), False), (last_full, True)):
        d = inc - new_inc
        edits = {e.line_no: _replace_bracket(e.text, added - d)}
        for r in ret:
            # an inferred return within a win line: that collect, less it, is inferred on the same line
            within = [c for c in h.events if c.kind == "collect" and c.seat == r.seat and c.line_no == r.line_no
                      and c.inferred_from is not None] if r.inferred_from is not None else []
            if within:
                total = within[0].amount + r.amount
                orig = src.text.split("\n")[r.line_no - src.line]
                edits[r.line_no] = _replace_win(orig, total - d)
            elif r.inferred_from is None:  # the return written as its own win line
                edits[r.line_no] = _replace_win(r.text or "", r.amount - d)
        text, hid = _write(src, num(), edits)
        what = f"seat {e.seat} raises by {new_inc} (minimum {last_full}) instead of {inc}"
        out.append(Mutant("illegal-underraise", text, None if twin else e.seat, f"{src.path}:{src.line}", what, hid, twin))
    return out


def _single_showdown(h: ParsedHand):
    collects = [e for e in h.events if e.kind == "collect"]
    if len(collects) != 1 or any(e.kind == "uncalled_return" for e in h.events):
        return None
    left = _stacks_after(h)
    if any(v <= 0 for v in left.values()):
        return None  # an all-in: side pots
    folded = {e.seat for e in h.events if e.kind == "fold"}
    shown = {e.seat for e in h.events if e.kind == "show" and e.cards}
    dealt = {e.seat for e in h.events if e.kind in ("small_blind", "big_blind", "call", "bet", "raise", "check", "fold")}
    live = dealt - folded
    if len(live) < 2 or not live <= shown or len([e for e in h.events if e.kind == "deal_board"]) != 3:
        return None
    return collects[0], sorted(live - {collects[0].seat})


def wrong_winners(src: Source, num: Numberer) -> list[Mutant]:
    found = _single_showdown(src.hand)
    if not found:
        return []
    win, losers = found
    out = []
    names = {s.seat: s.player for s in src.hand.seats}
    for loser in losers[:2]:
        line = win.text or ""
        if not line.startswith(names[win.seat] + " "):
            return []
        edits = {win.line_no: names[loser] + line[len(names[win.seat]):]}
        text, hid = _write(src, num(), edits)
        out.append(Mutant("wrong-winner", text, loser, f"{src.path}:{src.line}", f"pot to seat {loser}, not {win.seat}", hid))
    return out


def conservation(src: Source, num: Numberer, rng: random.Random) -> list[Mutant]:
    h = src.hand
    collects = [e for e in h.events if e.kind == "collect"]
    if len(collects) != 1 or any(e.kind == "uncalled_return" for e in h.events) or any(v <= 0 for v in _stacks_after(h).values()):
        return []
    c = collects[0]
    out = []
    for d in sorted({1, -1, rng.randint(2, 5000), -rng.randint(1, max(1, c.amount - 1))}):
        if c.amount + d < 1:
            continue
        text, hid = _write(src, num(), {c.line_no: _replace_win(c.text or "", c.amount + d)})
        out.append(Mutant("chip-conservation", text, None, f"{src.path}:{src.line}", f"collect {c.amount + d} of {c.amount}", hid))
    return out


def mutate_all(check: str, sources: list[Source], seed: int = 2019) -> list[Mutant]:
    rng = random.Random(seed)
    num = Numberer()
    out: list[Mutant] = []
    for src in sources:
        if check == "illegal-underraise":
            out += underraises(src, num)
        elif check == "wrong-winner":
            out += wrong_winners(src, num)
        elif check == "chip-conservation":
            out += conservation(src, num, rng)
    return out
