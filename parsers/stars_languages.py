"""The languages the PokerStars client writes its hand histories in, as data (issue 33).

A client set to Russian, Portuguese, Spanish, French or Swedish writes the whole history in that
language: header, table and seat lines, actions, markers, summary.  Each language here (each
dialect: Brazil's Portuguese and Portugal's write different words) is one :class:`Language`:
how its header starts, its ordered list of line entries (a
regex on the whole line and the English line it stands for), its words within a line
(game names, the tournament's words), its date order and its amounts' shape.  A hand
whose header is in a language is read through it (:func:`translate`): every line an
entry matches is read as its English form; a line no entry matches is read as written
(English words, or a line kept unread: the hand is still judged where its chips
reconcile, docs/semantics.md).  What the hand stores of a line is the line as written:
events' text, unread lines, error messages and the content hash (``parsers/stars_hand.py``).
English hands are not touched: their header starts with an English prefix.

A new wording is one entry.  Only wordings seen in real exports are entered (a guessed
wording could only go unmatched, or worse, match another's line); docs/sites.md lists
what each language reads.

>>> ru = language_of("Раздача PokerStars №12:  Холдем Безлимитный ($0.01/$0.02 USD) - 03.05.2026 18:47:49 EET")
>>> translate_line(ru, "Раздача PokerStars №12:  Холдем Безлимитный ($0.01/$0.02 USD) - 03.05.2026 18:47:49 EET")
"PokerStars Hand #12: Hold'em No Limit ($0.01/$0.02 USD) - 2026/05/03 18:47:49 EET"
>>> translate_line(ru, "Ann: делает рейз $0.04 $0.06 и олл-ин")
'Ann: raises $0.04 to $0.06 and is all-in'
>>> pt = language_of("Mão #7 da PokerStars:  Hold'em No Limit (0.01 €/0.02 € EUR) - 2026/08/28 22:45:01 UTC [2026/08/28 18:45:01 ET]")
>>> pt.language.name, translate_line(pt, "Ann: sobe 0.48 € para 0.76 € e está all-in")
('pt-PT', 'Ann: raises €0.48 to €0.76 and is all-in')
>>> es = language_of("Mano n.º 5 de Zoom de PokerStars:  Hold'em No Limit (0.02 €/0.05 €) - 05-02-2025 14:48:32 CET")
>>> translate_line(es, "Asiento 3: Bo Lee (ciega grande) recaudó (1.04 €)")
'Seat 3: Bo Lee (ciega grande) collected (€1.04)'
>>> translate_line(es, "Bo Lee: se ríe") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_AMOUNT = r"[^\s()]+"  # an amount as a token: '$0.02', '500', '1,500'


@dataclass(frozen=True)
class Language:
    """One language of the PokerStars client.

    ``lines``: (regex on the whole line, right-stripped; the English template), tried in
    order, the first that matches is the line's English form.  In a regex, ``{A}`` is an
    amount as the language writes it (``amount``).  The template's fields are the regex's
    groups: a group named ``a...`` is an amount (written in English shape: the sign before,
    a decimal point), a group named ``tail`` has the language's ``words`` replaced in it
    (and its amounts and dates put in English shape), any other group is copied as written
    (a player's name, cards); a group that did not match is ''.
    """

    name: str  # 'ru': docs and tests name it so
    prefixes: tuple[str, ...]  # a header in the language starts so (a cheap test first)
    start: str  # the header's start as a regex (no groups): where a hand begins
    lines: tuple[tuple[str, str], ...]
    # the games' names as written -> as in English (in 'tail' groups, before ``words``)
    games: dict[str, str] = field(default_factory=dict)
    # (regex, replacement) applied in turn to 'tail' groups: tournament words, the summary's
    # words for a collect or a show
    words: tuple[tuple[str, str], ...] = ()
    # the language's date (groups d, mo, y), put as PokerStars' English writes it: y/mo/d
    date: str | None = None
    amount: str = _AMOUNT
    # a currency written after the amount ('0.02 €'): as written -> the sign put before it
    suffix_signs: dict[str, str] = field(default_factory=dict)
    decimal_comma: bool = False  # '1.500,25': a decimal comma, points between thousands
    all_in: str = ""  # the words that end an all-in action (' и олл-ин'): ' and is all-in'
    # the street markers: '*** ИТОГ ***' -> '*** SUMMARY ***' (the rest of the line, cards, kept)
    markers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CompiledLanguage:
    language: Language
    lines: tuple[tuple[re.Pattern[str], str], ...]
    words: tuple[tuple[re.Pattern[str], str], ...]
    date: re.Pattern[str] | None
    amount_in_text: re.Pattern[str] | None  # an amount with its suffix inside a 'tail'


def _compile(lang: Language) -> CompiledLanguage:
    lines = tuple((re.compile("^" + p.replace("{A}", lang.amount) + "$"), t) for p, t in lang.lines)
    words = tuple((re.compile(p), r) for p, r in lang.words)
    suffixes = "|".join(re.escape(s) for s in sorted(lang.suffix_signs, key=len, reverse=True))
    amount_in_text = re.compile(rf"(\d[\d.,]*)(?P<suffix>{suffixes})(?!\w)") if suffixes else None
    return CompiledLanguage(lang, lines, words, re.compile(lang.date) if lang.date else None, amount_in_text)


def english_amount(c: CompiledLanguage, text: str) -> str:
    """An amount as the language writes it, in PokerStars' English shape.

    >>> english_amount(_compile(SPANISH), "4.59 €"), english_amount(_compile(SPANISH), "6 €")
    ('€4.59', '€6')
    >>> english_amount(_compile(Language("x", (), "", (), decimal_comma=True, suffix_signs={" €": "€"})), "1.500,25 €")
    '€1500.25'
    """
    lang = c.language
    sign = ""
    for suffix, s in lang.suffix_signs.items():
        if text.endswith(suffix):
            text, sign = text[: -len(suffix)], s
            break
    if lang.decimal_comma:
        text = text.replace(".", "").replace(",", ".")
    return sign + text


def _tail(c: CompiledLanguage, text: str) -> str:
    """A 'tail' group: the language's games, words, dates and amounts in English."""
    for written, english in c.language.games.items():
        if written in text:
            text = text.replace(written, english)
    for pattern, repl in c.words:
        text = pattern.sub(repl, text)
    if c.date is not None:
        text = c.date.sub(lambda m: f"{m.group('y')}/{m.group('mo')}/{m.group('d')}", text)
    if c.amount_in_text is not None:
        text = c.amount_in_text.sub(lambda m: english_amount(c, m.group(0)), text)
    return text


def translate_line(c: CompiledLanguage, line: str) -> str | None:
    """The line's English form, or None where no entry of the language matches it."""
    text = line.rstrip()
    lang = c.language
    if text.startswith("*** ") and lang.markers:
        end = text.find(" ***", 4)
        head = text[: end + 4] if end > 0 else text
        english = lang.markers.get(head)
        return english + text[len(head) :] if english is not None else None
    all_in = ""
    if lang.all_in and text.endswith(lang.all_in):
        text, all_in = text[: -len(lang.all_in)], " and is all-in"
    for pattern, template in c.lines:
        m = pattern.match(text)
        if m is None:
            continue
        fields = {}
        for name, value in m.groupdict().items():
            if value is None:
                value = ""
            elif name.startswith("a"):
                value = english_amount(c, value)
            elif name == "tail":
                value = _tail(c, value)
            fields[name] = value
        return template.format(**fields) + all_in
    return None


def translate(c: CompiledLanguage, texts: list[str]) -> dict[int, str]:
    """The English form of each line of a hand that the language's entries read, by index."""
    out: dict[int, str] = {}
    for k, line in enumerate(texts):
        english = translate_line(c, line)
        if english is not None:
            out[k] = english
    return out


# --- the languages --------------------------------------------------------------------
# Each entry from real exports of the client in that language (docs/sites.md).

RUSSIAN = Language(
    name="ru",
    prefixes=("Раздача PokerStars №",),
    start=r"Раздача PokerStars №\d+:",
    lines=(
        (r"Раздача PokerStars №(?P<num>\d+): +(?P<tail>.*)", "PokerStars Hand #{num}: {tail}"),
        (r"Стол '(?P<name>.*)' (?P<max>\d+)-max Баттон на месте №(?P<btn>\d+)",
         "Table '{name}' {max}-max Seat #{btn} is the button"),
        (r"Место (?P<seat>\d+): (?P<p>.+) \((?P<a>{A}) фишек\)", "Seat {seat}: {p} ({a} in chips)"),
        (r"(?P<p>.+): ставит малый блайнд (?P<a>{A})", "{p}: posts small blind {a}"),
        (r"(?P<p>.+): ставит большой блайнд (?P<a>{A})", "{p}: posts big blind {a}"),
        (r"Карты (?P<p>.+) (?P<c>\[[^\]]*\])", "Dealt to {p} {c}"),
        (r"(?P<p>.+): делает фолд", "{p}: folds"),
        (r"(?P<p>.+): делает чек", "{p}: checks"),
        (r"(?P<p>.+): делает колл (?P<a>{A})", "{p}: calls {a}"),
        (r"(?P<p>.+): делает бет (?P<a>{A})", "{p}: bets {a}"),
        # 'raises by, to' with no word between
        (r"(?P<p>.+): делает рейз (?P<a>{A}) (?P<a2>{A})", "{p}: raises {a} to {a2}"),
        (r"(?P<p>.+): открывает (?P<c>\[[^\]]*\])(?P<rest>.*)", "{p}: shows {c}{rest}"),
        (r"(?P<p>.+): не показывает руку", "{p}: doesn't show hand"),
        (r"Неуравненная ставка \((?P<a>{A})\) возвращается игроку (?P<p>.+)", "Uncalled bet ({a}) returned to {p}"),
        (r"(?P<p>.+) получил (?P<a>{A}) \( банк\)", "{p} collected {a} from pot"),
        (r"(?P<p>.+) покидает стол", "{p} leaves the table"),
        (r"(?P<p>.+) садится за стол на место №(?P<seat>\d+)", "{p} joins the table at seat #{seat}"),
        (r"Общий банк (?P<a>{A}) \| Доля (?P<a2>{A})", "Total pot {a} | Rake {a2}"),
        (r"Борд (?P<c>\[[^\]]*\])", "Board {c}"),
        (r"Место (?P<seat>\d+): (?P<tail>.+)", "Seat {seat}: {tail}"),
    ),
    games={"Холдем Безлимитный": "Hold'em No Limit"},
    words=(
        # the summary: a seat's award, its cards shown
        (r" собрал \(", " collected ("),
        (r" выиграл \(", " won ("),
        (r" открыл \[", " showed ["),
    ),
    date=r"\b(?P<d>\d{2})\.(?P<mo>\d{2})\.(?P<y>\d{4})\b",
    all_in=" и олл-ин",
    markers={
        "*** ЗАКРЫТЫЕ КАРТЫ ***": "*** HOLE CARDS ***",
        "*** ФЛОП ***": "*** FLOP ***",
        "*** ТЕРН ***": "*** TURN ***",
        "*** РИВЕР ***": "*** RIVER ***",
        "*** ВСКРЫТИЕ КАРТ ***": "*** SHOW DOWN ***",
        "*** ИТОГ ***": "*** SUMMARY ***",
    },
)

PORTUGUESE = Language(
    name="pt",
    prefixes=("Mão PokerStars #",),
    start=r"Mão PokerStars #\d+:",
    lines=(
        (r"Mão PokerStars #(?P<num>\d+): +(?P<tail>.*)", "PokerStars Hand #{num}: {tail}"),
        (r"Mesa '(?P<name>.*)' (?P<max>\d+)-max Lugar #(?P<btn>\d+) é o botão",
         "Table '{name}' {max}-max Seat #{btn} is the button"),
        (r"Lugar (?P<seat>\d+): (?P<p>.+) \((?P<a>[^\s(),]+),? em fichas\)", "Seat {seat}: {p} ({a} in chips)"),
        (r"Lugar (?P<seat>\d+): (?P<p>.+) \((?P<a>[^\s(),]+),? em fichas\) está sit out",
         "Seat {seat}: {p} ({a} in chips) is sitting out"),
        (r"(?P<p>.+): coloca ante (?P<a>{A})", "{p}: posts the ante {a}"),
        (r"(?P<p>.+): paga o small blind (?P<a>{A})", "{p}: posts small blind {a}"),
        (r"(?P<p>.+): paga o big blind (?P<a>{A})", "{p}: posts big blind {a}"),
        (r"(?P<p>.+) recebe (?P<c>\[[^\]]*\])", "Dealt to {p} {c}"),
        (r"(?P<p>.+): desiste", "{p}: folds"),
        (r"(?P<p>.+): passa", "{p}: checks"),
        (r"(?P<p>.+): iguala (?P<a>{A})", "{p}: calls {a}"),
        (r"(?P<p>.+): aposta (?P<a>{A})", "{p}: bets {a}"),
        (r"(?P<p>.+): aumenta (?P<a>{A}) para (?P<a2>{A})", "{p}: raises {a} to {a2}"),
        (r"Aposta não-igualada \((?P<a>{A})\) voltou para (?P<p>.+)", "Uncalled bet ({a}) returned to {p}"),
        (r"(?P<p>.+) recebeu (?P<a>{A}) do pote", "{p} collected {a} from pot"),
        (r"(?P<p>.+): não mostra a mão", "{p}: doesn't show hand"),
        (r"(?P<p>.+) está sem ligação", "{p} is disconnected"),
        (r"Total pote (?P<a>{A}) \| comissão (?P<a2>{A})", "Total pot {a} | Rake {a2}"),
        (r"Mesa (?P<c>\[[^\]]*\])", "Board {c}"),
        (r"Lugar (?P<seat>\d+): (?P<tail>.+)", "Seat {seat}: {tail}"),
    ),
    words=(
        (r"^Torneio #", "Tournament #"),
        (r" - Nível ", " - Level "),
        (r" recebeu \(", " collected ("),
    ),
    all_in=" e está all-in",
    markers={
        "*** CARTAS DA MÃO ***": "*** HOLE CARDS ***",
        "*** FLOP ***": "*** FLOP ***",
        "*** TURN ***": "*** TURN ***",
        "*** RIVER ***": "*** RIVER ***",
        "*** SUMÁRIO ***": "*** SUMMARY ***",
    },
)

# The client in Portuguese of Portugal (PokerStars.pt, euros; a 2026 cash export): another
# dialect than the Brazilian one above, with its own header ('Mão #N da PokerStars:'), its
# own words ('é small blind', 'sobe .. para ..', '*** CARTAS HOLE ***') and the euro after
# the amount ('0.02 €'); the words both write are entered in each.
PORTUGUESE_PT = Language(
    name="pt-PT",
    prefixes=("Mão #",),
    start=r"Mão #\d+ da PokerStars:",
    amount=r"[^\s()]+(?: €)?",
    suffix_signs={" €": "€"},
    lines=(
        (r"Mão #(?P<num>\d+) da PokerStars: +(?P<tail>.*)", "PokerStars Hand #{num}: {tail}"),
        (r"Mesa '(?P<name>.*)' (?P<max>\d+)-max Lugar #(?P<btn>\d+) é o botão",
         "Table '{name}' {max}-max Seat #{btn} is the button"),
        (r"Lugar (?P<seat>\d+): (?P<p>.+) \((?P<a>{A}) em fichas\)", "Seat {seat}: {p} ({a} in chips)"),
        (r"(?P<p>.+): é small blind (?P<a>{A})", "{p}: posts small blind {a}"),
        (r"(?P<p>.+): é big blind (?P<a>{A})", "{p}: posts big blind {a}"),
        (r"(?P<p>.+): é small & big blinds (?P<a>{A})", "{p}: posts small & big blinds {a}"),
        (r"(?P<p>.+) recebe (?P<c>\[[^\]]*\])", "Dealt to {p} {c}"),
        (r"(?P<p>.+): desiste", "{p}: folds"),
        (r"(?P<p>.+): passa", "{p}: checks"),
        (r"(?P<p>.+): iguala (?P<a>{A})", "{p}: calls {a}"),
        (r"(?P<p>.+): aposta (?P<a>{A})", "{p}: bets {a}"),
        (r"(?P<p>.+): sobe (?P<a>{A}) para (?P<a2>{A})", "{p}: raises {a} to {a2}"),
        (r"(?P<p>.+): mostra (?P<c>\[[^\]]*\])(?P<rest>.*)", "{p}: shows {c}{rest}"),
        # at the showdown: the summary writes the cards ('escondeu as cartas [Kh Jd]': mucked)
        (r"(?P<p>.+): esconde a mão", "{p}: mucks hand"),
        (r"(?P<p>.+): não mostra a mão", "{p}: doesn't show hand"),
        (r"Aposta não-igualada \((?P<a>{A})\) voltou para (?P<p>.+)", "Uncalled bet ({a}) returned to {p}"),
        (r"(?P<p>.+) recebeu (?P<a>{A}) do pote", "{p} collected {a} from pot"),
        (r"(?P<p>.+) está sem ligação", "{p} is disconnected"),
        (r"(?P<p>.+) gastou o tempo", "{p} has timed out"),
        (r"(?P<p>.+) abandona a mesa", "{p} leaves the table"),
        (r"(?P<p>.+) junta-se à mesa no lugar #(?P<seat>\d+)", "{p} joins the table at seat #{seat}"),
        (r"(?P<p>.+) poderá jogar depois do botão", "{p} will be allowed to play after the button"),
        (r"Total pote (?P<a>{A}) \| comissão (?P<a2>{A})", "Total pot {a} | Rake {a2}"),
        (r"Mesa (?P<c>\[[^\]]*\])", "Board {c}"),
        (r"Lugar (?P<seat>\d+): (?P<tail>.+)", "Seat {seat}: {tail}"),
    ),
    words=(
        # the summary: a seat's award, its cards shown or mucked
        (r" recebeu \(", " collected ("),
        (r" e ganhou \(", " and won ("),
        (r" mostrou \[", " showed ["),
        (r" escondeu as cartas \[", " mucked ["),
    ),
    all_in=" e está all-in",
    markers={
        "*** CARTAS HOLE ***": "*** HOLE CARDS ***",
        "*** FLOP ***": "*** FLOP ***",
        "*** TURN ***": "*** TURN ***",
        "*** RIVER ***": "*** RIVER ***",
        "*** SHOW DOWN ***": "*** SHOW DOWN ***",
        "*** SUMÁRIO ***": "*** SUMMARY ***",
    },
)

SPANISH = Language(
    name="es",
    prefixes=("Mano n.º ",),
    start=r"Mano n\.º \d+ de (?:Zoom de )?PokerStars:",
    amount=r"[^\s()]+(?: €)?",
    suffix_signs={" €": "€"},
    lines=(
        (r"Mano n\.º (?P<num>\d+) de (?:(?P<zoom>Zoom )de )?PokerStars: +(?P<tail>.*)",
         "PokerStars {zoom}Hand #{num}: {tail}"),
        (r'Mesa "(?P<name>.*)" (?P<max>\d+)-max El asiento n\.º (?P<btn>\d+) es el botón',
         "Table '{name}' {max}-max Seat #{btn} is the button"),
        (r"Asiento (?P<seat>\d+): (?P<p>.+) \((?P<a>{A}) en fichas\)", "Seat {seat}: {p} ({a} in chips)"),
        (r"(?P<p>.+): pone la ciega pequeña (?P<a>{A})", "{p}: posts small blind {a}"),
        (r"(?P<p>.+): pone la ciega grande (?P<a>{A})", "{p}: posts big blind {a}"),
        (r"Repartidas a (?P<p>.+) (?P<c>\[[^\]]*\])", "Dealt to {p} {c}"),
        (r"(?P<p>.+): se retira", "{p}: folds"),
        (r"(?P<p>.+): pasa", "{p}: checks"),
        (r"(?P<p>.+): iguala (?P<a>{A})", "{p}: calls {a}"),
        (r"(?P<p>.+): apuesta (?P<a>{A})", "{p}: bets {a}"),
        (r"(?P<p>.+): sube (?P<a>{A}) a (?P<a2>{A})", "{p}: raises {a} to {a2}"),
        (r"(?P<p>.+): muestra (?P<c>\[[^\]]*\])(?P<rest>.*)", "{p}: shows {c}{rest}"),
        (r"(?P<p>.+): descarta su mano sin mostrar", "{p}: mucks hand"),
        (r"(?P<p>.+): no muestra su mano", "{p}: doesn't show hand"),
        (r"(?P<p>.+) no tiene conexión", "{p} is disconnected"),
        (r"(?P<p>.+) ha agotado su tiempo mientras siga sin conexión", "{p} has timed out while disconnected"),
        (r"La apuesta no igualada \((?P<a>{A})\) ha sido devuelta a (?P<p>.+)", "Uncalled bet ({a}) returned to {p}"),
        (r"(?P<p>.+) se lleva (?P<a>{A}) del bote", "{p} collected {a} from pot"),
        (r"Bote total (?P<a>{A}) \| Comisión (?P<a2>{A})", "Total pot {a} | Rake {a2}"),
        (r"Comunitarias (?P<c>\[[^\]]*\])", "Board {c}"),
        (r"Asiento (?P<seat>\d+): (?P<tail>.+)", "Seat {seat}: {tail}"),
    ),
    words=(
        # the summary: a seat's award, its cards shown or mucked
        (r" recaudó \(", " collected ("),
        (r" y ganó \(", " and won ("),
        (r" muestra \[", " showed ["),
        (r" descartó sin mostrar \[", " mucked ["),
    ),
    date=r"\b(?P<d>\d{2})-(?P<mo>\d{2})-(?P<y>\d{4})\b",
    markers={
        "*** CARTAS DE MANO ***": "*** HOLE CARDS ***",
        "*** RESUMEN ***": "*** SUMMARY ***",
    },
)

# The French client seen writes the header and the table's money in French and the rest in
# English, with a space before the colon after a player's name ('Ann : folds').
FRENCH = Language(
    name="fr",
    prefixes=("Main PokerStars n°",),
    start=r"Main PokerStars n°\d+ :",
    lines=(
        (r"Main PokerStars n°(?P<num>\d+) : +(?P<tail>.*)", "PokerStars Hand #{num}: {tail}"),
        (r"Table '(?P<name>.*)' (?P<max>\d+)-max \(argent fictif\) Seat #(?P<btn>\d+) is the button",
         "Table '{name}' {max}-max (Play Money) Seat #{btn} is the button"),
        (r"(?P<p>.+?) : (?P<act>.+)", "{p}: {act}"),
    ),
    date=r"\b(?P<d>\d{2})/(?P<mo>\d{2})/(?P<y>\d{4})\b",
)

SWEDISH = Language(
    name="sv",
    prefixes=("PokerStars hand nr ",),
    start=r"PokerStars hand nr \d+:",
    lines=(
        (r"PokerStars hand nr (?P<num>\d+): +(?P<tail>.*)", "PokerStars Hand #{num}: {tail}"),
        (r"Bord '(?P<name>.*)' (?P<max>\d+)-max Plats #(?P<btn>\d+) har knappen",
         "Table '{name}' {max}-max Seat #{btn} is the button"),
        (r"Plats (?P<seat>\d+): (?P<p>.+) \((?P<a>{A}) i marker\)", "Seat {seat}: {p} ({a} in chips)"),
        (r"Plats (?P<seat>\d+): (?P<p>.+) \((?P<a>{A}) i marker\) står över",
         "Seat {seat}: {p} ({a} in chips) is sitting out"),
        (r"(?P<p>.+): lägger small blind (?P<a>{A})", "{p}: posts small blind {a}"),
        (r"(?P<p>.+): lägger big blind (?P<a>{A})", "{p}: posts big blind {a}"),
        (r"Utdelat till (?P<p>.+) (?P<c>\[[^\]]*\])", "Dealt to {p} {c}"),
        (r"(?P<p>.+): fold", "{p}: folds"),
        (r"(?P<p>.+): check", "{p}: checks"),
        (r"(?P<p>.+): call (?P<a>{A})", "{p}: calls {a}"),
        (r"(?P<p>.+): bet (?P<a>{A})", "{p}: bets {a}"),
        (r"(?P<p>.+): raise (?P<a>{A}) till (?P<a2>{A})", "{p}: raises {a} to {a2}"),
        (r"(?P<p>.+): visar (?P<c>\[[^\]]*\])(?P<rest>.*)", "{p}: shows {c}{rest}"),
        (r"(?P<p>.+): visar inte sin hand", "{p}: doesn't show hand"),
        # at the showdown: the summary writes the cards ('visade ej [As 2h]': mucked)
        (r"(?P<p>.+): visar inte", "{p}: mucks hand"),
        (r"Ej synad satsning \((?P<a>{A})\) returnerad till (?P<p>.+)", "Uncalled bet ({a}) returned to {p}"),
        (r"(?P<p>.+) vann (?P<a>{A}) från potten", "{p} collected {a} from pot"),
        # a side pot's collects (two spaces after 'från', as written)
        (r"(?P<p>.+) vann (?P<a>{A}) från  huvudpotten", "{p} collected {a} from main pot"),
        (r"(?P<p>.+) vann (?P<a>{A}) från  sidopotten", "{p} collected {a} from side pot"),
        (r"(?P<p>.+) avslutade turneringen på (?P<n>\d+):e plats", "{p} finished the tournament in {n}th place"),
        (r"(?P<p>.+) har förlorat anslutningen", "{p} is disconnected"),
        (r"(?P<p>.+) har kommit tillbaka", "{p} has returned"),
        (r"(?P<p>.+) tid har gått ut", "{p} has timed out"),
        (r"(?P<p>.+) står över", "{p} is sitting out"),
        (r"(?P<p>.+) lämnar bordet", "{p} leaves the table"),
        (r"(?P<p>.+) sätter sig ned vid bordet på plats #(?P<seat>\d+)", "{p} joins the table at seat #{seat}"),
        # the pots after the total ('Total pott 2666 Huvudpott 2042. Sidopott 624. | Avgift 0')
        (r"Total pott (?P<a>{A})(?P<tail>(?: [^|]*)?) \| Avgift (?P<a2>{A})", "Total pot {a}{tail} | Rake {a2}"),
        (r"Bord (?P<c>\[[^\]]*\])", "Board {c}"),
        (r"Plats (?P<seat>\d+): (?P<tail>.+)", "Seat {seat}: {tail}"),
    ),
    games={"Holdem No limit": "Hold'em No Limit"},
    words=(
        (r"^Turnering #", "Tournament #"),
        (r" - Nivå ", " - Level "),
        (r" Huvudpott ", " Main pot "),
        (r" Sidopott ", " Side pot "),
        # the summary: a seat's award, its cards shown or mucked
        (r" och vann \(", " and won ("),
        (r" vann \(", " collected ("),
        (r" visade ej \[", " mucked ["),
        (r" visade \[", " showed ["),
    ),
    date=r"\b(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\b",
    all_in=" och är all-in",
    markers={
        "*** HÅLKORT ***": "*** HOLE CARDS ***",
        "*** FLOPP ***": "*** FLOP ***",
        "*** TURN ***": "*** TURN ***",
        "*** RIVER ***": "*** RIVER ***",
        "*** VISNING ***": "*** SHOW DOWN ***",
        "*** SAMMANFATTNING ***": "*** SUMMARY ***",
    },
)

LANGUAGES: tuple[Language, ...] = (RUSSIAN, PORTUGUESE, PORTUGUESE_PT, SPANISH, FRENCH, SWEDISH)
_COMPILED: dict[str, CompiledLanguage] = {lang.name: _compile(lang) for lang in LANGUAGES}
PREFIXES: tuple[str, ...] = tuple(p for lang in LANGUAGES for p in lang.prefixes)


def language_of(header: str, languages: tuple[Language, ...] = LANGUAGES) -> CompiledLanguage | None:
    """The language a header is written in (None: none of ``languages``).

    An English header pays one prefix test: every language's prefixes at once.
    """
    if not header.startswith(PREFIXES if languages is LANGUAGES else tuple(p for g in languages for p in g.prefixes)):
        return None
    for lang in languages:
        if header.startswith(lang.prefixes) and re.match(lang.start, header):
            return _COMPILED.get(lang.name) or _compile(lang)
    return None


def starts(languages: tuple[Language, ...] = LANGUAGES) -> str:
    """The languages' header starts as one regex (no groups)."""
    return "|".join(f"(?:{lang.start})" for lang in languages)
