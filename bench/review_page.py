"""The review page on a 100-page DOCX, in Debian's headless chromium against a real
``deid serve``: how soon it shows progress, how fast it highlights, how fast it answers keys.

    python -m bench.review_page [--model PATH_OR_URI] [--repeat 3] [--pages 100] [--screenshots docs/screenshots]

The document has ``--pages`` pages of 3,000 characters: the longest bundled decisions, joined,
with the contact block of an unredacted original (a name, an address, an e-mail address, a
phone, an account number) on every page, so the rules alone propose several hundred spans.
Measured, each ``--repeat`` times (medians; keys: every press counted):

* ``upload``: the DOCX chosen in the page until the progress box shows (``progress_shown_ms``),
  the service's first progress line arrives (``first_progress_ms``), the answer is in
  (``analyze_ms``) and the first highlight is painted (``first_highlight_ms`` after the
  answer);
* ``keys``: on that document, from each key's event to the frame after the page answered it
  (its handler and the redraw it scheduled: span list, counts, overview): next and previous
  span, next open span, accept, reject, relabel, moving either edge, undo, redo, split,
  merge, all mentions (the address's 100 mentions at once);
* ``dense``: the renderer alone with a span on every capitalized word (tens of thousands of
  highlights, far more than any model marks), the worst case.

``--screenshots DIR`` also writes the pictures of docs/review.md: the page reviewing a
decision of the queue (``review-page.png``), the span list sorted by score
(``review-span-list.png``), a low-confidence span selected (``review-low-confidence.png``)
and the queue ordered least certain first (``review-queue.png``).
Writes ``reports/bench_review_page.json``; prints no document text.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.service import bundled_decisions
from infra.workbench import chromium, select_text, start_service, wait_for

REPORT = Path("reports/bench_review_page.json")
PAGE_CHARACTERS = 3000
PAGES = 100
KEYS = ("j", "j", "k", " ", "a", "r", "1", "SHIFT+RIGHT", "SHIFT+LEFT", "CTRL+SHIFT+LEFT", "CTRL+SHIFT+RIGHT",
        "CTRL+z", "CTRL+SHIFT+z", "g", "s", "CTRL+z", "m", "CTRL+z", "ESCAPE")  # fmt: skip


def long_decision(pages: int = PAGES) -> tuple[list[str], str]:
    """A decision of ``pages`` pages of 3,000 characters: the bundled decisions longest first,
    joined and cut there (the longest alone has 100,158), and the names of those used."""
    texts = bundled_decisions()
    names = sorted(texts, key=lambda n: (-len(texts[n]), n))
    used, size = [], 0
    for name in names:
        used.append(name)
        size += len(texts[name]) + 2
        if size >= pages * PAGE_CHARACTERS:
            break
    return used, "\n\n".join(texts[n] for n in used)[: pages * PAGE_CHARACTERS]


def with_contacts(text: str) -> str:
    """A contact block after the first line break of every page."""
    from tests.code.review_data import CONTACT

    out, pos = [], 0
    while pos < len(text):
        page = text[pos : pos + PAGE_CHARACTERS]
        cut = page.find("\n") + 1 if "\n" in page else len(page)
        out += [page[:cut], CONTACT, "\n", page[cut:]]
        pos += PAGE_CHARACTERS
    return "".join(out)


def _ready(driver: Any) -> bool:
    return bool(driver.execute_script("return document.getElementById('doc').dataset.ready"))


def fresh_page(driver: Any, url: str) -> None:
    """The page with an empty draft store (a draft would be restored instead of a new start)."""
    driver.get(f"{url}/health")
    driver.execute_async_script("const r = indexedDB.deleteDatabase('deid-review');"
                                "r.onsuccess = r.onerror = r.onblocked = () => arguments[0](true);")  # fmt: skip
    driver.get(f"{url}/")
    wait_for(lambda: driver.execute_script("return document.body.dataset.ready"), "the page")


PROGRESS_WATCH = """new MutationObserver((_, obs) => { if (!document.getElementById('progress-box').hidden) {
  window.progressShown = performance.now(); obs.disconnect(); } }).observe(document.getElementById('progress-box'),
  {attributes: true}); window.addEventListener('change', () => { window.chosen = performance.now(); }, true);"""


def measure_upload(driver: Any, url: str, file: Path) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    fresh_page(driver, url)
    driver.execute_script(PROGRESS_WATCH)
    driver.find_element(By.ID, "file").send_keys(str(file))
    wait_for(lambda: _ready(driver), "the highlights")
    t = driver.execute_script("return Object.assign({}, window.deidTimings, {chosen: window.chosen, shown: window.progressShown})")
    return {"progress_shown_ms": t["shown"] - t["chosen"], "first_progress_ms": t["first_progress_ms"],
            "analyze_ms": t["analyze_ms"], "first_highlight_ms": t["first_highlight_ms"], "spans": t["spans"],
            "characters": t["characters"]}  # fmt: skip


KEY_WATCH = """window.keyTimes = []; window.addEventListener('keydown', (e) => {
  if (['Shift', 'Control'].includes(e.key)) return;
  const t0 = e.timeStamp; requestAnimationFrame(() => setTimeout(() => window.keyTimes.push(performance.now() - t0), 0));
}, true);"""


def measure_keys(driver: Any) -> dict[str, float]:
    """Each key of :data:`KEYS` on the open document, one at a time."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script(KEY_WATCH)
    driver.execute_script("document.getElementById('doc').focus(); select(state.spans[Math.floor(state.spans.length / 2)])")
    out: dict[str, list[float]] = {}
    for n, key in enumerate(KEYS):
        *mods, name = key.split("+")
        chain = ActionChains(driver)
        for mod in mods:
            chain = chain.key_down(getattr(Keys, "CONTROL" if mod == "CTRL" else mod))
        chain = chain.send_keys(getattr(Keys, name, name) if len(name) > 1 else name)
        for mod in reversed(mods):
            chain = chain.key_up(getattr(Keys, "CONTROL" if mod == "CTRL" else mod))
        chain.perform()
        wait_for(lambda n=n: driver.execute_script("return window.keyTimes.length") > n, f"key {key}")
        out.setdefault(key.strip() or "SPACE", []).append(driver.execute_script(f"return window.keyTimes[{n}]"))
    return {key: max(times) for key, times in out.items()}


DENSE_SCRIPT = """
const text = arguments[0], found = [];
for (const m of text.matchAll(/\\p{Lu}[\\p{L}-]+/gu)) found.push({start: m.index, end: m.index + m[0].length,
  label: 'PERSON', type: 'PERSON', score: 0.9, source: 'bench'});
const t0 = performance.now();
load({text, spans: found, sha256: 'bench', characters: text.length}, {kind: 'paste', name: 'bench'}, null);
const t1 = performance.now();
requestAnimationFrame(() => setTimeout(() => { window.denseTiming = {render_ms: t1 - t0,
  first_highlight_ms: performance.now() - t0, spans: found.length}; }, 0));
"""


def measure_dense(driver: Any, url: str, text: str) -> dict[str, float]:
    """The renderer alone: ``text`` has only BMP characters, so its offsets are the page's."""
    fresh_page(driver, url)
    driver.execute_script(DENSE_SCRIPT, text)
    return wait_for(lambda: driver.execute_script("return window.denseTiming"), "the dense render")


def screenshots(driver: Any, url: str, target: Path) -> list[str]:
    """The pictures of docs/review.md, from the queue's decisions (rules only)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    from tests.code.review_data import OFFICER

    target.mkdir(parents=True, exist_ok=True)
    fresh_page(driver, url)
    driver.find_element(By.ID, "reviewer").send_keys("a.richter")
    Select(driver.find_element(By.ID, "queue-order")).select_by_value("uncertain")
    wait_for(lambda: driver.execute_script("return state.queue && state.queue.order === 'uncertain'"), "the order")
    driver.find_element(By.CSS_SELECTOR, "#queue-list button").click()
    wait_for(lambda: _ready(driver), "the first document")
    select_text(driver, OFFICER)  # the name no rule reads: the reviewer adds it
    ActionChains(driver).send_keys("1", "m").perform()
    driver.execute_script("select(state.spans.find(s => s.status === 'open')); document.getElementById('doc').focus()")
    ActionChains(driver).send_keys("a", "r").perform()
    driver.execute_script("document.querySelector('#doc mark.sel').scrollIntoView({block: 'center'})")
    names = []

    def shot(name: str) -> None:
        driver.save_screenshot(str(target / name))
        names.append(name)

    shot("review-page.png")
    Select(driver.find_element(By.ID, "sort")).select_by_value("score")
    shot("review-span-list.png")
    driver.execute_script("select(state.spans.filter(s => Panels.isLow(s))[0])")
    driver.execute_script("document.querySelector('#doc mark.sel').scrollIntoView({block: 'center'})")
    shot("review-low-confidence.png")
    ActionChains(driver).key_down("\ue009").send_keys("s").key_up("\ue009").perform()
    wait_for(lambda: driver.execute_script("return document.getElementById('ask').open"), "the question")
    driver.find_element(By.CSS_SELECTOR, "#ask-buttons button[value='open']").click()
    wait_for(lambda: driver.execute_script("return document.getElementById('doc').dataset.saved"), "the save")
    driver.find_elements(By.CSS_SELECTOR, "#queue-list button")[1].click()
    wait_for(lambda: _ready(driver) and driver.execute_script("return !document.getElementById('doc').dataset.saved"),
             "the second document")  # fmt: skip
    ActionChains(driver).send_keys(" ", "a", "a", "r").perform()
    shot("review-queue.png")
    return names


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from tests.code.review_data import write_docx, write_queue

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="Pipeline directory or MLflow URI (default: rules only).")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", type=int, default=PAGES)
    parser.add_argument("--screenshots", type=Path, help="Also write the pictures of docs/review.md here.")
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    sources, text = long_decision(args.pages)
    text = with_contacts(text)
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        file = work_dir / "Urteil.docx"
        write_docx(file, text)
        docx_bytes = file.stat().st_size
        write_queue(work_dir / "queue")
        serve = ["--model", args.model] if args.model else ["--rules-only"]
        service = start_service([*serve, "--reviews", str(work_dir / "reviews"), "--queue", str(work_dir / "queue"),
                                 "--max-bytes", str(64 << 20), "--timeout", "600"],
                                log=work_dir / "serve.log", cwd=Path.cwd())  # fmt: skip
        driver = chromium(work_dir / "downloads", profile_dir=work_dir / "profile")
        try:
            upload, keys = [], []
            for _ in range(args.repeat):
                upload.append(measure_upload(driver, service.url, file))
                keys.append(measure_keys(driver))
            dense = [measure_dense(driver, service.url, text) for _ in range(args.repeat)]
            shots = screenshots(driver, service.url, args.screenshots) if args.screenshots else []
        finally:
            driver.quit()
            service.stop()
    key_max = {key: round(max(k[key] for k in keys), 1) for key in keys[0]}
    report = {
        "decisions": sources, "characters": len(text), "pages": args.pages, "docx_bytes": docx_bytes,
        "model": "rules only" if not args.model else args.model, "repeat": args.repeat,
        "upload": _medians(upload), "keys_max_ms": key_max, "slowest_key_ms": max(key_max.values()),
        "dense": _medians(dense), "browser": "Debian chromium, headless", "screenshots": shots,
    }  # fmt: skip
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    return report


def _medians(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(r[key] for r in rows), 1) for key in rows[0]}


if __name__ == "__main__":
    main()
