"""Class pages through their forms (both databases): an instructor creates a class and an
assignment, a learner joins by the invite link (signing up with it while sign-ups are closed),
sees the assignment and their score; the gradebook page and CSV; the similarity report is the
instructors' only; the admin grants the instructor role."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.accounts import create_admin
from app.classes.models import Assignment, Course
from app.models import User
from tests.app.conftest import csrf_of
from tests.class_factories import judged, user_client

NOW = datetime.now(UTC).replace(microsecond=0)


def local(d: datetime) -> str:
    return d.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")


def test_instructor_and_student_through_the_pages(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    r = teacher.post(
        "/classes", data={"csrf_token": csrf, "name": "Kernels", "term": "2027", "gpu_kind": "cpu"}
    )
    assert r.status_code == 200 and "Class created" in r.text  # followed the redirect
    with Session(engine) as s:
        course = s.exec(select(Course)).one()
    link = re.search(r'id="invite-link" value="([^"]+)"', r.text)
    assert link and link.group(1).endswith(f"/join/{course.invite_code}")

    r = teacher.post(
        f"/classes/{course.id}/assignments",
        data={
            "csrf_token": csrf,
            "title": "Week 1",
            "opens_at": local(NOW - timedelta(days=2)),
            "due_at": local(NOW + timedelta(days=1)),
            "timezone": "UTC",
            "late_until": "",
            "late_factor": "0.5",
            "slug": ["toy-add"],
            "include": ["toy-add"],
            "rule": ["correctness"],  # a CPU class's form offers no speed rule (#37, item 10)
            "points": ["25"],
        },
    )
    assert r.status_code == 200 and "Assignment created" in r.text, r.text[-2000:]
    assert "Correctness<br>" in r.text and "Correctness + speed" not in r.text
    with Session(engine) as s:
        a = s.exec(select(Assignment)).one()
    # Bad input comes back as a message on the class page.
    bad = teacher.post(
        f"/classes/{course.id}/assignments",
        data={
            "csrf_token": csrf,
            "title": "x",
            "opens_at": local(NOW),
            "due_at": local(NOW - timedelta(days=1)),
            "slug": ["toy-add"],
            "include": ["toy-add"],
            "rule": ["correctness"],
            "points": ["1"],
        },
    )
    assert "due time must come after" in bad.text
    none = teacher.post(
        f"/classes/{course.id}/assignments",
        data={
            "csrf_token": csrf,
            "title": "x",
            "opens_at": local(NOW),
            "due_at": local(NOW + timedelta(days=1)),
        },
    )
    assert "at least 1" in none.text

    # Sign-ups closed: the invite link still signs a learner up, into the class.
    with Session(engine) as s:
        create_admin(s, "boss", "boss-password-1")
    boss = TestClient(client.app)
    boss.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
    boss.put(
        "/api/v1/admin/signups",
        json={"signups_open": False},
        headers={"X-CSRF-Token": csrf_of(boss)},
    )
    learner = TestClient(client.app)
    r = learner.get(f"/join/{course.invite_code}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(
        f"/signup?invite={course.invite_code}"
    )
    form = learner.get(r.headers["location"])
    assert f'value="{course.invite_code}"' in form.text
    r = learner.post(
        "/signup",
        data={
            "csrf_token": csrf_of(learner, "/signup"),
            "username": "stu",
            "password": "kernel-dojo-pass",
            "invite_code": course.invite_code,
            "next": f"/join/{course.invite_code}",
        },
    )
    # Signed up through the link: enrolled, and taken to the class (#37, item 11).
    assert r.status_code == 200 and "You are in" in r.text and "already in this class" not in r.text
    wrong = TestClient(client.app).post(
        "/signup",
        data={
            "csrf_token": csrf_of(learner, "/signup"),
            "username": "intruder",
            "password": "kernel-dojo-pass",
            "invite_code": "zzzz-zzzz-zzzz-zzzz",
        },
    )
    assert wrong.status_code == 403

    judged(engine, "stu", NOW - timedelta(hours=1))
    dash = learner.get("/classes")
    assert "Kernels" in dash.text and "Week 1" in dash.text
    assert re.search(r'class="num my-score"><span class="mono">25 / 25</span>', dash.text)
    page = learner.get(f"/classes/{course.id}/assignments/{a.id}")
    # (A speed rule's untimed cell on the CPU: tests/app/classes/test_gpu_class.py.)
    assert "Similar code" not in page.text and "Deadlines" not in page.text
    assert "UTC" in page.text
    assert learner.get(f"/classes/{course.id}/gradebook").status_code == 403
    assert learner.get(f"/classes/{course.id}/gradebook.csv").status_code == 403
    board = learner.get(f"/classes/{course.id}/leaderboard")
    assert board.status_code == 200 and "stu" in board.text

    book = teacher.get(f"/classes/{course.id}/gradebook")
    assert 'data-username="stu"' in book.text and "25 / 25" in book.text
    csv_text = teacher.get(f"/classes/{course.id}/gradebook.csv").text
    assert csv_text.splitlines()[1] == "stu,accepted,,25,no,25,25"
    report = teacher.get(f"/classes/{course.id}/assignments/{a.id}?threshold=0.5")
    assert "Similar code" in report.text and "No pair at or above 50%" in report.text

    # Moving the due time into the past: the next submission is late; the first still counts.
    r = teacher.post(
        f"/classes/{course.id}/assignments/{a.id}/deadlines",
        data={
            "csrf_token": csrf,
            "opens_at": local(NOW - timedelta(days=2)),
            "due_at": local(NOW - timedelta(minutes=30)),
            "timezone": "Europe/Berlin",
            "late_until": "",
            "late_factor": "1",
        },
    )
    assert "Deadlines saved" in r.text and "Europe/Berlin" in r.text
    with Session(engine) as s:
        moved = s.get(Assignment, a.id)
        assert moved and moved.timezone == "Europe/Berlin"
        # The form's wall-clock time was read in Berlin: an hour or two before the UTC one.
        assert moved.due_at < NOW - timedelta(minutes=30)

    # Roster: the instructor removes the student, who then no longer sees the class.
    with Session(engine) as s:
        stu = s.exec(select(User).where(User.username == "stu")).one()
    r = teacher.post(f"/classes/{course.id}/members/{stu.id}/remove", data={"csrf_token": csrf})
    assert "Removed" in r.text
    assert learner.get(f"/classes/{course.id}").status_code == 404


def test_roles_on_the_pages(client: TestClient, engine: Engine) -> None:
    learner, csrf = user_client(client, "plain")
    assert "New class" not in learner.get("/classes").text
    assert learner.post("/classes", data={"csrf_token": csrf, "name": "Mine"}).status_code == 403
    assert (
        learner.post(
            "/admin/instructors", data={"csrf_token": csrf, "username": "plain"}
        ).status_code
        == 403
    )
    assert learner.get("/classes/999").status_code == 404
    assert learner.get("/join/not-a-code").status_code == 404
    r = learner.post("/classes/join", data={"csrf_token": csrf, "code": "wrong"})
    assert "not right" in r.text

    with Session(engine) as s:
        create_admin(s, "boss", "boss-password-1")
    boss = TestClient(client.app)
    boss.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
    r = boss.post("/admin/instructors", data={"csrf_token": csrf_of(boss), "username": "plain"})
    assert "plain is now an instructor" in r.text
    assert "New class" in learner.get("/classes").text
    r = learner.post("/classes", data={"csrf_token": csrf, "name": "Mine", "gpu_kind": "h100"})
    assert "Graded on H100" in r.text
