"""The GX file project (``gx/``): suites, validation definitions, checkpoints, Data Docs.

Everything is get-or-create, and a suite is rewritten only when its expectations differ from
the ones built from params.yaml (unchanged expectations keep their ids), so repeated runs
leave the committed files alone and a changed threshold is a small diff. Validation results
and Data Docs go to the project's ``uncommitted/`` folder (git-ignored by GX's own
.gitignore). A lock file serializes runs of several processes on one project.
"""

from __future__ import annotations

import fcntl
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import great_expectations as gx
import pandas as pd
from great_expectations.checkpoint import UpdateDataDocsAction
from great_expectations.data_context.types.base import ProgressBarsConfig
from great_expectations.exceptions import DataContextError

from deid.ops.checks.result import CheckResult, failed_expectation

logger = logging.getLogger(__name__)

DEFAULT_PROJECT_DIR = Path("gx")
DATASOURCE = "deid_checks"
BATCH_DEFINITION = "whole_table"
DOCS_SITE = "local_site"
SUMMARIES = Path("uncommitted") / "summaries"
# SUMMARY keeps up to 20 failing sample values per expectation: ids, numbers, labels only,
# since the tables never hold text
RESULT_FORMAT = {"result_format": "SUMMARY"}


@contextmanager
def project_lock(project_dir: Path) -> Iterator[None]:
    """Exclusive lock over one GX project for the duration of a check."""
    lock_path = project_dir / "uncommitted" / ".deid-check.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def open_context(project_dir: str | Path = DEFAULT_PROJECT_DIR) -> Any:
    """The file context in ``project_dir`` (scaffolded if missing), quiet: no progress bars
    on stderr, no analytics."""
    context = gx.get_context(mode="file", context_root_dir=str(Path(project_dir).resolve()))
    variables = context.variables
    bars = variables.progress_bars  # a dict when read from great_expectations.yml
    globally = bars.get("globally") if isinstance(bars, dict) else getattr(bars, "globally", None)
    if variables.analytics_enabled is not False or globally is not False:
        variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
        variables.analytics_enabled = False
        variables.save()
    return context


def _config(expectation: Any) -> dict[str, Any]:
    data = expectation.configuration.to_json_dict()
    data.pop("id", None)
    return data


def sync_suite(context: Any, name: str, expectations: list[Any]) -> Any:
    """The stored suite ``name`` holding exactly ``expectations``; written only on change."""
    suite = _stored(context.suites, name)
    if suite is None:
        return context.suites.add(gx.ExpectationSuite(name=name, expectations=expectations))
    stored = [_config(e) for e in suite.expectations]
    if stored == [_config(e) for e in expectations]:
        return suite
    ids = {repr(cfg): e.id for cfg, e in zip(stored, suite.expectations)}
    for expectation in expectations:
        expectation.id = ids.get(repr(_config(expectation)))
    suite.expectations = expectations
    suite.save()
    logger.info("suite %s updated from params", name)
    return suite


def _batch_definition(context: Any, asset_name: str) -> Any:
    try:
        source = context.data_sources.get(DATASOURCE)
    except KeyError:
        source = context.data_sources.add_pandas(DATASOURCE)
    try:
        asset = source.get_asset(asset_name)
    except LookupError:
        asset = source.add_dataframe_asset(asset_name)
    try:
        return asset.get_batch_definition(BATCH_DEFINITION)
    except KeyError:
        return asset.add_batch_definition_whole_dataframe(BATCH_DEFINITION)


def _stored(factory: Any, name: str) -> Any | None:
    try:
        return factory.get(name)
    except DataContextError:
        return None


def _checkpoint(context: Any, name: str, suite: Any) -> Any:
    """Validation definition + checkpoint of ``name``; recreated if they point elsewhere
    (e.g. a suite file deleted and rebuilt with a new id)."""
    batch_definition = _batch_definition(context, name)
    definition = _stored(context.validation_definitions, name)
    if definition is not None and (
        definition.suite.id != suite.id or definition.batch_definition.id != batch_definition.id
    ):
        context.validation_definitions.delete(name)
        definition = None
    if definition is None:
        definition = context.validation_definitions.add(
            gx.ValidationDefinition(name=name, data=batch_definition, suite=suite)
        )
    checkpoint = _stored(context.checkpoints, name)
    if checkpoint is not None and [d.id for d in checkpoint.validation_definitions] != [
        definition.id
    ]:
        context.checkpoints.delete(name)
        checkpoint = None
    if checkpoint is None:
        checkpoint = context.checkpoints.add(
            gx.Checkpoint(
                name=name,
                validation_definitions=[definition],
                actions=[UpdateDataDocsAction(name="update_data_docs", site_names=[DOCS_SITE])],
                result_format=RESULT_FORMAT,
            )
        )
    return checkpoint


def _file_path(url: str | None) -> Path | None:
    return Path(unquote(urlparse(url).path)) if url else None


def _docs_paths(context: Any, identifier: Any) -> tuple[Path | None, Path | None]:
    index = page = None
    for site in context.get_docs_sites_urls(site_name=DOCS_SITE):
        index = _file_path(site.get("site_url"))
    for site in context.get_docs_sites_urls(site_name=DOCS_SITE, resource_identifier=identifier):
        page = _file_path(site.get("site_url"))
    return index, page


def validate_table(
    suite_name: str,
    table: pd.DataFrame,
    expectations: list[Any],
    project_dir: str | Path = DEFAULT_PROJECT_DIR,
) -> CheckResult:
    """Validate ``table`` against suite ``suite_name`` through its checkpoint; the checkpoint
    also updates the Data Docs."""
    project_dir = Path(project_dir)
    with project_lock(project_dir):
        context = open_context(project_dir)
        suite = sync_suite(context, suite_name, expectations)
        checkpoint = _checkpoint(context, suite_name, suite)
        run = checkpoint.run(batch_parameters={"dataframe": table})
        (identifier, validation), *_ = run.run_results.items()
        index, page = _docs_paths(context, identifier)
    failed = [failed_expectation(r) for r in validation.results if not r.success]
    return CheckResult(
        suite=suite_name,
        success=bool(run.success),
        statistics=dict(validation.statistics),
        failed=failed,
        docs_path=index,
        validation_page=page,
    )


def write_summary(result: CheckResult, project_dir: str | Path = DEFAULT_PROJECT_DIR) -> Path:
    """The markdown summary next to the Data Docs (uncommitted)."""
    path = Path(project_dir) / SUMMARIES / f"{result.suite}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(result.summary, encoding="utf-8")
    return path
