"""The playground task: load a playground run by id, run its one case (judge/playground.py)
with the grading worker's warm runner, save the result. Thin, as worker/tasks.py is."""

from __future__ import annotations

import contextlib
import logging
import math
from typing import Any

from celery import Task
from sqlmodel import Session

from app import playground
from app.models import PlaygroundRun
from app.queue import celery
from worker import tasks

log = logging.getLogger(__name__)


@celery.task(name=playground.TASK_NAME, bind=True, acks_late=True)  # type: ignore[untyped-decorator]
def run_playground(self: Task, run_id: int) -> None:
    run(run_id)


def run(run_id: int) -> bool:
    """Run one playground run if it can be claimed; True when this call recorded its result."""
    eng = tasks.engine()
    if not playground.claim(eng, run_id):
        log.info("playground %s: already claimed or gone; skipping", run_id)
        return False
    with Session(eng) as s:
        row = s.get(PlaygroundRun, run_id)
        assert row is not None
        slug, source, language, kind, req = (
            row.problem,
            row.source,
            row.language,
            row.gpu_kind,
            row.request,
        )

    def progress(event: dict[str, Any]) -> None:
        try:
            playground.report_progress(eng, run_id, event)
        except Exception:  # only the live view: never the run's end
            log.warning("playground %s: progress not written", run_id)

    from judge import playground as judge_playground
    from judge.problem.loader import resolve

    device = tasks._device(kind)
    pool = tasks._pool if tasks._pool is not None and tasks._pool.device == device else None
    gate = tasks._gate.grading() if tasks._gate is not None else contextlib.nullcontext()
    try:
        with gate:
            result = judge_playground.run(
                resolve(slug),
                source,
                language,
                req.get("params", {}),
                int(req.get("seed", 0)),
                req.get("literals") or None,
                device=device,
                on_progress=progress,
                pool=pool,
            )
    except judge_playground.PlaygroundError as e:
        result = {"verdict": "rejected", "message": str(e), "cases": [], "stdout": ""}
    except Exception as e:
        log.exception("playground %s failed", run_id)
        result = {"verdict": "internal_error", "message": tasks.JUDGE_FAILED, "cases": []}
        result["internal"] = f"{type(e).__name__}"
    playground.record(eng, run_id, _finite(result))
    log.info("playground %s: %s", run_id, result.get("verdict"))
    return True


def _finite(v: Any) -> Any:
    """JSON that browsers parse: a NaN or an infinity (a max error) as text."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v
