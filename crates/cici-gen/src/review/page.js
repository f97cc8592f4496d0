"use strict";
// The review page. Every text goes in through textContent; nothing is
// parsed as HTML.
(function () {
  const ROW_H = 28;
  const data = JSON.parse(document.getElementById("cici-data").textContent);
  const rows = data.rows;
  const byId = new Map(rows.map((r, i) => [r.id, i]));
  // Row id to the verdicts on it, each reviewer's latest.
  const verdicts = new Map();
  const staleIds = new Set();
  let shown = rows.map((_, i) => i);
  let at = 0; // position in `shown`

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  const $ = (id) => document.getElementById(id);

  function record(review) {
    const list = (verdicts.get(review.id) || []).filter((v) => v.reviewer !== review.reviewer);
    list.push(review);
    verdicts.set(review.id, list);
  }
  data.reviews.forEach(record);
  data.stale.forEach((s) => staleIds.add(s.id));

  function status(r) {
    const list = verdicts.get(r.id);
    if (list && list.length) {
      const mine = list.filter((v) => v.reviewer === data.reviewer);
      return (mine.length ? mine[mine.length - 1] : list[list.length - 1]).verdict;
    }
    return staleIds.has(r.id) ? "stale" : "unreviewed";
  }

  // Filters.
  const FILTERS = ["family", "kind", "condition", "label", "status", "hit"];
  const NONE = "(none)";
  // A shortcut reader hits a triplet when it answers all three sides right.
  const readers = [...new Set(rows.flatMap((r) => [r.anchor, r.flipped, r.held].flatMap((s) => s.baselines.map((b) => b.name))))];
  function values(key) {
    if (key === "status") return ["unreviewed", "accept", "reject", "stale"];
    if (key === "hit") return ["any", "none", ...readers];
    return [...new Set(rows.map((r) => r[key]))].sort();
  }
  function matches(r, key, want) {
    if (key === "status") return status(r) === want;
    if (key === "hit") return want === "any" ? r.hits.length > 0 : want === "none" ? !r.hits.length : r.hits.includes(want);
    return r[key] === want;
  }
  function fillFilters() {
    for (const key of FILTERS) {
      const sel = $("f-" + key);
      sel.appendChild(el("option", null, "all")).value = "";
      for (const v of values(key)) sel.appendChild(el("option", null, v === "" ? NONE : v)).value = v === "" ? NONE : v;
      sel.addEventListener("change", applyFilters);
    }
  }
  function applyFilters() {
    const want = {};
    for (const key of FILTERS) {
      const v = $("f-" + key).value;
      if (v !== "") want[key] = v === NONE ? "" : v;
    }
    const current = shown[at];
    shown = [];
    rows.forEach((r, i) => {
      for (const key in want) {
        if (!matches(r, key, want[key])) return;
      }
      shown.push(i);
    });
    const keep = shown.indexOf(current);
    at = keep >= 0 ? keep : 0;
    $("spacer").style.height = shown.length * ROW_H + "px";
    renderList(true);
    renderDetail();
  }

  function counts() {
    let acc = 0, rej = 0;
    for (const r of rows) {
      const s = status(r);
      if (s === "accept") acc++;
      else if (s === "reject") rej++;
    }
    $("counts").textContent = `${rows.length} triplets · ${shown.length} shown · ${acc} accepted · ${rej} rejected · ${rows.length - acc - rej} to review`;
    $("shown").textContent = String(shown.length);
  }

  // The list: only the rows in view are in the document.
  function renderList(force) {
    const list = $("list");
    const spacer = $("spacer");
    const first = Math.max(0, Math.floor(list.scrollTop / ROW_H) - 5);
    const last = Math.min(shown.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW_H) + 5);
    if (!force && spacer.dataset.first === String(first) && spacer.dataset.last === String(last)) return;
    spacer.dataset.first = first;
    spacer.dataset.last = last;
    spacer.replaceChildren();
    for (let p = first; p < last; p++) {
      const r = rows[shown[p]];
      const s = status(r);
      const item = el("div", "row" + (p === at ? " selected" : ""));
      item.style.top = p * ROW_H + "px";
      item.dataset.id = r.id;
      item.dataset.status = s;
      item.appendChild(el("span", "badge " + s, { accept: "✓", reject: "✗", stale: "!" }[s] || "·"));
      item.appendChild(el("span", null, r.scenario));
      item.appendChild(el("span", "tag", [r.kind, r.condition, r.label].filter(Boolean).join(" · ")));
      item.addEventListener("click", () => { at = p; renderList(true); renderDetail(); });
      spacer.appendChild(item);
    }
    counts();
  }

  function scrollToCurrent() {
    const list = $("list");
    const top = at * ROW_H;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + ROW_H > list.scrollTop + list.clientHeight) list.scrollTop = top + ROW_H - list.clientHeight;
  }

  // The detail of one triplet.
  function field(parent, name, value) {
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && !value.length)) return;
    const f = el("div", "field");
    f.appendChild(el("b", null, name));
    if (typeof value === "string") f.appendChild(el("span", null, value));
    else f.appendChild(el("pre", null, JSON.stringify(value, null, 1)));
    parent.appendChild(f);
  }
  function listField(parent, name, items, line) {
    if (!Array.isArray(items) || !items.length) return;
    const f = el("div", "field");
    f.appendChild(el("b", null, name));
    const ul = el("ul", "plain");
    for (const it of items) ul.appendChild(el("li", null, line(it)));
    f.appendChild(ul);
    parent.appendChild(f);
  }
  const edit = (e) => Object.entries(e).map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`).join("; ");
  const trap = (t) => `${t.attribute || ""}: “${t.text || ""}” → if honoured: ${(t.honoured_answer || "(no allowed decision)").replace(/\n/g, "; ")}`;
  const reasons = (r) => r && typeof r === "object" && !Array.isArray(r)
    ? Object.entries(r).map(([k, v]) => `${k}: ${v === "" ? "—" : v}`).join(", ") : r;

  function itemText(anchor, diff) {
    const box = el("div", "item");
    if (!diff) { box.textContent = anchor; return box; }
    for (const op of diff) {
      if (op[0] === "=") box.appendChild(document.createTextNode(anchor.substr(op[1], op[2])));
      else box.appendChild(el(op[0] === "+" ? "ins" : "del", null, op[1]));
    }
    return box;
  }

  function sideBox(r, name) {
    const s = r[name];
    const box = el("section", "side");
    box.dataset.side = name;
    box.appendChild(el("h3", null, name));
    field(box, "answer", s.answer);
    field(box, "flow", s.flow);
    if (s.label && Array.isArray(s.label.decision)) {
      listField(box, "label", s.label.decision, (d) => `${d.target} = ${d.value}`);
    } else if (s.label && typeof s.label.flow === "boolean") {
      field(box, "label", s.label.flow ? "flow allowed" : "flow not allowed");
    } else field(box, "label", s.label);
    field(box, "reasons", reasons(s.reasons));
    field(box, "change", s.change);
    listField(box, "edits", s.edits, edit);
    listField(box, "traps", s.traps, trap);
    listField(box, "baselines", s.baselines, (b) => `${b.hit ? "✓" : "✗"} ${b.name}: ${b.guess.replace(/\n/g, "; ")}`);
    box.appendChild(itemText(r.anchor.item, s.diff));
    return box;
  }

  function renderDetail() {
    const d = $("detail");
    d.replaceChildren();
    if (!shown.length) { d.appendChild(el("div", "empty", "No triplet matches the filters.")); return; }
    const r = rows[shown[at]];
    d.dataset.id = r.id;
    d.appendChild(el("h2", null, `${at + 1} / ${shown.length} · ${r.scenario}`));
    d.appendChild(el("div", "meta", `${r.id} · ${r.kind} · ${r.family} · condition ${r.condition || "—"} · ${r.split} · ${status(r)}`));
    const hits = el("div", "meta hits", r.hits.length ? `right on all three sides: ${r.hits.join(", ")}` : "no shortcut reader is right on all three sides");
    hits.id = "hits";
    d.appendChild(hits);
    const actions = el("div", "actions");
    const note = el("textarea");
    note.id = "note";
    note.placeholder = "Note (optional); press n to write, Esc to leave";
    actions.appendChild(note);
    for (const v of ["accept", "reject"]) {
      const b = el("button", v, v === "accept" ? "Accept (a)" : "Reject (r)");
      b.addEventListener("click", () => verdict(v));
      actions.appendChild(b);
    }
    d.appendChild(actions);
    const vs = el("div", "verdicts");
    for (const v of verdicts.get(r.id) || []) {
      vs.appendChild(el("div", null, `${v.verdict} by ${v.reviewer} at ${v.time}${v.note ? ": " + v.note : ""}`));
    }
    for (const s of data.stale.filter((s) => s.id === r.id)) {
      vs.appendChild(el("div", null, `stale: ${s.verdict} by ${s.reviewer} at ${s.time}, on an earlier version of this row`));
    }
    d.appendChild(vs);
    const sides = el("div", "sides");
    for (const name of ["anchor", "flipped", "held"]) sides.appendChild(sideBox(r, name));
    d.appendChild(sides);
  }

  function move(by) {
    if (!shown.length) return;
    at = Math.max(0, Math.min(shown.length - 1, at + by));
    scrollToCurrent();
    renderList(true);
    renderDetail();
  }

  function say(text) { $("message").textContent = text; }

  async function verdict(v) {
    if (!shown.length) return;
    if (!data.live) { say("A static copy: verdicts are saved only on the page `cici review DIR` serves."); return; }
    const r = rows[shown[at]];
    const note = ($("note") || {}).value || "";
    try {
      const res = await fetch("/api/review", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: r.id, hash: r.hash, verdict: v, note: note }),
      });
      const body = await res.json();
      if (!res.ok) { say(body.error || `the server answered ${res.status}`); return; }
      record(body.review);
      say("");
      if (at < shown.length - 1) at++;
      scrollToCurrent();
      renderList(true);
      renderDetail();
    } catch (e) {
      say("The verdict was not saved: " + e);
    }
  }

  function renderStale() {
    const box = $("stale");
    if (!data.stale.length) return;
    box.appendChild(el("b", null, `${data.stale.length} stale verdict(s), on rows that changed since and applied to nothing: `));
    box.appendChild(el("span", null, data.stale.map((s) => `${s.id} (${s.verdict} by ${s.reviewer})`).join(", ")));
  }

  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT")) {
      if (e.key === "Escape") t.blur();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const act = { j: () => move(1), k: () => move(-1), a: () => verdict("accept"), r: () => verdict("reject"),
      n: () => { const n = $("note"); if (n) n.focus(); } }[e.key];
    if (act) { e.preventDefault(); act(); }
  });

  $("title").textContent = "cici review · " + data.folder;
  $("reviewer").textContent = data.live ? "reviewing as " + data.reviewer : "static copy (read only)";
  fillFilters();
  renderStale();
  $("list").addEventListener("scroll", () => requestAnimationFrame(() => renderList(false)));
  applyFilters();
  document.body.dataset.ready = String(performance.now());
})();
