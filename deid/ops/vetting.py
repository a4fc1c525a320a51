"""Who vouches for a model: keyed signatures over what the gate evaluated and decided.

Anyone who can write to the MLflow store can write metrics, tags and aliases, and an unkeyed
digest beside metrics is one line of Python to recompute. So what the product itself
computed is signed with a key that lives outside MLflow (a file, :func:`key_file`):

* an evaluation logged on a run (``deid.ops.mlflow_registry.log_evaluation``): its metrics,
  the sha256 of the documents it evaluated, the sha256 of the model directory it evaluated
  and which step ran it; the gate counts only evaluations whose signature verifies;
* a version's *vetting* (tags ``vetted.payload`` and ``vetted.signature``): the gate signs
  the version it promoted with the floors, gold-set hashes and metrics it decided on; a
  reviewer's ``promote --override-gate`` signs an override with who and why. Production
  (:func:`check_vetted`, called when ``models:/deid-ner@champion`` is loaded) refuses a
  champion whose vetting does not verify or whose downloaded files are not the ones vetted.

The key: the file named by ``$DEID_GATE_KEY_FILE``, else ``~/.config/deid/gate.key``; mode
600, created (32 random bytes, hex) by the first signature on a machine that has none. Every
machine that signs or loads the champion needs the same file (a Kubernetes secret mounted as
a file, say). Payloads hold ids, hashes, settings and metrics, never text.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from deid.sources.errors import UserError

logger = logging.getLogger(__name__)

KEY_FILE_ENV = "DEID_GATE_KEY_FILE"
DEFAULT_KEY_FILE = Path("~/.config/deid/gate.key")
PAYLOAD_TAG, SIGNATURE_TAG = "vetted.payload", "vetted.signature"
CONTENT_TAG = "model.sha256"  # a version's pipeline directory (tree_sha256), set when it is registered
GATE, OVERRIDE = "gate", "override"


class GateKeyProblem(UserError):
    """The signing key is missing, empty or readable by others."""


class NotVetted(UserError):
    """A model that neither the gate nor a recorded override vouches for (or whose files
    changed since); the message says which and what to do."""


def key_file() -> Path:
    """Where the key is: ``$DEID_GATE_KEY_FILE``, else ``~/.config/deid/gate.key``."""
    return Path(os.environ.get(KEY_FILE_ENV) or DEFAULT_KEY_FILE).expanduser()


def load_key(*, create: bool = False) -> bytes:
    """The signing key. ``create``: write a new one when there is none (what the gate and
    the evaluations do on their first signature); a loader of the champion never creates
    one, so a machine without the key refuses instead of vouching for itself."""
    path = key_file()
    if not path.exists():
        if not create:
            raise GateKeyProblem(
                f"no gate key at {path}: copy the key the gate signed with there (or point "
                f"${KEY_FILE_ENV} at it)"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
        logger.warning("created a new gate key at %s (mode 600)", path)
    if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise GateKeyProblem(f"gate key {path} is readable by others: chmod 600 it")
    key = path.read_bytes().strip()
    if len(key) < 32:
        raise GateKeyProblem(f"gate key {path} is shorter than 32 bytes")
    return key


def canonical(payload: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: sorted keys, no spaces, floats as Python writes them."""
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign(payload: Mapping[str, Any], *, create: bool = True) -> str:
    """HMAC-SHA256 of ``payload`` under the key (hex)."""
    return hmac.new(load_key(create=create), canonical(payload), hashlib.sha256).hexdigest()


def verifies(payload: Mapping[str, Any], signature: str | None) -> bool:
    """Whether ``signature`` is the key's signature of ``payload`` (no key: raises)."""
    if not signature:
        return False
    expected = hmac.new(load_key(), canonical(payload), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


# --- evaluations ---------------------------------------------------------------------------


def evaluation_payload(run_id: str, gold_set: str, metrics: Mapping[str, float],
                       provenance: Mapping[str, Any]) -> dict[str, Any]:  # fmt: skip
    """What an evaluation's signature covers: the run, the set, its metrics and where they
    came from (``gold_sha256``, ``documents``, ``model_sha256``, ``source``)."""
    return {"run_id": run_id, "set": gold_set, "metrics": dict(sorted(metrics.items())),
            **{k: provenance.get(k) for k in PROVENANCE}}  # fmt: skip


PROVENANCE = ("gold_sha256", "documents", "model_sha256", "source")


# --- a version's vetting -------------------------------------------------------------------


def vet(client: Any, model_name: str, version: str, payload: Mapping[str, Any]) -> None:
    """Sign ``payload`` (kind, model, version, run …) and store it on the version."""
    text = canonical(payload).decode("utf-8")
    client.set_model_version_tag(model_name, version, PAYLOAD_TAG, text)
    client.set_model_version_tag(model_name, version, SIGNATURE_TAG, sign(payload))


def version_payload(kind: str, mv: Any, **fields: Any) -> dict[str, Any]:
    """The common part of a vetting: which model, version, run and content it vouches for."""
    tags = mv.tags or {}
    return {"kind": kind, "model": mv.name, "version": str(mv.version), "run_id": mv.run_id,
            "model_sha256": tags.get(CONTENT_TAG), **fields}  # fmt: skip


def vetting_of(mv: Any) -> dict[str, Any]:
    """The version's vetting if its signature verifies and it names this version; else
    raises :class:`NotVetted` saying why."""
    tags = mv.tags or {}
    text, signature = tags.get(PAYLOAD_TAG), tags.get(SIGNATURE_TAG)
    where = f"{mv.name} version {mv.version}"
    if not text or not signature:
        raise NotVetted(f"{where} carries no signed vetting: neither the gate nor a recorded "
                        "override made it champion (deid gate, or deid promote --override-gate --reason)")  # fmt: skip
    try:
        payload = json.loads(text)
    except json.JSONDecodeError:
        raise NotVetted(f"{where}: its vetting tag is not JSON (changed by hand)") from None
    try:
        ok = verifies(payload, signature)
    except GateKeyProblem as exc:
        raise NotVetted(f"{where}: cannot verify its vetting: {exc}") from None
    if not ok:
        raise NotVetted(f"{where}: its vetting signature does not verify (changed after signing, "
                        "or signed with another key)")  # fmt: skip
    named = (payload.get("model"), payload.get("version"), payload.get("run_id"))
    if named != (mv.name, str(mv.version), mv.run_id):
        raise NotVetted(f"{where}: its vetting was signed for {named[0]} version {named[1]}")
    return payload


def check_vetted(mv: Any, model_dir: str | Path) -> dict[str, Any]:
    """What production asks before it runs a champion: a vetting that verifies, for the
    files downloaded to ``model_dir``. Returns the lineage's account of it (kind, when, who
    for an override); raises :class:`NotVetted`."""
    from deid.sources.io import tree_sha256

    payload = vetting_of(mv)
    if payload.get("model_sha256") != tree_sha256(model_dir):
        raise NotVetted(f"{mv.name} version {mv.version}: the downloaded model is not the one "
                        "vetted (its files changed after the gate or the override)")  # fmt: skip
    return summary(payload)


def summary(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A vetting as lineages and artifacts show it: kind, when, and for an override who."""
    keep = ("kind", "at", "by") if payload.get("kind") == OVERRIDE else ("kind", "at")
    return {k: payload.get(k) for k in keep}
