"""A worker's self-test when it starts (judge/doctor.py), stored where the web app reads it.

On ``worker_ready`` (a separate worker, and the one ``kerneldojo serve`` starts alongside), the
Celery main process starts a background thread that runs ``python -m judge.cli doctor --stream``
and stores each line it prints in the worker's ``WorkerReport`` row (app/workers.py): the
environment first, then each language as its known-good sample is graded. The worker takes
submissions at once; a language not tested yet counts as available. The self-test is a child
process, at a lower CPU priority, because its gradings create a CUDA context on a GPU host, which
must never exist in the process that forks the grading processes. After it, the thread marks the
row seen every ``SEEN_EVERY_S``, so that the app can tell a live worker from a gone one.

A grading process reads the row before grading (worker/tasks.py): a language its own worker's
self-test found unavailable is answered "not available" instead of being graded (the learner
would be told their code failed); and on a GPU, a timed grading waits (at most
``WAIT_FOR_SELF_TEST_S``) for a self-test still running, which would share the GPU with it.

``KERNELDOJO_SELF_TEST``: ``1`` (the default) tests every language, ``0`` none (the tests whose
subject is not the self-test), or a comma-separated list of the languages to test.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, timedelta
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from sqlalchemy.engine import Engine

from app import workers
from app.core.config import get_settings
from app.core.db import make_engine
from app.models import utcnow
from judge import languages

log = logging.getLogger(__name__)

ENV = "KERNELDOJO_SELF_TEST"
NICE = 10  # learners' gradings first on the CPU
WAIT_FOR_SELF_TEST_S = 120.0
RECENT_START_S = 600.0  # a row still "testing" after this long is a worker that died mid-test

_proc: subprocess.Popen[str] | None = None
_stopping = threading.Event()


def chosen() -> list[str] | None:
    """The languages to test (``KERNELDOJO_SELF_TEST``), None for none; unknown names are left
    out with a warning."""
    raw = os.environ.get(ENV, "1").strip().lower()
    if raw in ("0", "false", "no", "off"):
        return None
    if raw in ("", "1", "true", "yes", "on", "all"):
        return list(languages.names())
    names = [n.strip() for n in raw.split(",") if n.strip()]
    unknown = [n for n in names if languages.get(n) is None]
    if unknown:
        log.warning("%s: no such languages %s; testing the others", ENV, ", ".join(unknown))
    return [n for n in names if languages.get(n) is not None]


def command(kind: str, names: list[str]) -> list[str]:
    device = "cpu" if kind == "cpu" else "cuda"
    argv = [sys.executable, "-m", "judge.cli", "doctor", "--stream", "--device", device]
    for n in names:
        argv += ["--language", n]
    return argv


@worker_ready.connect  # type: ignore[untyped-decorator]
def _start(sender: Any = None, **_: Any) -> None:
    names = chosen()
    if names is None:
        return
    name = str(getattr(sender, "hostname", None) or "worker")
    kind = os.environ.get("KERNELDOJO_GPU_KIND", "cpu")
    try:
        engine = make_engine(get_settings().database_url)
        workers.start(engine, name, kind, names)
    except Exception:
        log.exception("self-test: the worker's report could not be stored; not run")
        return
    threading.Thread(
        target=run, args=(engine, name, kind, names), name="kerneldojo-selftest", daemon=True
    ).start()


@worker_shutdown.connect  # type: ignore[untyped-decorator]
def _stop(**_: Any) -> None:
    _stopping.set()
    proc = _proc
    if proc is not None and proc.poll() is None:
        proc.kill()


def run(engine: Engine, name: str, kind: str, names: list[str]) -> None:
    """The self-test, its lines stored as they come; then the worker's liveness, until it stops."""
    global _proc
    t0 = time.monotonic()
    done = False
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors:
        try:
            _proc = proc = subprocess.Popen(
                command(kind, names), stdout=subprocess.PIPE, stderr=errors, text=True
            )
        except OSError as e:
            _store(workers.finish, engine, name, f"the self-test could not start: {e}")
            return
        # After the start (no preexec_fn in a process with threads); its runners inherit it.
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, proc.pid, NICE)
        assert proc.stdout is not None
        for line in proc.stdout:
            done = _line(engine, name, line) or done
        proc.wait()
        if _stopping.is_set():
            return
        if not done:
            errors.seek(0)
            tail = [x for x in errors.read().splitlines() if x.strip()][-1:]
            why = f"the self-test stopped (exit {proc.returncode}): {' '.join(tail)}".strip()
            log.warning("self-test of %s: %s", name, why)
            _store(workers.finish, engine, name, why)
    log.info("self-test of %s done in %.1f s", name, time.monotonic() - t0)
    while not _stopping.wait(workers.SEEN_EVERY_S):
        _store(workers.touch, engine, name)


def _line(engine: Engine, name: str, line: str) -> bool:
    """Store one line of ``doctor --stream``; True for its last (``done``)."""
    try:
        msg = json.loads(line) if line.startswith("{") else None
    except ValueError:
        msg = None
    if not isinstance(msg, dict):
        return False  # a library's own print: not ours
    if "environment" in msg:
        _store(workers.save_environment, engine, name, msg["environment"])
    elif "language" in msg:
        status = msg["language"]
        _store(workers.save_language, engine, name, status)
        level = logging.WARNING if status.get("status") == workers.UNAVAILABLE else logging.INFO
        log.log(
            level,
            "self-test: %s %s (%s, %.1f s)%s",
            status.get("label") or status.get("name"),
            status.get("status"),
            status.get("verdict") or "not graded",
            float(status.get("seconds") or 0.0),
            f": {status['error']}" if status.get("error") else "",
        )
    elif "done" in msg:
        _store(workers.finish, engine, name)
        return True
    return False


def _store(write: Any, *args: Any) -> None:
    try:
        write(*args)
    except Exception as e:  # the database away for a moment: the next line tries again
        log.warning("self-test: the report was not stored (%s)", e)


# --- in the grading process ---------------------------------------------------------------


def unavailable_here(engine: Engine, hostname: str, language: str) -> str | None:
    """Why this worker's own self-test found ``language`` unavailable, or None."""
    row = workers.own(engine, hostname)
    status = (row.languages if row is not None else {}).get(language) or {}
    if status.get("status") != workers.UNAVAILABLE:
        return None
    return str(status.get("error") or "its self-test failed")


def wait_for_self_test(
    engine: Engine, hostname: str, limit_s: float = WAIT_FOR_SELF_TEST_S
) -> None:
    """Wait while this worker's self-test (just started) still grades on its GPU."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        row = workers.own(engine, hostname)
        if row is None or row.checked_at is not None:
            return
        started = row.started_at.replace(tzinfo=row.started_at.tzinfo or UTC)
        if utcnow() - started > timedelta(seconds=RECENT_START_S):
            return
        time.sleep(0.5)
