"""The ``deid`` command line. Each area's commands live in ``deid/app/commands/``."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

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
COMMAND_MODULES: tuple[str, ...] = ("placeholders", "corpus", "evaluate", "rewrite", "model", "registry", "check", "data", "serve")


def _user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """A command whose user errors (``deid.sources.errors.UserError``, ``deid.sources.io.InputError``) print
    one line and exit with status 2, instead of a traceback of a hundred lines: the message
    says what to fix; a bug still shows its traceback."""
    from deid.sources.errors import UserError
    from deid.sources.io import InputError

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (UserError, InputError) as exc:
            lines = str(exc).strip().splitlines() or [type(exc).__name__]
            typer.echo(f"error: {lines[0]}", err=True)
            raise typer.Exit(2) from None

    return run


def _wrap_commands(group: typer.Typer) -> None:
    for info in group.registered_commands:
        info.callback = _user_errors(info.callback)
    for sub in group.registered_groups:
        _wrap_commands(sub.typer_instance)


def _register() -> None:
    """Attach the sub-commands of every module in ``deid/app/commands`` named above."""
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"deid.app.commands.{name}").register(app)
    _wrap_commands(app)


_register()

if __name__ == "__main__":
    app()
