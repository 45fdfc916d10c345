"""What the workers report about themselves: each one's environment and self-test (one
``WorkerReport`` row per worker, written by worker/selftest.py as its self-test runs), and what
the app derives from them: which languages each GPU kind can grade right now.

A language is unavailable on a GPU kind when every *live* worker of that kind reports it
``unavailable`` (its known-good sample failed there: judge/doctor.py). A language still being
tested, untested, or absent from a report counts as available, and so does every language of a
kind with no live worker: no report, an old one (its worker stopped or vanished: not seen for
``LIVE_S``) must never block a language. With a mixed fleet (one worker of a kind has Numba,
another does not), Numba is available, and a submission that reaches the worker without it is
answered "not available" by that worker (worker/tasks.py); it is not routed to the other.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.models import WorkerReport, utcnow
from judge import languages

# A worker touches its row every SEEN_EVERY_S while it runs; one not seen for LIVE_S is gone.
SEEN_EVERY_S = 300.0
LIVE_S = 3600.0
UNAVAILABLE = "unavailable"
TESTING = "testing"
UNTESTED = "untested"


def start(engine: Engine, name: str, gpu_kind: str, names: Iterable[str]) -> None:
    """A worker's row at its start: every language ``testing``, the old report replaced."""
    now = utcnow()
    statuses = {n: {"name": n, "status": TESTING} for n in names}
    with Session(engine) as s:
        row = s.get(WorkerReport, name) or WorkerReport(name=name, gpu_kind=gpu_kind)
        row.gpu_kind = gpu_kind
        row.environment_json = "{}"
        row.languages_json = json.dumps(statuses)
        row.started_at = row.seen_at = now
        row.checked_at = None
        s.add(row)
        s.commit()


def _update(engine: Engine, name: str, **changes: Any) -> None:
    with Session(engine) as s:
        row = s.get(WorkerReport, name)
        if row is None:
            return
        if "language" in changes:
            status = changes.pop("language")
            langs = row.languages
            langs[status["name"]] = status
            row.languages_json = json.dumps(langs)
        for k, v in changes.items():
            setattr(row, k, v)
        row.seen_at = utcnow()
        s.add(row)
        s.commit()


def save_environment(engine: Engine, name: str, environment: dict[str, Any]) -> None:
    _update(engine, name, environment_json=json.dumps(environment))


def save_language(engine: Engine, name: str, status: dict[str, Any]) -> None:
    """One language's result (judge/doctor.py's ``LanguageStatus.to_dict()``)."""
    _update(engine, name, language=status)


def finish(engine: Engine, name: str, stopped: str = "") -> None:
    """The self-test ended; ``stopped``: why it ended early (a language it did not reach stays
    available, ``untested`` with that reason)."""
    with Session(engine) as s:
        row = s.get(WorkerReport, name)
        if row is None:
            return
        langs = row.languages
        for status in langs.values():
            if status.get("status") == TESTING:
                status.update(status=UNTESTED, error=stopped or "the self-test did not reach it")
        row.languages_json = json.dumps(langs)
        row.checked_at = row.seen_at = utcnow()
        s.add(row)
        s.commit()


def touch(engine: Engine, name: str) -> None:
    _update(engine, name)


def own(engine: Engine, name: str) -> WorkerReport | None:
    """A worker's own row (its grading process reads its self-test from it)."""
    with Session(engine) as s:
        return s.get(WorkerReport, name)


def is_live(row: WorkerReport, now: datetime | None = None) -> bool:
    seen = row.seen_at if row.seen_at.tzinfo else row.seen_at.replace(tzinfo=UTC)
    return (now or utcnow()) - seen < timedelta(seconds=LIVE_S)


def reports(session: Session) -> list[WorkerReport]:
    """Every worker's row, by GPU kind and name (the admin page)."""
    return list(
        session.exec(
            select(WorkerReport).order_by(col(WorkerReport.gpu_kind), col(WorkerReport.name))
        ).all()
    )


def unavailable(session: Session, gpu_kinds: Iterable[str]) -> dict[str, dict[str, str]]:
    """Per GPU kind: the languages no live worker of it can grade, each with the reason (the
    first worker's error)."""
    kinds = list(gpu_kinds)
    now = utcnow()
    live: dict[str, list[WorkerReport]] = {k: [] for k in kinds}
    for row in session.exec(
        select(WorkerReport).where(col(WorkerReport.gpu_kind).in_(kinds))
    ).all():
        if is_live(row, now):
            live[row.gpu_kind].append(row)
    out: dict[str, dict[str, str]] = {k: {} for k in kinds}
    for kind, rows in live.items():
        if not rows:
            continue
        statuses = [row.languages for row in rows]
        for lang in languages.all():
            mine = [s.get(lang.name) or {} for s in statuses]
            if all(m.get("status") == UNAVAILABLE for m in mine):
                out[kind][lang.name] = str(mine[0].get("error") or "its self-test failed")
    return out


def reason(session: Session, language: str, gpu_kind: str) -> str | None:
    """Why ``language`` cannot be graded on ``gpu_kind`` now, or None when it can."""
    return unavailable(session, [gpu_kind])[gpu_kind].get(language)


def availability(session: Session, gpu_kinds: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Per language, per GPU kind: ``{"available": bool, "reason": str}`` (API and editor)."""
    kinds = list(gpu_kinds)
    missing = unavailable(session, kinds)
    return {
        lang.name: {
            k: {"available": lang.name not in missing[k], "reason": missing[k].get(lang.name, "")}
            for k in kinds
        }
        for lang in languages.all()
    }


def view(row: WorkerReport, now: datetime | None = None) -> dict[str, Any]:
    """A report as the admin page and the admin API show it: its languages in menu order."""
    langs = row.languages
    order = [lang.name for lang in languages.all() if lang.name in langs]
    order += sorted(set(langs) - set(order))  # a language this server no longer has
    shown = []
    for name in order:
        lang = languages.get(name)
        shown.append({"label": lang.label if lang else name, **langs[name]})
    return {
        "name": row.name,
        "gpu_kind": row.gpu_kind,
        "live": is_live(row, now),
        "testing": row.checked_at is None,
        "started_at": row.started_at,
        "checked_at": row.checked_at,
        "seen_at": row.seen_at,
        "environment": row.environment,
        "languages": shown,
    }
