"""888poker histories (Pacific Poker, Cassava; 888.ro, 888.pt, 888poker.ca-on): the
marker ``***** 888poker Hand History for Game N *****`` (``Cassava`` before
2013), the game line ``$5/$10 Blinds No Limit Holdem - *** 04 05 2012 07:59:45``
and a ``** Summary **`` of shows, mucks and ``collected [ X ]`` lines.  The
shared shape is read by :mod:`parsers.party_family`.

>>> text = '''#Game No : 7
... ***** 888poker Hand History for Game 7 *****
... 1 000/2 000 Blinds No Limit Holdem - *** 21 04 2016 16:34:37
... Tournament #9 Free - Table #3 (Real Money)
... Seat 2 is the button
... Total number of players : 2
... Seat 2: Ann ( 10 000 )
... Seat 5: Bob ( 12 000 )
... Ann posts small blind [1 000]
... Bob posts big blind [2 000]
... ** Dealing down cards **
... Ann raises [5 000]
... Bob folds
... ** Summary **
... Ann did not show his hand
... Ann collected [ 8 000 ]'''
>>> [h] = PacificParser().iter_hands(((i, 0, t) for i, t in enumerate(text.splitlines(), 1)), "x.txt")
>>> h.hand_id, h.tournament_id, h.small_blind, h.big_blind, [s.starting_stack for s in h.seats]
('888-7', '9', 1000, 2000, [10000, 12000])
>>> [(e.kind, e.amount, e.to_amount) for e in h.events if e.kind in ('raise', 'uncalled_return', 'collect')]
[('raise', 4000, 6000), ('uncalled_return', 4000, None), ('collect', 4000, None)]
"""

from __future__ import annotations

import re
from typing import Final, cast

from auditor.schema import Betting, Variant
from parsers.base import HandError, ParsedHand
from parsers.party_family import FamilyParser, Marker, FamilyReader, Reject, bracket, currency_of, decimal_comma, parse_date

_BRANDS: Final[tuple[str, ...]] = ("Cassava", "888poker", "888.ro", "888poker.ca-on", "888poker.es", "888poker.it", "888.pt", "Pacific")
# a national site writes its domain after the brand ('***** 888.de Snap Poker Hand History for Game N *****', a 2022
# export; fpdb reads '888.es'): any country code (and province, '888poker.ca-on') after either stem names 888
_DOMAIN_BRAND: Final = re.compile(r"888(?:poker)?\.[a-z]{2}(?:-[a-z]{2})?")
# the game kinds a marker names after the brand, one entry a kind: '***** 888.ro BLAST Hand History for Game N *****'
# (corpus: tour/PacificPoker, the BLAST file), '***** 888poker Snap Poker Hand History for Game N *****' (public
# histories of 888's fast-fold tables, 2020)
_GAME_KINDS: Final[tuple[str, ...]] = ("", "BLAST", "Snap Poker")
_GAME: Final = re.compile(r"^(?P<sb>.+?) ?/ ?(?P<bb>.+?) Blinds (?P<limit>No Limit|Pot Limit|Fix Limit|Fixed Limit) "
                   r"(?P<game>Holdem|Omaha|OmahaHL|Omaha HL|Omaha Hi/Lo)(?P<extra> Jackpot table)? - \*\*\*(?P<date>.*)$")
_LIMITS: Final = {"No Limit": Betting.NO_LIMIT.value, "Pot Limit": Betting.POT_LIMIT.value,
           "Fix Limit": Betting.FIXED_LIMIT.value, "Fixed Limit": Betting.FIXED_LIMIT.value}
_GAMES: Final = {"Holdem": Variant.HOLDEM.value, "Omaha": Variant.OMAHA.value, "OmahaHL": Variant.OMAHA_HILO.value,
          "Omaha HL": Variant.OMAHA_HILO.value, "Omaha Hi/Lo": Variant.OMAHA_HILO.value}
_TOURNEY: Final = re.compile(r"^Tournament #(?P<tid>\d+) (?P<rest>.*?) ?\((?P<money>Real Money|Practice Play)\)\s*$")
_TABLE: Final = re.compile(r"^Table (?P<name>.*?) ?\((?P<money>Real Money|Practice Play)\)\s*$")
_COLLECTED: Final = " collected "


class PacificReader(FamilyReader):
    site = "888poker"
    format = "pacific"
    id_prefix = "888"

    def header(self, hand: ParsedHand, i: int) -> int:
        no, _, game = self.buf[i]
        self.raw = game
        g = _GAME.match(game.strip())
        if not g:
            raise Reject("unsupported-game" if " Blinds " in game else "parse-error", no,
                         f"line {no}: game or stakes not understood: {game!r}")
        # the groups read in one call (each group() is a method call by name, compiled too)
        sb, bb, limit, game_name, _extra, date = cast("tuple[str, str, str, str, str | None, str]", g.groups())
        hand.variant = _GAMES[game_name]
        hand.betting = _LIMITS[limit]
        hand.game_label = f"{limit} {game_name}"
        hand.started_at_text = date.strip() or None
        hand.started_at = parse_date(hand.started_at_text or "")
        no_t, _, table = self.buf[i + 1]
        table_text = table.strip()
        t = _TOURNEY.match(table_text)
        tm = None if t else _TABLE.match(table_text)
        if not (t or tm):
            raise self.fail(no_t, table, "table line not understood")
        if t:
            hand.is_tournament = True
            hand.tournament_id = t.group("tid")
            rest = t.group("rest")
            buy_in, sep, name = rest.partition(" - ")
            hand.buy_in = buy_in.strip() or None
            hand.table_name = name.strip() if sep else rest.strip()
            self.scale = self.scale or 1
            self.chips = True
            hand.currency = None
        else:
            assert tm is not None
            hand.table_name = tm.group("name")
            hand.currency = currency_of(sb + bb)  # Practice Play: play chips, none
            self.scale = self.scale or 100
            # a client that writes a decimal comma groups thousands with '.' ('$ 3.243', '$ 552,72')
            self.chips = "." in self.text and decimal_comma(self.text)
        hand.small_blind = self.amt(sb)
        hand.big_blind = self.amt(bb)
        hand.min_bet = hand.big_blind
        return i + 2

    def site_line(self, hand: ParsedHand, no: int, text: str) -> bool:
        if _COLLECTED in text:
            name, action = self.actor(self.raw.rstrip())
            if name is not None and action.startswith("collected "):
                inner = bracket(action[10:])
                if inner is None:
                    raise self.fail(no, text)
                self.collect(no, name, self.amt(inner))
                return True
        return False


class PacificParser(FamilyParser):
    """Reads 888poker / Pacific / Cassava text histories (see the module docstring)."""

    name = "pacific"
    reader = PacificReader

    def accepts_marker(self, m: Marker) -> bool:
        """The marker names an 888 brand.

        >>> p = PacificParser()
        >>> p.detect("#Game No : 1\\n***** Cassava Hand History for Game 1 *****", "a.txt")
        True
        >>> p.detect("***** Hand History for Game 1 *****", "a.txt"), p.detect("***** 888.ro BLAST Hand History for Game 1 *****", "a")
        (False, True)
        >>> p.detect("***** 888.de Snap Poker Hand History for Game 1 *****", "a"), p.detect("***** 999.de Hand History for Game 1 *****", "a")
        (True, False)
        """
        brand, _, kind = (m[0] or "").partition(" ")
        return (brand in _BRANDS or _DOMAIN_BRAND.fullmatch(brand) is not None) and kind in _GAME_KINDS

__all__ = ["PacificParser", "PacificReader", "HandError", "ParsedHand"]
