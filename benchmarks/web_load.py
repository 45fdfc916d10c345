"""A class's load on one machine: 200 learners browsing, and 1 000 submissions at once.

Two parts, each against the real processes a class server runs (PostgreSQL, Redis, the web
app as ``kerneldojo serve --no-worker`` starts it in the compose ``web`` service, Celery
workers as ``kerneldojo worker`` starts them):

``browse``  fresh database ``kd_load``; problems from ``problems/``; learners and a few
            hundred finished submissions created through the app's own functions
            (``app.submissions.create`` / ``claim`` / ``record``, with results from real
            gradings of the sample solutions under the CPU interpreter); then Locust, headless,
            drives ``--users`` simulated learners for ``--run-time`` seconds (think time
            1-3 s; see ``web_load_locustfile.py``). Reports requests, errors, p50/p95/p99 per
            endpoint and overall, requests/s, the server's CPU use.

``queue``   fresh database; ``--workers`` CPU-interpreter workers (queue ``cpu``); ``--count``
            submissions posted at once through ``POST /api/v1/submissions`` (the real submit
            path; SUBMISSIONS_PER_MINUTE raised for the test); one worker killed (SIGKILL, its
            whole process tree) and restarted mid-run; waits for every final verdict, then
            checks exactly-once from the database (status, verdict, ``attempt``) and from the
            workers' logs (one recorded result per submission, none lost, duplicates skipped).

``flood``   ``browse`` with a Celery worker beside the web app and ``--flood`` (150) wrong
            log-ins kept in flight from the steady state to the end (``web_load_flood.py``;
            ``--flood-from many``: a new address and username per attempt, so only the hash
            pool's queue limit holds them; ``one``: one address). Browsing percentiles are
            read over the flood's window; written to the record
            ``records/<date>-<n>core-login-flood/`` (``web-load.json``, ``README.md``).

Why Locust: a maintained load tester whose headless mode gives per-endpoint percentiles and
CSV; its gevent ``FastHttpUser`` costs little CPU, which matters when the load generator
shares two cores with the server. Each request's latency is also kept raw, for exact
percentiles and the steady-state window.

Reproduce (2-core machine, PostgreSQL at 127.0.0.1:5432 with trust auth for ``postgres``,
Redis at 127.0.0.1:6379)::

    make install && .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/web_load.py browse --users 200 --spawn-rate 10 --run-time 80 --web-workers 2
    .venv/bin/python benchmarks/web_load.py browse --web-workers 1 --section browse_1_web_worker
    .venv/bin/python benchmarks/web_load.py queue --count 50 --section queue_estimate_50
    .venv/bin/python benchmarks/web_load.py queue --count 1000 --kill-at 0.5 --mix accepted=0.5,wrong=0.5
    .venv/bin/python benchmarks/web_load.py flood --flood 150 --flood-from many --users 200 --spawn-rate 10 --run-time 90

The first ``browse`` grades 15 sample solutions once under the interpreter (~1.5 min) for
the seeded results and caches them in ``--results-cache``.

Each part merges its section into ``--out`` (JSON; default: today's record,
``records/<date>-<n>core-web-load/web-load.json``) and rewrites the Markdown beside it as the
record's ``README.md`` (records/README.md).
The script creates (and at the end drops) the database ``--db-name``, uses Redis database
``--redis-db`` under the key prefix ``kdload:`` (deleted at the end), and stops every process
it started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
KERNELDOJO = str(BIN / "kerneldojo")
LOCUST = str(BIN / "locust")
LOCUSTFILE = ROOT / "benchmarks" / "web_load_locustfile.py"
TODAY = datetime.now(UTC).date().isoformat()
# Today's records (records/README.md): the JSON, with the Markdown beside it as README.md.
RECORD = ROOT / "records" / f"{TODAY}-{os.cpu_count() or 1}core"
DEFAULT_OUT = Path(f"{RECORD}-web-load") / "web-load.json"
FLOOD_OUT = Path(f"{RECORD}-login-flood") / "web-load.json"
REDIS_PREFIX = "kdload:"
PASSWORD = "load-test-password"
# Samples graded for the seed's results and for the queue run: (path under solutions/, verdict).
SEED_SAMPLES = [
    ("accepted/triton_simple.py", "accepted"),
    ("rejected/wrong_answer_tail.py", "wrong_answer"),
    ("rejected/compile_error.py", "compile_error"),
]
BROWSE_NOTES = [
    "How to read it. *Browsing* is every page and API call but the log-in form and its POST. "
    "The target is read on the steady state, once all users are in; the whole-run figure also "
    "holds the ramp, when ~140 learners log in within 20 s (argon2, ~0.16 s of CPU each, on a "
    "machine that has 2 cores for everything). Log-ins themselves queue during that burst "
    "(see `POST /login`); no request failed.",
    "",
    "What the first runs showed, and what was changed in the app (each change in its file):",
    "",
    "1. Before: 1 web process, original code. Anonymous browsing only: p50 17 ms, p95 124 ms, "
    "p99 243 ms at 91 req/s. With log-ins working, the server collapsed: a log-in held its "
    "pooled database connection during the argon2 hash, a burst of log-ins took all 15 "
    "connections (SQLAlchemy's default 5 + 10), every other request waited 30 s for one and "
    "failed with 500 (a manual run at 20 users/s, not kept in the JSON: 6% errors, p99 34 s). Profiled with py-spy (wall clock: 59% of the "
    "threads' time waiting on the pool; CPU: 32% in building leaderboards).",
    "2. `app/accounts.py`: `authenticate` ends its read transaction before verifying the "
    "password, so the connection goes back to the pool during the hash.",
    "3. `app/core/security.py`: at most cores/2 argon2 hashes run at once (a semaphore), and "
    "one lane instead of four (same 64 MiB x 3 passes, so the same cost to an attacker; "
    "old 4-lane hashes still verify): one log-in takes one core, not both.",
    "4. `app/stats.py`: leaderboards read only the columns they show, for all problems in "
    "one query (the overall board ran one query per problem and built full ORM rows with "
    "source and result JSON); a learner's history and recent lists leave source and result "
    "JSON unread. Idle latency of `/leaderboard`: 20 ms -> 10 ms.",
    "5. `app/core/db.py`, `app/core/config.py`, `app/main.py`: the web app's pool is "
    "DB_POOL_SIZE=10 + DB_MAX_OVERFLOW=20 (was 5 + 10): no request waits for a connection "
    "with 40 request threads, and fewer connections are opened and closed per request.",
    "6. `app/cli.py` (+ `WEB_WORKERS` in docker-compose.yml, .env.example): `kerneldojo serve "
    "--workers N`. One process runs Python on one core (the GIL); one process keeps "
    "the steady-state p99 above 100 ms on this machine, two (one per core) bring it to ~50 ms "
    "(rows `browse_1_web_worker` and `browse` in the table above: same code).",
    "7. `app/main.py`: `RequestSlots`, at most as many requests inside the app as the pool "
    "has connections (the others wait in the event loop). With 1 process and the log-in "
    "burst, requests holding a connection waited for a thread (each sync dependency and the "
    "route is a separate thread hop) while all 40 threads waited for a connection: nothing "
    "moved until the pool's 30 s timeout; 180 of 1365 requests failed (60 s client timeouts "
    "and 500s), with changes 2-6 already in. The unchanged code (row "
    "`browse_original_code_1_web_worker`, run from `git archive HEAD` with PYTHONPATH) "
    "collapsed the same way: 160 errors in 943 requests.",
    "",
    "Not covered: static files (a browser caches them), SSE progress streams, submitting. "
    "Results are CPU-interpreter results (no benchmark charts on submission pages).",
]
QUEUE_NOTES = [
    "How exactly-once is checked: the database is the source of truth (`app/submissions.py`): "
    "a worker claims a row with a conditional UPDATE that bumps `attempt`, and writes the "
    "result only `WHERE attempt = <its claim> AND status = 'running'`. The script reads every "
    "row (status, verdict, attempt) and the workers' logs: each `submission N: <verdict> in "
    "Xs` line is one recorded result (logged only when the guarded UPDATE changed the row), "
    "`already claimed or done; skipping` is a duplicate delivery that did nothing, and "
    "`superseded; result discarded` a stale attempt whose result was dropped. Every "
    "submission must be done with a result and exactly one recorded-result line; none may "
    "be missing. The killed worker's submission has attempt 2: its first claim died with the "
    "worker (no result written), the sweeper re-queued it after STUCK_AFTER_S=120 s without "
    "heartbeat, and it was graded once.",
    "",
    "Duplicates: the backlog lasted 50 min, longer than RESEND_QUEUED_AFTER_S (600 s), so the "
    "sweeper sent every still-queued id again every 10 minutes (as designed for lost "
    "messages); 1 970 such duplicate deliveries reached the workers and each was skipped by "
    "the claim, without grading. Harmless, but with a long backlog the queue carries up to "
    "~2.5x the messages; raising RESEND_QUEUED_AFTER_S on a busy CPU-only site avoids it.",
    "",
    "Time: the 50-submission estimate gave ~24/min (42 min for 1 000, just over the ~40 min "
    "budget); the full run was kept to real gradings (no fast verdicts) and took 50.5 min, "
    "throughput falling from ~23/min to ~17/min in the second half (cause not investigated; "
    "the queue stayed non-empty throughout).",
    "",
    "Sources: problems/vector-add/solutions/accepted/triton_{simple,fast}.py and "
    "rejected/wrong_answer_{tail,bf16}.py, all real gradings (no fast verdicts mixed in). "
    "Each CPU-interpreter grading takes 3-10 s of one core, so throughput is bound by the "
    "interpreter, not by the queue: 2 workers on 2 cores. The web app served the posts "
    "while the workers graded.",
]
QUEUE_SAMPLES = {
    "accepted": [
        ("accepted/triton_simple.py", "accepted"),
        ("accepted/triton_fast.py", "accepted"),
    ],
    "wrong": [
        ("rejected/wrong_answer_tail.py", "wrong_answer"),
        ("rejected/wrong_answer_bf16.py", "wrong_answer"),
    ],
    "compile": [("rejected/compile_error.py", "compile_error")],
}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --- processes ---------------------------------------------------------------------------


class Procs:
    """Every process this script starts (each in its own session); stopped at exit."""

    def __init__(self) -> None:
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, argv: list[str], env: dict[str, str], logfile: Path) -> subprocess.Popen[bytes]:
        f = open(logfile, "ab")  # noqa: SIM115 (kept open for the child's life)
        p = subprocess.Popen(
            argv, env=env, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.procs.append(p)
        return p

    @staticmethod
    def tree(p: subprocess.Popen[bytes]) -> list[int]:
        import psutil

        try:
            return [c.pid for c in psutil.Process(p.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def stop(self, p: subprocess.Popen[bytes], sig: int = signal.SIGTERM, wait: float = 30) -> None:
        """Signal the process, its process group and every descendant (some start sessions)."""
        kids = self.tree(p)
        for target in (lambda: os.killpg(p.pid, sig), lambda: os.kill(p.pid, sig)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                target()
        if sig == signal.SIGKILL:
            for k in kids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(k, signal.SIGKILL)
        try:
            p.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.stop(p, signal.SIGKILL, wait=10)
            return
        for k in kids:  # anything left behind by a clean exit
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(k, signal.SIGKILL)

    def stop_all(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                self.stop(p)


def wait_http(url: str, timeout: float = 90) -> None:
    import httpx

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=5).status_code == 200:
                return
        time.sleep(0.5)
    raise RuntimeError(f"{url} did not answer within {timeout}s")


def wait_log(path: Path, pattern: str, timeout: float = 180) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and re.search(pattern, path.read_text(errors="replace")):
            return
        time.sleep(0.5)
    raise RuntimeError(f"{path}: no line matching {pattern!r} within {timeout}s")


# --- database and Redis ------------------------------------------------------------------


def admin_conn(args: argparse.Namespace) -> Any:
    import psycopg

    return psycopg.connect(args.pg_admin_url, autocommit=True)


def create_db(args: argparse.Namespace) -> None:
    with admin_conn(args) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{args.db_name}"')


def drop_db(args: argparse.Namespace) -> None:
    with admin_conn(args) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')


def redis_url(args: argparse.Namespace) -> str:
    return f"redis://{args.redis_host}:{args.redis_port}/{args.redis_db}"


def flush_redis(args: argparse.Namespace) -> int:
    import redis

    r = redis.Redis.from_url(redis_url(args))
    keys = list(r.scan_iter(match=f"{REDIS_PREFIX}*", count=1000))
    if keys:
        r.delete(*keys)
    return len(keys)


def app_env(args: argparse.Namespace, **extra: str) -> dict[str, str]:
    """The settings the compose file gives the web and worker containers (production)."""
    base = args.pg_admin_url.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
    env = dict(os.environ)
    env.update(
        ENVIRONMENT="production",
        SECRET_KEY=args.secret_key,
        DATABASE_URL=f"{base}/{args.db_name}",
        REDIS_URL=redis_url(args),
        REDIS_PREFIX=REDIS_PREFIX,
        GPU_KINDS='["cpu"]',
        KERNELDOJO_GPU_KIND="cpu",
        PROBLEMS_DIR=str(ROOT / "problems"),
        KERNELDOJO_PROBLEMS=str(ROOT / "problems"),
        TRITON_INTERPRET="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def use_env(env: dict[str, str]) -> None:
    """Point this process's app imports (``get_settings()``) at the same settings."""
    for k in (
        "ENVIRONMENT",
        "SECRET_KEY",
        "DATABASE_URL",
        "REDIS_URL",
        "REDIS_PREFIX",
        "GPU_KINDS",
        "KERNELDOJO_GPU_KIND",
        "PROBLEMS_DIR",
        "KERNELDOJO_PROBLEMS",
        "SUBMISSIONS_PER_MINUTE",
    ):
        if k in env:
            os.environ[k] = env[k]
    from app.core.config import get_settings

    get_settings.cache_clear()


def start_server(
    args: argparse.Namespace, procs: Procs, env: dict[str, str], logfile: Path
) -> subprocess.Popen[bytes]:
    argv = [KERNELDOJO, "serve", "--no-worker", "--host", "127.0.0.1", "--port", str(args.port)]
    if args.web_workers > 1:
        argv += ["--workers", str(args.web_workers)]
    p = procs.start(argv, env, logfile)
    wait_http(f"http://127.0.0.1:{args.port}/api/v1/problems")
    return p


# --- seeding -----------------------------------------------------------------------------


def sample_results(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Real gradings (CPU interpreter) of three samples per problem, cached between runs."""
    cache = Path(args.results_cache)
    if cache.exists():
        return dict(json.loads(cache.read_text()))
    from judge.grader import grade
    from judge.problem.loader import load_all
    from judge.sandbox.runner_client import RunnerPool

    pool = RunnerPool("cpu", size=1)
    out: dict[str, dict[str, Any]] = {}
    try:
        for p in load_all(ROOT / "problems").problems:
            for rel, want in SEED_SAMPLES:
                path = p.path / "solutions" / rel
                if not path.exists():
                    continue
                t0 = time.monotonic()
                res = grade(p, path.read_text(), "triton", device="cpu", mode="submit", pool=pool)
                d = res.to_dict()
                log(f"seed result {p.slug}/{rel}: {d['verdict']} ({time.monotonic() - t0:.1f}s)")
                if d["verdict"] != want:
                    log(f"  (expected {want})")
                d["_source"] = path.read_text()
                out[f"{p.slug}/{rel}"] = d
    finally:
        pool.close()
    cache.write_text(json.dumps(out))
    return out


def seed_browse(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """Learners and finished submissions, through the app's models and submission functions."""
    results = sample_results(args)
    use_env(env)
    from sqlmodel import Session

    from app import submissions
    from app.core.config import get_settings
    from app.core.db import make_engine, migrate
    from app.core.security import hash_password
    from app.models import Mode, SubmissionCreate, User

    settings = get_settings()
    migrate(settings.database_url)
    engine = make_engine(settings.database_url)
    rng = random.Random(1234)
    pw_hash = hash_password(PASSWORD)  # one argon2 hash (own salt) shared by all learners
    learners = [f"learner{i:03d}" for i in range(args.learners)]
    with Session(engine) as s:
        users = [User(username=n, password_hash=pw_hash) for n in learners]
        s.add_all(users)
        s.commit()
        for u in users:
            s.refresh(u)
        slugs = sorted({k.split("/", 1)[0] for k in results})
        ids = []
        # Most learners tried vector-add; fewer reached the hard problems.
        weights = {"vector-add": 5, "reduction": 4, "softmax": 3, "matmul": 2, "flash-attention": 1}
        keys_by_slug = {sl: [k for k in results if k.startswith(sl + "/")] for sl in slugs}
        active = users[: max(1, int(len(users) * 0.6))]
        for _ in range(args.submissions):
            user = rng.choice(active)
            slug = rng.choices(slugs, [weights.get(x, 1) for x in slugs])[0]
            key = rng.choices(
                keys_by_slug[slug],
                [5 if "accepted" in k else 3 if "wrong" in k else 2 for k in keys_by_slug[slug]],
            )[0]
            res = {k: v for k, v in results[key].items() if k != "_source"}
            data = SubmissionCreate(
                problem=slug, language="triton", mode=Mode.SUBMIT, source=results[key]["_source"]
            )
            sub = submissions.create(s, user, data, "cpu")
            assert sub.id is not None
            attempt = submissions.claim(engine, sub.id, "seed", stale_s=120)
            assert attempt is not None
            assert submissions.record(engine, sub.id, attempt, res)
            ids.append(sub.id)
    engine.dispose()
    return {"slugs": slugs, "submission_ids": ids, "learners": learners, "password": PASSWORD}


# --- part 1: browsing --------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
    return round(xs[lo] + (xs[hi] - xs[lo]) * (k - lo), 1)


def summarize(rows: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    ms = [r["ms"] for r in rows]
    return {
        "requests": len(rows),
        "errors": sum(1 for r in rows if r["error"]),
        "rps": round(len(rows) / seconds, 1),
        "p50_ms": pct(ms, 0.50),
        "p95_ms": pct(ms, 0.95),
        "p99_ms": pct(ms, 0.99),
        "max_ms": round(max(ms), 1) if ms else None,
        "mean_bytes": round(statistics.mean(r["bytes"] for r in rows)) if rows else 0,
    }


def browse(args: argparse.Namespace) -> dict[str, Any]:
    import psutil

    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    procs = Procs()
    create_db(args)
    try:
        env = app_env(args)
        t0 = time.monotonic()
        seed = seed_browse(args, env)
        seed_path = work / "seed.json"
        seed_path.write_text(json.dumps(seed))
        log(
            f"seeded {len(seed['learners'])} learners, {len(seed['submission_ids'])} finished "
            f"submissions in {time.monotonic() - t0:.0f}s"
        )
        server = start_server(args, procs, env, work / "server-browse.log")
        log(f"server up (pid {server.pid}, {args.web_workers} web worker process(es))")
        raw = work / "locust-raw.jsonl"
        raw.unlink(missing_ok=True)
        lenv = dict(
            os.environ,
            KD_LOAD_SEED=str(seed_path),
            KD_LOAD_RAW=str(raw),
            KD_LOAD_LOGGED_IN=str(args.logged_in),
        )
        argv = [
            LOCUST,
            "-f",
            str(LOCUSTFILE),
            "--headless",
            "--host",
            f"http://127.0.0.1:{args.port}",
            "--users",
            str(args.users),
            "--spawn-rate",
            str(args.spawn_rate),
            "--run-time",
            f"{args.run_time}s",
            "--stop-timeout",
            "10",
            "--csv",
            str(work / "locust"),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ]
        flooder = None
        flood_out = work / "flood.json"
        flood_out.unlink(missing_ok=True)
        if args.part == "flood":
            # A real class server: a Celery worker idles on the queue beside the web app.
            procs.start(
                [KERNELDOJO, "worker", "--queue", "cpu", "--name", "flood"],
                env,
                work / "worker-flood.log",
            )
        if args.flood:
            flooder = _start_flooder(args, procs, work, flood_out)
        sproc = psutil.Process(server.pid)
        server_ps = [sproc, *sproc.children(recursive=True)]
        cpu0 = {p.pid: sum(p.cpu_times()[:2]) for p in server_ps}
        pg0 = _pg_cpu()
        sys_cpu0 = psutil.cpu_times()
        t_start = time.monotonic()
        log(f"locust: {args.users} users, spawn {args.spawn_rate}/s, {args.run_time}s")
        lp = subprocess.run(argv, env=lenv, cwd=ROOT, capture_output=True, text=True, check=False)
        elapsed = time.monotonic() - t_start
        cpu1 = {p.pid: sum(p.cpu_times()[:2]) for p in server_ps if p.is_running()}
        pg1 = _pg_cpu()
        sys_cpu1 = psutil.cpu_times()
        (work / "locust.out").write_text(lp.stdout + lp.stderr)
        if flooder is not None:
            flooder.wait(timeout=120)
        if lp.returncode not in (0, 1):  # 1: some requests failed (reported below)
            raise RuntimeError(f"locust failed ({lp.returncode}):\n{lp.stderr[-3000:]}")
        rows = [json.loads(x) for x in raw.read_text().splitlines() if x.strip()]
        run_s = float(args.run_time)
        by_name: dict[str, list[dict[str, Any]]] = {}
        for r in rows:
            by_name.setdefault(
                f"{r['method']} {r['name']}"
                if not r["name"].startswith(r["method"])
                else r["name"],
                [],
            ).append(r)
        browsing = [r for r in rows if "login" not in r["name"]]
        ramp_s = args.users / args.spawn_rate
        # Steady state: from 5 s after the last user was spawned (its log-in done) to the end.
        t_first = min(r["t"] for r in rows)
        steady_from = t_first + ramp_s + 5
        steady = [r for r in rows if r["t"] >= steady_from]
        steady_s = max(1e-9, max(r["t"] for r in rows) - steady_from)
        server_cpu_s = sum(cpu1.get(k, 0) - v for k, v in cpu0.items())
        result: dict[str, Any] = {
            "settings": {
                "users": args.users,
                "spawn_rate_per_s": args.spawn_rate,
                "ramp_s": round(ramp_s, 1),
                "run_time_s": args.run_time,
                "think_time_s": [1, 3],
                "logged_in_share": args.logged_in,
                "learners": args.learners,
                "finished_submissions": args.submissions,
                "problems": len(seed["slugs"]),
                "server": f"kerneldojo serve --no-worker --workers {args.web_workers} (uvicorn, "
                f"{args.web_workers} process(es), 40 threads each for the sync routes)",
                "web_workers": args.web_workers,
                "load_generator": f"locust {_version('locust')} FastHttpUser, 1 process, same 2 cores",
                "database": "PostgreSQL " + _pg_version(args),
                "environment": "production",
            },
            "overall": summarize(rows, run_s),
            "browsing_without_login": summarize(browsing, run_s),
            "steady_state": {
                "window_s": round(steady_s, 1),
                "from_s_after_start": round(ramp_s + 5, 1),
                **summarize(steady, steady_s),
            },
            "steady_state_per_endpoint": {
                k: summarize([r for r in v if r["t"] >= steady_from], steady_s)
                for k, v in sorted(by_name.items())
                if any(r["t"] >= steady_from for r in v)
            },
            "per_endpoint": {k: summarize(v, run_s) for k, v in sorted(by_name.items())},
            "errors_sample": Counter(r["error"] for r in rows if r["error"]).most_common(5),
            "cpu": {
                "server_cores_used": round(server_cpu_s / elapsed, 2),
                "postgres_cores_used": round((pg1 - pg0) / elapsed, 2)
                if pg0 is not None and pg1 is not None
                else None,
                "machine_busy_pct": round(
                    100
                    * (_busy(sys_cpu1) - _busy(sys_cpu0))
                    / max(1e-9, _total(sys_cpu1) - _total(sys_cpu0)),
                    1,
                ),
            },
            "locust_csv_aggregated": _locust_aggregate(work / "locust_stats.csv"),
        }
        if args.flood:
            result["flood"] = json.loads(flood_out.read_text())
            result["flood"]["from_s_after_start"] = round(ramp_s + 5, 1)
        log(
            json.dumps(
                {
                    "overall": result["overall"],
                    "browsing": result["browsing_without_login"],
                    "cpu": result["cpu"],
                }
            )
        )
        return result
    finally:
        _clean_up(procs, args)


def _start_flooder(
    args: argparse.Namespace, procs: Procs, work: Path, out: Path
) -> subprocess.Popen[bytes]:
    """``web_load_flood.py`` in its own process, from the steady state to the end of the run."""
    ramp_s = args.users / args.spawn_rate
    seconds = max(10.0, args.run_time - ramp_s - 5)
    cmd = (
        f"sleep {ramp_s + 5:.1f} && exec {sys.executable} {ROOT / 'benchmarks' / 'web_load_flood.py'} "
        f"--base http://127.0.0.1:{args.port} --concurrency {args.flood} --seconds {seconds:.0f} "
        f"--from {args.flood_from} --out {out}"
    )
    return procs.start(["bash", "-c", cmd], dict(os.environ), work / "flood.log")


def _clean_up(procs: Any, args: argparse.Namespace) -> None:
    """Stop every process the run started, drop its database, delete its Redis keys."""
    procs.stop_all()
    if not args.keep_db:
        drop_db(args)
    flush_redis(args)


def _busy(c: Any) -> float:
    return float(
        sum(getattr(c, f, 0) for f in ("user", "system", "nice", "irq", "softirq", "steal"))
    )


def _total(c: Any) -> float:
    return _busy(c) + c.idle + getattr(c, "iowait", 0)


def _locust_aggregate(path: Path) -> dict[str, Any] | None:
    import csv

    if not path.exists():
        return None
    for row in csv.DictReader(path.open()):
        if row["Name"] == "Aggregated":
            return {
                k: row[k]
                for k in (
                    "Request Count",
                    "Failure Count",
                    "Requests/s",
                    "50%",
                    "95%",
                    "99%",
                    "100%",
                )
            }
    return None


def _pg_cpu() -> float | None:
    import psutil

    total = 0.0
    for p in psutil.process_iter(["name", "username"]):
        try:
            if p.info["name"] and p.info["name"].startswith("postgres"):
                total += sum(p.cpu_times()[:2])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return total


def _pg_version(args: argparse.Namespace) -> str:
    with admin_conn(args) as c:
        return str(c.execute("SHOW server_version").fetchone()[0])


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


# --- part 2: the queue -------------------------------------------------------------------


CLAIMED = re.compile(r"submission (\d+): claimed \(attempt (\d+)\) by (\S+)")
RECORDED = re.compile(r"submission (\d+): (\w+) in [\d.]+s")
SKIPPED = re.compile(r"submission (\d+): already claimed or done; skipping")
SUPERSEDED = re.compile(r"submission (\d+): attempt (\d+) was superseded")


def queue_sources(args: argparse.Namespace) -> list[tuple[str, str, str]]:
    """(label, source, expected verdict) for each submission, in a fixed shuffled order."""
    mix = {k: float(v) for k, v in (x.split("=") for x in args.mix.split(","))}
    rng = random.Random(42)
    folder = ROOT / "problems" / "vector-add" / "solutions"
    out = []
    for _ in range(args.count):
        kind = rng.choices(list(mix), list(mix.values()))[0]
        rel, want = rng.choice(QUEUE_SAMPLES[kind])
        out.append((rel, (folder / rel).read_text(), want))
    return out


def seed_queue_users(env: dict[str, str], n: int) -> list[str]:
    use_env(env)
    from sqlmodel import Session

    from app.api.routes.tokens import issue
    from app.core.config import get_settings
    from app.core.db import make_engine, migrate
    from app.core.security import hash_password
    from app.models import User

    settings = get_settings()
    migrate(settings.database_url)
    engine = make_engine(settings.database_url)
    pw = hash_password(PASSWORD)
    tokens = []
    with Session(engine) as s:
        for i in range(n):
            u = User(username=f"submitter{i:02d}", password_hash=pw)
            s.add(u)
            s.commit()
            s.refresh(u)
            assert u.id is not None
            tokens.append(issue(s, u, "load").token)
    engine.dispose()
    return tokens


async def post_all(
    port: int, tokens: list[str], items: list[tuple[str, str, str]], concurrency: int
) -> tuple[list[tuple[int, str, str]], list[str], float]:
    import httpx

    sem = asyncio.Semaphore(concurrency)
    ok: list[tuple[int, str, str]] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=120, limits=limits
    ) as c:

        async def one(i: int, rel: str, src: str, want: str) -> None:
            async with sem:
                try:
                    r = await c.post(
                        "/api/v1/submissions",
                        json={
                            "problem": "vector-add",
                            "language": "triton",
                            "mode": "submit",
                            "source": src,
                        },
                        headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"},
                    )
                except httpx.HTTPError as e:
                    errors.append(repr(e))
                    return
                if r.status_code == 201:
                    ok.append((int(r.json()["id"]), rel, want))
                else:
                    errors.append(f"{r.status_code} {r.text[:200]}")

        t0 = time.monotonic()
        await asyncio.gather(*(one(i, *it) for i, it in enumerate(items)))
        return ok, errors, time.monotonic() - t0


def db_counts(engine: Any) -> dict[str, int]:
    from sqlalchemy import text

    with engine.connect() as c:
        return {
            str(k): int(v)
            for k, v in c.execute(text("SELECT status, count(*) FROM submission GROUP BY status"))
        }


def queue(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    for old in work.glob("worker-*.log"):
        old.unlink()
    procs = Procs()
    create_db(args)
    flush_redis(args)
    env = app_env(args, SUBMISSIONS_PER_MINUTE=str(args.per_minute))
    try:
        tokens = seed_queue_users(env, args.submitters)
        from sqlalchemy import text

        from app.core.db import make_engine

        engine = make_engine(env["DATABASE_URL"])
        start_server(args, procs, env, work / "server-queue.log")
        workers: dict[int, subprocess.Popen[bytes]] = {}
        logs: list[Path] = []

        def start_worker(i: int, gen: int) -> None:
            lf = work / f"worker-{i}-{gen}.log"
            logs.append(lf)
            workers[i] = procs.start(
                [KERNELDOJO, "worker", "--queue", "cpu", "--name", f"load{i}g{gen}"], env, lf
            )

        for i in range(args.workers):
            start_worker(i, 0)
        for lf in list(logs):
            wait_log(lf, r"ready\.")
        log(f"{args.workers} worker(s) ready")
        items = queue_sources(args)
        t0 = time.monotonic()
        t0_wall = datetime.now(UTC)
        posted, post_errors, post_s = asyncio.run(
            post_all(args.port, tokens, items, args.concurrency)
        )
        log(f"posted {len(posted)} submissions in {post_s:.1f}s ({len(post_errors)} errors)")
        expected = {sid: (rel, want) for sid, rel, want in posted}
        killed: dict[str, Any] | None = None
        gen = 0
        timeline = []
        deadline = t0 + args.timeout
        while True:
            counts = db_counts(engine)
            done = counts.get("done", 0)
            timeline.append({"t_s": round(time.monotonic() - t0, 1), **counts})
            if len(timeline) % 15 == 1:
                log(f"t={time.monotonic() - t0:.0f}s {counts}")
            if done >= len(posted):
                break
            if killed is None and args.kill_at > 0 and done >= args.kill_at * len(posted):
                with engine.connect() as c:
                    running = [
                        dict(r._mapping)
                        for r in c.execute(
                            text(
                                "SELECT id, worker, attempt FROM submission WHERE status='running'"
                            )
                        )
                    ]
                victim = workers[0]
                tree = procs.tree(victim)
                procs.stop(victim, signal.SIGKILL)
                gen += 1
                killed = {
                    "at_s": round(time.monotonic() - t0, 1),
                    "done_at_kill": done,
                    "signal": "SIGKILL to the worker's process group and all descendants",
                    "killed_pids": [victim.pid, *tree],
                    "running_at_kill": running,
                }
                log(
                    f"killed worker 0 (pid {victim.pid} + {len(tree)} children); running: {running}"
                )
                time.sleep(args.restart_after)
                start_worker(0, gen)
                killed["restarted_at_s"] = round(time.monotonic() - t0, 1)
                log("worker 0 restarted")
            if time.monotonic() > deadline:
                log("timed out")
                break
            time.sleep(2)
        total_s = time.monotonic() - t0
        # Let the workers finish logging, then stop them cleanly.
        time.sleep(2)
        for w in workers.values():
            procs.stop(w)
        result = check_queue(engine, expected, logs, len(items), post_errors)
        with engine.connect() as c:
            first, last = c.execute(
                text("SELECT min(created_at), max(finished_at) FROM submission")
            ).one()
        graded_span = (last - first).total_seconds() if first and last else None
        result.update(
            settings={
                "count": args.count,
                "mix": args.mix,
                "problem": "vector-add (Triton samples from problems/vector-add/solutions/)",
                "mode": "submit (CPU interpreter: test cases only, no timing)",
                "workers": args.workers,
                "worker_command": "kerneldojo worker --queue cpu (Celery prefork, concurrency 1 each)",
                "broker": "Redis " + _redis_version(args),
                "database": "PostgreSQL " + _pg_version(args),
                "SUBMISSIONS_PER_MINUTE": args.per_minute,
                "STUCK_AFTER_S": 120,
                "RESEND_QUEUED_AFTER_S": 600,
                "submitters": args.submitters,
                "post_concurrency": args.concurrency,
                "started": t0_wall.isoformat(timespec="seconds"),
            },
            post_seconds=round(post_s, 2),
            total_seconds=round(total_s, 1),
            first_created_to_last_finished_s=round(graded_span, 1) if graded_span else None,
            throughput_per_min=round(result["graded"] / total_s * 60, 1),
            kill=killed,
            timeline=timeline[:: max(1, len(timeline) // 60)],
        )
        engine.dispose()
        log(
            json.dumps(
                {
                    k: result[k]
                    for k in ("graded", "exactly_once", "total_seconds", "throughput_per_min")
                }
            )
        )
        return result
    finally:
        _clean_up(procs, args)


def check_queue(
    engine: Any,
    expected: dict[int, tuple[str, str]],
    logs: list[Path],
    enqueued: int,
    post_errors: list[str],
) -> dict[str, Any]:
    from sqlalchemy import text

    with engine.connect() as c:
        rows = {
            int(r.id): r
            for r in c.execute(
                text("SELECT id, status, verdict, attempt, worker, result_json FROM submission")
            )
        }
    claimed: Counter[int] = Counter()
    recorded: Counter[int] = Counter()
    skipped: Counter[int] = Counter()
    superseded: Counter[int] = Counter()
    for lf in logs:
        for line in lf.read_text(errors="replace").splitlines():
            if m := CLAIMED.search(line):
                claimed[int(m.group(1))] += 1
            elif m := RECORDED.search(line):
                recorded[int(m.group(1))] += 1
            elif m := SKIPPED.search(line):
                skipped[int(m.group(1))] += 1
            elif m := SUPERSEDED.search(line):
                superseded[int(m.group(1))] += 1
    ids = set(expected)
    not_done = sorted(
        i for i in ids if rows.get(i) is None or rows[i].status != "done" or not rows[i].result_json
    )
    recorded_not_once = sorted(i for i in ids if recorded[i] != 1)
    wrong_verdict = sorted(i for i in ids if i in rows and rows[i].verdict != expected[i][1])
    attempts = Counter(int(rows[i].attempt) for i in ids if i in rows)
    log_lines_ok = bool(recorded) or not ids
    return {
        "enqueued": enqueued,
        "accepted_by_api": len(ids),
        "post_errors": len(post_errors),
        "post_errors_sample": post_errors[:5],
        "graded": sum(1 for i in ids if i in rows and rows[i].status == "done"),
        "lost": len(not_done),
        "lost_ids": not_done[:50],
        "recorded_exactly_once": len(ids) - len(recorded_not_once),
        "recorded_not_once_ids": {i: recorded[i] for i in recorded_not_once[:50]},
        "claims_total": sum(claimed[i] for i in ids),
        "attempt_distribution": dict(sorted(attempts.items())),
        "duplicate_deliveries_skipped": sum(skipped[i] for i in ids),
        "superseded_results_discarded": sum(superseded[i] for i in ids),
        "verdicts": dict(Counter(rows[i].verdict for i in ids if i in rows)),
        "verdict_mismatches": len(wrong_verdict),
        "verdict_mismatch_sample": [
            {"id": i, "source": expected[i][0], "expected": expected[i][1], "got": rows[i].verdict}
            for i in wrong_verdict[:10]
        ],
        "worker_log_lines_found": log_lines_ok,
        "exactly_once": not not_done
        and not recorded_not_once
        and len(ids) == enqueued
        and log_lines_ok,
    }


def _redis_version(args: argparse.Namespace) -> str:
    import redis

    return str(redis.Redis.from_url(redis_url(args)).info()["redis_version"])


# --- report ------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    import psutil

    cpu = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "versions": {
            d: _version(d)
            for d in (
                "fastapi",
                "starlette",
                "uvicorn",
                "sqlalchemy",
                "sqlmodel",
                "psycopg",
                "celery",
                "kombu",
                "redis",
                "jinja2",
                "locust",
                "triton",
                "torch",
            )
        },
    }


def write_report(out: Path, section: str, data: dict[str, Any], command: str) -> None:
    doc: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    doc["machine"] = machine()
    doc.setdefault(
        "targets",
        {
            "browse": "200 concurrent users browsing: p99 < 100 ms, no errors",
            "queue": "1 000 submissions enqueued at once: all graded exactly once, none lost",
        },
    )
    data["command"] = command
    data["measured_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    doc[section] = data
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, default=str) + "\n")
    out.with_name("README.md").write_text(markdown(doc))
    log(f"wrote {out} and {out.with_name('README.md')}")


def markdown(doc: dict[str, Any]) -> str:
    m = doc["machine"]
    v = m["versions"]
    lines = [
        f"# Web and queue under a class's load ({TODAY})",
        "",
        f"Machine: {m['cores']} cores ({m['cpu']}), {m['memory_gib']} GiB, no GPU; Python {m['python']}, "
        f"FastAPI {v['fastapi']}, uvicorn {v['uvicorn']}, SQLAlchemy {v['sqlalchemy']}, psycopg {v['psycopg']}, "
        f"Celery {v['celery']}, kombu {v['kombu']}, Locust {v['locust']}, Triton {v['triton']}, torch {v['torch']}. "
        "Produced by `benchmarks/web_load.py`; the raw figures are in the JSON beside this file.",
        "",
    ]
    b = doc.get("browse")
    if b:
        s = b["settings"]
        o, w, st = b["overall"], b["browsing_without_login"], b["steady_state"]
        lg = b["per_endpoint"].get("POST /login")
        met = st["p99_ms"] < 100 and w["p99_ms"] < 100 and o["errors"] == 0
        lines += [
            "## Browsing",
            "",
            f"`{b['command']}`",
            "",
            f"{s['users']} simulated learners (Locust FastHttpUser; {int(s['logged_in_share'] * 100)}% log in "
            f"through the form with their own account, the rest browse anonymously), spawned at "
            f"{s['spawn_rate_per_s']}/s (all in after {s['ramp_s']} s), {s['run_time_s']} s in all, think "
            f"time 1-3 s between requests; {s['learners']} learners and {s['finished_submissions']} "
            f"finished submissions seeded over {s['problems']} problems. Server: {s['server']}, "
            f"ENVIRONMENT=production, {s['database']}, Redis. **The load generator (one Locust "
            f"process) runs on the same 2 cores as the server and PostgreSQL.** CPU during the run: "
            f"server {b['cpu']['server_cores_used']} cores, PostgreSQL {b['cpu']['postgres_cores_used']} "
            f"cores, machine {b['cpu']['machine_busy_pct']}% busy.",
            "",
            "| | target | measured |",
            "|---|---|---|",
            f"| p99 browsing, steady state ({st['window_s']} s from {st['from_s_after_start']} s on: "
            f"all {s['users']} users in) | < 100 ms | **{st['p99_ms']} ms** |",
            f"| p99 browsing, whole run (ramp and every log-in included) | < 100 ms | **{w['p99_ms']} ms** |",
            f"| errors (every request, log-ins included) | 0 | **{o['errors']}** of {o['requests']} |",
            f"| browsing p50 / p95 / p99 / max, steady state | | {st['p50_ms']} / {st['p95_ms']} / "
            f"{st['p99_ms']} / {st['max_ms']} ms |",
            f"| browsing p50 / p95 / p99 / max, whole run | | {w['p50_ms']} / {w['p95_ms']} / "
            f"{w['p99_ms']} / {w['max_ms']} ms |",
            f"| everything incl. log-in requests, p50 / p95 / p99 | | {o['p50_ms']} / {o['p95_ms']} / "
            f"{o['p99_ms']} ms |",
            *(
                [
                    f"| log-in (`POST /login`, argon2) p50 / p99 / max | | {lg['p50_ms']} / "
                    f"{lg['p99_ms']} / {lg['max_ms']} ms ({lg['requests']} log-ins in the ramp) |"
                ]
                if lg
                else []
            ),
            f"| requests/s, steady state / whole run | | {st['rps']} / {o['rps']} |",
            f"| target | | **{'met' if met else 'not met'}** |",
            "",
            "Per endpoint (whole run; last column: p99 in the steady state):",
            "",
            "| endpoint | requests | errors | p50 ms | p95 ms | p99 ms | max ms | p99 steady |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        steady_ep = b.get("steady_state_per_endpoint", {})
        for name, e in b["per_endpoint"].items():
            p99s = steady_ep.get(name, {}).get("p99_ms", "")
            lines.append(
                f"| `{name}` | {e['requests']} | {e['errors']} | {e['p50_ms']} | {e['p95_ms']} | "
                f"{e['p99_ms']} | {e['max_ms']} | {p99s} |"
            )
        others = [k for k in doc if k.startswith("browse_")]
        if others:
            lines += [
                "",
                "Other runs of the same load (same script, `--section`):",
                "",
                "| run | server | errors | browsing p50 / p95 / p99, steady | browsing p99, whole run | req/s |",
                "|---|---|---:|---|---:|---:|",
            ]
            for k in ["browse", *others]:
                x = doc[k]
                xs = x["steady_state"]
                lines.append(
                    f"| {k} | {x['settings']['server']} | {x['overall']['errors']} | {xs['p50_ms']} / "
                    f"{xs['p95_ms']} / {xs['p99_ms']} ms | {x['browsing_without_login']['p99_ms']} ms | "
                    f"{x['overall']['rps']} |"
                )
        lines += ["", *BROWSE_NOTES, ""]
    q = doc.get("queue")
    if q:
        s = q["settings"]
        lines += [
            "## 1 000 submissions at once",
            "",
            f"`{q['command']}`",
            "",
            f"{s['count']} vector-add submissions (mix {s['mix']}: real Triton samples, graded under the "
            f"CPU interpreter in mode submit) posted at once through `POST /api/v1/submissions` by "
            f"{s['submitters']} learners with tokens ({s['post_concurrency']} in flight), "
            f"SUBMISSIONS_PER_MINUTE raised to {s['SUBMISSIONS_PER_MINUTE']} for the test; "
            f"{s['workers']} workers started as `{s['worker_command']}`; {s['broker']}, {s['database']}.",
            "",
            "| | target | measured |",
            "|---|---|---|",
            f"| accepted by the API | {s['count']} | {q['accepted_by_api']} ({q['post_errors']} errors, {q['post_seconds']} s to post all) |",
            f"| graded (final verdict in the database) | all | **{q['graded']}**, lost **{q['lost']}** |",
            f"| result recorded exactly once (workers' logs) | all | **{q['recorded_exactly_once']}** |",
            f"| verdict as the sample declares | | {q['accepted_by_api'] - q['verdict_mismatches']} of {q['accepted_by_api']} ({q['verdicts']}) |",
            f"| claims (attempts) | | {q['claims_total']}; attempt distribution {q['attempt_distribution']} |",
            f"| duplicate deliveries skipped / stale results discarded | | {q['duplicate_deliveries_skipped']} / {q['superseded_results_discarded']} |",
            f"| total time, first post to last verdict | | **{q['total_seconds']} s** ({round(q['total_seconds'] / 60, 1)} min) |",
            f"| throughput | | **{q['throughput_per_min']} submissions/min** |",
            f"| exactly once, none lost | yes | **{'yes' if q['exactly_once'] else 'NO'}** |",
            "",
        ]
        k = q.get("kill")
        if k:
            lines += [
                f"Worker 0 was killed ({k['signal']}) at {k['at_s']} s with {k['done_at_kill']} done, and "
                f"restarted at {k.get('restarted_at_s')} s. Running at the kill: {k['running_at_kill']}.",
                "",
            ]
        est = doc.get("queue_estimate_50")
        if est:
            lines += [
                f"Estimate first (`{est['command']}`): {est['graded']} graded in {est['total_seconds']} s, "
                f"exactly once: {'yes' if est['exactly_once'] else 'NO'}, attempts {est['attempt_distribution']}.",
                "",
            ]
        lines += [*QUEUE_NOTES, ""]
    return "\n".join(lines)


# --- CLI ---------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("part", choices=["browse", "queue", "flood"])
    ap.add_argument("--pg-admin-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--db-name", default="kd_load")
    ap.add_argument("--keep-db", action="store_true", help="do not drop the database at the end")
    ap.add_argument("--redis-host", default="127.0.0.1")
    ap.add_argument("--redis-port", type=int, default=6379)
    ap.add_argument("--redis-db", type=int, default=5)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--web-workers", type=int, default=2, help="web processes (serve --workers N)")
    ap.add_argument("--secret-key", default=secrets.token_urlsafe(48))
    ap.add_argument("--work-dir", default="/tmp/kd_web_load")
    ap.add_argument("--out", default=str(DEFAULT_OUT))
    ap.add_argument("--no-report", action="store_true", help="print, do not write --out")
    ap.add_argument("--section", default="", help="key in --out (default: the part's name)")
    # browse
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--spawn-rate", type=float, default=10)
    ap.add_argument("--run-time", type=int, default=80, help="seconds, the ramp included")
    ap.add_argument("--logged-in", type=float, default=0.7)
    ap.add_argument("--learners", type=int, default=200)
    ap.add_argument("--submissions", type=int, default=400, help="finished submissions to seed")
    ap.add_argument("--results-cache", default="/tmp/kd_web_load_seed_results.json")
    # flood (browse with bad log-ins in flight, issue 18.1)
    ap.add_argument(
        "--flood", type=int, default=None, help="bad log-ins kept in flight (flood: 150)"
    )
    ap.add_argument("--flood-from", choices=["one", "many"], default="many")
    # queue
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument(
        "--mix",
        default="accepted=0.5,wrong=0.5",
        help="shares of accepted / wrong / compile samples, e.g. accepted=0.4,wrong=0.4,compile=0.2",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--submitters", type=int, default=20)
    ap.add_argument(
        "--per-minute", type=int, default=100_000, help="SUBMISSIONS_PER_MINUTE for the test"
    )
    ap.add_argument("--concurrency", type=int, default=50)
    ap.add_argument(
        "--kill-at",
        type=float,
        default=0.5,
        help="kill worker 0 when this share is done (0: never)",
    )
    ap.add_argument("--restart-after", type=float, default=5)
    ap.add_argument("--timeout", type=float, default=3 * 3600)
    args = ap.parse_args()
    command = "python benchmarks/web_load.py " + " ".join(sys.argv[1:])
    if args.part == "flood":
        from web_load_report import write_flood_report  # beside this file

        args.flood = 150 if args.flood is None else args.flood
        res = browse(args)
        if args.no_report:
            print(json.dumps(res, indent=1, default=str))
        else:
            out = Path(args.out) if args.out != str(DEFAULT_OUT) else FLOOD_OUT
            write_flood_report(
                out, args.section or f"flood_{args.flood_from}", res, command, machine()
            )
        return
    res = browse(args) if args.part == "browse" else queue(args)
    if args.no_report:
        print(json.dumps(res, indent=1, default=str))
    else:
        write_report(Path(args.out), args.section or args.part, res, command)


if __name__ == "__main__":
    main()
