"""The layers of the project, read from the source with ``ast`` (nothing is imported):

* ``deid`` is the library: it never imports ``flows``, ``pipelines`` or ``bench``, and only
  ``deid/app/cli.py`` and ``deid/app/commands/`` import the command line (``deid.app.cli``,
  ``deid.app.commands``), so the CLI stays a thin shell over library functions;
* ``pipelines`` (the DVC stages) call the library, never ``flows`` or the command line: a
  stage's DVC deps are then library modules only;
* ``flows`` may import ``pipelines`` and ``deid``;
* at module level, the library's units (a top-level module or a subpackage) import each
  other without a cycle.

Module-level and function-level imports count alike (a function-level import is a
dependency all the same), and so does ``importlib.import_module`` with a literal name.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

COMMAND_LINE = ("deid.app.cli", "deid.app.commands")


def _files(package: str) -> list[Path]:
    """The files of a package folder, or the one file of a module (``deid/ops/chunks``)."""
    single = (ROOT / package).with_suffix(".py")
    return [single] if single.is_file() else sorted((ROOT / package).rglob("*.py"))


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module name of a (possibly relative) ``from … import``."""
    if node.level == 0:
        return node.module or ""
    package = _module(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _literal_prefix(node: ast.expr) -> str | None:
    """The fixed start of a string argument: a literal, or an f-string's leading text."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A file parsed once for all the checks."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """Every module name ``path`` imports, anywhere in the file, with its line:
    ``from a.b import c`` yields ``a.b`` and ``a.b.c`` (``c`` may be a module)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(path, node)
            yield node.lineno, module
            for alias in node.names:
                yield node.lineno, f"{module}.{alias.name}"
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                prefix = _literal_prefix(node.args[0])
                if prefix:
                    yield node.lineno, prefix.rstrip(".")


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _violations(package: str, forbidden: tuple[str, ...], allowed: tuple[str, ...] = ()) -> list[str]:
    out = []
    for path in _files(package):
        if _within(_module(path), allowed):
            continue
        rel = path.relative_to(ROOT)
        out += [f"{rel}:{line} imports {name}" for line, name in imports(path) if _within(name, forbidden)]
    return sorted(set(out))


def test_the_library_never_imports_flows_stages_or_benchmarks() -> None:
    assert not _violations("deid", ("flows", "pipelines", "bench"))


def test_only_the_command_line_imports_the_command_line() -> None:
    assert not _violations("deid", COMMAND_LINE, allowed=COMMAND_LINE)


def test_stages_never_import_flows_or_the_command_line() -> None:
    assert not _violations("pipelines", ("flows", *COMMAND_LINE))


def test_flows_import_only_the_library_stages_and_themselves() -> None:
    """Flows sit on top: they may use every layer below, but no benchmark."""
    assert not _violations("flows", ("bench",))


# what loads and runs a model in production: the pipeline and its model step, the service,
# the MLflow pyfunc, the batch chunks and the evaluation
INFERENCE = ("deid.anonymizer", "deid.app.service", "deid.ops.pyfunc_model", "deid.ops.chunks",
             "deid.ops.model_store", "deid.ops.lineage", "deid.evaluation")  # fmt: skip


def test_inference_never_imports_the_training_code() -> None:
    """Loading a model to run it (deid.anonymizer.checkpoint) is shared with training, not
    borrowed from it: serving a model needs none of the training code or its dependencies."""
    assert all(_files(package.replace(".", "/")) for package in INFERENCE)
    found = [v for package in INFERENCE for v in _violations(package.replace(".", "/"), ("deid.training",))]
    assert not found, found


def _module_level(path: Path) -> Iterator[str]:
    """The names imported when ``path`` is imported: top-level statements (inside ``if`` and
    ``try`` too), but not under ``if TYPE_CHECKING`` and not inside functions or classes."""
    todo = list(_tree(path).body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If):
            if "TYPE_CHECKING" not in ast.dump(node.test):
                todo += node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(path, node)
            yield module
            yield from (f"{module}.{a.name}" for a in node.names)


def _unit(module: str) -> str:
    """``deid.rewrite.surrogates.person`` → ``deid.rewrite.surrogates``; ``deid.sources.io`` stays ``deid.sources.io``."""
    return ".".join(module.split(".")[:2])


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` (empty when there is none), by depth-first search."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


@pytest.mark.parametrize("package", ("deid", "pipelines", "flows"))
def test_units_import_each_other_without_a_cycle(package: str) -> None:
    modules = {_module(p): p for top in ("deid", "pipelines", "flows") for p in _files(top)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        if not name.startswith(package):
            continue
        targets = {_unit(m) for m in _module_level(path) if m in modules}
        graph.setdefault(_unit(name), set()).update(targets - {_unit(name)})
    assert not _cycle(graph), " → ".join(_cycle(graph))


def test_the_checks_see_imports_of_every_kind(tmp_path: Path) -> None:
    """The parser itself: function-level, importlib and relative imports are all found."""
    written = tmp_path / "x.py"
    written.write_text("def f():\n    import flows.data\n    importlib.import_module(f'bench.{n}')\n", encoding="utf-8")
    assert {"flows.data", "bench"} <= {name for _, name in imports(written)}
    relative = ast.parse("from .commands import rewrite").body[0]
    assert isinstance(relative, ast.ImportFrom)
    assert _resolve(ROOT / "deid" / "x.py", relative) == "deid.commands"
    assert _resolve(ROOT / "deid" / "rewrite" / "gold" / "__init__.py", relative) == "deid.rewrite.gold.commands"


def test_no_module_of_the_library_imports_itself_back_even_lazily() -> None:
    """No import cycle between deid's modules, function-level imports included: a lazy import
    that closes a cycle hides a layering mistake until someone moves the import up."""
    modules = {_module(p): p for p in _files("deid")}

    def owner(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {owner(m) for _, m in imports(path)} - {None, name}
        # a package's __init__ re-exporting its own modules is no cycle of the layers
        graph[name] = {t for t in targets if t is not None and not name.startswith(t + ".")}
    assert not _cycle(graph), " → ".join(_cycle(graph))
