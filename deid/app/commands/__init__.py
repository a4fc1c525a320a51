"""Typer sub-commands; every module here defines ``register(app: typer.Typer) -> None``.

Options that several areas take are declared once here, so their help reads the same."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

SourcesOption = Annotated[Path, typer.Option(help="Bundled sources (ler/, decisions/).")]
