"""Class mode over the JSON API, on SQLite and PostgreSQL: roles, invite codes, the roster,
assignments and their validation, the gradebook (JSON and CSV), the class leaderboard."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from app import visibility
from tests.class_factories import judged, user_client

NOW = datetime.now(UTC).replace(microsecond=0)


def iso(d: datetime) -> str:
    return d.astimezone(UTC).replace(tzinfo=None).isoformat()


def make_class(
    client: TestClient, kind: str = "cpu"
) -> tuple[TestClient, dict[str, str], int, str]:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    h = {"X-CSRF-Token": csrf}
    r = teacher.post(
        "/api/v1/classes", json={"name": "GPU 101", "term": "Fall", "gpu_kind": kind}, headers=h
    )
    assert r.status_code == 201, r.text
    return teacher, h, r.json()["id"], r.json()["invite_code"]


def assignment(teacher: TestClient, h: dict[str, str], cid: int, **over: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "title": "Week 1",
        "opens_at": iso(NOW - timedelta(days=3)),
        "due_at": iso(NOW - timedelta(days=1)),
        "late_until": iso(NOW + timedelta(days=1)),
        "late_factor": 0.5,
        "timezone": "UTC",
        "problems": [{"problem": "toy-add", "rule": "correctness", "points": 10}],
    }
    body.update(over)
    r = teacher.post(f"/api/v1/classes/{cid}/assignments", json=body, headers=h)
    assert r.status_code == 201, r.text
    return dict(r.json())


def test_only_instructors_create_classes_and_codes_enrol(client: TestClient) -> None:
    learner, csrf = user_client(client, "learner")
    r = learner.post("/api/v1/classes", json={"name": "Mine"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 403 and "instructors" in r.json()["detail"]

    teacher, h, cid, code = make_class(client)
    assert len(code) == 19
    assert (
        learner.post(
            "/api/v1/classes/join", json={"code": "nope"}, headers={"X-CSRF-Token": csrf}
        ).status_code
        == 404
    )
    assert learner.get(f"/api/v1/classes/{cid}/assignments").status_code == 404  # not in it yet
    r = learner.post(
        "/api/v1/classes/join", json={"code": code.upper()}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 200 and r.json()["role"] == "student"
    assert r.json()["invite_code"] is None  # students do not get the code back
    assert learner.get("/api/v1/classes").json()[0]["name"] == "GPU 101"
    # Joining twice changes nothing; the roster lists the instructor first.
    learner.post("/api/v1/classes/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
    roster = teacher.get(f"/api/v1/classes/{cid}/members").json()
    assert roster == [
        {"username": "teacher", "role": "instructor"},
        {"username": "learner", "role": "student"},
    ]
    # A student manages nothing.
    assert learner.get(f"/api/v1/classes/{cid}/members").status_code == 403
    assert learner.get(f"/api/v1/classes/{cid}/gradebook").status_code == 403
    assert learner.get(f"/api/v1/classes/{cid}/gradebook.csv").status_code == 403
    # Removing: the student leaves; the last instructor cannot.
    assert teacher.delete(f"/api/v1/classes/{cid}/members/teacher", headers=h).status_code == 400
    assert teacher.delete(f"/api/v1/classes/{cid}/members/learner", headers=h).status_code == 204
    assert [m["username"] for m in teacher.get(f"/api/v1/classes/{cid}/members").json()] == [
        "teacher"
    ]
    assert learner.get(f"/api/v1/classes/{cid}/assignments").status_code == 404


def test_class_gpu_kind_must_exist(client: TestClient) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    r = teacher.post(
        "/api/v1/classes", json={"name": "X", "gpu_kind": "tpu"}, headers={"X-CSRF-Token": csrf}
    )
    assert r.status_code == 400 and "cpu, h100" in r.json()["detail"]
    r = teacher.post("/api/v1/classes", json={"name": "   "}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 422


def test_assignment_times_zone_and_validation(client: TestClient) -> None:
    teacher, h, cid, _ = make_class(client)
    a = assignment(
        teacher,
        h,
        cid,
        opens_at="2027-01-10T09:00:00",
        due_at="2027-01-17T23:59:00",
        late_until=None,
        timezone="Europe/Berlin",
    )
    # Berlin is UTC+1 in January: stored and returned in UTC.
    assert a["opens_at"].startswith("2027-01-10T08:00:00") and a["due_at"].startswith(
        "2027-01-17T22:59:00"
    )
    assert a["timezone"] == "Europe/Berlin" and a["state"] == "upcoming" and a["late_factor"] == 1.0
    url = f"/api/v1/classes/{cid}/assignments"
    base = {
        "title": "T",
        "opens_at": "2027-01-10T09:00:00",
        "due_at": "2027-01-11T09:00:00",
        "problems": [{"problem": "toy-add"}],
    }
    bad = [
        ({"due_at": "2027-01-09T09:00:00"}, "due time must come after"),
        ({"late_until": "2027-01-11T08:00:00"}, "hard deadline"),
        ({"timezone": "Mars/Olympus"}, "unknown time zone"),
        ({"late_factor": 1.5}, "less than or equal to 1"),
        ({"problems": []}, "at least 1"),
        ({"problems": [{"problem": "toy-add"}, {"problem": "toy-add"}]}, "listed twice"),
        ({"problems": [{"problem": "toy-add", "rule": "style"}]}, "correctness"),
    ]
    for change, words in bad:
        r = teacher.post(url, json={**base, **change}, headers=h)
        assert r.status_code == 422 and words in r.text, (change, r.text)
    r = teacher.post(url, json={**base, "problems": [{"problem": "no-such"}]}, headers=h)
    assert r.status_code == 404 and "no-such" in r.text


def test_gradebook_counts_on_time_late_and_too_late(client: TestClient, engine: Engine) -> None:
    teacher, h, cid, code = make_class(client)
    a = assignment(teacher, h, cid)  # opened 3 days ago, due 1 day ago, late work for a day, x0.5
    students = {}
    for name in ("ontime", "latecomer", "tooearly", "nobody"):
        c, csrf = user_client(client, name)
        c.post("/api/v1/classes/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
        students[name] = c
    judged(engine, "ontime", NOW - timedelta(days=2), verdict="wrong_answer")
    first = judged(engine, "ontime", NOW - timedelta(days=2) + timedelta(hours=1))
    judged(engine, "ontime", NOW - timedelta(hours=2))  # a late accepted one does not replace it
    late = judged(engine, "latecomer", NOW - timedelta(hours=3))
    judged(engine, "tooearly", NOW - timedelta(days=4))  # before the assignment opened
    judged(engine, "nobody", NOW - timedelta(days=2), gpu_kind="h100")  # another GPU kind
    judged(engine, "nobody", NOW - timedelta(days=2), hidden=True)  # hidden by an instructor

    book = teacher.get(f"/api/v1/classes/{cid}/gradebook").json()
    assert book["out_of"] == 10
    rows = {r["username"]: r for r in book["rows"]}
    assert set(rows) == {"ontime", "latecomer", "tooearly", "nobody"}  # not the instructor
    cell = rows["ontime"]["cells"][0]
    assert (cell["verdict"], cell["score"], cell["late"], cell["submission_id"]) == (
        "accepted",
        10,
        False,
        first,
    )
    cell = rows["latecomer"]["cells"][0]
    assert (cell["verdict"], cell["score"], cell["late"], cell["submission_id"]) == (
        "accepted",
        5,
        True,
        late,
    )
    for name in ("tooearly", "nobody"):
        assert rows[name]["cells"][0]["verdict"] is None and rows[name]["total"] == 0

    # Closing the late window: the late submission is still shown, marked late, and scores 0.
    r = teacher.post(
        f"/api/v1/classes/{cid}/assignments",
        json={
            "title": "Strict",
            "opens_at": iso(NOW - timedelta(days=3)),
            "due_at": iso(NOW - timedelta(days=1)),
            "timezone": "UTC",
            "problems": [{"problem": "toy-add", "points": 4}],
        },
        headers=h,
    )
    assert r.status_code == 201
    book = teacher.get(f"/api/v1/classes/{cid}/gradebook").json()
    rows = {r["username"]: r for r in book["rows"]}
    strict = next(c for c in rows["latecomer"]["cells"] if c["assignment_id"] == r.json()["id"])
    assert (strict["verdict"], strict["score"], strict["late"]) == ("accepted", 0, True)
    assert (
        rows["latecomer"]["total"] == 5 and rows["ontime"]["total"] == 14 and book["out_of"] == 14
    )

    text = teacher.get(f"/api/v1/classes/{cid}/gradebook.csv")
    assert text.headers["content-type"].startswith("text/csv")
    assert "attachment" in text.headers["content-disposition"]
    table = list(csv.reader(io.StringIO(text.text)))
    assert table[0] == [
        "student",
        "Week 1 / toy-add verdict",
        "Week 1 / toy-add best_ms",
        "Week 1 / toy-add score",
        "Week 1 / toy-add late",
        "Strict / toy-add verdict",
        "Strict / toy-add best_ms",
        "Strict / toy-add score",
        "Strict / toy-add late",
        "total",
        "out_of",
    ]
    by_name = {row[0]: row for row in table[1:]}
    assert by_name["latecomer"] == [
        "latecomer",
        "accepted",
        "",
        "5",
        "yes",
        "accepted",
        "",
        "0",
        "yes",
        "5",
        "14",
    ]
    assert by_name["ontime"] == [
        "ontime",
        "accepted",
        "",
        "10",
        "no",
        "accepted",
        "",
        "4",
        "no",
        "14",
        "14",
    ]
    assert by_name["nobody"][1:] == ["", "", "0", "no", "", "", "0", "no", "0", "14"]
    kernels = visibility.kernel_languages()  # the default: the kernel track (not PyTorch)
    assert "triton" in kernels and "pytorch" not in kernels
    assert a["problems"] == [
        {"problem": "toy-add", "rule": "correctness", "points": 10.0, "languages": kernels}
    ]


def test_class_leaderboard_ranks_only_its_students(client: TestClient, engine: Engine) -> None:
    teacher, h, cid, code = make_class(client, kind="h100")
    assignment(teacher, h, cid)
    for name in ("fast", "slow"):
        c, csrf = user_client(client, name)
        c.post("/api/v1/classes/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
    user_client(client, "outsider")
    judged(engine, "slow", NOW - timedelta(days=2), score_ms=2.0, gpu_kind="h100")
    judged(engine, "fast", NOW - timedelta(days=2), score_ms=1.0, gpu_kind="h100")
    judged(engine, "outsider", NOW - timedelta(days=2), score_ms=0.5, gpu_kind="h100")
    board = teacher.get(f"/api/v1/classes/{cid}/leaderboard").json()
    assert [(e["rank"], e["username"]) for e in board] == [(1, "fast"), (2, "slow")]
    assert teacher.get("/api/v1/leaderboard/toy-add?gpu=h100").json()[0]["username"] == "outsider"


def test_instructor_reads_students_code_other_students_do_not(
    client: TestClient, engine: Engine
) -> None:
    teacher, h, cid, code = make_class(client)
    student, csrf = user_client(client, "student")
    student.post("/api/v1/classes/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
    other_teacher, _ = user_client(client, "elsewhere", instructor=True)
    sid = judged(
        engine, "student", NOW, verdict="wrong_answer", source="def solve(): pass  # MINE\n"
    )
    assert "MINE" in teacher.get(f"/api/v1/submissions/{sid}").json()["source"]
    assert other_teacher.get(f"/api/v1/submissions/{sid}").json()["source"] is None
    teacher.delete(f"/api/v1/classes/{cid}/members/student", headers=h)
    assert teacher.get(f"/api/v1/submissions/{sid}").json()["source"] is None
