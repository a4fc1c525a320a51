"""flows/_common: options made from a flow's signature, Markdown tables, MLflow links, stage
exits. No Prefect server: the helpers are plain functions."""

from __future__ import annotations

import argparse
import inspect

import pytest

from flows._common import (
    Durations,
    StageFailed,
    _argument,
    markdown_table,
    mlflow_links,
    run_stage,
)


def example(
    input: str,
    chunk_size: int = 8,
    operator: str | None = None,
    track: bool = True,
    gold_sets: dict[str, str] | None = None,
    threshold: float = 0.5,
) -> None:
    """A flow's signature, as the flows declare them."""


def parse(argv: list[str]) -> dict:
    parser = argparse.ArgumentParser()
    for param in inspect.signature(example).parameters.values():
        _argument(parser, param)
    return vars(parser.parse_args(argv))


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--input", "s3://in/x"], {"input": "s3://in/x", "chunk_size": 8, "operator": None, "track": True,
                                    "gold_sets": None, "threshold": 0.5}),
        (["--input", "d", "--chunk-size", "2", "--operator", "mask", "--no-track", "--threshold", "0.3"],
         {"input": "d", "chunk_size": 2, "operator": "mask", "track": False, "gold_sets": None, "threshold": 0.3}),
        (["--input", "d", "--gold-sets", '{"ler": "a.jsonl"}'],
         {"input": "d", "chunk_size": 8, "operator": None, "track": True, "gold_sets": {"ler": "a.jsonl"},
          "threshold": 0.5}),
    ],
)  # fmt: skip
def test_options_follow_the_signature(argv: list[str], expected: dict) -> None:
    assert parse(argv) == expected


def test_a_parameter_without_default_is_required() -> None:
    with pytest.raises(SystemExit):
        parse(["--chunk-size", "2"])


def test_markdown_table_and_durations() -> None:
    assert markdown_table(["a", "b"], [[1, "x"]]) == "| a | b |\n|---|---|\n| 1 | x |\n"
    durations = Durations({"train": 1.25, "gate": 0.5})
    assert durations.markdown().splitlines()[-1] == "| **total** | 1.8 |"


def test_links_to_a_server_and_to_a_local_store() -> None:
    server = mlflow_links("http://127.0.0.1:5000/", "1", "abc", "deid-ner", "3")
    assert server == {
        "run": "http://127.0.0.1:5000/#/experiments/1/runs/abc",
        "model_version": "http://127.0.0.1:5000/#/models/deid-ner/versions/3",
    }
    local = mlflow_links("sqlite:////p/mlflow.db", "1", "abc", "deid-ner", "3")
    assert local["start_ui"] == "mlflow ui --backend-store-uri sqlite:////p/mlflow.db"


def test_a_stage_exit_becomes_an_error_and_success_passes() -> None:
    def failing(argv):
        raise SystemExit("3 raw file(s) rejected")

    with pytest.raises(StageFailed, match="3 raw file"):
        run_stage(failing, [])
    run_stage(lambda argv: None, ["--x", 1])
