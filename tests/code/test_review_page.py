"""The review page in a real browser (Debian's headless chromium, driven by selenium) against
a real ``deid serve`` (rules only) with a queue of five bundled decisions, each with the
contact block an unredacted original carries. One browser for the module; every test starts
from a fresh page with an empty draft store, and each walks through one item of the issue:

* a DOCX from upload to download: where to look (span list by score, low-confidence marks,
  the overview), preview, download, one vocabulary, only runnable operators, a refused
  upload that clears the screen;
* exact spans: edges by keyboard and mouse, fit to a selection, split, merge, snapping,
  undo and redo, a rejected span that stays rejected;
* review states: saving with open spans saves them as open; reopening the saved review and
  editing it keeps the history; effort is recorded;
* nothing lost: the draft survives a reload, another document asks first, a long analysis
  shows progress and can be cancelled;
* a queue of five documents worked through by keyboard alone, least certain first.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docx
import pytest

from deid.sources.reviews import read_reviews
from deid.sources.reviews.dataset import ReviewSettings, agreement_counts, prepare_store
from infra.workbench import (
    Service,
    chromium,
    chromium_available,
    select_text,
    start_service,
    wait_for,
)
from tests.code.formats_data import IBAN, NAMES
from tests.code.review_data import DIRECTOR, long_docx, with_contact, write_docx, write_queue
from tests.code.test_formats_docx import build_docx
from tests.conftest import ROOT, read_source

pytestmark = [
    pytest.mark.slow,
    # CI installs them (.ci/run) and must not skip; elsewhere the page tests need them installed
    pytest.mark.skipif(not chromium_available() and not os.environ.get("CI"),
                       reason="needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"),
]
NAME = NAMES["Zeugin N."]  # "Nadja Pietrowski": in body and table, never split over runs


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    work = tmp_path_factory.mktemp("page")
    write_queue(work / "queue")
    svc = start_service(["--rules-only", "--reviews", str(work / "reviews"), "--queue", str(work / "queue")],
                        log=work / "serve.log", cwd=work, env={"DEID_SECRET": ""})  # fmt: skip
    yield svc
    svc.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    work = tmp_path_factory.mktemp("browser")
    driver = chromium(work / "downloads", profile_dir=work / "profile")
    driver.downloads = work / "downloads"
    yield driver
    driver.quit()


@pytest.fixture
def page(browser: Any, service: Service) -> Any:
    """The review page, fresh: no draft in the browser, the reviewer's name entered."""
    from selenium.webdriver.common.by import By

    browser.get(f"{service.url}/health")  # the page's origin, without the page: clear its storage
    browser.execute_async_script("localStorage.clear(); const r = indexedDB.deleteDatabase('deid-review');"
                                 "r.onsuccess = r.onerror = r.onblocked = () => arguments[0](true);")  # fmt: skip
    browser.get(f"{service.url}/")
    wait_for(lambda: browser.execute_script("return document.body.dataset.ready"), "the page to load")
    browser.find_element(By.ID, "reviewer").send_keys("a.richter")
    browser.get_log("browser")  # drained: the storage page's own requests (its favicon) are not the page's
    return browser


def store_of(service: Service) -> Path:
    return Path(service.process.args[service.process.args.index("--reviews") + 1])


def reviews_of(service: Service) -> dict[str, dict]:
    return {r["id"]: r for r in read_reviews(store_of(service)) if isinstance(r, dict)}


def press(driver: Any, *keys: str, hold: tuple[str, ...] = ()) -> None:
    """Type ``keys`` (each a key or a string) with the ``hold`` modifiers down."""
    from selenium.webdriver.common.action_chains import ActionChains

    chain = ActionChains(driver)
    for key in hold:
        chain = chain.key_down(key)
    for key in keys:
        chain = chain.send_keys(key)
    for key in reversed(hold):
        chain = chain.key_up(key)
    chain.perform()


def spans(driver: Any) -> list[list[Any]]:
    return driver.execute_script("return state.spans.map(s => [state.t.slice(s.start, s.end), s.label, s.status])")


def selected(driver: Any) -> list[Any] | None:
    return driver.execute_script(
        "const s = state.byId.get(state.selected); return s ? [state.t.slice(s.start, s.end), s.label, s.status] : null")


def ready(driver: Any, what: str = "the highlights") -> None:
    wait_for(lambda: driver.execute_script("return document.getElementById('doc').dataset.ready"), what)


def click_mark(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    next(m for m in driver.find_elements(By.CSS_SELECTOR, "#doc mark") if m.text.startswith(text)).click()


def answer(driver: Any, value: str) -> str:
    """The page's question (a dialog): its text, after choosing ``value``."""
    from selenium.webdriver.common.by import By

    wait_for(lambda: driver.execute_script("return document.getElementById('ask').open"), "the question")
    text = driver.find_element(By.ID, "ask-text").text
    driver.find_element(By.CSS_SELECTOR, f"#ask-buttons button[value='{value}']").click()
    return text


def saved(driver: Any, before: str | None = None) -> str:
    """The id of the review the page saved (another than ``before``)."""

    def new_id() -> str | None:
        review_id = driver.execute_script("return document.getElementById('doc').dataset.saved")
        return review_id if review_id and review_id != before else None

    return wait_for(new_id, "the save")


def paste(driver: Any, text: str) -> None:
    from selenium.webdriver.common.by import By

    driver.execute_script("document.getElementById('paste').value = arguments[0]", text)
    driver.find_element(By.ID, "analyze-text").click()


def test_a_reviewer_takes_a_docx_from_upload_to_download(service: Service, page: Any, tmp_path: Path) -> None:
    """Where to look, consistency, preview and download: the span list sorted by score puts
    the low-confidence spans first and marks them; the overview bar shows the spans; only
    runnable operators are offered; the preview follows each edit; download keeps the DOCX;
    a refused upload clears the screen."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    upload = tmp_path / "Urteil 2 A 7.23.docx"
    upload.write_bytes(build_docx())
    page.find_element(By.ID, "file").send_keys(str(upload))
    ready(page)
    assert [IBAN, "ID", "open"] in spans(page)
    assert [o.text for o in Select(page.find_element(By.ID, "operator")).options] == ["label", "mask", "remove"]

    Select(page.find_element(By.ID, "sort")).select_by_value("score")
    rows = page.execute_script("return [...document.querySelectorAll('#span-rows tr')].map(r => [...r.cells].map(c => c.textContent))")
    scores = [float(r[2]) for r in rows]
    assert scores == sorted(scores) and scores[0] < 0.6 and len(rows) == len(spans(page))
    low = page.execute_script("return [...document.querySelectorAll('#doc mark.low')].map(m => m.dataset.tag)")
    assert low and all(tag.endswith("!") for tag in low)  # a low-confidence span looks different
    page.find_element(By.ID, "filter-low").click()
    assert len(page.find_elements(By.CSS_SELECTOR, "#span-rows tr")) == len(low)
    page.find_element(By.CSS_SELECTOR, "#span-rows tr").click()  # the list selects in the document
    assert selected(page)[0] == rows[0][0]
    painted = page.execute_script("const c = document.getElementById('overview'); "
                                  "return c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 == 3 && v)")
    assert painted
    assert "0 of " in page.find_element(By.ID, "counts").text

    click_mark(page, IBAN)
    press(page, "r")  # reject: the account number stays; the next open span is selected
    assert [IBAN, "ID", "rejected"] in spans(page) and selected(page)[2] == "open"
    select_text(page, NAME)
    press(page, "1", "m")  # the witness, and all her mentions
    # the rules may propose the witnesses themselves (recognizers@10: "Zeugin Nadja Pietrowski")
    person = [s for s in spans(page) if s[1] == "PERSON" and s[0] == NAME]
    assert len(person) >= 2 and all(s[2] != "open" for s in person)
    press(page, "p")
    before = wait_for(lambda: page.find_element(By.ID, "preview-text").text, "the preview")
    assert NAME not in before and "[PERSON]" in before and IBAN in before
    click_mark(page, IBAN)
    press(page, "a")  # accepted after all: the preview follows
    wait_for(lambda: IBAN not in page.find_element(By.ID, "preview-text").text, "the preview to follow the edit")
    click_mark(page, IBAN)
    press(page, "r")

    press(page, "d")  # download by key
    target = page.downloads / "Urteil 2 A 7.23.anonymized.docx"
    wait_for(target.exists, "the download")
    document = docx.Document(io.BytesIO(target.read_bytes()))
    body = "\n".join([p.text for p in document.paragraphs]
                     + [c.text for t in document.tables for row in t.rows for c in row.cells])  # fmt: skip
    assert NAME not in body and "[PERSON]" in body and IBAN in body

    press(page, "s", hold=("\ue009",))  # Ctrl+S: spans are open, the page asks
    question = answer(page, "accept")
    assert "still open" in question
    review_id = saved(page)
    review = reviews_of(service)[review_id]
    kinds = [d["decision"] for d in review["decisions"]]
    assert review["state"] == "done" and "open" not in kinds and kinds.count("rejected") == 1
    assert kinds.count("added") + kinds.count("accepted") >= len(person) and review["reviewer"] == "a.richter"
    settings = ReviewSettings(reserved_gold=tuple(str(ROOT / g) for g in ReviewSettings().reserved_gold))
    _, _, prepared = prepare_store(store_of(service), None, settings)
    (doc,) = [d for d in prepared.train + prepared.evaluation if d.meta["review_id"] == review["id"]]
    assert {doc.text[s.start : s.end] for s in doc.spans} >= {NAME} and IBAN not in {doc.text[s.start : s.end] for s in doc.spans}

    bad = tmp_path / "Urteil.odt"  # refused: the old decision leaves the screen, nothing to download
    bad.write_bytes(b"PK\x03\x04")
    page.find_element(By.ID, "file").send_keys(str(bad))
    wait_for(lambda: "Nothing open: 415" in page.find_element(By.ID, "doc").text, "the refusal")
    assert not page.find_elements(By.CSS_SELECTOR, "#doc mark") and page.execute_script("return state.t") is None
    resources = page.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert resources and all(url.startswith((service.url, "blob:")) for url in resources)  # nothing from elsewhere
    assert not [e for e in page.get_log("browser") if e["level"] == "SEVERE" and "415" not in e["message"]]
    assert NAME not in service.logs() and IBAN not in service.logs()


def test_spans_get_exact_edges_and_every_edit_undoes(service: Service, page: Any) -> None:
    """Shrink, grow and move either edge by keyboard and mouse, fit to a selection, split and
    merge; edges snap to words without trailing punctuation; undo and redo every action; a
    rejected span stays rejected when a span is added beside it; the saved offsets slice the
    same words in the service's text."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    # a character outside the BMP before the spans: the page counts UTF-16 units, the service
    # code points, and every edit below must land on the same words in both
    paste(page, "Kanzlei \U0001d504 & Partner\n" + with_contact(read_source("decisions/bag/1-azr-62-23.txt.xz")))
    ready(page)
    proposed = spans(page)
    select_text(page, f"Geschäftsführer der Klägerin, {DIRECTOR},")  # the selection overreaches
    press(page, "1")
    assert selected(page) == [f"Geschäftsführer der Klägerin, {DIRECTOR}", "PERSON", "edited"]  # no trailing comma
    for _ in range(3):
        press(page, Keys.ARROW_RIGHT, hold=(Keys.CONTROL, Keys.SHIFT))  # the start, a word right each time
    assert selected(page)[0] == DIRECTOR
    press(page, Keys.ARROW_LEFT, hold=(Keys.SHIFT,))  # the end, a word left: shrunk
    assert selected(page)[0] == "Thomas"
    press(page, "z", hold=(Keys.CONTROL,))
    assert selected(page)[0] == DIRECTOR
    press(page, "z", hold=(Keys.CONTROL, Keys.SHIFT))  # redo
    assert selected(page)[0] == "Thomas"
    for _ in range(5):  # undo everything: the analysis' spans as they came
        press(page, "z", hold=(Keys.CONTROL,))
    assert spans(page) == proposed
    for _ in range(4):
        press(page, "y", hold=(Keys.CONTROL,))
    assert selected(page)[0] == DIRECTOR

    press(page, "r")  # rejected; then the surname alone is added beside ... inside it
    select_text(page, "Brückner")
    press(page, "1")
    assert ["Thomas", "PERSON", "rejected"] in spans(page) and ["Brückner", "PERSON", "edited"] in spans(page)
    click_mark(page, "Thomas")
    press(page, "g")  # merged with the next span
    assert selected(page) == [DIRECTOR, "PERSON", "edited"]
    press(page, "s")  # split at the gap
    assert ["Thomas", "PERSON", "edited"] in spans(page) and ["Brückner", "PERSON", "edited"] in spans(page)
    press(page, "z", hold=(Keys.CONTROL,))
    assert selected(page)[0] == DIRECTOR

    click_mark(page, "Lindenallee 17")  # the mouse: fit the street to a selection, over the town
    select_text(page, "Lindenallee 17, 80331 München.")
    press(page, "w")
    assert selected(page) == ["Lindenallee 17, 80331 München", "STREET", "edited"]
    assert not [s for s in spans(page) if s[0] == "80331 München"]
    press(page, "z", hold=(Keys.CONTROL,))
    assert ["80331 München", "LOCATION", "open"] in spans(page)
    click_mark(page, "Lindenallee 17")
    handle = page.find_element(By.CSS_SELECTOR, "mark.sel .handle.end")
    dx = page.execute_script("""const m = document.querySelector('mark.sel'), t = [...m.childNodes].find(n => n.nodeType === 3);
      const r = document.createRange(), i = t.data.indexOf(' 17'); r.setStart(t, i); r.setEnd(t, i + 1);
      const b = r.getBoundingClientRect(), h = m.querySelector('.handle.end').getBoundingClientRect();
      return Math.round(b.left + b.width / 2 - (h.left + h.width / 2));""")
    ActionChains(page).click_and_hold(handle).move_by_offset(dx, 0).release().perform()  # drag the end
    assert selected(page) == ["Lindenallee", "STREET", "edited"]
    press(page, Keys.ARROW_RIGHT, hold=(Keys.SHIFT,))  # and back by key: the number, not the comma
    assert selected(page)[0] == "Lindenallee 17"

    press(page, "s", hold=(Keys.CONTROL,))
    answer(page, "accept")
    review_id = saved(page)
    review = reviews_of(service)[review_id]
    text = review["text"]
    final = {text[s["start"]:s["end"]]: s["label"] for s in review["spans"]}
    assert final[DIRECTOR] == "PERSON" and final["Lindenallee 17"] == "STREET" and "Thomas" not in final
    assert not [s for s in review["spans"] if not text[s["end"] - 1].isalnum()]  # no trailing punctuation
    assert review["effort"]["actions"] >= 20


def test_open_spans_stay_open_and_a_saved_review_reopens(service: Service, page: Any, tmp_path: Path) -> None:
    """Saving with open spans saves them as open (never accepted): the document is in review
    and the agreement counts only what was decided. The saved review reopens from the list,
    is edited and saved as a new version; the first stays, the history has both."""
    from selenium.webdriver.common.by import By

    upload = tmp_path / "Urteil 1 AZR 74-23.docx"
    write_docx(upload, with_contact(read_source("decisions/bag/1-azr-74-23.txt.xz")))
    page.find_element(By.ID, "file").send_keys(str(upload))
    ready(page)
    total = len(spans(page))
    page.find_element(By.ID, "doc").click()
    press(page, " ")  # the first open span
    first = selected(page)
    press(page, "a")  # accepted, and on to the next open one
    second = selected(page)
    assert first != second and second[2] == "open"
    press(page, "r")
    classes = page.execute_script("return [...document.querySelectorAll('#doc mark')].map(m => m.className)")
    assert sum("st-open" in c for c in classes) == total - 2 and sum("st-accepted" in c for c in classes) == 1
    assert page.find_element(By.ID, "counts").text.startswith(f"2 of {total} reviewed")
    press(page, "s", hold=("\ue009",))
    assert f"{total - 2} of {total} spans are still open" in answer(page, "open")
    first_id = saved(page)
    review = reviews_of(service)[first_id]
    assert review["state"] == "in_review" and len(review["open"]) == total - 2
    kinds = [d["decision"] for d in review["decisions"]]
    assert (kinds.count("accepted"), kinds.count("rejected"), kinds.count("open")) == (1, 1, total - 2)
    assert agreement_counts([review])["all"]["proposed"] == 2  # the open ones are no one's decision
    assert review["effort"]["actions"] == 2 and isinstance(review["effort"]["seconds"], int)

    page.find_element(By.CSS_SELECTOR, "#reviews-box summary").click()
    entry = wait_for(lambda: page.find_elements(By.CSS_SELECTOR, f"#reviews-list button[data-id='{first_id}']"), "the list")
    assert "in review" in entry[0].text
    entry[0].click()
    ready(page, "the reopened review")
    assert [s[2] for s in spans(page)].count("open") == total - 2
    assert [*first[:2], "accepted"] in spans(page) and [*second[:2], "rejected"] in spans(page)
    press(page, " ", "r")  # one more rejected, the rest accepted when saving
    press(page, "s", hold=("\ue009",))
    answer(page, "accept")
    second_id = saved(page, first_id)
    edited = reviews_of(service)[second_id]
    assert edited["state"] == "done" and edited["supersedes"] == first_id and not edited["open"]
    assert [d["decision"] for d in edited["decisions"]].count("rejected") == 2
    assert first_id in reviews_of(service)  # the history is kept
    history = page.execute_async_script(f"fetch('/reviews/{second_id}').then(r => r.json()).then(r => arguments[0](r.history.map(h => h.id)))")
    assert history == [first_id, second_id]


def test_nothing_is_lost(service: Service, page: Any, tmp_path: Path) -> None:
    """Unsaved work survives a reload (a draft in the browser) and leaving is warned of;
    opening another document asks first; a 100-page DOCX shows its progress and can be
    cancelled, which leaves nothing half-open on the screen."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    paste(page, with_contact(read_source("decisions/bag/10-azr-345-22.txt.xz")))
    ready(page)
    page.find_element(By.ID, "doc").click()
    press(page, " ", "r")
    select_text(page, DIRECTOR)
    press(page, "1")
    before = spans(page)
    warned = page.execute_script("const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented")
    assert warned  # the browser asks before leaving
    page.execute_script("return Drafts.flush()")
    page.refresh()
    wait_for(lambda: page.execute_script("return document.body.dataset.ready"), "the reload")
    ready(page, "the draft")
    assert spans(page) == before and "restored your unsaved review" in page.find_element(By.ID, "status").text

    paste(page, read_source("decisions/bag/10-azr-345-22.txt.xz"))
    assert "unsaved changes" in answer(page, "cancel")
    assert spans(page) == before
    paste(page, read_source("decisions/bag/10-azr-345-22.txt.xz"))
    answer(page, "discard")
    wait_for(lambda: DIRECTOR not in page.find_element(By.ID, "doc").text, "the other document")
    page.refresh()
    wait_for(lambda: page.execute_script("return document.body.dataset.ready"), "the reload")
    assert page.execute_script("return state.t") is None  # discarded: nothing restored

    long = tmp_path / "Urteil 100 Seiten.docx"
    long.write_bytes(long_docx())
    page.find_element(By.ID, "file").send_keys(str(long))
    progress = wait_for(lambda: "analysing" in page.find_element(By.ID, "progress-text").text and
                        page.find_element(By.ID, "progress-text").text, "the progress")  # fmt: skip
    assert "step" in progress and page.find_element(By.ID, "progress-box").is_displayed()
    press(page, Keys.ESCAPE)
    wait_for(lambda: "Nothing open: the analysis was cancelled" in page.find_element(By.ID, "doc").text, "the cancel")
    assert not page.find_element(By.ID, "progress-box").is_displayed()
    assert page.execute_script("return window.deidTimings.first_progress_ms") is not None


def test_a_queue_of_five_is_worked_through_by_keyboard_alone(service: Service, page: Any) -> None:
    """Least certain first (chosen with the keyboard), then every document: select, accept or
    reject or relabel, save; saving a finished document opens the next open one."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    body = page.find_element(By.TAG_NAME, "body")
    assert page.execute_script("return document.querySelectorAll('#queue-list button').length") == 5
    page.find_element(By.ID, "reviewer").click()
    ActionChains(page).send_keys(Keys.TAB, Keys.TAB).perform()  # past the API link: Open file is a stop
    assert page.execute_script("return document.activeElement.id") == "open"
    page.execute_script("document.getElementById('file').addEventListener('click', e => { window.chooser = true; e.preventDefault(); })")
    press(page, Keys.ENTER)
    assert page.execute_script("return window.chooser")  # the file chooser opens from the keyboard
    page.execute_script("document.getElementById('queue-order').focus()")
    press(page, Keys.ARROW_DOWN)  # least certain first
    wait_for(lambda: page.execute_script("return state.queueOrder === 'uncertain' && state.queue.order === 'uncertain'"), "the order")
    order = page.execute_script("return state.queue.items.map(i => [i.name, i.uncertainty.low, i.uncertainty.min_score])")
    assert order[0][1] >= max(o[1] for o in order)
    body.click()
    stored = len(reviews_of(service))
    press(page, "J", hold=(Keys.SHIFT,))
    names = []
    for n in range(5):
        ready(page, f"document {n + 1}")
        names.append(page.execute_script("return state.source.name"))
        assert page.execute_script("return document.activeElement.id") == "doc"
        press(page, " ")
        if n == 1:
            press(page, "r")  # one rejected
        if n == 2:
            press(page, "9")  # one relabelled (edited)
        while page.execute_script("return state.spans.some(s => s.status === 'open')"):
            press(page, "a")
        press(page, Keys.TAB)
        assert page.execute_script("return document.activeElement.id") != "doc"  # Tab leaves the document
        press(page, "s", hold=(Keys.CONTROL,))  # nothing open: saved at once, the next one opens
        wait_for(lambda n=n: len(reviews_of(service)) == stored + n + 1, "the save")
        if n < 4:
            wait_for(lambda: page.execute_script("return state.source.name") != names[-1], "the next document")
    assert names[0] == order[0][0] and len(set(names)) == 5
    wait_for(lambda: "every document of the queue is done" in page.find_element(By.ID, "status").text, "the end")
    assert page.find_element(By.ID, "queue-counts").text.startswith("5 of 5 done")
    done = list(reviews_of(service).values())[stored:]
    assert [r["state"] for r in done] == ["done"] * 5 and len({r["sha256"] for r in done}) == 5
    assert all(r["effort"]["actions"] >= 1 for r in done)
