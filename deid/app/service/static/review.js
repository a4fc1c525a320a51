// deid review page: plain JavaScript, no build step, nothing loaded from elsewhere.
//
// spans.js holds the spans as data and every edit as a change (spans out, spans in);
// this file applies changes, keeps them for undo, draws them, and talks to the service.
// Rendering: one pass builds a DocumentFragment of text nodes and <mark> elements; a change
// redraws one <mark>, or only the stretch between the unchanged spans around it.
"use strict";

const $ = (id) => document.getElementById(id);
const doc = $("doc");

const config = { labels: [], low: 0.6, operators: [], queue: false };
const state = {
  t: null, editor: null,       // Spans.Text of the document, Spans.Editor over it
  spans: [], byId: new Map(),  // sorted, disjoint (spans.js); id -> span
  els: new Map(),              // id -> <mark>
  proposals: [],               // the analysis' spans as returned (sent with the review)
  upload: null,                // the File the text came from (download in its format), null for text
  source: null,                // {kind: upload|paste|queue|review, name, queueId, reviewId, sha256}
  selected: null, label: "PERSON", lastClick: null,
  undo: [], redo: [], dirty: false,
  effort: { activeMs: 0, actions: 0, last: 0 },
  abort: null, queue: null, queueOrder: "path",
};
window.deidTimings = {};
const IDLE_MS = 60000;  // a pause longer than this is not counted as review time

// --- rendering -------------------------------------------------------------------------------------

const byOffset = Spans.byOffset;
function tagOf(s) {
  const mark = { accepted: "✓", edited: "✎", rejected: "✗", open: "" }[s.status];
  const score = s.origin === "added" ? "+" : (s.score == null ? "" : ` ${s.score.toFixed(2)}`);
  return `${s.label}${score}${Panels.isLow(s) ? "!" : ""}${mark ? " " + mark : ""}`;
}
function classOf(s) {
  return `${s.label} st-${s.status}${Panels.isLow(s) ? " low" : ""}${s.id === state.selected ? " sel" : ""}`;
}
function titleOf(s) {
  const low = Panels.isLow(s) ? " · low confidence" : "";
  return `${s.found || s.label}${s.source ? " · " + s.source : ""}${s.score == null ? "" : " · " + s.score.toFixed(2)}${low} · ${s.status}`;
}
function markFor(s) {
  const m = document.createElement("mark");
  m.className = classOf(s); m.dataset.tag = tagOf(s); m.dataset.id = s.id; m.title = titleOf(s);
  m.textContent = state.t.slice(s.start, s.end);
  if (s.id === state.selected) addHandles(m);
  state.els.set(s.id, m);
  return m;
}
function fragment(from, to, spans) {
  const f = document.createDocumentFragment(); let pos = from;
  for (const s of spans) {
    if (s.start > pos) f.append(state.t.slice(pos, s.start));
    f.append(markFor(s)); pos = s.end;
  }
  if (pos < to) f.append(state.t.slice(pos, to));
  return f;
}
// The document is drawn in blocks of whole lines (about CHUNK characters, cut after a line
// end that no span crosses): a change lays out its block only, not the whole decision.
const CHUNK = 2000;
function firstAfter(pos) {  // the first span whose end is after `pos` (sorted, disjoint)
  let lo = 0, hi = state.spans.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (state.spans[mid].end <= pos) lo = mid + 1; else hi = mid; }
  return lo;
}
function crossed(pos) {  // the span over `pos`, if one starts before it and ends after it
  const s = state.spans[firstAfter(pos)];
  return s && s.start < pos ? s : null;
}
function blocks(from, to) {  // [from, to) as block elements
  const out = [], text = state.t.text;
  let a = from;
  while (a < to) {
    let b = Math.min(to, a + CHUNK);
    while (b < to) {
      const nl = text.indexOf("\n", state.t.toU(b));
      b = nl < 0 ? to : Math.min(to, state.t.toCp(nl) + 1);
      const s = crossed(b); if (!s) break;
      b = s.end;
    }
    const div = document.createElement("div");
    div.className = "chunk"; div.dataset.start = a; div.dataset.end = b;
    div.append(fragment(a, b, state.spans.slice(firstAfter(a), firstAfter(b))));
    out.push(div); a = b;
  }
  return out;
}
function renderAll() {
  state.els.clear();
  doc.replaceChildren(...blocks(0, state.t.length));
}
function refresh(s) {  // a span whose label or status changed: its element only
  const m = s && state.els.get(s.id); if (!m) return;
  m.className = classOf(s); m.dataset.tag = tagOf(s); m.title = titleOf(s);
}
// The block holding `pos` (its start at or before it).
function blockAt(pos) {
  const all = doc.children; let lo = 0, hi = all.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (Number(all[mid].dataset.start) <= pos) lo = mid; else hi = mid - 1; }
  return all[lo];
}
// Redraw the blocks over [from, to), joined with their neighbours while a span crosses
// between them (a span grown over a block's end).
function rebuild(from, to) {
  let first = blockAt(from), last = blockAt(Math.max(from, to - 1));
  while (first.previousElementSibling && crossed(Number(first.dataset.start))) first = first.previousElementSibling;
  while (last.nextElementSibling && crossed(Number(last.dataset.end))) last = last.nextElementSibling;
  const a = Number(first.dataset.start), b = Number(last.dataset.end), after = last.nextElementSibling;
  for (let el = first, next; el !== after; el = next) {
    next = el.nextElementSibling;
    for (const m of el.querySelectorAll("mark")) if (state.els.get(Number(m.dataset.id)) === m) state.els.delete(Number(m.dataset.id));
    el.remove();
  }
  const fresh = blocks(a, b);
  if (after) after.before(...fresh); else doc.append(...fresh);
}
function redraw(change) {
  const same = change.remove.length === change.add.length && change.add.every((s, k) =>
    change.remove[k].id === s.id && change.remove[k].start === s.start && change.remove[k].end === s.end);
  if (same) { for (const s of change.add) refresh(s); return; }
  for (const s of change.remove.concat(change.add)) state.els.delete(s.id);
  for (const [from, to] of Spans.stretches(change)) rebuild(from, to);  // all mentions: many small stretches
}

// --- changes, undo, selection ------------------------------------------------------------------------

function applyChange(change) {
  state.spans = Spans.apply(state.spans, change);
  for (const s of change.remove) state.byId.delete(s.id);
  for (const s of change.add) state.byId.set(s.id, s);
  redraw(change);
  Panels.changed(change);
}
// Apply an edit (spans.js) the reviewer made: kept for undo, counted, saved to the draft.
function commit(change) {
  if (!change) return false;
  change.before = state.selected;
  applyChange(change);
  state.undo.push(change); state.redo = [];
  afterEdit(change.select != null ? change.select : null);
  return true;
}
function undo() {
  const change = state.undo.pop(); if (!change) { say("nothing to undo"); return; }
  applyChange(Spans.inverse(change));
  state.redo.push(change);
  afterEdit(change.before);
  say(`undone (${state.undo.length} more to undo)`);
}
function redo() {
  const change = state.redo.pop(); if (!change) { say("nothing to redo"); return; }
  applyChange(change);
  state.undo.push(change);
  afterEdit(change.select);
  say("redone");
}
function afterEdit(selectId) {
  state.effort.actions++;
  select(selectId != null ? state.byId.get(selectId) : null, true);
  markDirty();
  previewSoon();
}
function markDirty() {
  state.dirty = true;
  Drafts.saveEdits(draftEdits());
}

function addHandles(m) {
  for (const edge of ["start", "end"]) {
    const h = document.createElement("span");
    h.className = `handle ${edge}`; h.dataset.edge = edge; h.title = `drag to move the ${edge}`;
    if (edge === "start") m.prepend(h); else m.append(h);
  }
}
function select(s, scroll = true) {
  const old = state.selected != null ? state.byId.get(state.selected) : null;
  state.selected = s ? s.id : null;
  if (old) { refresh(old); const m = state.els.get(old.id); if (m) for (const h of m.querySelectorAll(".handle")) h.remove(); }
  if (s) { refresh(s); const m = state.els.get(s.id); if (m) { addHandles(m); if (scroll) m.scrollIntoView({ block: "nearest" }); } }
  Panels.selected(old ? old.id : null, state.selected);
  Panels.drawOverviewSoon();
  showSpan();
}
const selectedSpan = () => (state.selected != null ? state.byId.get(state.selected) : null);

// --- where the reviewer points -----------------------------------------------------------------------

// The code point offset of a DOM position inside the document (O(1): marks know their span).
function cpAt(node, offset) {
  if (node === doc) return offset < doc.children.length ? Number(doc.children[offset].dataset.start) : state.t.length;
  const mark = node.nodeType === 1 ? node.closest("mark") : node.parentElement && node.parentElement.closest("mark");
  if (mark && doc.contains(mark)) {
    const s = state.byId.get(Number(mark.dataset.id));
    if (node.nodeType === 1 && node.classList.contains("handle")) return node.classList.contains("start") ? s.start : s.end;
    if (node.nodeType !== 3) return node === mark && offset > 0 ? s.end : s.start;
    return state.t.toCp(state.t.toU(s.start) + offset);
  }
  if (node.nodeType === 1 && node.classList.contains("chunk")) {  // a position between a block's children
    if (offset >= node.childNodes.length) return Number(node.dataset.end);
    node = node.childNodes[offset]; offset = 0;
    if (node.nodeType === 1) return state.byId.get(Number(node.dataset.id)).start;
  }
  if (node.nodeType !== 3) return 0;
  let prev = node.previousSibling;
  while (prev && prev.nodeType === 3) { offset += prev.data.length; prev = prev.previousSibling; }
  const base = prev ? state.byId.get(Number(prev.dataset.id)).end : Number(node.parentNode.dataset.start);
  return state.t.toCp(state.t.toU(base) + offset);
}
function textSelection() {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !doc.contains(sel.anchorNode) || !doc.contains(sel.focusNode)) return null;
  const r = sel.getRangeAt(0);
  const start = cpAt(r.startContainer, r.startOffset), end = cpAt(r.endContainer, r.endOffset);
  return start < end ? { start, end } : null;
}
function clearSelection() { window.getSelection().removeAllRanges(); }

// --- actions -------------------------------------------------------------------------------------------

function nextOpen(from, direction = 1) {
  const spans = state.spans; if (!spans.length) return null;
  const i = from ? spans.indexOf(from) : -1;
  for (let k = 1; k <= spans.length; k++) {
    const s = spans[(i + direction * k + spans.length * 2) % spans.length];
    if (s.status === "open") return s;
  }
  return null;
}
function step(delta) {
  const spans = state.spans; if (!spans.length) return;
  const s = selectedSpan();
  const i = s ? spans.indexOf(s) : (delta > 0 ? -1 : spans.length);
  select(spans[Math.min(spans.length - 1, Math.max(0, i + delta))]);
}
function decide(status) {
  const s = selectedSpan(); if (!s) { say("select a span first (j, Space or a click)"); return; }
  const changed = commit(state.editor.setStatus(s, status));
  const next = nextOpen(state.byId.get(s.id));
  if (next) select(next); else if (changed) say("no open span left: Ctrl+S saves the review");
}
function chooseLabel(label) {
  state.label = label;
  for (const b of document.querySelectorAll("#labels button")) b.classList.toggle("on", b.dataset.label === label);
}
function labelKey(label) {
  chooseLabel(label);
  const range = textSelection();
  if (range) { clearSelection(); commit(state.editor.add(state.spans, range.start, range.end, label)) || say("select whole words"); }
  else if (selectedSpan()) commit(state.editor.relabel(selectedSpan(), label));
}
function act(name) {
  if (!state.t) return;
  const s = selectedSpan(), e = state.editor;
  const need = () => { if (!s) say("select a span first (j, Space or a click)"); return s; };
  if (name === "accept") decide("accepted");
  else if (name === "reject") decide("rejected");
  else if (name === "next-open") { const n = nextOpen(s); if (n) select(n); else say("no open span left"); }
  else if (name === "undo") undo();
  else if (name === "redo") redo();
  else if (name === "add") {
    const range = textSelection(); if (!range) { say("select some text first"); return; }
    clearSelection(); commit(e.add(state.spans, range.start, range.end, state.label)) || say("select whole words");
  } else if (name === "extent") {
    const range = textSelection(); if (!need()) return; if (!range) { say("select the text the span should cover"); return; }
    clearSelection(); commit(e.setExtent(state.spans, s, range.start, range.end));
  } else if (name.startsWith("start-") || name.startsWith("end-")) {
    if (!need()) return;
    const [edge, dir] = name.split("-");
    commit(e.moveEdge(state.spans, s, edge, dir === "right" ? 1 : -1)) || say(`the ${edge} cannot move further ${dir}`);
  } else if (name === "split") {
    if (!need()) return;
    const range = textSelection(); clearSelection();
    const inside = range && range.start >= s.start && range.end <= s.end;
    const at = state.lastClick != null && state.lastClick > s.start && state.lastClick < s.end ? state.lastClick : null;
    commit(e.split(state.spans, s, inside ? range.start : null, inside ? range.end : null, at)) || say("nothing to split: one word");
  } else if (name === "merge") { if (need()) commit(e.merge(state.spans, s)) || say("no span after this one"); }
  else if (name === "all") {
    if (!need()) return;
    const change = e.allMentions(state.spans, s);
    commit(change);
    say(`${change ? change.add.filter((a) => a.id !== s.id).length : 0} other mention(s) changed`);
  }
}

// --- the span panel ------------------------------------------------------------------------------------

function showSpan() {
  const s = selectedSpan(), box = $("span-info");
  if (!s) { box.textContent = "none selected"; box.className = "muted"; return; }
  box.className = "";
  const rows = [["text", state.t.slice(s.start, s.end)], ["label", s.label], ["score", s.score == null ? "–" : s.score.toFixed(3) + (Panels.isLow(s) ? " (low confidence)" : "")],
    ["found by", s.source || "–"], ["state", s.status], ["offsets", `${s.start}–${s.end}`]];
  box.replaceChildren(...rows.map(([k, v]) => { const d = document.createElement("div"); d.textContent = `${k}: ${v}`; return d; }));
}
function say(message, error = false) { const f = $("status"); f.textContent = message; f.className = error ? "error" : ""; }

// --- the service -------------------------------------------------------------------------------------

function headers(extra = {}) {
  const token = $("token").value.trim();
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}
async function failure(response) {
  let detail = response.statusText;
  try { const body = await response.json(); detail = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail); } catch (e) { /* not JSON */ }
  return new Error(`${response.status}: ${detail}`);
}
async function call(path, init = {}) {
  const response = await fetch(path, { ...init, headers: headers(init.headers || {}) });
  if (!response.ok) throw await failure(response);
  return response;
}
const json = (body) => ({ method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
// the anonymization profile chosen for the next analysis (none: a pipeline saved before profiles)
const profile = () => $("profile").value || undefined;

// An analysis with progress: the service streams JSON lines (deid.app.service.progress).
function showProgress(text, fraction) {
  $("progress-box").hidden = false; $("progress-text").textContent = text;
  if (fraction == null) $("progress").removeAttribute("value"); else $("progress").value = fraction;
}
async function analysis(path, init, what) {
  state.abort = new AbortController();
  const t0 = performance.now();
  showProgress(`sending ${what}…`, null);
  window.deidTimings = { started: t0 };
  try {
    const response = await fetch(path, { ...init, signal: state.abort.signal, headers: headers({ ...(init.headers || {}), Accept: "application/x-ndjson" }) });
    if (!response.ok) throw await failure(response);
    const reader = response.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the service ended the answer early");
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, nl)); buffer = buffer.slice(nl + 1);
        if (line.progress) {
          const p = line.progress;
          if (window.deidTimings.first_progress_ms == null) window.deidTimings.first_progress_ms = performance.now() - t0;
          showProgress(p.stage === "analysing" ? `analysing ${what}: step ${p.done} of about ${p.total}` : `${p.stage} ${what}…`, p.total ? p.fraction : null);
        } else if (line.error) throw new Error(`${line.error.status}: ${line.error.detail}`);
        else if (line.result) { window.deidTimings.analyze_ms = performance.now() - t0; return line.result; }
      }
    }
  } finally {
    $("progress-box").hidden = true; state.abort = null;
  }
}
function cancelAnalysis() {
  if (!state.abort) return false;
  state.abort.abort();
  return true;
}

// --- documents -------------------------------------------------------------------------------------

// Before another document replaces unsaved work: ask.
async function mayLeave() {
  if (!state.dirty) return true;
  const answer = await ask(`The review of ${state.source.name} has unsaved changes.`, [["discard", "Discard them"], ["cancel", "Keep working"]]);
  return answer === "discard";
}
// What the screen shows when the service holds no document for the reviewer (after an error).
function clearDocument(message) {
  state.t = null; state.spans = []; state.byId.clear(); state.els.clear(); state.proposals = [];
  state.upload = null; state.source = null; state.selected = null; state.undo = []; state.redo = []; state.dirty = false;
  delete doc.dataset.ready; delete doc.dataset.saved;
  const p = document.createElement("p"); p.className = "error"; p.textContent = `Nothing open: ${message}`;
  doc.replaceChildren(p);
  $("preview-box").hidden = true; $("file-name").textContent = "no document";
  Panels.renderList(); Panels.counts(); Panels.drawOverview(); showSpan();
  Drafts.clear();
  say(message, true);
}
function begin(text, source, upload, proposals) {
  delete doc.dataset.ready; delete doc.dataset.saved;
  state.t = new Spans.Text(text); state.editor = new Spans.Editor(state.t);
  state.upload = upload; state.source = source; state.selected = null; state.lastClick = null;
  state.undo = []; state.redo = []; state.dirty = false;
  state.effort = { activeMs: 0, actions: 0, last: performance.now() };
  state.proposals = proposals.map((s) => ({ start: s.start, end: s.end, label: s.label, score: s.score ?? null, source: s.source ?? null }));
  $("file-name").textContent = source.name + (source.reviewId ? ` (editing review ${source.reviewId})` : "");
}
function show(spans) {
  const t1 = performance.now();
  state.spans = spans; state.byId = new Map(spans.map((s) => [s.id, s]));
  renderAll();
  const t2 = performance.now();
  Panels.renderList(); Panels.counts(); Panels.drawOverviewSoon(); showSpan();
  $("preview-box").hidden = true;
  doc.focus();
  requestAnimationFrame(() => setTimeout(() => {
    const t3 = performance.now();
    Object.assign(window.deidTimings, { render_ms: t2 - t1, first_highlight_ms: t3 - t1, spans: state.spans.length, characters: state.t.length });
    doc.dataset.ready = "1";
  }, 0));
}
function load(result, source, upload) {
  begin(result.text, { ...source, sha256: result.sha256, profile: result.profile }, upload, result.spans);
  show(Spans.fromAnalysis(state.editor, result.spans));
  saveDraftDocument();
  const low = state.spans.filter((s) => Panels.isLow(s)).length;
  say(`${result.spans.length} spans in ${result.characters} characters${low ? `, ${low} of low confidence` : ""}`
    + (result.profile ? ` (profile ${result.profile})` : ""));
}
function loadReview(record, source, upload) {
  const editor = new Spans.Editor(new Spans.Text(record.text));
  const { spans, proposals } = Spans.fromReview(editor, record);
  begin(record.text, { ...source, reviewId: record.id, sha256: record.sha256 }, upload, proposals);
  state.editor = editor; state.t = editor.t;
  show(spans);
  saveDraftDocument();
  const earlier = (record.history || []).length - 1;
  say(`review ${record.id} by ${record.reviewer} (${record.state.replace("_", " ")}) reopened${earlier > 0 ? `; ${earlier} other version(s) of it saved` : ""}: edits are saved as a new version`);
}
async function openFile(file) {
  if (!(await mayLeave())) return;
  $("file-name").textContent = file.name;
  const form = new FormData(); form.append("file", file);
  if (profile()) form.append("profile", profile());
  try { load(await analysis("/analyze", { method: "POST", body: form }, file.name), { kind: "upload", name: file.name }, file); }
  catch (e) { if (e.name === "AbortError") clearDocument("the analysis was cancelled"); else clearDocument(e.message); }
}
async function analyzeText(text) {
  if (!(await mayLeave())) return;
  try {
    const result = await analysis("/analyze", json({ text, profile: profile() }), "the text");
    load({ ...result, text }, { kind: "paste", name: "pasted text" }, null);
  } catch (e) { if (e.name === "AbortError") clearDocument("the analysis was cancelled"); else clearDocument(e.message); }
}
async function openQueueItem(id) {
  if (!(await mayLeave())) return;
  const item = state.queue && state.queue.items.find((i) => i.id === id);
  const name = item ? item.name : id;
  try {
    const [result, blob] = await Promise.all([analysis(`/queue/${id}`, {}, name), call(`/queue/${id}/file`).then(async (r) => [await r.blob(), decodeURIComponent(r.headers.get("X-Deid-File-Name") || name)])]);
    const file = new File([blob[0]], blob[1], { type: blob[0].type });
    const source = { kind: "queue", name, queueId: id };
    if (result.review) loadReview(await (await call(`/reviews/${result.review.id}`)).json(), source, file);
    else load(result, source, file);
    refreshQueue();
  } catch (e) { if (e.name === "AbortError") clearDocument("the analysis was cancelled"); else clearDocument(e.message); }
}
async function openReview(id) {
  if (!(await mayLeave())) return;
  try { const record = await (await call(`/reviews/${id}`)).json(); loadReview(record, { kind: "review", name: `review ${id}` }, null); }
  catch (e) { clearDocument(e.message); }
}

// --- the queue and the saved reviews ------------------------------------------------------------

async function refreshQueue() {
  if (!config.queue) return;
  try {
    state.queue = await (await call(`/queue?order=${state.queueOrder}`)).json();
    Panels.queue(state.queue, state.source && state.source.queueId);
  } catch (e) { say(`queue: ${e.message}`, true); }
}
function queueStep(delta, onlyOpen = false) {
  if (!state.queue || !state.queue.items.length) { say("no queue: start the service with --queue"); return; }
  const items = state.queue.items, current = state.source && state.source.queueId;
  const i = items.findIndex((it) => it.id === current);
  for (let k = 1; k <= items.length; k++) {
    const item = items[(i + delta * k + items.length * 2) % items.length];
    if (i >= 0 && k === items.length) break;
    if (!onlyOpen || item.state !== "done") { openQueueItem(item.id); return; }
  }
  say("every document of the queue is done");
}
async function refreshReviews() {
  try { Panels.reviews(await (await call("/reviews?limit=100")).json()); } catch (e) { say(`reviews: ${e.message}`, true); }
}

// --- preview, download, save -------------------------------------------------------------------------

const decidedSpans = () => state.spans.filter((s) => s.status === "accepted" || s.status === "edited");
function finalSpans() {  // what is neutralized: everything not rejected (open spans too: nothing leaks)
  return state.spans.filter((s) => s.status !== "rejected").map((s) => ({ start: s.start, end: s.end, label: s.label }));
}
async function anonymized(asFile) {
  const operator = $("operator").value, spans = finalSpans();
  if (asFile && state.upload) {
    const form = new FormData();
    form.append("file", state.upload); form.append("operator", operator);
    form.append("spans", JSON.stringify(spans)); form.append("output", "file");
    if (state.source.profile) form.append("profile", state.source.profile);
    return (await call("/anonymize", { method: "POST", body: form })).blob();
  }
  const result = await (await call("/anonymize", json({ text: state.t.text, operator, spans, output: "json",
    profile: state.source.profile || undefined }))).json();
  return asFile ? new Blob([result.text], { type: "text/plain;charset=utf-8" }) : result;
}
let previewTimer = null;
function previewSoon() {
  if ($("preview-box").hidden) return;
  $("preview-box").classList.add("stale");
  clearTimeout(previewTimer); previewTimer = setTimeout(preview, 500);
}
async function preview() {
  if (!state.t) return;
  try {
    const result = await anonymized(false);
    $("preview-text").textContent = result.text; $("preview-box").hidden = false; $("preview-box").classList.remove("stale");
    say(`preview: ${result.output_spans.length} spans neutralized with ${result.operator}`);
  } catch (e) { $("preview-box").hidden = true; say(`preview: ${e.message}`, true); }
}
function downloadName() {
  const name = state.upload ? state.upload.name : "decision.txt";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}.anonymized${name.slice(dot)}` : `${name}.anonymized.txt`;
}
async function download() {
  if (!state.t) return;
  try {
    const blob = await anonymized(true);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob); a.download = downloadName();
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    say(`downloaded ${a.download}`);
  } catch (e) { say(`download: ${e.message}`, true); }
}
function effortNow() {
  tick();
  return { seconds: Math.round(state.effort.activeMs / 1000), actions: state.effort.actions };
}
async function save() {
  if (!state.t) return;
  const reviewer = $("reviewer").value.trim();
  if (!reviewer) { say("enter your reviewer name (one word) first", true); $("reviewer").focus(); return; }
  localStorage.setItem("deid.reviewer", reviewer);
  const open = state.spans.filter((s) => s.status === "open");
  if (open.length) {
    const answer = await ask(`${open.length} of ${state.spans.length} spans are still open: nobody has decided them.`,
      [["accept", `Accept the ${open.length} and save as done`], ["open", "Save them as open (in review)"], ["cancel", "Cancel"]]);
    if (answer === "cancel") return;
    if (answer === "accept") commit(state.editor.acceptOpen(state.spans));
  }
  const undecided = state.spans.filter((s) => s.status === "open").map((s) => ({ start: s.start, end: s.end, label: s.label }));
  const body = { text: state.t.text, model_spans: state.proposals, reviewer, open: undecided,
    spans: decidedSpans().map((s) => ({ start: s.start, end: s.end, label: s.label })), effort: effortNow(),
    supersedes: state.source.reviewId || null, profile: state.source.profile || undefined };
  try {
    const result = await (await call("/reviews", json(body))).json();
    const d = result.decisions;
    state.source.reviewId = result.id; state.dirty = false; await Drafts.clear();
    $("file-name").textContent = `${state.source.name} (review ${result.id})`;
    say(`review ${result.id} saved (${result.state.replace("_", " ")}): ${d.accepted} accepted, ${d.rejected} rejected, ${d.relabelled} relabelled, ${d.widened} widened, ${d.added} added, ${d.open} open`);
    doc.dataset.saved = result.id;
    if (!$("reviews-box").hidden && $("reviews-box").open) refreshReviews();
    if (state.source.kind === "queue") {
      await refreshQueue();
      if (result.state === "done") queueStep(1, true);
    }
  } catch (e) { say(`not saved: ${e.message}`, true); }
}

// --- the draft -----------------------------------------------------------------------------------------

function saveDraftDocument() {
  const s = state.source;
  const key = `${s.sha256}:${s.reviewId || ""}:${Date.now()}`;
  state.draftKey = key;
  Drafts.saveDocument({ key, text: state.t.text, proposals: state.proposals, source: s, file: state.upload,
    fileName: state.upload ? state.upload.name : null });
}
function draftEdits() {
  return { key: state.draftKey, dirty: state.dirty, spans: state.spans, nextId: state.editor.nextId,
    effort: { activeMs: state.effort.activeMs, actions: state.effort.actions }, selected: state.selected, savedAt: new Date().toISOString() };
}
async function restoreDraft() {
  let draft = null;
  try { draft = await Drafts.load(); } catch (e) { return false; }
  if (!draft) return false;
  const { doc: d, edits } = draft;
  const file = d.file ? new File([d.file], d.fileName || "document", { type: d.file.type }) : null;
  begin(d.text, d.source, file, d.proposals);
  state.draftKey = d.key; state.editor.nextId = edits.nextId;
  state.effort = { ...edits.effort, last: performance.now() };
  show(edits.spans);
  state.dirty = true;
  if (edits.selected != null && state.byId.get(edits.selected)) select(state.byId.get(edits.selected));
  say(`restored your unsaved review of ${d.source.name} (kept in this browser ${edits.savedAt.slice(11, 19)} UTC): save it, or open another document to discard it`);
  return true;
}

// --- dialogs -----------------------------------------------------------------------------------------

function ask(message, choices) {
  const dialog = $("ask");
  $("ask-text").textContent = message;
  const buttons = choices.map(([value, label]) => { const b = document.createElement("button"); b.value = value; b.textContent = label; return b; });
  $("ask-buttons").replaceChildren(...buttons);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue || "cancel"), { once: true });
    dialog.returnValue = "";
    dialog.showModal(); buttons[0].focus();
  });
}

// --- keys and pointer ----------------------------------------------------------------------------------

function tick() {  // review time: the active stretches, a pause over IDLE_MS not counted
  const now = performance.now(), gap = now - state.effort.last;
  if (gap < IDLE_MS) state.effort.activeMs += gap;
  state.effort.last = now;
}
function onKey(e) {
  if ($("ask").open) return;
  const k = e.key, ctrl = e.ctrlKey || e.metaKey;
  if (state.t) tick();
  if (ctrl && k.toLowerCase() === "s") { e.preventDefault(); save(); return; }
  if (e.target.matches("input, textarea, select")) return;
  if (e.target.matches("button, a, summary") && ["Enter", " "].includes(k)) return;
  if (k === "Tab") return;  // Tab always moves on: into and out of the document
  if (ctrl && !e.altKey && k.toLowerCase() === "z") { e.preventDefault(); if (e.shiftKey) redo(); else undo(); return; }
  if (ctrl && !e.altKey && k.toLowerCase() === "y") { e.preventDefault(); redo(); return; }
  if (e.shiftKey && (k === "ArrowRight" || k === "ArrowLeft")) {
    e.preventDefault(); act(`${ctrl ? "start" : "end"}-${k === "ArrowRight" ? "right" : "left"}`); return;
  }
  if (ctrl || e.altKey) return;
  if (e.shiftKey && (k === "J" || k === "K")) { queueStep(k === "J" ? 1 : -1); e.preventDefault(); return; }
  if (k === "j" || k === "ArrowDown") step(1);
  else if (k === "k" || k === "ArrowUp") step(-1);
  else if (k === " ") act("next-open");
  else if (k === "a" || k === "Enter") act("accept");
  else if (k === "r" || k === "x" || k === "Delete" || k === "Backspace") act("reject");
  else if (k === "n") act("add");
  else if (k === "w") act("extent");
  else if (k === "s") act("split");
  else if (k === "g") act("merge");
  else if (k === "m") act("all");
  else if (k === "p") preview();
  else if (k === "d") download();
  else if (k === "o") $("file").click();
  else if (k === "Escape") { if (!cancelAnalysis()) select(null, false); }
  else if (/^[1-9]$/.test(k) && config.labels[Number(k) - 1]) labelKey(config.labels[Number(k) - 1]);
  else return;
  e.preventDefault();
}
let drag = null;
function onPointerDown(e) {
  if (state.t) tick();
  const handle = e.target.closest && e.target.closest(".handle");
  if (handle) { drag = { edge: handle.dataset.edge, id: Number(handle.closest("mark").dataset.id) }; e.preventDefault(); doc.classList.add("dragging"); }
}
function onPointerUp(e) {
  if (!drag) return;
  const d = drag; drag = null; doc.classList.remove("dragging");
  const r = document.caretRangeFromPoint && document.caretRangeFromPoint(e.clientX, e.clientY);
  const s = state.byId.get(d.id);
  if (!r || !s || !doc.contains(r.startContainer)) return;
  const at = cpAt(r.startContainer, r.startOffset);
  const [start, end] = d.edge === "start" ? [Math.min(at, s.end - 1), s.end] : [s.start, Math.max(at, s.start + 1)];
  commit(state.editor.setExtent(state.spans, s, start, end)) || say("the span stays as it is");
}

function setup() {
  chooseLabel(state.label);
  for (const b of document.querySelectorAll("#toolbar [data-act]")) b.addEventListener("click", () => act(b.dataset.act));
  doc.addEventListener("click", (e) => {
    const m = e.target.closest("mark");
    if (!m || !window.getSelection().isCollapsed) return;
    const s = state.byId.get(Number(m.dataset.id));
    const r = document.caretRangeFromPoint && document.caretRangeFromPoint(e.clientX, e.clientY);
    state.lastClick = r && doc.contains(r.startContainer) ? cpAt(r.startContainer, r.startOffset) : null;
    if (s) select(s, false);
  });
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointerup", onPointerUp);
  window.addEventListener("beforeunload", (e) => {
    if (!state.dirty) return;
    Drafts.flush();
    e.preventDefault(); e.returnValue = "";  // the browser asks whether to leave
  });
  $("open").addEventListener("click", () => $("file").click());
  $("file").addEventListener("change", () => {
    const file = $("file").files[0]; $("file").value = "";
    if (file) openFile(file);
  });
  $("analyze-text").addEventListener("click", () => {
    const text = $("paste").value; if (!text.trim()) { say("paste a decision first", true); return; }
    analyzeText(text);
  });
  $("cancel").addEventListener("click", cancelAnalysis);
  $("preview").addEventListener("click", preview);
  $("download").addEventListener("click", download);
  $("save").addEventListener("click", save);
  $("queue-order").addEventListener("change", () => { state.queueOrder = $("queue-order").value; refreshQueue(); });
  $("reviews-box").addEventListener("toggle", () => { if ($("reviews-box").open) refreshReviews(); });
  $("token").value = sessionStorage.getItem("deid.token") || "";
  $("token").addEventListener("change", () => sessionStorage.setItem("deid.token", $("token").value.trim()));
  $("reviewer").value = localStorage.getItem("deid.reviewer") || "";
  Panels.init({ state, config, select, byId: (id) => state.byId.get(id), openQueueItem, openReview });
  fetch("/health").then((r) => r.json()).then(async (h) => {
    const m = h.model;
    $("model").textContent = m.rules_only ? "rules only (no model)" : `${m.name || m.uri}${m.version ? " v" + m.version : ""}${m.alias ? " @" + m.alias : ""}`;
    $("token-box").hidden = !h.auth;
    Object.assign(config, { labels: h.labels, low: h.low_confidence, operators: h.operators, queue: h.queue });
    Spans.setVocabulary(h.fine_labels);
    for (const [i, label] of h.labels.entries()) {
      const b = document.createElement("button");
      b.type = "button"; b.dataset.label = label; b.textContent = `${i + 1} ${label}`;
      b.style.borderLeftColor = `var(--${label})`; b.title = `Label ${label} (key ${i + 1})`;
      b.addEventListener("click", () => labelKey(label));
      $("labels").append(b);
    }
    Panels.types(h.labels);
    chooseLabel(state.label);
    for (const op of h.operators) { const o = document.createElement("option"); o.value = o.textContent = op; $("operator").append(o); }
    $("operator").value = h.default_operator;
    for (const p of h.profiles || []) { const o = document.createElement("option"); o.value = o.textContent = p; $("profile").append(o); }
    $("profile").value = h.default_profile || "";
    $("profile-box").hidden = !(h.profiles || []).length;
    await restoreDraft();
    await refreshQueue();
    document.body.dataset.ready = "1";
  }).catch((e) => say(`the service does not answer: ${e.message}`, true));
}
setup();
