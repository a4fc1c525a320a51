"""Shared fixtures: paths into the project's own bundled data (never ../shared)."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "data" / "sources"


def read_source(relpath: str) -> str:
    """A bundled source file as text (xz-compressed files are decompressed)."""
    path = SOURCES / relpath
    if path.suffix == ".xz":
        return lzma.open(path, "rt", encoding="utf-8").read()
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sources() -> Path:
    return SOURCES
