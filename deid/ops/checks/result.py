"""What a data check returns: pass/fail, numbers, failed expectations and where the docs are.

Only numbers leave GX results: sample values of a failing column (``partial_unexpected_list``)
are kept only when they are numbers, so a report can never carry ids or text by accident.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_OBSERVED_KEYS = (
    "observed_value",
    "element_count",
    "unexpected_count",
    "unexpected_percent",
    "missing_count",
)


@dataclass
class CheckResult:
    """Outcome of one suite; ``docs_path`` is the Data Docs index.html (a flow artifact)."""

    suite: str
    success: bool
    statistics: dict[str, Any] = field(default_factory=dict)
    failed: list[dict[str, Any]] = field(default_factory=list)
    docs_path: Path | None = None
    validation_page: Path | None = None
    summary: str = ""
    summary_path: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "success": self.success,
            "statistics": self.statistics,
            "failed": self.failed,
            "docs_path": str(self.docs_path) if self.docs_path else None,
            "validation_page": str(self.validation_page) if self.validation_page else None,
            "summary_path": str(self.summary_path) if self.summary_path else None,
        }

    @property
    def failed_checks(self) -> list[str]:
        """Short names (``meta.check``) of the failed expectations."""
        return [f["check"] for f in self.failed]


def as_number(value: Any) -> int | float | None:
    """``value`` as a plain Python number, or ``None`` for anything else (bools included)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return round(number, 6) if math.isfinite(number) else None


def failed_expectation(result: Any) -> dict[str, Any]:
    """One failed GX expectation result as ``{check, expectation, column, observed}``."""
    config = result.expectation_config
    raw = result.result or {}
    observed = {k: n for k in _OBSERVED_KEYS if (n := as_number(raw.get(k))) is not None}
    sample = [as_number(v) for v in raw.get("partial_unexpected_list") or []]
    if sample and all(v is not None for v in sample):
        observed["unexpected_values"] = sample
    entry: dict[str, Any] = {
        "check": (config.meta or {}).get("check", config.type),
        "expectation": config.type,
        "column": config.kwargs.get("column"),
        "observed": observed,
    }
    if result.exception_info and result.exception_info.get("raised_exception"):
        entry["raised_exception"] = True
    return entry


def markdown_summary(result: CheckResult) -> str:
    """A short report of one run: verdict, failed expectations, numbers; never text."""
    verdict = "passed" if result.success else "FAILED"
    stats = result.statistics
    met, evaluated = stats.get("successful_expectations"), stats.get("evaluated_expectations")
    lines = [
        f"# Data check `{result.suite}`: {verdict}",
        "",
        f"{met} of {evaluated} expectations met.",
        "",
    ]
    if result.failed:
        lines += ["| check | expectation | column | observed |", "|---|---|---|---|"]
        for f in result.failed:
            observed = ", ".join(f"{k}={v}" for k, v in f["observed"].items()) or "-"
            if f.get("raised_exception"):
                observed += " (expectation raised)"
            lines.append(
                f"| {f['check']} | `{f['expectation']}` | {f['column'] or '-'} | {observed} |"
            )
        lines.append("")
    data = {k: v for k, v in stats.items() if k not in _GX_STATISTICS}
    if data:
        lines += ["## Statistics", ""]
        lines += [f"- {k}: {v}" for k, v in data.items()]
        lines.append("")
    if result.docs_path:
        lines.append(f"Data Docs: {result.validation_page or result.docs_path}")
    return "\n".join(lines) + "\n"


_GX_STATISTICS = frozenset(
    {
        "evaluated_expectations",
        "successful_expectations",
        "unsuccessful_expectations",
        "success_percent",
    }
)
