"""One hand's evidence for the terminal (``tda-audit explain``): text, Markdown or JSON.

The evidence is :func:`reports.data.hand_evidence`: the hand, its findings with
the rules they cite (quoted from the edition's document) and the timeline of
every recorded event with the replay's decision facts.

>>> amount(1250, 100), amount(1250, 1), amount(None, 1)
('12.50', '1250', '')
"""

from __future__ import annotations

import json
import textwrap

from auditor.manifest import markdown_block
from reports.data import offending
from reports.export import md_text



def _seat(f: dict) -> str:
    """', seat 3' for a finding about a seat; nothing for one about the whole hand."""
    return "" if f["seat"] is None else f", seat {f['seat']}"

def amount(v, scale) -> str:
    if v is None:
        return ""
    if not scale or scale == 1:
        return str(v)
    digits = len(str(scale)) - 1
    sign = "-" if v < 0 else ""
    return f"{sign}{abs(v) // scale}.{abs(v) % scale:0{digits}d}"


def action(r: dict, scale) -> str:
    k = r["kind"]
    s = k.replace("_", " ")
    if k in ("raise", "complete"):
        s += " to " + amount(r["to_amount"], scale)
    elif r["amount"] is not None:
        s += " " + (str(r["amount"]) if k in ("draw", "finish") else amount(r["amount"], scale))
    if r["all_in"]:
        s += " (all-in)"
    if r["cards"]:
        s += f" [{r['cards']}]"
    if r["pot_label"]:
        s += f" - {r['pot_label']}"
    return s


TIMELINE_HEAD = ("", "line", "street", "seat", "player", "action", "stack", "pot", "to call", "min raise-to", "open", "replay says")


def timeline_rows(ev: dict, hits: set[int]) -> list[tuple]:
    sc = ev["scale"]
    out = []
    for i, r in enumerate(ev["timeline"]):
        dec = r["action_class"] is not None
        says = r["action_class"] or ""
        if dec and r["expected_seat"] is not None and r["expected_seat"] != r["seat"]:
            says += f"; seat {r['expected_seat']} was to act"
        out.append((
            ">>" if i in hits else "", r["line_no"], r["street"], "" if r["seat"] is None else r["seat"], r["player"] or "",
            action(r, sc) + (" (inferred)" if r.get("inferred_from") else ""), amount(r["stack_before"], sc), amount(r["pot_before"], sc), amount(r["to_call"], sc),
            amount(r["min_raise_to"], sc),
            _open(r) if dec else "", says,
        ))
    return out


def _open(r: dict) -> str:
    """Whether betting was open; unknown where the history does not record the structure."""
    if r["betting_open"] is None:
        return f"unknown ({r['betting_open_why']})"
    return "yes" if r["betting_open"] else f"no ({r['betting_open_why']})"


def all_hits(ev: dict) -> set[int]:
    hits: set[int] = set()
    for f in ev["findings"]:
        hits |= offending(f, ev["timeline"])
    return hits


def rule_lines(ev: dict, check_id: str) -> list[tuple[str, str, bool]]:
    """(heading, text, from the document?) per rule a check cites."""
    out = []
    for c in ev["rules"].get(check_id, {}).get("citations", []):
        if c.get("missing"):
            out.append((f"{ev['edition']} has no rule for this check", c["note"] or "", False))
        else:
            out.append((f"{ev['edition'].upper()} Rule {c['ref']}: {c['title']}", c["text"] or c["quote"] or "", bool(c["text"])))
    return out


def header_pairs(ev: dict) -> list[tuple[str, str]]:
    sc = ev["scale"]
    level = ev["level"] or ""
    if ev["big_blind"] is not None:
        level += f" (blinds {amount(ev['small_blind'], sc)}/{amount(ev['big_blind'], sc)}" + (
            f", ante {amount(ev['ante'], sc)})" if ev["ante"] else ")")
    return [
        ("site", ev.get("site") or ""),
        ("tournament", " - ".join(x for x in (ev["tournament_id"], ev["tournament_name"]) if x)),
        ("table", ev["table_name"] or ""),
        ("game", ev["game_label"] or f"{ev['variant']} {ev['betting']}"),
        ("level", level.strip()),
        ("started", ev["started_at_text"] or ""),
        ("button", f"seat {ev['button_seat']}" if ev["button_seat"] is not None else ""),
        # a stack the record does not know (PHH's inf) is NULL: said so, not left blank
        ("seats", "; ".join(f"{s['seat']}: {s['player']} "
                            f"({'stack not recorded' if s['starting_stack'] is None else amount(s['starting_stack'], sc)})"
                            for s in ev["seats"])),
        ("source", f"{ev['source_path']} lines {ev['first_line']}-{ev['last_line']}"),
        ("sha256", ev["sha256"]),
        ("rules", ev["edition"]),
    ]


def inferred_events(ev: dict) -> list[str]:
    """The events the record implies but does not write: the parser's (``events.inferred_from``)
    and the uncalled returns the replay infers (``hand_results.returned_basis``)."""
    out = []
    for r in ev.get("timeline", []):
        if r.get("inferred_from"):
            who = "" if r["seat"] is None else f"seat {r['seat']}" + (f" ({r['player']})" if r["player"] else "") + " "
            out.append(f"line {r['line_no']}: {who}{action(r, ev['scale'])}: inferred, not recorded; "
                       f"inferred from lines {', '.join(map(str, r['inferred_from']))}")
    for r in ev.get("results", []):
        if r.get("returned_basis") == "inferred":
            who = f"seat {r['seat']}" + (f" ({r['player']})" if r["player"] else "")
            out.append(f"uncalled {amount(r['returned_expected'], ev['scale'])} returned to {who}: inferred, not recorded "
                       f"(the history writes no return line); "
                       + (f"inferred from {r['returned_from']}" if r["returned_from"]
                          else "no line of the hand supports it"))
    return out


def unread_lines(ev: dict) -> list[str]:
    """The hand's lines the parser did not understand (``events.kind = 'unread'``), as
    written: the replay applied nothing of them (docs/semantics.md, "Lines not understood")."""
    out = []
    for r in ev.get("timeline", []):
        if r["kind"] == "unread":
            who = "" if r["seat"] is None else f", seat {r['seat']}" + (f" ({r['player']})" if r["player"] else "")
            out.append(f"line {r['line_no']} ({r['street']}{who}): {(r.get('text') or '').strip()!r}")
    return out


def to_text(ev: dict, width: int = 100) -> str:
    out = [f"Hand {ev['hand_id']}"]
    out += [f"  {k:10} {v}" for k, v in header_pairs(ev) if v]
    out.append("")
    if not ev["findings"]:
        out.append(f"No findings under {ev['edition']}.")
    for n, f in enumerate(ev["findings"], 1):
        title = ev["rules"].get(f["check_id"], {}).get("title", "")
        out.append(f"Finding {n}: {f['check_id']} ({f['category']}, {f['severity']}) - {title}")
        out += textwrap.wrap(f["message"], width, initial_indent="  ", subsequent_indent="  ")
        if f.get("category_basis"):
            out += textwrap.wrap(f"{f['category']}: {f['category_basis']}", width, initial_indent="  ", subsequent_indent="    ")
        out.append(f"  rule required: {f['expected'] or '-'}")
        out.append(f"  what happened: {f['actual'] or '-'}")
        out.append(f"  where: {f['street'] or '-'}{_seat(f)}, {f['source_path']}:{f['line_no']}")
        for head, text, from_doc in rule_lines(ev, f["check_id"]):
            out.append(f"  {head}" + ("" if from_doc else " (catalog quote)"))
            for para in text.split("\n"):
                out += textwrap.wrap(para, width, initial_indent="    | ", subsequent_indent="    | ")
        out.append("")
    rows = [TIMELINE_HEAD] + [tuple(str(c) for c in r) for r in timeline_rows(ev, all_hits(ev))]
    widths = [min(40, max(len(r[i]) for r in rows)) for i in range(len(TIMELINE_HEAD))]
    out.append("Timeline (>> marks the action a finding points at):")
    for r in rows:
        out.append("  " + "  ".join(c[:w].ljust(w) if i not in (1, 3, 6, 7, 8, 9) else c[:w].rjust(w)
                                     for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    if ev["pots"]:
        out.append("")
        out.append("Pots:")
        for p in ev["pots"]:
            out.append(f"  {p['pot_label']}: {amount(p['amount'], ev['scale'])}, eligible {p['eligible']}, "
                       f"winners {p['hi_winners']}" + (f" / low {p['lo_winners']}" if p["lo_winners"] is not None else "")
                       + (", verified" if p["verified"] else ", not verified") + (f" ({p['note']})" if p["note"] else ""))
    inferred = inferred_events(ev)
    if inferred:
        out.append("")
        out.append("Inferred events:")
        out += [f"  {x}" for x in inferred]
    unread = unread_lines(ev)
    if unread:
        out.append("")
        out.append("Lines not understood (kept as written; the replay applied nothing of them):")
        out += [f"  {x}" for x in unread]
    for n in ev["notes"]:
        out.append(f"Replay note: {n['code']}: {n['message']}")
    return "\n".join(out) + "\n"


def _md(v) -> str:
    return md_text(v)


def to_markdown(ev: dict) -> str:
    out = [f"# Hand {_md(ev['hand_id'])}", ""]
    out += [f"- **{k}**: {_md(v)}" for k, v in header_pairs(ev) if v]
    out.append("")
    if not ev["findings"]:
        out += [f"No findings under {ev['edition']}.", ""]
    for n, f in enumerate(ev["findings"], 1):
        title = ev["rules"].get(f["check_id"], {}).get("title", "")
        out += [f"## Finding {n}: `{f['check_id']}` ({f['category']}, {f['severity']}): {_md(title)}", "", _md(f["message"]), "",
                *([f"- **{f['category']}**: {_md(f['category_basis'])}"] if f.get("category_basis") else []),
                f"- **rule required**: {_md(f['expected'] or '-')}", f"- **what happened**: {_md(f['actual'] or '-')}",
                f"- **where**: {_md(f['street'] or '-')}{_seat(f)}, `{_md(f['source_path'])}:{f['line_no']}`", ""]
        for head, text, from_doc in rule_lines(ev, f["check_id"]):
            out.append(f"**{_md(head)}**" + ("" if from_doc else " (catalog quote)"))
            out.append("")
            out += ["> " + para for para in text.split("\n")]
            out.append("")
    out += ["## Timeline", "", "| " + " | ".join(h or "!" for h in TIMELINE_HEAD) + " |",
            "|" + "---|" * len(TIMELINE_HEAD)]
    for r in timeline_rows(ev, all_hits(ev)):
        cells = [_md(c) for c in r]
        if r[0]:
            cells = [f"**{c}**" if c else c for c in cells]
        out.append("| " + " | ".join(cells) + " |")
    inferred = inferred_events(ev)
    if inferred:
        out += ["", "## Inferred events", ""] + [f"- {_md(x)}" for x in inferred]
    unread = unread_lines(ev)
    if unread:
        out += ["", "## Lines not understood", "", "Kept as written; the replay applied nothing of them.", ""]
        out += [f"- {_md(x)}" for x in unread]
    if ev.get("manifest"):  # what it was made from: tda-audit verify
        out.append(markdown_block(ev["manifest"]))
    return "\n".join(out) + "\n"


def to_json(ev: dict) -> str:
    return json.dumps(ev, indent=2, default=str, ensure_ascii=False)
