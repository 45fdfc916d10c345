"""Workers on several hosts share one Redis broker and one PostgreSQL (#39), for real: three
network namespaces on one bridge, with Celery's own distribution and nothing home-made.

Host A runs a fresh PostgreSQL cluster, a fresh redis-server and the web app (``kerneldojo
serve --no-worker``, which migrates first), all listening on A's address; hosts B and C run
one CPU worker each (``kerneldojo worker``), configured by the settings a deployment uses
(`docs/deploy-multihost.md`). A learner on a fourth machine submits a batch of vector-add's
samples through the JSON API. Once B is grading one, every process of B is killed at once (a
host that dies). Every submission must end with its declared verdict, recorded exactly once:
the one B held is re-queued by the web app's sweeper when its heartbeat goes stale (or
re-delivered by Redis after the visibility timeout: ``task_acks_late``), graded by C, and
whichever copy of its message comes second finds the row claimed or done.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from judge.problem.loader import load_problem
from tests.conftest import ROOT
from tests.deploy import netns

pytestmark = pytest.mark.timeout(1500)

VECTOR_ADD = ROOT / "problems" / "vector-add"
# Slow ones first, so that both workers are busy when B is killed; CPU-gradable languages only.
BATCH = [
    "accepted/triton_simple.py",
    "rejected/wrong_answer_no_mask.py",
    "accepted/triton_fast.py",
    "rejected/wrong_answer_bf16.py",
    "accepted/pytorch_simple.py",
    "rejected/runtime_error.py",
    "rejected/wrong_answer_tail.py",
    "rejected/compile_error.py",
    "rejected/wrong_answer_half_pytorch.py",
    "rejected/compile_error_syntax.py",
]
STUCK_AFTER_S = 20  # heartbeats every 5 s (worker/tasks.py): four missed beats on a busy CI box
SWEEP_EVERY_S = 3
# An unacknowledged task older than this goes back to the queue (default: an hour); kombu looks
# for such tasks every ~100 s, so the sweeper usually re-queues the dead host's first.
VISIBILITY_S = 30
ALL_DONE_S = 900  # ten CPU gradings on two loaded cores, one host lost: a few minutes
KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")
# The machine's own services and a developer's settings must not leak into the hosts.
DROPPED = {
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_PREFIX",
    "GPU_KINDS",
    "HOST",
    "PORT",
    "KERNELDOJO_SERVER",
    "KERNELDOJO_TOKEN",
}


def _pg_bin() -> Path:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    assert found, "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (postgresql)"
    return Path(found[-1]).parent


def _wait(what: str, cond: Callable[[], bool], timeout: float, why: Callable[[], str]) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {timeout:.0f} s\n{why()}")
        time.sleep(0.3)


class Deployment:
    """Hosts a (PostgreSQL, Redis, web), b and c (a worker each), u (the learner's machine)."""

    def __init__(self, tmp: Path, stack: contextlib.ExitStack) -> None:
        assert os.geteuid() == 0, "network namespaces need root (CI runs the tests as root)"
        netns.remove_stale()
        self.tmp = tmp
        self.lan = netns.Lan()
        stack.callback(self.lan.close)
        self.a = self.lan.add("a", 1)
        self.lan.add("b", 2)
        self.lan.add("c", 3)
        self.lan.add("u", 10)
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        # PostgreSQL runs as its own user: its folder must be reachable past pytest's 0700 ones.
        self.pg_root = Path(tempfile.mkdtemp(prefix=f"{self.lan.tag}-pg-"))
        stack.callback(shutil.rmtree, self.pg_root, True)
        stack.callback(self._stop_postgres)
        self._start_postgres()
        self.engine: Engine = sa.create_engine(
            f"postgresql+psycopg://postgres@/kerneldojo?host={self.pg_root / 'sock'}"
        )
        stack.callback(self.engine.dispose)
        self._start_redis()
        stack.callback(self._stop_kerneldojo)  # first: before its database and broker go
        self.url = f"http://{self.a}:8000"

    # --- host A's services --------------------------------------------------------------

    def _start_postgres(self) -> None:
        pg = _pg_bin()
        data, sock = self.pg_root / "data", self.pg_root / "sock"
        sock.mkdir()
        os.chmod(self.pg_root, 0o755)
        shutil.chown(self.pg_root, "postgres")
        shutil.chown(sock, "postgres")
        r = subprocess.run(
            ["runuser", "-u", "postgres", "--", str(pg / "initdb"), "-D", str(data), "-U",
             "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert r.returncode == 0, r.stdout + r.stderr
        with open(data / "pg_hba.conf", "a") as f:  # the hosts of the test subnet, no password
            f.write(f"host all all {netns.SUBNET}.0/24 trust\n")
        self.procs["postgres"] = self.lan.spawn(
            "a",
            [str(pg / "postgres"), "-D", str(data), "-c", f"listen_addresses={self.a}",
             "-c", "port=5432", "-c", f"unix_socket_directories={sock}", "-c", "fsync=off"],
            self._env({}), self.tmp / "postgres.log", user="postgres",
        )  # fmt: skip
        admin = sa.create_engine(
            f"postgresql+psycopg://postgres@/postgres?host={sock}", isolation_level="AUTOCOMMIT"
        )

        def up() -> bool:
            try:
                with admin.connect() as c:
                    c.execute(sa.text("SELECT 1"))
                return True
            except sa.exc.OperationalError:
                return False

        _wait("PostgreSQL on host A", up, 120, lambda: self.log("postgres"))
        with admin.connect() as c:
            c.execute(sa.text("CREATE DATABASE kerneldojo"))
        admin.dispose()

    def _stop_postgres(self) -> None:
        """A fast shutdown (SIGINT), so that no shared memory outlives the test."""
        with contextlib.suppress(OSError, ValueError):
            pid = int((self.pg_root / "data" / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGINT)
            netns.wait_gone([pid], 30)

    def _stop_kerneldojo(self) -> None:
        procs = [p for name, p in self.procs.items() if name not in ("postgres", "redis")]
        pids = netns.with_descendants(p.pid for p in procs if p.poll() is None)
        netns.signal_all(pids, signal.SIGKILL)
        netns.wait_gone(pids, 10)
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(5)

    def _start_redis(self) -> None:
        sock = self.tmp / "redis.sock"
        self.procs["redis"] = self.lan.spawn(
            "a",
            ["redis-server", "--bind", self.a, "--port", "6379", "--protected-mode", "no",
             "--save", "", "--appendonly", "no", "--dir", str(self.tmp),
             "--unixsocket", str(sock), "--unixsocketperm", "700"],
            self._env({}), self.tmp / "redis.log",
        )  # fmt: skip
        _wait("Redis on host A", sock.exists, 60, lambda: self.log("redis"))

    # --- KernelDojo ---------------------------------------------------------------------

    def _env(self, extra: dict[str, str]) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED}
        env.update(extra)
        return env

    def kerneldojo_env(self, host: str) -> dict[str, str]:
        """The settings every host of the deployment shares (`docs/deploy-multihost.md`)."""
        data = self.tmp / f"data-{host}"
        data.mkdir(exist_ok=True)
        return self._env(
            {
                "DATABASE_URL": f"postgresql+psycopg://postgres@{self.a}:5432/kerneldojo",
                "REDIS_URL": f"redis://{self.a}:6379/0",
                # "test": the learner's cookie travels over plain HTTP (production's is Secure).
                "ENVIRONMENT": "test",
                "SECRET_KEY": "multihost-" * 4,
                "GPU_KINDS": '["cpu"]',
                "KERNELDOJO_GPU_KIND": "cpu",
                "PROBLEMS_DIR": str(ROOT / "problems"),
                "KERNELDOJO_PROBLEMS": str(ROOT / "problems"),
                "DATA_DIR": str(data),
                "STUCK_AFTER_S": str(STUCK_AFTER_S),
                "SWEEP_EVERY_S": str(SWEEP_EVERY_S),
                "BROKER_VISIBILITY_TIMEOUT_S": str(VISIBILITY_S),
                "SUBMISSIONS_PER_MINUTE": "60",
                # The self-test at a worker's start grades a sample in every language: minutes
                # on two cores, and not this test's subject (tests/worker/test_self_test.py).
                "KERNELDOJO_SELF_TEST": "0",
            }
        )

    def start_web(self) -> None:
        self.procs["web"] = self.lan.spawn(
            "a",
            [KERNELDOJO, "serve", "--host", self.a, "--port", "8000", "--no-worker"],
            self.kerneldojo_env("a"),
            self.tmp / "web.log",
            cwd=ROOT,
        )
        self._wait_for_line("web", "KernelDojo is ready at", 300)

    def start_worker(self, host: str) -> None:
        self.procs[host] = self.lan.spawn(
            host,
            [KERNELDOJO, "worker", "--queue", "cpu", "--name", f"host{host}"],
            self.kerneldojo_env(host),
            self.tmp / f"{host}.log",
            cwd=ROOT,
        )

    def wait_worker_ready(self, host: str) -> None:
        self._wait_for_line(host, " ready.", 300)

    def _wait_for_line(self, name: str, line: str, timeout: float) -> None:
        proc = self.procs[name]

        def seen() -> bool:
            assert proc.poll() is None, f"{name} exited ({proc.returncode}):\n{self.log(name)}"
            return line in self.log(name)

        _wait(f"{name}: {line!r}", seen, timeout, lambda: self.log(name))

    def log(self, name: str) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> str:
        return "\n".join(f"--- {n}:\n{self.log(n)[-4000:]}" for n in ("web", "b", "c"))

    # --- the learner, on host u -----------------------------------------------------------

    def learner(self, *args: str) -> Any:
        r = self.lan.run(
            "u",
            [sys.executable, "-m", "tests.deploy.learner", args[0], self.url, *args[1:]],
            self._env({}),
            ROOT,
            timeout=300,
        )
        assert r.returncode == 0, f"{r.stdout}\n{r.stderr}\n{self.logs()}"
        return json.loads(r.stdout.strip().splitlines()[-1])

    # --- the database, read through host A's socket (the test sits on no host) -------------

    def rows(self) -> dict[int, dict[str, Any]]:
        q = "SELECT id, status, verdict, attempt, worker, finished_at FROM submission"
        with self.engine.connect() as c:
            return {r.id: dict(r._mapping) for r in c.execute(sa.text(q))}

    def running_on(self, host: str) -> int | None:
        q = "SELECT id FROM submission WHERE status = 'running' AND worker LIKE :w"
        with self.engine.connect() as c:
            ids = c.execute(sa.text(q), {"w": f"host{host}@%"}).scalars().all()
        assert len(ids) <= 1, f"one worker grading {ids} at once"
        return ids[0] if ids else None


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    with contextlib.ExitStack() as stack:
        yield Deployment(tmp_path, stack)


def _kill_host_mid_grading(dep: Deployment, host: str) -> int:
    """Freeze every process of ``host`` while it grades a submission, then SIGKILL them all;
    the submission it held. (Frozen first, so that it cannot finish that one in between.)"""
    end = time.monotonic() + 300
    while time.monotonic() < end:
        if dep.running_on(host) is None:
            time.sleep(0.2)
            continue
        frozen = netns.freeze(netns.ns_pids(dep.lan.ns(host)))
        held = dep.running_on(host)
        if held is not None:
            netns.signal_all(frozen, signal.SIGKILL)
            left = netns.wait_gone(frozen)
            assert not left, f"processes of host {host} survived SIGKILL: {left}"
            dep.procs[host].wait(10)
            return held
        netns.signal_all(frozen, signal.SIGCONT)  # between two gradings: try again
    raise AssertionError(f"host {host} never graded a submission\n{dep.logs()}")


def test_workers_on_two_hosts_share_one_broker_and_database(deployment: Deployment) -> None:
    t0 = time.monotonic()
    dep = deployment
    expected = {s.path.name: s.expected.value for s in load_problem(VECTOR_ADD).samples}
    dep.start_web()
    dep.start_worker("b")
    dep.start_worker("c")
    dep.wait_worker_ready("b")
    dep.wait_worker_ready("c")

    out = dep.learner("submit", *(str(VECTOR_ADD / "solutions" / f) for f in BATCH))
    ids: list[int] = out["ids"]
    want = {sid: expected[Path(f).name] for sid, f in zip(ids, BATCH, strict=True)}

    held = _kill_host_mid_grading(dep, "b")
    row = dep.rows()[held]
    assert row["status"] == "running" and row["worker"].startswith("hostb@"), row

    def all_done() -> bool:
        return all(r["status"] == "done" for r in dep.rows().values())

    _wait(
        "every submission graded",
        all_done,
        ALL_DONE_S,
        lambda: f"{json.dumps(dep.rows(), default=str, indent=1)}\n{dep.logs()}",
    )
    rows = dep.rows()
    assert sorted(rows) == sorted(ids), "a submission lost, or one more than was sent"
    got = {sid: r["verdict"] for sid, r in rows.items()}
    assert got == want, f"{got} != {want}\n{dep.logs()}"
    # The one B held was graded again, on C.
    assert rows[held]["attempt"] >= 2 and rows[held]["worker"].startswith("hostc@"), rows[held]

    # Exactly once: one recorded result per submission over both workers' logs.
    logs = dep.log("b") + dep.log("c")
    for sid in ids:
        recorded = re.findall(rf"submission {sid}: ([a-z_]+) in [\d.]+s", logs)
        assert recorded == [want[sid]], (sid, recorded, dep.logs())

    # Late copies of a message (the sweeper's, Redis's re-delivery) change nothing.
    time.sleep(2 * SWEEP_EVERY_S + 5)
    assert dep.rows() == rows
    assert dep.procs["c"].poll() is None and dep.procs["web"].poll() is None

    # And the learner, from their machine, sees each verdict once graded.
    seen = dep.learner("results", out["token"], *map(str, ids))
    assert {int(k): (v["status"], v["verdict"]) for k, v in seen.items()} == {
        sid: ("done", v) for sid, v in want.items()
    }
    print(f"three hosts, {len(ids)} submissions, host B killed: {time.monotonic() - t0:.0f} s")
