// deid review page: spans as data. No DOM here: the text, word edges, and every edit a
// reviewer can make as a change (spans removed, spans added) that review.js applies, draws
// and keeps for undo. Loaded before review.js; defines the global `Spans`.
//
// Offsets are code points (as the service counts them); the DOM counts UTF-16 units, so a
// Text keeps the table between the two when the text has characters outside the BMP.
//
// A span: {id, start, end, label, score, source, status, origin, model}
//   status  open (nobody decided) | accepted | rejected | edited (changed or added: decided)
//   origin  "model" (proposed by the analysis) | "added" (by the reviewer)
//   model   the proposed {start, end, label} it came from (null for an added span)
// Spans are never changed in place: an edit replaces them, so the old ones can come back.
"use strict";

const Spans = (() => {
  const WORD = /[\p{L}\p{N}]/u;
  const EDGE = /[\p{P}\s]/u;  // never at a span's edge: punctuation and white space

  class Text {
    constructor(text) {
      this.text = text;
      this.index = null;  // code point -> UTF-16 index, only when they differ
      if (/[\uD800-\uDFFF]/.test(text)) {
        const index = []; let u = 0;
        for (const ch of text) { index.push(u); u += ch.length; }
        index.push(u);
        this.index = index;
      }
      this.length = this.index ? this.index.length - 1 : text.length;
    }
    toU(cp) { return this.index ? this.index[cp] : cp; }
    toCp(u) {
      const idx = this.index; if (!idx) return u;
      let lo = 0, hi = idx.length - 1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (idx[mid] <= u) lo = mid; else hi = mid - 1; }
      return lo;
    }
    slice(a, b) { return this.text.slice(this.toU(a), this.toU(b)); }
    isWord(cp) { return cp >= 0 && cp < this.length && WORD.test(this.slice(cp, cp + 1)); }
    isEdge(cp) { return cp >= 0 && cp < this.length && EDGE.test(this.slice(cp, cp + 1)); }
  }

  // [start, end) without punctuation or white space at either edge, widened to whole words.
  function snap(t, start, end) {
    start = Math.max(0, Math.min(start, t.length)); end = Math.max(start, Math.min(end, t.length));
    while (start < end && t.isEdge(start)) start++;
    while (end > start && t.isEdge(end - 1)) end--;
    if (start >= end) return null;
    while (start > 0 && t.isWord(start - 1) && t.isWord(start)) start--;
    while (end < t.length && t.isWord(end) && t.isWord(end - 1)) end++;
    return [start, end];
  }
  // The end of the next word after `pos`, the start of the word before `pos`.
  function nextWordEnd(t, pos) {
    while (pos < t.length && !t.isWord(pos)) pos++;
    while (pos < t.length && t.isWord(pos)) pos++;
    return pos;
  }
  function prevWordStart(t, pos) {
    while (pos > 0 && !t.isWord(pos - 1)) pos--;
    while (pos > 0 && t.isWord(pos - 1)) pos--;
    return pos;
  }
  // Inside a span: the end of its word before `pos`, the start of its word after `pos`.
  function prevWordEnd(t, pos, floor) {
    while (pos > floor && t.isWord(pos - 1)) pos--;
    while (pos > floor && !t.isWord(pos - 1)) pos--;
    return pos;
  }
  function nextWordStart(t, pos, ceil) {
    while (pos < ceil && t.isWord(pos)) pos++;
    while (pos < ceil && !t.isWord(pos)) pos++;
    return pos;
  }

  const sameAsModel = (s) => s.model && s.model.start === s.start && s.model.end === s.end && s.model.label === s.label;
  // The status of a span a reviewer just changed: decided, and "edited" unless it is what was proposed.
  const decided = (s) => (sameAsModel(s) ? "accepted" : "edited");
  const overlaps = (a, b) => a.start < b.end && b.start < a.end;
  const byOffset = (a, b) => a.start - b.start || a.end - b.end;

  // Spans are disjoint; these edits keep them so.
  class Editor {
    constructor(text) { this.t = text; this.nextId = 1; }
    id() { return this.nextId++; }
    span(fields) { return { id: this.id(), score: null, source: "reviewer", origin: "added", model: null, ...fields }; }
    copy(s, fields) {  // a changed span: decided, unless it stays rejected
      const out = { ...s, ...fields };
      if (out.status !== "rejected") out.status = decided(out);
      return out;
    }

    // What is left of `n` outside [start, end): no part, one, or two (snapped to words).
    trimmed(n, start, end) {
      const parts = [];
      for (const [a, b] of [[n.start, start], [end, n.end]]) {
        const r = a < b && snap(this.t, a, b);
        const lo = r && Math.max(r[0], a), hi = r && Math.min(r[1], b);
        if (r && lo < hi) parts.push([lo, hi]);
      }
      return parts.map(([a, b], i) => this.copy(n, i ? { id: this.id(), start: a, end: b } : { start: a, end: b }));
    }
    // Put `span` in place: what it overlaps is trimmed to the parts outside it. A covered
    // proposed span with the same offsets lends the new one its identity (so adding back a
    // rejected span's exact words is accepting it, not adding a new one).
    place(spans, span) {
      const remove = spans.filter((s) => s.id !== span.id && overlaps(s, span));
      const add = [];
      const twin = remove.find((s) => s.origin === "model" && s.start === span.start && s.end === span.end);
      if (twin && span.origin === "added") {
        span = { ...span, id: twin.id, origin: "model", model: twin.model, score: twin.score, source: twin.source };
        span.status = decided(span);
      }
      for (const n of remove) add.push(...this.trimmed(n, span.start, span.end));
      const old = spans.find((s) => s.id === span.id);
      if (old && !remove.includes(old)) remove.push(old);
      add.push(span);
      return { remove, add, select: span.id };
    }

    setStatus(s, status) {
      if (s.status === status) return null;
      const out = { ...s, status };
      if (status === "accepted" && (s.origin === "added" || !sameAsModel(s))) out.status = "edited";
      return { remove: [s], add: [out], select: s.id };
    }
    relabel(s, label) {
      if (s.label === label && s.status !== "open" && s.status !== "rejected") return null;
      const out = { ...s, label }; out.status = decided(out);
      return { remove: [s], add: [out], select: s.id };
    }
    add(spans, start, end, label) {
      const r = snap(this.t, start, end); if (!r) return null;
      return this.place(spans, this.span({ start: r[0], end: r[1], label, status: "edited" }));
    }
    // The span over exactly [start, end) (snapped): shrink, grow or move it to a selection.
    setExtent(spans, s, start, end) {
      const r = snap(this.t, start, end); if (!r) return null;
      if (r[0] === s.start && r[1] === s.end) return null;
      const out = { ...s, start: r[0], end: r[1] }; out.status = decided(out);  // a resized span is decided
      return this.place(spans, out);
    }
    // One edge by a word: edge "start"|"end", direction -1 (left) | +1 (right). Growing stops
    // at a span that is not rejected; a rejected one it runs into gives way.
    moveEdge(spans, s, edge, direction) {
      const t = this.t; let { start, end } = s;
      if (edge === "end") end = direction > 0 ? nextWordEnd(t, end) : prevWordEnd(t, end, start);
      else start = direction < 0 ? prevWordStart(t, start) : nextWordStart(t, start, end);
      if (start >= end || (start === s.start && end === s.end)) return null;
      for (const n of spans) {
        if (n.id === s.id || n.status === "rejected") continue;
        if (end > s.end && n.start >= s.end && n.start < end) end = n.start;
        if (start < s.start && n.end <= s.start && n.end > start) start = n.end;
      }
      return this.setExtent(spans, s, start, end);
    }
    // Two spans from one: without [cutStart, cutEnd) (a selection inside it), else at the
    // gap between words nearest `at` (a click), else at its first gap.
    split(spans, s, cutStart, cutEnd, at) {
      const t = this.t;
      if (cutStart == null) {
        const gaps = [];
        for (let p = s.start + 1; p < s.end; p++) if (!t.isWord(p) && t.isWord(p - 1)) {
          let q = p; while (q < s.end && !t.isWord(q)) q++;
          gaps.push([p, q]);
        }
        if (!gaps.length) return null;
        const target = at == null ? gaps[0][0] : at;
        [cutStart, cutEnd] = gaps.reduce((best, g) => (Math.abs(g[0] - target) < Math.abs(best[0] - target) ? g : best));
      }
      const left = snap(t, s.start, Math.max(s.start, cutStart)), right = snap(t, Math.min(s.end, cutEnd), s.end);
      if (!left || !right || left[1] > right[0]) return null;
      const status = s.status === "rejected" ? "rejected" : "edited";
      const a = { ...s, start: left[0], end: Math.min(left[1], s.end), status };
      const b = { ...s, id: this.id(), start: Math.max(right[0], s.start), end: right[1], status };
      if (status !== "rejected") { a.status = decided(a); b.status = decided(b); }
      return { remove: [s], add: [a, b], select: a.id };
    }
    // One span from `s` to the end of the next span that is not rejected (rejected ones
    // between give way); the label is `s`'s.
    merge(spans, s) {
      const next = spans.filter((n) => n.start >= s.end && n.status !== "rejected").sort(byOffset)[0];
      if (!next) return null;
      const remove = spans.filter((n) => n.start >= s.start && n.end <= next.end);
      const out = { ...s, end: next.end }; out.status = decided(out);
      return { remove, add: [out], select: s.id };
    }
    // The selected span's decision for every mention of its text (whole words only):
    // spans at a mention get its label and status; a mention without one gets a new span
    // unless the decision is a rejection or another span overlaps it.
    allMentions(spans, s) {
      const t = this.t, surface = t.slice(s.start, s.end);
      const re = new RegExp(`(?<![\\p{L}\\p{N}])${surface.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "gu");
      const remove = [], add = [];
      const status = s.status === "open" ? decided(s) : s.status;
      for (const m of t.text.matchAll(re)) {
        const start = t.toCp(m.index), end = t.toCp(m.index + m[0].length);
        const same = spans.find((n) => n.start === start && n.end === end);
        if (same) {
          if (same.id !== s.id && (same.label !== s.label || same.status !== status)) {
            const out = { ...same, label: s.label, status };
            if (status !== "rejected") out.status = decided(out);
            remove.push(same); add.push(out);
          }
          continue;
        }
        if (status === "rejected" || spans.some((n) => n.start < end && start < n.end)) continue;
        add.push(this.span({ start, end, label: s.label, status: "edited" }));
      }
      if (s.status === "open") { remove.push(s); add.push({ ...s, status }); }
      return add.length ? { remove, add, select: s.id } : null;
    }
    // Every open span accepted (the reviewer's answer when saving with open spans).
    acceptOpen(spans) {
      const open = spans.filter((s) => s.status === "open");
      return open.length ? { remove: open, add: open.map((s) => ({ ...s, status: "accepted" })), select: null } : null;
    }
  }

  // A change applied to a sorted, disjoint list; the inverse change undoes it.
  function apply(spans, change) {
    const gone = new Set(change.remove.map((s) => s.id));
    return spans.filter((s) => !gone.has(s.id)).concat(change.add).sort(byOffset);
  }
  const inverse = (change) => ({ remove: change.add, add: change.remove, select: change.before ?? null });
  // The stretches of text a change touched: overlapping spans joined, the rest apart.
  function stretches(change) {
    const all = change.remove.concat(change.add).sort(byOffset), out = [];
    for (const s of all) {
      const last = out[out.length - 1];
      if (last && s.start <= last[1]) last[1] = Math.max(last[1], s.end); else out.push([s.start, s.end]);
    }
    return out;
  }

  // The page's spans from an analysis: open, each its own proposal.
  function fromAnalysis(editor, found) {
    return found.map((s) => {
      const label = s.type || s.label;
      return { id: editor.id(), start: s.start, end: s.end, label, score: s.score ?? null, source: s.source ?? null,
        status: "open", origin: "model", model: { start: s.start, end: s.end, label }, found: s.label };
    }).sort(byOffset);
  }
  // The page's spans from a saved review (GET /reviews/{id}): what was decided as decided,
  // what was left open as open, rejected proposals struck through where nothing else is.
  function fromReview(editor, record) {
    const out = [], proposals = [];
    for (const d of record.decisions) {
      const m = d.model, f = d.final;
      if (!m) { out.push(editor.span({ start: f.start, end: f.end, label: f.label, status: "edited" })); continue; }
      const model = { start: m.start, end: m.end, label: coarse(m.label) };
      proposals.push({ start: m.start, end: m.end, label: m.label, score: m.score ?? null, source: m.source ?? null });
      const base = { score: m.score ?? null, source: m.source ?? null, origin: "model", model, found: m.label };
      if (d.decision === "open") out.push({ id: editor.id(), ...model, ...base, status: "open" });
      else if (d.decision === "rejected") out.push({ id: editor.id(), ...model, ...base, status: "rejected" });
      else if (!out.some((s) => s.start === f.start && s.end === f.end)) {
        const s = { id: editor.id(), start: f.start, end: f.end, label: f.label, ...base }; s.status = decided(s);
        out.push(s);
      }
    }
    const kept = out.filter((s) => s.status !== "rejected");
    const spans = kept.concat(out.filter((s) => s.status === "rejected" && !kept.some((k) => overlaps(k, s))));
    return { spans: dedupe(spans.sort(byOffset)), proposals };
  }
  function dedupe(spans) {  // rejected proposals may overlap each other: keep the first
    const out = [];
    for (const s of spans) if (!out.length || out[out.length - 1].end <= s.start) out.push(s);
    return out;
  }
  let COARSE = {};
  const coarse = (label) => COARSE[label] || label;
  function setVocabulary(fineToCoarse) { COARSE = fineToCoarse || {}; }

  return { Text, Editor, snap, apply, inverse, stretches, fromAnalysis, fromReview, setVocabulary, byOffset, overlaps };
})();

if (typeof module !== "undefined") module.exports = Spans;  // node, for a quick check outside the browser
