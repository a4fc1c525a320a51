"""Data checks (deid.ops.checks) on the real corpus and gold sets, and on corrupted copies.

Placeholders are detected once per module and handed to the checks, so each corrupted run
costs a table and a GX validation, not a detection pass. Every run uses a copy of the repo's
GX project in a temporary folder: tests never write into gx/.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from deid.ops.checks import (
    CheckResult,
    load_check_params,
    run_corpus_integrity,
    run_placeholder_quality,
    run_training_set,
)
from deid.ops.checks.tables import load_splits
from deid.schema import Span

ROOT = Path(__file__).resolve().parents[2]
PARAMS = ROOT / "params.yaml"
GX = ROOT / "gx"
# a test that builds the corpus from every bundled source or runs a GX validation takes
# seconds: `make test-fast` leaves it out, `make test` runs it
GX_RUN = pytest.mark.slow


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """The corpus as the pipeline builds it from the bundled sources (a fresh checkout has
    none): built once per module into a temporary folder, never into the checkout."""
    from deid.sources.corpus import build_corpus

    out = tmp_path_factory.mktemp("corpus")
    build_corpus(ROOT / "data" / "sources", out)
    return out


@pytest.fixture(scope="module")
def params():
    """Thresholds from params.yaml with gold paths made absolute (tests may run elsewhere)."""
    from dataclasses import replace

    p = load_check_params(PARAMS)
    return replace(
        p,
        ler_adjudication=str(ROOT / p.ler_adjudication),
        bavaria_decisions=str(ROOT / p.bavaria_decisions),
        bavaria_holdout=str(ROOT / p.bavaria_holdout) if p.bavaria_holdout else None,
    )


@pytest.fixture(scope="module")
def splits(corpus):
    return load_splits(corpus)


@pytest.fixture(scope="module")
def placeholders(splits) -> dict[str, list[Span]]:
    from deid.rewrite.placeholders import detect_placeholders

    return {d.id: detect_placeholders(d.text) for docs in splits.values() for d in docs}


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the committed GX project (suites, checkpoints), without uncommitted/."""
    target = tmp_path / "gx"
    if GX.exists():
        shutil.copytree(GX, target, ignore=shutil.ignore_patterns("uncommitted"))
    return target


def corrupted_corpus(
    corpus: Path, tmp_path: Path, split: str, extra: list[dict], drop_from: dict | None = None
) -> Path:
    """A corpus folder whose ``split`` file gets ``extra`` records appended; ``drop_from``
    ({split: id}) removes one document from another split. Other files are symlinked."""
    out = tmp_path / "corpus"
    out.mkdir()
    drop_from = drop_from or {}
    for name in ("train", "validation", "test", "manifest"):
        src = corpus / (f"{name}.json" if name == "manifest" else f"{name}.jsonl")
        if name != split and name not in drop_from:
            (out / src.name).symlink_to(src)
            continue
        lines = src.read_text(encoding="utf-8").splitlines()
        if name in drop_from:
            lines = [ln for ln in lines if json.loads(ln)["id"] != drop_from[name]]
        if name == split:
            lines += [json.dumps(rec, ensure_ascii=False) for rec in extra]
        (out / src.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def assert_numbers_only(result: CheckResult) -> None:
    for failure in result.failed:
        for value in failure["observed"].values():
            values = value if isinstance(value, list) else [value]
            assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


# --- the real data passes -------------------------------------------------------------------


@GX_RUN
def test_corpus_integrity_passes(corpus, params, placeholders, project):
    result = run_corpus_integrity(corpus, params, placeholders=placeholders, project_dir=project)
    assert result.success, result.summary
    assert result.statistics["reserved_outside_test"] == 0
    assert result.docs_path is not None and result.docs_path.name == "index.html"
    assert result.docs_path.exists() and result.validation_page.exists()
    assert result.summary_path.read_text(encoding="utf-8").startswith(
        "# Data check `corpus_integrity`: passed"
    )


@GX_RUN
def test_training_set_passes(corpus, params, placeholders, project):
    result = run_training_set(corpus, params, placeholders=placeholders, project_dir=project)
    assert result.success, result.summary
    assert result.statistics["spans_PERSON"] >= params.min_label_spans
    assert result.docs_path.exists()


@GX_RUN
def test_placeholder_quality_passes(corpus, params, project):
    result = run_placeholder_quality(corpus, params, project_dir=project)
    assert result.success, result.summary
    assert result.statistics["ler_adjudicated.recall"] >= params.min_recall
    assert result.statistics["bavaria.precision"] >= params.min_precision
    assert result.docs_path.exists()


# --- corrupted inputs fail, naming the expectation -------------------------------------------


def _first(corpus: Path, split: str) -> dict:
    with open(corpus / f"{split}.jsonl", encoding="utf-8") as fh:
        return json.loads(fh.readline())


def _reserved_test_doc(corpus: Path) -> dict:
    with open(corpus / "test.jsonl", encoding="utf-8") as fh:
        return next(r for r in map(json.loads, fh) if r.get("court") == "bavaria")


EMPTY = {"id": "dec-bag-empty-stub", "text": "", "court": "bag",
         "meta": {"corpus": "decisions", "encoding": "utf-8"}}  # fmt: skip


@pytest.mark.parametrize(
    "case, split, expected",
    [
        ("duplicate_id", "validation", {"ids_unique"}),
        # an empty document is also one short document too many
        ("empty_text", "train", {"text_non_empty", "short_documents"}),
        ("reserved_in_train", "train", {"reserved_only_in_test"}),
    ],
)
@GX_RUN
def test_corpus_integrity_fails_on_corruption(
    case, split, expected, corpus, params, placeholders, project, tmp_path
):
    reserved = _reserved_test_doc(corpus)
    extra, drop = {
        "duplicate_id": ([_first(corpus, "train")], None),
        "empty_text": ([EMPTY], None),
        "reserved_in_train": ([reserved], {"test": reserved["id"]}),
    }[case]
    broken = corrupted_corpus(corpus, tmp_path, split, extra, drop)
    result = run_corpus_integrity(broken, params, placeholders=placeholders, project_dir=project)
    assert not result.success
    assert set(result.failed_checks) == expected, result.summary
    assert_numbers_only(result)
    for check in expected:
        assert f"| {check} |" in result.summary
    assert result.docs_path.exists()


@pytest.mark.parametrize(
    "case, expected",
    [("reserved_in_train", {"no_reserved_documents"}), ("unknown_label", {"labels_known"})],
)
@GX_RUN
def test_training_set_fails_on_corruption(
    case, expected, corpus, params, placeholders, project, tmp_path
):
    phs = dict(placeholders)
    target = corpus
    if case == "reserved_in_train":
        doc = _reserved_test_doc(corpus)
        target = corrupted_corpus(corpus, tmp_path, "train", [doc], {"test": doc["id"]})
    else:
        victim = _first(corpus, "train")["id"]
        phs[victim] = [*phs[victim], Span(0, 1, "NAME")]
    result = run_training_set(target, params, placeholders=phs, project_dir=project)
    assert not result.success
    assert set(result.failed_checks) == expected, result.summary
    failure = result.failed[0]
    if case == "unknown_label":
        assert failure["expectation"] == "expect_column_sum_to_be_between"
        assert failure["column"] == "unknown_label_spans"
        assert failure["observed"]["observed_value"] == 1
    assert_numbers_only(result)


@GX_RUN
def test_placeholder_quality_fails_when_half_the_placeholders_are_missed(corpus, params, project):
    from deid.rewrite.placeholders import detect_placeholders

    def half_blind(text: str) -> list[Span]:
        return detect_placeholders(text)[::2]

    result = run_placeholder_quality(corpus, params, detect=half_blind, project_dir=project)
    assert not result.success
    assert set(result.failed_checks) == {"min_recall"}, result.summary
    (failure,) = result.failed
    assert failure["expectation"] == "expect_column_values_to_be_between"
    assert failure["column"] == "recall"
    assert all(v < params.min_recall for v in failure["observed"]["unexpected_values"])
    assert "min_recall" in result.summary_path.read_text(encoding="utf-8")


# --- tables, privacy, stored suites, CLI ---------------------------------------------------


@GX_RUN
def test_element_counts_match_deid_elements(splits, placeholders):
    """The fast counter of the tables gives deid.sources.elements' numbers (the metrics' units)."""
    import random

    from deid.ops.checks.tables import element_counts
    from deid.sources.elements import element_flags, text_elements

    def reference(text: str, spans: list[Span]) -> tuple[int, int]:
        elements = text_elements(text)
        return len(elements), sum(element_flags(elements, spans))

    docs = [d for docs in splits.values() for d in docs[::10]]
    cases = [(d.text, placeholders[d.id]) for d in docs]
    rng = random.Random(13)
    for _ in range(2000):  # overlapping, empty and whitespace-only spans, odd whitespace
        text = "".join(rng.choice("ab .\n\u00a0") for _ in range(rng.randint(0, 24)))
        spans = []
        for _ in range(rng.randint(0, 4)):
            start = rng.randint(0, len(text))
            spans.append(Span(start, rng.randint(start, len(text)), "OTHER"))
        cases.append((text, spans))
    for text, spans in cases:
        assert element_counts(text, spans) == reference(text, spans)


@GX_RUN
def test_tables_carry_no_text(splits, placeholders):
    """Only ids, labels and numbers: every string column is an id or from a small set."""
    from deid.ops.checks.tables import corpus_table, training_table

    for table in (
        corpus_table(splits, min_chars=200, placeholders=placeholders),
        training_table({"train": splits["train"][:50]}, placeholders=placeholders),
    ):
        text_columns = [c for c in table.columns if table[c].dtype == object and c != "id"]
        for column in text_columns:
            assert table[column].dropna().map(type).isin([str, bool]).all()
            assert table[column].nunique() <= 12, column


@GX_RUN
def test_gx_artifacts_hold_no_document_text(
    corpus, params, placeholders, project, tmp_path, splits
):
    """Validation results and Data Docs of a failing run contain no text of any document."""
    broken = corrupted_corpus(corpus, tmp_path, "validation", [_first(corpus, "train")])
    result = run_corpus_integrity(broken, params, placeholders=placeholders, project_dir=project)
    assert not result.success
    snippets = {d.text[:40] for docs in splits.values() for d in docs[:25] if len(d.text) >= 40}
    written = [
        p for p in (project / "uncommitted").rglob("*") if p.suffix in (".json", ".html", ".md")
    ]
    assert written
    for path in written:
        content = path.read_text(encoding="utf-8", errors="replace")
        assert not any(s in content for s in snippets), path


def _without_ids(configs: list[dict]) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "id"} for c in configs]


def test_stored_suites_match_params():
    """gx/expectations holds the suites params.yaml builds (rerun a check after a change)."""
    from deid.ops.checks.config import SUITE_NAMES
    from deid.ops.checks.suites import expectations_for

    p = load_check_params(PARAMS)
    for name in SUITE_NAMES:
        stored = json.loads((GX / "expectations" / f"{name}.json").read_text(encoding="utf-8"))
        want = [e.configuration.to_json_dict() for e in expectations_for(name, p)]
        assert _without_ids(stored["expectations"]) == _without_ids(want), name


@GX_RUN
def test_cli_exits_nonzero_with_summary(corpus, params, placeholders, project, tmp_path):
    from typer.testing import CliRunner

    from deid.app.cli import app
    from deid.schema import spans_to_dicts
    from deid.sources.io import write_jsonl

    broken = corrupted_corpus(corpus, tmp_path, "validation", [_first(corpus, "train")])
    ph_file = tmp_path / "placeholders.jsonl"
    write_jsonl(
        ph_file, ({"id": k, "placeholders": spans_to_dicts(v)} for k, v in placeholders.items())
    )
    result = CliRunner().invoke(
        app,
        ["check", "corpus", "--corpus", str(broken), "--params", str(PARAMS), "--gx", str(project),
         "--placeholders", str(ph_file)],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "# Data check `corpus_integrity`: FAILED" in result.output
    assert "ids_unique" in result.output


# --- the reviews suite (saved reviews) -------------------------------------------------------

REVIEW_INFO = {"uri": None, "name": None, "version": None, "alias": None, "pipeline_sha256": "ab" * 32}


def _review_settings():
    from deid.sources.reviews.dataset import ReviewSettings

    return ReviewSettings(reserved_gold=tuple(str(ROOT / g) for g in ReviewSettings().reserved_gold))


def _saved_reviews(corpus: Path, folder: Path) -> list[str]:
    """Two real reviews through the store: a BAG decision from the training split and a
    reserved Bavarian decision from the test split (refused, counted). Returns their lines."""
    from deid.sources.reviews import ReviewStore, new_review

    store = ReviewStore(folder)
    bag = next(d for d in load_splits(corpus, ["train"])["train"] if d.court == "bag" and len(d.text) > 2000)
    bavaria = _reserved_test_doc(corpus)
    for text in (bag.text, bavaria["text"]):
        final = [{"start": 100, "end": 110, "label": "PERSON"}]
        store.save(new_review(text, final, final, reviewer="a.richter", model_info=REVIEW_INFO))
    return store.path.read_text(encoding="utf-8").splitlines()


@GX_RUN
def test_reviews_suite_passes_on_no_reviews_and_counts_a_refused_one(corpus, project, tmp_path):
    from deid.ops.checks import run_reviews

    empty = run_reviews(corpus, PARAMS, reviews=tmp_path / "none", settings=_review_settings(), project_dir=project)
    assert empty.success, empty.summary
    assert empty.statistics["reviews_records"] == 0 and empty.statistics["reserved_documents_indexed"] > 200
    _saved_reviews(corpus, tmp_path / "reviews")
    result = run_reviews(corpus, PARAMS, reviews=tmp_path / "reviews", settings=_review_settings(), project_dir=project)
    assert result.success, result.summary
    stats = result.statistics
    assert stats["reviews_reserved"] == 1 and stats["reviews_train"] + stats["reviews_evaluation"] == 1


def _tampered(line: str, case: str) -> list[str]:
    record = json.loads(line)
    if case == "text_edited":
        record["text"] += " und so weiter"
    elif case == "span_beyond_text":
        record["spans"][0]["end"] = len(record["text"]) + 5
    elif case == "fine_label":
        record["spans"][0]["label"] = "IBAN"
    elif case == "no_reviewer":
        record["reviewer"] = ""
    elif case == "saved_twice":
        return [line, line]
    elif case == "not_json":
        return [line[: len(line) // 2]]
    return [json.dumps(record, ensure_ascii=False)]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("text_edited", {"sha256_matches", "records_consistent"}),
        ("span_beyond_text", {"offsets_valid", "records_consistent"}),
        ("fine_label", {"labels_known", "records_consistent"}),
        ("no_reviewer", {"reviewer_present", "records_consistent"}),
        ("saved_twice", {"ids_unique"}),
        ("not_json", {"records_parsed"}),
    ],
)
@GX_RUN
def test_reviews_suite_fails_on_a_tampered_store(corpus, project, tmp_path, case, expected):
    from deid.ops.checks import run_reviews
    from deid.sources.reviews import REVIEWS_FILE

    folder = tmp_path / "reviews"
    bag_line, bavaria_line = _saved_reviews(corpus, folder)
    lines = _tampered(bag_line, case) + [bavaria_line]
    (folder / REVIEWS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_reviews(corpus, PARAMS, reviews=folder, settings=_review_settings(), project_dir=project)
    assert not result.success
    assert set(result.failed_checks) == expected, result.summary
    assert_numbers_only(result)
    text = json.loads(bag_line)["text"]
    assert text[100:160] not in result.summary and text[100:160] not in json.dumps(result.to_dict())


@GX_RUN
def test_reviews_suite_fails_when_a_reserved_review_would_be_used(corpus, project, tmp_path):
    """A second line of defence: should the preparation ever let a reserved document
    through, the suite, which recomputes the overlap, fails the run."""
    from dataclasses import replace

    from deid.ops.checks.run import check_prepared_reviews
    from deid.sources.reviews import read_records
    from deid.sources.reviews.dataset import TRAIN, ReservedIndex, prepare_reviews, reserved_texts

    _saved_reviews(corpus, tmp_path / "reviews")
    settings = _review_settings()
    records = list(read_records(tmp_path / "reviews"))
    reserved = ReservedIndex.build(reserved_texts(corpus, settings.reserved_gold))
    prepared = prepare_reviews(records, reserved, settings)
    prepared.rows = [replace(r, use=TRAIN) for r in prepared.rows]  # a broken preparation
    result = check_prepared_reviews(records, prepared, reserved, settings, project_dir=project)
    assert not result.success and set(result.failed_checks) == {"no_reserved_documents"}, result.summary
