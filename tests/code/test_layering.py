"""Layering of the ``deid`` package, read from the source with ``ast`` (nothing is imported).

* Word knowledge (``deid.words``: lexicons, cue lists, gazetteer readers, word shapes) is the
  bottom layer: it imports the standard library, third-party packages, itself and the two
  basics below, and nothing above it, not even inside a function. The model's input features
  are built on it, so a rule module can never change them by accident.
* No import cycle among ``deid`` modules at module level: such a cycle makes the import order
  matter and hides which module is the lower one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "deid"
WORDS = "deid.words"
# What word knowledge may use beside itself: the document model and file readers.
WORDS_MAY_IMPORT = frozenset({"deid.schema", "deid.sources.io"})


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(name: str) -> str | None:
    """The ``deid`` module ``name`` refers to (a symbol's module for ``from m import symbol``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, top_level_only: bool) -> Iterator[tuple[str, int]]:
    """``(deid module, line)`` of each import in ``module``; with ``top_level_only`` only those
    run when the module is imported (not inside a function nor under ``TYPE_CHECKING``)."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if top_level_only and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if top_level_only and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, child.lineno
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in child.names:
                    yield f"{base}.{alias.name}", child.lineno
            yield from visit(child)

    for name, line in visit(tree):
        target = _resolve(name) if name.split(".")[0] == "deid" else None
        if target and target != module:
            yield target, line


def _graph(top_level_only: bool) -> dict[str, set[str]]:
    return {m: {t for t, _ in _imports(m, top_level_only)} for m in MODULES}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_the_scanner_sees_the_known_imports() -> None:
    """The checks below are only as good as the import scan."""
    assert "deid.words.lexicon" in _graph(True)["deid.words.ordinary"]
    assert "deid.words.shapes" in _graph(True)["deid.anonymizer.features"]
    assert "deid.words.gazetteer" in _graph(False)["deid.anonymizer.policy"]  # a function-level import


def test_word_knowledge_imports_nothing_above_it() -> None:
    words = [m for m in MODULES if m == WORDS or m.startswith(WORDS + ".")]
    assert len(words) >= 8
    above = sorted(
        f"{m} imports {t} (line {line})"
        for m in words
        for t, line in _imports(m, top_level_only=False)
        if not (t == WORDS or t.startswith(WORDS + ".") or t in WORDS_MAY_IMPORT)
    )
    assert not above, "\n".join(above)


def test_importing_word_knowledge_loads_nothing_above_it() -> None:
    """The basics import only each other when loaded (``deid.sources.io`` reads PDFs and Word
    files through ``deid.sources.formats`` inside a function only)."""
    graph = _graph(top_level_only=True)
    seen: set[str] = set()
    todo = [m for m in MODULES if m.startswith(WORDS)]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    assert not {m for m in seen if not m.startswith(WORDS)} - WORDS_MAY_IMPORT


def test_model_features_read_only_word_knowledge() -> None:
    """The model's input (``deid.anonymizer.features``) is built from frozen word knowledge alone: no rule
    or cue list above it (the placeholder miner's, the policy's) can change a saved model's
    input, not even through a function-level import."""
    graph = _graph(top_level_only=False)
    seen: set[str] = set()
    todo = ["deid.anonymizer.features"]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            if module not in WORDS_MAY_IMPORT:  # their function-level imports read files
                todo.extend(graph[module])
    above = {m for m in seen if not m.startswith(WORDS)} - WORDS_MAY_IMPORT - {"deid.anonymizer.features"}
    assert not above, sorted(above)


def test_no_module_level_import_cycle() -> None:
    cycles = _cycles(_graph(top_level_only=True))
    assert not cycles, cycles


def test_word_knowledge_is_in_no_cycle_even_through_function_imports() -> None:
    """Function-level imports may still close cycles above (counted in the report of the
    change that added this test); none may pass through word knowledge."""
    for component in _cycles(_graph(top_level_only=False)):
        assert not [m for m in component if m.startswith(WORDS)], component
