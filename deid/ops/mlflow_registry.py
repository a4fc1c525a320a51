"""MLflow tracking and the model registry for deid pipelines.

One training run = one MLflow run (flattened params.yaml, per-epoch metrics, the training and
evaluation reports, headline evaluation metrics per gold set, provenance tags) plus the
pipeline logged as a pyfunc *from code* (``deid/ops/pyfunc_model.py``) and registered as
``deid-ner`` with the alias ``challenger``. Promotion to ``champion`` is ``deid.ops.gate``'s job.

Privacy: everything written here is settings, metrics, ids, counts, hashes and paths; a long
or multi-line parameter value is replaced by its hash, so document text cannot slip in.
``mlflow`` is imported lazily: importing this module has no side effects and stays cheap.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import subprocess
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deid.sources.errors import UserError
from deid.sources.io import text_hash, tree_sha256

if TYPE_CHECKING:
    from mlflow import MlflowClient
    from mlflow.entities.model_registry import ModelVersion

    from deid.training.job import TrainingOutput

logger = logging.getLogger(__name__)

PIPELINE_ARTIFACT = "pipeline"  # the artifact key of the pipeline directory in a logged pyfunc model

MODEL_NAME = "deid-ner"
EXPERIMENT = "deid"
DEFAULT_TRACKING_URI = "sqlite:///mlflow.db"
ARTIFACT_ROOT = Path("mlruns")  # local artifacts: ./mlruns/<experiment>
CHALLENGER, CHAMPION, PREVIOUS_CHAMPION = "challenger", "champion", "previous-champion"
MODEL_ARTIFACT_NAME = "model"
PYFUNC_SCRIPT = Path(__file__).with_name("pyfunc_model.py")
PACKAGE_DIR = Path(__file__).resolve().parents[1]
# what the pyfunc needs at serving time (MLflow adds mlflow itself); pinned to this environment
REQUIREMENTS = (
    "torch", "transformers", "tokenizers", "wordfreq", "faker",
    "python-stdnum", "phonenumbers", "numpy", "pandas", "pyyaml",
)  # fmt: skip
EXAMPLE_TEXT = "Die Klage wird abgewiesen."  # invented, no entity: safe as a stored input example
PARAM_VALUE_LIMIT = 500  # MLflow allows 6000; a setting is never this long, text could be
PARAM_KEY_LIMIT = 250
TAG_VALUE_LIMIT = 5000
SET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
HEADLINE = ("recall", "precision", "f1", "f2")
EPOCH_FIELDS = {"train_loss": "train_loss", "tokens_per_second": "tokens_per_second",
                "learning_rate": "learning_rate", "seconds": "epoch_seconds"}  # fmt: skip


@dataclass(frozen=True)
class RunInfo:
    """Where one logged training run and its registered model version live."""

    run_id: str
    experiment_id: str
    model_id: str
    model_uri: str  # models:/<model_id>
    model_name: str
    version: str
    alias: str = CHALLENGER

    @property
    def alias_uri(self) -> str:
        return f"models:/{self.model_name}@{self.alias}"

    def to_dict(self) -> dict[str, str]:
        return {
            "run_id": self.run_id, "experiment_id": self.experiment_id, "model_id": self.model_id,
            "model_uri": self.model_uri, "model_name": self.model_name, "version": self.version,
            "alias_uri": self.alias_uri,
        }  # fmt: skip


@dataclass(frozen=True)
class VersionSummary:
    """One registered version as ``deid models`` lists it."""

    version: str
    aliases: tuple[str, ...]
    run_id: str | None
    created: int
    metrics: dict[str, float] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)


# --- tracking URI, client, experiment ------------------------------------------------------

# MLflow retries a failed request 7 times with doubling back-off (about 4 minutes) by default;
# against a server that is down that only delays the error. Fewer, shorter retries (a setting
# the operator gave in the environment wins).
FAIL_FAST_ENV = {
    "MLFLOW_HTTP_REQUEST_MAX_RETRIES": "2",
    "MLFLOW_HTTP_REQUEST_BACKOFF_FACTOR": "1",
    "MLFLOW_HTTP_REQUEST_TIMEOUT": "60",
}
HEALTH_TIMEOUT = 5.0  # seconds for the health probe of a tracking server
_healthy: set[str] = set()


class TrackingStoreMissing(UserError):
    """A sqlite tracking URI names a file that does not exist (MLflow would create an empty
    store and then report every model as missing)."""


class TrackingServerDown(UserError):
    """The tracking server does not answer its health probe."""


def resolve_tracking_uri(explicit: str | None = None) -> str:
    """The explicit URI, else ``$MLFLOW_TRACKING_URI``, else the project's sqlite file."""
    return explicit or os.environ.get("MLFLOW_TRACKING_URI") or DEFAULT_TRACKING_URI


def sqlite_path(uri: str) -> Path | None:
    """The database file of a ``sqlite:///`` URI (relative to the working directory when it
    has three slashes), else None."""
    if not uri.startswith("sqlite:///"):
        return None
    path = uri.removeprefix("sqlite:///").split("?", 1)[0]
    return None if path in ("", ":memory:") else Path(path)


def check_tracking_uri(uri: str, *, create: bool = False) -> str:
    """Refuse a tracking store that cannot be the one meant, before any work: a sqlite file
    that does not exist (unless ``create``: training and registration start a new store),
    or a server that does not answer ``/health`` within seconds. Also sets MLflow's request
    retries to fail fast (:data:`FAIL_FAST_ENV`)."""
    for key, value in FAIL_FAST_ENV.items():
        os.environ.setdefault(key, value)
    path = sqlite_path(uri)
    if path is not None and not create and not path.exists():
        raise TrackingStoreMissing(
            f"no MLflow store at {path.resolve()} (tracking URI {uri}): run from the project "
            "folder, set MLFLOW_TRACKING_URI, or train and register a model first"
        )
    if uri.startswith(("http://", "https://")):
        probe_server(uri)
    return uri


def probe_server(uri: str, timeout: float = HEALTH_TIMEOUT) -> None:
    """``GET <uri>/health`` once per process and server; a refused or silent server raises
    :class:`TrackingServerDown` within ``timeout`` seconds."""
    import urllib.error
    import urllib.request

    base = uri.rstrip("/")
    if base in _healthy:
        return
    try:
        with urllib.request.urlopen(f"{base}/health", timeout=timeout) as response:
            ok = response.status == 200
    except (OSError, urllib.error.URLError) as exc:
        raise TrackingServerDown(
            f"MLflow server {base} does not answer ({type(exc).__name__}): start it "
            "(infra/local-stack.sh start) or point MLFLOW_TRACKING_URI at a running one"
        ) from None
    if not ok:
        raise TrackingServerDown(f"MLflow server {base} is not healthy (GET /health)")
    _healthy.add(base)


def get_client(uri: str | None = None, *, create: bool = False) -> MlflowClient:
    """A client for ``uri`` (see :func:`resolve_tracking_uri`), checked first
    (:func:`check_tracking_uri`); ``create`` allows a new sqlite store."""
    resolved = check_tracking_uri(resolve_tracking_uri(uri), create=create)
    from mlflow import MlflowClient  # after the check: importing mlflow takes seconds

    return MlflowClient(tracking_uri=resolved, registry_uri=resolved)


def is_local(uri: str) -> bool:
    """A backend in this process's file system (its artifacts need an explicit location)."""
    return uri.startswith(("sqlite:", "file:")) or "://" not in uri


def ensure_experiment(
    client: MlflowClient, name: str = EXPERIMENT, artifact_location: str | None = None
) -> str:
    """The experiment's id, created if missing. A local backend gets ``./mlruns/<name>`` as an
    explicit artifact location, so local artifacts never land in a server's store (or the
    reverse); a server keeps its own default unless one is given."""
    experiment = client.get_experiment_by_name(name)
    if experiment is not None:
        return experiment.experiment_id
    if artifact_location is None and is_local(client.tracking_uri):
        artifact_location = (ARTIFACT_ROOT / name).resolve().as_uri()
    return client.create_experiment(name, artifact_location=artifact_location)


@contextmanager
def active_tracking(uri: str) -> Iterator[None]:
    """Point MLflow's fluent API (``log_model``) at ``uri`` and restore the previous setting
    and environment afterwards: callers (flows, tests) share one process."""
    import mlflow
    from mlflow.tracking._tracking_service import utils as tracking_utils

    saved_global = getattr(tracking_utils, "_tracking_uri", None)
    saved_env = os.environ.get("MLFLOW_TRACKING_URI")
    mlflow.set_tracking_uri(uri)
    try:
        yield
    finally:
        mlflow.set_tracking_uri(saved_global)
        if saved_env is not None:
            os.environ["MLFLOW_TRACKING_URI"] = saved_env


# --- what gets logged ----------------------------------------------------------------------


def param_values(params: Mapping[str, Any]) -> dict[str, str]:
    """Flattened params as MLflow strings. A value too long or multi-line for a setting is
    replaced by its hash and length: whatever it is, it is not logged in clear."""
    from deid.training.settings import flatten  # deid.settings imports the model code (seconds)

    out: dict[str, str] = {}
    for key, value in flatten(dict(params)).items():
        text = (
            value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
        )
        if len(text) > PARAM_VALUE_LIMIT or "\n" in text or "\r" in text:
            text = f"sha256:{text_hash(text)} ({len(text)} chars)"
        out[str(key)[:PARAM_KEY_LIMIT]] = text
    return out


def epoch_metrics(history: list[Any]) -> list[tuple[str, float, int]]:
    """``(key, value, step=epoch)`` for every epoch of the training history."""
    out: list[tuple[str, float, int]] = []
    for stats in history:
        values = {name: getattr(stats, attr, None) for attr, name in EPOCH_FIELDS.items()}
        values |= {f"val_{k}": v for k, v in (getattr(stats, "val", None) or {}).items()}
        out += [(k, float(v), int(stats.epoch)) for k, v in values.items() if _finite(v)]
    return out


def headline_metrics(evaluations: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """``eval.<set>.recall|precision|f1|f2`` (element level, full pipeline),
    ``eval.<set>.documents`` (how many were evaluated: the gate's ``min_documents``),
    ``eval.<set>.leak_free_docs`` (share of leak-free documents) and
    ``eval.<set>.recall.<LABEL>`` (element recall of each type present in the gold set)."""
    out: dict[str, float] = {}
    for name, report in evaluations.items():
        check_set_name(name)
        elements = (report.get("overall") or {}).get("elements") or {}
        out |= {
            f"eval.{name}.{k}": float(elements[k]) for k in HEADLINE if _finite(elements.get(k))
        }
        documents = (report.get("overall") or {}).get("documents")
        if _finite(documents):
            out[f"eval.{name}.documents"] = float(documents)
        leak = (report.get("leakage") or {}).get("leak_free_share")
        if _finite(leak):
            out[f"eval.{name}.leak_free_docs"] = float(leak)
        for label, row in (report.get("per_type") or {}).items():
            if row.get("gold_elements", 0) and _finite(row.get("element_recall")):
                out[f"eval.{name}.recall.{label}"] = float(row["element_recall"])
    return out


def check_set_name(name: str) -> str:
    if not SET_NAME.match(name):
        raise ValueError(f"gold set name {name!r}: use lowercase letters, digits, '-' and '_'")
    return name


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def report_artifact(report: Mapping[str, Any]) -> str:
    """An evaluation report as stored: without the per-span error list (ids and offsets, but
    large; ``deid evaluate-model`` writes it beside the report), like reports/evaluation.json."""
    return json.dumps({k: v for k, v in report.items() if k != "errors"}, indent=2)


def provenance_tags(output: TrainingOutput, root: Path) -> dict[str, str]:
    """Git commit and dirty flag, data version, profile, device and the precision trained in
    (with the CPU's matrix units), base checkpoint, and the
    pipeline's chain (component names and versions)."""
    report = output.report or {}
    commit, dirty = git_state(root)
    data_version, data_source = data_version_of(root)
    tags = {
        "git.commit": commit,
        "git.dirty": str(dirty).lower(),
        "data.version": data_version,
        "data.version_source": data_source,
        "profile": str(report.get("profile", "unknown")),
        "device": str(output.result.device),
        "precision": str(output.result.precision),  # chosen by hardware (deid.anonymizer.precision)
        "cpu_matrix_units": str(output.result.cpu_matrix_units or "none"),
        "base": str(report.get("base") or "none"),
        "pipeline.config_sha256": _file_hash(Path(output.pipeline_dir) / "pipeline.json"),
        "pipeline.chain": chain_tag(Path(output.pipeline_dir)),
    }
    return {k: v[:TAG_VALUE_LIMIT] for k, v in tags.items()}


def chain_tag(pipeline_dir: Path) -> str:
    """``name@version,…`` of the saved pipeline's chain (deid.anonymizer.chain.chain_signature): which
    rule code the registered version was evaluated with, beside ``git.commit``."""
    from deid.anonymizer.chain import chain_signature
    from deid.anonymizer.pipeline import saved_config

    return chain_signature(saved_config(pipeline_dir).chain) or "none"


def git_state(root: Path) -> tuple[str, bool | str]:
    """HEAD and whether tracked files differ from it (``unknown`` outside a git checkout)."""
    try:
        head = _git(root, "rev-parse", "HEAD")
        dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"
    return head, dirty


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30, check=True
    )
    return done.stdout.strip()


def data_version_of(root: Path) -> tuple[str, str]:
    """The md5 DVC recorded for ``data/raw.dvc``, else the sha256 of the corpus manifest."""
    dvc_file = root / "data" / "raw.dvc"
    if dvc_file.exists():
        import yaml

        outs = (yaml.safe_load(dvc_file.read_text(encoding="utf-8")) or {}).get("outs") or []
        if outs and outs[0].get("md5"):
            return f"md5:{outs[0]['md5']}", "data/raw.dvc"
    manifest = root / "data" / "corpus" / "manifest.json"
    if manifest.exists():
        return f"sha256:{_file_hash(manifest, full=True)}", "data/corpus/manifest.json"
    return "unknown", "none"


def _file_hash(path: Path, *, full: bool = False) -> str:
    import hashlib

    if not path.exists():
        return "none"
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest if full else digest[:16]


def pip_requirements() -> list[str]:
    """The serving requirements pinned to this environment (local build tags dropped:
    ``torch==2.13.0+cpu`` is not installable from an index)."""
    out = []
    for name in REQUIREMENTS:
        try:
            out.append(f"{name}=={package_version(name).split('+')[0]}")
        except PackageNotFoundError:
            out.append(name)
    return out


def model_signature():
    from mlflow.models import ModelSignature
    from mlflow.types import ColSpec, Schema

    return ModelSignature(
        inputs=Schema(
            [
                ColSpec("string", "id"),
                ColSpec("string", "text"),
                ColSpec("string", "operator", required=False),
            ]
        ),
        outputs=Schema(
            [ColSpec("string", "id"), ColSpec("string", "text"), ColSpec("string", "spans")]
        ),
    )


# --- logging a run -------------------------------------------------------------------------


def log_training_run(
    output: TrainingOutput,
    params: Mapping[str, Any],
    evaluations: Mapping[str, Mapping[str, Any]] | None = None,
    *,
    tracking_uri: str | None = None,
    experiment: str = EXPERIMENT,
    artifact_location: str | None = None,
    model_name: str = MODEL_NAME,
    alias: str = CHALLENGER,
    root: str | Path | None = None,
) -> RunInfo:
    """Log a finished training (params, per-epoch and evaluation metrics, reports, provenance
    tags), log its pipeline as a pyfunc, register it as ``model_name`` and point ``alias`` at
    the new version. ``evaluations``: gold set name → evaluation report
    (``deid.evaluation.gold_sets.evaluate_pipeline``). ``root``: the project checkout (default: cwd)."""
    import mlflow
    from mlflow.entities import Metric, Param, RunTag

    from deid.ops import vetting

    evaluations = dict(evaluations or {})
    headline_metrics(evaluations)  # a bad gold set name fails before the run starts
    uri = resolve_tracking_uri(tracking_uri)
    root = Path(root or Path.cwd())
    client = get_client(uri, create=True)
    experiment_id = ensure_experiment(client, experiment, artifact_location)
    tags = provenance_tags(output, root)
    now = int(time.time() * 1000)
    metrics = [Metric(k, v, now, step) for k, v, step in epoch_metrics(output.result.history)]
    metrics += [Metric(k, float(v), now, 0) for k, v in _summary(output).items()]
    run_name = f"{tags['profile']}-{tags['git.commit'][:8]}"
    with (
        active_tracking(uri),
        mlflow.start_run(
            experiment_id=experiment_id, run_name=run_name, nested=mlflow.active_run() is not None
        ) as run,
    ):
        run_id = run.info.run_id
        for chunk in _chunks([Param(k, v) for k, v in param_values(params).items()], 100):
            client.log_batch(run_id, params=chunk)
        client.log_batch(run_id, tags=[RunTag(k, v) for k, v in tags.items()])
        for chunk in _chunks(metrics, 1000):
            client.log_batch(run_id, metrics=chunk)
        client.log_text(
            run_id, json.dumps(output.report, indent=2, default=str), "reports/training_report.json"
        )
        content = tree_sha256(output.pipeline_dir)
        log_evaluation(client, run_id, evaluations, source="log_training_run", model_sha256=content)
        info = log_pipeline_model(output.pipeline_dir, registered_model_name=model_name)
    version = str(info.registered_model_version)
    for key in ("git.commit", "git.dirty", "data.version", "profile", "device", "precision", "base", "pipeline.chain"):
        client.set_model_version_tag(model_name, version, key, tags[key])
    client.set_model_version_tag(model_name, version, vetting.CONTENT_TAG, content)
    client.set_registered_model_alias(model_name, alias, version)
    logger.info("run %s: registered %s version %s as @%s", run_id, model_name, version, alias)
    return RunInfo(run_id, experiment_id, info.model_id, info.model_uri, model_name, version, alias)


def log_evaluation(
    client: MlflowClient,
    run_id: str | None,
    evaluations: Mapping[str, Mapping[str, Any]],
    *,
    source: str,
    model_sha256: str | None,
) -> dict[str, float]:
    """Log evaluation reports computed in this process (``deid.evaluation.gold_sets``) on a
    version's run: headline metrics, the reports, and per gold set the tags
    ``eval.<set>.gold_sha256`` (the documents evaluated: ``report["inputs"]["gold_sha256"]``),
    ``eval.<set>.model_sha256`` (the pipeline directory evaluated,
    ``deid.sources.io.tree_sha256``), ``eval.<set>.documents``, ``eval.<set>.source`` (which
    step evaluated) and ``eval.<set>.signature``, the key's signature over all of them and
    the set's metrics (``deid.ops.vetting``). The gate trusts only evaluations whose
    signature verifies (:func:`evaluated_metrics`). Returns the headline metrics."""
    from mlflow.entities import Metric, RunTag


    metrics = headline_metrics(evaluations)
    if not run_id or not metrics:
        return metrics
    now = int(time.time() * 1000)
    for chunk in _chunks([Metric(k, v, now, 0) for k, v in metrics.items()], 1000):
        client.log_batch(run_id, metrics=chunk)
    tags = []
    for name, report in evaluations.items():
        client.log_text(run_id, report_artifact(report), f"reports/eval/{name}.json")
        part = {k: v for k, v in metrics.items() if _gold_set(k) == name}
        provenance = {"gold_sha256": (report.get("inputs") or {}).get("gold_sha256"),
                      "model_sha256": model_sha256, "source": source[:TAG_VALUE_LIMIT]}  # fmt: skip
        tags += [RunTag(k, v) for k, v in evaluation_tags(run_id, name, part, provenance).items()]
    client.log_batch(run_id, tags=tags)
    return metrics


def evaluation_tags(run_id: str, gold_set: str, metrics: Mapping[str, float], provenance: Mapping[str, Any]) -> dict[str, str]:
    """The run tags that make ``metrics`` (one gold set's) an evaluation the gate counts:
    where they came from (``gold_sha256``, ``model_sha256``, ``source``), which metric keys
    it logged (an earlier evaluation of the set on the same run may have left others) and
    the key's signature over all of it (``deid.ops.vetting``)."""
    from deid.ops import vetting

    origin = {k: provenance.get(k) for k in ("gold_sha256", "model_sha256", "source")}
    origin["documents"] = metrics.get(f"eval.{gold_set}.documents")
    signature = vetting.sign(vetting.evaluation_payload(run_id, gold_set, metrics, origin))
    return {**{f"eval.{gold_set}.{k}": str(origin[k]) for k in ("gold_sha256", "model_sha256", "source")},
            f"eval.{gold_set}.metrics": ",".join(sorted(metrics)), f"eval.{gold_set}.signature": signature}  # fmt: skip


def _gold_set(metric: str) -> str:
    return metric.split(".")[1]


@dataclass(frozen=True)
class Evaluated:
    """The evaluations on a version's run whose signatures verify: their metrics, where
    each set's came from (``gold_sha256``, ``documents``, ``model_sha256``, ``source``), and
    why any other set's metrics were ignored."""

    metrics: dict[str, float]
    provenance: dict[str, dict[str, Any]]
    ignored: dict[str, str]


def evaluated_metrics(client: MlflowClient, mv: ModelVersion) -> Evaluated:
    """The ``eval.*`` metrics of a version's run that an evaluation of this product logged
    (:func:`log_evaluation`): per gold set, only if its signature verifies for the metrics
    on the run now. Metrics written by hand, changed afterwards, or logged with an unkeyed
    digest are ignored, with the reason."""
    from deid.ops import vetting

    if not mv.run_id:
        return Evaluated({}, {}, {})
    run = client.get_run(mv.run_id)
    metrics = {k: v for k, v in run.data.metrics.items() if k.startswith("eval.")}
    tags = run.data.tags
    out = Evaluated({}, {}, {})
    for gold in sorted({_gold_set(k) for k in metrics}):
        logged = (tags.get(f"eval.{gold}.metrics") or "").split(",")
        part = {k: metrics[k] for k in logged if k in metrics}
        provenance = {k: tags.get(f"eval.{gold}.{k}") for k in ("gold_sha256", "model_sha256", "source")}
        provenance = {k: None if v in (None, "None") else v for k, v in provenance.items()}
        provenance["documents"] = part.get(f"eval.{gold}.documents")
        payload = vetting.evaluation_payload(mv.run_id, gold, part, provenance)
        try:
            ok = vetting.verifies(payload, tags.get(f"eval.{gold}.signature"))
        except vetting.GateKeyProblem as exc:
            out.ignored[gold] = str(exc)
            continue
        if ok:
            out.metrics.update(part)
            out.provenance[gold] = provenance
        else:
            out.ignored[gold] = ("not logged by an evaluation of this product (no signature, or "
                                 "metrics changed after it signed them)")  # fmt: skip
    return out


def log_pipeline_model(pipeline_dir: str | Path, *, registered_model_name: str | None = MODEL_NAME):
    """Log a saved pipeline directory as a pyfunc from code into the active run."""
    import mlflow
    import pandas as pd

    pipeline_dir = Path(pipeline_dir).resolve()
    if not (pipeline_dir / "pipeline.json").exists():
        raise FileNotFoundError(f"{pipeline_dir} is not a saved pipeline (no pipeline.json)")
    return mlflow.pyfunc.log_model(
        name=MODEL_ARTIFACT_NAME,
        python_model=str(PYFUNC_SCRIPT),
        artifacts={PIPELINE_ARTIFACT: str(pipeline_dir)},
        code_paths=[str(PACKAGE_DIR)],
        pip_requirements=pip_requirements(),
        signature=model_signature(),
        input_example=pd.DataFrame({"id": ["example-1"], "text": [EXAMPLE_TEXT]}),
        registered_model_name=registered_model_name,
    )


def _summary(output: TrainingOutput) -> dict[str, float]:
    report = output.report or {}
    out = {"best_epoch": output.result.best_epoch, "training_seconds": report.get("seconds"),
           "parameters": report.get("parameters")}  # fmt: skip
    out |= {f"best_val_{k}": v for k, v in (output.result.best_val or {}).items()}
    return {k: float(v) for k, v in out.items() if _finite(v)}


def _chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def training_output_from_dir(pipeline_dir: str | Path) -> TrainingOutput:
    """A ``TrainingOutput`` for an already saved pipeline (``deid register``), rebuilt from its
    ``training_report.json``; without one, the run has no epoch history."""
    from deid.training.job import REPORT_FILE, TrainingOutput
    from deid.training.loop import EpochStats, TrainResult

    pipeline_dir = Path(pipeline_dir)
    path = pipeline_dir / REPORT_FILE
    report = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    res = report.get("result") or {}
    result = TrainResult(
        history=[EpochStats(**h) for h in res.get("history", [])],
        best_epoch=int(res.get("best_epoch", -1)),
        best_val=dict(res.get("best_val") or {}),
        device=str(res.get("device", "unknown")),
        precision=str(res.get("precision", "unknown")),
        stopped_early=bool(res.get("stopped_early", False)),
        cpu_matrix_units=res.get("cpu_matrix_units"),
    )
    return TrainingOutput(pipeline_dir, result, report)


# --- reading the registry ------------------------------------------------------------------


def alias_version(
    client: MlflowClient, alias: str, model_name: str = MODEL_NAME
) -> ModelVersion | None:
    """The version an alias points at, or None when the alias (or the model) does not exist."""
    from mlflow.exceptions import MlflowException

    try:
        return client.get_model_version_by_alias(model_name, alias)
    except MlflowException:
        return None


def version_tag(
    model_name: str | None, version: str | None, key: str, tracking_uri: str | None = None
) -> str:
    """One tag of a registered version, ``unknown`` when there is no such version or tag."""
    from mlflow.exceptions import MlflowException

    if not model_name or not version:
        return "unknown"
    try:
        mv = get_client(tracking_uri).get_model_version(model_name, version)
    except MlflowException:
        return "unknown"
    return (mv.tags or {}).get(key, "unknown")


def version_metrics(client: MlflowClient, mv: ModelVersion) -> dict[str, float]:
    """The ``eval.*`` metrics of the run that produced a version."""
    if not mv.run_id:
        return {}
    return {
        k: v for k, v in client.get_run(mv.run_id).data.metrics.items() if k.startswith("eval.")
    }


def list_versions(
    tracking_uri: str | None = None, model_name: str = MODEL_NAME
) -> list[VersionSummary]:
    """Every registered version, newest first, with its aliases and headline metrics."""
    from mlflow.exceptions import MlflowException

    client = get_client(tracking_uri)
    try:
        aliases = client.get_registered_model(model_name).aliases or {}
    except MlflowException:
        return []
    by_version: dict[str, list[str]] = {}
    for alias, ver in aliases.items():
        by_version.setdefault(str(ver), []).append(alias)
    versions = client.search_model_versions(f"name = '{model_name}'")
    out = [
        VersionSummary(
            version=str(mv.version),
            aliases=tuple(sorted(by_version.get(str(mv.version), []))),
            run_id=mv.run_id,
            created=int(mv.creation_timestamp or 0),
            metrics=version_metrics(client, mv),
            tags=dict(mv.tags or {}),
        )
        for mv in versions
    ]
    return sorted(out, key=lambda v: -int(v.version))
