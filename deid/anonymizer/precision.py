"""Numeric precision by hardware: bf16 where the processor has matrix units for it, fp32 else.

Training and inference share this choice, so the precision a model was validated and gated
with is the one production uses on the same kind of machine. On a CPU, bf16 runs on Intel's
AMX tiles or the AVX512-BF16 instructions through oneDNN, under ``torch.autocast``: weights
and master copies stay fp32, the matrix products run in bf16 (2-3x fp32 on these machines,
bench/training_step.py and bench/throughput.py), and LayerNorm and softmax stay fp32. A CPU
without either unit runs fp32: emulated bf16 is slower than fp32 there. GPUs keep what they
had: bf16 where supported, else fp16 (training) or fp32.

The choice is detected at run time and recorded (MLflow run, ``pipeline.json``'s training
report, every anonymized record's lineage), never assumed.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import Path

import torch

PRECISIONS = ("auto", "fp32", "bf16", "fp16")
AMP_DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}


@functools.cache
def cpu_matrix_units() -> str | None:
    """The CPU's bf16 matrix units: ``amx_bf16`` (AMX tiles), ``avx512_bf16``, or None.

    torch's own CPU capability probe first (what its kernels dispatch on); the flags of
    ``/proc/cpuinfo`` where torch lacks the probe."""
    probe = getattr(torch, "cpu", None)
    amx = getattr(probe, "_is_amx_tile_supported", None)
    avx = getattr(probe, "_is_avx512_bf16_supported", None)
    if amx is not None and avx is not None:  # also checks that the OS enabled the tiles
        return "amx_bf16" if amx() else "avx512_bf16" if avx() else None
    flags = _cpu_flags()
    return "amx_bf16" if "amx_bf16" in flags else "avx512_bf16" if "avx512_bf16" in flags else None


@functools.cache
def _cpu_flags() -> frozenset[str]:
    """The flags line of ``/proc/cpuinfo`` (empty where there is none: not Linux)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace").splitlines():
            if line.startswith("flags"):
                return frozenset(line.split(":", 1)[1].split())
    except OSError:
        pass
    return frozenset()


def choose_precision(requested: str, device: torch.device) -> str:
    """The precision that runs: ``requested`` unless it is ``auto``, which gives bf16 on a
    CPU with bf16 matrix units or a GPU that supports it, fp16 on an older GPU and fp32 on
    any other CPU. fp16 is a GPU precision only (the CPU has no fast fp16 path here)."""
    if requested not in PRECISIONS:
        raise ValueError(f"unknown precision {requested!r} ({' | '.join(PRECISIONS)})")
    if device.type == "cuda":
        if requested != "auto":
            return requested
        return "bf16" if torch.cuda.is_bf16_supported() else "fp16"
    if requested == "fp16":
        raise ValueError("precision fp16 needs a GPU: on a CPU use auto, bf16 or fp32")
    if requested != "auto":
        return requested
    return "bf16" if cpu_matrix_units() else "fp32"


@contextlib.contextmanager
def autocast(device: torch.device, precision: str) -> Iterator[None]:
    """Mixed precision for ``precision`` (a chosen one, never ``auto``); fp32 runs as it is."""
    dtype = AMP_DTYPES.get(precision)
    with torch.autocast(device.type, dtype=dtype, enabled=dtype is not None):
        yield


def describe(device: torch.device, precision: str) -> dict[str, str | None]:
    """What ran, for run records and lineage: device, precision and the CPU's matrix units."""
    return {
        "device": device.type,
        "precision": precision,
        "cpu_matrix_units": cpu_matrix_units() if device.type == "cpu" else None,
    }
