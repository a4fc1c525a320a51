#!/usr/bin/env bash
# The deid local stack on loopback: SeaweedFS S3 (127.0.0.1:8333, buckets mlflow, dvc,
# deid-inbox, deid-outbox), an MLflow server (127.0.0.1:5000, sqlite in infra/.state,
# artifacts in s3://mlflow) and a Prefect server (127.0.0.1:4200, UI at /).
#
#   infra/local-stack.sh start     # start what is not running, wait until all answer
#   infra/local-stack.sh status    # pids and health (exit 1 if a service is down)
#   eval "$(infra/local-stack.sh env)"   # point flows, deid and DVC at the stack
#   infra/local-stack.sh stop
#
# State and logs: infra/.state/ (STATE=... to move it). The command lines live in
# infra/stack.py, which the integration tests use too.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
python="${PYTHON:-$root/.venv/bin/python}"
state="${STATE:-$here/.state}"
case "${1:-}" in
  start|stop|status|env)
    cd "$root"
    # exec: no shell stays around, and signals reach python (which resets them for the servers)
    exec "$python" -m infra.stack "$1" --state "$state" ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2 ;;
esac
