# The deid image: flows, CLI, Prefect kubernetes worker, Dask scheduler and workers (infra/k8s).
# Build context: the repository root (.dockerignore keeps data, models and state out).
#
#   CPU image (flow runs of pool cpu, Dask, workers): the CPU wheel of torch 2.13.0 from
#   PyTorch's CPU wheel index, given as TORCH_INDEX_URL (no CUDA libraries, much smaller):
#     docker build -f infra/deid.Dockerfile --build-arg TORCH_INDEX_URL=<CPU wheel index> -t deid:0.1.0 .
#   GPU image (flow runs of pool gpu): without TORCH_INDEX_URL, the registry's torch 2.13.0,
#   whose Linux wheel brings its CUDA runtime as packages; the node needs only the NVIDIA
#   driver and device plugin:
#     docker build -f infra/deid.Dockerfile -t deid-gpu:0.1.0 .
#
# Neither image has been built on the build machines (no container engine there).
FROM python:3.11-slim

ARG TORCH_INDEX_URL=""
# git: the lineage records the commit of the code that ran (the checkout's .git is copied)
RUN apt-get update && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --gid 10001 deid \
    && useradd --uid 10001 --gid 10001 --create-home --home-dir /home/deid deid

WORKDIR /opt/deid
COPY --chown=10001:10001 . /opt/deid
# the project with the prefect-kubernetes extra; torch's pin is the one in pyproject.toml
RUN pip install --no-cache-dir ${TORCH_INDEX_URL:+--extra-index-url "$TORCH_INDEX_URL"} -e '.[k8s]' \
    && git config --system --add safe.directory /opt/deid \
    && chmod 0755 infra/deid-entrypoint.sh

# the manifests run the deid pods as this user (a test keeps them equal)
USER 10001:10001
ENV DEID_PROJECT_DIR=/opt/deid \
    HOME=/home/deid \
    PYTHONUNBUFFERED=1 \
    PREFECT_SERVER_ANALYTICS_ENABLED=false
ENTRYPOINT ["/opt/deid/infra/deid-entrypoint.sh"]
CMD ["deid", "--help"]
