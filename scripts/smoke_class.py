"""Class mode's steps for ``make compose-smoke`` (scripts/compose_smoke.py), runnable against
any KernelDojo server (tests/test_smoke_class.py runs them against ``kerneldojo serve``).

An admin creates a class graded on the CPU queue and an assignment (vector-add, correctness,
open for the hour around now); a student signs up with the class's invite code (enrolled by
it), submits an accepted solution; the gradebook is exported twice, as the web serves it and
by ``kerneldojo class gradebook CLASS --csv`` on the server, and both must equal the rows
expected.
"""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from smoke_stack import ACCEPTED, Api, containers, wait_done


def _csrf(api: Api) -> None:
    _, page = api.call("GET", "/problems")
    m = re.search(r'name="csrf-token" content="([^"]+)"', str(page))
    if not m:
        raise RuntimeError("no CSRF token on /problems")
    api.headers["X-CSRF-Token"] = m.group(1)


def _ok(status: int, body: Any, want: int, what: str) -> Any:
    if status != want:
        raise RuntimeError(f"{what}: {status} {body}")
    return body


def class_flow(
    port: int,
    admin: tuple[str, str],
    export_cli: Callable[[int], str],
    source: Path = ACCEPTED,
) -> str:
    """The class steps; ``export_cli(class_id)`` returns the server CLI's CSV."""
    tag = uuid.uuid4().hex[:6]
    prof = Api(port)
    _ok(
        *prof.call("POST", "/api/v1/auth/login", {"username": admin[0], "password": admin[1]}),
        200,
        "admin log-in",
    )
    _csrf(prof)
    course = _ok(
        *prof.call(
            "POST", "/api/v1/classes", {"name": f"Smoke {tag}", "term": "CI", "gpu_kind": "cpu"}
        ),
        201,
        "create class",
    )
    now = datetime.now(UTC).replace(microsecond=0, tzinfo=None)
    body = {
        "title": "Week 1",
        "opens_at": (now - timedelta(hours=1)).isoformat(),
        "due_at": (now + timedelta(hours=1)).isoformat(),
        "timezone": "UTC",
        "problems": [{"problem": "vector-add", "rule": "correctness", "points": 10}],
    }
    a = _ok(
        *prof.call("POST", f"/api/v1/classes/{course['id']}/assignments", body),
        201,
        "create assignment",
    )

    student = Api(port)
    name = f"classmate{tag}"
    _ok(
        *student.call(
            "POST",
            "/api/v1/auth/signup",
            {"username": name, "password": "smoke-pass-123", "invite_code": course["invite_code"]},
        ),
        201,
        "sign up with the class's code",
    )
    _csrf(student)
    mine = _ok(*student.call("GET", "/api/v1/classes"), 200, "my classes")
    if [c["id"] for c in mine] != [course["id"]]:
        raise RuntimeError(f"the invite code did not enrol the student: {mine}")
    t0 = time.monotonic()
    sub = _ok(
        *student.call(
            "POST",
            "/api/v1/submissions",
            {
                "problem": "vector-add",
                "language": "triton",
                "source": source.read_text(),
                "gpu_kind": "cpu",
            },
        ),
        201,
        "submit",
    )
    verdict, secs = wait_done(student, int(sub["id"]), t0)
    if verdict != "accepted":
        raise RuntimeError(f"the student's submission: {verdict}")

    web = _ok(
        *prof.call("GET", f"/api/v1/classes/{course['id']}/gradebook.csv"), 200, "gradebook CSV"
    )
    expected = [
        "student,Week 1 / vector-add verdict,Week 1 / vector-add best_ms,"
        "Week 1 / vector-add score,Week 1 / vector-add late,total,out_of",
        f"{name},accepted,,10,no,10,10",
    ]
    if str(web).splitlines() != expected:
        raise RuntimeError(f"the web's gradebook CSV: {web!r}")
    cli = export_cli(int(course["id"]))
    if cli != web:
        raise RuntimeError(f"kerneldojo class gradebook --csv differs from the web's: {cli!r}")
    return (
        f"class #{course['id']}, assignment #{a['id']}; {name} enrolled by the invite code, "
        f"#{sub['id']} {verdict} in {secs:.1f}s; gradebook CSV (web = CLI): {expected[1]}"
    )


def container_cli(engine: str, project: str) -> Callable[[int], str]:
    """``kerneldojo class gradebook ID --csv`` run inside the stack's web container."""

    def export(class_id: int) -> str:
        web = containers(engine, project)["web"]
        argv = [engine, "exec", web, "kerneldojo", "class", "gradebook", str(class_id), "--csv"]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if r.returncode != 0:
            raise RuntimeError(
                f"kerneldojo class gradebook exited {r.returncode}: {r.stderr[-800:]}"
            )
        return r.stdout

    return export
