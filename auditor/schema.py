"""The store's schema: the one source of truth for every table and column.

Each table is declared once, as a list of :class:`Column` with its DuckDB type
and a one-line description.  The DDL, the Arrow schemas used for bulk inserts
and ``docs/schema.md`` are all generated from these declarations, so they
cannot drift apart.

Amounts are ``BIGINT`` in the hand's smallest recorded unit (chips for
tournaments, minor currency units for cash games; see ``hands.amount_scale``).
No column of the log holds a float.

>>> [t.name for t in TABLES][:4]
['meta', 'sources', 'hands', 'seats']
>>> 'amount' in EVENTS.column_names
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import pyarrow as pa

SCHEMA_VERSION = 11  # 11: event kind equity_insurance (GGPoker's EV Cashout, all-in insurance); 10: hands.cap (capped tables), event kind cash_out; 9: seats.starting_stack nullable (a stack the record does not know: PHH `inf`); 8: event kind disconnect_all_in (a player the site plays all in with chips behind); 7: decisions.seat, stack_before, stack_after, pot_shares.seat, hand_results.seat, starting_stack nullable (a player who acts with no seat line); 6: hands.record_cut (a record cut short, stored as recorded); 5: events.run, pots.run, pot_shares.run (run it twice); 4: events.inferred_from (inferred events named by a column, not a text marker), event kind house_added; 3: decisions.may_raise and last_full_increment nullable (betting structure unrecorded); 2: findings.category, category_basis, house_policy; hand_results.returned_basis, returned_from; decisions.sa_before, sa_after_seq (Rules 36, 52)


class EventKind(StrEnum):
    """What one event row records.  Every row is one thing that happened (or
    one claim the history makes in its summary), exactly as recorded."""

    # forced bets
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    DEAD_BLIND = "dead_blind"  # a blind posted out of position, e.g. "posts small & big blinds"
    STRADDLE = "straddle"
    BRING_IN = "bring_in"
    # dealing
    DEAL_HOLE = "deal_hole"  # cards dealt to a seat (stud: up cards too)
    DEAL_BOARD = "deal_board"  # community cards
    # voluntary actions
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"  # amount = chips added by this call
    BET = "bet"  # amount = the bet
    RAISE = "raise"  # amount = increment as written, to_amount = raise-to total
    COMPLETE = "complete"  # stud completion of the bring-in; to_amount = total
    DRAW = "draw"  # draw games, Irish: amount = number of cards discarded, cards = discarded
    STAND_PAT = "stand_pat"
    # the site's action for a player, none of his own
    DISCONNECT_ALL_IN = "disconnect_all_in"  # played all in with chips behind on a disconnection (WPN 2016)
    # showdown
    SHOW = "show"
    MUCK = "muck"  # mucked at showdown (cards when the site reveals them)
    NO_SHOW = "no_show"  # "doesn't show hand": a winner who was not called
    # settlement
    UNCALLED_RETURN = "uncalled_return"
    CASH_OUT = "cash_out"  # the house buys a player's all-in equity; amount = paid, to_amount = fee
    # money between a player and the house outside the pot, the pot awarded as played (GGPoker's
    # EV Cashout, all-in insurance); amount = paid to the player, to_amount = paid by him
    EQUITY_INSURANCE = "equity_insurance"
    COLLECT = "collect"  # pot_label main / side-N / pot, half hi / lo
    HOUSE_ADDED = "house_added"  # money the house adds to the pot (Run It Once's 'STP added: €0.50'); amount
    FINISH = "finish"  # tournament finish line; amount = place
    # table events between hands (street 'summary': nobody is dealt in by them)
    REBUY = "rebuy"  # amount = chips received
    ADDON = "addon"  # amount = chips received
    OUT_OF_HAND = "out_of_hand"  # seated but not dealt in (moved into the small blind: waits for the button)
    # the history's own claims (summary section, PHH outcome fields)
    TOTAL_POT = "total_pot"  # amount = total, to_amount = rake
    POT_CLAIM = "pot_claim"  # one pot of "Main pot X. Side pot-1 Y."; pot_label
    SEAT_RESULT = "seat_result"  # a summary seat line; amount = won (if any)
    FINISHING_STACK = "finishing_stack"  # PHH finishing_stacks
    WINNINGS = "winnings"  # PHH winnings
    # a line of the hand the parser did not understand: kept, never judged (docs/semantics.md)
    UNREAD = "unread"


EVENT_KIND_DOCS: dict[EventKind, str] = {
    EventKind.ANTE: "an ante posted; amount",
    EventKind.SMALL_BLIND: "the small blind posted; amount",
    EventKind.BIG_BLIND: "the big blind posted (also a lone button blind); amount",
    EventKind.DEAD_BLIND: "blinds posted out of position, e.g. 'posts small & big blinds'; amount as written",
    EventKind.STRADDLE: "a straddle posted; amount",
    EventKind.BRING_IN: "a stud bring-in; amount",
    EventKind.DEAL_HOLE: "cards dealt to a seat (the newly dealt cards); cards",
    EventKind.DEAL_BOARD: "community cards of a street; cards",
    EventKind.FOLD: "a fold",
    EventKind.CHECK: "a check",
    EventKind.CALL: "a call; amount = chips added",
    EventKind.BET: "a bet; amount = the chips bet, to_amount = the street total after it (the bet; a big blind's bet over his blind adds to it)",
    EventKind.RAISE: "a raise; amount = increment as written, to_amount = the total raised to",
    EventKind.COMPLETE: "a stud completion of the bring-in; to_amount = the total",
    EventKind.DRAW: "a discard in a draw game, or of hole cards after the flop (Irish: two of four, on the flop street); "
                    "amount = number of cards (NULL when the record writes neither number nor cards), cards = discarded when shown",
    EventKind.STAND_PAT: "standing pat in a draw game",
    EventKind.DISCONNECT_ALL_IN: "a player the site plays as all in, with chips behind, because he disconnected ('is disconnected "
                                 "and ALL IN.', WPN's disconnect protection: a house policy, the TDA has no rule for it); no amount: "
                                 "he adds nothing, takes no further action, keeps his stack and stays in for the pots he put "
                                 "chips in; all_in true. The text holds the site's lines for it, in order",
    EventKind.SHOW: "cards tabled; cards",
    EventKind.MUCK: "a hand mucked (cards when the site reveals them)",
    EventKind.NO_SHOW: "a winner who was not called and did not show ('doesn't show hand')",
    EventKind.UNCALLED_RETURN: "uncalled chips returned, as recorded; seat, amount",
    EventKind.CASH_OUT: "a player sells his share of the pot to the house while all in (PokerStars' 'cashed out the hand for "
                        "$A' with its 'Cash Out Fee $F', PartyPoker's 'Cashout Amount is A'); seat, amount = what the "
                        "house pays him, to_amount = the fee as written (NULL where the site writes none), street = the "
                        "betting round on which it was taken. Money between the house and the player, apart from the pot: "
                        "the play and the pot are judged as played, and the pot share the record does not award him is "
                        "not an award error (docs/semantics.md, \"Cash-outs\")",
    EventKind.EQUITY_INSURANCE: "money between a player and the house outside the pot while he is all in, the pot awarded as "
                                "played, by the cards (GGPoker's 'Chooses to EV Cashout', 'Pays Cashout Risk ($R)', 'Receives "
                                "Cashout ($C)'; its 'get an all-in insurance (...)', 'pay premium of all-in insurance ($P)'); "
                                "seat, amount = what the house pays him, to_amount = what he pays the house (both NULL on the "
                                "line where he opts in), street = where the line stands. Nothing of it enters the pot, the "
                                "replay or the checks (docs/semantics.md, \"Cash-outs\")",
    EventKind.COLLECT: "chips collected from a pot; amount, pot_label, half",
    EventKind.HOUSE_ADDED: "money the house adds to the pot, no player's ('STP added: €0.50', Run It Once's splash the pot); "
                           "amount; no seat. The replay puts it in the main pot: collected + rake = put in + added - returned",
    EventKind.FINISH: "a tournament finish line; amount = place",
    EventKind.REBUY: "a re-buy ('re-buys and receives 600 chips'); amount = chips received; street 'summary', in effect from the next hand (written before the player's seat line: already in this hand's stack)",
    EventKind.ADDON: "an add-on ('takes the add-on and receives 3000 chips'); amount = chips received; street 'summary', in effect from the next hand",
    EventKind.OUT_OF_HAND: "a seat line saying the player is out of this hand (PokerStars: 'moved from another table into small blind'); street 'summary'; "
                           "inferred where the record implies it (iPoker: no cards, action or bet; Winamax: a seat no line names that the "
                           "pre-flop betting goes around)",
    EventKind.TOTAL_POT: "the summary's total pot (amount) and rake (to_amount), as claimed by the site",
    EventKind.POT_CLAIM: "one pot of the summary's pot breakdown (main, side-N); amount",
    EventKind.SEAT_RESULT: "a summary seat line; amount = what it says the seat won",
    EventKind.FINISHING_STACK: "PHH finishing_stacks: the seat's recorded end stack",
    EventKind.WINNINGS: "PHH winnings: the seat's recorded winnings",
    EventKind.UNREAD: "a line of the hand that the parser did not understand, kept as written (text) on the street it "
                      "was read in; seat and player when it starts with a seated player's name. The replay applies "
                      "nothing of it; the hand is stored only if its understood events account for every amount "
                      "the record states (parsers.base.unreconciled), and a violation its line could change is "
                      "reported as a record finding (docs/semantics.md, \"Lines not understood\")",
}

VOLUNTARY_KINDS = frozenset(
    {EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE, EventKind.COMPLETE}
)
FORCED_KINDS = frozenset(
    {
        EventKind.ANTE,
        EventKind.SMALL_BLIND,
        EventKind.BIG_BLIND,
        EventKind.DEAD_BLIND,
        EventKind.STRADDLE,
        EventKind.BRING_IN,
    }
)


class Street(StrEnum):
    """Betting rounds by name.  Board games use preflop..river, stud third..seventh,
    draw games predraw and the draws; showdown and summary follow the action."""

    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SECOND = "second"  # 5-card stud's first round (one card down, one up)
    THIRD = "third"
    FOURTH = "fourth"
    FIFTH = "fifth"
    SIXTH = "sixth"
    SEVENTH = "seventh"
    PREDRAW = "predraw"
    FIRST_DRAW = "first_draw"
    SECOND_DRAW = "second_draw"
    THIRD_DRAW = "third_draw"
    SHOWDOWN = "showdown"
    SUMMARY = "summary"


BETTING_STREETS: dict[str, tuple[Street, ...]] = {
    "board": (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER),
    "stud": (Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH),
    "single_draw": (Street.PREDRAW, Street.FIRST_DRAW),
    "triple_draw": (Street.PREDRAW, Street.FIRST_DRAW, Street.SECOND_DRAW, Street.THIRD_DRAW),
    # a stud game of fewer streets: 5-card stud (one card down and one up, then three up),
    # played by stud's rules (bring-in, first to act by the up cards) on rounds of its own
    "5_card_stud": (Street.SECOND, Street.THIRD, Street.FOURTH, Street.FIFTH),
}


#: each variant's street family (a key of BETTING_STREETS) where it is not "board"
STREET_FAMILY: dict[str, str] = {
    "stud": "stud", "stud_hilo": "stud", "razz": "stud", "5_card_stud": "stud",
    "2-7_single_draw": "single_draw", "5_card_draw": "single_draw",
    "2-7_triple_draw": "triple_draw", "a-5_triple_draw": "triple_draw", "badugi": "triple_draw",
}


def street_family(variant: str) -> str:
    """The street family of ``variant``: board games' unless STREET_FAMILY names another.

    >>> street_family("razz"), street_family("badugi"), street_family("omaha")
    ('stud', 'triple_draw', 'board')
    """
    return STREET_FAMILY.get(variant, "board")


def betting_streets(variant: str, family: str) -> tuple[Street, ...]:
    """The betting rounds of ``variant``, a game of street ``family``: its family's,
    unless the variant's rounds are its own (5-card stud).

    >>> [str(s) for s in betting_streets("5_card_stud", "stud")]
    ['second', 'third', 'fourth', 'fifth']
    """
    return BETTING_STREETS.get(variant) or BETTING_STREETS[family]


class Variant(StrEnum):
    """Game variants.  The value is what ``hands.variant`` stores."""

    HOLDEM = "holdem"
    IRISH = "irish"  # hold'em betting, four hole cards dealt, two discarded after the flop (a draw event)
    DOUBLE_HOLDEM = "double_holdem"  # hold'em betting, three hole cards; after the flop one is the point card
    SIX_PLUS_HOLDEM = "6plus_holdem"
    OMAHA = "omaha"
    OMAHA_HILO = "omaha_hilo"
    OMAHA5 = "omaha5"
    OMAHA5_HILO = "omaha5_hilo"
    OMAHA6 = "omaha6"
    COURCHEVEL = "courchevel"
    COURCHEVEL_HILO = "courchevel_hilo"
    STUD = "stud"
    STUD_HILO = "stud_hilo"
    FIVE_CARD_STUD = "5_card_stud"
    RAZZ = "razz"
    DRAW_2_7_SINGLE = "2-7_single_draw"
    DRAW_2_7_TRIPLE = "2-7_triple_draw"
    DRAW_A_5_TRIPLE = "a-5_triple_draw"
    DRAW_5_CARD = "5_card_draw"
    BADUGI = "badugi"


class Betting(StrEnum):
    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT_PREFLOP = "pot-limit-preflop"  # pot-limit before the flop, no-limit after
    # the history does not say which (WPN's format of 2016 and before): the hand is stored
    # and replayed, but no rule that depends on the structure is judged (docs/semantics.md)
    UNRECORDED = "unrecorded"


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    doc: str
    nullable: bool = True


@dataclass(frozen=True)
class Table:
    name: str
    doc: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...] = ()
    # large append-only tables keep their key unique by construction (the ingest's
    # content-hash check, the replay's replace-by-edition) instead of an index, which
    # would cost more than the rest of the write
    enforce_key: bool = True

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def ddl(self) -> str:
        cols = [f"{c.name} {c.type}{'' if c.nullable else ' NOT NULL'}" for c in self.columns]
        if self.primary_key and self.enforce_key:
            cols.append(f"PRIMARY KEY ({', '.join(self.primary_key)})")
        return f"CREATE TABLE IF NOT EXISTS {self.name} (\n  " + ",\n  ".join(cols) + "\n)"

    def arrow_schema(self) -> pa.Schema:
        return pa.schema([pa.field(c.name, _ARROW[c.type], nullable=c.nullable) for c in self.columns])


_ARROW = {
    "VARCHAR": pa.string(),
    "BIGINT": pa.int64(),
    "INTEGER": pa.int32(),
    "SMALLINT": pa.int16(),
    "BOOLEAN": pa.bool_(),
    "TIMESTAMP": pa.timestamp("us"),
    "VARCHAR[]": pa.list_(pa.string()),
    "SMALLINT[]": pa.list_(pa.int16()),
    "BIGINT[]": pa.list_(pa.int64()),
    "INTEGER[]": pa.list_(pa.int32()),
}

C = Column

META = Table(
    "meta",
    "Key/value facts about the store itself.",
    (C("key", "VARCHAR", "setting name", False), C("value", "VARCHAR", "setting value")),
    ("key",),
)

SOURCES = Table(
    "sources",
    "Every ingested file, once per distinct content (sha256).",
    (
        C("source_id", "INTEGER", "store-local id of the file", False),
        C("path", "VARCHAR", "path as given when first ingested (absolute)", False),
        C("size", "BIGINT", "file size in bytes", False),
        C("sha256", "VARCHAR", "hex sha256 of the file's bytes", False),
        C("format", "VARCHAR", "detected format: pokerstars, phh, partypoker, pacific (docs/sites.md)", False),
        C("encoding", "VARCHAR", "text encoding used to read it (utf-8, utf-8-sig, cp1252, utf-16)"),
        C("ingested_at", "TIMESTAMP", "when the file was first ingested (UTC)", False),
    ),
    ("source_id",),
)

HANDS = Table(
    "hands",
    "One row per stored hand, with its table, game and level as recorded.",
    (
        C("hand_id", "VARCHAR", "stable id: 'PS-<hand number>' for PokerStars, 'PHH-<last path parts>[:N]' for PHH, 'PP-[<origin>-]<game number>' for PartyPoker, '888-<game number>' for 888poker", False),
        C("site", "VARCHAR", "site or origin: pokerstars, phh, partypoker, 888poker; a history converted to another site's format names its own room (pokerbros, wpn)", False),
        C("format", "VARCHAR", "parser that read it: pokerstars, phh, partypoker, pacific", False),
        C("hand_number", "VARCHAR", "the site's own hand number, if any"),
        C("tournament_id", "VARCHAR", "tournament number, NULL for cash games"),
        C("tournament_name", "VARCHAR", "event name when recorded (PHH event, home-game club)"),
        C("buy_in", "VARCHAR", "buy-in as written, e.g. '$1.00+$0.25+$0.15 USD'"),
        C("table_name", "VARCHAR", "table name as written"),
        C("max_seats", "SMALLINT", "seats at the table (e.g. 9 for 9-max)"),
        C("button_seat", "SMALLINT", "seat number of the button, if recorded"),
        C("level", "VARCHAR", "blind level as written (e.g. 'XVI')"),
        C("small_blind", "BIGINT", "small blind of the level"),
        C("big_blind", "BIGINT", "big blind of the level"),
        C("ante", "BIGINT", "per-player ante (largest posted or configured)"),
        C("bb_ante", "BOOLEAN", "true when one player (the big blind) posts the ante for the table"),
        C("bring_in", "BIGINT", "stud bring-in"),
        C("small_bet", "BIGINT", "fixed-limit small bet (stud: also the completion)"),
        C("big_bet", "BIGINT", "fixed-limit big bet"),
        C("min_bet", "BIGINT", "smallest opening bet of a no-limit/pot-limit round (normally the big blind)"),
        C("cap", "BIGINT", "capped tables: the most one player may put in the hand, blinds included, as the header states "
          "('$10 Cap', '$400 Pot Limit'); a player who has put it in is all in for the betting, his chips behind "
          "kept. A house structure the TDA rules do not cover: a finding that rests on it says so. NULL: no cap"),
        C("variant", "VARCHAR", "game: holdem, irish, double_holdem, omaha, omaha_hilo, omaha5, omaha6, stud, stud_hilo, 5_card_stud, razz, 2-7_triple_draw, badugi, ... (Variant)", False),
        C("betting", "VARCHAR", "no-limit, pot-limit, fixed-limit, pot-limit-preflop (pot-limit before the flop, no-limit after) or unrecorded (the history does not say: no structure-dependent rule is judged)", False),
        C("game_label", "VARCHAR", "the game as the site wrote it, incl. mixed-game name"),
        C("started_at_text", "VARCHAR", "start time exactly as recorded"),
        C("started_at", "TIMESTAMP", "start time parsed from the recorded text (its own time zone, naive)"),
        C("currency", "VARCHAR", "currency of amounts (USD, EUR, ...); NULL for tournament chips"),
        C("amount_scale", "INTEGER", "recorded amount = stored amount / amount_scale (100 for cents)", False),
        C("chip_unit", "BIGINT", "smallest chip in stored units (odd-chip splits are in this unit)", False),
        C("is_tournament", "BOOLEAN", "tournament (true) or cash game (false)", False),
        C("source_id", "INTEGER", "sources.source_id of the file", False),
        C("first_line", "INTEGER", "1-based line of the hand's first line in the source", False),
        C("last_line", "INTEGER", "1-based line of the hand's last line in the source", False),
        C("byte_offset", "BIGINT", "byte offset of the hand's first line in the decoded source", False),
        C("content_hash", "VARCHAR", "sha256 of the hand's text: same hash = same hand", False),
        C("record_cut", "VARCHAR", "NULL when the record holds the whole hand; else it stops early (a partial export, a "
          "file cut off) and this says what it lacks from there, as the parser saw it (e.g. 'the actions after the "
          "blinds, the cards and the results'). The hand is stored as recorded, never completed: the replay records no "
          "pot, award, return or end stack for it, no check judges what it lacks, and the record-incomplete check says "
          "so once (docs/semantics.md)"),
    ),
    ("hand_id",),
)

SEATS = Table(
    "seats",
    "Who sat where in each hand, with starting stacks.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("seat", "SMALLINT", "seat number at the table (PHH: from 'seats', else position)", False),
        C("position", "SMALLINT", "acting order where the record gives it: PHH player index (1 = first to post / small blind); Bovada, from the position name (small blind 1 ... dealer last); NULL for other sites"),
        C("player", "VARCHAR", "player name as written", False),
        C("starting_stack", "BIGINT", "chips in front at the start of the hand; NULL where the record does not know them (PHH writes an unknown stack as `inf`): every judgement that needs the stack is then left unjudged"),
        C("sitting_out", "BOOLEAN", "recorded as sitting out", False),
        C("bounty", "VARCHAR", "bounty as written, if any"),
        C("line_no", "INTEGER", "source line of the seat line"),
    ),
    ("hand_id", "seat"),
    enforce_key=False,
)

EVENTS = Table(
    "events",
    "The append-only event log: one row per recorded event (or per event the record implies, with `inferred_from`), in order.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("seq", "INTEGER", "0-based order of the event within the hand", False),
        C("street", "VARCHAR", "betting round or section: preflop, flop, ..., third..seventh (5-card stud: second..fifth), predraw, first_draw.., showdown, summary", False),
        C("kind", "VARCHAR", "what happened (EventKind)", False),
        C("seat", "SMALLINT", "seat of the actor, NULL for table events"),
        C("player", "VARCHAR", "player name as written"),
        C("amount", "BIGINT", "amount as written (call: chips added; raise: the increment; collect: won)"),
        C("to_amount", "BIGINT", "raise/complete: the total the player raised to; total_pot: the rake"),
        C("all_in", "BOOLEAN", "the line says the player is all-in", False),
        C("cards", "VARCHAR", "cards as written, space separated (e.g. 'Ah Kd')"),
        C("pot_label", "VARCHAR", "collect/pot_claim: main, side-1, side-2, ... or pot; a pot_claim 'house': the "
          "money the house added, as the summary's pot list names it (Run It Once's 'STP €0.50')"),
        C("half", "VARCHAR", "hi or lo for split-pot halves when recorded"),
        C("line_no", "INTEGER", "1-based source line", False),
        C("text", "VARCHAR", "the source line (or PHH action) verbatim: only what the source said, never a parser's "
          "note; an inferred event holds the line it is placed on (line_no) as written"),
        C("inferred_from", "INTEGER[]", "NULL for an event the source records; for an event the format leaves out "
          "but its other lines imply (an uncalled return a site never writes, a collect or total less it, blinds a "
          "format never posts, iPoker's collects and total pot): the 1-based source lines it is inferred from, "
          "ascending; docs/sites.md says per site what is inferred"),
        C("run", "SMALLINT", "run it twice: the run a board card, show or collect belongs to (1, 2, 3; 1 in a hand run once; "
          "board cards dealt before the runs part are run 1's and shared by every run)", False),
    ),
    ("hand_id", "seq"),
    enforce_key=False,
)

INGEST_ERRORS = Table(
    "ingest_errors",
    "Hands (or files, or lines of a file) that could not be stored, with the reason.",
    (
        C("source_path", "VARCHAR", "file", False),
        C("sha256", "VARCHAR", "sha256 of the file, if it could be read"),
        C("line_no", "INTEGER", "1-based line where the problem is (or the hand starts)"),
        C("hand_id", "VARCHAR", "hand id if known"),
        C("reason_code", "VARCHAR", "stable code: parse-error, conflict, run-it-twice, unsupported-game, not-a-history, unreadable, truncated, parser-failed (a parser bug), ...; unread-lines: lines after a file's last whole hand that no hand history writes (no hand: not counted as seen or rejected)", False),
        C("reason", "VARCHAR", "human explanation", False),
        C("recorded_at", "TIMESTAMP", "when it was recorded (UTC)", False),
    ),
)

# --- replay facts (written by replay/, read by checks) -------------------------------

DECISIONS = Table(
    "decisions",
    "One row per voluntary action, with what the rules allowed at that moment.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("seq", "INTEGER", "events.seq of the action", False),
        C("edition", "VARCHAR", "TDA edition the facts were computed under", False),
        C("street", "VARCHAR", "betting round", False),
        C("seat", "SMALLINT", "seat that acted; NULL for a player who acts with no seat line (his name in player)"),
        C("player", "VARCHAR", "player that acted"),
        C("kind", "VARCHAR", "recorded action kind (fold, check, call, bet, raise, complete)", False),
        C("expected_seat", "SMALLINT", "seat whose turn it was by the rules (NULL if nobody could act, or if the turn is not known)"),
        C("to_act", "SMALLINT[]", "seats still to act in the round before this action; NULL when the turn order is not known "
          "(a player with no seat line could act in the round: seat-unrecorded; a stud street's first actor, when the "
          "history does not show every upcard his turn depends on)"),
        C("actor_status", "VARCHAR", "actor's status before acting: active, folded, all_in, absent", False),
        C("to_call", "BIGINT", "amount the actor needed to add to call", False),
        C("current_bet", "BIGINT", "highest commitment on the street before the action", False),
        C("min_raise_to", "BIGINT", "minimum legal bet/raise-to (NL/PL: largest full increment rule; FL: the fixed size); NULL when the betting structure is unrecorded"),
        C("max_raise_to", "BIGINT", "maximum legal bet/raise-to (PL: the pot limit; FL: the fixed size; NL: the stack); NULL when the betting structure is unrecorded"),
        C("may_raise", "BOOLEAN", "betting is open for the actor (it was reopened or the actor has not acted); NULL when the hand's betting structure is unrecorded, or when a short bet or raise since the actor acted needs a stack the record does not give (reopening-unjudged)"),
        C("may_raise_reason", "VARCHAR", "why (not) open: not-yet-acted, reopened-by-full-raise, short-allin-not-reopened, cap-reached, ..., betting-unrecorded, reopening-unjudged", False),
        C("last_full_increment", "BIGINT", "largest full bet or raise increment of the street so far; NULL when the betting structure is unrecorded"),
        C("bets_and_raises", "SMALLINT", "bets and raises so far in the round (limit cap counts short all-ins)", False),
        C("raise_cap", "SMALLINT", "raises allowed in the round (fixed-limit) or NULL"),
        C("stack_before", "BIGINT", "actor's chips behind before the action; NULL for a player with no seat line (stack not recorded)"),
        C("committed_before", "BIGINT", "actor's chips committed on this street before the action", False),
        C("stack_after", "BIGINT", "actor's chips behind after the action; NULL for a player with no seat line"),
        C("committed_after", "BIGINT", "actor's chips committed on this street after the action", False),
        C("pot_before", "BIGINT", "all chips in the pot (all streets, incl. current bets) before the action", False),
        C("amount_to", "BIGINT", "the actor's street commitment the action brought them to (bets/raises/calls)"),
        C("action_class", "VARCHAR", "classification: fold, check, check-facing-bet, call, short-call-allin, undercall, bet, full-raise, allin-short-raise, underraise, over-limit, raise-not-reopened, ...; bet-unjudged, raise-unjudged, complete-unjudged when the betting structure is unrecorded, or a short wager's judgement needs a stack the record does not give (a player with no seat line, or PHH's `inf`); call-short-unjudged: such a player's short call not written all-in", False),
        C("line_no", "INTEGER", "source line of the action", False),
        C("sa_before", "BOOLEAN", "substantial action (Rule 36: two actions in turn, one putting chips in, or three) had occurred in the hand before this action: an error made now can no longer be corrected where a rule's window ends at substantial action (35-D, 23, 34-A)", False),
        C("sa_after_seq", "INTEGER", "seq of the action in turn that completed substantial action after this one (the window of 52-B's too-low pot count: corrected until substantial action occurs after the bet); NULL if the hand ended first"),
    ),
    ("hand_id", "seq", "edition"),
    enforce_key=False,
)

POTS = Table(
    "pots",
    "Every main and side pot as built from contributions, with the showdown and awards.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("edition", "VARCHAR", "TDA edition", False),
        C("pot_index", "SMALLINT", "0 = main pot, 1.. = side pots in order of creation", False),
        C("run", "SMALLINT", "run it twice: the run whose board judges this share of the pot (1 in a hand run once)", False),
        C("pot_label", "VARCHAR", "main, side-1, side-2, ...", False),
        C("amount", "BIGINT", "chips in the pot (run it twice: this run's share of it)", False),
        C("contributors", "SMALLINT[]", "seats that put chips in it (a NULL item: the player with no seat line)", False),
        C("eligible", "SMALLINT[]", "seats that can win it (contributed fully and did not fold; a NULL item: the player with no seat line)", False),
        C("contested", "BOOLEAN", "more than one eligible seat", False),
        C("hi_winners", "SMALLINT[]", "seats whose tabled hands win the high (or only) half; NULL if unknown"),
        C("lo_winners", "SMALLINT[]", "seats whose tabled hands win the low half; empty if no qualifying low; NULL if not hi/lo"),
        C("verified", "BOOLEAN", "winners could be determined (uncontested, or all eligible hands tabled)", False),
        C("note", "VARCHAR", "why not verified, or other remarks"),
    ),
    ("hand_id", "edition", "pot_index", "run"),
    enforce_key=False,
)

POT_SHARES = Table(
    "pot_shares",
    "Per pot and seat: what the rules award next to what the history recorded.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("edition", "VARCHAR", "TDA edition", False),
        C("pot_index", "SMALLINT", "pot", False),
        C("run", "SMALLINT", "run it twice: the run (1 in a hand run once)", False),
        C("seat", "SMALLINT", "seat; NULL for the player with no seat line (hand_results.player names him)"),
        C("eligible", "BOOLEAN", "seat may win this pot", False),
        C("expected", "BIGINT", "chips the rules award this seat from this pot (NULL if winners unknown)"),
        C("odd_chips", "BIGINT", "odd chips included in expected (by the edition's odd-chip rule)"),
        C("recorded", "BIGINT", "chips the history says this seat collected from this pot (NULL if not attributable)"),
        C("hand_value", "VARCHAR", "the seat's best tabled hand, if shown"),
        C("line_no", "INTEGER", "source line of the recorded collect"),
    ),
    ("hand_id", "edition", "pot_index", "run", "seat"),
    enforce_key=False,
)

HAND_RESULTS = Table(
    "hand_results",
    "Per hand and seat: chips in, returned, won, and end stacks, recorded and computed.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("edition", "VARCHAR", "TDA edition", False),
        C("seat", "SMALLINT", "seat; NULL for a player who acts with no seat line"),
        C("player", "VARCHAR", "player"),
        C("starting_stack", "BIGINT", "stack at start; NULL for a player with no seat line (and so his end stacks)"),
        C("contributed", "BIGINT", "chips put in (forced + voluntary), before returns", False),
        C("returned_expected", "BIGINT", "uncalled chips the rules return", False),
        C("returned_recorded", "BIGINT", "uncalled chips the history says were returned (NULL where the format does not record returns, e.g. PHH)"),
        C("won_expected", "BIGINT", "chips the rules award (NULL if a pot's winner is unknown)"),
        C("won_recorded", "BIGINT", "chips the history says were collected (NULL if the history does not say)"),
        C("end_stack_expected", "BIGINT", "starting - contributed + returned_expected + won_expected"),
        C("end_stack_recorded", "BIGINT", "end stack as recorded (PHH finishing_stacks) or implied by recorded events"),
        C("returned_line", "INTEGER", "source line of the uncalled-bet return, if any"),
        C("returned_basis", "VARCHAR", "where returned_recorded comes from: 'recorded' (the history's own lines; none when it "
          "writes no return and the chips stayed in the pot), 'inferred' (the format writes no return line: the return is "
          "implied by other lines, see returned_from); NULL where the format records no returns (PHH)"),
        C("returned_from", "VARCHAR", "inferred returns: the lines the return was inferred from ('total pot line 112; "
          "collected line 110'); NULL when no line of the hand supports it (the next hand's stack may)"),
    ),
    ("hand_id", "edition", "seat"),
    enforce_key=False,
)

REPLAY_NOTES = Table(
    "replay_notes",
    "Replay problems that are not rule questions; the hand's facts may be partial.",
    (
        C("hand_id", "VARCHAR", "hand", False),
        C("edition", "VARCHAR", "TDA edition", False),
        C("seq", "INTEGER", "event where it happened, if any"),
        C("code", "VARCHAR", "stable code: unfollowable, unknown-cards, ...", False),
        C("message", "VARCHAR", "explanation", False),
    ),
)

FINDINGS = Table(
    "findings",
    "What the checks found: rule violations, departures by house policy, and gaps in the record (category).",
    (
        C("finding_id", "VARCHAR", "stable id: check:hand:seq:seat", False),
        C("check_id", "VARCHAR", "check that found it (auditor/checks/<check_id>.sql)", False),
        C("severity", "VARCHAR", "error, warning or info", False),
        C("category", "VARCHAR", "violation (the rules in force were broken in this hand), departure (the hand followed "
          "the house's declared policy where it differs from the TDA edition) or record (the history does not record "
          "what the audit needs, or contradicts itself); docs/semantics.md, 'Finding categories'", False),
        C("category_basis", "VARCHAR", "why the category is not the check's default: the house profile line and its "
          "source (departure), or the inference the record cannot support (record)"),
        C("house_policy", "VARCHAR", "house policies the hand followed where the edition rules otherwise, as name=value "
          "items ('button=both-blinds-moved'); a house profile that declares one makes the finding a departure "
          "(auditor/house.py)"),
        C("edition", "VARCHAR", "TDA edition", False),
        C("rule", "VARCHAR", "rule number in the edition"),
        C("rule_title", "VARCHAR", "rule title in the edition"),
        C("hand_id", "VARCHAR", "hand", False),
        C("tournament_id", "VARCHAR", "tournament"),
        C("table_name", "VARCHAR", "table"),
        C("street", "VARCHAR", "street"),
        C("seq", "INTEGER", "event seq"),
        C("seat", "SMALLINT", "seat"),
        C("player", "VARCHAR", "player"),
        C("expected", "VARCHAR", "what the rules required (amount or seats)"),
        C("actual", "VARCHAR", "what happened"),
        C("message", "VARCHAR", "one sentence a floor person understands", False),
        C("source_path", "VARCHAR", "source file"),
        C("line_no", "INTEGER", "source line"),
    ),
    ("finding_id", "edition"),
)

TABLES: tuple[Table, ...] = (
    META,
    SOURCES,
    HANDS,
    SEATS,
    EVENTS,
    INGEST_ERRORS,
    DECISIONS,
    POTS,
    POT_SHARES,
    HAND_RESULTS,
    REPLAY_NOTES,
    FINDINGS,
)
LOG_TABLES = (SOURCES, HANDS, SEATS, EVENTS, INGEST_ERRORS)
REPLAY_TABLES = (DECISIONS, POTS, POT_SHARES, HAND_RESULTS, REPLAY_NOTES)
# the tables stored as immutable Parquet segments, each read through a view of its
# name (docs/storage.md); the others are tables in the DuckDB file
SEGMENT_TABLES = (HANDS, SEATS, EVENTS, *REPLAY_TABLES)

# --- the segment catalog (docs/storage.md): in the DuckDB file, not exported ---------

SEGMENTS = Table(
    "segments",
    "Every committed Parquet segment: only these are read by the views.",
    (
        C("table_name", "VARCHAR", "the table the segment holds rows of", False),
        C("file", "VARCHAR", "file name in <store>.segments/<table_name>/", False),
        C("edition", "VARCHAR", "replay facts: the TDA edition; NULL for the event log"),
        C("unit_id", "BIGINT", "the ingest unit or replay batch that wrote it; NULL for a compacted segment"),
        C("rows", "BIGINT", "rows in the file", False),
        C("committed_at", "TIMESTAMP", "when it was committed (UTC)", False),
    ),
    ("table_name", "file"),
)

HAND_KEYS = Table(
    "hand_keys",
    "The hash index of stored hands: duplicates and conflicts are found here before a commit.",
    (
        C("hand_id", "VARCHAR", "hands.hand_id", False),
        C("content_hash", "VARCHAR", "hands.content_hash", False),
    ),
)

UNIT_SOURCES = Table(
    "unit_sources",
    "The source file of each part of an ingest unit: a hands segment holds the part, the view the file's source_id.",
    (
        C("unit_id", "BIGINT", "ingest unit", False),
        C("part", "INTEGER", "part of the unit (the source_id column of its hands segment)", False),
        C("source_id", "INTEGER", "sources.source_id", False),
    ),
    ("unit_id", "part"),
)

CATALOG_TABLES = (SEGMENTS, HAND_KEYS, UNIT_SOURCES)


def markdown() -> str:
    """``docs/schema.md``: a section per table, a line per column."""
    out = [
        "# Store schema",
        "",
        f"Schema version {SCHEMA_VERSION}. Generated from `auditor/schema.py` "
        "(`python -m auditor.schema > docs/schema.md`); do not edit by hand.",
        "",
        "All amounts are exact integers in the hand's stored unit: recorded amount = stored / `hands.amount_scale`.",
        "",
    ]
    for t in TABLES:
        out += [f"## `{t.name}`", "", t.doc, ""]
        if t.primary_key:
            how = "" if t.enforce_key else " (unique by construction, not indexed)"
            out += [f"Key: `({', '.join(t.primary_key)})`{how}", ""]
        out += ["| column | type | meaning |", "|---|---|---|"]
        out += [f"| `{c.name}` | {c.type}{'' if c.nullable else ' not null'} | {c.doc} |" for c in t.columns]
        out.append("")
    out += ["## Event kinds", "", "| kind | what it records |", "|---|---|"]
    out += [f"| `{k.value}` | {EVENT_KIND_DOCS[k]} |" for k in EventKind]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
