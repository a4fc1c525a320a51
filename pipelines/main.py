"""``make main``: the README's main job. It orchestrates Prefect flows, so it lives in
``flows/main.py`` (``pipelines`` never imports ``flows``); this module only keeps the
Makefile's entry point ``python -m pipelines.main`` and runs that module as a script."""

from __future__ import annotations

import runpy

if __name__ == "__main__":
    runpy.run_module("flows.main", run_name="__main__", alter_sys=True)
