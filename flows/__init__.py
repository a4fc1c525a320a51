"""Prefect 3 flows: the orchestration layer over ``deid`` (and the ``pipelines`` stages).

Flows and tasks only pin inputs, call one ``deid`` function per step, time it and publish
what an operator needs (artifacts: counts, ids, hashes, metrics, links; never document text,
span surfaces or surrogates). ``python -m flows.<name> --help`` runs a flow from the shell;
``prefect.yaml`` deploys them to work pools.
"""
