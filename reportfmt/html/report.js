// Renders a proctor report or comparison from the JSON embedded in the
// page. Hand-written, no library: the page must open offline from disk.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("proctor-data").textContent);
  var S = data.summary;
  var app = document.getElementById("app");
  var SVGNS = "http://www.w3.org/2000/svg";
  var VERDICTS = ["passed", "failed", "flaky", "not_graded"];
  var ROW = 32;

  // el builds an element; strings among the children become text nodes,
  // so no data is ever parsed as HTML.
  function el(tag, attrs) {
    var e = document.createElement(tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) add(e, arguments[i]);
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    setAttrs(e, attrs);
    for (var i = 2; i < arguments.length; i++) add(e, arguments[i]);
    return e;
  }
  function setAttrs(e, attrs) {
    if (!attrs) return;
    for (var k in attrs) {
      var v = attrs[k];
      if (v == null || v === false) continue;
      if (k === "on") { for (var ev in v) e.addEventListener(ev, v[ev]); }
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  }
  function add(e, c) {
    if (c == null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(e, x); }); return; }
    e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  function word(v) { return v === "not_graded" ? "not graded" : (v || "absent"); }
  function badge(v) { return el("span", { "class": "badge " + (v || "absent") }, word(v)); }
  function pct(x) { return (100 * x).toFixed(1) + "%"; }
  function num(n) { return Number(n || 0).toLocaleString("en-US"); }
  // costText says what a judge cost, never an unknown cost as $0 (as
  // JudgeStats.CostText does in Go).
  function costText(j) {
    var cost = "$" + Number(j.cost_usd || 0).toFixed(4), unpriced = j.unpriced_calls || 0;
    if (unpriced === 0) { return cost; }
    if (unpriced >= (j.calls || 0) && !j.cost_usd) { return "cost unknown"; }
    return cost + " + unknown (" + unpriced + " of " + (j.calls || 0) + " calls unpriced)";
  }
  function plural(n, one, many) { return num(n) + " " + (n === 1 ? one : many); }
  function rateText(r) {
    if (!r) return "n/a";
    return pct(r.rate) + " (" + num(r.numerator) + " of " + num(r.denominator) + ")";
  }

  // caseReason says why a case got its verdict: the first failed check of
  // a failed or flaky case, the first not-graded check or subject error of
  // a not-graded one.
  function caseReason(c) {
    if (!c || c.verdict === "passed") return "";
    var want = c.verdict === "not_graded" ? "not_graded" : "failed";
    var atts = c.attempts || [];
    for (var i = 0; i < atts.length; i++) {
      var gs = atts[i].grades || [];
      for (var j = 0; j < gs.length; j++) {
        if (gs[j].status === want) {
          var r = gs[j].grader;
          if (gs[j].reason) r = gs[j].reason.indexOf(r + " ") === 0 ? gs[j].reason : r + ": " + gs[j].reason;
          return r;
        }
      }
      if (want === "not_graded" && atts[i].error) return "subject: " + atts[i].error;
    }
    return want === "not_graded" ? (atts.length ? "no check graded the output" : "no attempt was made") : "";
  }
  function attemptsText(c) {
    if (!c) return "";
    var p = 0, a = c.attempts || [];
    a.forEach(function (x) { if (x.verdict === "passed") p++; });
    return p + "/" + a.length;
  }
  function graderNames(c) {
    var seen = {};
    (c && c.attempts || []).forEach(function (a) { (a.grades || []).forEach(function (g) { seen[g.grader] = true; }); });
    return seen;
  }
  function promptVersions(c) {
    var v = {};
    (c && c.attempts || []).forEach(function (a) {
      (a.grades || []).forEach(function (g) { if (g.evidence && g.evidence.prompt_version) v[g.evidence.prompt_version] = true; });
    });
    return Object.keys(v).sort().join(",");
  }

  // ---- URL hash: the filter, sort and open case, so a link shows the view.
  // A hash that does not decode (#case=%E0%A4%A, a URIError) is ignored
  // whole: the default view.
  function readHash() {
    var st = {};
    try {
      location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
        if (!kv) return;
        var i = kv.indexOf("=");
        st[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? "" : decodeURIComponent(kv.slice(i + 1));
      });
    } catch (e) {
      return {};
    }
    return st;
  }
  function writeHash(st) {
    var parts = [];
    Object.keys(st).forEach(function (k) { if (st[k]) parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(st[k])); });
    var h = parts.length ? "#" + parts.join("&") : "";
    if (h !== location.hash) history.replaceState(null, "", h || location.pathname + location.search);
  }

  // ---- Charts: every bar carries its number as text, so colour is never
  // the only signal.
  function stackedBars(rows, keys, labels) {
    var w = 560, lw = 170, bh = 18, gap = 8, h = rows.length * (bh + gap) + 4;
    var s = svg("svg", { viewBox: "0 0 " + w + " " + h, width: "100%", role: "img" });
    var maxT = 1;
    rows.forEach(function (r) { var t = 0; keys.forEach(function (k) { t += r[k] || 0; }); maxT = Math.max(maxT, t); });
    rows.forEach(function (r, i) {
      var y = i * (bh + gap) + 2, x = lw, scale = (w - lw - 290) / maxT, parts = [];
      s.appendChild(svg("text", { x: lw - 8, y: y + 13, "text-anchor": "end" }, svg("title", null, r.label), r.label.length > 24 ? r.label.slice(0, 22) + "…" : r.label));
      keys.forEach(function (k) {
        var n = r[k] || 0;
        if (!n) return;
        var bw = Math.max(1.5, n * scale);
        s.appendChild(svg("rect", { x: x, y: y, width: bw, height: bh, "class": "s-" + k, rx: 2 }, svg("title", null, labels[k] + ": " + n)));
        x += bw;
        parts.push(num(n) + " " + labels[k]);
      });
      s.appendChild(svg("text", { x: x + 6, y: y + 13, "class": "muted" }, parts.join(" · ") || "none"));
    });
    return s;
  }
  function legend(keys, labels) {
    return el("div", { "class": "legend" }, keys.map(function (k) { return el("span", null, el("span", { "class": "sw " + k }), labels[k]); }));
  }
  var VLABEL = { passed: "passed", failed: "failed", flaky: "flaky", not_graded: "not graded" };
  function histogramChart(g) {
    var hs = g.scores, w = 520, h = 150, pad = 28, n = hs.passed.length, bw = (w - 2 * pad) / n, maxC = 1;
    for (var i = 0; i < n; i++) maxC = Math.max(maxC, hs.passed[i] + hs.failed[i]);
    var s = svg("svg", { viewBox: "0 0 " + w + " " + (h + 34), width: "100%", role: "img" });
    for (i = 0; i < n; i++) {
      var y = h, x = pad + i * bw;
      [["failed", hs.failed[i]], ["passed", hs.passed[i]]].forEach(function (p) {
        if (!p[1]) return;
        var bh = Math.max(1, p[1] / maxC * (h - 20));
        y -= bh;
        s.appendChild(svg("rect", { x: x + 1, y: y, width: bw - 2, height: bh, "class": "s-" + p[0] }, svg("title", null, p[1] + " " + p[0])));
      });
      var tot = hs.passed[i] + hs.failed[i];
      if (tot) s.appendChild(svg("text", { x: x + bw / 2, y: y - 3, "text-anchor": "middle", "class": "muted" }, String(tot)));
    }
    s.appendChild(svg("line", { x1: pad, x2: w - pad, y1: h, y2: h, stroke: "#8c959f" }));
    [0, 0.5, 1].forEach(function (f) {
      var v = hs.min + f * (hs.max - hs.min);
      s.appendChild(svg("text", { x: pad + f * (w - 2 * pad), y: h + 14, "text-anchor": "middle", "class": "muted" }, String(+v.toFixed(2))));
    });
    if (hs.threshold != null) {
      var tx = pad + (hs.threshold - hs.min) / ((hs.max - hs.min) || 1) * (w - 2 * pad);
      s.appendChild(svg("line", { x1: tx, x2: tx, y1: 8, y2: h, stroke: "#1d232b", "stroke-dasharray": "4 3" }));
      s.appendChild(svg("text", { x: tx + 4, y: h + 28 }, "pass mark ≈ " + (+hs.threshold.toFixed(3)) + " (lowest passing score)"));
    }
    return s;
  }

  // ---- The virtualised case table: only the rows in view are in the DOM.
  function caseTable(opts) {
    var st = opts.state, all = opts.rows, cols = opts.columns, view = all, sel = 0;
    var cssCols = cols.map(function (c) { return c.width; }).join(" ");
    var grid = el("div", { "class": "grid", role: "grid", "aria-label": opts.label, id: "cases", style: "--cols:" + cssCols });
    var head = el("div", { "class": "ghead", role: "row" });
    var viewport = el("div", { "class": "viewport", tabindex: "0", "aria-label": "cases; arrow keys move, Enter opens" });
    var inner = el("div", { "class": "rows" });
    viewport.appendChild(inner);
    grid.appendChild(head);
    grid.appendChild(viewport);
    var count = el("span", { "class": "count", id: "count", "aria-live": "polite" });
    function drawHead() {
      head.textContent = "";
      cols.forEach(function (c) {
        var dir = st.sort === c.key ? (st.dir === "desc" ? " ▼" : " ▲") : "";
        head.appendChild(el("div", { role: "columnheader", "aria-sort": st.sort === c.key ? (st.dir === "desc" ? "descending" : "ascending") : "none" },
          el("button", { "data-sort": c.key, on: { click: function () {
            if (st.sort === c.key) st.dir = st.dir === "desc" ? "asc" : "desc"; else { st.sort = c.key; st.dir = "asc"; }
            apply();
          } } }, c.label, el("span", { "class": "dir" }, dir))));
      });
    }
    function apply() {
      var v = all.filter(opts.match);
      var col = cols.filter(function (c) { return c.key === st.sort; })[0];
      if (col) {
        var sign = st.dir === "desc" ? -1 : 1;
        var keyed = v.map(function (r, i) { return [col.sort(r), i, r]; });
        keyed.sort(function (a, b) { return a[0] < b[0] ? -sign : a[0] > b[0] ? sign : a[1] - b[1]; });
        v = keyed.map(function (k) { return k[2]; });
      }
      view = v;
      sel = Math.min(sel, Math.max(0, v.length - 1));
      grid.setAttribute("data-rows", String(v.length));
      count.textContent = num(v.length) + " of " + plural(all.length, "case", "cases");
      inner.style.height = (v.length * ROW) + "px";
      viewport.style.height = Math.max(3, Math.min(v.length, 18)) * ROW + 2 + "px";
      drawHead();
      draw();
      opts.changed();
    }
    var drawn = {};
    function draw() {
      var top = viewport.scrollTop, hgt = viewport.clientHeight || 560;
      var from = Math.max(0, Math.floor(top / ROW) - 10), to = Math.min(view.length, Math.ceil((top + hgt) / ROW) + 10);
      inner.textContent = "";
      if (!view.length) { inner.appendChild(el("div", { "class": "empty" }, "No case matches the filter.")); return; }
      for (var i = from; i < to; i++) {
        var r = view[i];
        var row = el("div", { "class": "row" + (i === sel ? " sel" : ""), role: "row", "data-id": r.id, "data-index": i,
          tabindex: "-1", style: "top:" + (i * ROW) + "px" });
        cols.forEach(function (c) { row.appendChild(el("div", { role: "gridcell" }, c.cell(r))); });
        inner.appendChild(row);
      }
    }
    var pending = false;
    viewport.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    });
    inner.addEventListener("click", function (e) {
      var row = e.target.closest(".row");
      if (!row) return;
      sel = +row.getAttribute("data-index");
      draw();
      opts.open(view[sel].id);
    });
    viewport.addEventListener("keydown", function (e) {
      var k = e.key, old = sel;
      if (k === "ArrowDown") sel = Math.min(view.length - 1, sel + 1);
      else if (k === "ArrowUp") sel = Math.max(0, sel - 1);
      else if (k === "PageDown") sel = Math.min(view.length - 1, sel + 15);
      else if (k === "PageUp") sel = Math.max(0, sel - 15);
      else if (k === "Home") sel = 0;
      else if (k === "End") sel = view.length - 1;
      else if (k === "Enter" && view[sel]) { opts.open(view[sel].id); e.preventDefault(); return; }
      else return;
      e.preventDefault();
      if (sel !== old) {
        if (sel * ROW < viewport.scrollTop) viewport.scrollTop = sel * ROW;
        else if ((sel + 1) * ROW > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = (sel + 1) * ROW - viewport.clientHeight;
        draw();
      }
    });
    return { grid: grid, count: count, apply: apply, focus: function () { viewport.focus(); } };
  }

  function filterButtons(choices, st, key, apply) {
    return choices.map(function (ch) {
      var b = el("button", { type: "button", "data-filter": ch.value || "all", "aria-pressed": String((st[key] || "") === ch.value),
        on: { click: function () { st[key] = ch.value; apply(); } } }, ch.label);
      return b;
    });
  }
  function refreshPressed(box, st, key) {
    box.querySelectorAll("button[data-filter]").forEach(function (b) {
      var v = b.getAttribute("data-filter");
      b.setAttribute("aria-pressed", String((st[key] || "all") === v));
    });
  }
  function selectBox(id, label, values, st, key, apply) {
    var s = el("select", { id: id, "aria-label": label, on: { change: function () { st[key] = s.value; apply(); } } },
      el("option", { value: "" }, label + ": all"));
    values.forEach(function (v) { s.appendChild(el("option", { value: v }, v === "" ? "(no split)" : v)); });
    s.value = st[key] || "";
    return s;
  }
  function searchBox(st, apply) {
    var t = null;
    var i = el("input", { type: "search", id: "search", placeholder: "Search id, input, reasons ( / )", "aria-label": "search cases",
      value: st.q || "", on: { input: function () { clearTimeout(t); t = setTimeout(function () { st.q = i.value; apply(); }, 120); } } });
    document.addEventListener("keydown", function (e) {
      if (e.key === "/" && document.activeElement !== i && !/INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) { e.preventDefault(); i.focus(); }
    });
    return i;
  }

  // ---- Case detail.
  function text(label, v) {
    if (v == null || v === "") return null;
    return [el("h3", null, label), el("pre", { "class": "text" }, typeof v === "string" ? v : JSON.stringify(v, null, 2))];
  }
  function evidenceView(ev) {
    if (!ev) return null;
    if (!Array.isArray(ev.judges)) return el("details", null, el("summary", null, "evidence"), el("pre", { "class": "text" }, JSON.stringify(ev, null, 2)));
    var out = el("div", { "class": "evidence" });
    ev.judges.forEach(function (j) {
      var who = j.name + (j.model ? " (" + j.model + (j.family ? ", " + j.family : "") + ")" : "");
      var facts = [j.verdict, j.confidence ? j.confidence + " confidence" : "", j.score != null ? "score " + j.score : "",
        j.category ? "category " + j.category : "", j.basis ? "basis: " + j.basis : "", j.cached ? "cached" : ""].filter(Boolean).join(" · ");
      out.appendChild(el("div", { "class": "vote" }, el("div", null, el("strong", null, who), " voted ", facts),
        j.error ? el("div", { "class": "note" }, "error: " + j.error) : null,
        j.reasoning ? el("div", { "class": "reason" }, j.reasoning) : null));
    });
    if (ev.panel) {
      var t = ev.tally || {};
      out.appendChild(el("div", { "class": "note" }, "Panel convened" + (ev.panel_reasons && ev.panel_reasons.length ? " (" + ev.panel_reasons.join("; ") + ")" : "") +
        ": " + (t.pass || 0) + " pass, " + (t.fail || 0) + " fail, " + (t.abstain || 0) + " abstain."));
    }
    if (ev.skipped && ev.skipped.length) out.appendChild(el("div", { "class": "note" }, "Not asked (same family as the subject): " + ev.skipped.join(", ")));
    if (ev.prompt_version) out.appendChild(el("div", { "class": "note" }, "Prompt version " + ev.prompt_version));
    return out;
  }
  function caseBody(c) {
    if (!c) return el("p", { "class": "note" }, "Not in this run.");
    var body = el("div", null);
    var inOut = [text("Input", c.input), text("Expected", c.expected)];
    if (c.input == null && c.expected == null) body.appendChild(el("p", { "class": "note" }, "The report does not record the case's input or expected output."));
    add(body, inOut);
    (c.attempts || []).forEach(function (a, i) {
      var box = el("section", { "class": "attempt", "data-attempt": i + 1 }, el("h3", null, "Attempt " + (i + 1), badge(a.verdict)));
      if (a.error) box.appendChild(el("p", null, "Subject error: ", a.error));
      if (a.output != null) add(box, text("Output", a.output));
      else box.appendChild(el("p", { "class": "note" }, "Output not recorded in the report."));
      (a.grades || []).forEach(function (g) {
        box.appendChild(el("div", { "class": "check", "data-grader": g.grader, "data-status": g.status },
          el("div", { "class": "hd" }, el("span", { "class": "name" }, g.grader), badge(g.status),
            g.score != null ? el("span", { "class": "score" }, "score " + (+g.score.toFixed(4))) : null),
          g.reason ? el("p", { "class": "reason" }, g.reason) : null,
          evidenceView(g.evidence),
          g.caveats && g.caveats.length ? el("p", { "class": "note" }, "Caveats: " + g.caveats.join("; ")) : null));
      });
      (a.skipped || []).forEach(function (name) {
        box.appendChild(el("div", { "class": "check", "data-grader": name, "data-status": "skipped" },
          el("div", { "class": "hd" }, el("span", { "class": "name" }, name), el("span", { "class": "badge skipped" }, "skipped"),
            el("span", { "class": "note" }, "not run: a required check before it did not pass"))));
      });
      body.appendChild(box);
    });
    return body;
  }
  var lastFocus = null;
  function overlay(title, content, close) {
    lastFocus = document.activeElement;
    var closeBtn = el("button", { "class": "close", type: "button", on: { click: close } }, "Close (Esc)");
    var ov = el("div", { "class": "overlay", id: "case-view", role: "dialog", "aria-modal": "true", "aria-label": "case",
      on: { click: function (e) { if (e.target === ov) close(); } } },
      el("div", { "class": "panel", tabindex: "-1" }, el("h2", null, title, closeBtn), content));
    document.body.appendChild(ov);
    // The panel takes the focus, not its button: the Enter that opened the
    // case must not close it.
    ov.firstChild.focus();
    return ov;
  }
  function closeOverlay() {
    var ov = document.getElementById("case-view");
    if (ov) ov.remove();
    if (lastFocus && lastFocus.focus) lastFocus.focus();
  }

  function header(kind, title, metaItems) {
    return el("header", { "class": "top" }, el("h1", null, el("span", { "class": "kind" }, "proctor " + kind + " · "), title),
      el("div", { "class": "meta" }, metaItems.filter(Boolean).map(function (m) { return el("span", null, m); })));
  }
  function judgesTable(judges) {
    if (!judges || !judges.length) return el("p", { "class": "note" }, "No judge was asked.");
    return el("div", { "class": "scroll" }, el("table", { "class": "plain", id: "judges" },
      el("thead", null, el("tr", null, ["judge", "model", "family", "prompt version"].map(function (h) { return el("th", null, h); }),
        ["calls", "cache hits", "retries", "errors", "tokens", "cost"].map(function (h) { return el("th", { "class": "num" }, h); }))),
      el("tbody", null, judges.map(function (j) {
        return el("tr", null, el("td", null, j.name), el("td", null, j.model || ""), el("td", null, j.family || ""), el("td", null, j.prompt_version || ""),
          [num(j.calls), num(j.cache_hits), num(j.retries), num(j.errors), num(j.tokens), costText(j)].map(function (v) { return el("td", { "class": "num" }, v); }));
      }))));
  }

  // ---- The report page.
  function reportPage() {
    var cases = data.cases, T = S.totals;
    var st = readHash();
    var judgesMeta = (S.judges || []).map(function (j) {
      return "judge " + j.name + (j.model ? " · " + j.model : "") + (j.family ? " (" + j.family + ")" : "") + (j.prompt_version ? " · prompts " + j.prompt_version : "");
    });
    app.textContent = "";
    app.appendChild(header("report", S.suite, [S.generated ? "run " + S.generated.replace("T", " ").replace("Z", " UTC") : null,
      S.version ? "proctor " + S.version : null, plural(T.passed + T.failed + T.flaky + T.not_graded, "case", "cases")].concat(judgesMeta)));
    var main = el("main", null);
    app.appendChild(main);
    if (S.caveats && S.caveats.length) main.appendChild(el("div", { "class": "caveats", id: "caveats" }, el("strong", null, "Caveats"), el("ul", null, S.caveats.map(function (c) { return el("li", null, c); }))));
    var pr = S.pass_rate;
    var cards = el("div", { "class": "cards", id: "totals" },
      VERDICTS.map(function (v) { return el("div", { "class": "card " + v, "data-verdict": v }, el("div", { "class": "n", id: "total-" + v }, num(T[v])), el("div", { "class": "l" }, VLABEL[v])); }),
      el("div", { "class": "card rate" }, el("div", { "class": "n", id: "pass-rate" }, pr ? pct(pr.rate) : "n/a"),
        el("div", { "class": "l" }, "pass rate"),
        el("div", { "class": "sub", id: "pass-rate-detail" }, pr ? "passed / (passed + failed) = " + num(pr.numerator) + " / " + num(pr.denominator) + "; 95% Wilson CI " + pct(pr.low) + "–" + pct(pr.high) : "no case passed or failed")),
      el("div", { "class": "card" }, el("div", { "class": "n", id: "flaky-rate" }, S.flaky_rate ? pct(S.flaky_rate.rate) : "n/a"), el("div", { "class": "l" }, "flaky rate"),
        el("div", { "class": "sub" }, S.flaky_rate ? num(S.flaky_rate.numerator) + " of " + plural(S.flaky_rate.denominator, "measured case", "measured cases") : "")));
    main.appendChild(cards);
    main.appendChild(el("p", { "class": "note" }, "Flaky and not graded cases are counted on their own, never as passed or failed."));
    main.appendChild(rateNotes(S));
    if (S.pass_at_k && S.pass_at_k.length) {
      main.appendChild(el("table", { "class": "plain", id: "pass-at-k" }, el("thead", null, el("tr", null, el("th", null, "k"), el("th", { "class": "num" }, "pass@k"), el("th", { "class": "num" }, "pass^k"), el("th", { "class": "num" }, "cases"))),
        el("tbody", null, S.pass_at_k.map(function (p) { return el("tr", null, el("td", null, String(p.k)), el("td", { "class": "num" }, pct(p.pass_at_k)), el("td", { "class": "num" }, pct(p.pass_hat_k)), el("td", { "class": "num" }, num(p.cases))); }))));
    }
    // Charts.
    main.appendChild(el("h2", null, "Charts"));
    var charts = el("div", { "class": "charts" });
    main.appendChild(charts);
    function chart(id, title, body) { charts.appendChild(el("section", { "class": "chart", id: id }, el("h3", null, title), body)); }
    if (S.splits && S.splits.length) {
      chart("chart-splits", "Verdicts by split", [legend(VERDICTS, VLABEL), stackedBars(S.splits.map(function (s) {
        var r = { label: s.split || "(no split)" }; VERDICTS.forEach(function (v) { r[v] = s.totals[v]; }); return r;
      }), VERDICTS, VLABEL)]);
    }
    if (S.groups && S.groups.length) {
      chart("chart-groups", "Verdicts by " + S.group_by, [legend(VERDICTS, VLABEL), stackedBars(S.groups.map(function (g) {
        var r = { label: g.name }; VERDICTS.forEach(function (v) { r[v] = g.totals[v]; }); return r;
      }), VERDICTS, VLABEL), groupsTable(S)]);
    }
    if (S.graders.length) {
      var GK = ["passed", "failed", "not_graded"];
      chart("chart-graders", "Checks by grader (over all attempts)", [legend(GK, VLABEL), stackedBars(S.graders.map(function (g) { return { label: g.name, passed: g.passed, failed: g.failed, not_graded: g.not_graded }; }), GK, VLABEL)]);
    }
    S.graders.forEach(function (g, i) {
      if (g.scores) chart("chart-score-" + i, "Scores of " + g.name, [legend(["passed", "failed"], VLABEL), histogramChart(g)]);
    });
    if (S.judges && S.judges.length) {
      var JK = { calls: "calls", cache_hits: "cache hits", retries: "retries" };
      chart("chart-judges", "Judges", [legend(["calls", "cache_hits", "retries"], JK), stackedBars(S.judges.map(function (j) { return { label: j.name, calls: j.calls, cache_hits: j.cache_hits, retries: j.retries }; }), ["calls", "cache_hits", "retries"], JK), judgesTable(S.judges)]);
    }
    if (S.not_graded_reasons.length) {
      chart("chart-reasons", "Why cases were not graded", stackedBars(S.not_graded_reasons.slice(0, 12).map(function (r) { return { label: r.reason, not_graded: r.cases }; }), ["not_graded"], { not_graded: "not graded" }));
      if (S.not_graded_reasons.length > 12) charts.lastChild.appendChild(el("p", { "class": "note" }, (S.not_graded_reasons.length - 12) + " more reasons."));
      charts.lastChild.appendChild(el("ul", { "class": "note" }, S.not_graded_reasons.slice(0, 12).map(function (r) { return el("li", null, num(r.cases) + " × " + r.reason); })));
    }
    if (!charts.childNodes.length) charts.appendChild(el("p", { "class": "note" }, "No check ran."));

    // Cases.
    main.appendChild(el("h2", null, "Cases"));
    if (S.omitted_passed) main.appendChild(el("p", { "class": "note", id: "omitted" }, num(S.omitted_passed) + " passed cases are counted above but not listed: the file would have grown past its size bound. Every case that did not pass is listed."));
    var splits = {}, graders = {};
    cases.forEach(function (c) { splits[c.split || ""] = true; });
    S.graders.forEach(function (g) { graders[g.name] = true; });
    var hay = new Array(cases.length);
    function haystack(i) {
      if (hay[i] == null) {
        var c = cases[i], parts = [c.id, c.input == null ? "" : JSON.stringify(c.input), caseReason(c)];
        (c.attempts || []).forEach(function (a) { if (a.error) parts.push(a.error); (a.grades || []).forEach(function (g) { if (g.reason) parts.push(g.reason); }); });
        hay[i] = parts.join("\n").toLowerCase();
      }
      return hay[i];
    }
    var graderSets = null;
    var rows = cases.map(function (c, i) { return { id: c.id, c: c, i: i, reason: null }; });
    function reason(r) { if (r.reason == null) r.reason = caseReason(r.c); return r.reason; }
    var vorder = { failed: 0, flaky: 1, not_graded: 2, passed: 3 };
    var box = el("div", { "class": "toolbar", id: "filters" });
    var table = caseTable({ state: st, rows: rows, label: "cases",
      columns: [
        { key: "id", label: "case", width: "minmax(180px, 1.3fr)", sort: function (r) { return r.id; }, cell: function (r) { return el("span", { "class": "id" }, r.id); } },
        { key: "verdict", label: "verdict", width: "140px", sort: function (r) { return vorder[r.c.verdict]; }, cell: function (r) { return badge(r.c.verdict); } },
        { key: "split", label: "split", width: "110px", sort: function (r) { return r.c.split || ""; }, cell: function (r) { return r.c.split || ""; } },
        { key: "attempts", label: "attempts passed", width: "130px", sort: function (r) { var a = r.c.attempts || []; return a.length ? a.filter(function (x) { return x.verdict === "passed"; }).length / a.length : -1; }, cell: attemptsTextRow },
        { key: "severity", label: "severity", width: "90px", sort: function (r) { return r.c.severity || ""; }, cell: function (r) { return r.c.severity || ""; } },
        { key: "reason", label: "reason", width: "minmax(200px, 3fr)", sort: function (r) { return reason(r); }, cell: function (r) { return el("span", { title: reason(r) }, reason(r)); } }],
      match: function (r) {
        if (st.verdict && r.c.verdict !== st.verdict) return false;
        if (st.split != null && st.split !== "" && (r.c.split || "") !== (st.split === "(no split)" ? "" : st.split)) return false;
        if (st.grader) { if (!graderSets) graderSets = {}; if (!graderSets[r.i]) graderSets[r.i] = graderNames(r.c); if (!graderSets[r.i][st.grader]) return false; }
        if (st.q && haystack(r.i).indexOf(st.q.toLowerCase()) < 0) return false;
        return true;
      },
      changed: function () { refreshPressed(box, st, "verdict"); writeHash(st); },
      open: function (id) { st["case"] = id; writeHash(st); showCase(); } });
    function attemptsTextRow(r) { return attemptsText(r.c); }
    var counts = {};
    cases.forEach(function (c) { counts[c.verdict] = (counts[c.verdict] || 0) + 1; });
    add(box, filterButtons([{ value: "", label: "all (" + num(cases.length) + ")" }].concat(VERDICTS.map(function (v) { return { value: v, label: VLABEL[v] + " (" + num(counts[v] || 0) + ")" }; })), st, "verdict", table.apply));
    var splitNames = Object.keys(splits).sort();
    if (splitNames.length > 1 || (splitNames.length === 1 && splitNames[0] !== "")) box.appendChild(selectBox("split-filter", "split", splitNames.map(function (s) { return s || "(no split)"; }), st, "split", table.apply));
    box.appendChild(selectBox("grader-filter", "grader", Object.keys(graders), st, "grader", table.apply));
    box.appendChild(searchBox(st, table.apply));
    box.appendChild(table.count);
    main.appendChild(box);
    main.appendChild(table.grid);
    main.appendChild(el("p", { "class": "note" }, "Click a row or press Enter on it to open the case; ↑ ↓ move; / searches; Esc closes. The address keeps the filter, so a link shows this view."));
    var byId = null;
    function showCase() {
      closeOverlay();
      if (!st["case"]) return;
      if (!byId) { byId = {}; cases.forEach(function (c) { byId[c.id] = c; }); }
      var c = byId[st["case"]];
      if (!c) return;
      var meta = el("dl", { "class": "kv" }, el("dt", null, "verdict"), el("dd", null, badge(c.verdict)),
        el("dt", null, "attempts passed"), el("dd", null, attemptsText(c)),
        c.split ? [el("dt", null, "split"), el("dd", null, c.split)] : null,
        c.severity ? [el("dt", null, "severity"), el("dd", null, c.severity)] : null,
        c.tags && c.tags.length ? [el("dt", null, "tags"), el("dd", null, c.tags.join(", "))] : null);
      overlay(el("span", { "class": "id" }, c.id), [meta, caseBody(c)], function () { delete st["case"]; writeHash(st); closeOverlay(); table.focus(); });
    }
    document.addEventListener("keydown", function (e) { if (e.key === "Escape" && document.getElementById("case-view")) { delete st["case"]; writeHash(st); closeOverlay(); } });
    window.addEventListener("hashchange", function () { var n = readHash(); Object.keys(st).forEach(function (k) { delete st[k]; }); Object.assign(st, n); table.apply(); showCase(); });
    table.apply();
    showCase();
  }

  // The group_by breakdown as a table: each group's pass rate with its
  // Wilson interval and, when cases name clusters, its clustered SE.
  function groupsTable(S) {
    return el("table", { "class": "plain", id: "groups" }, el("thead", null, el("tr", null, el("th", null, S.group_by),
      el("th", { "class": "num" }, "passed or failed"), el("th", { "class": "num" }, "pass rate"), el("th", null, "95% CI (Wilson)"), el("th", null, "clustered SE"))),
      el("tbody", null, S.groups.map(function (g) {
        var r = g.pass_rate, c = g.clustered_se;
        return el("tr", null, el("td", null, g.name), el("td", { "class": "num" }, r ? num(r.denominator) : "0"),
          el("td", { "class": "num" }, r ? pct(r.rate) : "n/a"), el("td", null, r ? pct(r.low) + "–" + pct(r.high) : ""),
          el("td", null, c ? (100 * c.clustered_se).toFixed(1) + " points, design effect " + c.design_effect.toFixed(2) : ""));
      })));
  }

  // The clustered and judge-corrected pass rates and the gate counts of a
  // run, one line each (docs/statistics.md).
  function rateNotes(S) {
    var items = [], r = S.clustered_se, T = S.totals;
    if (r) items.push(el("li", { id: "clustered-se" }, "Clustered SE " + (100 * r.clustered_se).toFixed(1) + " points over " + num(r.clusters) +
      " clusters (CR1), design effect " + r.design_effect.toFixed(2) + "; 95% CI " + pct(r.low) + "–" + pct(r.high) + "."));
    (S.judge_corrected || []).forEach(function (c) {
      var k = c.corrected_pass_rate;
      items.push(el("li", { "class": "corrected" }, c.grader + ": raw " + pct(c.raw_pass_rate) + " of " + plural(c.graded, "grade", "grades") +
        (k ? ", corrected for the judge's errors " + pct(k.rate) + " (95% CI " + pct(k.low) + "–" + pct(k.high) + ")." : "; " + c.note + ".")));
    });
    if (T.flaky_gate_passed) items.push(el("li", { id: "gate" }, num(T.flaky_gate_passed) + " flaky cases passed the gate with min_pass (still counted flaky)."));
    if (T.attempts_saved) items.push(el("li", { id: "saved" }, "stop_early saved " + plural(T.attempts_saved, "attempt", "attempts") + "."));
    return el("ul", { id: "rate-notes" }, items);
  }

  // The paired figures of a comparison, one line each (docs/statistics.md).
  function statsList(C) {
    function pp(x) { return (x >= 0 ? "+" : "") + (100 * x).toFixed(1); }
    var items = [], d = C.difference, ni = C.non_inferior, m = C.mde;
    if (!d) return el("ul", { id: "paired-stats" }, el("li", null, "No case passed or failed in both runs."));
    items.push(el("li", { id: "difference" }, "Difference in pass rate (head − base) over " + plural(d.n, "case", "cases") + ": " + pp(d.estimate) +
      " points, 95% CI " + pp(d.low) + " to " + pp(d.high) + " (" + d.method + (d.clusters ? ", design effect " + d.design_effect.toFixed(2) + " over " + num(d.clusters) + " clusters" : "") + ")."));
    if (ni) items.push(el("li", { id: "non-inferior" }, "Non-inferiority at a " + (100 * ni.margin).toFixed(1) + "-point margin (one-sided α " + ni.alpha + "): " +
      (ni.non_inferior ? "head is no worse than base by the margin" : "not shown") + " (lower bound " + pp(ni.low) + " points)."));
    if (m) items.push(el("li", { id: "mde" }, "Minimum detectable difference (80% power, two-sided 5%, " + plural(m.n, "effective case", "effective cases") + ", " +
      pct(m.discordance) + " discordant): " + (m.value == null ? "none" : (100 * m.value).toFixed(1) + " points") + "."));
    return el("ul", { id: "paired-stats" }, items);
  }

  // ---- The compare page.
  function comparePage() {
    var C = S.comparison, pairs = data.cases, st = readHash();
    app.textContent = "";
    app.appendChild(header("compare", S.suite, [S.generated ? "compared " + S.generated.replace("T", " ").replace("Z", " UTC") : null, S.version ? "proctor " + S.version : null,
      "base " + S.base.suite + " → head " + S.head.suite]));
    var main = el("main", null);
    app.appendChild(main);
    if (C.warnings && C.warnings.length) main.appendChild(el("div", { "class": "warn", id: "warnings" }, el("strong", null, "The runs may not be comparable"), el("ul", null, C.warnings.map(function (w) { return el("li", null, w); }))));
    var disc = C.pass_to_fail + C.fail_to_pass;
    main.appendChild(el("div", { "class": "cards", id: "compare-totals" },
      el("div", { "class": "card failed" }, el("div", { "class": "n", id: "n-regressions" }, num(C.regressions.length)), el("div", { "class": "l" }, "regressions")),
      el("div", { "class": "card passed" }, el("div", { "class": "n", id: "n-fixes" }, num(C.fixes.length)), el("div", { "class": "l" }, "fixes")),
      el("div", { "class": "card" }, el("div", { "class": "n" }, num(C.changed.length)), el("div", { "class": "l" }, "other changes")),
      el("div", { "class": "card rate" }, el("div", { "class": "n" }, rateText(S.base.pass_rate)), el("div", { "class": "l" }, "base pass rate")),
      el("div", { "class": "card rate" }, el("div", { "class": "n" }, rateText(S.head.pass_rate)), el("div", { "class": "l" }, "head pass rate"))));
    main.appendChild(el("p", { id: "mcnemar" }, "McNemar exact test over " + plural(C.paired, "case", "cases") + " passed or failed in both runs: " +
      num(C.pass_to_fail) + " passed → failed, " + num(C.fail_to_pass) + " failed → passed, two-sided p = " + (+C.p_value.toPrecision(4)) +
      (disc === 0 ? " (no discordant pairs)." : C.p_value < 0.05 ? " (significant at 0.05)." : " (not significant at 0.05).")));
    main.appendChild(statsList(C));
    var tot = el("table", { "class": "plain" }, el("thead", null, el("tr", null, el("th", null, "run"), VERDICTS.map(function (v) { return el("th", { "class": "num" }, VLABEL[v]); }))),
      el("tbody", null, [["base", S.base], ["head", S.head]].map(function (r) { return el("tr", null, el("td", null, r[0]), VERDICTS.map(function (v) { return el("td", { "class": "num" }, num(r[1].totals[v])); })); })));
    main.appendChild(tot);
    var kind = {};
    C.regressions.forEach(function (x) { kind[x.id] = "regression"; });
    C.fixes.forEach(function (x) { kind[x.id] = "fix"; });
    C.changed.forEach(function (x) { kind[x.id] = "changed"; });
    C.only_base.forEach(function (id) { kind[id] = "missing from head"; });
    C.only_head.forEach(function (id) { kind[id] = "new in head"; });
    var rank = { regression: 0, "missing from head": 1, fix: 2, changed: 3, "new in head": 4, unchanged: 5 };
    var rows = pairs.map(function (p, i) {
      var pb = promptVersions(p.base), ph = promptVersions(p.head);
      return { id: p.id, p: p, i: i, kind: kind[p.id] || "unchanged", prompt: pb && ph && pb !== ph ? pb + " → " + ph : "" };
    });
    rows.sort(function (a, b) { return rank[a.kind] - rank[b.kind] || a.i - b.i; });
    rows.forEach(function (r, i) { r.order = i; });
    var counts = {};
    rows.forEach(function (r) { counts[r.kind] = (counts[r.kind] || 0) + 1; });
    var box = el("div", { "class": "toolbar", id: "filters" });
    var table = caseTable({ state: st, rows: rows, label: "cases before and after",
      columns: [
        { key: "change", label: "change", width: "150px", sort: function (r) { return r.order; }, cell: function (r) {
          var cls = r.kind === "regression" || r.kind === "missing from head" ? "failed" : r.kind === "fix" ? "passed" : "absent";
          return el("span", { "class": "badge " + cls }, r.kind); } },
        { key: "id", label: "case", width: "minmax(180px, 1.3fr)", sort: function (r) { return r.id; }, cell: function (r) { return el("span", { "class": "id" }, r.id); } },
        { key: "base", label: "base", width: "140px", sort: function (r) { return r.p.base ? r.p.base.verdict : ""; }, cell: function (r) { return badge(r.p.base && r.p.base.verdict); } },
        { key: "head", label: "head", width: "140px", sort: function (r) { return r.p.head ? r.p.head.verdict : ""; }, cell: function (r) { return badge(r.p.head && r.p.head.verdict); } },
        { key: "prompt", label: "prompt version", width: "140px", sort: function (r) { return r.prompt; }, cell: function (r) { return r.prompt ? el("span", { title: "judge prompt version changed" }, "changed: " + r.prompt) : ""; } },
        { key: "reason", label: "head reason", width: "minmax(200px, 3fr)", sort: function (r) { return caseReason(r.p.head); }, cell: function (r) { return caseReason(r.p.head || r.p.base); } }],
      match: function (r) {
        if (st.change && r.kind !== st.change) return false;
        if (st.q && (r.id + "\n" + caseReason(r.p.base) + "\n" + caseReason(r.p.head)).toLowerCase().indexOf(st.q.toLowerCase()) < 0) return false;
        return true;
      },
      changed: function () { refreshPressed(box, st, "change"); writeHash(st); },
      open: function (id) { st["case"] = id; writeHash(st); showPair(); } });
    add(box, filterButtons([{ value: "", label: "all (" + num(rows.length) + ")" }].concat(["regression", "fix", "changed", "missing from head", "new in head", "unchanged"].filter(function (k) { return counts[k]; })
      .map(function (k) { return { value: k, label: k + " (" + num(counts[k]) + ")" }; })), st, "change", table.apply));
    box.appendChild(searchBox(st, table.apply));
    box.appendChild(table.count);
    main.appendChild(el("h2", null, "Cases, regressions and fixes first"));
    if (S.omitted_passed) main.appendChild(el("p", { "class": "note", id: "omitted" }, num(S.omitted_passed) + " cases that passed in both runs are counted above but not listed: the file would have grown past its size bound. Every other case is listed."));
    main.appendChild(box);
    main.appendChild(table.grid);
    var byId = {};
    rows.forEach(function (r) { byId[r.id] = r; });
    function showPair() {
      closeOverlay();
      var r = byId[st["case"]];
      if (!r) return;
      var cols = el("div", { style: "display:grid;grid-template-columns:1fr 1fr;gap:16px" },
        el("div", { "data-side": "base" }, el("h3", null, "Base ", badge(r.p.base && r.p.base.verdict)), caseBody(r.p.base)),
        el("div", { "data-side": "head" }, el("h3", null, "Head ", badge(r.p.head && r.p.head.verdict)), caseBody(r.p.head)));
      overlay([el("span", { "class": "id" }, r.id), el("span", { "class": "badge absent" }, r.kind)], [r.prompt ? el("p", { "class": "warn" }, "Judge prompt version changed: " + r.prompt) : null, cols],
        function () { delete st["case"]; writeHash(st); closeOverlay(); table.focus(); });
    }
    document.addEventListener("keydown", function (e) { if (e.key === "Escape" && document.getElementById("case-view")) { delete st["case"]; writeHash(st); closeOverlay(); } });
    table.apply();
    showPair();
  }

  if (S.kind === "compare") comparePage(); else reportPage();
  // When the page was drawn, in milliseconds since navigation began: the
  // browser tests read it.
  document.body.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  document.body.setAttribute("data-ready", "true");
})();
