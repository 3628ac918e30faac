"""Unit tests of the PHH reader on small hands written here."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

import parsers.phh
from parsers.base import HandError, ParsedHand, content_hash
from parsers.phh import PhhParser


def parse(text: str, path: str = "games/t/hand.phh") -> list[ParsedHand | HandError]:
    lines = [(i, 0, s) for i, s in enumerate(text.splitlines(), 1)]
    return list(PhhParser().iter_hands(iter(lines), path))


def one(text: str, path: str = "games/t/hand.phh") -> ParsedHand:
    [h] = parse(text, path)
    assert isinstance(h, ParsedHand), h
    return h


def error(text: str, path: str = "games/t/hand.phh") -> HandError:
    [h] = parse(text, path)
    assert isinstance(h, HandError), h
    return h


def acts(h: ParsedHand) -> list[tuple]:
    """(kind, seat, amount, to_amount, all_in) of the events that came from actions."""
    return [(e.kind, e.seat, e.amount, e.to_amount, e.all_in) for e in h.events if e.text is not None]


NL3 = """\
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [1000, 500, 300]
actions = [{actions}]
"""


def nl3(*actions: str, **extra: str) -> str:
    text = NL3.format(actions=", ".join(f'"{a}"' for a in actions))
    return text + "".join(f"{k} = {v}\n" for k, v in extra.items())


def test_doctests():
    assert doctest.testmod(parsers.phh).failed == 0


def test_detect():
    p = PhhParser()
    assert p.detect("", "x/h.phh") and p.detect("", "x/H.PHHS")
    assert p.detect("# c\nvariant = 'NT'\nantes = [0, 0]\nactions = []\n", "x/hand.txt")
    assert not p.detect("PokerStars Hand #123: Hold'em", "x/hand.txt")
    assert not p.detect("variant = 'NT'\n", "x/hand.txt")


def test_hand_fields_and_seats():
    h = one(nl3("d dh p1 AsKd", "d dh p2 ????", "d dh p3 7h7c", "p3 f", "p1 cc", "p2 cc", players='["Ann", "Bob", "Cy"]'))
    assert h.hand_id == "PHH-games/t/hand"
    assert (h.site, h.format, h.variant, h.betting, h.game_label) == ("phh", "phh", "holdem", "no-limit", "NT")
    assert (h.small_blind, h.big_blind, h.ante, h.bb_ante, h.min_bet, h.bring_in) == (5, 10, 0, False, 10, None)
    assert (h.max_seats, h.button_seat, h.amount_scale, h.chip_unit, h.is_tournament) == (3, 3, 1, 1, False)
    assert [(s.seat, s.position, s.player, s.starting_stack) for s in h.seats] == [
        (1, 1, "Ann", 1000),
        (2, 2, "Bob", 500),
        (3, 3, "Cy", 300),
    ]
    text = nl3("d dh p1 AsKd", "d dh p2 ????", "d dh p3 7h7c", "p3 f", "p1 cc", "p2 cc", players='["Ann", "Bob", "Cy"]')
    assert h.content_hash == content_hash(text)
    assert (h.first_line, h.last_line, h.byte_offset) == (1, 7, 0)
    # cards spaced, unknown cards kept
    assert [e.cards for e in h.events if e.kind == "deal_hole"] == ["As Kd", "?? ??", "7h 7c"]
    assert acts(h)[3:] == [("fold", 3, None, None, False), ("call", 1, 5, None, False), ("check", 2, None, None, False)]


def test_seats_field_and_seat_count_map_positions_to_seats():
    h = one(nl3("p3 f", "p1 f", seats="[4, 7, 2]", seat_count="9"))
    assert [(s.position, s.seat) for s in h.seats] == [(1, 4), (2, 7), (3, 2)]
    assert h.max_seats == 9 and h.button_seat == 2  # the last position's seat
    assert [(e.kind, e.seat) for e in h.events[:2]] == [("small_blind", 4), ("big_blind", 7)]


def test_one_event_per_action_verbatim_with_commentary():
    h = one(nl3("d dh p1 AsKd", "p3 cbr 30 # a big raise", "p1 f", "p2 f"))
    from_actions = [e for e in h.events if e.text is not None]
    assert [e.text for e in from_actions] == ["d dh p1 AsKd", "p3 cbr 30 # a big raise", "p1 f", "p2 f"]
    assert from_actions[1].kind == "raise" and from_actions[1].to_amount == 30
    assert [e.seq for e in h.events] == list(range(len(h.events)))


def test_heads_up_blinds_are_reverse_assigned_and_p2_has_the_button():
    h = one(
        """variant = "NT"
antes = [0, 3]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db AhKhQh", "p1 cbr 4", "p2 f"]
"""
    )
    forced = [(e.kind, e.seat, e.amount) for e in h.events[:3]]
    assert forced == [("ante", 1, 3), ("small_blind", 2, 1), ("big_blind", 1, 2)]
    assert h.button_seat == 2 and h.bb_ante is True
    assert acts(h)[2:4] == [("call", 2, 1, None, False), ("check", 1, None, None, False)]
    assert acts(h)[5] == ("bet", 1, 4, 4, False)
    assert [e.street for e in h.events if e.text] == ["preflop"] * 4 + ["flop"] * 3


def test_bb_ante_straddles_and_short_forced_bets():
    h = one(
        """variant = "NT"
antes = [0, 20, 0, 0]
blinds_or_straddles = [5, 10, 20, 0]
min_bet = 10
starting_stacks = [100, 25, 100, 100]
actions = ["p4 cc", "p1 f", "p2 f", "p3 cc"]
"""
    )
    assert h.bb_ante is True and h.ante == 20
    assert [(e.kind, e.seat, e.amount, e.all_in) for e in h.events[:4]] == [
        ("ante", 2, 20, False),
        ("small_blind", 1, 5, False),
        ("big_blind", 2, 5, True),  # only 5 left after the ante
        ("straddle", 3, 20, False),
    ]
    assert acts(h)[0] == ("call", 4, 20, None, False)
    assert acts(h)[3] == ("check", 3, None, None, False)


def test_uniform_antes_are_not_bb_ante_and_lone_blind_is_the_big_blind():
    h = one(
        """variant = "NS"
antes = [3, 3, 3]
blinds_or_straddles = [0, 0, 3]
min_bet = 3
starting_stacks = [100, 100, 100]
actions = ["p1 cc", "p2 cbr 9", "p3 f", "p1 f"]
"""
    )
    assert h.variant == "6plus_holdem" and h.bb_ante is False
    assert [e.kind for e in h.events[:4]] == ["ante"] * 3 + ["big_blind"]
    assert (h.small_blind, h.big_blind) == (None, 3)
    assert acts(h)[:2] == [("call", 1, 3, None, False), ("raise", 2, 6, 9, False)]


def test_calls_are_capped_by_the_stack_and_all_in_is_flagged():
    h = one(nl3("p3 cbr 300", "p1 cc", "p2 cc"))
    assert acts(h) == [("raise", 3, 290, 300, True), ("call", 1, 295, None, False), ("call", 2, 290, None, False)]
    h = one(nl3("p3 f", "p1 cbr 1000", "p2 cc"))
    assert acts(h)[1:] == [("raise", 1, 990, 1000, True), ("call", 2, 490, None, True)]


def test_amounts_need_no_decimal_context_and_never_round():
    """Places are counted on the digits and amounts scaled in integers: a decimal
    context rounds to 28 digits (1.000...0001 became 1, and 30 places crashed)."""
    h = one(nl3("p3 cbr 300", "p1 cc", "p2 f").replace("[1000, 500, 300]", "[1000, 500.000000001, 300]"))
    assert h.amount_scale == 10**9 and h.seats[1].starting_stack == 500 * 10**9 + 1
    # more than 9 places: a scale beyond the store's INTEGER amount_scale (base.MAX_DECIMALS)
    for stacks in ("[1000, 500.000000000000001, 300]",
                   "[1000, 1.00000000000000000000000000001, 300]", "[1000, 152000.000000000000000000000000000001, 300]",
                   "[1000, 1e999999999, 300]", "[1000, 1e19, 300]"):
        err = error(nl3("p3 f", "p1 f").replace("[1000, 500, 300]", stacks))
        assert err.reason_code == "amount-out-of-range" and err.line_no == 5, (stacks, err)


def test_whole_float_stacks_are_int_chips():
    """TOML floats arrive as Decimal; whole ones (1000.0) need no scale, yet every
    amount must still be an int (the compiled parser types reject a Decimal)."""
    h = one(nl3("p3 cbr 300", "p1 cc", "p2 f").replace("[1000, 500, 300]", "[1000.0, 500.0, 300.0]"))
    assert h.amount_scale == 1
    assert [(s.starting_stack, type(s.starting_stack)) for s in h.seats] == [(1000, int), (500, int), (300, int)]
    assert acts(h) == [("raise", 3, 290, 300, True), ("call", 1, 295, None, False), ("fold", 2, None, None, False)]
    assert all(type(e.amount) is int for e in h.events if e.amount is not None)


def test_streets_showdown_and_muck():
    h = one(
        nl3(
            "d dh p1 AsKd", "d dh p2 QsQd", "d dh p3 2c3c",
            "p3 f", "p1 cc", "p2 cc",
            "d db 2h3h4h", "p1 cbr 20", "p2 cbr 60", "p1 cc",
            "d db 5s", "p1 cc", "p2 cc",
            "d db 6s", "p1 cc", "p2 cbr 50", "p1 cc",
            "p2 sm QsQd", "p1 sm", "p3 sm -",
        )
    )  # fmt: skip
    streets = [(e.street, e.kind) for e in h.events if e.text]
    assert streets[6:10] == [("flop", "deal_board"), ("flop", "bet"), ("flop", "raise"), ("flop", "call")]
    assert streets[10][0] == "turn" and streets[13][0] == "river"
    assert streets[-3:] == [("showdown", "show"), ("showdown", "muck"), ("showdown", "show")]
    assert h.events[-1].cards == "2c 3c"  # 'sm -': the cards dealt
    assert [e.cards for e in h.events if e.kind == "deal_board"] == ["2h 3h 4h", "5s", "6s"]


def test_show_before_runout_after_all_in_is_showdown_and_board_keeps_streets():
    h = one(nl3("p3 f", "p1 cbr 1000", "p2 cc", "p1 sm AsAd", "p2 sm KsKd", "d db 2h3h4h", "d db 5s", "d db 6s"))
    assert [(e.street, e.kind) for e in h.events if e.text][3:] == [
        ("showdown", "show"),
        ("showdown", "show"),
        ("flop", "deal_board"),
        ("turn", "deal_board"),
        ("river", "deal_board"),
    ]


STUD = """\
variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 ????Ah", "d dh p2 ????2c", "d dh p3 ????Kd",
  "p2 pb", "p3 cbr 5", "p1 cbr 10", "p2 f", "p3 cc",
  "d dh p1 7h", "d dh p3 8h", "p1 cbr 5", "p3 cbr 10", "p1 cc",
  "d dh p1 7s", "d dh p3 8s", "p1 cc", "p3 cc",
  "d dh p1 7c", "d dh p3 8c", "p1 cc", "p3 cc",
  "d dh p1 ??", "d dh p3 ??", "p1 cbr 10", "p3 f",
]
"""


def test_stud_bring_in_complete_and_streets():
    h = one(STUD)
    assert (h.variant, h.betting, h.button_seat, h.bring_in, h.small_bet, h.big_bet) == ("stud", "fixed-limit", None, 2, 5, 10)
    assert [(e.kind, e.amount) for e in h.events[:3]] == [("ante", 1)] * 3
    a = [(e.street, e.kind, e.seat, e.amount, e.to_amount) for e in h.events if e.text]
    assert a[3:8] == [
        ("third", "bring_in", 2, 2, None),
        ("third", "complete", 3, 3, 5),
        ("third", "raise", 1, 5, 10),
        ("third", "fold", 2, None, None),
        ("third", "call", 3, 5, None),
    ]
    assert a[8][:2] == ("fourth", "deal_hole") and a[10] == ("fourth", "bet", 1, 5, 5)
    assert [x[0] for x in a[13:]] == ["fifth"] * 4 + ["sixth"] * 4 + ["seventh"] * 4


def test_stud_street_advances_without_betting_when_all_in():
    h = one(
        """variant = "FR"
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [6, 50]
actions = ["d dh p1 ??????", "d dh p2 ??????", "p1 pb", "p2 cbr 5", "p1 cc",
  "d dh p1 2c", "d dh p2 3c", "d dh p1 4c", "d dh p2 5c", "d dh p1 6c", "d dh p2 7c", "d dh p1 ??", "d dh p2 ??",
  "p1 sm ??????2c4c6c??", "p2 sm ??????3c5c7c??"]
"""
    )
    a = [(e.street, e.kind) for e in h.events if e.text]
    assert a[4] == ("third", "call") and h.events[-1].street == "showdown"
    assert [s for s, k in a if k == "deal_hole"][2:] == ["fourth", "fourth", "fifth", "fifth", "sixth", "sixth", "seventh", "seventh"]
    assert [e.all_in for e in h.events if e.text == "p1 cc"] == [True]


def test_draw_streets_stand_pat_and_draw_counts():
    h = one(
        """variant = "N2L1D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????",
  "p3 cbr 6", "p1 f", "p2 cc",
  "p2 sd ????", "p3 sd", "d dh p2 7c8d",
  "p2 cc", "p3 cbr 10", "p2 f"]
"""
    )
    a = [(e.street, e.kind, e.seat, e.amount, e.cards) for e in h.events if e.text]
    assert h.button_seat == 3 and h.variant == "2-7_single_draw"
    assert a[6:] == [
        ("first_draw", "draw", 2, 2, "?? ??"),
        ("first_draw", "stand_pat", 3, None, None),
        ("first_draw", "deal_hole", 2, None, "7c 8d"),
        ("first_draw", "check", 2, None, None),
        ("first_draw", "bet", 3, 10, None),
        ("first_draw", "fold", 2, None, None),
    ]
    assert h.events[0].street == "predraw"


def test_triple_draw_rounds_without_betting_after_all_in():
    h = one(
        """variant = "F2L3D"
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [2, 10]
actions = ["d dh p1 ??????????", "d dh p2 ??????????", "p2 cc",
  "p1 sd ??", "p2 sd", "d dh p1 ??",
  "p1 sd", "p2 sd ??", "d dh p2 ??",
  "p1 sd ??", "p2 sd", "d dh p1 ??",
  "p1 sm ??????????", "p2 sm ??????????"]
"""
    )
    draws = [e.street for e in h.events if e.kind in ("draw", "stand_pat")]
    assert draws == ["first_draw"] * 2 + ["second_draw"] * 2 + ["third_draw"] * 2
    assert h.events[0].kind == "small_blind" and h.events[0].seat == 2  # heads-up reversal
    assert [(e.kind, e.amount, e.all_in) for e in h.events if e.text == "p2 cc"] == [("call", 1, False)]


def test_multiline_actions_line_numbers_and_outcome_events():
    text = """# comment line
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [20, 20, 20]
actions = [
  # preflop
  "d dh p1 AhAd",  # one
  "d dh p2 ????", "d dh p3 ????",
  'p3 f', "p1 cbr 4 # commentary, with ] and \\" quote",

  "p2 f",
]
players = ["A", "B", "C"]
finishing_stacks = [22, 18, 20]
winnings = [6, 0, 0]
"""
    h = one(text)
    assert [(e.line_no, e.text) for e in h.events if e.text] == [
        (10, "d dh p1 AhAd"),
        (11, "d dh p2 ????"),
        (11, "d dh p3 ????"),
        (12, "p3 f"),
        (12, 'p1 cbr 4 # commentary, with ] and " quote'),
        (14, "p2 f"),
    ]
    assert [(e.kind, e.line_no) for e in h.events[:2]] == [("small_blind", 4), ("big_blind", 4)]
    outcome = [(e.street, e.kind, e.seat, e.player, e.amount, e.line_no) for e in h.events[-6:]]
    assert outcome == [
        ("summary", "finishing_stack", 1, "A", 22, 17),
        ("summary", "finishing_stack", 2, "B", 18, 17),
        ("summary", "finishing_stack", 3, "C", 20, 17),
        ("summary", "winnings", 1, "A", 6, 18),
        ("summary", "winnings", 2, "B", 0, 18),
        ("summary", "winnings", 3, "C", 0, 18),
    ]
    assert h.seats[0].line_no == 7
    assert (h.first_line, h.last_line) == (1, 18)


def test_fractional_amounts_are_scaled_exactly():
    h = one(
        """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [0.1, 0.2]
min_bet = 0.2
starting_stacks = [10, 10.05]
actions = ["p2 cbr 0.7", "p1 cc"]
finishing_stacks = [10.7, 9.35]
"""
    )
    assert (h.amount_scale, h.chip_unit) == (100, 100)
    assert (h.small_blind, h.big_blind, h.min_bet) == (10, 20, 20)
    assert [s.starting_stack for s in h.seats] == [1000, 1005]
    assert acts(h) == [("raise", 2, 50, 70, False), ("call", 1, 50, None, False)]
    assert [e.amount for e in h.events if e.kind == "finishing_stack"] == [1070, 935]
    # whole floats need no scale
    h = one(nl3("p3 f", "p1 f", finishing_stacks="[995.0, 1005.0, 300.0]"))
    assert h.amount_scale == 1 and [e.amount for e in h.events if e.kind == "finishing_stack"] == [995, 1005, 300]


def test_date_time_event_and_tournament_rules():
    h = one(nl3("p3 f", "p1 f", event="'Main Event'", year="2023", month="6", day="22", time="14:05:00", table="7", hand="42"))
    assert h.started_at_text == "2023-06-22 14:05:00"
    assert h.started_at == dt.datetime(2023, 6, 22, 14, 5)
    assert (h.tournament_name, h.table_name, h.hand_number, h.is_tournament) == ("Main Event", "7", "42", True)
    h = one(nl3("p3 f", "p1 f", event="'Cash Game S4'", currency="'USD'", year="2009", month="11"))
    assert (h.is_tournament, h.currency, h.started_at_text, h.started_at) == (False, "USD", "2009-11", None)


PHHS = """\
# three hands
[1]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["p2 f"]

[2]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100
actions = ["p2 f"]

[3]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ["p2 cc",
  "p1 cc"]
"""


def test_phhs_one_item_per_section_and_a_bad_one_does_not_stop_the_rest():
    out = parse(PHHS, "a/b/c/many.phhs")
    assert [type(x).__name__ for x in out] == ["ParsedHand", "HandError", "ParsedHand"]
    h1, err, h3 = out
    assert (h1.hand_id, h1.first_line, h1.last_line) == ("PHH-b/c/many:1", 2, 8)
    assert (err.hand_id, err.reason_code, err.line_no) == ("PHH-b/c/many:2", "bad-toml", 16)
    assert (h3.hand_id, h3.first_line, h3.last_line) == ("PHH-b/c/many:3", 18, 25)
    assert [(e.kind, e.line_no) for e in h3.events if e.text] == [("call", 24), ("check", 25)]
    assert h1.content_hash != h3.content_hash


def test_phhs_stray_key_before_first_table():
    out = parse("variant = 'NT'\n" + PHHS.replace("[2]", "[x]"), "a/many.phhs")
    assert isinstance(out[0], HandError) and out[0].line_no == 1
    assert sum(isinstance(x, ParsedHand) for x in out) == 2


@pytest.mark.parametrize(
    "text, code, line, words",
    [
        (nl3("p3 f").replace('"NT"', '"XX"'), "unsupported-variant", 1, "XX"),
        (nl3("p3 f", "p4 f"), "unknown-player", 6, "p4"),
        (nl3("p3 f", "p3 cc"), "invalid-action", 6, "folded"),
        (nl3("p3 cbr 301"), "invalid-action", 6, "cannot bet"),
        (nl3("p3 cbr 10"), "invalid-action", 6, "does not exceed"),
        (nl3("p3 xx"), "parse-error", 6, "unknown action"),
        (nl3("d dh p1 AsK"), "parse-error", 6, "card"),
        (nl3("p3 f", "# burn card exposed"), "unsupported-action", 6, "no-op"),
        (nl3("p3 sd"), "invalid-action", 6, "not a draw game"),
        # ``inf`` is the spec's unknown stack (read, see below); other non-numbers are not amounts
        (nl3("p3 f").replace("starting_stacks = [1000, 500, 300]", "starting_stacks = [1000, nan, 300]"), "unknown-amount", 5, "nan"),
        (nl3("p3 f").replace("starting_stacks = [1000, 500, 300]", "starting_stacks = [1000, -inf, 300]"), "unknown-amount", 5, "(-inf)"),
        (nl3("p3 f", finishing_stacks="[inf, 490, 300]"), "unknown-amount", 7, "inf"),
        (nl3("p3 f").replace("blinds_or_straddles = [5, 10, 0]", "blinds_or_straddles = [5, -10, 0]"), "negative-forced-bet", 3, "gives p2 -10"),
        (nl3("p3 f").replace("blinds_or_straddles = [5, 10, 0]", "blinds_or_straddles = [5, 10, -10]"), "negative-forced-bet", 3, "gives p3 -10"),
        (nl3("p1 f").replace("blinds_or_straddles = [5, 10, 0]", "blinds_or_straddles = [-5, 10]").replace("[0, 0, 0]", "[0, 0]")
         .replace("[1000, 500, 300]", "[1000, 500]"), "negative-forced-bet", 3, "gives p1 -5"),
        (nl3("p3 f").replace("antes = [0, 0, 0]", "antes = [0, -1, 0]"), "negative-forced-bet", 2, "antes gives p2 -1"),
        (nl3("p3 f").replace("antes = [0, 0, 0]\n", ""), "missing-field", 1, "antes"),
        (nl3("p3 f").replace("antes = [0, 0, 0]", "antes = [0, 0]"), "parse-error", 2, "3 numbers"),
        (nl3("p3 f") + "variant = 'NT'\n", "bad-toml", 7, "TOML"),
        (nl3("d db AhKhQh", "d db 2c", "d db 3c", "d db 4c"), "parse-error", 6, "more streets"),
    ],
)
def test_rejections_are_clear(text, code, line, words):
    e = error(text)
    assert (e.reason_code, e.line_no, e.hand_id) == (code, line, "PHH-games/t/hand")
    assert words in e.reason


def test_empty_source_yields_nothing():
    assert parse("") == []


# --- HandHQ conversions (uoftcprg/phh-dataset data/handhq): what the record leaves out ------
# Hands written here in the exact field layout of the public .phhs files (one [N] table a
# hand, the fields in the converter's order); amounts and names are made up.

HANDHQ = """\
[{n}]
variant = 'NT'
ante_trimming_status = false
antes = {antes}
blinds_or_straddles = {blinds}
min_bet = {min_bet}
starting_stacks = {stacks}
actions = [{actions}]
venue = '{venue}'
time = 00:0{n}:20
day = 1
month = 7
year = 2009
hand = {hand}
seats = {seats}
table = '{table}'
players = {players}
{winnings}{rake}currency_symbol = '$'
time_zone_abbreviation = 'ET'
"""


def handhq(n: int, stacks: list, actions: list[str], winnings: list | None, *, blinds: list | None = None,
           venue: str = "Absolute Poker", table: str = "OAK ST", rake: str | None = None, min_bet: str = "1",
           event: str | None = None) -> str:
    k = len(stacks)
    blinds = blinds if blinds is not None else ["0.50", "1"] + ["0"] * (k - 2)
    text = HANDHQ.format(
        n=n, antes="[" + ", ".join(["0"] * k) + "]", blinds="[" + ", ".join(map(str, blinds)) + "]", min_bet=min_bet,
        stacks="[" + ", ".join(map(str, stacks)) + "]", actions=", ".join(f"'{a}'" for a in actions), venue=venue,
        hand=3017230000 + n, seats=str(list(range(1, k + 1))), table=table,
        players="[" + ", ".join(f"'u{n}x{i}'" for i in range(1, k + 1)) + "]",
        winnings="" if winnings is None else "winnings = [" + ", ".join(map(str, winnings)) + "]\n",
        rake="" if rake is None else f"rake = {rake}\n",
    )
    return text if event is None else text.replace("venue = ", f"event = '{event}'\nvenue = ", 1)


DEALT3 = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????"]
# p3 limps, p1 folds, p2 checks; p2 bets 1 on the flop, p3 raises to 2, p2 folds: 4.5 in the pot
RAKED = [*DEALT3, "p3 cc", "p1 f", "p2 cc", "d db 6sJsAs", "p2 cbr 1", "p3 cbr 2", "p2 f"]


def test_handhq_unknown_stacks_are_none_and_unbounded():
    """iPoker's conversions write every stack as ``inf`` (the spec: "Unknown stack values can
    be denoted as inf"): the hand is read, its seats' stacks are None, nobody is all in by a
    stack and every amount is as written."""
    text = handhq(1, ["inf"] * 3, [*DEALT3, "p3 cbr 2", "p1 cbr 7.50", "p2 f", "p3 cc", "d db KsQd5s",
                                   "p1 cbr 27.50", "p3 cc", "d db 4d", "d db 9s"],
                  [0, 0, 0], venue="iPoker Network", table="HandHQ")
    h = one(text, "handhq/ipn.phhs")
    assert [s.starting_stack for s in h.seats] == [None, None, None]
    assert h.amount_scale == 10  # 0.50, 7.50, 27.50: tenths
    assert [a for a in acts(h) if a[0] != "deal_board"][3:] == [
        ("raise", 3, 10, 20, False), ("raise", 1, 55, 75, False), ("fold", 2, None, None, False),
        ("call", 3, 55, None, False), ("bet", 1, 275, 275, False), ("call", 3, 275, None, False),
    ]
    assert not any(e.all_in for e in h.events)
    # one stack unknown among known ones; ``inf`` through tomllib too (a comment forces it)
    mixed = one(nl3("p3 cbr 300", "p1 cc", "p2 cc").replace("[1000, 500, 300]", "[inf, 500, 300]") + "# c\n")
    assert [s.starting_stack for s in mixed.seats] == [None, 500, 300]
    assert acts(mixed) == [("raise", 3, 290, 300, True), ("call", 1, 295, None, False), ("call", 2, 290, None, False)]
    e = error(nl3("p3 cbr 20", "p1 cbr 5").replace("[1000, 500, 300]", "[inf, 500, 300]"))
    assert e.reason_code == "invalid-action" and "a stack not recorded behind" in e.reason


# HandHQ's Ongame: p3 enters and posts the small blind dead (-5), then calls the big blind
# (10), bets 20 and calls 30: his finishing stack is 65 below his start, 5 more than his
# calls and bets.  p2 wins the 130 less a rake of 3 the record does not write.
ONGAME_DEAD = handhq(
    1, [800, 1200, 900, 1500, 2000],
    ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "d dh p5 ????", "p3 cc", "p4 f", "p5 f", "p1 f",
     "p2 cc", "d db 2h7cKd", "p2 cc", "p3 cbr 20", "p2 cc", "d db 9s", "p2 cc", "p3 cc", "d db 4d", "p2 cbr 30",
     "p3 cc", "p2 sm KsQs", "p3 sm 8h8c"],
    [0, 127, 0, 0, 0], blinds=[5, 10, -5, 0, 0], venue="Ongame Network", min_bet="10",
).replace("winnings = ", "finishing_stacks = [795, 1267, 835, 1500, 2000]\nwinnings = ")


def test_handhq_negative_blind_is_a_dead_post():
    h = one(ONGAME_DEAD, "handhq/ong.phhs")
    forced = [(e.kind, e.seat, e.amount) for e in h.events if e.kind in ("small_blind", "big_blind")]
    assert forced == [("small_blind", 1, 5), ("big_blind", 2, 10), ("small_blind", 3, 5)]
    assert (h.small_blind, h.big_blind) == (5, 10)
    # his cc is a call of the whole big blind: the dead 5 is not toward it
    assert [a for a in acts(h) if a[1] == 3 and a[0] not in ("deal_hole", "show")] == [
        ("call", 3, 10, None, False), ("bet", 3, 20, 20, False), ("check", 3, None, None, False), ("call", 3, 30, None, False)]


def test_handhq_negative_blind_read_nowhere_rejects_its_hand_only():
    good = handhq(1, [100, 80, 120], [*DEALT3, "p3 f", "p1 f"], [0, "1.50", 0])
    # no small blind beside it: no reading of the -0.50 is in the record
    bad = handhq(2, [100, 80, 120], [*DEALT3, "p3 f", "p1 f"], [0, "1.50", 0], blinds=["-0.50", "1", "0"])
    out = parse(good + "\n" + bad + "\n" + good.replace("[1]", "[3]"), "handhq/abs.phhs")
    assert [type(x).__name__ for x in out] == ["ParsedHand", "HandError", "ParsedHand"]
    assert (out[1].reason_code, out[1].hand_id, out[1].line_no) == ("negative-forced-bet", "PHH-handhq/abs:2", 26)
    assert "blinds_or_straddles gives p1 -0.50" in out[1].reason


def test_rake_field_is_a_total_pot_claim_with_no_total():
    h = one(handhq(1, [200, 50, 80], RAKED, [0, 0, "4.30"], rake="0.20"), "handhq/abs.phhs")
    [claim] = [e for e in h.events if e.kind == "total_pot"]
    assert (h.amount_scale, claim.amount, claim.to_amount, claim.street, claim.seat) == (10, None, 2, "summary", None)


def _audit_handhq(tmp_path, files: dict[str, str]):
    from auditor.pipeline import audit

    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = audit([tmp_path / n for n in files], db=tmp_path / "s.duckdb")
    return result


def test_handhq_rake_and_winnings_not_recorded_are_record_findings(tmp_path):
    """What a record leaves out is never a violation (issue 33 point 4): PHH winnings are net
    of the rake, and HandHQ writes no rake; some of its hands write every winnings entry 0."""
    hands = [
        handhq(1, [200, 50, 80], RAKED, [0, 0, "4.30"]),  # 4.5 in the pot, 4.3 won: the rake is not written
        handhq(2, [200, 50, 80], RAKED, [0, 0, "4.50"]),  # all of it won: nothing to say
        handhq(3, [200, 50, 80], RAKED, [0, 0, 0]),  # every entry 0: who won what is not recorded
        handhq(4, [200, 50, 80], RAKED, [0, 0, "5.70"]),  # more than every chip put in: chips from nowhere
        handhq(5, [200, 50, 80], RAKED, [0, 0, "4.30"], rake="0.20"),  # the rake written: it adds up
        handhq(6, [200, 50, 80], RAKED, [0, 0, "4.20"], rake="0.20"),  # the rake written, and still short
        handhq(7, [200, 50, 80], RAKED, [0, 0, "4.30"], event="Sunday Million", table="1"),  # a tournament takes no rake
        # HandHQ's PartyPoker: the winnings count the raiser's own uncalled 1.50 (4.50 = every chip put in)
        handhq(8, [200, 50, 80], [*DEALT3, "p3 cbr 3", "p1 f", "p2 f"], [0, 0, "4.50"], venue="PartyPoker"),
        # the same with a showdown and a rake: p2's uncalled 30 is in his winnings, p3 wins 40.50 less 1
        handhq(9, [100, 50, 20], ["d dh p1 ????", "d dh p2 KsKd", "d dh p3 AsAd", "p3 cbr 20", "p1 f", "p2 cbr 50",
                                  "d db 2c7d9h", "d db Ts", "d db 3s", "p2 sm KsKd", "p3 sm AsAd"],
               [0, 30, "39.50"], venue="PartyPoker"),
    ]
    result = _audit_handhq(tmp_path, {"abs.phhs": "\n".join(hands)})
    assert (result.ingest.stored, result.ingest.rejected) == (9, 0), result.ingest.errors
    got = {f["hand_id"].rsplit(":", 1)[1]: (f["category"], f["category_basis"], f["message"])
           for f in result.findings if f["check_id"] == "chip-conservation"}
    assert set(got) == {"1", "3", "4", "6", "7", "9"}
    assert got["9"][:2] == ("record", "rake not recorded (PHH winnings are net of it)")
    assert got["9"][2] == ("40.5 stayed in the pot, but 69.5 was awarded, more than the pot and 1.0 less than the 70.5 put in: "
                           "the winnings may count the 30.0 uncalled as won (as some converters write them), less a rake the "
                           "record does not write (PHH winnings are net of it); the record does not say (rake not recorded).")
    assert got["1"][:2] == ("record", "rake not recorded (PHH winnings are net of it)")
    assert got["1"][2] == ("4.5 stayed in the pot, but 4.3 was awarded, 0.2 less; the record writes no rake, and PHH "
                           "winnings are net of it, so the difference may be the rake (rake not recorded).")
    assert got["3"][:2] == ("record", "winnings not recorded (every entry 0)")
    assert "every entry of the record's winnings is 0" in got["3"][2]
    assert [got[k][0] for k in ("4", "6", "7")] == ["violation"] * 3
    assert got["4"][2] == "4.5 stayed in the pot, but 5.7 was awarded." and "(rake 0.2)" in got["6"][2]
    assert {f["check_id"] for f in result.findings} == {"chip-conservation"}


def test_handhq_unknown_stacks_are_stored_and_judged_without_them(tmp_path):
    """iPoker's hands were all rejected (unknown-amount); now stored, with NULL stacks, and
    judged on what needs no stack: a short raise by a player whose stack is not recorded
    may be all he had, so it is not judged (nor is the no-limit maximum, his stack); the
    turn order and everything else still are."""
    ipn = [
        # p1 raises to 2, p2 reraises short to 2.50 (all he had? the record does not say), p1 calls
        handhq(1, ["inf"] * 3, [*DEALT3, "p3 f", "p1 cbr 2", "p2 cbr 2.50", "p1 cc"], [0, 0, 0],
               venue="iPoker Network", table="HandHQ"),
        handhq(2, ["inf"] * 3, ["d dh p1 AhAd", "d dh p2 KcKs", "d dh p3 ????", "p3 f", "p1 cbr 4", "p2 cbr 12",
                                "p1 cc", "d db 2c7d9h", "p1 cbr 30", "p2 cc", "d db Ts", "d db 3s"], [0, 0, 0],
               venue="iPoker Network", table="HandHQ"),
        # known stacks: the same short raise is an underraise (p2 had 80 behind)
        handhq(3, [100, 80, 120], [*DEALT3, "p3 f", "p1 cbr 2", "p2 cbr 2.50", "p1 cc"], [0, "5", 0]),
        # the river's caller shows first: with the stacks known, an order the record cannot judge (showdown-order);
        # with them unknown, whether it was an all-in showdown (every hand tabled) is not known either: not judged
        *(handhq(n, stacks, ["d dh p1 AhAd", "d dh p2 KcKs", "d dh p3 ????", "p3 f", "p1 cc", "p2 cc", "d db 2c7d9h",
                             "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db 3s", "p1 cbr 5", "p2 cc",
                             "p2 sm KcKs", "p1 sm AhAd"], [12, 0, 0], venue=venue, table=table)
          for n, stacks, venue, table in ((4, ["inf"] * 3, "iPoker Network", "HandHQ"), (5, [100, 80, 120], "Absolute Poker", "ELM ST"))),
        # p2's short reraise may have been all he had (no reopening) or an underraise: p1's re-raise is not judged
        handhq(6, ["inf"] * 3, [*DEALT3, "p3 f", "p1 cbr 2", "p2 cbr 2.50", "p1 cbr 6", "p2 cc"], [0, 0, 0],
               venue="iPoker Network", table="HandHQ"),
    ]
    result = _audit_handhq(tmp_path, {"ipn.phhs": "\n".join(ipn)})
    assert (result.ingest.stored, result.ingest.rejected) == (6, 0), result.ingest.errors
    import duckdb

    con = duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True)
    try:
        stacks = con.execute("SELECT hand_id, list(starting_stack ORDER BY seat) FROM seats GROUP BY ALL ORDER BY 1").fetchall()
        assert [s for _, s in stacks] == [[None] * 3, [None] * 3, [1000, 800, 1200], [None] * 3, [1000, 800, 1200], [None] * 3]
        rows = con.execute("SELECT hand_id, seat, action_class, stack_before, stack_after, max_raise_to FROM decisions "
                           "WHERE kind IN ('raise', 'call') ORDER BY hand_id, seq").fetchall()
        r1 = [r[1:] for r in rows if r[0].endswith(":1")]
        assert r1 == [(1, "raise", None, None, None), (2, "raise-unjudged", None, None, None), (1, "call", None, None, None)]
        r3 = [r[2] for r in rows if r[0].endswith(":3")]
        assert r3 == ["raise", "underraise", "call"]
        reraise = con.execute("SELECT may_raise, may_raise_reason FROM decisions WHERE hand_id LIKE '%:6' AND seat = 1 "
                              "AND kind = 'raise' ORDER BY seq").fetchall()
        assert reraise == [(True, "not-yet-acted"), (None, "reopening-unjudged")]
        results = con.execute("SELECT starting_stack, end_stack_expected FROM hand_results WHERE hand_id LIKE '%:2'").fetchall()
        assert results == [(None, None)] * 3
    finally:
        con.close()
    by = {(f["hand_id"].rsplit(":", 1)[1], f["check_id"], f["category"]) for f in result.findings}
    # hand 3 writes the short reraise with 80 behind: the only betting finding
    assert ("3", "illegal-underraise", "violation") in by
    assert not [b for b in by if b[0] in ("1", "2", "4", "6") and b[2] == "violation"], by
    assert ("5", "showdown-order", "record") in by and not [b for b in by if b[0] == "4" and b[1] == "showdown-order"], by
    assert ("1", "chip-conservation", "record") in by and ("2", "chip-conservation", "record") in by


def test_handhq_dead_post_replays_to_the_recorded_stacks(tmp_path):
    result = _audit_handhq(tmp_path, {"ong.phhs": ONGAME_DEAD})
    assert (result.ingest.stored, result.ingest.rejected) == (1, 0), result.ingest.errors
    found = [(f["check_id"], f["category"], f["category_basis"]) for f in result.findings]
    # only the rake the record does not write: the dead 5 is in the pot, the call matched the big blind
    assert found == [("chip-conservation", "record", "rake not recorded (PHH winnings are net of it)")], result.findings
