"""The MLflow pyfunc around a saved deid pipeline, logged "from code" by path.

MLflow runs this file when the model is loaded, so it stays a plain script with minimal
imports (MLflow would otherwise infer requirements from them; ``deid.ops.mlflow_registry`` passes
``pip_requirements`` explicitly). The weights are never pickled: the pipeline directory is
the ``pipeline`` artifact, opened in ``load_context`` through ``deid.anonymizer.pipeline.build_pipeline``
(the one construction path), and the ``deid`` package travels as ``code_paths``.

Input: a DataFrame with columns ``id``, ``text`` and optionally ``operator`` (remove | label |
pseudonymize | mask; empty = the pipeline's default). Output: a DataFrame ``id``, ``text``
(anonymized) and ``spans`` (a JSON list of ``{"start", "end", "label", ...}`` with offsets into
the *input* text). ``pseudonymize`` reads its key from ``$DEID_SECRET`` at predict time; the
key is never stored with the model.
"""

from __future__ import annotations

import json
import os
from typing import Any

import mlflow.pyfunc
import pandas as pd
from mlflow.models import set_model

from deid.ops.mlflow_registry import PIPELINE_ARTIFACT

SECRET_ENV = "DEID_SECRET"
INPUT_COLUMNS = ("id", "text")
OUTPUT_COLUMNS = ("id", "text", "spans")


class DeidPipelineModel(mlflow.pyfunc.PythonModel):
    """Anonymizes a batch of documents with the pipeline stored as the model's artifact."""

    def load_context(self, context: Any) -> None:
        from deid.anonymizer.pipeline import build_pipeline

        self.pipeline = build_pipeline(context.artifacts[PIPELINE_ARTIFACT])

    def predict(
        self, context: Any, model_input: pd.DataFrame, params: dict[str, Any] | None = None
    ) -> pd.DataFrame:
        from deid.schema import Document

        missing = [c for c in INPUT_COLUMNS if c not in model_input.columns]
        if missing:
            raise ValueError(f"input needs the columns {list(INPUT_COLUMNS)}; missing {missing}")
        ids = [str(v) for v in model_input["id"]]
        texts = [
            v if isinstance(v, str) else "" if pd.isna(v) else str(v) for v in model_input["text"]
        ]
        operators = _operators(model_input, len(texts))
        secret = os.environ.get(SECRET_ENV)
        key = secret.encode("utf-8") if secret else None
        all_spans = self.pipeline.analyze_many(texts)
        rows = []
        for doc_id, text, spans, operator in zip(ids, texts, all_spans, operators):
            record = self.pipeline.anonymize(
                Document(doc_id, text), operator=operator, secret=key, spans=spans
            )
            rows.append(
                {"id": doc_id, "text": record["text"], "spans": json.dumps(record["spans"])}
            )
        return pd.DataFrame(rows, columns=list(OUTPUT_COLUMNS))


def _operators(frame: pd.DataFrame, n: int) -> list[str | None]:
    """Per-row operator; a missing column or an empty cell means the pipeline's default."""
    if "operator" not in frame.columns:
        return [None] * n
    return [str(v) if isinstance(v, str) and v.strip() else None for v in frame["operator"]]


set_model(DeidPipelineModel())
