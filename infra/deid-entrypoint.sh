#!/bin/sh
# Entry point of the deid image (infra/deid.Dockerfile): make the S3 DVC remote of the cluster
# the default (config in infra/k8s/config.yaml; keys from the environment, never written),
# create the temporary folder (on the shared work volume where TMPDIR points there), then run
# the command: a Prefect flow run, a worker, a Dask scheduler or worker, the CLI.
set -eu
if [ -n "${DEID_DVC_S3_REMOTE:-}" ]; then
  deid data remote-s3 "$DEID_DVC_S3_REMOTE" ${AWS_ENDPOINT_URL_S3:+--endpointurl "$AWS_ENDPOINT_URL_S3"} >/dev/null
fi
mkdir -p "${TMPDIR:-/tmp}"
exec "$@"
