"""Amounts as sites write them, read by tables: the number formats, the currency symbols
and codes.  A new way of writing a number is an entry here, not a code path.

An amount is a currency (a symbol or an ISO 4217 code, before or after the number, or none)
and a number: digits, with a group mark between thousands and a decimal mark before
the fraction.  Which marks go together is the table :data:`NUMBER_FORMATS` (CLDR's
symbols of the locales whose clients write histories: ``1,234.50``, ``1.234,50``,
``1 234,50`` with a no-break or a thin space, ``1'234.50``); a number may use one pair only.

:func:`read_amount` takes the decimal mark when the history says which it is (a cash
session's stakes), or ``None``: then a mark followed by exactly three digits, and a mark
that occurs more than once, groups thousands (tournament chips: ``1.500``, ``2,030``),
and the last mark, when another precedes it or it is followed by one or two digits, is
the decimal mark (``3,252.50``, ``277.50``).

>>> read_amount("€1,214.15", 100, "."), read_amount("€0,50", 100, ","), read_amount("1.500", 1, None)
(121415, 50, 1500)
>>> read_amount("3,252.50", 100, None), read_amount("1\\u202f234,5 €", 100, ","), read_amount("RSD2", 100, ".")
(325250, 123450, 200)
>>> read_amount("€12,34", 100, ".")
Traceback (most recent call last):
ValueError: not an amount: '€12,34'
"""

from __future__ import annotations

from typing import Final

from parsers.base import Rescale

# (decimal mark, group mark) of the number formats read: CLDR's decimal and group symbols
# of the locales whose clients write hand histories (one entry a format)
NUMBER_FORMATS: Final[tuple[tuple[str, str], ...]] = (
    (".", ","),  # en, es-MX, zh, ja: 1,234.50
    (",", "."),  # de, es, it, pt, nl, da, tr, el, ro, sr: 1.234,50
    (",", "\u00a0"),  # ru, uk, pl, cs, hu, fi, sv, nb, fr (before 2018): 1 234,50, a no-break space
    (",", "\u202f"),  # fr (CLDR 34 on): 1 234,50, a narrow no-break space
    (",", " "),  # the same, written with a plain space
    (".", "'"),  # de-CH, it-CH (older CLDR): 1'234.50
    (".", "\u2019"),  # de-CH, it-CH (CLDR 23 on): 1’234.50
    (".", " "),  # en-ZA and others: 1 234.50
)
# the spaces that group thousands as files hold them -> the space each is: the no-break and
# the narrow no-break space, and each as its UTF-8 bytes read once as cp1252 and saved again
# ('3Â\u00a0023,50 $': an 888 file a converter re-encoded; the number is the same).
# Longest first.  read_amount reads each as the space it is; the Party family reads each as ' '
SPACE_SPELLINGS: Final[dict[str, str]] = {
    "\u00e2\u20ac\u00af": "\u202f", "\u00c2\u00a0": "\u00a0", "\u00a0": "\u00a0", "\u202f": "\u202f",
}
DECIMAL_MARKS: Final = frozenset(d for d, _ in NUMBER_FORMATS)
GROUP_MARKS: Final = frozenset(g for _, g in NUMBER_FORMATS)
_PAIRS: Final = frozenset(NUMBER_FORMATS)
_MARKS: Final = DECIMAL_MARKS | GROUP_MARKS
_SPACES: Final = " " + "".join(sorted(set(SPACE_SPELLINGS.values())))  # between a currency and its number

# currency symbols as written -> the ISO 4217 code ('' where a symbol names several currencies)
CURRENCY_SYMBOLS: Final[dict[str, str]] = {
    "$": "USD",
    "US$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "CNY",
    "₽": "RUB",
    "руб.": "RUB",
    "₹": "INR",
    "zł": "PLN",
    "Kč": "CZK",
    "Ft": "HUF",
    "lei": "RON",
    "лв.": "BGN",
    "₺": "TRY",
    "R$": "BRL",
    "kr": "",  # Swedish, Norwegian or Danish kronor
    "kr.": "",
}


def currency_code(written: str) -> str | None:
    """The ISO 4217 code of a currency as written before or after an amount: a symbol of
    :data:`CURRENCY_SYMBOLS` or a code itself (three capital letters); '' for a symbol
    several currencies write; None if it is not a currency.

    >>> currency_code("€"), currency_code("RSD"), currency_code("kr"), currency_code("chips")
    ('EUR', 'RSD', '', None)
    """
    code = CURRENCY_SYMBOLS.get(written)
    if code is not None:
        return code
    if len(written) == 3 and written.isascii() and written.isalpha() and written.isupper():
        return written
    return None


def split_amount(text: str) -> tuple[str, str]:
    """(the currency as written, '' if none; the number): the currency before or after the
    number, spaces between them allowed.

    >>> split_amount("€1,214.15"), split_amount("12,50 EUR"), split_amount("2030")
    (('€', '1,214.15'), ('EUR', '12,50'), ('', '2030'))
    """
    i = 0
    n = len(text)
    while i < n and not text[i].isdigit():
        i += 1
    j = n
    while j > i and not text[j - 1].isdigit():
        j -= 1
    before, after = text[:i].strip(_SPACES), text[j:].strip(_SPACES)
    if i == n or (before and after) or (before or after) and currency_code(before or after) is None:
        raise ValueError(f"not an amount: {text!r}")
    return before or after, text[i:j]


def read_number(num: str, decimal_mark: str | None) -> tuple[str, str]:
    """(the whole part's digits, the fraction's digits) of a number of digits and marks;
    ``decimal_mark`` as :func:`read_amount` takes it.

    >>> read_number("1.234.567", None), read_number("1'234.5", "."), read_number("12", ",")
    (('1234567', ''), ('1234', '5'), ('12', ''))
    """
    runs: list[str] = []
    marks: list[str] = []
    start = 0
    for k, ch in enumerate(num):
        if ch.isdigit():
            continue
        if ch not in _MARKS or k == start:
            raise ValueError(f"not a number: {num!r}")
        runs.append(num[start:k])
        marks.append(ch)
        start = k + 1
    runs.append(num[start:])
    if not runs[-1] or not all(r.isascii() for r in runs):
        raise ValueError(f"not a number: {num!r}")
    if not marks:
        return num, ""
    last = marks[-1]
    if decimal_mark is not None:
        is_decimal = last == decimal_mark
    else:
        # the last mark is the decimal mark when another precedes it, or it is followed by
        # other than three digits; else it groups (tournament chips: '1.500', '1,500,000')
        is_decimal = (len(marks) > 1 and marks[0] != last) or (len(runs[-1]) != 3 and len(marks) == 1)
    frac = ""
    if is_decimal:
        if last not in DECIMAL_MARKS:
            raise ValueError(f"not a number: {num!r}")
        frac = runs.pop()
        marks.pop()
    if marks:
        group = marks[0]
        if any(m != group for m in marks) or len(runs[0]) > 3 or any(len(r) != 3 for r in runs[1:]):
            raise ValueError(f"not a number: {num!r}")
        decimal = last if is_decimal else decimal_mark
        if (group not in GROUP_MARKS) if decimal is None else ((decimal, group) not in _PAIRS):
            raise ValueError(f"not a number: {num!r}")
    return "".join(runs), frac


def read_amount(text: str, scale: int, decimal_mark: str | None) -> int:
    """An amount as written, in units of 1/``scale`` (``scale`` a power of ten); raises
    ValueError if it is not an amount, :class:`parsers.base.Rescale` if its fraction has
    more digits than ``scale`` holds (the caller reads again at the finer scale).  A space
    as a re-encoded file holds it (:data:`SPACE_SPELLINGS`) is the space it spells.

    >>> read_amount("3\u00c2\u00a0023,50 €", 100, ","), read_amount("1\u00e2\u20ac\u00af234,50", 100, ",")
    (302350, 123450)
    """
    if text.isdigit() and text.isascii():
        return int(text) * scale
    for spelled, space in SPACE_SPELLINGS.items():
        if spelled in text:
            text = text.replace(spelled, space)
    _, num = split_amount(text)
    whole, mark, frac = num.partition(decimal_mark or ".")
    if not (whole.isdigit() and whole.isascii() and (not mark or (frac.isdigit() and frac.isascii()))) \
            or (not decimal_mark and len(frac) == 3):
        # (not digits with at most a decimal mark: the table of formats reads it)
        try:
            whole, frac = read_number(num, decimal_mark)
        except ValueError:
            raise ValueError(f"not an amount: {text!r}") from None
    frac = frac.rstrip("0")
    digits = len(str(scale)) - 1
    if len(frac) > digits:
        raise Rescale(len(frac))
    return int(whole) * scale + (int(frac) * 10 ** (digits - len(frac)) if frac else 0)
