"""The games of iPoker session files as ElementTree elements, for tests that build new
sessions from real games (mutation, fuzzing, the 200 MB stream).

The files are cut at each game's tags before ET reads them: some hold several sessions,
are cut short, or end without '</session>'; a game ET cannot read whole is left out.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from parsers import iter_lines, open_source


def games_of(path: Path) -> list[tuple[ET.Element, ET.Element]]:
    """(the session's <general>, the <game>) for every game of ``path`` ET reads whole."""
    info = open_source(path)
    text = "\n".join(t for _, _, t in iter_lines(path, info.encoding))
    out = []
    start = 0
    while (g := text.find('<game gamecode="', start)) >= 0:
        end = text.find("</game>", g)
        if end < 0:
            break
        start = end + len("</game>")
        s = text.rfind("<session", 0, g)
        gs, ge = text.find("<general>", s), text.find("</general>", s)
        if s < 0 or gs < 0 or ge < 0 or ge > g:
            continue
        try:
            general = ET.fromstring(text[gs : ge + len("</general>")])
            game = ET.fromstring(text[g:start])
        except ET.ParseError:
            continue
        out.append((general, game))
    return out


def session_text(general: ET.Element, games: list[ET.Element], code: str = "1") -> str:
    """A session file holding ``games`` under ``general``, one element a line or more (indented)."""
    parts = []
    for e in (general, *games):
        e = ET.fromstring(ET.tostring(e))
        ET.indent(e, "  ", 1)
        parts.append("  " + ET.tostring(e, encoding="unicode").strip())
    body = "\n".join(parts)
    return f'<?xml version="1.0" encoding="utf-8"?>\n<session sessioncode="{code}">\n{body}\n</session>\n'
