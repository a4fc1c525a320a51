"""Time to first highlight on the review page for a 50-page decision, in Debian's headless
chromium against a real ``deid serve``.

    python -m bench.review_page [--model PATH_OR_URI] [--repeat 5] [--screenshot docs/review-page.png]

The decision has 50 pages of 3,000 characters: the longest bundled decisions, joined. Two
measurements, each ``--repeat`` times (the page reloaded in between), medians reported:

* ``upload``: the file chosen in the page, analysed by the service (rules only unless
  ``--model``), highlighted: from the request to the first paint with highlights
  (``first_highlight_ms`` counts from the response; ``total_ms`` from the request);
* ``dense``: the page's renderer alone on the same text with a span on every capitalized
  word (tens of thousands of highlights, far more than any model finds), the worst case.

``--screenshot`` also writes a picture of the page reviewing a BVerwG decision (witness
names planted as in the format tests; one span rejected, one name added to all its
mentions, the preview open). Writes ``reports/bench_review_page.json``.
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
PAGES = 50


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


def _ready(driver: Any) -> bool:
    return bool(driver.execute_script("return document.getElementById('doc').dataset.ready"))


def measure_upload(driver: Any, url: str, file: Path) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/")
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("value"), "the page")
    driver.find_element(By.ID, "file").send_keys(str(file))
    wait_for(lambda: _ready(driver), "the highlights")
    return driver.execute_script("return window.deidTimings")


DENSE_SCRIPT = """
const text = arguments[0], spans = [];
for (const m of text.matchAll(/\\p{Lu}[\\p{L}-]+/gu)) spans.push({start: m.index, end: m.index + m[0].length,
  label: 'PERSON', type: 'PERSON', score: 0.9, source: 'bench'});
const t0 = performance.now();
load(text, spans, null);
const t1 = performance.now();
requestAnimationFrame(() => setTimeout(() => { window.denseTiming = {render_ms: t1 - t0,
  first_highlight_ms: performance.now() - t0, spans: spans.length}; }, 0));
"""


def measure_dense(driver: Any, url: str, text: str) -> dict[str, float]:
    """The renderer alone: ``text`` has only BMP characters, so its offsets are the page's."""
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/")
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("value"), "the page")
    driver.execute_script(DENSE_SCRIPT, text)
    return wait_for(lambda: driver.execute_script("return window.denseTiming"), "the dense render")


def screenshot(driver: Any, url: str, target: Path) -> None:
    """The page reviewing a decision: rules' spans, one rejected, a name added everywhere."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    from tests.code.formats_data import (  # the format tests' decision with planted names
        NAMES,
        decision,
    )

    driver.get(f"{url}/")
    wait_for(lambda: driver.find_element(By.ID, "operator").get_attribute("value"), "the page")
    driver.find_element(By.ID, "reviewer").send_keys("a.richter")
    driver.execute_script("document.getElementById('paste').value = arguments[0]", decision())
    driver.find_element(By.ID, "analyze-text").click()
    wait_for(lambda: _ready(driver), "the highlights")
    for name, key in ((NAMES["Zeugin N."], "1"), (NAMES["Zeugin S."], "1")):
        select_text(driver, name)
        ActionChains(driver).send_keys(key).send_keys("m").perform()
    ActionChains(driver).send_keys("j").send_keys("r").send_keys("j").send_keys("a").perform()
    driver.find_element(By.ID, "preview").click()
    wait_for(lambda: driver.find_element(By.ID, "preview-text").text, "the preview")
    driver.execute_script("document.querySelector('#doc mark.PERSON').scrollIntoView({block: 'center'})")
    target.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(target))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="Pipeline directory or MLflow URI (default: rules only).")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, help="Also write a screenshot of the page here.")
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args(argv)
    sources, text = long_decision()
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        file = work_dir / "decision.txt"
        file.write_text(text, encoding="utf-8")
        serve = ["--model", args.model] if args.model else ["--rules-only"]
        service = start_service([*serve, "--reviews", str(work_dir / "reviews")], log=work_dir / "serve.log",
                                cwd=Path.cwd())  # fmt: skip
        driver = chromium(work_dir / "downloads", profile_dir=work_dir / "profile")
        try:
            upload = [measure_upload(driver, service.url, file) for _ in range(args.repeat)]
            dense = [measure_dense(driver, service.url, text) for _ in range(args.repeat)]
            if args.screenshot:
                screenshot(driver, service.url, args.screenshot)
        finally:
            driver.quit()
            service.stop()
    report = {
        "decisions": sources, "characters": len(text), "pages": round(len(text) / PAGE_CHARACTERS),
        "model": "rules only" if not args.model else args.model, "repeat": args.repeat,
        "upload": _medians(upload), "dense": _medians(dense),
        "browser": "Debian chromium, headless",
        "dense_spans_per_page": round(dense[0]["spans"] / (len(text) / PAGE_CHARACTERS)),
    }  # fmt: skip
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    return report


def _medians(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: round(statistics.median(r[key] for r in rows), 1) for key in rows[0]}


if __name__ == "__main__":
    main()
