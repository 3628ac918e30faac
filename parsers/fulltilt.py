"""Full Tilt Poker's classic text hand histories (2006-2013), tournaments and cash.

A hand starts at ``Full Tilt Poker Game #<n>: `` (``FullTiltPoker Game #<n>: `` in
some exports).  Files are UTF-8 (some with a byte-order mark) or UTF-16.  The
2016 client wrote a different, PokerStars-shaped format (``parsers.fulltilt_stars``).

The hand has PokerStars' shape, read by ``parsers.stars_family``; what Full Tilt
writes its own way is here:

- the header holds the table, the stakes and the game, the stakes and the game in
  either order: ``Table Gaines (6 max) - $0.01/$0.02 - Pot Limit Omaha Hi - 11:37:56 ET - 2010/03/03``,
  ``$5 Sit & Go (Super Turbo) (253843023), Table 1 - NL Hold'em - 15/30 - ...``,
  ``... (244669447), Match 1 - 15/30 - No Limit Hold'em - ...``; the time comes before the date;
- there is no table line; the button is a line among the posts (``The button is in seat #6``);
- seat lines without ``in chips`` (``Seat 1: Ann ($2.09)``, ``..., is sitting out``);
- actions without a colon (``Ann folds``), ``posts the small blind of 15``, ``antes 10``,
  ``raises to 300`` (the total only: the increment is the total less the bet faced),
  ``, and is all in``, ``and is capped`` (a limit's cap: nothing to record);
- ``Uncalled bet of 300 returned to Ann``; ``Ann wins the pot (600) with ...``, ``wins
  the side pot``, ``wins the high pot``: the collect lines;
- street markers with the pot after them (``*** FLOP *** [Kc Td 8s] (Total Pot: 600, ...)``),
  ``*** 3RD STREET ***`` for stud (``*** 2ND STREET ***`` for 5-card stud), ``*** DRAW ***`` for
  single-draw games, ``*** DISCARD ROUND ***`` for Irish's discards after the flop's betting
  (``Hero discards [9h 9c]``, or ``Ann discards``: a draw event on the flop, no count written);
- lines that record nothing: chat (``Ann: gl``, ``Bob (Observer): hi``), ``Ann shows a pair
  of Tens`` (the hand's name, after the cards were shown), ``is high with [...]``,
  ``is dealt 2 cards`` (draw games: the count; ``Dealt to`` has the cards), time and
  connection notices;
- ``Ann finished in 3rd place``: a finish event;
- ``Ann mucks`` is written both at a showdown and by the one player left when every
  other folded: the latter is a no_show (PokerStars' "doesn't show hand"), not a muck;
- a walk has no ``wins`` line: the summary's ``collected (30)`` is the collect.

Run it twice: ``*** TURN 1 ***``, ``*** SHOW DOWN 2 ***``, ``wins pot 2 ($77.60)`` (the
run's share of the pot) and a summary per run (``*** SUMMARY 2 ***``, ``Pot 2 $77.60``):
each run's cards and collects carry their run (``Event.run``).

Capped tables (``CAP NL Hold'em``, ``$400 Pot Limit Omaha Hi``, ``$2,000 Cap Pot Limit
Omaha Hi``): the cap is the header's amount (hands.cap), or, for ``CAP NL`` which names
none, the total of the first action line ending ``, and is capped``.  A hand with no
seat line is rejected by what it is: the header and summary alone (``truncated``), or an
observer's record of the actions with no stack (``no-stacks``).

>>> text = '''Full Tilt Poker Game #1: Table Vera (6 max) - NL Hold'em - $0.01/$0.02 - 08:55:55 ET - 2013/05/08
... Seat 1: Ann ($1)
... Seat 2: Bob ($2), is sitting out
... Seat 3: Cy ($2)
... Ann posts the small blind of $0.01
... Cy posts the big blind of $0.02
... The button is in seat #1
... *** HOLE CARDS ***
... Ann raises to $0.06
... Cy folds
... Uncalled bet of $0.04 returned to Ann
... Ann mucks
... Ann wins the pot ($0.04)
... *** SUMMARY ***
... Total pot $0.04 | Rake $0
... Seat 1: Ann (small blind) collected ($0.04), mucked
... Seat 3: Cy (big blind) folded before the Flop'''
>>> [h] = FullTiltParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.site, h.table_name, h.max_seats, h.button_seat, h.big_blind, h.started_at
('FT-1', 'fulltilt', 'Vera', 6, 1, 2, datetime.datetime(2013, 5, 8, 8, 55, 55))
>>> [(e.kind, e.player, e.amount, e.to_amount) for e in h.events[2:5]]
[('raise', 'Ann', 4, 6), ('fold', 'Cy', None, None), ('uncalled_return', 'Ann', 4, None)]
"""

from __future__ import annotations

import re

from auditor.schema import Betting, EventKind, Street, Variant
from parsers.stars_family import StarsFamilyParser
from parsers.stars_site import RAISE_TO, StarsSite, hand_headers

_FT_GAMES = {
    "hold'em": Variant.HOLDEM.value,
    "irish": Variant.IRISH.value,
    "omaha": Variant.OMAHA.value,
    "omaha hi": Variant.OMAHA.value,
    "omaha h/l": Variant.OMAHA_HILO.value,
    "omaha hi/lo": Variant.OMAHA_HILO.value,
    "5 card omaha hi": Variant.OMAHA5.value,
    "5 card omaha": Variant.OMAHA5.value,
    "6 card omaha hi": Variant.OMAHA6.value,
    "courchevel hi": Variant.COURCHEVEL.value,
    "courchevel h/l": Variant.COURCHEVEL_HILO.value,
    "stud hi": Variant.STUD.value,
    "7 card stud": Variant.STUD.value,
    "stud h/l": Variant.STUD_HILO.value,
    "razz": Variant.RAZZ.value,
    "5 card stud": Variant.FIVE_CARD_STUD.value,
    "2-7 triple draw": Variant.DRAW_2_7_TRIPLE.value,
    "a-5 triple draw": Variant.DRAW_A_5_TRIPLE.value,
    "2-7 single draw": Variant.DRAW_2_7_SINGLE.value,
    "5 card draw": Variant.DRAW_5_CARD.value,
    "badugi": Variant.BADUGI.value,
}
_FT_LIMITS = {
    "no limit": Betting.NO_LIMIT.value,
    "nl": Betting.NO_LIMIT.value,
    "pot limit": Betting.POT_LIMIT.value,
    "pl": Betting.POT_LIMIT.value,
    "limit": Betting.FIXED_LIMIT.value,
    "fl": Betting.FIXED_LIMIT.value,
    # capped tables (hands.cap): 'CAP NL' (the header names no amount), '$400 Pot Limit' and
    # '$2,000 Cap Pot Limit' (the amount, the header's group 'cap', is taken off before the look-up)
    "cap nl": Betting.NO_LIMIT.value,
    "cap pot limit": Betting.POT_LIMIT.value,
}
_ALT = "|".join(re.escape(g) for g in sorted(_FT_GAMES, key=len, reverse=True))
# 'Pot Limit Omaha Hi', 'NL Hold'em', 'CAP NL Hold'em', '$400 Pot Limit Omaha Hi'; the family reads
# mixed (never written), base, limit
_GAME = rf"(?P<mixed>(?!))?(?P<limit>CAP NL|(?P<cap>\$[\d,]+) (?:Cap )?Pot Limit|No Limit|Pot Limit|Limit|NL|PL|FL) (?P<base>{_ALT})"
_STAKES = r"(?P<stakes>[^ /]+/[^ /]+(?: Ante [^ ]+)?)"
_DATE = r"(?P<date>\d{1,2}:\d{2}(?::\d{2})? \w+ - .+)"
# 'Table Gaines (6 max)', 'Table Vera (6 max, deep)', 'Table Flash', 'Table Clackers (New to the Game)'
_TABLE = r"Table (?P<table>.+?)(?: \((?:(?P<max>\d+) max|heads up)?[^)]*\))?"
_TOURNEY = r"(?P<name>.+) \((?P<tid>\d+)\), (?:Table|Match) (?P<table>\S+)"
_TOURNEY_STAKES = r"(?P<sb>[^ /]+)/(?P<bb>[^ /]+)(?: Ante [^ ]+)?"

FULL_TILT = StarsSite(
    name="fulltilt",
    label="Full Tilt",
    id_prefix="FT-",
    **hand_headers(("Full Tilt Poker Game #", "FullTiltPoker Game #"), r"Full ?Tilt ?Poker Game #(?P<num>\d+):"),
    tourney_find=re.compile(r" \(\d+\), (?:Table|Match) "),
    tourney=re.compile(rf"^{_TOURNEY} - {_TOURNEY_STAKES} - {_GAME} - {_DATE}$", re.I),
    tourney_more=(re.compile(rf"^{_TOURNEY} - {_GAME} - {_TOURNEY_STAKES} - {_DATE}$", re.I),),
    cash=re.compile(rf"^{_TABLE} - {_STAKES} - {_GAME} - {_DATE}$", re.I),
    cash_more=(re.compile(rf"^{_TABLE} - {_GAME} - {_STAKES} - {_DATE}$", re.I),),
    stakes=(re.compile(r"^(?P<sb>[^/ ]+)/(?P<bb>[^/ ]+)(?: Ante (?P<ante>\S+))?$"),),
    date_pattern=re.compile(
        r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))? \w+ - (?P<y>\d{4})/(?P<mo>\d{1,2})/(?P<d>\d{1,2})"
    ),
    games=_FT_GAMES,
    records_rebuys=True,
    limits=_FT_LIMITS,
    table_line=False,
    button_line=re.compile(r"^The button is in seat #(?P<btn>\d+)$"),
    # the family reads five groups: seat, name, stack, bounty (never written here), tail
    seat=re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+) \((?P<stack>[^()\s]+)\)(?P<bounty>(?!))?,?(?P<tail>(?: is sitting out)?)$"),
    total_pot=re.compile(r"^Total pot (?P<total>\S+)(?P<pots>(?: Main pot \S+| Side pot(?: \d+)? \S+)*) \| Rake (?P<rake>\S+)$"),
    pot_claim=re.compile(r" (Main pot|Side pot(?: \d+)?) (\S+?)\.?(?= |$)"),  # 'Main pot $85.10.' in some
    summary_ignored=("Board: [", "Duration "),
    # 'Seat 3: Player4 Seat 4: Player1 (big blind) collected ($0.50), mucked' (2012): seat 3's line,
    # of a player with no seat line in the hand and no result, runs into seat 4's
    summary_glued=re.compile(r"^Seat \d+: [^()]+? (?P<line>Seat \d+: .+)$"),
    blank_lines=True,
    before_seats_ignored=("Seats: ",),
    no_seats=(
        # a Matrix match's hand, a history the header marks '(partial)': the header, then the summary
        ("*** SUMMARY ***", "truncated",
         "the record is the hand's header and summary alone, no seat and no action: its play is not in the record"),
        # an observer's export of 2006: the posts and actions, but no player's stack
        ("", "no-stacks",
         "an observer's record, with the actions but no seat line, so no player's stack: what each could bet "
         "is not in the record, and no rule can be judged from it"),
    ),
    marker_aliases={"*** FLOPET ***": "*** PRE-FLOP ***"},  # Courchevel's one board card before the flop
    topup=re.compile(r"^(?P<player>.+) adds (?P<amount>\S+)$"),
    # a seat taken or left by a player not in the hand, a countdown, a low hand's ranks
    # wrapped onto their own line, the '***** # 2 *****' separators of archived hands, the
    # 'BEGIN' line a Hold'em Manager 2 archive starts with (before the first hand)
    ignored_line_pattern=re.compile(
        r"^(?:.+ (?:sits down|stands up)|\d+ seconds left to act| \([^()]*\)|\*{10,} # \d+ \*{10,}|BEGIN)$"),
    thousands_k=True,
    # its blinds read by their own words ('posts the small blind of 15'), where an alias rewrote
    # each into PokerStars' before it was read; a small blind owed for a missed turn, posted dead
    # (as GGPoker's 'missed blind'); 'Ann posts $5': the live big blind of a player entering ('':
    # last, so that the fallback's startswith scan finds the others first)
    extra_posts={
        "the small blind of ": EventKind.SMALL_BLIND.value,
        "the big blind of ": EventKind.BIG_BLIND.value,
        "a dead small blind of ": EventKind.SMALL_BLIND.value,
        "": EventKind.BIG_BLIND.value,
    },
    markers={
        "*** 2ND STREET ***": Street.SECOND.value,  # 5-card stud's first
        "*** 3RD STREET ***": Street.THIRD.value,
        "*** 4TH STREET ***": Street.FOURTH.value,
        "*** 5TH STREET ***": Street.FIFTH.value,
        "*** 6TH STREET ***": Street.SIXTH.value,
        "*** 7TH STREET ***": Street.SEVENTH.value,
        "*** DRAW ***": Street.FIRST_DRAW.value,
        "*** DISCARD ROUND ***": "",  # Irish: the discards after the flop's betting, on the flop
    },
    actor_sep=" ",
    uncontested_muck_is_no_show=True,
    summary_collects=True,
    # the Matrix exports of 2012 write no line for the fold that ends a hand (the small blind's
    # in a walk, the big blind's to a raise all-in): the summary's words say it, and it is inferred
    summary_folds={"folded before the Flop": Street.PREFLOP.value},
    chat_lines=True,
    # Irish's discard round: 'discards [9h 9c]' (no count), or 'discards' (neither count nor cards)
    discard=re.compile(r"^discards(?: (\d+) cards?)?(?: \[([^\]]*)\])?$"),
    action_aliases=(
        ("antes ", re.compile(r"^antes "), "posts the ante "),
        ("mucks", re.compile(r"^mucks$"), "mucks hand"),
    ),
    all_in_suffixes=(", and is all in", " and is all in"),
    action_suffixes_ignored=(" and is capped",),
    capped_limits=("cap nl",),
    cap_reached=re.compile(r",? and is capped$"),  # at a capped table; in a limit game, the raises' cap
    raise_amounts=RAISE_TO,
    ignored_action_pattern=re.compile(
        r"^(?:shows [^\[]|is (?:high|low) with \[|is dealt \d+ cards?$|has \d+ seconds left to act$|"
        r"has (?:reconnected|been disconnected|returned|timed out|requested TIME)$|is feeling |stands up$|sits down$)"
    ),
    ignored_action_starts=("shows ", "is ", "has ", "stands up", "sits down"),  # the pattern's first words
    not_actions=("wins ", "adds ", "ties for "),
    collect_word=" wins ",
    # a split pot's share: 'Ann ties for the pot (240) with ...', 'Ann ties for pot 1 ($62.10) with ...'
    collect_also=("ties for ",),
    # 'wins pot 2 (x)': a board run twice, the pot's share of run 2
    collect=re.compile(r"^(?P<player>.+) (?:wins|ties for) (?:the (?:(?P<half>high|low) )?(?P<pot>pot|main pot|side pot)|"
                       r"pot (?P<run>[123])) \((?P<amount>[^)]+)\)(?: with .*)?$"),
    uncalled=re.compile(r"^Uncalled bet of (\S+) returned to (.+)$"),
    line_events=((re.compile(r"^(?P<player>.+) finished in (?P<amount>\d+)(?:st|nd|rd|th) place$"),
                  EventKind.FINISH.value),),
    # run it twice: '*** TURN 1 ***', '*** RIVER 2 ***', '*** SHOW DOWN 1 ***', '*** SUMMARY 2 ***'
    ignored_lines=("Players agree to Run It Twice",),  # the runs' own markers follow
    run_markers=re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER|SHOW DOWN|SUMMARY) (?P<run>[123]) \*\*\*$"),
    rejected_lines=(
        # '*** FLOP 1 ***' out of order, or a run's summary for a run not dealt
        *((f"{end} {run} ***", "run-it-twice", "the board's runs are not written in an order the log can hold")
          for end in "PNRY" for run in "123"),
    ),
)


class FullTiltParser(StarsFamilyParser):
    """Reads Full Tilt's classic text histories (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__(FULL_TILT)
