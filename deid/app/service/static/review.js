// deid review page: plain JavaScript, no build step, nothing loaded from elsewhere.
//
// Offsets: the service counts code points (Python), the DOM counts UTF-16 units; spans are
// kept in code points and converted only where the DOM is touched (toU / toCp).
// Rendering: one pass builds a DocumentFragment of text nodes and <mark> elements and puts
// it in the page at once; an edit changes one <mark>, or rebuilds only the stretch between
// the unchanged neighbours of the spans it touched.
"use strict";

const LABELS = ["PERSON", "ORGANIZATION", "LOCATION", "STREET", "DATE", "MONEY", "ID", "CONTACT", "OTHER"];
const $ = (id) => document.getElementById(id);
const doc = $("doc");

const state = {
  text: "", index: null,      // the text; code point -> UTF-16 index when they differ
  spans: [],                  // sorted, disjoint: {id, start, end, label, score, source, status, origin, el}
  modelSpans: [],             // the analysis' spans as returned (sent with the review)
  upload: null,               // the File analysed, null for pasted text
  selected: null, label: "PERSON", nextId: 1, auth: false,
};
window.deidTimings = {};

// --- offsets --------------------------------------------------------------------------------------

function buildIndex(text) {
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  const index = []; let u = 0;
  for (const ch of text) { index.push(u); u += ch.length; }
  index.push(u);
  return index;
}
const toU = (cp) => (state.index ? state.index[cp] : cp);
function toCp(u) {
  const idx = state.index; if (!idx) return u;
  let lo = 0, hi = idx.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (idx[mid] <= u) lo = mid; else hi = mid - 1; }
  return lo;
}
const slice = (a, b) => state.text.slice(toU(a), toU(b));
const cpLength = () => (state.index ? state.index.length - 1 : state.text.length);

// --- rendering ------------------------------------------------------------------------------------

function tagOf(s) {
  const score = s.origin === "added" ? "+" : (s.score == null ? "" : " " + s.score.toFixed(2));
  return s.label + score;
}
function classOf(s) {
  return [s.label, s.status === "accepted" ? "ok" : "", s.status === "rejected" ? "no" : "",
    s.origin === "added" ? "add" : "", s === state.selected ? "sel" : ""].filter(Boolean).join(" ");
}
function markFor(s) {
  const m = document.createElement("mark");
  m.className = classOf(s); m.dataset.tag = tagOf(s); m.dataset.id = s.id;
  if (s.found) m.title = s.found;
  m.textContent = slice(s.start, s.end);
  s.el = m;
  return m;
}
function fragment(from, to, spans) {
  const f = document.createDocumentFragment(); let pos = from;
  for (const s of spans) {
    if (s.start > pos) f.append(slice(pos, s.start));
    f.append(markFor(s)); pos = s.end;
  }
  if (pos < to) f.append(slice(pos, to));
  return f;
}
function renderAll() {
  doc.replaceChildren(fragment(0, cpLength(), state.spans));
}
function refresh(s) {  // a span whose label or status changed: its element only
  if (!s || !s.el) return;
  s.el.className = classOf(s); s.el.dataset.tag = tagOf(s);
}
// Rebuild the DOM between the unchanged spans around [from, to) after spans there changed.
function rebuild(from, to) {
  const spans = state.spans;
  let i = 0; while (i < spans.length && spans[i].end <= from && spans[i].el && spans[i].el.isConnected) i++;
  const prev = i > 0 ? spans[i - 1] : null;
  let j = spans.length; while (j > i && spans[j - 1].start >= to && spans[j - 1].el && spans[j - 1].el.isConnected) j--;
  const next = j < spans.length ? spans[j] : null;
  const range = document.createRange();
  if (prev) range.setStartAfter(prev.el); else range.setStart(doc, 0);
  if (next) range.setEndBefore(next.el); else range.setEnd(doc, doc.childNodes.length);
  range.deleteContents();
  range.insertNode(fragment(prev ? prev.end : 0, next ? next.start : cpLength(), spans.slice(i, j)));
  doc.normalize();
}

// --- state changes --------------------------------------------------------------------------------

function sortSpans() { state.spans.sort((a, b) => a.start - b.start || a.end - b.end); }

function select(s, scroll = true) {
  const old = state.selected; state.selected = s;
  refresh(old); refresh(s);
  if (s && scroll && s.el) s.el.scrollIntoView({ block: "nearest" });
  showSpan();
}
function setStatus(s, status) { if (s) { s.status = status; refresh(s); counts(); showSpan(); } }
function relabel(s, label) {
  if (!s) return;
  s.label = label; if (s.status !== "rejected") s.status = "accepted";
  refresh(s); counts(); showSpan();
}
// Put a span over [start, end): the spans it overlaps are folded into it.
function place(start, end, label, keep) {
  if (start >= end) return null;
  const touched = state.spans.filter((s) => s.start < end && start < s.end && s !== keep);
  for (const s of touched) { start = Math.min(start, s.start); end = Math.max(end, s.end); }
  state.spans = state.spans.filter((s) => !touched.includes(s));
  let span = keep;
  if (span) { span.start = start; span.end = end; span.label = label; span.status = "accepted"; }
  else { span = { id: state.nextId++, start, end, label, score: null, source: "reviewer", status: "accepted", origin: "added" }; state.spans.push(span); }
  sortSpans(); rebuild(start, end); counts();
  return span;
}
const WORD = /[\p{L}\p{N}]/u;
function isWord(cp) { return cp >= 0 && cp < cpLength() && WORD.test(slice(cp, cp + 1)); }
function snapToWords(start, end) {
  while (start < end && /\s/.test(slice(start, start + 1))) start++;
  while (end > start && /\s/.test(slice(end - 1, end))) end--;
  while (start > 0 && isWord(start - 1) && isWord(start)) start--;
  while (end < cpLength() && isWord(end) && isWord(end - 1)) end++;
  return [start, end];
}
function textSelection() {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !doc.contains(sel.anchorNode) || !doc.contains(sel.focusNode)) return null;
  const r = sel.getRangeAt(0);
  const at = (node, offset) => { const p = document.createRange(); p.setStart(doc, 0); p.setEnd(node, offset); return toCp(p.toString().length); };
  const [start, end] = snapToWords(at(r.startContainer, r.startOffset), at(r.endContainer, r.endOffset));
  return start < end ? { start, end } : null;
}
function addSelection(label) {
  const range = textSelection(); if (!range) { say("select some text first"); return; }
  window.getSelection().removeAllRanges();
  select(place(range.start, range.end, label, null));
}
function widen(s, direction) {
  if (!s) return;
  let { start, end } = s;
  if (direction === "selection") {
    const range = textSelection(); if (!range) { say("select the text to widen the span to"); return; }
    window.getSelection().removeAllRanges();
    start = Math.min(start, range.start); end = Math.max(end, range.end);
  } else if (direction > 0) {
    while (end < cpLength() && !isWord(end)) end++;
    while (end < cpLength() && isWord(end)) end++;
  } else {
    while (start > 0 && !isWord(start - 1)) start--;
    while (start > 0 && isWord(start - 1)) start--;
  }
  select(place(start, end, s.label, s));
}
function escapeRegExp(t) { return t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
// The selected span's decision (label, accepted or rejected) for every mention of its text.
function applyToAll(s) {
  if (!s) return;
  const surface = slice(s.start, s.end);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(surface)}(?![\\p{L}\\p{N}])`, "gu");
  let changed = 0;
  for (const m of state.text.matchAll(re)) {
    const start = toCp(m.index), end = toCp(m.index + m[0].length);
    const same = state.spans.find((t) => t.start === start && t.end === end);
    if (same) { if (same !== s && (same.label !== s.label || same.status !== s.status)) { same.label = s.label; same.status = s.status; changed++; } continue; }
    if (s.status === "rejected" || state.spans.some((t) => t.start < end && start < t.end)) continue;
    state.spans.push({ id: state.nextId++, start, end, label: s.label, score: null, source: "reviewer", status: "accepted", origin: "added" });
    changed++;
  }
  sortSpans(); renderAll(); counts(); select(s, false);
  say(`${changed} other mention(s) changed`);
}

// --- panels ----------------------------------------------------------------------------------------

function showSpan() {
  const s = state.selected, box = $("span-info");
  if (!s) { box.textContent = "none selected"; box.className = "muted"; return; }
  box.className = "";
  box.replaceChildren();
  const rows = [["text", slice(s.start, s.end)], ["label", s.label], ["score", s.score == null ? "–" : s.score.toFixed(3)],
    ["found by", s.source || "–"], ["status", s.status], ["offsets", `${s.start}–${s.end}`]];
  for (const [k, v] of rows) { const d = document.createElement("div"); d.textContent = `${k}: ${v}`; box.append(d); }
}
function counts() {
  const c = { open: 0, accepted: 0, rejected: 0, added: 0 };
  for (const s of state.spans) { if (s.status === "rejected") c.rejected++; else if (s.origin === "added") c.added++; else c[s.status]++; }
  $("counts").textContent = `${state.spans.length} spans · ${c.open} open · ${c.accepted} accepted · ${c.rejected} rejected · ${c.added} added`;
}
function say(message, error = false) { const f = $("status"); f.textContent = message; f.className = error ? "error" : ""; }

// --- the service ----------------------------------------------------------------------------------

function headers(extra = {}) {
  const token = $("token").value.trim();
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}
async function call(path, init) {
  const response = await fetch(path, { ...init, headers: headers(init.headers || {}) });
  if (!response.ok) {
    let detail = response.statusText;
    try { const body = await response.json(); detail = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail); } catch (e) { /* not JSON */ }
    throw new Error(`${response.status}: ${detail}`);
  }
  return response;
}
function finalSpans() {
  return state.spans.filter((s) => s.status !== "rejected").map((s) => ({ start: s.start, end: s.end, label: s.label }));
}
async function analyze(body, upload) {
  const t0 = performance.now();
  say("analysing…");
  try {
    const init = upload ? { method: "POST", body } : { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } };
    const result = await (await call("/analyze", init)).json();
    const t1 = performance.now();
    load(upload ? result.text : body.text, result.spans, upload);
    const t2 = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      const t3 = performance.now();
      window.deidTimings = { analyze_ms: t1 - t0, render_ms: t2 - t1, first_highlight_ms: t3 - t1, total_ms: t3 - t0, spans: state.spans.length, characters: cpLength() };
      doc.dataset.ready = "1";
    }, 0));
    say(`${result.spans.length} spans in ${result.characters} characters`);
  } catch (e) { say(e.message, true); }
}
function load(text, spans, upload) {
  delete doc.dataset.ready;
  state.text = text; state.index = buildIndex(text); state.upload = upload; state.selected = null;
  state.modelSpans = spans.map((s) => ({ start: s.start, end: s.end, label: s.label, score: s.score ?? null, source: s.source ?? null }));
  state.spans = spans.map((s) => ({ id: state.nextId++, start: s.start, end: s.end, label: s.type || s.label, score: s.score ?? null, source: s.source ?? null, status: "open", origin: "model",
    found: `${s.label}${s.source ? " · " + s.source : ""}${s.score == null ? "" : " · " + s.score.toFixed(2)}` }));
  sortSpans(); renderAll(); counts(); showSpan();
  $("preview-box").hidden = true;
  doc.focus();
}
async function anonymized(asFile) {
  const operator = $("operator").value, spans = finalSpans();
  if (asFile && state.upload) {
    const form = new FormData();
    form.append("file", state.upload); form.append("operator", operator);
    form.append("spans", JSON.stringify(spans)); form.append("output", "file");
    return (await call("/anonymize", { method: "POST", body: form })).blob();
  }
  const body = { text: state.text, operator, spans };
  const result = await (await call("/anonymize", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } })).json();
  return asFile ? new Blob([result.text], { type: "text/plain;charset=utf-8" }) : result;
}
async function preview() {
  if (!state.text) return;
  try {
    const result = await anonymized(false);
    $("preview-text").textContent = result.text; $("preview-box").hidden = false;
    say(`preview: ${result.output_spans.length} spans neutralized with ${result.operator}`);
  } catch (e) { say(e.message, true); }
}
function downloadName() {
  const name = state.upload ? state.upload.name : "decision.txt";
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)}.anonymized${name.slice(dot)}` : `${name}.anonymized.txt`;
}
async function download() {
  if (!state.text) return;
  try {
    const blob = await anonymized(true);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob); a.download = downloadName();
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    say(`downloaded ${a.download}`);
  } catch (e) { say(e.message, true); }
}
async function save() {
  if (!state.text) return;
  const reviewer = $("reviewer").value.trim();
  if (!reviewer) { say("enter your reviewer name (one word) first", true); $("reviewer").focus(); return; }
  localStorage.setItem("deid.reviewer", reviewer);
  try {
    const body = { text: state.text, model_spans: state.modelSpans, spans: finalSpans(), reviewer };
    const result = await (await call("/reviews", { method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } })).json();
    const d = result.decisions;
    say(`review ${result.id} saved: ${d.accepted} accepted, ${d.rejected} rejected, ${d.relabelled} relabelled, ${d.widened} widened, ${d.added} added`);
    doc.dataset.saved = result.id;
  } catch (e) { say(e.message, true); }
}

// --- input -----------------------------------------------------------------------------------------

function step(delta) {
  const spans = state.spans; if (!spans.length) return;
  const i = state.selected ? spans.indexOf(state.selected) : (delta > 0 ? -1 : spans.length);
  select(spans[Math.min(spans.length - 1, Math.max(0, i + delta))]);
}
function act(name) {
  const s = state.selected;
  if (name === "accept") setStatus(s, "accepted");
  else if (name === "reject") setStatus(s, "rejected");
  else if (name === "add") addSelection(state.label);
  else if (name === "widen") widen(s, "selection");
  else if (name === "all") applyToAll(s);
}
function chooseLabel(label) {
  state.label = label;
  for (const b of document.querySelectorAll("#labels button")) b.classList.toggle("on", b.dataset.label === label);
}
function onKey(e) {
  if (e.target.matches("input, textarea, select")) return;
  if (e.target.matches("button, a") && ["Enter", " ", "Tab"].includes(e.key)) return;
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const s = state.selected, k = e.key;
  if (e.shiftKey && (k === "ArrowRight" || k === "ArrowLeft")) { widen(s, k === "ArrowRight" ? 1 : -1); }
  else if (k === "j" || k === "ArrowDown" || (k === "Tab" && !e.shiftKey && e.target === doc)) step(1);
  else if (k === "k" || k === "ArrowUp" || (k === "Tab" && e.shiftKey && e.target === doc)) step(-1);
  else if (k === "a" || k === "Enter") act("accept");
  else if (k === "r" || k === "x" || k === "Delete" || k === "Backspace") act("reject");
  else if (k === "n") act("add");
  else if (k === "w") act("widen");
  else if (k === "m") act("all");
  else if (k === "p") preview();
  else if (k === "Escape") select(null, false);
  else if (/^[1-9]$/.test(k)) {
    const label = LABELS[Number(k) - 1]; chooseLabel(label);
    if (textSelection()) addSelection(label); else relabel(s, label);
  } else return;
  e.preventDefault();
}

function setup() {
  for (const [i, label] of LABELS.entries()) {
    const b = document.createElement("button");
    b.type = "button"; b.dataset.label = label; b.textContent = `${i + 1} ${label}`;
    b.style.borderLeftColor = `var(--${label})`; b.title = `Label ${label} (key ${i + 1})`;
    b.addEventListener("click", () => { chooseLabel(label); if (textSelection()) addSelection(label); else relabel(state.selected, label); });
    $("labels").append(b);
  }
  chooseLabel(state.label);
  for (const b of document.querySelectorAll("#toolbar [data-act]")) b.addEventListener("click", () => act(b.dataset.act));
  doc.addEventListener("click", (e) => {
    const m = e.target.closest("mark");
    if (m && window.getSelection().isCollapsed) select(state.spans.find((s) => String(s.id) === m.dataset.id), false);
  });
  document.addEventListener("keydown", onKey);
  $("file").addEventListener("change", () => {
    const file = $("file").files[0]; if (!file) return;
    $("file-name").textContent = file.name;
    const form = new FormData(); form.append("file", file);
    analyze(form, file);
  });
  $("analyze-text").addEventListener("click", () => {
    const text = $("paste").value; if (!text.trim()) { say("paste a decision first", true); return; }
    analyze({ text }, null);
  });
  $("preview").addEventListener("click", preview);
  $("download").addEventListener("click", download);
  $("save").addEventListener("click", save);
  $("token").value = sessionStorage.getItem("deid.token") || "";
  $("token").addEventListener("change", () => sessionStorage.setItem("deid.token", $("token").value.trim()));
  $("reviewer").value = localStorage.getItem("deid.reviewer") || "";
  fetch("/health").then((r) => r.json()).then((h) => {
    const m = h.model;
    $("model").textContent = m.rules_only ? "rules only (no model)" : `${m.name || m.uri}${m.version ? " v" + m.version : ""}${m.alias ? " @" + m.alias : ""}`;
    $("token-box").hidden = !h.auth; state.auth = h.auth;
    for (const op of h.operators) { const o = document.createElement("option"); o.value = o.textContent = op; $("operator").append(o); }
    $("operator").value = h.default_operator;
  }).catch(() => say("the service does not answer", true));
}
setup();
