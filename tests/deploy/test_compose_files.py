"""The container files stay consistent with each other (cheap text checks; the real stack is
exercised by ``make compose-smoke``, which is too slow for ``make test``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
COMPOSE = (ROOT / "docker-compose.yml").read_text()


def test_compose_targets_exist_in_the_dockerfile() -> None:
    stages = set(re.findall(r"^FROM \S+ AS (\S+)$", DOCKERFILE, re.M))
    targets = set(re.findall(r"target: ([\w-]+)", COMPOSE))
    assert targets == {"web", "worker-gpu", "worker-cpu"}
    assert targets <= stages


def test_base_images_are_build_args_passed_by_compose() -> None:
    for arg in ("WEB_BASE", "CPU_BASE", "NODE_BASE", "GPU_BASE"):
        assert re.search(rf"^ARG {arg}=\S+", DOCKERFILE, re.M), arg
        assert f"{arg}: ${{{arg}:-" in COMPOSE, arg


def test_secrets_are_required_and_images_overridable() -> None:
    assert "${SECRET_KEY:?" in COMPOSE and "${POSTGRES_PASSWORD:?" in COMPOSE
    assert "${REDIS_IMAGE:-redis:7}" in COMPOSE and "${POSTGRES_IMAGE:-postgres:16}" in COMPOSE


def test_every_role_has_a_healthcheck_and_roles_run_unprivileged() -> None:
    # Three Python images with HEALTHCHECK and USER; redis and postgres have compose checks.
    assert DOCKERFILE.count("HEALTHCHECK ") == 3
    assert DOCKERFILE.count("USER kerneldojo") == 3
    assert COMPOSE.count("healthcheck:") == 2
    assert COMPOSE.count("condition: service_healthy") == 4


def test_only_the_web_port_is_published_on_loopback_by_default() -> None:
    ports = re.findall(r'^\s+- "(.+)"$', COMPOSE, re.M)
    assert ports == ["${WEB_ADDRESS:-127.0.0.1}:${WEB_PORT:-8000}:8000"]
    assert "6379:" not in COMPOSE and "5432:" not in COMPOSE


def test_files_the_images_copy_exist() -> None:
    for rel in re.findall(r"^COPY (?!--from)(\S+)", DOCKERFILE, re.M):
        assert (ROOT / rel).exists(), rel


def test_the_gpu_workers_cache_is_a_volume_the_image_points_at() -> None:
    # The Triton cache the runners read, the ceilings and the baselines survive a restart.
    path = re.search(r"^ENV KERNELDOJO_CACHE=(\S+)$", DOCKERFILE, re.M)
    assert path is not None
    assert f"install -d -o kerneldojo -g kerneldojo {path.group(1)}" in DOCKERFILE
    assert f"- judgecache:{path.group(1)}" in COMPOSE
    assert re.search(r"^volumes:\n(?:  \w+:\n)*  judgecache:", COMPOSE, re.M)


def test_profile_reports_are_a_volume_the_workers_write_and_the_web_app_reads() -> None:
    # A worker keeps each Nsight Compute report in DATA_DIR/profiles (worker/tasks.py); the web
    # app serves it from its own DATA_DIR/profiles, so both mount one volume there.
    data_dirs = set(re.findall(r"^ENV DATA_DIR=(\S+)$", DOCKERFILE, re.M))
    assert DOCKERFILE.count("ENV DATA_DIR=") == 3 and len(data_dirs) == 1
    folder = f"{data_dirs.pop()}/profiles"
    # Created in each image, owned by the unprivileged user, so the empty volume inherits that.
    assert (
        len(re.findall(rf"install -d -o kerneldojo -g kerneldojo [^\n]*{folder}\n", DOCKERFILE))
        == 3
    )
    mounts = re.findall(rf"^( +)- profiles:{folder}(:ro)?$", COMPOSE, re.M)
    # The worker anchor (every worker), the GPU worker's own list, and the web app read-only.
    assert sorted(mounts) == [("    ", ""), ("      ", ""), ("      ", ":ro")]
    assert re.search(r"^volumes:\n(?:  \w+:\n)*  profiles:", COMPOSE, re.M)


def test_postgres_stops_fast_and_workers_get_a_grace_period() -> None:
    assert "STOPSIGNAL SIGINT" in (ROOT / "docker" / "postgres.Dockerfile").read_text()
    assert "stop_signal: SIGINT" in COMPOSE
    assert re.search(r"^x-worker: &worker\n(?:  .*\n)*  stop_grace_period: \d+s$", COMPOSE, re.M)


def test_the_gpu_image_takes_one_pinned_set_with_nvcc_matching_its_parts() -> None:
    assert "COPY requirements/worker-gpu.txt" in DOCKERFILE
    pins = dict(
        re.findall(r"^([\w-]+)==(\S+)$", (ROOT / "requirements/worker-gpu.txt").read_text(), re.M)
    )
    assert {"torch", "triton", "numpy", "nvidia-cuda-nvcc"} <= set(pins)
    # nvcc leaves these unpinned; a newer nvvm or crt than nvcc breaks it.
    assert pins["nvidia-nvvm"] == pins["nvidia-cuda-crt"] == pins["nvidia-cuda-nvcc"]
