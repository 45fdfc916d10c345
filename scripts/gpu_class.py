"""``scripts/gpu_check.py --phase class``: class mode's speed grading end to end on a GPU host,
without a broker or a web server.

In a fresh SQLite database (migrated as ``kerneldojo`` migrates it), an instructor makes a class
on this host's GPU kind and two assignments: "Speed" (vector-add and softmax, speed rule) and
"Late" (vector-add, correctness, already past due, late work at half points). The editorial runs
are requested through ``app.classes.editorial.request``; two students submit through
``app.submissions`` (student ``fast``: the problem's ``triton_fast.py``, the editorial's own
source; student ``simple``: ``triton_simple.py``). Every queued id is graded in this process by
``worker.tasks.run``, the function the Celery task calls (Celery is imported, never started).
The gradebook is built by ``app.classes.grades.build`` and exported by ``app.classes.export``.

Checks (each failure counts in gpu_check's exit status): every grading is accepted; the CSV
says what the gradebook says; each speed cell's score is its points times
``grades.speed_factor(score_ms / editorial score_ms)``; the faster student scores at least as
much as the slower; the ``fast`` student (the editorial's source, ~1.0x) gets full points; the
"Late" column is late and worth ``LATE_FACTOR`` of its points.

The GPU host has torch, Triton, numpy and nvcc but not the web side's packages, and no package
index. Fetch them on a machine that has one (``scripts/gpu_wheels.sh`` fills ``.whl/web``), copy
the repository over, and on the GPU host::

    pip install --no-deps --target /tmp/web .whl/web/*.whl
    PYTHONPATH=/tmp/web:$PWD python3 scripts/gpu_check.py --phase class --out DIR

(no pip there: none of these wheels has a ``.data`` folder, so unzipping each into /tmp/web,
``for w in .whl/web/*.whl; do python3 -m zipfile -e "$w" /tmp/web; done``, installs them as well.)
It writes ``class.jsonl`` and ``class-gradebook.csv`` under DIR beside gpu_check's own files.
Eight gradings in submit mode (four editorial runs: Triton and CUDA for each problem; two per
student), each in a fresh runner: a few minutes. Without a GPU the phase says so and stops: the
CPU interpreter does not time (``editorial.UNTIMED_KINDS``). tests/app/classes/test_gpu_class.py runs
the same flow on the CPU queue (correctness only).
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import os
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

PROBLEMS = ("vector-add", "softmax")
STUDENTS = (("fast", "triton_fast.py"), ("simple", "triton_simple.py"))
LATE_FACTOR = 0.5
POINTS = 10.0
COLUMNS = [
    "assignment",
    "problem",
    "rule",
    "student",
    "sample",
    "verdict",
    "late",
    "untimed",
    "score_ms",
    "ref_ms",
    "ratio",
    "factor",
    "score",
    "points",
]


@dataclass
class Flow:
    """What one run made: the gradings (id -> verdict, score_ms, seconds) and the gradebook."""

    kind: str
    course_id: int
    editorial_ids: list[int]
    graded: dict[int, tuple[str | None, float | None, float]] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    csv: str = ""
    problems: list[str] = field(default_factory=list)


@contextlib.contextmanager
def pointed_at(url: str, data_dir: Path) -> Iterator[None]:
    """worker.tasks reads its database and data folder from the settings: point them here."""
    from app.core.config import get_settings
    from worker import tasks

    saved = {k: os.environ.get(k) for k in ("DATABASE_URL", "DATA_DIR")}
    os.environ.update(DATABASE_URL=url, DATA_DIR=str(data_dir))
    get_settings.cache_clear()
    tasks.engine.cache_clear()
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        tasks.engine().dispose()
        get_settings.cache_clear()
        tasks.engine.cache_clear()


def run_flow(
    url: str,
    kind: str,
    data_dir: Path,
    problems: Sequence[str] = PROBLEMS,
    say: Callable[[str], None] = print,
) -> Flow:
    """The class, its assignments, the editorial runs, the students' submissions, all graded;
    then the gradebook's rows and checks. ``url``: a migrated database."""
    from sqlmodel import Session

    from app import accounts, submissions
    from app.classes import assignments, editorial, export, grades, service
    from app.classes.models import Course, Rule
    from app.classes.schemas import AssignmentCreate, CourseCreate, ProblemRule
    from app.core.config import get_settings
    from app.core.security import hash_password
    from app.models import Mode, Submission, SubmissionCreate
    from app.problems import ProblemRegistry
    from worker import tasks

    registry = ProblemRegistry()
    registry.reload()
    queued: list[tuple[int, str]] = []

    def enqueue(sub_id: int, gpu_kind: str, mode: str, requeued: bool = False) -> None:
        queued.append((sub_id, gpu_kind))

    tag = uuid.uuid4().hex[:6]
    now = datetime.now(UTC).replace(microsecond=0)
    with pointed_at(url, data_dir):
        eng = tasks.engine()
        pw = hash_password("class-check-pass-1")
        prof = accounts.create_user(eng, f"prof{tag}", pw)
        people = {name: accounts.create_user(eng, f"{name}{tag}", pw) for name, _ in STUDENTS}
        with Session(eng) as s:
            prof = service.set_instructor(s, prof.username)
            course = service.create_course(
                s, prof, CourseCreate(name=f"GPU check {tag}", gpu_kind=kind), [kind]
            )
            assert course.id is not None
            for u in people.values():
                service.join(s, u, course.invite_code)
            speed = AssignmentCreate(
                title="Speed",
                opens_at=now - timedelta(minutes=10),
                due_at=now + timedelta(hours=3),
                problems=[ProblemRule(problem=p, rule=Rule.SPEED, points=POINTS) for p in problems],
            )
            late = AssignmentCreate(
                title="Late",
                opens_at=now - timedelta(hours=3),
                due_at=now - timedelta(hours=1),
                late_until=now + timedelta(hours=3),
                late_factor=LATE_FACTOR,
                problems=[ProblemRule(problem=problems[0], points=POINTS)],
            )
            timed = assignments.create(s, course, speed, registry)
            assignments.create(s, course, late, registry)
            flow = Flow(kind, course.id, [], problems=list(problems))
            # As the assignment page does on creating one with speed rules.
            to_time = assignments.speed_languages(s, timed.id or 0)
            flow.editorial_ids = editorial.request(s, registry, prof, to_time, kind, enqueue)
            say(f"class #{course.id} on {kind}: editorial runs {flow.editorial_ids or 'none'}")
            samples: dict[tuple[str, str], tuple[str, str]] = {}  # (student, problem) -> file, lang
            for name, file in STUDENTS:
                for slug in problems:
                    p = registry.get(slug)
                    assert p is not None
                    sample = next((x for x in p.samples if x.path.name == file), None)
                    if sample is None:
                        raise ValueError(f"{slug} has no sample {file}: pick another problem")
                    data_in = SubmissionCreate(
                        problem=slug,
                        language=sample.language,
                        source=sample.path.read_text(encoding="utf-8"),
                        mode=Mode.SUBMIT,
                        gpu_kind=kind,
                    )
                    q = submissions.validate(data_in, p, [kind], get_settings().MAX_SOURCE_BYTES)
                    sub = submissions.create(s, people[name], data_in, q)
                    assert sub.id is not None
                    submissions.send(eng, enqueue, sub.id, q, sub.mode)
                    samples[(people[name].username, slug)] = (file, sample.language)
        for sub_id, _ in queued:
            t0 = time.monotonic()
            recorded = tasks.run(sub_id, worker=f"gpu-check/{os.getpid()}")
            secs = time.monotonic() - t0
            with Session(eng) as s:
                row = s.get(Submission, sub_id)
            assert row is not None
            v = row.verdict if recorded else None
            flow.graded[sub_id] = (v, row.score_ms, secs)
            say(f"#{sub_id} {row.problem} {row.language}: {v} score_ms={row.score_ms} {secs:.1f}s")
            if v != "accepted":  # the judge's own account (an internal error's cause) first
                why = (row.result or {}).get("internal") or row.message
                say(f"#{sub_id}: {why[:600]}")
        with Session(eng) as s:
            c = s.get(Course, flow.course_id)
            assert c is not None
            book = grades.build(s, c)
            refs = editorial.reference_ms(s, list(problems), kind)
            flow.csv = export.to_csv(book)
            for r in book.rows:
                for col in book.columns:
                    cell = r.cells[col.key]
                    file, _lang = samples[(r.user.username, col.problem.problem)]
                    counted = assignments.counted_languages(col.problem)
                    ref = editorial.fastest(refs, col.problem.problem, counted)
                    ratio = cell.best_ms / ref if cell.best_ms and ref else None
                    flow.rows.append(
                        {
                            "assignment": col.assignment.title,
                            "problem": col.problem.problem,
                            "rule": col.problem.rule,
                            "student": r.user.username,
                            "sample": file,
                            "verdict": cell.verdict,
                            "late": cell.late,
                            "untimed": cell.untimed,
                            "score_ms": cell.best_ms,
                            "ref_ms": ref,
                            "ratio": None if ratio is None else round(ratio, 4),
                            "factor": None if ratio is None else grades.speed_factor(ratio),
                            "score": cell.score,
                            "points": cell.points,
                        }
                    )
    return flow


def check(flow: Flow) -> list[str]:
    """What does not hold (empty: all of it does)."""
    from app.classes import editorial, grades

    bad = [f"#{i}: {v}" for i, (v, _, _) in flow.graded.items() if v != "accepted"]
    timed = flow.kind not in editorial.UNTIMED_KINDS
    if timed and not flow.editorial_ids:
        bad.append("no editorial run was requested on a timed GPU kind")
    if not timed and flow.editorial_ids:
        bad.append(f"editorial runs on the untimed kind {flow.kind}: {flow.editorial_ids}")
    table = list(csv.reader(io.StringIO(flow.csv)))
    shown = {r[0]: r for r in table[1:]}
    heads = table[0] if table else []
    for r in flow.rows:
        what = f"{r['assignment']}/{r['problem']}/{r['student']}"
        cells = shown.get(r["student"])
        label = f"{r['assignment']} / {r['problem']}"
        if cells is None or f"{label} score" not in heads:
            bad.append(f"{what}: not in the CSV")
        else:
            got = (cells[heads.index(f"{label} verdict")], cells[heads.index(f"{label} late")])
            score = float(cells[heads.index(f"{label} score")] or 0)
            if got != (r["verdict"] or "", "yes" if r["late"] else "no") or score != r["score"]:
                bad.append(f"{what}: the CSV says {got} {score}, the gradebook {r}")
        if r["assignment"] == "Late":
            if not r["late"] or r["score"] != round(r["points"] * LATE_FACTOR, 2):
                bad.append(f"{what}: late work should be late, at {LATE_FACTOR} of the points")
            continue
        if not timed:
            if not r["untimed"] or r["score"] != r["points"]:
                bad.append(f"{what}: an untimed speed cell should be untimed, at full points")
            continue
        if r["ratio"] is None or r["untimed"]:
            bad.append(
                f"{what}: no timing to score by (score_ms {r['score_ms']}, ref {r['ref_ms']})"
            )
            continue
        want = round(r["points"] * grades.speed_factor(r["score_ms"] / r["ref_ms"]), 2)
        if abs(r["score"] - want) > 0.011:
            bad.append(f"{what}: score {r['score']}, speed_factor gives {want}")
        if r["sample"] == STUDENTS[0][1] and r["score"] != r["points"]:
            bad.append(f"{what}: the editorial's own source at {r['ratio']}x lost points")
    if timed:
        for p in flow.problems:
            speed = [r for r in flow.rows if r["assignment"] == "Speed" and r["problem"] == p]
            timed_rows = [r for r in speed if r["score_ms"] is not None]
            timed_rows.sort(key=lambda r: r["score_ms"])
            for a, b in itertools.pairwise(timed_rows):
                if a["score"] < b["score"]:
                    bad.append(f"{p}: {a['student']} is faster but scores less than {b['student']}")
    return bad


def phase_class(out: Path, problems: Sequence[str] = PROBLEMS) -> tuple[list[dict[str, Any]], int]:
    """gpu_check's phase: the flow on this host's GPU kind in a scratch database."""
    from judge.device import gpu_kind

    kind = gpu_kind()
    try:
        import torch

        has_gpu = bool(torch.cuda.is_available())
    except ImportError:
        has_gpu = False
    if kind == "cpu" or not has_gpu:
        print("class: no CUDA GPU here; the CPU interpreter does not time, so nothing to check")
        return [], 0
    from app.core.db import migrate

    with tempfile.TemporaryDirectory(prefix="kd-class-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'class.db'}"
        migrate(url)
        flow = run_flow(url, kind, Path(tmp), problems, say=lambda m: print(m, flush=True))
    problems_found = check(flow)
    (out / "class.jsonl").write_text("".join(json.dumps(r) + "\n" for r in flow.rows))
    (out / "class-gradebook.csv").write_text(flow.csv)
    for p in problems_found:
        print(f"class: {p}", flush=True)
    rows = [*flow.rows, *({"assignment": "CHECK", "problem": p} for p in problems_found)]
    return rows, len(problems_found)
