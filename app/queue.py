"""The web's side of the queue: the Celery app, the task's name, priorities, and ``enqueue``.

Redis when ``REDIS_URL`` is set, else kombu's filesystem transport in ``var/``.

Only submission ids travel through the queue; one queue per GPU kind (``h100``, ``cpu``, ...).
Tasks are acknowledged late and rejected (re-queued) when their worker process dies, so a
crash never loses a submission; the database guards against grading one twice.
"""

from __future__ import annotations

from typing import Any, Protocol

from celery import Celery

from app.core.config import Settings, get_settings

# The task itself (worker/tasks.py) is registered by name: the web never imports the worker.
TASK_NAME = "kerneldojo.grade"
# Message priorities on Redis (0 first): kombu keeps one Redis list per step and reads them in
# order. Run and Submit before Profile and Sanitize on one GPU's queue; and a submission the
# sweeper sends again because its worker died (or its message was lost) ahead of its kind's new
# ones: its learner has waited once already. A rejudge (an admin's, maybe of a whole problem)
# is new work and waits its turn. The embedded filesystem broker has no priorities: there jobs
# run in the order they came.
PRIORITY_REQUEUED = 0
PRIORITY_GRADING = 3
PRIORITY_TOOLS_REQUEUED = 6
PRIORITY_TOOLS = 9
TOOL_MODES = ("profile", "sanitize")


class Enqueue(Protocol):
    """What the app calls to queue a stored submission: (submission id, GPU kind, mode), and
    ``requeued`` for a submission sent again after its worker died (the sweeper). Tests pass
    their own; the app's default is ``enqueue`` below."""

    def __call__(self, sub_id: int, gpu_kind: str, mode: str, requeued: bool = False) -> None: ...


def make_celery(settings: Settings) -> Celery:
    opts: dict[str, Any] = {}
    if settings.REDIS_URL:
        opts["visibility_timeout"] = settings.BROKER_VISIBILITY_TIMEOUT_S
        opts["priority_steps"] = [
            PRIORITY_REQUEUED,
            PRIORITY_GRADING,
            PRIORITY_TOOLS_REQUEUED,
            PRIORITY_TOOLS,
        ]
        opts["queue_order_strategy"] = "priority"
        if settings.REDIS_PREFIX:
            opts["global_keyprefix"] = settings.REDIS_PREFIX
    else:
        folder = settings.broker_folder
        for sub in ("queue", "processed", "control"):
            (folder / sub).mkdir(parents=True, exist_ok=True)
        opts.update(
            data_folder_in=str(folder / "queue"),
            data_folder_out=str(folder / "queue"),
            processed_folder=str(folder / "processed"),
            store_processed=False,
            control_folder=str(folder / "control"),
            polling_interval=0.2,
        )
    app = Celery(
        "kerneldojo", broker=settings.broker_url, include=["worker.tasks", "worker.playground"]
    )
    app.conf.update(
        broker_transport_options=opts,
        broker_connection_retry_on_startup=True,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        worker_prefetch_multiplier=1,
        # One grading at a time per worker: a GPU is timed by one kernel at a time.
        worker_concurrency=1,
        worker_hijack_root_logger=False,
        task_default_queue="cpu",
    )
    return app


celery = make_celery(get_settings())


def priority(mode: str, requeued: bool = False) -> int:
    """Profile and sanitize jobs after Run and Submit on the same queue; within each, a
    re-queued submission before new ones."""
    if mode in TOOL_MODES:
        return PRIORITY_TOOLS_REQUEUED if requeued else PRIORITY_TOOLS
    return PRIORITY_REQUEUED if requeued else PRIORITY_GRADING


def send_to(app: Celery, sub_id: int, gpu_kind: str, mode: str, requeued: bool = False) -> None:
    """Put a submission's id on its GPU kind's queue of ``app``'s broker, at its priority."""
    app.send_task(TASK_NAME, args=[sub_id], queue=gpu_kind, priority=priority(mode, requeued))


def enqueue(sub_id: int, gpu_kind: str, mode: str, requeued: bool = False) -> None:
    """Put a submission's id on its GPU kind's queue, at its priority."""
    send_to(celery, sub_id, gpu_kind, mode, requeued)
