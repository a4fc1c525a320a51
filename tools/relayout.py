"""Move ``deid/`` into rooms that show the architecture (issue 16, item 5), re-runnably.

Usage (from the repository root, on a clean work tree)::

    python tools/relayout.py            # plan + move + rewrite every reference
    python tools/relayout.py --dry-run  # print the plan only
    python tools/relayout.py --allow-unmapped   # leave unknown top-level entries where they are

What it does, in order:

1. Checks that every top-level entry of ``deid/`` is either kept (``KEEP``), a room this
   script makes (``ROOMS``) or a mapped source (``MAPPING``). Anything else (a module a merged
   branch added) stops the run with its name: add it to ``MAPPING`` (or ``KEEP``) first.
2. Rewrites references in every tracked text file (code, tests, flows, pipelines, bench,
   infra, dvc.yaml, Makefile, pyproject.toml, prefect.yaml, .ci/run, docs, READMEs; not
   ``data/`` besides ``data/README.md``, not ``reports/``, not ``dvc.lock``, not this file):

   * dotted module names ``deid.old.mod[.attr]`` (imports, ``mock.patch``/``monkeypatch``
     targets, ``-m deid.cli``, the console script ``deid.cli:app``, docs), by the longest
     mapped prefix. A dotted name whose rest is no name of that module is a *registered name*,
     not an import path, and stays: ``deid.recognizers.iban.v1``, ``deid.surrogates.person_de.v1``
     (saved ``pipeline.json`` files and ``params.yaml`` keep loading), the event
     ``deid.corpus.pushed``. The run prints every name it kept that way;
   * ``from deid import a, b`` (split per new package; a renamed module keeps its local name
     through ``as``);
   * file paths ``deid/old/mod.py`` and folders ``deid/old`` (dvc.yaml deps, docs, tests'
     ``"deid" / "x"`` path segments, ``resources.files("deid") / ...``), and the
     ``package-data`` globs of pyproject.toml (relative to the ``deid`` package);
   * ``Path(__file__)`` expressions (``.parent``, ``.parents[n]``, ``.with_name(...)``, with
     ``/ "segment"`` tails): re-expressed from the file's new place so they name the same
     (moved) file or folder;
   * dvc.yaml: a stage whose deps reach into a new room gets the room's ``__init__.py``
     (Python imports it), so the deps closure test keeps holding.

3. ``git mv`` every tracked file of a mapped source to its new place (file by file, so a
   package may move into a room of the same name: ``deid/rewrite`` → ``deid/rewrite/gold``),
   writes each room's ``__init__.py`` (one docstring line: what the room holds) and removes
   the emptied folders (``__pycache__`` included).

Idempotent: an entry whose destination exists is done and skipped; a second run finds nothing
to move and rewrites nothing. Entries whose source is absent (``deid/chain.py``,
``deid/components.py`` of branch h-chain, ``deid/training_sources.py`` of h-stages, before they
are merged) are skipped; a module the merged branches add under a moved package (h-stages'
``deid/rewrite/build.py``) moves with it.

Why these rooms (twelve entries, the issue's limit): the data flow reads top-down —
``sources`` (documents in: LER, bundled decisions, reviews, formats, paragraphs) → ``rewrite``
(the courts' placeholders, surrogates, the rewritten gold sets) → ``training`` →
``anonymizer`` (the run-time path: pipeline, model inference, recognizers, keep zones, policy,
consistency, and the operators that replace the spans) → ``evaluation`` → ``ops`` (registry,
gate, lineage, DVC, S3, batches, data checks) and ``app`` (command line, service). ``words``
(word knowledge, the bottom layer), ``resources`` (the bundled lists), ``schema`` and
``settings`` stay. ``resources`` stays a top-level folder because branch h-stages makes its
word lists the outs of a DVC stage ``words`` that depends on ``deid/words``: inside that
folder they would be a stage's dep and out at once. That costs one entry, so the operators
join the analyzer in ``anonymizer`` (the pipeline's ``anonymize`` applies them).

Near-synonyms get names that say what they hold: ``training/{data,loop,job}.py`` (were
``training``, ``trainer``, ``train_model``), ``evaluation/{metrics,gold_sets,placeholders}.py``
(were ``evaluation``, ``model_eval``, ``detection_quality``), ``rewrite/placeholders/cues.py``
(was ``placeholders/lexicon``, beside ``words/lexicon``), ``ops/mlflow_registry.py`` (was
``registry``, beside the surrogate and operator registries), ``anonymizer/pipeline.py`` (was
``anonymize``).
"""

from __future__ import annotations

import argparse
import ast
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = "deid"

# Top-level entries of deid/ that stay where they are.
KEEP = {"__init__.py", "schema.py", "words", "resources"}

# The rooms this script creates, with the one line their __init__.py says.
ROOMS = {
    "deid.sources": "Documents in: LER CoNLL, bundled decisions, saved reviews, file formats, "
    "paragraphs, text elements and offset-keeping edits; params.yaml and the errors a user can fix.",
    "deid.rewrite": "Learning from anonymized decisions: the courts' placeholders, type-faithful "
    "surrogates, and the reserved decisions rewritten into gold sets.",
    "deid.training": "One training run: its settings (params.yaml), training windows with "
    "per-epoch surrogates, the pretrained encoder, tokenizers, models, the loop and its "
    "threshold; the word lists built from the training split.",
    "deid.anonymizer": "The run-time path from text to anonymized text: the pipeline, model "
    "inference and its input features, rule recognizers, the chain (keep zones, policy "
    "filters, consistency), the operators and the format writer.",
    "deid.evaluation": "Scores: every metric on the gold sets, placeholder detection quality, "
    "which gold names lists already know.",
    "deid.ops": "Operations: MLflow registry and pyfunc, promotion gate, lineage, DVC, S3, "
    "batches and chunks, data checks.",
    "deid.app": "The user-facing shells: the command line and the review service.",
}

# old module (or folder) → new module (or folder). Packages move whole; a longer key (a
# module inside a moved package) wins over a shorter one.
MAPPING = {
    # sources: documents in
    "deid.corpus": "deid.sources.corpus",
    "deid.ler": "deid.sources.ler",
    "deid.paragraphs": "deid.sources.paragraphs",
    "deid.io": "deid.sources.io",
    "deid.formats": "deid.sources.formats",
    "deid.formats.writer": "deid.anonymizer.writer",  # writes with the operators: output side
    "deid.textedit": "deid.sources.textedit",
    "deid.elements": "deid.sources.elements",
    "deid.review": "deid.sources.reviews",
    # errors a user can fix and the params reader sit low: every room uses them
    "deid.errors": "deid.sources.errors",
    "deid.params": "deid.sources.params",
    # rewrite: placeholders → surrogates → gold sets
    "deid.placeholders": "deid.rewrite.placeholders",
    "deid.placeholders.lexicon": "deid.rewrite.placeholders.cues",
    "deid.placeholder_gold": "deid.rewrite.placeholders.gold",  # in evaluation: rewrite → evaluation → anonymizer → rewrite
    "deid.surrogates": "deid.rewrite.surrogates",
    "deid.rewrite": "deid.rewrite.gold",
    # training
    "deid.train_model": "deid.training.job",
    "deid.trainer": "deid.training.loop",
    "deid.training": "deid.training.data",
    "deid.augment": "deid.training.augment",
    "deid.word_lists": "deid.training.word_lists",  # built from the training split
    "deid.settings": "deid.training.settings",  # what a training run (and its saved pipeline) is given
    "deid.tokenizer": "deid.training.tokenizer",
    "deid.models": "deid.training.models",
    "deid.pretrain": "deid.training.pretrain",
    "deid.encoder": "deid.training.encoder",
    "deid.training_sources": "deid.training.documents",  # h-stages: the data stages' view
    # anonymizer: analyzer and operators
    "deid.anonymize": "deid.anonymizer.pipeline",
    "deid.features": "deid.anonymizer.features",  # the model's frozen input features (ner reads them)
    "deid.chain": "deid.anonymizer.chain",
    "deid.components": "deid.anonymizer.components",
    "deid.policy": "deid.anonymizer.policy",
    "deid.consistency": "deid.anonymizer.consistency",
    "deid.ner": "deid.anonymizer.ner",
    "deid.onnx_engine": "deid.anonymizer.onnx_engine",
    "deid.budget": "deid.anonymizer.budget",
    "deid.recognizers": "deid.anonymizer.recognizers",
    "deid.operators": "deid.anonymizer.operators",
    # evaluation
    "deid.evaluation": "deid.evaluation.metrics",
    "deid.model_eval": "deid.evaluation.gold_sets",
    "deid.detection_quality": "deid.evaluation.placeholders",
    "deid.surrogate_overlap": "deid.evaluation.surrogate_overlap",
    # ops
    "deid.registry": "deid.ops.mlflow_registry",
    "deid.pyfunc_model": "deid.ops.pyfunc_model",
    "deid.model_store": "deid.ops.model_store",
    "deid.gate": "deid.ops.gate",
    "deid.versioning": "deid.ops.versioning",
    "deid.lineage": "deid.ops.lineage",
    "deid.s3": "deid.ops.s3",
    "deid.batch": "deid.ops.batch",
    "deid.chunks": "deid.ops.chunks",
    "deid.checks": "deid.ops.checks",
    # app
    "deid.cli": "deid.app.cli",
    "deid.commands": "deid.app.commands",
    "deid.service": "deid.app.service",
}

# Dotted strings that look like module paths but are names others store or match on: the
# Prefect event and resource ids of a pushed corpus (flows/corpus.py emits them,
# prefect.yaml's trigger matches them; deployments and past events keep theirs).
# The span source prefix ``"deid.recognizers."`` (a test's startswith) names recognizers.
NAMES_NOT_PATHS = ("deid.corpus.pushed", "deid.corpus.*", "deid.corpus.{", '"deid.recognizers."')

# Text files whose references are rewritten: tracked files outside these prefixes.
SKIP_PREFIXES = ("data/", "reports/", "tools/relayout.py", "dvc.lock", "gx/uncommitted/")
ALSO = ("data/README.md",)
BINARY = (".png", ".jpg", ".xz", ".gz", ".zip", ".pdf", ".docx", ".onnx", ".bin", ".pt")

# a dotted name followed by ``.<digit>`` is an id (``deid.corpus.<md5>.dir``), not a path
DOTTED = re.compile(r"(?<![\w./-])deid(?:\.[A-Za-z_][A-Za-z0-9_]*)++(?!\.\d)")
PY_NAMES = re.compile(
    r"^(?P<pind>[ \t]*)from (?P<pmod>deid(?:\.\w+)*) import \((?P<pbody>[^)]*)\)"
    r"|^(?P<find>[ \t]*)from (?P<fmod>deid(?:\.\w+)*) import (?P<fbody>[^(\n#]+?)"
    r"(?P<fcom>[ \t]*#.*)?$"
    r"|" + DOTTED.pattern,
    re.MULTILINE,
)
PATH = re.compile(r"(?<![\w.-])deid(?:/[A-Za-z0-9_.*-]+)+/?")
SEGMENTS = re.compile(r'"deid"(\)?)((?:\s*/\s*"[A-Za-z0-9_.-]+")+)')
FILE_EXPR = re.compile(
    r"Path\(__file__\)(\.resolve\(\))?"
    r"(?:\.parents\[(\d+)\]|(\.parent)|\.with_name\(\"([^\"]+)\"\))"
    r'((?:\s*/\s*"[A-Za-z0-9_.-]+")*)'
)


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def as_path(dotted: str) -> Path:
    return Path(*dotted.split("."))


class Plan:
    """The pending part of the mapping, as paths and dotted names, on the tree as it is."""

    def __init__(self) -> None:
        self.dotted: dict[str, str] = {}  # pending old module → new module
        self.paths: dict[tuple[str, ...], tuple[str, ...]] = {}  # path parts → path parts
        self.skipped: list[str] = []
        for old, new in MAPPING.items():
            op, np_ = as_path(old), as_path(new)
            if (ROOT / np_).exists() or (ROOT / np_.with_suffix(".py")).exists():
                self.skipped.append(f"{old}: done ({new} exists)")
                continue
            if (ROOT / op).is_dir():
                self.paths[op.parts] = np_.parts
            elif (ROOT / op.with_suffix(".py")).is_file():
                self.paths[op.with_suffix(".py").parts] = np_.with_suffix(".py").parts
                self.paths[op.parts] = np_.parts  # the dotted path without .py (rare in text)
            else:
                self.skipped.append(f"{old}: absent")
                continue
            self.dotted[old] = new
        self.modules = self._index()

    def _index(self) -> dict[str, set[str]]:
        """Every module of deid in the tree → the names it defines (submodules included)."""
        out: dict[str, set[str]] = {}
        for path in sorted((ROOT / PKG).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(rel[:-1] if rel[-1] == "__init__" else rel)
            out.setdefault(name, set()).update(_defined_names(path))
            if rel[-1] != "__init__" or len(rel) > 2:
                parent = ".".join(rel[:-1] if rel[-1] != "__init__" else rel[:-2])
                out.setdefault(parent, set()).add(rel[-1] if rel[-1] != "__init__" else rel[-2])
        for d in (ROOT / PKG).rglob("*"):  # data folders (resources) are names too
            if d.is_dir() and "__pycache__" not in d.parts:
                out.setdefault(".".join(d.relative_to(ROOT).parts), set())
        return out

    def map_path(self, parts: tuple[str, ...]) -> tuple[str, ...]:
        for n in range(len(parts), 0, -1):
            if parts[:n] in self.paths:
                return self.paths[parts[:n]] + parts[n:]
        return parts

    def map_dotted(self, name: str, kept: set[str]) -> str:
        parts = name.split(".")
        n = len(parts)
        while n > 1 and ".".join(parts[:n]) not in self.modules:
            n -= 1
        module = ".".join(parts[:n])
        rest = parts[n:]
        if n == 1:
            return name
        if rest and rest[0] not in self.modules[module]:
            if any(module == o or module.startswith(o + ".") for o in self.dotted):
                kept.add(name)
            return name
        for k in range(n, 1, -1):
            key = ".".join(parts[:k])
            if key in self.dotted:
                return ".".join([self.dotted[key], *parts[k:]])
        return name


def _defined_names(path: Path) -> set[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.If, ast.Try)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.FunctionDef, ast.ClassDef)):
                    names.add(sub.name)
                elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                    names.update((a.asname or a.name).split(".")[0] for a in sub.names)
                elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
    return names


# --- rewriting ------------------------------------------------------------------------


def rewrite_python_names(text: str, plan: Plan, kept: set[str]) -> str:
    """Dotted names and ``from deid[.pkg] import a, b`` statements, in one pass (so a new name
    is never mapped twice). An imported name that is itself a moved module (``from
    deid.placeholders import lexicon``) moves on its own: the statement is split per new
    package, and a renamed module keeps its local name through ``as``."""

    def names_of(body: str) -> list[tuple[str, str]]:
        out = []
        for item in body.replace("\n", " ").split(","):
            item = item.strip()
            if item:
                name, _, alias = item.partition(" as ")
                out.append((name.strip(), alias.strip()))
        return out

    def from_stmt(indent: str, module: str, names: list[tuple[str, str]], comment: str,
                  original: str) -> str:
        groups: dict[str, list[str]] = {}
        for name, alias in names:
            full = f"{module}.{name}"
            if full in plan.modules:
                new = plan.map_dotted(full, kept)
                parent, _, leaf = new.rpartition(".")
            else:
                parent, leaf = plan.map_dotted(module, kept), name
            local = alias or name
            groups.setdefault(parent, []).append(leaf if leaf == local else f"{leaf} as {local}")
        if len(groups) == 1 and all(
            (alias or name) == name for name, alias in names
        ) and next(iter(groups.values())) == [n for n, _ in names]:
            # the same names from one package: keep the statement's own layout
            return original.replace(module, next(iter(groups)), 1)
        lines = [f"{indent}from {p} import {', '.join(v)}" for p, v in groups.items()]
        lines[0] += comment
        return "\n".join(lines)

    def repl(m: re.Match[str]) -> str:
        if m.group("pmod"):
            return from_stmt(m.group("pind"), m.group("pmod"), names_of(m.group("pbody")),
                             "", m.group(0))
        if m.group("fmod"):
            return from_stmt(m.group("find"), m.group("fmod"), names_of(m.group("fbody")),
                             m.group("fcom") or "", m.group(0))
        return plan.map_dotted(m.group(0), kept)

    return PY_NAMES.sub(repl, text)


def rewrite_paths(text: str, plan: Plan) -> str:
    def repl(m: re.Match[str]) -> str:
        token = m.group(0)
        trail = ""
        while token.endswith((".", "/")) and not token.endswith(".py"):
            trail = token[-1] + trail
            token = token[:-1]
        new = "/".join(plan.map_path(tuple(token.split("/"))))
        return new + trail

    return PATH.sub(repl, text)


def rewrite_segments(text: str, plan: Plan) -> str:
    def repl(m: re.Match[str]) -> str:
        segs = re.findall(r'"([^"]+)"', m.group(2))
        new = plan.map_path(("deid", *segs))
        if new == ("deid", *segs):
            return m.group(0)
        return '"deid"' + m.group(1) + "".join(f' / "{s}"' for s in new[1:])

    return SEGMENTS.sub(repl, text)


def rewrite_file_exprs(text: str, old: Path, new: Path, plan: Plan) -> str:
    """``Path(__file__)`` expressions of a file that moves from ``old`` to ``new`` (paths
    relative to the root), so they keep naming the same (possibly moved) thing."""

    def repl(m: re.Match[str]) -> str:
        resolve, k, _parent, with_name, tail = m.groups()
        segs = re.findall(r'"([^"]+)"', tail or "")
        if with_name is not None:
            base, segs = old.parent.parts, [with_name, *segs]
        else:
            base = old.parents[int(k) if k is not None else 0].parts
        target = plan.map_path(tuple(base) + tuple(segs))
        ancestors = [p.parts for p in new.parents]
        k_new = next(i for i, a in enumerate(ancestors) if target[: len(a)] == a)
        rest = target[len(ancestors[k_new]):]
        if with_name is not None and k_new == 0 and rest and (new.parent / rest[0]) != new:
            expr = f'Path(__file__){resolve or ""}.with_name("{rest[0]}")'
            rest = rest[1:]
        elif k_new == 0:
            expr = f'Path(__file__){resolve or ""}.parent'
        else:
            expr = f"Path(__file__).resolve().parents[{k_new}]"
        out = expr + "".join(f' / "{s}"' for s in rest)
        if (out.replace(" ", "") == m.group(0).replace(" ", "")) or (
            old == new and plan.map_path(tuple(base) + tuple(segs)) == tuple(base) + tuple(segs)
        ):
            return m.group(0)
        return out

    return FILE_EXPR.sub(repl, text)


def rewrite_pyproject(text: str, plan: Plan) -> str:
    def repl(m: re.Match[str]) -> str:
        globs = re.findall(r'"([^"]+)"', m.group(1))
        new = ["/".join(plan.map_path(("deid", *g.split("/")))[1:]) for g in globs]
        return "deid = [" + ", ".join(f'"{g}"' for g in new) + "]"

    return re.sub(r"^deid = \[([^\]]*)\]", repl, text, flags=re.MULTILINE)


def add_room_inits(text: str, rooms: list[str]) -> str:
    """In dvc.yaml: a stage whose deps reach into a room gets ``<room>/__init__.py``; a deid
    dep that now lies inside another dep folder of the same stage is dropped."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        if re.match(r"^\s+deps:\s*$", line):
            indent = len(line) - len(line.lstrip())
            block = []
            i += 1
            while i < len(lines) and re.match(r"^\s+- ", lines[i]) and (
                len(lines[i]) - len(lines[i].lstrip()) > indent
            ):
                block.append(lines[i])
                i += 1
            deps = [b.strip()[2:].strip() for b in block]
            # a deid path now inside another dep folder of the stage is that folder's part
            # (deid/resources → deid/words/resources, and deid/words is listed)
            covered = {d for d in deps if d.startswith("deid/") and any(
                d.startswith(e + "/") for e in deps if e.startswith("deid/"))}
            block = [b for b, d in zip(block, deps) if d not in covered]
            deps = [d for d in deps if d not in covered]
            result = []
            added: set[str] = set()
            for b, d in zip(block, deps):
                for room in rooms:
                    init = f"{room}/__init__.py"
                    if d.startswith(room + "/") and d != init and room not in deps and (
                        init not in deps and init not in added
                    ):
                        result.append(b.replace(d, init))
                        added.add(init)
                result.append(b)
            out.extend(result)
            continue
        i += 1
    return "\n".join(out)


def text_files() -> list[Path]:
    files = []
    for rel in git("ls-files").splitlines():
        if rel.startswith(SKIP_PREFIXES) and rel not in ALSO:
            continue
        if rel.endswith(BINARY) or not (ROOT / rel).is_file():
            continue
        files.append(Path(rel))
    return files


# --- checks and moves -----------------------------------------------------------------


def unmapped_entries() -> list[str]:
    known = set(KEEP) | {r.split(".")[1] for r in ROOMS}
    for old in MAPPING:
        top = old.split(".")[1]
        known |= {top, top + ".py"}
    out = []
    for entry in sorted((ROOT / PKG).iterdir()):
        if entry.name == "__pycache__" or entry.name.startswith("."):
            continue
        if entry.name not in known:
            out.append(f"deid/{entry.name}")
    return out


def moves(plan: Plan) -> list[tuple[Path, Path]]:
    out = []
    for rel in git("ls-files", PKG).splitlines():
        parts = Path(rel).parts
        new = plan.map_path(parts)
        if new != parts:
            out.append((Path(rel), Path(*new)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--allow-unmapped", action="store_true")
    args = ap.parse_args(argv)

    unmapped = unmapped_entries()
    if unmapped and not args.allow_unmapped:
        print("relayout: top-level entries of deid/ the mapping does not know (add them to "
              "MAPPING or KEEP in tools/relayout.py, or pass --allow-unmapped):", file=sys.stderr)
        for u in unmapped:
            print(f"  {u}", file=sys.stderr)
        return 2
    plan = Plan()
    for s in plan.skipped:
        print(f"skip  {s}")
    if not plan.dotted:
        print("relayout: nothing to move (already laid out)")
        return 0
    if git("status", "--porcelain", "--untracked-files=no").strip() and not args.dry_run:
        print("relayout: the work tree has uncommitted changes; commit or stash them first",
              file=sys.stderr)
        return 2
    todo = moves(plan)
    for old, new in sorted(plan.dotted.items()):
        print(f"map   {old} → {new}")
    if args.dry_run:
        for a, b in todo:
            print(f"mv    {a} → {b}")
        return 0

    rooms_created = [r for r in ROOMS if not (ROOT / as_path(r) / "__init__.py").exists()
                     or any(o == r for o in plan.dotted)]
    room_paths = sorted({"/".join(as_path(r).parts) for r in rooms_created}, key=len,
                        reverse=True)
    moved = dict(todo)
    kept: set[str] = set()
    changed = 0
    changed_py: list[Path] = []
    for rel in text_files():
        path = ROOT / rel
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new_text = text
        for i, name in enumerate(NAMES_NOT_PATHS):
            new_text = new_text.replace(name, f"\x00{i}\x00")
        if rel.suffix == ".py":
            new_text = rewrite_file_exprs(new_text, rel, moved.get(rel, rel), plan)
            new_text = rewrite_segments(new_text, plan)
            new_text = rewrite_python_names(new_text, plan, kept)
        else:
            new_text = DOTTED.sub(lambda m: plan.map_dotted(m.group(0), kept), new_text)
        new_text = rewrite_paths(new_text, plan)
        if rel.name == "pyproject.toml":
            new_text = rewrite_pyproject(new_text, plan)
        if rel.name == "dvc.yaml":
            new_text = add_room_inits(new_text, room_paths)
        for i, name in enumerate(NAMES_NOT_PATHS):
            new_text = new_text.replace(f"\x00{i}\x00", name)
        if new_text != text:
            path.write_text(new_text, encoding="utf-8")
            changed += 1
            if rel.suffix == ".py":
                changed_py.append(rel)
    print(f"rewrote references in {changed} files")
    for name in sorted(kept):
        print(f"kept  {name} (a registered name, not a module path)")

    # move file by file: a package may move into a room of its own name
    for old, new in todo:
        (ROOT / new).parent.mkdir(parents=True, exist_ok=True)
        git("mv", str(old), str(new))
    # every room and every new folder on the way to a moved module is a package
    for _, new in todo:
        if new.suffix != ".py":
            continue
        for parent in list(new.parents)[:-1]:
            init = ROOT / parent / "__init__.py"
            dotted = ".".join(parent.parts)
            if dotted in ROOMS and not init.exists():
                doc = textwrap.fill(ROOMS[dotted], 96, initial_indent='"""',
                                    subsequent_indent="")
                init.write_text(doc + '"""\n', encoding="utf-8")
                git("add", str(init.relative_to(ROOT)))
    # emptied folders (only caches left) go
    for old, _ in todo:
        for parent in old.parents:
            d = ROOT / parent
            if parent == Path(PKG) or parent == Path("."):
                break
            if d.is_dir() and not git("ls-files", str(parent)).strip():
                leftovers = [p for p in d.rglob("*") if p.is_file()
                             and "__pycache__" not in p.parts]
                if leftovers:
                    print(f"warn  {parent} keeps untracked files: {leftovers[:3]}")
                    continue
                shutil.rmtree(d)
    # rewritten imports may sort differently now (ruff's I001, with the project's settings)
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if Path(ruff).exists():
        paths = [str(moved.get(r, r)) for r in changed_py]
        subprocess.run([ruff, "check", "--select", "I001", "--fix", "--quiet", *paths],
                       check=False, cwd=ROOT)
        git("add", "-u", *paths)
    else:
        print("warn  ruff not found: imports were not re-sorted (ruff check --select I --fix)")
    print(f"moved {len(todo)} files; top level of deid/ now: "
          f"{sorted(e.name for e in (ROOT / PKG).iterdir() if e.name != '__pycache__')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
