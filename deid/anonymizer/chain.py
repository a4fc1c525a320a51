"""The analyzer's post-processing as a chain of registered components (after spaCy's
factories and Presidio's recognizer registry).

A component is a registered name with an integer version, a frozen config dataclass that
holds its defaults, and a factory that turns a config into a step ``(text, spans, context)
→ spans``. A pipeline's chain is an ordered list of ``(name, version, config overrides)``
(:class:`StepConfig`); ``params.yaml`` lists it, ``pipeline.json`` records it, and an
ablation edits it. The version is what a gate evaluated: when a component's behaviour (or
one of its defaults) changes, its version goes up, and a saved pipeline that recorded the
old version no longer loads (:class:`ChainMismatch`) unless the old version stays
registered beside the new one.

The components themselves live in :mod:`deid.anonymizer.components`; this module only knows how to
register, configure, check and run them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

from deid.anonymizer.budget import Deadline
from deid.schema import Span
from deid.sources.errors import UserError
from deid.sources.params import check_keys, field_names


class ChainMismatch(UserError, ValueError):
    """A saved chain names a component or version this code does not have: the pipeline was
    evaluated (gated) on other rule code, so running it here would run an unevaluated chain."""


@dataclass
class ChainContext:
    """What one document's steps share besides the spans: the keep zones (found by the
    ``keep_zones`` step, read by later filters and consistency) and the spans as they
    entered the first filter, whose neighbours the filters judge (dropping spans one filter
    at a time must not detach a name's parts from each other)."""

    zones: list[Span] = field(default_factory=list)
    candidates: tuple[Span, ...] = ()
    attached: frozenset[tuple[int, int]] | None = None  # cache of the filters (deid.anonymizer.components)
    # the anonymization profile of the chain's policy step (None: the chain has none), for the
    # filters whose doubt a profile settles (plain_compounds@2, frequent_words@1)
    profile: str | None = None


Step = Callable[[str, list[Span], ChainContext], list[Span]]


@dataclass(frozen=True)
class Component:
    """One registered version of a post-processing step."""

    name: str
    version: int
    config: type  # a frozen dataclass whose defaults are part of this version
    factory: Callable[[Any], Step]  # config instance → step, built once per pipeline
    filter: bool = False  # judges spans on their neighbours (ChainContext.attached)
    description: str = ""
    # runs once over all texts of a call before the per-document steps (the model, batched
    # across documents: deid.anonymizer.pipeline.Pipeline.model_spans), so it comes first in a
    # chain and the per-document run skips it; its name, version and config are recorded and
    # checked like every other step's
    batched: bool = False


_REGISTRY: dict[str, dict[int, Component]] = {}


def register(
    name: str, version: int, config: type, *, filter: bool = False, batched: bool = False, description: str = ""
) -> Callable[[Callable[[Any], Step]], Callable[[Any], Step]]:
    """Decorator: register ``factory`` as ``name`` version ``version``."""
    if not (is_dataclass(config) and config.__dataclass_params__.frozen):  # type: ignore[attr-defined]
        raise TypeError(f"component {name}: its config must be a frozen dataclass")

    def decorate(factory: Callable[[Any], Step]) -> Callable[[Any], Step]:
        versions = _REGISTRY.setdefault(name, {})
        if version in versions:
            raise ValueError(f"component {name} version {version} is registered twice")
        versions[version] = Component(name, version, config, factory, filter, description, batched)
        return factory

    return decorate


def registry() -> dict[str, dict[int, Component]]:
    """Every registered component by name and version. ``deid.anonymizer.components``
    registers them when it is imported (``deid.anonymizer.pipeline`` imports it: every
    construction path does); this module never imports it, so the registry depends on
    nothing it holds."""
    if not _REGISTRY:
        raise RuntimeError("no chain components registered: import deid.anonymizer.components first")
    return _REGISTRY


def installed_version(name: str) -> int:
    """The newest registered version of ``name`` (what a new chain entry gets)."""
    return max(_known(name))


def component(name: str, version: int | None = None) -> Component:
    """The registered component ``name`` at ``version`` (default: the newest); a version this
    code does not have raises :class:`ChainMismatch` naming both versions."""
    versions = _known(name)
    if version is None:
        return versions[max(versions)]
    if version not in versions:
        have = ", ".join(str(v) for v in sorted(versions))
        raise ChainMismatch(
            f"the pipeline was evaluated with chain component '{name}' version {version}, "
            f"but this code has version {have}: re-run the gate on it (deid evaluate-model) "
            "and save it again, or run it with the code it was registered with"
        )
    return versions[version]


def _known(name: str) -> dict[int, Component]:
    components = registry()
    try:
        check_keys("", {name: None}, components, where=WHERE)
    except ValueError as exc:
        raise ChainMismatch(f"{exc}; known components: {sorted(components)}") from None
    return components[name]


WHERE = "analyzer chain"  # what check_keys names as the source of a chain's keys


# --- one entry of a chain ------------------------------------------------------------------


@dataclass(frozen=True)
class StepConfig:
    """One chain entry: a component name, its version and its config (defaults plus the
    overrides that were given)."""

    name: str
    version: int
    config: Any

    def overrides(self) -> dict[str, Any]:
        """The config fields that differ from the component's defaults (JSON-ready)."""
        defaults = type(self.config)()
        return {
            f.name: _plain(getattr(self.config, f.name))
            for f in fields(self.config)
            if getattr(self.config, f.name) != getattr(defaults, f.name)
        }

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "config": self.overrides()}

    def with_overrides(self, **overrides: Any) -> StepConfig:
        return replace(self, config=_config(self.name, type(self.config), overrides, self.config))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _config(name: str, cls: type, overrides: Mapping[str, Any], base: Any = None) -> Any:
    """``cls`` with ``overrides`` on ``base`` (default: the defaults); an unknown key raises
    naming the closest valid one (never a value: values may be sensitive)."""
    check_keys(name, overrides, field_names(cls), where=WHERE)
    base = base if base is not None else cls()
    values = {k: tuple(v) if isinstance(getattr(base, k), tuple) and isinstance(v, list) else v
              for k, v in overrides.items()}  # fmt: skip
    return replace(base, **values)


def step(name: str, version: int | None = None, **overrides: Any) -> StepConfig:
    """A chain entry for ``name`` (default: its newest version) with ``overrides``."""
    found = component(name, version)
    return StepConfig(name, found.version, _config(name, found.config, overrides))


def parse_chain(entries: Iterable[Any]) -> tuple[StepConfig, ...]:
    """A chain from ``params.yaml`` or ``pipeline.json``. An entry is a name (``keep_zones``),
    a one-key mapping of a name to its overrides (``{keep_labels: {labels: [MONEY]}}``), or
    a recorded entry ``{name, version, config}``. A version given must be registered."""
    if isinstance(entries, (str, bytes, Mapping)) or not isinstance(entries, Iterable):
        raise TypeError("the chain must be a list of components")
    chain: list[StepConfig] = []
    for entry in entries:
        if isinstance(entry, str):
            chain.append(step(entry))
        elif isinstance(entry, Mapping) and "name" in entry:
            extra = sorted(set(map(str, entry)) - {"name", "version", "config"})
            if extra:
                raise ValueError(f"chain entry '{entry['name']}': unknown keys {extra}")
            version = entry.get("version")
            if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
                raise TypeError(f"chain entry '{entry['name']}': version must be an integer")
            chain.append(step(str(entry["name"]), version, **_mapping(entry.get("config"), entry["name"])))
        elif isinstance(entry, Mapping) and len(entry) == 1:
            ((name, overrides),) = entry.items()
            chain.append(step(str(name), **_mapping(overrides, name)))
        else:
            raise TypeError("a chain entry is a component name or {name: {overrides}}")
    names = [s.name for s in chain]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"chain components listed twice: {twice}")
    late = [s.name for s in chain[1:] if component(s.name, s.version).batched]
    if late:
        raise ValueError(f"chain component '{late[0]}' runs over all texts before the others: list it first")
    return tuple(chain)


def _mapping(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"chain entry '{name}': its config must be a mapping")
    return dict(value)


def chain_to_list(chain: Sequence[StepConfig]) -> list[dict[str, Any]]:
    return [s.to_dict() for s in chain]


def chain_signature(chain: Sequence[StepConfig]) -> str:
    """``name@version`` of each step in order, comma-separated: what a registered model
    version records (no config values)."""
    return ",".join(f"{s.name}@{s.version}" for s in chain)


# --- running a chain -----------------------------------------------------------------------


class Chain:
    """The steps of a chain, built once per pipeline (a recognizer set, a compiled
    pattern), run per document in order with the time budget checked after each."""

    def __init__(self, chain: Sequence[StepConfig]) -> None:
        self.config = tuple(chain)
        self.profile = next((getattr(e.config, "profile", None) for e in self.config if e.name == "policy"), None)
        self.steps: list[tuple[str, bool, Step]] = []
        for entry in self.config:
            found = component(entry.name, entry.version)
            if not found.batched:  # a batched step ran before (Component.batched)
                self.steps.append((entry.name, found.filter, found.factory(entry.config)))

    def __call__(self, text: str, spans: list[Span], deadline: Deadline | None = None) -> list[Span]:
        deadline = deadline or Deadline(0)
        context = ChainContext(profile=self.profile)
        filtering = False
        for name, is_filter, run in self.steps:
            if is_filter and not filtering:  # the neighbours every filter judges by
                filtering = True
                context.candidates = tuple(spans)
            spans = run(text, spans, context)
            deadline.check(f"the {name}")
        return spans

