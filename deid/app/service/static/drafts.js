// deid review page: the unsaved review kept in this browser (IndexedDB), so a reload, a
// crash or a closed tab loses nothing. One draft: the document (its text, the proposals, the
// file it came from) written when it is opened, and the edits written shortly after each
// change; both are deleted when the review is saved or the reviewer discards it. The text of
// a decision stays on the reviewer's machine only until then. Defines the global `Drafts`.
"use strict";

const Drafts = (() => {
  const DB = "deid-review", STORE = "drafts";
  let db = null;

  function open() {
    if (db) return Promise.resolve(db);
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => { db = request.result; resolve(db); };
      request.onerror = () => reject(request.error);
    });
  }
  async function run(mode, work) {
    const store = (await open()).transaction(STORE, mode).objectStore(STORE);
    return new Promise((resolve, reject) => {
      const request = work(store);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  const put = (key, value) => run("readwrite", (s) => s.put(value, key));
  const get = (key) => run("readonly", (s) => s.get(key));
  const del = (key) => run("readwrite", (s) => s.delete(key));

  let pending = null, timer = null;
  return {
    // The document just opened (its key ties the edits to it).
    saveDocument: (doc) => put("document", doc),
    // The edits: written 300 ms after the last change, or at once with `now`.
    saveEdits(edits, now = false) {
      pending = edits; clearTimeout(timer);
      const write = () => { const e = pending; pending = null; return e ? put("edits", e) : Promise.resolve(); };
      if (now) return write();
      timer = setTimeout(write, 300);
      return Promise.resolve();
    },
    flush() { clearTimeout(timer); return pending ? put("edits", pending).then(() => { pending = null; }) : Promise.resolve(); },
    // The draft, when there is unsaved work on a document.
    async load() {
      const [doc, edits] = await Promise.all([get("document"), get("edits")]);
      return doc && edits && edits.key === doc.key && edits.dirty ? { doc, edits } : null;
    },
    async clear() { clearTimeout(timer); pending = null; await Promise.all([del("document"), del("edits")]); },
  };
})();
