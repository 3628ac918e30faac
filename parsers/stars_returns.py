"""The uncalled bet a history leaves out: a site that writes no 'Uncalled bet' line
counts those chips in its total pot and in the bettor's collect; ``infer_return``
records the return as inferred from the last street's commitments, naming the lines
it was inferred from (``inferred_from``)."""

from __future__ import annotations

from typing import Final

from parsers.base import Event, ParsedHand
from parsers.stars_site import STREET_CHIPS, K


_K_COLLECT: Final[str] = K.COLLECT
_K_RAISE: Final[str] = K.RAISE
_K_COMPLETE: Final[str] = K.COMPLETE
_K_DEAD_BLIND: Final[str] = K.DEAD_BLIND
_K_TOTAL_POT: Final[str] = K.TOTAL_POT
_K_UNCALLED_RETURN: Final[str] = K.UNCALLED_RETURN


def _pot_height(e: Event) -> int:
    """A collect's pot, bottom up: the main pot 0, side pot N at N."""
    label = e.pot_label or ""
    return int(label[5:]) if label.startswith("side-") and label[5:].isdigit() else 1 if label == "side" else 0


def infer_return(events: list[Event], hand: ParsedHand, last: dict[int, int] | None = None) -> None:
    """The uncalled part of the last street's biggest commitment, for a site that writes
    no 'Uncalled bet' line and counts those chips in its total pot and in the bettor's
    collect (Winamax; Bovada's walks).  Recorded as inferred (``inferred_from``: the lines
    of the last street's two biggest commitments and of the collect), on the collect line
    that holds the chips: an uncalled_return event, the collect less it (a collect of
    exactly those chips from a side pot is the return itself), the total pot less it (and
    its line).

    ``last``: the chips each seat put in on the last street chips went in on, in the order of
    each seat's first commitment there, as a reader that followed them has them (the family's:
    its committed chips, see ``_HandReader.left_commitments``); None: read here from the events."""
    # (compiled, a K.<kind> is a module dict lookup and an attribute lookup, and its
    # comparison a generic one: the kinds are Final constants (C statics), the events
    # walked in loops, not generators, and no call takes a key or *args: this runs for
    # every hand of a site)
    collect_kind = _K_COLLECT
    if last is None:
        last = _last_commitments(events, hand)
        if last is None:
            return
    if not last:
        raise ValueError("max() arg is an empty sequence")  # (as the max(...) this loop replaces)
    top = 0
    top_chips = 0
    found = False
    for seat, chips_in in last.items():  # the first of the biggest, as max gives
        if not found or chips_in > top_chips:
            top, top_chips, found = seat, chips_in, True
    second: int | None = None
    second_chips = 0
    for seat, chips_in in last.items():
        if seat != top and (second is None or chips_in > second_chips):
            second, second_chips = seat, chips_in
    uncalled = top_chips - second_chips
    if uncalled <= 0:
        return
    # the uncalled chips lie above every pot the bettor is in: in his collect from the
    # highest; the pots the others collect, and the total pot lines, in the same pass
    collects: list[Event] = []
    others_pots: list[str | None] = []
    totals: list[Event] = []
    total_kind = _K_TOTAL_POT
    for e in events:
        kind = e.kind
        if kind == collect_kind:
            if e.seat == top:
                collects.append(e)
            else:
                others_pots.append(e.pot_label)
        elif kind == total_kind:
            totals.append(e)
    if not collects:
        return  # no collect holds the chips: nothing is inferred, the checks see the record as written
    if len(collects) > 1:
        collects.sort(key=_pot_height)
    highest = collects[-1]
    shared = highest.pot_label in others_pots
    whole = highest if highest.pot_label not in ("pot", "main") and not shared and highest.amount == uncalled else None
    part = highest if (highest.amount or 0) > uncalled else None
    # what the inference rests on: the two biggest commitments and the collect holding the chips
    basis = _commitment_lines(events, top, second)
    # (inferred_from(*basis) without its *args call: the lines are ints)
    if whole is not None:
        whole.kind, whole.pot_label, whole.half = _K_UNCALLED_RETURN, None, None
        basis.append(whole.line_no)
        whole.inferred_from = sorted(set(basis))
    elif part is not None:
        part.amount = (part.amount or 0) - uncalled
        basis.append(part.line_no)
        part.inferred_from = sorted(set(basis))
        returned = Event(0, part.street, _K_UNCALLED_RETURN, part.line_no, top, part.player, uncalled,
                         text=part.text, inferred_from=part.inferred_from)
        # found by identity, from the end where the collects are: list.index would
        # compare the dataclasses field by field
        at = len(events) - 1
        while events[at] is not part:
            at -= 1
        events.insert(at, returned)
        for n in range(at, len(events)):
            events[n].seq = n
    else:
        return  # no collect holds the chips: nothing is inferred, the checks see the record as written
    for e in totals:
        if e.amount is not None:
            e.amount -= uncalled
            total_lines = set(basis)
            total_lines.add(e.line_no)
            e.inferred_from = sorted(total_lines)


def _last_street(events: list[Event]) -> tuple[int, int]:
    """The first and last index of the events of the last street chips went in on (they lie
    together; the last is -1 where none went in)."""
    chips = STREET_CHIPS
    end = len(events) - 1
    while end >= 0 and events[end].kind not in chips:
        end -= 1
    if end < 0:
        return 0, -1
    street = events[end].street
    start = end
    while start > 0 and events[start - 1].street == street:
        start -= 1
    return start, end


def _last_commitments(events: list[Event], hand: ParsedHand) -> dict[int, int] | None:
    """What each seat put in on the last street chips went in on, in the order of each seat's
    first commitment there (None: chips never went in)."""
    chips = STREET_CHIPS
    raise_kind = _K_RAISE
    complete_kind = _K_COMPLETE
    dead_kind = _K_DEAD_BLIND
    start, end = _last_street(events)
    if end < 0:
        return None
    last: dict[int, int] = {}
    for k in range(start, end + 1):
        e = events[k]
        kind = e.kind
        seat = e.seat
        if seat is None or kind not in chips:
            continue
        if kind == raise_kind or kind == complete_kind:
            last[seat] = e.to_amount or 0
        elif kind == dead_kind:
            last[seat] = last.get(seat, 0) + min(e.amount or 0, hand.big_blind or e.amount or 0)
        else:
            last[seat] = last.get(seat, 0) + (e.amount or 0)
    return last


def _commitment_lines(events: list[Event], top: int, second: int | None) -> list[int]:
    """The lines of the commitments of seats ``top`` and ``second`` on the last street chips
    went in on (read only for a hand whose return is inferred)."""
    chips = STREET_CHIPS
    start, end = _last_street(events)
    lines: list[int] = []
    for k in range(start, end + 1):
        e = events[k]
        seat = e.seat
        if seat is not None and (seat == top or seat == second) and e.kind in chips:
            lines.append(e.line_no)
    return lines
