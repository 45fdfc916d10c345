"""The grading task: load the submission by id, call the judge core, save the result.

Thin on purpose. The judge core (torch, triton) is imported inside the task only, so that
importing this module (and the Celery app) stays cheap and torch-free in the web process.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from celery import Task
from celery.signals import worker_process_init, worker_process_shutdown, worker_ready
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app import submissions, unavailable
from app.core.config import get_settings
from app.core.db import make_engine
from app.models import Submission
from app.queue import TASK_NAME, celery, enqueue
from worker import selftest  # its signal handlers: the self-test at the worker's start

log = logging.getLogger(__name__)
PROGRESS_RETRY_S = (0.05, 0.2)
RECORD_RETRY_S = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
JUDGE_FAILED = (
    "The judge failed on its side, not because of your code. "
    "An instructor can see why and rejudge it."
)


@lru_cache
def engine() -> Engine:
    return make_engine(get_settings().database_url)


@celery.task(name=TASK_NAME, bind=True, acks_late=True, reject_on_worker_lost=True)  # type: ignore[untyped-decorator]
def grade_submission(self: Task, sub_id: int) -> None:
    # The grading process's pid names the claim, so that a sibling can tell it died.
    run(sub_id, worker=claimant(self.request.hostname or "worker"))


def claimant(hostname: str) -> str:
    """``<worker's name>/<pid>.<where>``: the grading process, and the machine and pid namespace
    its pid belongs to (``here``), so that a claim is never judged by a pid of another machine."""
    return f"{hostname}/{os.getpid()}.{here()}"


@lru_cache
def here() -> str:
    """This boot of this machine and this pid namespace, in ten hex digits.

    Two worker hosts given the same name (a copied compose file, a cloned VM: the name is meant
    to be unique, docs/deploy-multihost.md) would otherwise take each other's live claims for dead
    whenever a pid of one was free on the other. The kernel's boot id differs between machines
    and boots; a container's pid namespace differs between containers of one machine. Where
    neither can be read (no /proc) the tag is the same everywhere, and the names alone decide,
    as before."""
    parts = []
    try:
        parts.append(Path("/proc/sys/kernel/random/boot_id").read_text().strip())
    except OSError:
        parts.append("-")
    try:
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    except OSError:
        parts.append("-")
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:10]


def run(sub_id: int, worker: str) -> bool:
    """Grade one submission if it can be claimed; True when this call recorded its result."""
    settings = get_settings()
    eng = engine()
    attempt = submissions.claim(
        eng,
        sub_id,
        worker,
        stale_s=settings.STUCK_AFTER_S,
        takeover=_dead_claimer(eng, sub_id, worker),
    )
    if attempt is None:
        log.info("submission %s: already claimed or done; skipping", sub_id)
        return False
    log.info("submission %s: claimed (attempt %d) by %s", sub_id, attempt, worker)
    with Session(eng) as s:
        sub = s.get(Submission, sub_id)
        assert sub is not None
        slug, source, language, mode, kind = (
            sub.problem,
            sub.source,
            sub.language,
            sub.mode,
            sub.gpu_kind,
        )

    hostname = worker.rpartition("/")[0]
    stop = threading.Event()
    beat = threading.Thread(target=_heartbeat, args=(eng, sub_id, attempt, stop), daemon=True)
    beat.start()
    t0 = time.monotonic()
    try:
        why = _unavailable_here(eng, hostname, language)
        if why is not None:  # this worker's self-test: the language is broken here, not the code
            log.warning(
                "submission %s: %s is unavailable on this worker: %s", sub_id, language, why
            )
            result = unavailable.result(slug, language, kind, why)
        else:
            if _device(kind) == "cuda" and mode != "run":  # timed: not beside the self-test
                selftest.wait_for_self_test(eng, hostname)
            result = _grade(
                slug, source, language, mode, kind, lambda ev: _progress(eng, sub_id, attempt, ev)
            )
    finally:
        stop.set()
    ok = _record(eng, sub_id, attempt, result)
    if ok:
        log.info("submission %s: %s in %.1fs", sub_id, result.get("verdict"), time.monotonic() - t0)
    else:
        log.warning("submission %s: attempt %d was superseded; result discarded", sub_id, attempt)
    return ok


def _unavailable_here(eng: Engine, hostname: str, language: str) -> str | None:
    """Why this worker's self-test found ``language`` unavailable; None when it did not (or its
    report cannot be read: grading then goes ahead)."""
    try:
        return selftest.unavailable_here(eng, hostname, language)
    except Exception:
        log.exception("the worker's self-test report could not be read; grading")
        return None


def _dead_claimer(eng: Engine, sub_id: int, me: str) -> str | None:
    """The claim on this row if it was made by a grading process of this worker that is gone.

    When a grading process is killed (out of memory, a crash), Celery's parent process
    re-delivers its task at once (``reject_on_worker_lost``) to a new grading process, which
    used to find the row ``running`` with a fresh heartbeat and skip it: the learner waited
    STUCK_AFTER_S for the sweeper. A claim named ``<this worker>/<pid>.<here>`` whose pid is no
    longer a live process (gone, or a zombie not yet reaped) can be taken over at once. A claim
    made on another machine or in another pid namespace (another ``here``), or in the form
    without one (before it existed), is left to the sweeper: its pid says nothing here.
    """
    with Session(eng) as s:
        sub = s.get(Submission, sub_id)
        holder = sub.worker if sub is not None and sub.status == "running" else None
    if not holder or holder == me:
        return None
    host, _, proc = holder.rpartition("/")
    pid, _, where = proc.partition(".")
    if host != me.rpartition("/")[0] or where != here() or not pid.isdigit():
        return None
    return holder if not _alive(int(pid)) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return True  # no /proc: trust kill()


_pool: Any = None  # a warm runner (torch already imported) for the next submission
_gate: Any = None  # warm-up and learners' gradings take turns (warmup.Gate)


def _device(kind: str) -> str:
    return "cpu" if kind == "cpu" else "cuda"


@worker_process_init.connect  # type: ignore[untyped-decorator]
def _start_pool(**_: Any) -> None:
    """Start a runner ahead of the first submission, so the learner does not wait for torch."""
    global _pool, _gate
    try:
        from judge import warmup
        from judge.sandbox.runner_client import RunnerPool

        _gate = warmup.Gate()
        _pool = RunnerPool(_device(os.environ.get("KERNELDOJO_GPU_KIND", "cpu")))
        _pool.warm(now=True)  # nothing is being timed yet
        if _pool.device == "cuda":  # runners started under ncu and memcheck (profile/spare.py)
            from judge.build import bytecode
            from judge.profile import spare

            bytecode.warn_if_missing()
            spare.replenish(_pool, spare.kept_tools())
        if _pool.device == "cuda" and warmup.enabled():
            warmup.start(_warm_one, _gate)  # every problem's first grading, before learners'
    except Exception:
        log.exception("could not start a warm runner; grading starts runners on demand")


def _warm_one(problem: Any, source: str) -> str:
    from judge.grader import grade

    return str(grade(problem, source, "triton", device="cuda", mode="submit", pool=_pool).verdict)


@worker_process_shutdown.connect  # type: ignore[untyped-decorator]
def _stop_pool(**_: Any) -> None:
    if _pool is not None:
        _pool.close()


def _grade(
    slug: str, source: str, language: str, mode: str, kind: str, on_progress: Any
) -> dict[str, Any]:
    try:
        from judge.grader import grade
        from judge.problem.loader import resolve

        problem = resolve(slug)
        device = _device(kind)
        pool = _pool if _pool is not None and _pool.device == device else None
        with _gate.grading() if _gate is not None else contextlib.nullcontext():
            result = grade(
                problem,
                source,
                language,
                device=device,
                mode=mode,
                on_progress=on_progress,
                pool=pool,
                report_dir=profile_dir(),
            )
        return dict(result.to_dict())
    except Exception as e:  # the judge core failed, not the submission: say so, keep serving
        log.exception("grading failed")
        return {
            "verdict": "internal_error",
            "problem": slug,
            "language": language,
            "device": kind,
            # Learners read this; the exception (a driver's message, a path) is for admins.
            "message": JUDGE_FAILED,
            "learner_message": JUDGE_FAILED,
            "internal": f"the judge failed: {type(e).__name__}: {e}",
            "cases": [],
            "benchmark": [],
            "score_ms": None,
        }


def profile_dir() -> Path:
    """Where profile reports are kept: the data folder, which the web app reads them from."""
    return (get_settings().DATA_DIR / "profiles").resolve()


def _progress(eng: Engine, sub_id: int, attempt: int, event: dict[str, Any]) -> None:
    """Best effort: a progress write that fails is retried briefly, then skipped.

    Progress only feeds the live view; a dropped database connection here used to escape
    into the grader and end the submission as a permanent internal_error.
    """
    for delay in (*PROGRESS_RETRY_S, None):
        try:
            if not submissions.report_progress(eng, sub_id, attempt, dict(event)):
                log.warning("submission %s: attempt %d no longer current", sub_id, attempt)
            return
        except Exception as e:
            if delay is None:
                log.warning("submission %s: progress not written (%s); skipped", sub_id, e)
                return
            time.sleep(delay)


def _record(eng: Engine, sub_id: int, attempt: int, result: dict[str, Any]) -> bool:
    """The result must be written: retried with back-off over ~15 s (a database restart).

    If it still fails, the row stays ``running`` and the sweeper re-queues it once its
    heartbeat is stale (a try counted towards the retry cap, app/retries.py).
    """
    for delay in (*RECORD_RETRY_S, None):
        try:
            return submissions.record(eng, sub_id, attempt, result)
        except Exception as e:
            if delay is None:
                log.error("submission %s: result not written (%s); left to the sweeper", sub_id, e)
                return False
            log.warning("submission %s: result write failed (%s); retrying", sub_id, e)
            time.sleep(delay)
    return False


def _heartbeat(eng: Engine, sub_id: int, attempt: int, stop: threading.Event) -> None:
    """Keep the claim fresh during long phases (compile, benchmark) between progress events."""
    from sqlalchemy import update

    from app.models import Status, utcnow

    t = Submission.__table__  # type: ignore[attr-defined]
    # Several beats within STUCK_AFTER_S, so that a live worker never looks stale.
    every = max(0.5, min(5.0, get_settings().STUCK_AFTER_S / 4))
    while not stop.wait(every):
        try:
            with eng.begin() as conn:
                conn.execute(
                    update(t)
                    .where(t.c.id == sub_id, t.c.attempt == attempt, t.c.status == Status.RUNNING)
                    .values(heartbeat_at=utcnow())
                )
        except Exception:
            log.exception("submission %s: heartbeat failed", sub_id)


@worker_ready.connect  # type: ignore[untyped-decorator]
def _sweep_at_startup(**_: Any) -> None:
    """A worker that starts re-queues what a dead one left behind."""
    try:
        s = get_settings()
        submissions.sweep(engine(), s.STUCK_AFTER_S, enqueue, s.RESEND_QUEUED_AFTER_S)
    except Exception:
        log.exception("startup sweep failed")
