"""Who grants roles and who sees whose code (issue 36, roles), on SQLite and PostgreSQL: only an
admin makes an instructor; co-teaching is an invitation the invited instructor accepts;
``teaches`` counts student memberships only; a co-instructor cannot remove the class's
creator."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.accounts import create_admin
from app.classes import service
from app.classes.models import Course, CourseMember, Role
from app.models import User
from tests.app.conftest import csrf_of
from tests.class_factories import judged, user_client

NOW = datetime.now(UTC).replace(microsecond=0)
SECRET = "def solve(a, b, c, n):\n    pass  # CAROLS_OWN_CODE\n"


def _class(teacher: TestClient, csrf: str, engine: Engine) -> Course:
    r = teacher.post("/classes", data={"csrf_token": csrf, "name": "Kernels", "gpu_kind": "cpu"})
    assert r.status_code == 200, r.text
    with Session(engine) as s:
        return s.exec(select(Course)).one()


def _user(engine: Engine, name: str) -> User:
    with Session(engine) as s:
        return s.exec(select(User).where(User.username == name)).one()


def _role(engine: Engine, course_id: int | None, name: str) -> str | None:
    with Session(engine) as s:
        m = service.membership(s, course_id or 0, _user(engine, name).id or 0)
        return m.role if m else None


def _member(engine: Engine, course_id: int | None, name: str, role: Role) -> None:
    with Session(engine) as s:
        s.add(
            CourseMember(course_id=course_id or 0, user_id=_user(engine, name).id or 0, role=role)
        )
        s.commit()


def test_an_instructor_cannot_make_anyone_an_instructor(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    carol, ccsrf = user_client(client, "carol")
    course = _class(teacher, csrf, engine)
    r = teacher.post(
        f"/classes/{course.id}/instructors", data={"csrf_token": csrf, "username": "carol"}
    )
    assert r.status_code == 200 and "not an instructor" in r.text
    assert _user(engine, "carol").is_instructor is False
    assert _role(engine, course.id, "carol") is None
    assert carol.post("/classes", data={"csrf_token": ccsrf, "name": "Mine"}).status_code == 403
    # Nor over the API.
    r = teacher.post(
        f"/api/v1/classes/{course.id}/instructors",
        json={"username": "carol"},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 403 and "admin" in r.json()["detail"]
    assert _user(engine, "carol").is_instructor is False


def test_co_teaching_is_an_invitation_the_instructor_accepts(
    client: TestClient, engine: Engine
) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    dave, dcsrf = user_client(client, "dave", instructor=True)  # an admin made dave one
    erin, ecsrf = user_client(client, "erin", instructor=True)
    course = _class(teacher, csrf, engine)
    r = teacher.post(
        f"/classes/{course.id}/instructors", data={"csrf_token": csrf, "username": "dave"}
    )
    assert "invited dave" in r.text
    assert _role(engine, course.id, "dave") == Role.INVITED
    # Invited is not yet teaching: no roster, no gradebook, no class page.
    assert dave.get(f"/classes/{course.id}/gradebook").status_code == 404
    assert dave.get(f"/api/v1/classes/{course.id}/members").status_code == 404
    page = dave.get("/classes").text
    assert "Kernels" in page and f'action="/classes/{course.id}/coteach"' in page
    r = dave.post(f"/classes/{course.id}/coteach", data={"csrf_token": dcsrf, "accept": "1"})
    assert "You now co-teach Kernels" in r.text
    assert _role(engine, course.id, "dave") == Role.INSTRUCTOR
    assert dave.get(f"/classes/{course.id}/gradebook").status_code == 200

    # Over the API: invited, listed with the role "invited", declined.
    r = teacher.post(
        f"/api/v1/classes/{course.id}/instructors",
        json={"username": "erin"},
        headers={"X-CSRF-Token": csrf},
    )
    assert r.status_code == 201 and r.json() == {"username": "erin", "role": "invited"}
    mine = erin.get("/api/v1/classes").json()
    assert [(c["id"], c["role"], c["invite_code"]) for c in mine] == [(course.id, "invited", None)]
    r = erin.delete(f"/api/v1/classes/{course.id}/invitation", headers={"X-CSRF-Token": ecsrf})
    assert r.status_code == 204 and _role(engine, course.id, "erin") is None
    teacher.post(
        f"/api/v1/classes/{course.id}/instructors",
        json={"username": "erin"},
        headers={"X-CSRF-Token": csrf},
    )
    r = erin.post(f"/api/v1/classes/{course.id}/invitation", headers={"X-CSRF-Token": ecsrf})
    assert r.status_code == 200 and r.json()["role"] == "instructor"
    # An invitation is the invited person's: nobody else accepts it.
    _learner, lcsrf = user_client(client, "lena")
    r = _learner.post(f"/api/v1/classes/{course.id}/invitation", headers={"X-CSRF-Token": lcsrf})
    assert r.status_code == 404


def test_an_admin_grants_the_role_then_the_class_invites(
    client: TestClient, engine: Engine
) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    user_client(client, "carol")
    course = _class(teacher, csrf, engine)
    with Session(engine) as s:
        create_admin(s, "boss", "boss-password-1")
    boss = TestClient(client.app)
    boss.post("/api/v1/auth/login", json={"username": "boss", "password": "boss-password-1"})
    r = boss.post("/admin/instructors", data={"csrf_token": csrf_of(boss), "username": "carol"})
    assert "carol is now an instructor" in r.text
    r = teacher.post(
        f"/classes/{course.id}/instructors", data={"csrf_token": csrf, "username": "carol"}
    )
    assert "invited carol" in r.text and _role(engine, course.id, "carol") == Role.INVITED


def test_teaches_counts_student_memberships_only(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    user_client(client, "carol", instructor=True)
    user_client(client, "bob")
    course = _class(teacher, csrf, engine)
    _member(engine, course.id, "carol", Role.INSTRUCTOR)  # a co-instructor (accepted)
    _member(engine, course.id, "bob", Role.STUDENT)
    carols = judged(engine, "carol", NOW, verdict="wrong_answer", source=SECRET)
    bobs = judged(engine, "bob", NOW, verdict="wrong_answer", source=SECRET)
    t, c, b = (_user(engine, n).id or 0 for n in ("teacher", "carol", "bob"))
    with Session(engine) as s:
        assert service.teaches(s, t, b) and not service.teaches(s, t, c)
        assert not service.teaches(s, c, t)  # nor the other way round
    assert teacher.get(f"/api/v1/submissions/{bobs}").json()["source"] == SECRET
    d = teacher.get(f"/api/v1/submissions/{carols}").json()
    assert (
        d["source"] is None and "CAROLS_OWN_CODE" not in teacher.get(f"/submissions/{carols}").text
    )


def test_a_co_instructor_cannot_remove_the_creator(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    dave, dcsrf = user_client(client, "dave", instructor=True)
    course = _class(teacher, csrf, engine)
    _member(engine, course.id, "dave", Role.INSTRUCTOR)
    tid = _user(engine, "teacher").id
    r = dave.post(f"/classes/{course.id}/members/{tid}/remove", data={"csrf_token": dcsrf})
    assert "creator or an admin can remove its creator" in r.text
    r = dave.delete(f"/api/v1/classes/{course.id}/members/teacher", headers={"X-CSRF-Token": dcsrf})
    assert r.status_code == 403
    assert _role(engine, course.id, "teacher") == Role.INSTRUCTOR
    # The creator can take a co-instructor off.
    did = _user(engine, "dave").id
    r = teacher.post(f"/classes/{course.id}/members/{did}/remove", data={"csrf_token": csrf})
    assert "Removed" in r.text and _role(engine, course.id, "dave") is None
