"""Mutate real PokerStars tournament hands into hands with one known rule violation.

The corpus is read in place; nothing is copied.  A mutated hand is a complete
PokerStars text with a fresh hand number whose own arithmetic (calls, raise
increments, all-in marks, uncalled returns, collects, Total pot, summary seat
lines, starting stacks) still adds up, except for the one injected violation.

The library reads only what it needs: seat lines, action lines, uncalled
returns, collects, the Total pot line and summary seat lines.  Whether a
mutation really is a violation is decided here, by a small independent model of
no-limit betting (TDA 2019: minimum raise = the largest full bet or raise of the
round; short all-ins reopen only when they add up to a full raise; the odd chip
goes to the first winner left of the button), never by asking the engine.

Each mutation returns :class:`Mutant` (text, the seat that must be flagged, the
check id, a description).  Some classes also return a *twin*: the same
construction without the violation (e.g. a tie with the odd chip in the right
place), which must produce no finding at all.
"""

from __future__ import annotations

import copy
import os
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

HEADER = re.compile(r"^(PokerStars (?:Home Game |Zoom )?(?:Game|Hand) #)(\d+)(:.*)$")
SEAT = re.compile(r"^Seat (\d+): (.+?) \((\d+) in chips(.*?)\)(.*)$")
BUTTON = re.compile(r"(\d+)-max Seat #(\d+) is the button")
BLINDS = re.compile(r"\((\d+)/(\d+)\)")
ACT = re.compile(
    r"^(?P<v>folds|checks|calls (?P<c>\d+)|bets (?P<b>\d+)|raises (?P<ri>\d+) to (?P<rt>\d+)"
    r"|posts (?P<pk>small blind|big blind|the ante|small & big blinds) (?P<pa>\d+))(?P<ai> and is all-in)?\s*$"
)
UNCALLED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+?)\s*$")
COLLECT = re.compile(r"^(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)\s*$")
TOTAL = re.compile(r"^Total pot (\d+)(.*?) \| Rake (\d+)\s*$")
STREET = re.compile(r"^\*\*\* (HOLE CARDS|FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) \*\*\*")
SHOWS = re.compile(r"^(.+): shows \[([^\]]+)\](.*)$")
SUM_SEAT = re.compile(r"^Seat (\d+): (.*)$")
SUM_WON = re.compile(r"(showed \[[^\]]+\] and won|collected|mucked \[[^\]]+\] and won) \((\d+)\)")
SUM_SHOWED_LOST = re.compile(r"showed \[([^\]]+)\] and lost with (.*)$")
SUM_SHOWED_WON = re.compile(r"showed \[([^\]]+)\] and won \((\d+)\) with (.*)$")
BOARD = re.compile(r"^Board \[([^\]]+)\]")

STREETS = ("HOLE CARDS", "FLOP", "TURN", "RIVER")
FIRST_NUMBER = 9_100_000_000_000


# --- reading the corpus ----------------------------------------------------------


@dataclass
class Source:
    path: str
    line: int  # 1-based line of the header in the file
    text: str

    @property
    def number(self) -> str:
        return HEADER.match(self.text.split("\n", 1)[0]).group(2)


def read_sources(root: Path) -> list[Source]:
    """Every PokerStars hand text under ``root`` (read in place, in path order)."""
    from parsers import iter_lines, open_source

    out: list[Source] = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = Path(dirpath, name)
            enc = open_source(path).encoding
            cur: list[str] = []
            start = 0
            for no, _off, text in iter_lines(path, enc):
                if HEADER.match(text):
                    if cur:
                        out.append(Source(str(path), start, "\n".join(cur).strip()))
                    cur, start = [text], no
                elif cur:
                    cur.append(text)
            if cur:
                out.append(Source(str(path), start, "\n".join(cur).strip()))
    return out


# --- one hand --------------------------------------------------------------------


@dataclass
class Act:
    name: str
    kind: str  # ante, sb, bb, both, fold, check, call, bet, raise
    street: int  # 0 preflop .. 3 river
    amount: int | None = None  # posts and bets: the amount; calls: as recorded
    to: int | None = None  # raises: the raise-to total
    allin: bool = False  # as written / as computed
    line: int | None = None  # index in Hand.lines (None: inserted)
    jam: bool = False  # re-render as "everything behind" (an all-in raise or bet)


@dataclass
class Ctx:
    """What the betting model knew just before an action."""

    level: int
    last_full: int
    commit: int
    stack: int
    acted: bool
    full_since: bool  # a full bet/raise by someone else since this player last acted
    level_acted: int
    active_others: list[str]  # others not folded and not all-in
    reach_others: dict[str, int]  # their street commitment + stack


class Hand:
    def __init__(self, text: str):
        self.lines = text.split("\n")
        m = HEADER.match(self.lines[0])
        self.number = m.group(2)
        self.header = self.lines[0]
        self.no_limit = "No Limit" in self.header
        self.hilo = "Hi/Lo" in self.header
        bl = BLINDS.search(self.header)
        self.sb, self.bb = (int(bl.group(1)), int(bl.group(2))) if bl else (0, 0)
        bm = BUTTON.search(self.lines[1])
        self.max_seats, self.button = (int(bm.group(1)), int(bm.group(2))) if bm else (None, None)
        self.seats: dict[str, tuple[int, int, int]] = {}  # name -> (line index, seat, stack)
        self.street_of: dict[int, int] = {}
        self.acts: list[Act] = []
        self.uncalled: list[tuple[int, str, int]] = []  # (line, name, amount)
        self.collects: list[tuple[int, str, int, str]] = []  # (line, name, amount, pot)
        self.total_line = self.rake = self.total = None
        self.summary_seat: dict[str, int] = {}  # name -> line index in summary
        self.shows: dict[str, tuple[int, str, str]] = {}  # name -> (line, cards, rest)
        self.board: list[str] = []
        self.street_end: dict[int, int] = {}  # street -> index of its marker line
        street, section = -1, "seats"
        for i, line in enumerate(self.lines[1:], 1):
            sm = STREET.match(line)
            if sm:
                section = sm.group(1)
                if section in STREETS:
                    street = STREETS.index(section)
                self.street_end[STREETS.index(section) if section in STREETS else 9 + i] = i
                if section == "SUMMARY":
                    self.summary_start = i
                continue
            if section == "seats" and street < 0:
                m = SEAT.match(line)
                if m and "out of hand" not in line:
                    self.seats[m.group(2)] = (i, int(m.group(1)), int(m.group(3)))
                    continue
            if section == "SUMMARY":
                m = TOTAL.match(line)
                if m:
                    self.total_line, self.total, self.rake = i, int(m.group(1)), int(m.group(3))
                m = SUM_SEAT.match(line)
                if m:
                    rest = m.group(2)
                    for name in self.names_by_length():
                        if rest.startswith(name + " ") or rest == name:
                            self.summary_seat[name] = i
                            break
                m = BOARD.match(line)
                if m:
                    self.board = m.group(1).split()
                continue
            m = UNCALLED.match(line)
            if m:
                self.uncalled.append((i, m.group(2), int(m.group(1))))
                continue
            m = COLLECT.match(line)
            if m and m.group(1) in self.seats:
                self.collects.append((i, m.group(1), int(m.group(2)), m.group(3)))
                continue
            m = SHOWS.match(line)
            if m and m.group(1) in self.seats:
                self.shows[m.group(1)] = (i, m.group(2), m.group(3))
                continue
            for name in self.names_by_length():
                if line.startswith(name + ": "):
                    a = ACT.match(line[len(name) + 2:])
                    if a:
                        self.acts.append(self._act(name, a, max(street, 0), i))
                    break
        self.starts = {n: s for n, (_, _, s) in self.seats.items()}

    def dead_money(self, acts: list[Act]) -> dict[str, int]:
        """Each player's dead chips: of 'small & big blinds', what is over the big blind."""
        return {a.name: a.amount - min(a.amount, self.bb) for a in acts if a.kind == "both"}

    def names_by_length(self) -> list[str]:
        return sorted(self.seats, key=len, reverse=True)

    @staticmethod
    def _act(name: str, a: re.Match, street: int, i: int) -> Act:
        allin = bool(a.group("ai"))
        v = a.group("v")
        if v == "folds":
            return Act(name, "fold", street, line=i)
        if v == "checks":
            return Act(name, "check", street, line=i)
        if a.group("c"):
            return Act(name, "call", street, int(a.group("c")), allin=allin, line=i)
        if a.group("b"):
            return Act(name, "bet", street, int(a.group("b")), allin=allin, line=i, jam=allin)
        if a.group("rt"):
            return Act(name, "raise", street, to=int(a.group("rt")), allin=allin, line=i, jam=allin)
        kind = {"small blind": "sb", "big blind": "bb", "the ante": "ante", "small & big blinds": "both"}[a.group("pk")]
        return Act(name, kind, street, int(a.group("pa")), allin=allin, line=i)

    # --- facts ---------------------------------------------------------------------
    def seat_of(self, name: str) -> int:
        return self.seats[name][1]

    def order_from_button(self, names) -> list[str]:
        n = self.max_seats or max(s for _, s, _ in self.seats.values())
        return sorted(names, key=lambda x: (self.seat_of(x) - self.button - 1) % n)

    def has_side_pots(self) -> bool:
        return any(p != "pot" for *_, p in self.collects) or "Side pot" in (self.lines[self.total_line] if self.total_line else "")

    def clean_single_pot(self) -> bool:
        """One pot, one line per collector, nothing the library does not follow."""
        return (self.total_line is not None and not self.has_side_pots() and bool(self.collects)
                and len({n for _, n, _, _ in self.collects}) == len(self.collects)
                and all(n in self.summary_seat for _, n, _, _ in self.collects)
                and sum(a for _, _, a, _ in self.collects) == self.total - self.rake)

    # --- the betting model ----------------------------------------------------------
    def simulate(self, acts: list[Act], starts: dict[str, int]):
        """Replay ``acts`` from ``starts``; fill in call amounts, raise increments and
        all-in marks.  Returns (rendered acts, contexts, uncalled per street,
        net contributions, folded set, end-of-street stacks) or raises ValueError."""
        stack = dict(starts)
        contrib: dict[str, int] = defaultdict(int)
        folded: set[str] = set()
        out, ctxs, unc, end_stacks = [], [], {}, {}
        by_street = defaultdict(list)
        players = {a.name for a in acts}
        for a in acts:
            by_street[a.street].append(a)
        for st in range(4):
            commit: dict[str, int] = defaultdict(int)
            level, last_full = 0, self.bb
            acted: dict[str, int] = {}  # name -> level when acted
            full_since: dict[str, bool] = {}
            for a in by_street.get(st, []):
                a = copy.copy(a)
                p = a.name
                if stack[p] < 0:
                    raise ValueError("negative stack")
                others = sorted(o for o in players if o != p and o not in folded and stack[o] > 0)
                ctx = Ctx(level, last_full, commit[p], stack[p], p in acted, full_since.get(p, False),
                          acted.get(p, 0), others, {o: commit[o] + stack[o] for o in others})
                if a.kind in ("ante", "sb", "bb", "both"):
                    put = min(a.amount, stack[p])
                    if a.kind != "ante":
                        live = min(put, self.bb) if a.kind == "both" else put
                        commit[p] += live
                        level = max(level, commit[p], self.bb if a.kind in ("bb", "both") else 0)
                    if put != a.amount:
                        raise ValueError("post larger than stack")
                elif a.kind == "fold":
                    put = 0
                    folded.add(p)
                elif a.kind == "check":
                    put = 0
                    if commit[p] < level:
                        raise ValueError("check facing a bet")
                elif a.kind == "call":
                    put = min(level - commit[p], stack[p])
                    if put <= 0:
                        raise ValueError("call of nothing")
                    a.amount = put
                    commit[p] += put
                else:  # bet / raise
                    if a.jam:
                        to = commit[p] + stack[p]
                    elif a.kind == "bet":
                        to = commit[p] + a.amount
                    else:
                        to = a.to
                    put = to - commit[p]
                    if put > stack[p] or to <= level or put <= 0:
                        raise ValueError(f"{a.kind} to {to} impossible (level {level}, reach {commit[p] + stack[p]})")
                    if a.kind == "bet" and level > 0:
                        a.kind = "raise"
                    a.to, a.amount = to, (to if a.kind == "bet" else to - level)
                    inc = to - level
                    if inc >= last_full:
                        last_full = inc
                        for o in players:
                            full_since[o] = o != p
                    commit[p] = to
                    level = to
                stack[p] -= put
                contrib[p] += put
                a.allin = stack[p] == 0 and put > 0
                if a.kind in ("fold", "check", "call", "bet", "raise"):
                    acted[p] = commit[p]
                    full_since[p] = False
                out.append(a)
                ctxs.append(ctx)
            if commit:
                ranked = sorted(commit.items(), key=lambda kv: -kv[1])
                top, second = ranked[0], (ranked[1][1] if len(ranked) > 1 else 0)
                if top[1] > second:
                    unc[st] = (top[0], top[1] - second)
                    stack[top[0]] += top[1] - second
                    contrib[top[0]] -= top[1] - second
            end_stacks[st] = dict(stack)
        return out, ctxs, unc, dict(contrib), folded, end_stacks

    # --- writing ---------------------------------------------------------------------
    def render(self, acts: list[Act], starts: dict[str, int], number: int, side_pots: bool = False) -> str:
        """The hand with ``acts`` (re-simulated) and ``starts``: action lines,
        uncalled returns, the single pot's collect, Total pot and summary lines
        follow.  Raises ValueError when the result would need side pots, unless
        ``side_pots`` (and no rake): the one collector, who must be in every pot,
        then collects each pot on its own line, and the Total pot line claims them."""
        sim, _ctx, unc, contrib, folded, _ = self.simulate(acts, starts)
        if not self.clean_single_pot() or len(self.collects) != 1:
            raise ValueError("only single-pot, single-collector hands are re-rendered")
        live = [n for n in contrib if n not in folded]
        top = max(contrib.values())
        allin_live = [n for n in live if any(a.allin for a in sim if a.name == n)]
        pots = [p for p in _pots(contrib, live, allin_live, self.dead_money(acts)) if p[2] > 0]
        if any(contrib[n] < top for n in allin_live):
            if not side_pots or self.rake or contrib[self.collects[0][1]] < top or len(pots) < 2:
                raise ValueError("the mutation would make a side pot")
        else:
            pots = []
        lines = list(self.lines)
        lines[0] = _renumber(self.header, number)
        for n, (i, _, s) in self.seats.items():
            if starts[n] != s:
                lines[i] = lines[i].replace(f"({s} in chips", f"({starts[n]} in chips", 1)
        # action lines: rewrite recorded ones, insert new ones after their anchor, drop left-out ones
        kept = {a.line for a in acts}
        for a in self.acts:
            if a.line not in kept:
                lines[a.line] = None
        inserts: dict[int, list[str]] = defaultdict(list)
        anchor, anchor_street = 0, 0
        for a in sim:
            text = _act_text(a)
            if a.line is not None:
                lines[a.line] = text
                anchor, anchor_street = a.line, a.street
            else:
                if a.street != anchor_street:  # first action of a street: right after its marker
                    anchor, anchor_street = self.street_end[a.street], a.street
                inserts[anchor].append(text)
        for i, _n, _a in self.uncalled:
            lines[i] = None
        last_act_line = {}
        for a in sim:
            if a.line is not None:
                last_act_line[a.street] = a.line
        for st, (name, amt) in unc.items():
            at = last_act_line.get(st)
            if at is None:
                raise ValueError("uncalled bet on a street without recorded actions")
            inserts[at].append(f"Uncalled bet ({amt}) returned to {name}")
        pot = sum(contrib.values())
        won = pot - self.rake
        ci, cname, camt, label = self.collects[0]
        lines[ci] = f"{cname} collected {won} from {label}"
        lines[self.total_line] = re.sub(r"^Total pot \d+", f"Total pot {pot}", lines[self.total_line])
        if pots:  # PokerStars' order: the last side pot's collect first, the main pot's last
            labels = _pot_labels(len(pots))
            lines[ci] = None
            inserts[ci][:0] = [f"{cname} collected {amt} from {lab}" for (_lo, _hi, amt), lab in reversed(list(zip(pots, labels)))]
            claims = "".join(f" {lab.capitalize()} {amt}." for (_lo, _hi, amt), lab in zip(pots, labels))
            lines[self.total_line] = re.sub(r"^Total pot \d+", f"Total pot {pot}{claims}", lines[self.total_line])
        si = self.summary_seat[cname]
        lines[si] = SUM_WON.sub(lambda m: f"{m.group(1)} ({won})", lines[si], count=1)
        out = []
        for i, line in enumerate(lines):
            if line is not None:
                out.append(line)
            out += inserts.get(i, [])
        return "\n".join(out)


def _renumber(header: str, number: int) -> str:
    """A fresh hand number, and the hand alone in a tournament of its own number (no
    continuity with the source's other hands)."""
    m = HEADER.match(header)
    return f"{m.group(1)}{number}" + re.sub(r"Tournament #\d+", f"Tournament #{number}", m.group(3), count=1)


def _act_text(a: Act) -> str:
    tail = " and is all-in" if a.allin else ""
    if a.kind == "fold":
        return f"{a.name}: folds"
    if a.kind == "check":
        return f"{a.name}: checks"
    if a.kind == "call":
        return f"{a.name}: calls {a.amount}{tail}"
    if a.kind == "bet":
        return f"{a.name}: bets {a.amount}{tail}"
    if a.kind == "raise":
        return f"{a.name}: raises {a.amount} to {a.to}{tail}"
    word = {"sb": "small blind", "bb": "big blind", "ante": "the ante", "both": "small & big blinds"}[a.kind]
    return f"{a.name}: posts {word} {a.amount}{tail}"


# --- mutations -------------------------------------------------------------------


@dataclass
class Mutant:
    check: str
    text: str
    seat: int | None
    source: str  # path:line of the source hand
    what: str
    number: int = 0
    twin: bool = False  # the same construction without the violation
    # the category the finding must have: 'record' where the lines contradict each other or
    # misplace chips without moving any (docs/semantics.md, "Finding categories")
    category: str = "violation"


@dataclass
class Numberer:
    next: int = FIRST_NUMBER

    def __call__(self) -> int:
        self.next += 1
        return self.next


def _where(src: Source) -> str:
    return f"{Path(src.path).name}:{src.line}"


def underraises(src: Source, hand: Hand, num: Numberer, rng: random.Random, per_site: int = 3) -> list[Mutant]:
    """Shrink a full no-limit raise (not all-in) to a raise-to between the current
    level and the minimum; the raiser keeps chips behind and at least one
    opponent could still act and had chips beyond the new amount.  Callers of
    the raise call the smaller amount, and every player's chips behind at the
    end of the street are kept (starting stacks adjusted)."""
    if not hand.no_limit:
        return []
    base, ctxs, _unc, _c, _f, base_end = hand.simulate(hand.acts, hand.starts)
    out: list[Mutant] = []
    for k, (a, ctx) in enumerate(zip(base, ctxs)):
        if a.kind != "raise" or a.allin:
            continue
        lo, hi = ctx.level + 1, ctx.level + ctx.last_full - 1
        if hi < lo:
            continue
        tos = sorted({rng.randint(lo, hi) for _ in range(per_site)} | {hi})[-per_site:]
        for to in tos:
            acts = [copy.copy(x) for x in hand.acts]
            acts[k].to, acts[k].jam = to, False
            try:
                sim1, *_rest, end1 = hand.simulate(acts, hand.starts)
                starts = {n: s - (end1[a.street][n] - base_end[a.street][n]) for n, s in hand.starts.items()}
                if any(v <= 0 for v in starts.values()):
                    continue
                sim2, ctx2, *_r = hand.simulate(acts, starts)
                m, c = sim2[k], ctx2[k]
                if m.allin or not (c.level < m.to < c.level + c.last_full):
                    continue
                if not any(r > m.to for r in c.reach_others.values()):
                    continue  # every opponent already all-in by it: legal
                if _later_reraise_by_earlier_actor(sim2, ctx2, k):
                    continue
                text = hand.render(acts, starts, num())
            except ValueError:
                continue
            out.append(Mutant("illegal-underraise", text, hand.seat_of(a.name), _where(src),
                              f"raise to {a.to} shrunk to {to} (minimum {c.level + c.last_full})"))
    return out


def _later_reraise_by_earlier_actor(sim: list[Act], ctxs: list[Ctx], k: int) -> bool:
    """After action k, does a player who acted before it on the street raise again
    with no full raise in between?  (That raise would be a second violation.)"""
    st = sim[k].street
    before = {a.name for a in sim[:k] if a.street == st and a.kind in ("fold", "check", "call", "bet", "raise")}
    for a, c in zip(sim[k + 1:], ctxs[k + 1:]):
        if a.street != st:
            break
        if a.kind == "raise" and a.name in before and not c.full_since:
            return True
    return False


def reopens(src: Source, hand: Hand, num: Numberer, rng: random.Random, per_site: int = 12) -> list[Mutant]:
    """A player who already acted faces only short all-in raise(s) (less than a full
    raise in total) and raises instead of calling.

    Real sites: his recorded call becomes a raise when nobody else can still act
    (the excess comes back as an uncalled bet).  Constructed sites: an all-in
    call facing a bet or raise becomes a short all-in raise (the caller's stack is
    raised by less than a full raise), after which the bettor must act again:
    the twin has him call, the mutant has him raise.  Pot-limit hands too (constructed
    only): the short raise is under the pot limit, and so is the re-raise, kept to the
    bettor's own wager, which the pot held already."""
    pot_limit = "Pot Limit" in hand.header
    if not (hand.no_limit or pot_limit):
        return []
    try:
        base, ctxs, *_ = hand.simulate(hand.acts, hand.starts)
    except ValueError:
        return []
    out: list[Mutant] = []
    tabled = {a.name for a in base} - {a.name for a in base if a.kind == "fold"} <= set(hand.shows)
    for k, (a, ctx) in enumerate(zip(base, ctxs)):
        rest = [x for x in base[k + 1:] if x.street == a.street]
        # --- real: a call facing only short all-ins
        if (hand.no_limit and a.kind == "call" and not a.allin and ctx.acted and not ctx.full_since
                and 0 < ctx.level - ctx.level_acted < ctx.last_full and not any(x.kind != "fold" for x in rest)
                and not _others_can_act(base, k)):
            reach = ctx.commit + ctx.stack
            for to in sorted({rng.randint(ctx.level + 1, reach) for _ in range(per_site)} | {reach}):
                acts = [copy.copy(x) for x in hand.acts]
                acts[k] = Act(a.name, "raise", a.street, to=to, line=a.line)
                try:
                    text = hand.render(acts, hand.starts, num())
                except ValueError:
                    continue
                out.append(Mutant("illegal-reopen", text, hand.seat_of(a.name), _where(src),
                                  f"call to {ctx.level} after short all-in(s) made a raise to {to}"))
        # --- constructed: an all-in call facing a full bet/raise becomes a short all-in raise;
        # so may the hand's last call (nothing after it but folds) at a showdown where every
        # hand still in was shown (an all-in's showdown tables them all), its caller's stack cut to match
        if a.kind == "call" and (a.allin or (not any(x.kind != "fold" for x in base[k + 1:]) and tabled)):
            bettor = next((x for x, c in zip(reversed(base[:k]), reversed(ctxs[:k]))
                           if x.street == a.street and x.kind in ("bet", "raise") and x.to == ctx.level), None)
            if bettor is None or bettor.allin or any(x.kind != "fold" for x in rest) or _others_can_act(base, k, bettor.name):
                continue
            bctx = ctxs[base.index(bettor)]
            if bettor.to - max(bctx.level, 0) < bctx.last_full or not (not ctx.acted or ctx.full_since):
                continue  # bettor's wager was not full, or the caller may not raise
            breach = bctx.commit + bctx.stack
            for e in sorted({rng.randint(1, ctx.last_full - 1) for _ in range(per_site)} if ctx.last_full > 1 else set()):
                new_to = ctx.level + e
                if breach <= new_to:
                    continue
                starts = dict(hand.starts)
                starts[a.name] += new_to - (ctx.commit + ctx.stack)
                for variant in ("twin", "mutant"):
                    acts = [copy.copy(x) for x in hand.acts]
                    acts[k] = Act(a.name, "raise", a.street, line=a.line, jam=True)
                    last = max(x.line for x in hand.acts if x.street == a.street)
                    ins = Act(bettor.name, "call", a.street) if variant == "twin" else \
                        Act(bettor.name, "raise", a.street, to=rng.randint(new_to + 1, min(
                            breach, new_to + bettor.to - bctx.level if pot_limit else breach)))
                    pos = next(i for i, x in enumerate(acts) if x.line == last) + 1
                    acts.insert(pos, ins)
                    # inserted acts render after the last recorded line before them
                    try:
                        sim, c2, *_ = hand.simulate(acts, starts)
                        if not (sim[k].kind == "raise" and sim[k].allin and 0 < sim[k].to - c2[k].level < c2[k].last_full):
                            continue
                        text = hand.render(acts, starts, num())
                    except ValueError:
                        continue
                    if not a.allin:  # a river showdown: the last aggressor (the caller in the twin) shows first
                        text = _shows_first(text, a.name if variant == "twin" else bettor.name,
                                            bettor.name if variant == "twin" else a.name)
                    out.append(Mutant("illegal-reopen", text, hand.seat_of(bettor.name), _where(src),
                                      f"{a.name}'s all-in call made a short all-in raise to {new_to}; "
                                      f"{bettor.name} {'calls' if variant == 'twin' else 'raises to ' + str(ins.to)}",
                                      twin=variant == "twin"))
    if not out:
        for variant in _bet_called_variants(hand, num):
            out += reopens(src, variant, num, rng, per_site=2)
    return out


def _shows_first(text: str, first: str, then: str) -> str:
    """The hand with ``first``'s show line before ``then``'s (swapped if after it)."""
    lines = text.split("\n")
    i = next((k for k, x in enumerate(lines) if x.startswith(f"{first}: shows [")), None)
    j = next((k for k, x in enumerate(lines) if x.startswith(f"{then}: shows [")), None)
    if i is not None and j is not None and i > j:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _bet_called_variants(hand: Hand, num: Numberer) -> list[Hand]:
    """The hand with its checked-down river bet instead: at a tabled showdown, the
    river's first player bets the big blind, the winner (or, if he bet, the last of the
    others) calls, and everyone else folds (his show line gone, his summary 'folded on
    the River')."""
    sd = _showdown(hand)
    river = [a for a in hand.acts if a.street == 3]
    if sd is None or not river or any(a.kind != "check" for a in river) or not hand.bb:
        return []
    winner, losers = sd
    first = river[0].name
    caller = winner if winner != first else river[-1].name
    if caller == first:
        return []
    acts = [a for a in hand.acts if a.street != 3]
    acts.append(Act(first, "bet", 3, hand.bb, line=river[0].line))
    acts += [Act(a.name, "call" if a.name == caller else "fold", 3, line=a.line) for a in river[1:]]
    try:
        text = hand.render(acts, hand.starts, num())
    except ValueError:
        return []
    variant = Hand(text)
    lines = list(variant.lines)
    for n in {a.name for a in river} - {first, caller}:
        lines[variant.shows[n][0]] = None
        m = re.match(r"^(Seat \d+: .+?) showed \[", lines[variant.summary_seat[n]])
        if m is None:
            return []
        lines[variant.summary_seat[n]] = f"{m.group(1)} folded on the River"
    return [Hand("\n".join(x for x in lines if x is not None))]


def _others_can_act(sim: list[Act], k: int, also_except: str | None = None) -> bool:
    """At the end of action k's street, is any player other than its actor (and
    ``also_except``) still in the hand with chips?"""
    me, st = sim[k].name, sim[k].street
    folded, allin = set(), set()
    for a in sim:
        if a.street > st:
            break
        if a.kind == "fold":
            folded.add(a.name)
        if a.allin:
            allin.add(a.name)
    players = {a.name for a in sim}
    return any(p not in folded and p not in allin for p in players - {me, also_except})


# --- award and settlement mutations (text edits of the settlement lines) --------------


def _sum_amount(line: str, new: int, cards_desc: tuple[str, str] | None = None) -> str:
    """A summary seat line now winning ``new`` (0: lost)."""
    m = SUM_SHOWED_WON.search(line)
    if m:
        if new == 0:
            return line[: m.start()] + f"showed [{m.group(1)}] and lost with {m.group(3)}"
        return line[: m.start()] + f"showed [{m.group(1)}] and won ({new}) with {m.group(3)}"
    m = SUM_SHOWED_LOST.search(line)
    if m:
        if new == 0:
            return line
        return line[: m.start()] + f"showed [{m.group(1)}] and won ({new}) with {m.group(2)}"
    if SUM_WON.search(line):
        return SUM_WON.sub(lambda x: f"{x.group(1)} ({new})", line, count=1)
    raise ValueError(f"cannot restate summary line {line!r}")


def _write(hand: Hand, number: int, edits: dict[int, str | None], after: dict[int, list[str]] | None = None) -> str:
    lines = list(hand.lines)
    lines[0] = _renumber(hand.header, number)
    for i, t in edits.items():
        lines[i] = t
    out = []
    for i, line in enumerate(lines):
        if line is not None:
            out.append(line)
        out += (after or {}).get(i, [])
    return "\n".join(out)


def _showdown(hand: Hand):
    """(winner, losers) of a single-pot, single-collector showdown where every
    player still in showed, or None."""
    if (not hand.clean_single_pot() or len(hand.collects) != 1 or len(hand.shows) < 2 or len(hand.board) != 5
            or not ("Hold'em" in hand.header or "Omaha" in hand.header)):
        return None
    winner = hand.collects[0][1]
    if winner not in hand.shows:
        return None
    folded = {a.name for a in hand.acts if a.kind == "fold"}
    live = {a.name for a in hand.acts} - folded
    if live != set(hand.shows) or any(n not in hand.summary_seat for n in live):
        return None
    if any("showed" not in hand.lines[hand.summary_seat[n]] for n in live):
        return None
    return winner, sorted(live - {winner}, key=hand.seat_of)


def wrong_winners(src: Source, hand: Hand, num: Numberer, rng: random.Random) -> list[Mutant]:
    """Pay the pot (or part of it) of a fully tabled showdown to a losing hand."""
    sd = _showdown(hand)
    if sd is None or hand.hilo:
        return []
    winner, losers = sd
    ci, _w, pot, label = hand.collects[0]
    out = []
    for loser in losers:
        for share in sorted({pot, max(1, pot // 2), max(1, pot - 1), rng.randint(1, pot)}):
            edits = {ci: f"{winner} collected {pot - share} from {label}" if share < pot else None}
            after = {ci: [f"{loser} collected {share} from {label}"]}
            edits[hand.summary_seat[winner]] = _sum_amount(hand.lines[hand.summary_seat[winner]], pot - share)
            edits[hand.summary_seat[loser]] = _sum_amount(hand.lines[hand.summary_seat[loser]], share)
            out.append(Mutant("wrong-winner", _write(hand, num(), edits, after), hand.seat_of(loser), _where(src),
                              f"{share} of the {pot} pot paid to losing {loser} instead of {winner}"))
    return out


RANKS = "23456789TJQKA"
SUITS = "cdhs"


def odd_chips(src: Source, hand: Hand, num: Numberer, rng: random.Random, per_site: int = 16) -> list[Mutant]:
    """Split pots with an odd chip given to the wrong winner.

    Real splits (two collectors, odd pot) get the odd chip moved.  Two-way
    showdowns with an odd pot become ties: the loser's hole cards get the
    winner's ranks in other suits, on a board where no suit appears three times
    (so no flush is possible and equal ranks make equal hands).  The twin splits
    correctly (odd chip to the first winner left of the button, Rule 20)."""
    out: list[Mutant] = []
    if hand.hilo or hand.button is None or not hand.clean_single_pot():
        return out
    if (hand.total - hand.rake) % 2 == 0:
        for variant in _odd_pot_variants(hand, num) or _odd_by_one_variants(hand, num):
            out += odd_chips(src, variant, num, rng, per_site)
        return out
    pot = hand.total - hand.rake
    if len(hand.collects) == 2 and abs(hand.collects[0][2] - hand.collects[1][2]) == 1:
        (i1, n1, a1, lab), (i2, n2, a2, _) = hand.collects
        first = hand.order_from_button([n1, n2])[0]
        got = n1 if a1 > a2 else n2
        if first != got:
            return out  # the site's own split disagrees with Rule 20: not a clean source
        edits = {i1: f"{n1} collected {a2} from {lab}", i2: f"{n2} collected {a1} from {lab}",
                 hand.summary_seat[n1]: _sum_amount(hand.lines[hand.summary_seat[n1]], a2),
                 hand.summary_seat[n2]: _sum_amount(hand.lines[hand.summary_seat[n2]], a1)}
        other = n2 if first == n1 else n1
        out.append(Mutant("odd-chip", _write(hand, num(), edits), hand.seat_of(first), _where(src),
                          f"real split: odd chip moved from {first} to {other}"))
        return out
    sd = _showdown(hand)
    if sd is None or len(hand.board) != 5:
        return out
    winner, losers = sd
    wcards = hand.shows[winner][1].split()
    # no flush for either hand: every suit with three board cards is in neither hand
    flushy = {s for s, k in Counter(c[1] for c in hand.board).items() if k >= 3}
    if any(k >= 5 for k in Counter(c[1] for c in hand.board).values()) or any(c[1] in flushy for c in wcards):
        return out
    for loser in losers:
        lcards = hand.shows[loser][1].split()
        if len(wcards) != len(lcards):
            continue
        known = set(hand.board) | set(wcards)
        for n, (_i, cards, _r) in hand.shows.items():
            known |= set(cards.split())
        for line in hand.lines:
            if line.startswith("Dealt to "):
                known |= set(re.findall(r"\[([^\]]+)\]", line)[-1].split()) if "[" in line else set()
        known -= set(lcards)
        choices = []
        for _ in range(60):
            new, used = [], set(known)
            for c in wcards:
                suits = [s for s in SUITS if s != c[1] and c[0] + s not in used and s not in flushy]
                if not suits:
                    break
                s = rng.choice(suits)
                new.append(c[0] + s)
                used.add(c[0] + s)
            if len(new) == len(wcards) and new not in choices:
                choices.append(new)
        first = hand.order_from_button([winner, loser])[0]
        second = loser if first == winner else winner
        ci, _w, _amt, label = hand.collects[0]
        li, _c, _rest = hand.shows[loser]
        wdesc = hand.shows[winner][2]
        wsum = SUM_SHOWED_WON.search(hand.lines[hand.summary_seat[winner]])
        if wsum is None:
            return out  # the winner's summary line names no hand ('showed [..] and won (N)'): nothing to copy
        for new in choices[:per_site]:
            for variant in ("twin", "mutant"):
                big, small = (first, second) if variant == "twin" else (second, first)
                half = pot // 2
                edits = {li: f"{loser}: shows [{' '.join(new)}]{wdesc}", ci: f"{big} collected {half + 1} from {label}"}
                after = {ci: [f"{small} collected {half} from {label}"]}
                for n, amt in ((big, half + 1), (small, half)):
                    si = hand.summary_seat[n]
                    line = hand.lines[si]
                    if n == loser:
                        m = SUM_SHOWED_LOST.search(line)
                        if m is None:
                            break
                        line = line[: m.start()] + f"showed [{' '.join(new)}] and won ({amt}) with {wsum.group(3)}"
                    else:
                        line = _sum_amount(line, amt)
                    edits[si] = line
                else:
                    for i, line in enumerate(hand.lines):
                        if line.startswith(f"Dealt to {loser} ["):
                            edits[i] = f"Dealt to {loser} [{' '.join(new)}]"
                    out.append(Mutant("odd-chip", _write(hand, num(), edits, after), hand.seat_of(first), _where(src),
                                      f"tie made ({loser} shows {' '.join(new)}); odd chip to {big}", twin=variant == "twin"))
    return out


def _hand_kind(hand: Hand, cards: int):
    """pokerkit's ranking of the hand's game (None: not Hold'em or Omaha)."""
    from pokerkit import OmahaHoldemHand, StandardHighHand

    if "Hold'em" in hand.header and cards == 2:
        return StandardHighHand
    return OmahaHoldemHand if "Omaha" in hand.header and cards == 4 and not hand.hilo else None


def tabled(hand: Hand) -> Hand | None:
    """The hand with every loser who mucked at the showdown, his cards named in the
    summary ('mucked [Jh 8c]'), showing them instead, or None (already tabled, or not
    such a showdown).  pokerkit checks that each of them loses to the winner."""
    if (_showdown(hand) is not None or not hand.clean_single_pot() or len(hand.collects) != 1
            or len(hand.board) != 5 or hand.collects[0][1] not in hand.shows):
        return None
    winner = hand.collects[0][1]
    wcards = hand.shows[winner][1].split()
    kind = _hand_kind(hand, len(wcards))
    if kind is None:
        return None
    board = "".join(hand.board)
    best = kind.from_game("".join(wcards), board)
    live = {a.name for a in hand.acts} - {a.name for a in hand.acts if a.kind == "fold"}
    lines = list(hand.lines)
    for n in sorted(live - set(hand.shows), key=hand.seat_of):
        m = re.match(r"^(Seat \d+: .+?) mucked \[([^\]]+)\](?: and lost)?.*$", lines[hand.summary_seat.get(n, 0)])
        if m is None or len(m.group(2).split()) != len(wcards):
            return None
        shown = kind.from_game(m.group(2).replace(" ", ""), board)
        if not shown < best:
            return None
        lines[hand.summary_seat[n]] = f"{m.group(1)} showed [{m.group(2)}] and lost with {shown}"
        at = hand.shows[winner][0]
        lines[at] = lines[at] + f"\n{n}: shows [{m.group(2)}] ({shown})"
        for i in range(1, hand.summary_start):  # his muck, where the body tells it, is a show now
            if lines[i] is not None and lines[i].startswith((f"{n}: mucks", f"{n} mucks")):
                lines[i] = None
    return Hand("\n".join(x for x in lines if x is not None))


def _simulated(hand: Hand) -> tuple[list[Act], list[Ctx]] | None:
    """The hand's actions and contexts as the betting model replays them (None: it cannot)."""
    try:
        base, ctxs, *_ = hand.simulate(hand.acts, hand.starts)
    except ValueError:
        return None
    return base, ctxs


def _odd_pot_variants(hand: Hand, num: Numberer) -> list[Hand]:
    """The hand with one pre-flop folder who faced an odd amount calling it
    instead and folding at his turn on the flop: the pot becomes odd."""
    sim = _simulated(hand) if _showdown(hand) is not None and len(hand.board) == 5 else None
    if sim is None:
        return []
    base, ctxs = sim
    out = []
    order = {n: i for i, n in enumerate(hand.order_from_button(hand.seats))}
    flop = [a for a in hand.acts if a.street == 1]
    orbit, seen = [], set()
    for a in flop:
        if a.name in seen:
            break
        seen.add(a.name)
        orbit.append(a)
    for k, (a, c) in enumerate(zip(base, ctxs)):
        to_call = c.level - c.commit
        if a.street != 0 or a.kind != "fold" or to_call % 2 == 0 or to_call >= c.stack or a.name not in hand.summary_seat:
            continue
        nxt = next((x for x in orbit if order[x.name] > order[a.name]), None)
        if nxt is None or any(x.name == a.name for x in hand.acts if x.street > 0):
            continue
        acts = [copy.copy(x) for x in hand.acts]
        acts[k] = Act(a.name, "call", 0, line=a.line)
        acts.insert(acts.index(next(x for x in acts if x.line == nxt.line)), Act(a.name, "fold", 1))
        try:
            sim, *_r = hand.simulate(acts, hand.starts)
            if any(x.kind == "raise" and x.street == 0 for x in sim[k + 1:]):
                continue
            text = hand.render(acts, hand.starts, num())
        except ValueError:
            continue
        si = hand.summary_seat[a.name]
        old = hand.lines[si]
        new = old.replace("folded before Flop (didn't bet)", "folded on the Flop").replace("folded before Flop", "folded on the Flop")
        if new == old:
            continue
        variant = Hand(text.replace("\n" + old + "\n", "\n" + new + "\n", 1) if not text.endswith(old)
                       else text[: -len(old)] + new)
        if (variant.total - variant.rake) % 2:
            out.append(variant)
    return out


def _pots(contrib: dict[str, int], live: list[str], allin, dead: dict[str, int]) -> list[tuple[int, int, int]]:
    """(level below, level, amount) of each pot, the main pot first: a pot a level at
    which a live player is all-in, and the top level.  Dead money (a dead small blind)
    sets no level: it is the main pot's."""
    contrib = {n: v - dead.get(n, 0) for n, v in contrib.items()}
    levels = sorted({contrib[n] for n in live if n in allin} | {max(contrib[n] for n in live)})
    pots, prev = [], 0
    for lvl in levels:
        amt = sum(min(v, lvl) - min(v, prev) for v in contrib.values())
        if lvl == levels[-1]:
            amt += sum(v - lvl for v in contrib.values() if v > lvl)
        pots.append((prev, lvl, amt + (sum(dead.values()) if not pots else 0)))
        prev = lvl
    return pots


def _pot_labels(n: int) -> list[str]:
    return ["main pot"] + (["side pot"] if n == 2 else [f"side pot-{i}" for i in range(1, n)])


def _side_pot_variants(hand: Hand, num: Numberer) -> list[Hand]:
    """The hand with a side pot made: at a fully tabled showdown of three or more, a
    loser who called and then only checked is given a stack that covers only part of
    the call (all-in for less; his checks after it left out); the chips the others put
    in beyond his become a side pot, which the winner collects with the main pot."""
    sd = _showdown(hand)
    if sd is None or hand.rake or hand.button is None:
        return []
    winner, losers = sd
    sim = _simulated(hand) if len(losers) >= 2 else None
    if sim is None:
        return []
    base, ctxs = sim
    out = []
    for y in losers:
        calls = [i for i, a in enumerate(base) if a.name == y and a.kind == "call"]
        if not calls or any(a.kind != "check" for a in base[calls[-1] + 1:] if a.name == y):
            continue
        k = calls[-1]
        a, c = base[k], ctxs[k]
        if a.allin or a.amount < 2:
            continue
        starts = dict(hand.starts)
        starts[y] -= c.stack - a.amount // 2  # all-in for half the call
        acts = [x for i, x in enumerate(hand.acts) if not (i > k and x.name == y)]
        later = {x.name for x in acts if x.street > a.street}
        if len(later) == 1:
            continue  # one player left with chips: he would act alone
        try:
            text = hand.render(acts, starts, num(), side_pots=True)
        except ValueError:
            continue
        variant = Hand(text)
        if variant.has_side_pots():
            out.append(variant)
    return out


def _all_in_caller_variants(hand: Hand, num: Numberer, rng: random.Random) -> list[Hand]:
    """The hand with a side pot made at a two-handed showdown: a player who folded
    before the flop without putting a chip in calls instead, all-in for less than the
    bet, with a stack of that much; he shows cards (drawn from those no line names)
    that lose to the winner's.  The two others' chips beyond his are a side pot."""
    from pokerkit import OmahaHoldemHand, StandardHighHand

    sd = _showdown(hand)
    if sd is None or hand.rake or hand.button is None:
        return []
    winner, _losers = sd
    sim = _simulated(hand)
    if sim is None:
        return []
    base, ctxs = sim
    wcards = hand.shows[winner][1].split()
    kind = StandardHighHand if "Hold'em" in hand.header and len(wcards) == 2 else \
        OmahaHoldemHand if "Omaha" in hand.header and len(wcards) == 4 else None
    if kind is None:
        return []
    known = set(hand.board) | {c for _i, cards, _r in hand.shows.values() for c in cards.split()}
    for line in hand.lines:
        if line.startswith("Dealt to "):
            known |= set(re.findall(r"\[([^\]]+)\]", line)[-1].split()) if "[" in line else set()
    board = "".join(hand.board)
    best = kind.from_game("".join(wcards), board)
    out = []
    for k, (a, c) in enumerate(zip(base, ctxs)):
        if (a.kind != "fold" or a.street != 0 or c.commit or c.level - c.commit < 2 or a.name not in hand.summary_seat
                or any(x.name == a.name and x.kind != "ante" for x in base if x is not a)
                or any(line.startswith(f"Dealt to {a.name} ") for line in hand.lines)):
            continue
        deck = [r + s for r in RANKS for s in SUITS if r + s not in known]
        rng.shuffle(deck)
        cards = next((deck[i:i + len(wcards)] for i in range(0, len(deck) - len(wcards), len(wcards))
                      if kind.from_game("".join(deck[i:i + len(wcards)]), board) < best), None)
        if cards is None:
            continue
        starts = dict(hand.starts)
        starts[a.name] = starts[a.name] - c.stack + (c.level - c.commit) // 2  # all-in for half the call
        acts = [copy.copy(x) for x in hand.acts]
        acts[k] = Act(a.name, "call", 0, line=a.line)
        try:
            text = hand.render(acts, starts, num(), side_pots=True)
        except ValueError:
            continue
        variant = Hand(text)
        if not variant.has_side_pots():
            continue
        lines = list(variant.lines)
        wi = variant.shows[winner][0]
        si = variant.summary_seat[a.name]
        seat_part = re.match(r"^(Seat \d+: .+?) folded before Flop.*$", lines[si])
        if seat_part is None:
            continue
        shown = " ".join(cards)
        lines[si] = f"{seat_part.group(1)} showed [{shown}] and lost with {kind.from_game(''.join(cards), board)}"
        lines[wi] = lines[wi] + f"\n{a.name}: shows [{shown}] ({kind.from_game(''.join(cards), board)})"
        out.append(Hand("\n".join(lines)))
    return out


def _odd_by_one_variants(hand: Hand, num: Numberer) -> list[Hand]:
    """The hand with one bet or raise (not all-in) a chip larger, every starting stack a
    chip deeper (what each player has behind stays): when an odd number of players
    matched it, the pot becomes odd.  Left out where a later raise would fall a chip
    under the minimum."""
    sim = _simulated(hand) if _showdown(hand) is not None and len(hand.board) == 5 and not hand.rake else None
    if sim is None or not hand.no_limit or "Pot Limit" in hand.header:
        return []  # (a chip more may be over a pot limit)
    out = []
    for k, a in enumerate(hand.acts):
        if a.kind not in ("bet", "raise") or a.jam:
            continue
        acts = [copy.copy(x) for x in hand.acts]
        if a.kind == "bet":
            acts[k].amount += 1
        else:
            acts[k].to += 1
        starts = {n: v + 1 for n, v in hand.starts.items()}
        try:
            sim2, ctx2, *_ = hand.simulate(acts, starts)
            if any(x.kind == "raise" and not x.allin and x.to - c.level < c.last_full for x, c in zip(sim2, ctx2)):
                continue
            variant = Hand(hand.render(acts, starts, num()))
        except ValueError:
            continue
        if (variant.total - variant.rake) % 2:
            out.append(variant)
    return out


def side_pots(src: Source, hand: Hand, num: Numberer, rng: random.Random) -> list[Mutant]:
    """Pay a side pot (all or part) to an all-in player who put in less than the
    pot's level.  Pot levels come from the betting model, and must reproduce the
    site's own 'Main pot X. Side pot Y.' amounts.  A hand without a side pot gets one
    made (``_side_pot_variants``), written as a twin too: the side pot paid right."""
    if hand.total_line is None or hand.hilo:
        return []
    if not hand.has_side_pots():
        out = []
        for variant in _side_pot_variants(hand, num) + _all_in_caller_variants(hand, num, rng):
            out.append(Mutant("side-pot", "\n".join(variant.lines), None, _where(src),
                              f"side pot made at hand {variant.number}, paid right", twin=True))
            out += side_pots(src, variant, num, rng)
        return out
    try:
        sim, _c, _u, contrib, folded, _e = hand.simulate(hand.acts, hand.starts)
    except ValueError:
        return []
    allin = {a.name for a in sim if a.allin}
    live = [n for n in contrib if n not in folded]
    pots = _pots(contrib, live, allin, hand.dead_money(hand.acts))
    labels = _pot_labels(len(pots))
    claimed = [int(x) for x in re.findall(r"(?:Main|Side) pot(?:-\d+)? (\d+)\.", hand.lines[hand.total_line])]
    real = [p for p in pots if p[2] > 0]
    if not claimed and not hand.rake and len(real) > 1 and len(hand.collects) == 1 and hand.collects[0][2] == hand.total:
        # one collect line for every pot (Winamax writes so): the collector, in every pot, collects
        # each on its own line (a twin), then a side pot is mispaid
        ci, who, _a, _lab = hand.collects[0]
        if contrib[who] < real[-1][1]:
            return []
        lines = [f"{who} collected {amt} from {lab}" for (_lo, _hi, amt), lab in reversed(list(zip(pots, labels))) if amt]
        variant = Hand(_write(hand, num(), {ci: None}, {ci: lines}))
        twin = Mutant("side-pot", "\n".join(variant.lines), None, _where(src), f"one collect split by pot at hand {variant.number}",
                      twin=True)
        return [twin, *side_pots(src, variant, num, rng)]
    if not claimed and not hand.rake:  # a format whose total line claims no pots: its collects, pot by pot
        by_label: Counter = Counter()
        for _i, _n, a, lab in hand.collects:
            by_label[lab] += a
        claimed = [by_label[lab] for (_lo, _hi, amt), lab in zip(pots, labels) if amt > 0]
    if [p[2] for p in pots if p[2] > 0] != claimed:
        return []
    won: Counter = Counter()
    for _i, n, a, _l in hand.collects:
        won[n] += a
    out = []
    for ci, holder, amt, label in hand.collects:
        if label not in labels or label == "main pot":
            continue
        lo, hi, _ = pots[labels.index(label)]
        for y in sorted((n for n in live if n in allin and contrib[n] <= lo), key=hand.seat_of):
            if y not in hand.summary_seat or holder not in hand.summary_seat:
                continue
            for share in sorted({amt, max(1, amt // 2), max(1, amt - 1), 1, rng.randint(1, amt)}):
                edits = {ci: f"{holder} collected {amt - share} from {label}" if share < amt else None}
                after = {ci: [f"{y} collected {share} from {label}"]}
                try:
                    edits[hand.summary_seat[holder]] = _sum_amount(hand.lines[hand.summary_seat[holder]], won[holder] - share)
                    edits[hand.summary_seat[y]] = _sum_amount(hand.lines[hand.summary_seat[y]], won[y] + share)
                except ValueError:
                    continue
                out.append(Mutant("side-pot", _write(hand, num(), edits, after), hand.seat_of(y), _where(src),
                                  f"{share} of {label} ({amt}) paid to {y}, all-in for {contrib[y]} <= {lo}"))
    return out


def uncalled_bets(src: Source, hand: Hand, num: Numberer, rng: random.Random) -> list[Mutant]:
    """Misstate the amount of a recorded uncalled return; the winner's collect (and
    Total pot, summary line) absorb the difference so the text still adds up."""
    if not hand.clean_single_pot() or len(hand.collects) != 1 or len(hand.uncalled) != 1:
        return []
    ui, who, ret = hand.uncalled[0]
    ci, winner, won, label = hand.collects[0]
    out = []
    deltas = {-1, 1, -rng.randint(1, max(1, ret - 1)), rng.randint(1, max(1, won - 1))}
    for d in sorted(deltas):  # the return changes by d, the collect by -d
        if ret + d < 1 or won - d < 1 or d == 0:
            continue
        edits = {ui: f"Uncalled bet ({ret + d}) returned to {who}",
                 ci: f"{winner} collected {won - d} from {label}",
                 hand.total_line: re.sub(r"^Total pot \d+", f"Total pot {hand.total - d}", hand.lines[hand.total_line]),
                 hand.summary_seat[winner]: _sum_amount(hand.lines[hand.summary_seat[winner]], won - d)}
        # the bettor who collects the pot gets back in all what the rules give him: his end
        # stack is right, the lines only misplace chips between return and win (record)
        out.append(Mutant("uncalled-bet", _write(hand, num(), edits), hand.seat_of(who), _where(src),
                          f"uncalled {ret} written as {ret + d}; {winner} collects {won - d}",
                          category="record" if winner == who else "violation"))
    return out


def conservation(src: Source, hand: Hand, num: Numberer, rng: random.Random) -> list[Mutant]:
    """Chips appear or vanish: a collect (with its summary line) or the Total pot
    line is off by some chips."""
    if not hand.clean_single_pot():
        return []
    out = []
    ci, n, won, label = hand.collects[0]
    for d in sorted({1, -1, rng.randint(2, 5000), -rng.randint(1, max(1, won - 1))}):
        if won + d < 1:
            continue
        edits = {ci: f"{n} collected {won + d} from {label}",
                 hand.summary_seat[n]: _sum_amount(hand.lines[hand.summary_seat[n]], won + d)}
        out.append(Mutant("chip-conservation", _write(hand, num(), edits), None, _where(src),
                          f"{n} collects {won + d} of {won}"))
    d = rng.choice([-1, 1]) * rng.randint(1, max(1, hand.total - 1))
    edits = {hand.total_line: re.sub(r"^Total pot \d+", f"Total pot {hand.total + d}", hand.lines[hand.total_line])}
    out.append(Mutant("chip-conservation", _write(hand, num(), edits), None, _where(src),
                      f"Total pot {hand.total} written as {hand.total + d}", category="record"))
    return out


MUTATORS = {
    "illegal-underraise": underraises,
    "illegal-reopen": reopens,
    "odd-chip": odd_chips,
    "side-pot": side_pots,
    "wrong-winner": wrong_winners,
    "uncalled-bet": uncalled_bets,
    "chip-conservation": conservation,
}


def mutate_all(check: str, sources: list[tuple[Source, Hand]], seed: int = 2019, minimum: int = 1000,
               num: Numberer | None = None) -> list[Mutant]:
    """Mutants of one class over ``sources``; further passes with new random
    parameters until ``minimum`` violations (twins not counted) or no progress."""
    num = num or Numberer()
    fn = MUTATORS[check]
    out: list[Mutant] = []
    seen: set[tuple[str, str]] = set()
    for rnd in range(12):
        rng = random.Random(f"{seed}:{check}:{rnd}")
        added = 0
        for src, hand in sources:
            try:
                ms = fn(src, hand, num, rng)
                if not ms and check in ("wrong-winner", "illegal-reopen") and (shown := tabled(hand)) is not None:
                    ms = fn(src, shown, num, rng)
            except ValueError:
                continue
            for m in ms:
                key = (m.source, m.what)
                if key in seen:
                    continue
                seen.add(key)
                out.append(m)
                added += not m.twin
        if sum(not m.twin for m in out) >= minimum or not added:
            break
    # too few sites: deterministic variations, a bystander's (a pre-flop folder who put
    # nothing in) starting stack changed; the violation is untouched
    rng = random.Random(f"{seed}:{check}:restack")
    pool = list(out)
    while pool and sum(not m.twin for m in out) < minimum:
        for m in pool:
            v = restack(m, rng, num)
            if v is not None:
                out.append(v)
    for m in out:
        m.number = int(HEADER.match(m.text.split("\n", 1)[0]).group(2))
        head, table, rest = m.text.split("\n", 2)
        table = re.sub(r"^Table '\d+ ", f"Table '{m.number} ", table)  # some formats name the tournament here only
        m.text = "\n".join((head, table, rest))
    return out


def restack(m: Mutant, rng: random.Random, num: Numberer) -> Mutant | None:
    hand = Hand(m.text)
    idle = [n for n, i in hand.summary_seat.items() if hand.lines[i].endswith("folded before Flop (didn't bet)")
            and not any(a.name == n and a.kind not in ("fold", "ante") for a in hand.acts)]
    if not idle:
        return None
    n = rng.choice(sorted(idle))
    i, _seat, stack = hand.seats[n]
    lines = list(hand.lines)
    lines[0] = _renumber(hand.header, num())
    lines[i] = lines[i].replace(f"({stack} in chips", f"({stack + rng.randint(1, 5000)} in chips", 1)
    return Mutant(m.check, "\n".join(lines), m.seat, m.source, m.what + f"; {n}'s stack varied", twin=m.twin)


# --- run it twice ------------------------------------------------------------------
# Stars-shaped cash hands whose board was run twice or three times (PokerStars, GGPoker, Full Tilt),
# mutated as text: amounts stay as the site wrote them ('$8385.36', '$1,354', '$105.1').

RUN_SHOWDOWN = re.compile(r"^\*\*\* (FIRST|SECOND|THIRD) SHOW ?DOWN \*\*\*")
RUN_WORDS = {"FIRST": 1, "SECOND": 2, "THIRD": 3}
RUN_COLLECT = re.compile(r"^(?P<player>.+) collected (?P<amount>\S+) from (?P<pot>pot|main pot|side pot(?:-\d+)?)\s*$")
# Full Tilt names a run's share by its run: 'Player0 wins pot 2 ($77.60) with a straight'
RUN_POT_COLLECT = re.compile(r"^(?P<player>.+) wins pot (?P<run>[123]) \((?P<amount>[^)]+)\)(?: with .*)?$")
RUN_SEAT = re.compile(r"^Seat (\d+): (.+?) \(")
HAND_NUMBER = re.compile(r"#([A-Z]*)(\d+):")


def _site_amount(text: str) -> tuple[str, int, int]:
    """'$8,385.36' -> ('$', 838536, 2): the symbol, the amount in its smallest written unit, the decimals."""
    m = re.match(r"^(\D*)([\d,]+)(?:\.(\d+))?$", text)
    if not m:
        raise ValueError(text)
    decimals = len(m.group(3) or "")
    return m.group(1), int(m.group(2).replace(",", "") + (m.group(3) or "")), decimals


def _site_text(symbol: str, units: int, decimals: int) -> str:
    if not decimals:
        return f"{symbol}{units}"
    return f"{symbol}{units // 10 ** decimals}.{units % 10 ** decimals:0{decimals}d}"


def run_wrong_winners(text: str, where: str, num: Numberer) -> list[Mutant]:
    """A run's share paid to a player who lost that run: for each run's collect line and
    each player who showed (or mucked at the showdown) and collected nothing in that run, the whole share or half of
    it goes to him (the wrong-winner check must name him, on that run).  Twins: the same
    collect split into two lines of its own winner (no finding)."""
    lines = text.split("\n")
    seats: dict[str, int] = {}
    for line in lines:
        if line.startswith("*** "):
            break
        if sm := RUN_SEAT.match(line):
            seats[sm.group(2)] = int(sm.group(1))
    # the players still in at the showdown: those who showed, and those who mucked there
    showed = {line.split(": shows [", 1)[0] for line in lines if ": shows [" in line}
    showed |= {line.split(" shows [", 1)[0] for line in lines if " shows [" in line}  # Full Tilt: no colon
    showed |= {line[: -len(": mucks hand")] for line in lines if line.endswith(": mucks hand")}
    run, collects_by_run = 0, defaultdict(list)
    for i, line in enumerate(lines):
        if rm := RUN_SHOWDOWN.match(line):
            run = RUN_WORDS[rm.group(1)]
        elif line.startswith("*** SUMMARY"):
            run = 0
        elif run and (cm := RUN_COLLECT.match(line)) and cm.group("player") in seats:
            collects_by_run[run].append((i, cm))
        elif (cm := RUN_POT_COLLECT.match(line)) and cm.group("player") in seats:
            collects_by_run[int(cm.group("run"))].append((i, cm))
    out: list[Mutant] = []

    def write(edits: dict[int, list[str]]) -> str:
        n = num()
        body = [x for i, line in enumerate(lines) for x in edits.get(i, [line])]
        body[0] = HAND_NUMBER.sub(lambda m: f"#{m.group(1)}{n}:", body[0], count=1)
        return "\n".join(body)

    def collect_line(cm: re.Match, player: str, amount: str) -> str:
        if "run" in cm.re.groupindex:
            return f"{player} wins pot {cm.group('run')} ({amount})"
        return f"{player} collected {amount} from {cm.group('pot')}"

    for run_no, collects in sorted(collects_by_run.items()):
        winners = {cm.group("player") for _, cm in collects}
        for i, cm in collects:
            who = cm.group("player")
            symbol, units, decimals = _site_amount(cm.group("amount"))
            half = units // 2
            if half:
                twin = [collect_line(cm, who, _site_text(symbol, units - half, decimals)),
                        collect_line(cm, who, _site_text(symbol, half, decimals))]
                out.append(Mutant("wrong-winner", write({i: twin}), None, where,
                                  f"run {run_no}: {who}'s collect split in two lines", twin=True))
            for loser in sorted(showed - winners - {who}, key=lambda x: seats.get(x, 0)):
                if loser not in seats:
                    continue
                whole = [collect_line(cm, loser, cm.group("amount"))]
                out.append(Mutant("wrong-winner", write({i: whole}), seats[loser], where,
                                  f"run {run_no}: {who}'s share ({cm.group('amount')}) paid to {loser}, who lost the run"))
                if half:
                    part = [collect_line(cm, who, _site_text(symbol, units - half, decimals)),
                            collect_line(cm, loser, _site_text(symbol, half, decimals))]
                    out.append(Mutant("wrong-winner", write({i: part}), seats[loser], where,
                                      f"run {run_no}: half of {who}'s share paid to {loser}, who lost the run"))
    for m in out:
        m.number = int(HAND_NUMBER.search(m.text.split("\n", 1)[0]).group(2))
    return out
