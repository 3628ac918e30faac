// tda-audit dossier: one hand on a drawn table, stepped event by event, with the rules'
// facts at each action.  Mounted on a standalone dossier page (#dossier-data) or, in the
// report, on a hand's dossier the report embeds.  Everything from the histories is
// inserted as text (textContent), never as markup.
(function () {
  "use strict";

  var el = tdaEl;  // reports/dom.js

  function txt(v) { return v === null || v === undefined ? "" : String(v); }
  var SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

  // steps written as changes from the step before (reports/dossier.py compact): rebuilt whole
  function expand(steps) {
    var out = [], prev = null;
    steps.forEach(function (st) {
      if (!prev) { out.push(st); prev = st; return; }
      var cur = {};
      Object.keys(prev).forEach(function (k) { cur[k] = prev[k]; });
      Object.keys(st).forEach(function (k) {
        var v = st[k], p = prev[k];
        if (v && typeof v === "object" && !Array.isArray(v) && p && typeof p === "object" && !Array.isArray(p)) {
          var m = {};
          Object.keys(p).forEach(function (x) { m[x] = p[x]; });
          Object.keys(v).forEach(function (x) { if (v[x] === null) delete m[x]; else m[x] = v[x]; });
          cur[k] = m;
        } else cur[k] = v;
      });
      out.push(cur); prev = cur;
    });
    return out;
  }

  function mount(root, D, opts) {
    opts = opts || {};
    if (D.steps_compact) { D.steps = expand(D.steps); D.steps_compact = false; }
    // lists written as tables (reports/dossier.py table): objects again
    var unpack = function (t) {
      if (!t || !t.cols) return t;
      return t.rows.map(function (r) { var o = {}; t.cols.forEach(function (c, i) { o[c] = r[i]; }); return o; });
    };
    ["events", "results", "shares", "findings", "seats", "pots"].forEach(function (k) { D[k] = unpack(D[k]); });
    if (D.decision_cols) {
      D.events.forEach(function (e) {
        if (e.decision) { var o = {}; D.decision_cols.forEach(function (c, i) { o[c] = e.decision[i]; }); e.decision = o; }
      });
      D.decision_cols = null;
    }
    if (!D.rules) D.rules = opts.rules || {};
    var H = D.hand, scale = H.scale || 1, N = D.steps.length - 1;
    var prefix = opts.hashPrefix || "";
    var seatName = {};
    D.seats.forEach(function (s) { seatName[s.seat] = s.player; });
    function fmt(v) {
      if (v === null || v === undefined || v === "") return "";
      if (scale === 1) return String(v);
      var digits = String(scale).length - 1, neg = v < 0, a = Math.abs(v);
      var frac = String(a % scale);
      while (frac.length < digits) frac = "0" + frac;
      return (neg ? "-" : "") + Math.floor(a / scale) + "." + frac;
    }
    function who(seat) {
      if (seat === null || seat === undefined) return "nobody";
      return "seat " + seat + (seatName[seat] !== undefined ? " (" + seatName[seat] + ")" : "");
    }
    function seatList(v) {
      return v === null || v === undefined ? "unknown" : (v.length ? v.map(function (x) { return x === null ? "the player with no seat" : x; }).join(", ") : "none");
    }
    function card(c, up, stud) {
      if (!c) return el("span", { cls: "pcard back", title: "not shown" });
      var rank = c.slice(0, -1), suit = c.slice(-1).toLowerCase();
      var e = el("span", { cls: "pcard suit-" + suit + (stud ? (up ? " up" : " down") : ""), title: c + (stud ? (up ? " (up)" : " (down)") : "") },
        rank.replace("T", "10") + (SUITS[suit] || suit));
      return e;
    }
    var stud = D.stud;

    // where each finding points: step -> [finding index]
    var atStep = {};
    D.findings.forEach(function (f, i) { if (f.step !== null) (atStep[f.step] = atStep[f.step] || []).push(i); });

    // ---- skeleton -----------------------------------------------------------------------
    root.textContent = "";
    var stage = el("div", { cls: "stage" });
    var wrap = el("div", { cls: "table-wrap", role: "img", "aria-label": "the table" });
    wrap.appendChild(el("div", { cls: "felt" }));
    var center = el("div", { cls: "center" });
    wrap.appendChild(center);
    var slots = Math.max(H.max_seats || 0, Math.max.apply(null, D.seats.map(function (s) { return s.seat; }).concat([2])));
    var seatBox = {}, betBox = {};
    D.seats.forEach(function (s) {
      var b = el("div", { cls: "seat", "data-seat": String(s.seat) });
      seatBox[s.seat] = b; wrap.appendChild(b);
      var c = el("div", { cls: "bet", "data-seat": String(s.seat) });
      betBox[s.seat] = c; wrap.appendChild(c);
    });
    stage.appendChild(wrap);

    var controls = el("div", { cls: "controls" });
    var bFirst = el("button", { type: "button", id: prefix + "first", title: "first step (Home)" }, "first");
    var bPrev = el("button", { type: "button", id: prefix + "prev", title: "previous step (\u2190)" }, "\u25c0 back");
    var bNext = el("button", { type: "button", id: prefix + "next", title: "next step (\u2192)" }, "next \u25b6");
    var bLast = el("button", { type: "button", id: prefix + "last", title: "last step (End)" }, "last");
    var slider = el("input", { type: "range", min: "0", max: String(N), value: "0", step: "1", id: prefix + "slider",
      "aria-label": "step" });
    var stepLabel = el("span", { cls: "step-label", id: prefix + "step-label" });
    var track = el("div", { cls: "track" }, slider);
    var marks = el("div", { cls: "marks" });
    Object.keys(atStep).forEach(function (k) {
      var m = el("a", { cls: "mark", href: "#" + prefix + "step-" + k, title: "finding at step " + k + ": " +
        atStep[k].map(function (i) { return D.findings[i].check_id; }).join(", ") });
      m.style.left = (N ? 100 * (+k) / N : 0) + "%";
      marks.appendChild(m);
    });
    track.appendChild(marks);
    controls.appendChild(bFirst); controls.appendChild(bPrev); controls.appendChild(track);
    controls.appendChild(bNext); controls.appendChild(bLast); controls.appendChild(stepLabel);
    stage.appendChild(controls);

    var panel = el("aside", { cls: "panel", id: prefix + "panel", "aria-live": "polite" });
    var layout = el("div", { cls: "layout" }, stage, panel);
    root.appendChild(layout);
    var list = el("details", { cls: "events" }, el("summary", { text: "every event of the hand (" + N + " steps): click one to go to it" }));
    var evTable = el("table", { cls: "event-list" });
    list.appendChild(el("div", { cls: "scroll" }, evTable));
    root.appendChild(list);
    root.appendChild(showdownTable());

    // ---- drawing ------------------------------------------------------------------------
    function place() {
      var w = wrap.clientWidth, h = wrap.clientHeight;
      D.seats.forEach(function (s) {
        var a = Math.PI / 2 + 2 * Math.PI * (s.seat - 1) / slots;
        var b = seatBox[s.seat];
        var bw = b.offsetWidth || 130, bh = b.offsetHeight || 70;
        var rx = w / 2 - bw / 2 - 2, ry = h / 2 - bh / 2 - 2;
        var x = w / 2 + rx * Math.cos(a), y = h / 2 + ry * Math.sin(a);
        b.style.left = (x - bw / 2) + "px"; b.style.top = (y - bh / 2) + "px";
        var c = betBox[s.seat];
        c.style.left = (w / 2 + 0.58 * rx * Math.cos(a)) + "px"; c.style.top = (h / 2 + 0.55 * ry * Math.sin(a)) + "px";
      });
    }

    function eventText(e) {
      if (e.kind === "settlement") return "the pots as the rules award them (the replay's pots and end stacks)";
      var k = e.kind, s = k.replace(/_/g, " ");
      if (k === "raise" || k === "complete") s += " to " + fmt(e.to_amount);
      else if (k === "draw") s += " " + txt(e.amount) + (e.amount === 1 ? " card" : " cards");
      else if (k === "finish") s += ", place " + txt(e.amount);
      else if (e.amount !== null && e.amount !== undefined) s += " " + fmt(e.amount);
      if (e.all_in) s += " (all-in)";
      if (e.cards) s += " [" + e.cards + "]";
      if (e.pot_label) s += " \u2013 " + e.pot_label;
      if (e.run && e.run > 1) s += " (run " + e.run + ")";
      return (e.seat !== null && e.seat !== undefined ? who(e.seat) + ": " : e.player ? e.player + ": " : "") + s;
    }

    function drawTable(n) {
      var S = D.steps[n], e = n ? D.events[n - 1] : null;
      D.seats.forEach(function (s) {
        var b = seatBox[s.seat], k = String(s.seat);
        var folded = S.folded.indexOf(s.seat) >= 0, allin = S.all_in.indexOf(s.seat) >= 0;
        b.className = "seat" + (folded ? " folded" : "") + (allin ? " allin" : "") +
          (e && e.seat === s.seat ? " actor" : "") + (s.sitting_out ? " out" : "");
        b.textContent = "";
        var badges = el("span", { cls: "badges" });
        if (H.button_seat === s.seat) badges.appendChild(el("span", { cls: "badge dealer", title: "button" }, "D"));
        D.events.forEach(function (x) {
          if (x.seat === s.seat && (x.kind === "small_blind" || x.kind === "big_blind" || x.kind === "straddle" || x.kind === "bring_in" || x.kind === "dead_blind")) {
            var lab = { small_blind: "SB", big_blind: "BB", straddle: "STR", bring_in: "BI", dead_blind: "DB" }[x.kind];
            if (badges.textContent.indexOf(lab) < 0) badges.appendChild(el("span", { cls: "badge blind", title: x.kind.replace("_", " ") }, lab));
          }
        });
        b.appendChild(el("div", { cls: "name", title: s.player }, el("span", { cls: "seatno", text: s.seat + " " }), s.player));
        var st = S.stacks[k];
        b.appendChild(el("div", { cls: "stack" }, el("span", { cls: "chips", text: st === null || st === undefined ? "stack not recorded" : fmt(st) }),
          badges, folded ? el("span", { cls: "tag", text: "folded" }) : null, allin ? el("span", { cls: "tag", text: "all-in" }) : null));
        var cs = S.cards[k] || [];
        var hand = el("div", { cls: "hole" });
        if (!cs.length && !folded && !stud && n > 0 && S.street !== null) {
          for (var i = 0; i < D.hole_cards; i++) hand.appendChild(card("", false, false));
        }
        cs.forEach(function (c) { hand.appendChild(card(c[0], c[1], stud)); });
        b.appendChild(hand);
        var bet = S.bets[k];
        var bb = betBox[s.seat];
        bb.textContent = bet ? fmt(bet) : "";
        bb.hidden = !bet;
      });
      center.textContent = "";
      S.boards.forEach(function (bd, i) {
        if (!bd.length) return;
        var row = el("div", { cls: "board" }, S.boards.length > 1 ? el("span", { cls: "run", text: "run " + (i + 1) }) : null);
        bd.forEach(function (c) { row.appendChild(card(c, true, false)); });
        center.appendChild(row);
      });
      if (S.street === "settlement") {
        center.appendChild(el("div", { cls: "pot-total", text: "awarded by the rules" }));
      } else {
        center.appendChild(el("div", { cls: "pot-total" }, "pot ", el("b", { cls: "pot-amount", text: fmt(S.pot) }),
          S.pot !== S.middle ? " (" + fmt(S.middle) + " in the middle, " + fmt(S.pot - S.middle) + " in bets)" : "",
          S.house ? ", and " + fmt(S.house) + " the house added" : ""));
      }
      var pl = el("div", { cls: "pots" });
      S.pots.forEach(function (p, i) {
        var line = el("div", { cls: "pot" }, el("b", { text: (p.label || (i ? "side-" + i : "main")) + " " }), fmt(p.amount),
          " \u2013 seats " + seatList(p.eligible));
        if (p.hi_winners !== undefined) {
          line.appendChild(el("span", { cls: "winners", text: " \u2192 " + (p.lo_winners !== null ? "high " : "") +
            seatList(p.hi_winners) + (p.lo_winners !== null ? ", low " + seatList(p.lo_winners) : "") + (p.verified ? "" : " (not verified)") }));
        }
        pl.appendChild(line);
      });
      if (S.pots.length) center.appendChild(pl);
    }

    function fact(tbl, k, v, cls) {
      tbl.appendChild(el("tr", cls ? { cls: cls } : null, el("th", { text: k }), el("td", null, v)));
    }

    function findingCard(i) {
      var f = D.findings[i], r = D.rules[f.check_id] || {};
      var c = el("div", { cls: "finding cat-" + f.category, id: prefix + "finding-" + i });
      c.appendChild(el("h3", null, f.category + ": " + f.check_id + " \u2014 " + txt(r.title)));
      c.appendChild(el("p", { text: f.message }));
      (r.citations || []).forEach(function (ct) {
        if (ct.missing) { c.appendChild(el("p", { cls: "muted", text: D.edition + " has no rule for this check: " + txt(ct.note) })); return; }
        c.appendChild(el("div", { cls: "rule-head", text: D.edition.toUpperCase() + " Rule " + ct.ref + ": " + txt(ct.title) }));
        if (ct.text) c.appendChild(el("blockquote", { cls: "rule-text", text: ct.text }));
        else c.appendChild(el("blockquote", { cls: "rule-quote" }, txt(ct.quote),
          el("div", { cls: "muted", text: "(the catalog's quote: the edition's document was not available)" })));
      });
      var t = el("table", { cls: "kv" });
      fact(t, "the rule required", el("span", { cls: "expected", text: txt(f.expected) || "\u2014" }));
      fact(t, "what happened", el("span", { cls: "actual", text: txt(f.actual) || "\u2014" }));
      if (f.house_policy) fact(t, "house policy followed", txt(f.house_policy));
      if (f.category_basis) fact(t, "why " + f.category, txt(f.category_basis));
      fact(t, "where", (f.street ? f.street + ", " : "") + (f.seat !== null ? who(f.seat) + ", " : "") + "line " + txt(f.line_no));
      c.appendChild(t);
      return c;
    }

    function drawPanel(n) {
      var S = D.steps[n], e = n ? D.events[n - 1] : null;
      panel.textContent = "";
      panel.appendChild(el("h3", { cls: "step-head" }, n ? "Step " + n + " of " + N + (e.line_no && e.kind !== "settlement" ? " \u00b7 line " + e.line_no : "") +
        (S.street ? " \u00b7 " + S.street : "") : "Before the first event"));
      if (!e) {
        panel.appendChild(el("p", { text: "The seats and their starting stacks; the button at " + who(H.button_seat) + "." }));
      } else {
        var ev = el("p", { cls: "event" + (e.inferred_from ? " inferred" : "") + (e.kind === "unread" ? " unread" : "") }, eventText(e));
        panel.appendChild(ev);
        if (e.inferred_from) panel.appendChild(el("p", { cls: "flag inferred", text: "Inferred, not recorded: the history does not write this event; it is implied by lines " + e.inferred_from.join(", ") + "." }));
        if (e.kind === "unread") panel.appendChild(el("p", { cls: "flag unread", text: "A line not understood: kept as written; the replay applied nothing of it." }));
        if (e.text) panel.appendChild(el("pre", { cls: "source", text: e.text }));
      }
      var d = e && e.decision;
      var t = el("table", { cls: "kv facts", id: prefix + "facts" });
      if (d) {
        var actor = e.seat;
        fact(t, "to act (by the rules)", who(d.expected_seat) + (d.expected_seat !== null && d.expected_seat !== actor ? " \u2014 " + who(actor) + " acted out of turn" : ""), d.expected_seat !== null && d.expected_seat !== actor ? "bad" : "");
        if (d.to_act) fact(t, "still to act in the round", seatList(d.to_act));
        fact(t, "to call", el("span", { cls: "to-call", text: fmt(d.to_call) }));
        fact(t, "minimum raise-to", el("span", { cls: "min-raise", text: d.min_raise_to === null ? "not judged" : fmt(d.min_raise_to) }));
        fact(t, "maximum raise-to", el("span", { cls: "max-raise", text: (d.max_raise_to === null ? "not judged" : fmt(d.max_raise_to)) +
          " (" + D.max_label + (d.raise_cap !== null ? "; cap " + d.raise_cap + " bets and raises, " + d.bets_and_raises + " made" : "") + ")" }));
        var open = d.may_raise === null ? "unknown" : d.may_raise ? "open" : "closed";
        fact(t, "betting", el("span", { cls: "open open-" + open, text: open + " (" + txt(d.may_raise_reason).replace(/-/g, " ") + ")" }));
        var st = S.stacks[String(actor)];
        fact(t, "stack after", el("span", { cls: "stack-after", text: st === null || st === undefined ? "not recorded" : fmt(st) }));
        fact(t, "the replay says", txt(d.action_class), /under|over|short|out|facing|not-reopened/.test(d.action_class || "") ? "bad" : "");
      } else if (e && ["fold", "check", "call", "bet", "raise", "complete"].indexOf(e.kind) >= 0) {
        fact(t, "decision", "the replay stored no decision for this action");
      }
      fact(t, "pot", el("span", { cls: "pot-now", text: fmt(S.pot) }));
      var next = null;
      for (var j = n; j < D.events.length; j++) {
        if (D.events[j].decision) { next = D.events[j]; break; }
        if (D.events[j].street !== (e ? e.street : D.events[0].street) && D.events[j].kind === "deal_board") break;
      }
      if (next && next.street === (S.street || next.street)) fact(t, "next to act", who(next.decision.expected_seat) +
        ", to call " + fmt(next.decision.to_call));
      panel.appendChild(t);
      (atStep[n] || []).forEach(function (i) { panel.appendChild(findingCard(i)); });
      if (S.street === "settlement") {
        panel.appendChild(showdownTable());
        panel.appendChild(endStacks());
      } else if (e && e.kind === "show") {
        panel.appendChild(el("p", { cls: "muted", text: "The showdown: each hand's rank and the pots' shares are at the last step and below the replay." }));
      }
    }

    function drawList() {
      evTable.appendChild(el("thead", null, el("tr", null, el("th", { text: "step" }), el("th", { text: "line" }),
        el("th", { text: "street" }), el("th", { text: "event" }), el("th", { text: "replay says" }))));
      var body = el("tbody");
      D.events.forEach(function (e, i) {
        var n = i + 1;
        var tr = el("tr", { cls: (atStep[n] ? "hit" : "") + (e.inferred_from ? " inferred" : "") + (e.kind === "unread" ? " unread" : ""), "data-step": String(n) },
          el("td", null, el("a", { href: "#" + prefix + "step-" + n, text: String(n) })), el("td", { cls: "num", text: txt(e.line_no) }),
          el("td", { text: txt(e.street) }),
          el("td", { text: eventText(e) + (e.inferred_from ? " (inferred from lines " + e.inferred_from.join(", ") + ")" : "") + (e.kind === "unread" ? " (not understood: " + txt(e.text) + ")" : "") }),
          el("td", { text: e.decision ? txt(e.decision.action_class) : "" }));
        body.appendChild(tr);
      });
      evTable.appendChild(body);
    }

    function showdownTable() {
      var box = el("div", { cls: "showdown" });
      box.appendChild(el("h3", { text: "Showdown and award" }));
      if (!D.pots.length) { box.appendChild(el("p", { cls: "muted", text: "The replay built no pot for this hand (a record cut short, or nothing to award)." })); return box; }
      var t = el("table", { cls: "shares" });
      t.appendChild(el("thead", null, el("tr", null, el("th", { text: "pot" }), el("th", { cls: "num", text: "amount" }),
        el("th", { text: "seat" }), el("th", { text: "hand (evaluated)" }), el("th", { cls: "num", text: "rules award" }),
        el("th", { cls: "num", text: "of it odd chips" }), el("th", { cls: "num", text: "recorded" }))));
      var body = el("tbody");
      D.pots.forEach(function (p) {
        var mine = D.shares.filter(function (s) { return s.pot_index === p.pot_index && s.run === p.run && s.eligible; });
        var label = p.pot_label + (D.pots.some(function (q) { return q.run > 1; }) ? " (run " + p.run + ")" : "");
        var win = "winners: " + (p.lo_winners !== null ? "high " : "") + seatList(p.hi_winners) +
          (p.lo_winners !== null ? "; low " + seatList(p.lo_winners) + " (the pot is split in halves)" : "") + (p.verified ? "" : "; not verified: " + txt(p.note));
        body.appendChild(el("tr", { cls: "pot-row" }, el("td", { text: label }), el("td", { cls: "num", text: fmt(p.amount) }),
          el("td", { colspan: "5", text: "eligible seats " + seatList(p.eligible) + "; " + win })));
        mine.forEach(function (s) {
          var off = s.expected !== null && s.recorded !== null && s.expected !== s.recorded;
          body.appendChild(el("tr", { cls: off ? "bad" : "" }, el("td"), el("td"), el("td", { text: who(s.seat) }),
            el("td", { text: txt(s.hand_value) || "not shown" }), el("td", { cls: "num", text: s.expected === null ? "unknown" : fmt(s.expected) }),
            el("td", { cls: "num", text: s.odd_chips ? fmt(s.odd_chips) + " (the odd chip is this seat's)" : "" }),
            el("td", { cls: "num", text: s.recorded === null ? "" : fmt(s.recorded) })));
        });
      });
      t.appendChild(body);
      box.appendChild(el("div", { cls: "scroll" }, t));
      D.pots.forEach(function (p) {
        var mine = D.shares.filter(function (s) { return s.pot_index === p.pot_index && s.run === p.run; });
        var should = mine.filter(function (s) { return s.odd_chips; });
        if (!should.length) return;
        var got = mine.filter(function (s) { return s.recorded !== null && s.expected !== null && s.recorded > s.expected; });
        box.appendChild(el("p", { cls: "odd-chip" + (got.length ? " bad" : ""), text: "Odd chip of the " + p.pot_label +
          (p.run > 1 || D.pots.some(function (q) { return q.run > 1; }) ? " (run " + p.run + ")" : "") + " pot: the rules give it to " +
          should.map(function (s) { return who(s.seat); }).join(", ") +
          (got.length ? "; the history gave it to " + got.map(function (s) { return who(s.seat); }).join(", ") : "; the history agrees") + "." }));
      });
      return box;
    }

    function endStacks() {
      var t = el("table", { cls: "ends" });
      t.appendChild(el("thead", null, el("tr", null, el("th", { text: "seat" }), el("th", { cls: "num", text: "put in" }),
        el("th", { cls: "num", text: "returned" }), el("th", { cls: "num", text: "won" }),
        el("th", { cls: "num", text: "end (rules)" }), el("th", { cls: "num", text: "end (history)" }))));
      var b = el("tbody");
      D.results.forEach(function (r) {
        var off = r.end_stack_expected !== null && r.end_stack_recorded !== null && r.end_stack_expected !== r.end_stack_recorded;
        b.appendChild(el("tr", { cls: off ? "bad" : "" }, el("td", { text: who(r.seat) }), el("td", { cls: "num", text: fmt(r.contributed) }),
          el("td", { cls: "num", text: fmt(r.returned_expected) + (r.returned_basis === "inferred" ? " (inferred)" : "") }),
          el("td", { cls: "num", text: r.won_expected === null ? "unknown" : fmt(r.won_expected) }),
          el("td", { cls: "num", text: r.end_stack_expected === null ? "unknown" : fmt(r.end_stack_expected) }),
          el("td", { cls: "num", text: r.end_stack_recorded === null ? "not recorded" : fmt(r.end_stack_recorded) })));
      });
      t.appendChild(b);
      return el("div", { cls: "scroll" }, el("h3", { text: "Chips per seat" }), t);
    }

    // ---- stepping -----------------------------------------------------------------------
    var cur = -1;
    function go(n) {
      n = Math.max(0, Math.min(N, n | 0));
      cur = n;
      slider.value = String(n);
      stepLabel.textContent = n + " / " + N;
      drawTable(n);
      drawPanel(n);
      place();
      Array.prototype.forEach.call(evTable.querySelectorAll("tr.current"), function (r) { r.classList.remove("current"); });
      var row = evTable.querySelector('tr[data-step="' + n + '"]');
      if (row) row.classList.add("current");
      root.setAttribute("data-step", String(n));
      var want = "#" + prefix + "step-" + n;
      if (location.hash !== want && opts.hash !== false) history.replaceState(null, "", want);
    }
    drawList();
    bFirst.addEventListener("click", function () { go(0); });
    bPrev.addEventListener("click", function () { go(cur - 1); });
    bNext.addEventListener("click", function () { go(cur + 1); });
    bLast.addEventListener("click", function () { go(N); });
    slider.addEventListener("input", function () { go(+slider.value); });
    function onKey(ev) {
      if (!root.isConnected || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      var t = ev.target;
      if (t === slider || (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"))) return;
      if (ev.key === "ArrowRight") go(cur + 1);
      else if (ev.key === "ArrowLeft") go(cur - 1);
      else if (ev.key === "Home") go(0);
      else if (ev.key === "End") go(N);
      else return;
      ev.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    window.addEventListener("resize", place);
    var re = new RegExp("^#" + prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "step-(\\d+)$");
    function fromHash() {
      var m = re.exec(location.hash);
      if (m) { go(+m[1]); return true; }
      return false;
    }
    function onHash() { if (root.isConnected && fromHash()) root.scrollIntoView(); }
    window.addEventListener("hashchange", onHash);
    if (!fromHash()) go(opts.start || 0, opts.hash === false);
    else if (opts.scroll !== false) root.scrollIntoView();
    return {
      go: go, step: function () { return cur; }, data: D,
      destroy: function () {
        document.removeEventListener("keydown", onKey);
        window.removeEventListener("resize", place);
        window.removeEventListener("hashchange", onHash);
      }
    };
  }

  window.TdaDossier = { mount: mount };
  var data = document.getElementById("dossier-data"), root = document.querySelector("[data-dossier]");
  if (data && root) window.TdaDossier.current = mount(root, JSON.parse(data.textContent), {});
})();
