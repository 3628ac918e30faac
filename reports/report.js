// tda-audit report: sort, filter and page the findings table; render a finding's
// evidence on demand from the JSON embedded in the page.  Everything taken from
// the data is inserted as text (textContent), never as markup.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var COLS = DATA.cols, C = {};
  COLS.forEach(function (c, i) { C[c] = i; });
  var PAGE = 50;

  var el = tdaEl;  // reports/dom.js

  function fmt(v, scale) {
    if (v === null || v === undefined || v === "") return "";
    if (!scale || scale === 1) return String(v);
    var digits = String(scale).length - 1;
    return (v / scale).toFixed(digits);
  }
  function txt(v) { return v === null || v === undefined ? "" : String(v); }

  // ---- findings table: filter, sort, page ------------------------------------------
  var table = document.getElementById("findings");
  var tbody = table ? table.tBodies[0] : null;
  var rows = tbody ? Array.prototype.slice.call(tbody.rows) : [];
  var matched = rows.slice();
  var page = 0;
  var q = document.getElementById("filter"), sevSel = document.getElementById("filter-severity"),
      chkSel = document.getElementById("filter-check");
  var info = document.getElementById("page-info"), shown = document.getElementById("shown-count");

  function applyFilter() {
    var words = (q && q.value || "").toLowerCase().split(/\s+/).filter(Boolean);
    var sev = sevSel ? sevSel.value : "", chk = chkSel ? chkSel.value : "";
    matched = rows.filter(function (r) {
      if (sev && r.getAttribute("data-severity") !== sev) return false;
      if (chk && r.getAttribute("data-check") !== chk) return false;
      var t = r.textContent.toLowerCase();
      return words.every(function (w) { return t.indexOf(w) >= 0; });
    });
    page = 0;
    render();
  }
  function render() {
    var pages = Math.max(1, Math.ceil(matched.length / PAGE));
    if (page >= pages) page = pages - 1;
    var lo = page * PAGE, hi = Math.min(matched.length, lo + PAGE);
    rows.forEach(function (r) { r.hidden = true; });
    // keep the table in the current sort order
    matched.forEach(function (r, i) { if (i >= lo && i < hi) r.hidden = false; });
    if (shown) shown.textContent = String(matched.length);
    if (info) info.textContent = matched.length ? ("rows " + (lo + 1) + "\u2013" + hi + " of " + matched.length +
      (matched.length !== rows.length ? " (filtered from " + rows.length + ")" : "") + ", page " + (page + 1) + " of " + pages)
      : "no finding matches the filter";
  }
  function sortBy(th, idx) {
    var asc = !th.classList.contains("sorted-asc");
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.classList.remove("sorted-asc", "sorted-desc"); });
    th.classList.add(asc ? "sorted-asc" : "sorted-desc");
    var key = function (r) { var c = r.cells[idx]; return c.getAttribute("data-sort") || c.textContent.trim(); };
    var num = rows.every(function (r) { var k = key(r); return k === "" || !isNaN(Number(k)); });
    rows.sort(function (a, b) {
      var x = key(a), y = key(b), d;
      if (num) d = (x === "" ? -1e300 : Number(x)) - (y === "" ? -1e300 : Number(y));
      else d = x.localeCompare(y, undefined, { numeric: true });
      return asc ? d : -d;
    });
    rows.forEach(function (r) { tbody.appendChild(r); });
    matched = rows.filter(function (r) { return matched.indexOf(r) >= 0; });
    render();
  }
  if (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () { sortBy(th, i); });
      th.title = "sort";
    });
    [q, sevSel, chkSel].forEach(function (c) { if (c) c.addEventListener("input", applyFilter); });
    var prev = document.getElementById("prev"), next = document.getElementById("next");
    if (prev) prev.addEventListener("click", function () { if (page > 0) { page--; render(); } });
    if (next) next.addEventListener("click", function () { if ((page + 1) * PAGE < matched.length) { page++; render(); } });
    Array.prototype.forEach.call(document.querySelectorAll("[data-filter-check]"), function (a) {
      a.addEventListener("click", function () { if (chkSel) { chkSel.value = a.getAttribute("data-filter-check"); applyFilter(); } });
    });
    render();
  }

  // ---- evidence ---------------------------------------------------------------------
  var box = document.getElementById("evidence-body");

  function ruleBlock(checkId) {
    var r = DATA.rules[checkId];
    var out = el("div", { cls: "rules" });
    if (!r) return out;
    r.citations.forEach(function (c) {
      if (c.missing) { out.appendChild(el("p", { cls: "muted", text: DATA.edition + " has no rule for this check: " + txt(c.note) })); return; }
      out.appendChild(el("div", { cls: "rule-head" }, DATA.edition.toUpperCase() + " Rule " + c.ref + ": " + txt(c.title)));
      if (c.text) out.appendChild(el("blockquote", { cls: "rule rule-text", text: c.text }));
      else out.appendChild(el("blockquote", { cls: "rule rule-quote" }, txt(c.quote),
        el("div", { cls: "muted", text: "(the catalog's quote: the edition's document was not available when the report was made)" })));
    });
    return out;
  }

  function findingCard(i, current, scale) {
    var f = DATA.findings[i];
    var r = DATA.rules[f.check_id] || {};
    var card = el("div", { cls: "finding" + (current ? " current" : ""), id: "ev-f-" + i });
    card.appendChild(el("h3", null, el("span", { cls: "sev sev-" + f.severity, text: f.severity }), " ",
      f.category + ": " + f.check_id + " \u2014 " + txt(r.title)));
    card.appendChild(el("p", { text: f.message }));
    if (f.category_basis) card.appendChild(el("p", { cls: "muted", text: f.category + ": " + f.category_basis }));
    var ex = el("div", { cls: "expect" });
    ex.appendChild(el("b", { text: "Rule required" })); ex.appendChild(el("span", { cls: "expected", text: txt(f.expected) || "\u2014" }));
    ex.appendChild(el("b", { text: "What happened" })); ex.appendChild(el("span", { cls: "actual", text: txt(f.actual) || "\u2014" }));
    ex.appendChild(el("b", { text: "Where" }));
    ex.appendChild(el("span", null, (f.street ? f.street + ", " : "") + (f.seat !== null ? "seat " + f.seat + (f.player ? " (" + f.player + ")" : "") + ", " : "") +
      "line " + txt(f.line_no) + " of ", el("code", { text: txt(f.source_path) })));
    card.appendChild(ex);
    if (r.rationale) card.appendChild(el("p", { cls: "muted", text: r.rationale }));
    card.appendChild(ruleBlock(f.check_id));
    return card;
  }

  function actionText(t, scale) {
    var k = t[C.kind], s = k.replace(/_/g, " ");
    if (k === "raise" || k === "complete") s += " to " + fmt(t[C.to_amount], scale);
    else if (t[C.amount] !== null && k !== "draw" && k !== "finish") s += " " + fmt(t[C.amount], scale);
    else if (t[C.amount] !== null) s += " " + t[C.amount];
    if (t[C.all_in]) s += " (all-in)";
    if (t[C.cards]) s += " [" + t[C.cards] + "]";
    if (t[C.pot_label]) s += " \u2013 " + t[C.pot_label];
    return s;
  }

  function timeline(h, hits, scale) {
    var t = el("table", { cls: "timeline" });
    t.appendChild(el("thead", null, el("tr", null,
      el("th", { text: "line" }), el("th", { text: "seat" }), el("th", { text: "player" }), el("th", { text: "action" }),
      el("th", { cls: "num", text: "stack" }), el("th", { cls: "num", text: "pot" }), el("th", { cls: "num", text: "to call" }),
      el("th", { cls: "num", text: "min raise-to" }), el("th", { cls: "num", text: "max raise-to" }),
      el("th", { text: "betting open" }), el("th", { text: "replay says" }), el("th", { text: "source line" }))));
    var body = el("tbody"), street = null;
    h.timeline.forEach(function (r, i) {
      if (r[C.street] !== street) {
        street = r[C.street];
        body.appendChild(el("tr", { cls: "street" }, el("td", { colspan: "12", text: street })));
      }
      var dec = r[C.action_class] !== null;
      var unknown = r[C.betting_open] === null;  // the history does not record the betting structure
      var open = dec ? el("span", { cls: unknown ? "open-unknown" : r[C.betting_open] ? "open-yes" : "open-no",
        text: (unknown ? "unknown" : r[C.betting_open] ? "yes" : "no") + " (" + txt(r[C.betting_open_why]) + ")" }) : "";
      var cls = r[C.action_class] || "";
      if (dec && r[C.expected_seat] !== null && r[C.expected_seat] !== r[C.seat]) cls += "; seat " + r[C.expected_seat] + " was to act";
      var tr = el("tr", { cls: hits[i] ? "hit" : "", "data-seq": String(r[C.seq]) },
        el("td", { cls: "num", text: txt(r[C.line_no]) }), el("td", { cls: "num", text: txt(r[C.seat]) }),
        el("td", { text: txt(r[C.player]) }), el("td", { text: actionText(r, scale) }),
        el("td", { cls: "num", text: fmt(r[C.stack_before], scale) }), el("td", { cls: "num", text: fmt(r[C.pot_before], scale) }),
        el("td", { cls: "num", text: fmt(r[C.to_call], scale) }), el("td", { cls: "num", text: fmt(r[C.min_raise_to], scale) }),
        el("td", { cls: "num", text: fmt(r[C.max_raise_to], scale) }), el("td", null, open), el("td", { text: cls }),
        el("td", { cls: "src mono", text: r[C.inferred_from] ? "inferred from lines " + r[C.inferred_from].join(", ") +
          (r[C.text] ? ": " + r[C.text] : "") : txt(r[C.text]) }));
      body.appendChild(tr);
    });
    t.appendChild(body);
    return el("div", { cls: "scroll" }, t);
  }

  function list(v) { return v === null || v === undefined ? "unknown" : (v.length ? v.join(", ") : "none"); }

  function pots(h, scale) {
    var t = el("table", null, el("thead", null, el("tr", null, el("th", { text: "pot" }), el("th", { cls: "num", text: "amount" }),
      el("th", { text: "eligible seats" }), el("th", { text: "winners (high)" }), el("th", { text: "winners (low)" }),
      el("th", { text: "verified" }), el("th", { text: "note" }))));
    var b = el("tbody");
    h.pots.forEach(function (p) {
      b.appendChild(el("tr", null, el("td", { text: p.pot_label }), el("td", { cls: "num", text: fmt(p.amount, scale) }),
        el("td", { text: list(p.eligible) }), el("td", { text: list(p.hi_winners) }),
        el("td", { text: p.lo_winners === null ? "\u2014" : list(p.lo_winners) }),
        el("td", { text: p.verified ? "yes" : "no" }), el("td", { text: txt(p.note) })));
    });
    t.appendChild(b);
    return t;
  }

  function results(h, scale) {
    var t = el("table", null, el("thead", null, el("tr", null, el("th", { text: "seat" }), el("th", { text: "player" }),
      el("th", { cls: "num", text: "start" }), el("th", { cls: "num", text: "put in" }),
      el("th", { cls: "num", text: "returned (rules)" }), el("th", { cls: "num", text: "returned (history)" }),
      el("th", { cls: "num", text: "won (rules)" }), el("th", { cls: "num", text: "won (history)" }),
      el("th", { cls: "num", text: "end (rules)" }), el("th", { cls: "num", text: "end (history)" }))));
    var b = el("tbody");
    h.results.forEach(function (r) {
      b.appendChild(el("tr", null, el("td", { cls: "num", text: txt(r.seat) }), el("td", { text: txt(r.player) }),
        el("td", { cls: "num", text: fmt(r.starting_stack, scale) }), el("td", { cls: "num", text: fmt(r.contributed, scale) }),
        el("td", { cls: "num", text: fmt(r.returned_expected, scale) }), el("td", { cls: "num", text: fmt(r.returned_recorded, scale) }),
        el("td", { cls: "num", text: fmt(r.won_expected, scale) }), el("td", { cls: "num", text: fmt(r.won_recorded, scale) }),
        el("td", { cls: "num", text: fmt(r.end_stack_expected, scale) }), el("td", { cls: "num", text: fmt(r.end_stack_recorded, scale) })));
    });
    t.appendChild(b);
    return t;
  }

  function showHand(handId, current) {
    var h = DATA.hands[handId];
    if (!box || !h) return;
    var scale = h.scale || 1;
    box.textContent = "";
    var head = el("div", { id: "evidence-hand" });
    head.appendChild(el("h3", { text: "Hand " + h.hand_id }));
    var kv = el("table", { cls: "kv" });
    function row(k, v) { if (v !== null && v !== undefined && v !== "") kv.appendChild(el("tr", null, el("th", { text: k }), el("td", null, v))); }
    row("tournament", txt(h.tournament_id) + (h.tournament_name ? " \u2013 " + h.tournament_name : ""));
    row("table", txt(h.table_name));
    row("game", [h.game_label || (h.variant + " " + h.betting)].join(""));
    row("level", txt(h.level) + (h.big_blind !== null ? " (blinds " + fmt(h.small_blind, scale) + "/" + fmt(h.big_blind, scale) +
      (h.ante ? ", ante " + fmt(h.ante, scale) : "") + ")" : ""));
    row("started", txt(h.started_at_text));
    row("button", h.button_seat === null ? "" : "seat " + h.button_seat);
    row("seats", h.seats.map(function (s) { return s[0] + ": " + s[1] + " (" + fmt(s[2], scale) + ")" + (s[3] ? " sitting out" : ""); }).join("; "));
    row("source", el("span", null, el("code", { text: h.source_path }), " lines " + h.first_line + "\u2013" + h.last_line));
    row("file sha256", el("code", { text: h.sha256 }));
    head.appendChild(kv);
    box.appendChild(head);
    var idx = [];
    DATA.findings.forEach(function (f, i) { if (f.hand_id === handId) idx.push(i); });
    var hits = {};
    idx.forEach(function (i) {
      box.appendChild(findingCard(i, i === current, scale));
      var f = DATA.findings[i], found = false;
      if (i === current || current === null) {
        if (f.seq !== null) h.timeline.forEach(function (r, j) { if (r[C.seq] === f.seq) { hits[j] = true; found = true; } });
        if (!found && f.line_no !== null) h.timeline.forEach(function (r, j) { if (r[C.line_no] === f.line_no) hits[j] = true; });
      }
    });
    if (!idx.length) box.appendChild(el("p", { cls: "muted", text: "No finding in this hand under " + DATA.edition + "." }));
    box.appendChild(el("h3", { text: "Timeline (the offending action is highlighted)" }));
    box.appendChild(timeline(h, hits, scale));
    if (h.pots.length) { box.appendChild(el("h3", { text: "Pots" })); box.appendChild(pots(h, scale)); }
    if (h.results.length) { box.appendChild(el("h3", { text: "Chips per seat" })); box.appendChild(results(h, scale)); }
    var inferred = h.results.filter(function (r) { return r.returned_basis === "inferred"; });
    var logged = h.timeline.filter(function (r) { return r[C.inferred_from]; });
    if (inferred.length || logged.length) {
      box.appendChild(el("h3", { text: "Inferred events" }));
      logged.forEach(function (r) {
        box.appendChild(el("p", { text: "line " + r[C.line_no] + ": " + (r[C.seat] !== null ? "seat " + r[C.seat] +
          (r[C.player] ? " (" + r[C.player] + ")" : "") + " " : "") + actionText(r, scale) +
          ": inferred, not recorded; inferred from lines " + r[C.inferred_from].join(", ") }));
      });
      inferred.forEach(function (r) {
        box.appendChild(el("p", { text: "uncalled " + fmt(r.returned_expected, scale) + " returned to seat " + r.seat +
          (r.player ? " (" + r.player + ")" : "") + ": inferred, not recorded (the history writes no return line); " +
          (r.returned_from ? "inferred from " + r.returned_from : "no line of the hand supports it") }));
      });
    }
    var unread = h.timeline.filter(function (r) { return r[C.kind] === "unread"; });
    if (unread.length) {
      box.appendChild(el("h3", { text: "Lines not understood (kept as written; the replay applied nothing of them)" }));
      unread.forEach(function (r) {
        box.appendChild(el("p", { text: "line " + r[C.line_no] + " (" + r[C.street] + (r[C.seat] !== null ? ", seat " + r[C.seat] +
          (r[C.player] ? " (" + r[C.player] + ")" : "") : "") + "): " + (r[C.text] || "").trim() }));
      });
    }
    if (h.notes.length) {
      box.appendChild(el("h3", { text: "Replay notes" }));
      h.notes.forEach(function (n) { box.appendChild(el("p", { text: n.code + ": " + n.message })); });
    }
  }

  // ---- dossiers: a finding's hand replayed on the table (reports/dossier.js) -----------------
  var DOSSIERS = null, mounted = null, mountedAt = null;
  function openDossier(k) {
    if (mountedAt === k) return true;
    if (DOSSIERS === null) DOSSIERS = JSON.parse(document.getElementById("dossiers-data").textContent);
    var d = DOSSIERS[k], body = document.getElementById("dossier-body");
    if (!d || !body || !window.TdaDossier) return false;
    if (mounted) mounted.destroy();
    document.getElementById("dossier-line").textContent = d.line;
    mounted = window.TdaDossier.mount(body, d, { hashPrefix: "dossier-" + k + "-", rules: DATA.rules });
    mountedAt = k;
    return true;
  }

  function route() {
    var dm = /^#dossier-(\d+)-step-\d+$/.exec(location.hash);
    if (dm && openDossier(+dm[1])) return;
    var m = /^#f-(\d+)$/.exec(location.hash);
    rows.forEach(function (r) { r.classList.remove("selected"); });
    if (m && DATA.findings[+m[1]]) {
      var i = +m[1];
      showHand(DATA.findings[i].hand_id, i);
      var r = document.getElementById("row-" + i);
      if (r) r.classList.add("selected");
      var ev = document.getElementById("evidence");
      if (ev) ev.scrollIntoView();
    } else if (DATA.focus) {
      showHand(DATA.focus, DATA.findings.length ? 0 : null);
    }
  }
  window.addEventListener("hashchange", route);
  route();
})();
