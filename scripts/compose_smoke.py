#!/usr/bin/env python3
"""Smoke test of the real container stack (``make compose-smoke``): build, start, grade, restart.

Steps, each timed and recorded in the run's record, ``records/<UTC date>-<n>core-compose-smoke/``
(``README.md`` + ``compose-smoke.json``; the raw command output in ``compose-smoke.log``, not
committed):

1. base images: pull ``python:3.11-slim-bookworm``; where no registry answers, debootstrap a
   Debian bookworm base (needs root and ``debootstrap``; ``--extra-ca`` adds a proxy's CA
   certificates to it, opt-in) and build Redis and PostgreSQL from Debian's packages;
2. a wheelhouse in ``docker/wheels/`` from this host's pip configuration (torch CPU, Triton);
3. the compose file refuses to start without secrets, the app refuses the example secret;
4. build ``web`` and ``worker-cpu``; 5. ``up`` with the ``cpu`` profile and wait for health;
6. sign up, make a token, submit an accepted and a wrong Triton solution through /api/v1,
   check both verdicts, the leaderboard, and the admin made from the environment; then class
   mode (scripts/smoke_class.py): the admin creates a class and an assignment, a student signs
   up with its invite code and is enrolled, and the gradebook's CSV from the web equals the
   rows expected and ``kerneldojo class gradebook --csv`` run in the web container; the
   worker's PID 1 is an init (``init: true``) and no zombie process is left by the gradings;
7. restart Redis, then the worker, one at a time with a submission in flight, each verified by
   its container's start time; 8. SIGKILL the worker mid-grading: exactly one result;
9. the GPU image (``--no-gpu`` skips it): build ``worker-gpu`` (torch, Triton and nvcc from
   PyPI, requirements/worker-gpu.txt), start it without a GPU on the stack's network, and in
   it: ``problems check --device cpu`` (Triton, PyTorch and Numba samples as declared, every
   CUDA sample compiled by its nvcc and not_run), bubblewrap as the non-root user and no
   zombie left, Celery's ping, SIGTERM stop;
10. every service stops within its grace period (``down``), then ``down -v``.

Uses ``docker compose`` where it exists, else ``podman-compose`` (>= 1.1 for profiles; one is
installed into ``.venv-compose/`` when the system's is older). Standard library only; it runs
with the host's python3. Helpers: scripts/smoke_images.py, scripts/smoke_stack.py,
scripts/smoke_class.py.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import smoke_class
import smoke_images as images
import smoke_stack as stack

ROOT = Path(__file__).resolve().parents[1]
OUT = (
    ROOT
    / "records"
    / f"{datetime.now(UTC).date().isoformat()}-{os.cpu_count() or 1}core-compose-smoke"
)
PROJECT = "kerneldojo-smoke"


class StepFailed(RuntimeError):
    pass


class Recorder:
    """Each step: name, seconds, ok, detail; printed as it goes and written at the end."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.t0 = time.monotonic()
        self.log = open(OUT / "compose-smoke.log", "w", encoding="utf-8")  # noqa: SIM115

    def step(self, name: str, fn: Any, *a: Any) -> Any:
        print(f"--> {name}", flush=True)
        start = time.monotonic()
        try:
            detail = fn(*a)
            ok = True
        except Exception as e:
            detail, ok = f"{type(e).__name__}: {e}", False
        dt = time.monotonic() - start
        self.steps.append({"step": name, "seconds": round(dt, 1), "ok": ok, "detail": detail})
        print(f"    {'ok' if ok else 'FAILED'} in {dt:.1f}s: {detail}", flush=True)
        if not ok:
            raise StepFailed(name)
        return detail

    def sh(self, argv: list[str], *, check: bool = True, timeout: float = 3600, **kw: Any) -> str:
        self.log.write(f"\n$ {' '.join(argv)}\n")
        self.log.flush()
        r = subprocess.run(
            argv,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            **kw,
        )
        self.log.write(r.stdout)
        self.log.flush()
        if check and r.returncode != 0:
            raise RuntimeError(f"{argv[0]} {argv[1]} ... exited {r.returncode}: {r.stdout[-800:]}")
        return str(r.stdout)

    def write(self, meta: dict[str, Any]) -> None:
        total = round(time.monotonic() - self.t0, 1)
        data = {**meta, "total_seconds": total, "steps": self.steps}
        (OUT / "compose-smoke.json").write_text(json.dumps(data, indent=2) + "\n")
        ok = all(s["ok"] for s in self.steps)
        lines = [
            "# `make compose-smoke`: the container stack, end to end",
            "",
            f"Result: **{'passed' if ok else 'FAILED'}** in {total:.0f} s on {meta['when']}.",
            f"Engine: {meta['engine']}; compose: {meta['compose']}; base: {meta['base']}.",
            f"Host: {meta['host']}. Raw command output: `compose-smoke.log` (not committed).",
            "",
            "| # | step | seconds | ok | detail |",
            "|---|---|---:|---|---|",
        ]
        for i, s in enumerate(self.steps, 1):
            detail = str(s["detail"]).replace("|", "\\|").replace("\n", " ")
            lines.append(
                f"| {i} | {s['step']} | {s['seconds']} | {'yes' if s['ok'] else 'NO'} | {detail} |"
            )
        (OUT / "README.md").write_text("\n".join(lines) + "\n")


# --- engines and compose --------------------------------------------------------------------


def find_engine() -> str:
    for e in ("docker", "podman"):
        if shutil.which(e) and subprocess.run([e, "info"], capture_output=True).returncode == 0:
            return e
    sys.exit("no container engine answers (docker info / podman info)")


def find_compose(engine: str) -> list[str]:
    if os.environ.get("COMPOSE"):
        return os.environ["COMPOSE"].split()
    docker = ["docker", "compose", "version"]
    if engine == "docker" and subprocess.run(docker, capture_output=True).returncode == 0:
        return ["docker", "compose"]
    pc = shutil.which("podman-compose")
    if pc and _podman_compose_has_profiles(pc):
        return [pc]
    venv = ROOT / ".venv-compose"
    local = venv / "bin" / "podman-compose"
    if not local.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "podman-compose>=1.1"], check=True
        )
    return [str(local)]


def _podman_compose_has_profiles(pc: str) -> bool:
    r = subprocess.run([pc, "--help"], capture_output=True, text=True)
    return "--profile" in r.stdout


# --- steps ----------------------------------------------------------------------------------


def refuses_defaults(compose: list[str], env: dict[str, str]) -> str:
    no_secret = {k: v for k, v in env.items() if k != "SECRET_KEY"}
    r = subprocess.run(
        [*compose, "-p", PROJECT, "--profile", "cpu", "config"],
        cwd=ROOT,
        env=no_secret,
        capture_output=True,
        text=True,
    )
    if r.returncode == 0:
        raise RuntimeError("compose accepted a missing SECRET_KEY")
    return "compose refuses a missing SECRET_KEY"


def app_refuses_example_secret(engine: str, env: dict[str, str]) -> str:
    image = env.get("WEB_IMAGE", "kerneldojo-web:latest")
    check = "from app.core.config import get_settings; get_settings()"
    r = subprocess.run(
        [
            engine,
            "run",
            "--rm",
            "-e",
            "ENVIRONMENT=production",
            "-e",
            "SECRET_KEY=change-me-in-production",
            image,
            "python3",
            "-c",
            check,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if r.returncode == 0 or "SECRET_KEY" not in r.stderr:
        raise RuntimeError(f"the app accepted the example secret: {r.stderr[-300:]}")
    return "web image refuses SECRET_KEY=change-me-in-production in production"


def web_published(engine: str, port: int) -> str:
    """The web port is published on loopback only (WEB_ADDRESS's default)."""
    cid = stack.containers(engine, PROJECT)["web"]
    r = subprocess.run([engine, "port", cid], capture_output=True, text=True)
    if f"127.0.0.1:{port}" not in r.stdout or "0.0.0.0" in r.stdout:
        raise RuntimeError(f"web published as {r.stdout.strip()!r}")
    return r.stdout.strip()


def stop_times(rec: Recorder, engine: str, cp: list[str], env: dict[str, str]) -> str:
    """`down` (containers kept until `down -v`): each service's stop time and exit code. A
    service killed after its grace period exits 137."""
    ids = stack.containers(engine, PROJECT)
    t0 = time.monotonic()
    rec.sh([*cp, "stop"], env=env)
    took = time.monotonic() - t0
    codes = {svc: stack.inspect(engine, cid, "{{.State.ExitCode}}") for svc, cid in ids.items()}
    killed = [svc for svc, code in codes.items() if code == "137"]
    if killed:
        raise RuntimeError(f"killed after the grace period: {killed} ({codes})")
    return f"all stopped in {took:.1f}s; exit codes " + ", ".join(
        f"{k} {v}" for k, v in codes.items()
    )


def run_for(rec: Recorder, argv: list[str], env: dict[str, str], done: str) -> str:
    rec.sh(argv, env=env)
    return done


def timed_build(
    rec: Recorder, engine: str, argv: list[str], env: dict[str, str], image: str
) -> str:
    t0 = time.monotonic()
    rec.sh(argv, env=env)
    return f"{images.image_size(engine, image)}, built in {time.monotonic() - t0:.0f}s"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", choices=["auto", "registry", "local"], default="auto")
    ap.add_argument(
        "--extra-ca",
        type=Path,
        help="a CA certificate (or a folder of *.crt) the debootstrapped base trusts, for a "
        "TLS-intercepting proxy; never added to a pulled base",
    )
    ap.add_argument("--no-gpu", action="store_true", help="skip the GPU image's stage")
    ap.add_argument(
        "--gpu-problems",
        default="",
        help="comma-separated problems the GPU image's problems check grades (default: all; "
        "vector-add has a sample in every language)",
    )
    ap.add_argument("--keep", action="store_true", help="leave the stack running at the end")
    ap.add_argument("--no-cache", action="store_true", help="build the images from scratch")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    engine = find_engine()
    compose = find_compose(engine)
    rec = Recorder()
    port = int(os.environ.get("WEB_PORT") or free_port())
    admin = ("prof", secrets.token_urlsafe(12))
    env = {
        **os.environ,
        "SECRET_KEY": secrets.token_urlsafe(48),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "ADMIN_USERNAME": admin[0],
        "ADMIN_PASSWORD": admin[1],
        "GPU_KINDS": '["cpu"]',
        "WEB_PORT": str(port),
        # Quick recovery for the restart steps (defaults: 120 s and 600 s).
        "STUCK_AFTER_S": "30",
        "RESEND_QUEUED_AFTER_S": "30",
        "COMPOSE_PROFILES": "cpu",
        # Podman (Buildah) writes OCI images by default, which drop HEALTHCHECK.
        "BUILDAH_FORMAT": "docker",
    }
    cv = subprocess.run([*compose, "version"], capture_output=True, text=True).stdout
    meta = {
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "engine": subprocess.run(
            [engine, "--version"], capture_output=True, text=True
        ).stdout.strip(),
        "compose": next((ln for ln in cv.splitlines() if "compose" in ln.lower()), compose[-1]),
        "host": f"{os.cpu_count()} CPUs, {socket.gethostname()}",
        "base": "?",
    }
    cp = [*compose, "-p", PROJECT, "--profile", "cpu"]
    nc = ["--no-cache"] if args.no_cache else []
    state: dict[str, Any] = {}
    api = stack.Api(port)
    step = rec.step
    try:
        meta["base"] = step(
            "base images", images.base_images, rec, engine, env, args.base, args.extra_ca
        )
        step("wheelhouse (docker/wheels)", images.wheelhouse, rec)
        step("compose refuses a missing secret", refuses_defaults, compose, env)
        web_cpu = ["kerneldojo-web:latest", "kerneldojo-worker-cpu:latest"]
        argv = [*cp, "build", *nc, "web", "worker-cpu"]
        step("build web + worker-cpu images", images.build, rec, engine, argv, env, web_cpu)
        step("app refuses the example secret", app_refuses_example_secret, engine, env)
        step("start (up -d, cpu profile)", run_for, rec, [*cp, "up", "-d"], env, "started")
        step("wait until healthy", stack.wait_healthy, engine, PROJECT, list(stack.SERVICES))
        step("web published on loopback only", web_published, engine, port)
        step(
            "sign up, token, submit accepted + wrong, leaderboard, admin",
            stack.learner_flow,
            api,
            admin,
            state,
        )
        step(
            "class: create, assignment, sign-up by invite code, gradebook CSV (web = CLI)",
            smoke_class.class_flow,
            port,
            admin,
            smoke_class.container_cli(engine, PROJECT),
        )
        step("worker's init reaps the sandboxes (no zombie)", stack.reaped, engine, PROJECT)
        step(
            "restart redis, then worker, mid-flight; start times checked",
            stack.restart_flow,
            rec,
            engine,
            cp,
            env,
            api,
            state,
        )
        step(
            "SIGKILL the worker mid-grading; exactly one result",
            stack.kill_flow,
            rec,
            engine,
            cp,
            env,
            api,
            state,
        )
        if not args.no_gpu:
            gp = [*compose, "-p", PROJECT, "--profile", "gpu"]
            step(
                "build worker-gpu image (PyPI CUDA toolchain)",
                timed_build,
                rec,
                engine,
                [*gp, "build", *nc, "worker"],
                env,
                images.GPU_IMAGE,
            )
            step("GPU image: start without a GPU", images.gpu_start, rec, engine, PROJECT, env)
            slugs = [p for p in args.gpu_problems.split(",") if p]
            step(
                f"GPU image: problems check --device cpu ({', '.join(slugs) or 'all problems'})",
                images.gpu_samples,
                rec,
                engine,
                slugs,
            )
            step("GPU image: bubblewrap as the non-root user", images.gpu_sandbox, rec, engine)
            step("GPU image: Celery ping", images.gpu_ping, engine)
            step("GPU image: stops on SIGTERM within 10 s", images.gpu_stop, rec, engine)
        step("stop: every service within its grace period", stop_times, rec, engine, cp, env)
    except StepFailed:
        rec.sh([*cp, "logs", "--tail", "80"], env=env, check=False)
    finally:
        subprocess.run([engine, "rm", "-f", images.GPU_CONTAINER], capture_output=True)
        if not args.keep:
            with contextlib.suppress(StepFailed):
                step("tear down (down -v)", run_for, rec, [*cp, "down", "-v"], env, "removed")
        rec.write(meta)
    ok = all(s["ok"] for s in rec.steps)
    print(f"{'PASSED' if ok else 'FAILED'}: {OUT / 'README.md'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
