"""The ``deid`` command line. Each area's commands live in ``deid/commands/``."""

from __future__ import annotations

import logging

import typer

app = typer.Typer(
    name="deid",
    help="Anonymize German court decisions: placeholders, surrogates, models, MLOps.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # locals may hold document text
)


@app.callback()
def main(verbose: bool = typer.Option(False, "--verbose", "-v", help="Debug logging.")) -> None:
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


# One explicit list (no discovery magic): adding a command module means adding its name here.
COMMAND_MODULES: tuple[str, ...] = ("placeholders", "corpus", "evaluate", "rewrite", "model", "registry", "check", "data")


def _register() -> None:
    """Attach the sub-commands of every module in ``deid/commands`` named above."""
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"deid.commands.{name}").register(app)


_register()

if __name__ == "__main__":
    app()
