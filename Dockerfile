# KernelDojo images, one file, four targets (docker-compose.yml picks them):
#   web         FastAPI app, no torch, no CUDA                   (non-root)
#   worker-cpu  Celery worker checking correctness on the CPU, no timing (compose profile `cpu`)
#   worker-gpu  Celery worker with CUDA torch, Triton, nvcc (all from PyPI), bubblewrap
#   static      (internal) the browser bundle built with npm + esbuild
#
# Base images are build ARGs, so the same file builds from a locally made base where no
# registry is reachable (scripts/compose_smoke.py uses a debootstrapped Debian bookworm).
# Wheels in docker/wheels/ are preferred to PyPI (docker/wheels/README.md); they are bind-mounted
# for the install (RUN --mount, BuildKit or Buildah), so they never end up in a layer.
ARG WEB_BASE=python:3.11-slim-bookworm
ARG CPU_BASE=python:3.11-slim-bookworm
ARG NODE_BASE=node:20-bookworm-slim
# The GPU worker needs no CUDA base: nvcc comes from PyPI (see the worker-gpu stage).
ARG GPU_BASE=python:3.11-slim-bookworm

# ---------------------------------------------------------------------------------------------
FROM ${NODE_BASE} AS static
# A plain Debian base has no node: take Debian's (node 18 runs esbuild fine).
RUN command -v npm >/dev/null || (apt-get -o Acquire::Retries=5 update \
    && apt-get -o Acquire::Retries=5 install -y --no-install-recommends nodejs npm \
    && rm -rf /var/lib/apt/lists/*)
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY scripts/build-static.mjs scripts/
COPY app/static app/static
RUN node scripts/build-static.mjs

# ---------------------------------------------------------------------------------------------
# The source tree every Python image runs from (editable install: the judge mounts judge/
# into its sandbox from where it lies, the app finds app/templates/ and alembic.ini beside it).
# Three rooms: judge/ (the judge core), app/ (the web), worker/ (the Celery task, the CLI root).
FROM ${WEB_BASE} AS source
WORKDIR /app
COPY pyproject.toml README.md alembic.ini ./
COPY judge judge
COPY app app
COPY worker worker
COPY docker/web-start.sh docker/
COPY --from=static /src/app/static/dist app/static/dist

# ---------------------------------------------------------------------------------------------
FROM ${WEB_BASE} AS web
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/venv/bin:$PATH \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 \
    KERNELDOJO_PROBLEMS=/app/problems PROBLEMS_DIR=/app/problems
RUN python3 -m venv /opt/venv && useradd --create-home --uid 1000 kerneldojo \
    && install -d -o kerneldojo -g kerneldojo /var/lib/kerneldojo/profiles
# The data folder: the profile reports the workers keep (a volume shared with them).
ENV DATA_DIR=/var/lib/kerneldojo
COPY --from=source /app /app
RUN --mount=type=bind,source=docker/wheels,target=/tmp/wheels \
    pip install --find-links /tmp/wheels -e '/app[web]'
WORKDIR /app
USER kerneldojo
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
    CMD python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/api/v1/problems', timeout=4)" || exit 1
CMD ["sh", "docker/web-start.sh"]

# ---------------------------------------------------------------------------------------------
FROM ${CPU_BASE} AS worker-cpu
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/venv/bin:$PATH \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 \
    KERNELDOJO_PROBLEMS=/app/problems PROBLEMS_DIR=/app/problems \
    KERNELDOJO_GPU_KIND=cpu TRITON_INTERPRET=1
RUN apt-get -o Acquire::Retries=5 update && apt-get -o Acquire::Retries=5 install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /opt/venv && useradd --create-home --uid 1000 kerneldojo \
    && install -d -o kerneldojo -g kerneldojo /var/lib/kerneldojo/profiles
# The data folder: profile reports are kept in its profiles/, a volume the web app reads.
ENV DATA_DIR=/var/lib/kerneldojo
COPY requirements/torch-cpu.txt /tmp/torch-cpu.txt
COPY --from=source /app /app
# torch first, from requirements/torch-cpu.txt (the CPU build: a local +cpu wheel, else PyPI).
RUN --mount=type=bind,source=docker/wheels,target=/tmp/wheels \
    pip install --find-links /tmp/wheels -r /tmp/torch-cpu.txt \
    && pip install --find-links /tmp/wheels -e '/app[judge,web]'
WORKDIR /app
# The judge's sandbox (bubblewrap) needs user namespaces: see security_opt in docker-compose.yml.
USER kerneldojo
HEALTHCHECK --interval=15s --timeout=20s --start-period=60s --retries=4 \
    CMD celery -A app.queue inspect ping --timeout 10 -d "worker-${KERNELDOJO_GPU_KIND}@$(hostname)" || exit 1
CMD ["sh", "-c", "exec kerneldojo worker --queue \"$KERNELDOJO_GPU_KIND\""]

# ---------------------------------------------------------------------------------------------
# The CUDA toolchain comes from PyPI (requirements/worker-gpu.txt): torch's CUDA line and nvcc's
# are the same by construction, and any Debian/Ubuntu base with Python >= 3.11 will do, so the
# image builds where no registry is reachable. Optional: GPU_BASE=nvidia/cuda:13.0.x-devel-ubuntu24.04
# with CUDA_FROM=base uses that image's /usr/local/cuda instead (pick a CUDA 13 base: torch's).
FROM ${GPU_BASE} AS worker-gpu
ARG CUDA_FROM=pypi
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/opt/venv/bin:/usr/local/cuda/bin:$PATH \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 DEBIAN_FRONTEND=noninteractive \
    KERNELDOJO_PROBLEMS=/app/problems PROBLEMS_DIR=/app/problems \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
# python3-dev + gcc: Triton compiles its small C launcher at run time; g++: nvcc's host compiler.
RUN apt-get -o Acquire::Retries=5 update && apt-get -o Acquire::Retries=5 install -y --no-install-recommends \
        python3 python3-venv python3-dev gcc g++ libc6-dev bubblewrap ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /opt/venv \
    && (id -u 1000 >/dev/null 2>&1 && userdel --remove "$(id -nu 1000)" || true) \
    && useradd --create-home --uid 1000 kerneldojo \
    && install -d -o kerneldojo -g kerneldojo /var/cache/kerneldojo /var/lib/kerneldojo/profiles
# The judge's cache (the GPU's measured ceilings, torch baselines, the Triton cache its runners
# read: judge/build/tritoncache.py); docker-compose.yml keeps it in a volume across restarts.
ENV KERNELDOJO_CACHE=/var/cache/kerneldojo
# The data folder: Nsight Compute reports are kept in its profiles/, a volume the web app serves
# them from (docker-compose.yml).
ENV DATA_DIR=/var/lib/kerneldojo
# The big layer (torch + CUDA libraries, ~4 GB) before the source, so code changes reuse it.
# Straight from PyPI: docker/wheels may hold the CPU build of torch, which `==` would also match.
COPY requirements/worker-gpu.txt /tmp/worker-gpu.txt
RUN if [ "$CUDA_FROM" = base ]; then \
        sed -i -E '/^nvidia-(cuda-nvcc|nvvm|cuda-crt|cuda-cccl)==/d' /tmp/worker-gpu.txt; fi \
    && pip install -r /tmp/worker-gpu.txt
# The wheels' toolkit lives in site-packages/nvidia/cu13 (bin/nvcc, include/, lib/); nvcc.profile
# looks for libraries in lib64/, and the judge finds nvcc on the PATH (or /usr/local/cuda/bin).
RUN if [ "$CUDA_FROM" = pypi ]; then \
        cu="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/nvidia/cu13" \
        && ln -s lib "$cu/lib64" && ln -s "$cu" /usr/local/cuda; fi \
    && nvcc --version | tail -n 1
COPY --from=source /app /app
RUN --mount=type=bind,source=docker/wheels,target=/tmp/wheels \
    pip install --find-links /tmp/wheels -c /tmp/worker-gpu.txt -e '/app[judge,web]'
WORKDIR /app
USER kerneldojo
# KERNELDOJO_GPU_KIND is set per worker in docker-compose.yml (the queue's name, e.g. h100).
HEALTHCHECK --interval=15s --timeout=20s --start-period=120s --retries=4 \
    CMD celery -A app.queue inspect ping --timeout 10 -d "worker-${KERNELDOJO_GPU_KIND}@$(hostname)" || exit 1
CMD ["sh", "-c", "exec kerneldojo worker --queue \"$KERNELDOJO_GPU_KIND\""]
