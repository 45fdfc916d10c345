"""The running stack for ``make compose-smoke`` (scripts/compose_smoke.py): health, a small API
client, the learner's flow, and restarts that check themselves.

Podman runs no health-check timers without systemd, so with Podman the checks are run here
(``podman healthcheck run``) while waiting. podman-compose restarts the services it is given
at once and exits 0 even when Podman refuses one ("some dependencies are not started"), so
each restart here is one service at a time, dependencies first, and is verified by the
container's start time.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "problems" / "vector-add" / "solutions"
ACCEPTED = SAMPLES / "accepted" / "triton_simple.py"
WRONG = SAMPLES / "rejected" / "wrong_answer_tail.py"
SERVICES = ("postgres", "redis", "web", "worker-cpu")


def containers(engine: str, project: str) -> dict[str, str]:
    """service name -> container id of this project."""
    r = subprocess.run(
        [
            engine,
            "ps",
            "-a",
            "--filter",
            f"label=com.docker.compose.project={project}",
            "--format",
            "{{.ID}} {{.Names}}",
        ],
        capture_output=True,
        text=True,
    )
    out: dict[str, str] = {}
    for line in r.stdout.splitlines():
        cid, name = line.split(maxsplit=1)
        for svc in SERVICES:
            if re.search(rf"[-_]{svc}[-_]\d+$", name):
                out[svc] = cid
    return out


# Orphans never reaped: processes that exited ("Z" in /proc/PID/stat) whose parent is PID 1. A
# sandbox's bwrap whose parent exits first is re-parented to the container's PID 1, which waits
# for it only if it is an init: Celery is not one, hence `init: true` for the workers. (A zombie
# whose parent still runs is that parent's to wait for, and is not counted.)
_ORPHANS = """import glob
n = 0
for f in glob.glob('/proc/[0-9]*/stat'):
    try:
        state, ppid = open(f).read().rpartition(')')[2].split()[:2]
    except (OSError, ValueError):
        continue
    n += state == 'Z' and ppid == '1'
print(open('/proc/1/comm').read().strip(), n)
"""


def pid1_and_orphans(engine: str, cid: str) -> tuple[str, int]:
    """The container's PID 1 (its command name) and how many zombies it has left unreaped."""
    argv = [engine, "exec", cid, "python3", "-c", _ORPHANS]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    name, _, n = r.stdout.strip().rpartition(" ")
    if r.returncode != 0 or not n.isdigit():
        raise RuntimeError(f"cannot count zombies in {cid}: {r.stderr[-300:]}")
    return name, int(n)


def inspect(engine: str, cid: str, fmt: str) -> str:
    r = subprocess.run([engine, "inspect", "-f", fmt, cid], capture_output=True, text=True)
    return r.stdout.strip()


def health(engine: str, cid: str) -> str:
    if engine == "podman":  # no systemd timers here: run the container's check ourselves
        r = subprocess.run([engine, "healthcheck", "run", cid], capture_output=True, text=True)
        return "healthy" if r.returncode == 0 else "unhealthy"
    return inspect(engine, cid, "{{.State.Health.Status}}")


def wait_healthy(engine: str, project: str, services: list[str], timeout: float = 600) -> str:
    start = time.monotonic()
    became: dict[str, float] = {}
    while time.monotonic() - start < timeout:
        ids = containers(engine, project)
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


def wait_status(api: Api, sid: int, want: str, timeout: float = 600) -> dict[str, Any]:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        _, sub = api.call("GET", f"/api/v1/submissions/{sid}")
        if sub.get("status") == want:
            return dict(sub)
        time.sleep(0.5)
    raise RuntimeError(f"submission {sid} not {want} in {timeout:.0f}s")


def wait_done(api: Api, sid: int, since: float, timeout: float = 600) -> tuple[str, float]:
    """The verdict, and the seconds from ``since`` (the submit) to seeing it done."""
    sub = wait_status(api, sid, "done", timeout)
    return str(sub.get("verdict")), time.monotonic() - since


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
    v_good, t_good = wait_done(api, good, t0)
    v_bad, t_bad = wait_done(api, bad, t0)
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
    state.update(good=good, bad=bad)
    return (
        f"#{good} {v_good} in {t_good:.1f}s, #{bad} {v_bad} in {t_bad:.1f}s (from submit); "
        f"leaderboard rank {board[0]['rank']} = smoke; admin {admin[0]!r} logs in, is_admin"
    )


def reaped(engine: str, project: str) -> str:
    """After the gradings so far: the worker's PID 1 is an init and has reaped every orphan."""
    name, n = pid1_and_orphans(engine, containers(engine, project)["worker-cpu"])
    if n:
        raise RuntimeError(f"{n} zombies left to PID 1 ({name}) in worker-cpu")
    return f"worker-cpu's PID 1 is {name}; no zombie left to it by the gradings"


def _restart_one(rec: Any, engine: str, compose: list[str], env: dict[str, str], svc: str) -> str:
    project = compose[compose.index("-p") + 1]
    cid = containers(engine, project)[svc]
    before = inspect(engine, cid, "{{.State.StartedAt}}")
    rec.sh([*compose, "restart", svc], env=env)
    cid = containers(engine, project)[svc]
    after = inspect(engine, cid, "{{.State.StartedAt}}")
    if after == before:
        raise RuntimeError(f"{svc} was not restarted (start time still {before})")
    return wait_healthy(engine, project, [svc], timeout=300)


def earlier_intact(api: Api, state: dict[str, Any]) -> None:
    for key, want in (("good", "accepted"), ("bad", "wrong_answer")):
        _, sub = api.call("GET", f"/api/v1/submissions/{state[key]}")
        if sub.get("verdict") != want:
            raise RuntimeError(f"#{state[key]} lost its verdict: {sub.get('verdict')}")


def restart_flow(
    rec: Any, engine: str, compose: list[str], env: dict[str, str], api: Api, state: dict[str, Any]
) -> str:
    """Redis, then the worker (which depends on it), each verified by its start time, with a
    submission in flight; it still gets its verdict and nothing earlier is lost."""
    t0 = time.monotonic()
    sid = submit(api, ACCEPTED)
    time.sleep(1.0)
    _, sub = api.call("GET", f"/api/v1/submissions/{sid}")
    done = [
        f"{svc}: {_restart_one(rec, engine, compose, env, svc)}" for svc in ("redis", "worker-cpu")
    ]
    verdict, took = wait_done(api, sid, t0)
    if verdict != "accepted":
        raise RuntimeError(f"after restart: #{sid} {verdict}")
    earlier_intact(api, state)
    return (
        f"#{sid} {sub.get('status')} when restarted, start times changed ({'; '.join(done)}); "
        f"#{sid} {verdict} {took:.1f}s after submit; earlier verdicts intact"
    )


def kill_flow(
    rec: Any, engine: str, compose: list[str], env: dict[str, str], api: Api, state: dict[str, Any]
) -> str:
    """SIGKILL the worker while it grades: the submission is re-delivered and gets exactly one
    result (the claim that is current records it; the board lists it once)."""
    project = compose[compose.index("-p") + 1]
    t0 = time.monotonic()
    sid = submit(api, ACCEPTED)
    running = wait_status(api, sid, "running", timeout=300)
    cid = containers(engine, project)["worker-cpu"]
    before = inspect(engine, cid, "{{.State.StartedAt}}")
    rec.sh([engine, "kill", "-s", "KILL", cid])
    # The restart policy brings it back where the engine runs it; else start it as an admin would.
    time.sleep(5)
    how = "restart policy"
    if inspect(engine, cid, "{{.State.Running}}") != "true":
        rec.sh([*compose, "start", "worker-cpu"], env=env)
        how = "compose start"
    after = inspect(engine, cid, "{{.State.StartedAt}}")
    if after == before:
        raise RuntimeError("the worker did not start again after SIGKILL")
    healthy = wait_healthy(engine, project, ["worker-cpu"], timeout=300)
    verdict, took = wait_done(api, sid, t0)
    first = dict(api.call("GET", f"/api/v1/submissions/{sid}")[1])
    time.sleep(10)  # a second grading would record again: it must not
    again = dict(api.call("GET", f"/api/v1/submissions/{sid}")[1])
    keys = ("verdict", "finished_at", "attempt", "status")
    if any(first.get(k) != again.get(k) for k in keys) or verdict != "accepted":
        raise RuntimeError(f"#{sid} changed after done: {first} -> {again}")
    _, board = api.call("GET", "/api/v1/leaderboard/vector-add?gpu=cpu")
    _, mine = api.call("GET", "/api/v1/submissions?problem=vector-add")
    listed = [s for s in mine if isinstance(s, dict) and s.get("id") == sid]
    if len(listed) > 1:
        raise RuntimeError(f"#{sid} listed {len(listed)} times")
    earlier_intact(api, state)
    return (
        f"#{sid} killed while {running['status']} (attempt {running['attempt']}); back by {how} "
        f"({healthy}); #{sid} {verdict} {took:.1f}s after submit, attempt {again['attempt']}, "
        f"unchanged 10 s later; board entries {len(board)}; earlier verdicts intact"
    )
