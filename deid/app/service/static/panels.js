// deid review page: the panels that say where to look. The span list (sorted and filtered
// by score, type and state), the progress count, the overview bar of where the spans sit,
// the queue and the saved reviews. Each redraws in the next animation frame, after the key
// that changed something has been answered. Defines the global `Panels`.
"use strict";

const Panels = (() => {
  const MAX_ROWS = 120;
  const STATE_ORDER = { open: 0, edited: 1, accepted: 2, rejected: 3 };
  let app = null;  // {state, config, select(span, scroll), openQueueItem(id), openReview(id)}
  let listQueued = false, overviewQueued = false, activeRow = null;
  const rows = new Map();  // span id -> <tr>
  const $ = (id) => document.getElementById(id);

  const isLow = (s) => s.origin === "model" && s.score != null && s.score < app.config.low;
  const spanText = (s) => app.state.t.slice(s.start, s.end);

  function init(hooks) {
    app = hooks;
    for (const id of ["sort", "filter-type", "filter-state", "filter-low"]) $(id).addEventListener("change", () => { renderList(); });
    const body = $("span-rows");
    body.tabIndex = 0;
    body.addEventListener("click", (e) => { const tr = e.target.closest("tr[data-id]"); if (tr) choose(tr, true); });
    body.addEventListener("keydown", (e) => {
      if (!["ArrowDown", "ArrowUp", "Enter"].includes(e.key)) return;
      e.preventDefault(); e.stopPropagation();
      const all = [...body.querySelectorAll("tr[data-id]")];
      if (!all.length) return;
      if (e.key === "Enter") { $("doc").focus(); return; }
      let i = all.indexOf(activeRow) + (e.key === "ArrowDown" ? 1 : -1);
      i = Math.max(0, Math.min(all.length - 1, i));
      choose(all[i], false);
    });
    $("overview").addEventListener("click", (e) => {
      const box = e.target.getBoundingClientRect(), t = app.state.t;
      if (!t || !app.state.spans.length) return;
      const at = ((e.clientY - box.top) / box.height) * t.length;
      const nearest = app.state.spans.reduce((best, s) => (Math.abs(s.start - at) < Math.abs(best.start - at) ? s : best));
      app.select(nearest, true);
    });
    $("doc").addEventListener("scroll", drawOverviewSoon, { passive: true });
    window.addEventListener("resize", drawOverviewSoon);
  }
  function choose(tr, focusDoc) {
    if (activeRow) activeRow.classList.remove("active");
    activeRow = tr; tr.classList.add("active");
    const s = app.byId(Number(tr.dataset.id));
    if (s) app.select(s, true);
    if (focusDoc) $("doc").focus();
  }

  // --- the span list ------------------------------------------------------------------------------
  function shown() {
    const type = $("filter-type").value, st = $("filter-state").value, low = $("filter-low").checked;
    let list = app.state.spans.filter((s) => (!type || s.label === type) && (!st || s.status === st) && (!low || isLow(s)));
    const sort = $("sort").value;
    if (sort === "score") list = list.slice().sort((a, b) => (a.score ?? 2) - (b.score ?? 2) || a.start - b.start);
    else if (sort === "type") list = list.slice().sort((a, b) => a.label.localeCompare(b.label) || a.start - b.start);
    else if (sort === "state") list = list.slice().sort((a, b) => STATE_ORDER[a.status] - STATE_ORDER[b.status] || a.start - b.start);
    return list;
  }
  function cells(tr, s) {
    const text = spanText(s);
    tr.className = `st-${s.status}${isLow(s) ? " low" : ""}${s.id === app.state.selected ? " sel" : ""}`;
    tr.children[0].textContent = text.length > 40 ? `${text.slice(0, 39)}…` : text;
    tr.children[1].textContent = s.label;
    tr.children[2].textContent = s.score == null ? "–" : s.score.toFixed(2);
    tr.children[3].textContent = s.status;
  }
  function renderList() {
    listQueued = false;
    const body = $("span-rows"), list = shown();
    rows.clear(); activeRow = null;
    const f = document.createDocumentFragment();
    for (const s of list.slice(0, MAX_ROWS)) {
      const tr = document.createElement("tr");
      tr.dataset.id = s.id;
      for (let i = 0; i < 4; i++) tr.append(document.createElement("td"));
      cells(tr, s); rows.set(s.id, tr); f.append(tr);
    }
    body.replaceChildren(f);
    $("list-more").textContent = list.length > MAX_ROWS ? `${list.length - MAX_ROWS} more: narrow the filter` : `${list.length} shown`;
  }
  function listSoon() { if (!listQueued) { listQueued = true; requestAnimationFrame(renderList); } }
  // After a change: rows of spans that kept their place are updated, anything else redraws the list.
  function changed(change) {
    const added = new Set(change.add.map((s) => s.id));
    const structural = change.remove.some((s) => !added.has(s.id)) || change.add.length !== change.remove.length;
    if (structural || $("sort").value !== "position" || $("filter-state").value) listSoon();
    else for (const s of change.add) { const tr = rows.get(s.id); if (tr) cells(tr, s); }
    countsSoon(); drawOverviewSoon();
  }
  function selected(oldId, newId) {
    for (const id of [oldId, newId]) { const tr = rows.get(id); const s = id != null && app.byId(id); if (tr && s) cells(tr, s); }
  }
  function types(labels) {
    const select = $("filter-type");
    for (const label of labels) { const o = document.createElement("option"); o.value = o.textContent = label; select.append(o); }
  }

  // --- progress and the overview bar --------------------------------------------------------------
  let countsQueued = false;
  function countsSoon() { if (!countsQueued) { countsQueued = true; requestAnimationFrame(counts); } }
  function counts() {
    countsQueued = false;
    const c = { open: 0, accepted: 0, rejected: 0, edited: 0 }; let low = 0;
    for (const s of app.state.spans) { c[s.status]++; if (s.status === "open" && isLow(s)) low++; }
    const total = app.state.spans.length, done = total - c.open;
    $("counts").textContent = `${done} of ${total} reviewed · ${c.open} open (${low} low confidence) · ${c.accepted} accepted · ${c.edited} edited · ${c.rejected} rejected`;
    $("review-progress").value = total ? done / total : 0;
  }
  const COLOURS = { open: "#8a8a90", accepted: "#2a7a2a", edited: "#1f4fbf", rejected: "#d0d0d4" };
  function drawOverviewSoon() { if (!overviewQueued) { overviewQueued = true; requestAnimationFrame(drawOverview); } }
  function drawOverview() {
    overviewQueued = false;
    const canvas = $("overview"), doc = $("doc"), t = app.state.t;
    const h = doc.clientHeight; if (canvas.height !== h) canvas.height = h;
    const g = canvas.getContext("2d"); g.clearRect(0, 0, canvas.width, h);
    if (!t || !t.length) return;
    g.fillStyle = "rgba(0,0,0,0.07)";
    g.fillRect(0, (doc.scrollTop / doc.scrollHeight) * h, canvas.width, Math.max(4, (doc.clientHeight / doc.scrollHeight) * h));
    for (const s of app.state.spans) {
      g.fillStyle = s.status === "open" && isLow(s) ? "#c00000" : COLOURS[s.status];
      g.fillRect(s.status === "open" ? 0 : 4, Math.floor((s.start / t.length) * h), s.status === "open" ? canvas.width : canvas.width - 8, 2);
    }
    const sel = app.state.selected != null && app.byId(app.state.selected);
    if (sel) { g.fillStyle = "#000"; g.fillRect(0, Math.floor((sel.start / t.length) * h) - 1, canvas.width, 4); }
  }

  // --- the queue and the saved reviews ------------------------------------------------------------
  function queue(listing, currentId) {
    $("queue-box").hidden = false;
    const c = listing.counts, total = listing.items.length;
    $("queue-counts").textContent = `${c.done} of ${total} done · ${c.in_review} in review`;
    const f = document.createDocumentFragment();
    for (const item of listing.items) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.type = "button"; b.dataset.id = item.id; b.className = `queue-item st-${item.state}`;
      if (item.id === currentId) b.setAttribute("aria-current", "true");
      const u = item.uncertainty;
      const certainty = u ? ` · ${u.spans} spans${u.low ? `, ${u.low} low` : ""}${u.min_score == null ? "" : `, min ${u.min_score.toFixed(2)}`}` : "";
      b.textContent = item.name;
      const small = document.createElement("small"); small.textContent = ` ${item.state.replace("_", " ")}${certainty}`;
      b.append(small);
      b.addEventListener("click", () => app.openQueueItem(item.id));
      li.append(b); f.append(li);
    }
    $("queue-list").replaceChildren(f);
  }
  function reviews(list) {
    const f = document.createDocumentFragment();
    for (const r of list.reviews) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.type = "button"; b.dataset.id = r.id;
      b.textContent = `${r.created.replace("T", " ").slice(0, 16)} · ${r.reviewer} · ${r.state.replace("_", " ")} · ${r.spans} spans${r.open ? `, ${r.open} open` : ""}${r.supersedes ? " · edit" : ""}`;
      b.addEventListener("click", () => app.openReview(r.id));
      li.append(b); f.append(li);
    }
    if (!list.reviews.length) { const li = document.createElement("li"); li.className = "muted"; li.textContent = "none saved yet"; f.append(li); }
    $("reviews-list").replaceChildren(f);
  }

  return { init, renderList, changed, selected, types, counts, drawOverview, drawOverviewSoon, queue, reviews, isLow };
})();
