"""Class mode over JSON: classes, joining, the roster, assignments, the gradebook (JSON and
CSV) and the class leaderboard. Permissions are ``app/classes/service.py``'s."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel

from app.classes import assignments, boards, codes, editorial, export, grades, service
from app.classes.models import Assignment, Course
from app.classes.schemas import AssignmentCreate, CourseCreate, InstructorInvite, JoinRequest
from app.deps import (
    CurrentUser,
    EngineDep,
    EnqueueDep,
    RegistryDep,
    SessionDep,
    SettingsDep,
)
from app.login_guard import client_ip
from app.models import User

router = APIRouter(prefix="/classes", tags=["classes"])


class CourseOut(BaseModel):
    id: int
    name: str
    term: str
    gpu_kind: str
    role: str
    invite_code: str | None = None  # instructors only


class MemberOut(BaseModel):
    username: str
    role: str


class ProblemOut(BaseModel):
    problem: str
    rule: str
    points: float
    languages: list[str]  # whose submissions count (the kernel track's unless named)


class AssignmentOut(BaseModel):
    id: int
    title: str
    opens_at: datetime
    due_at: datetime
    late_until: datetime | None
    late_factor: float
    timezone: str
    state: str
    problems: list[ProblemOut]
    editorial_runs: list[int] = []


class CellOut(BaseModel):
    assignment_id: int
    problem: str
    verdict: str | None
    best_ms: float | None  # the counted (best-scoring) submission's time
    score: float
    points: float
    late: bool
    untimed: bool
    submission_id: int | None


class GradeRowOut(BaseModel):
    username: str
    cells: list[CellOut]
    total: float


class GradebookOut(BaseModel):
    course_id: int
    out_of: float
    rows: list[GradeRowOut]


class StandingOut(BaseModel):
    rank: int
    username: str
    solved: int
    mean_rank: float


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except service.ClassError as e:
        raise HTTPException(e.status, str(e), headers=e.headers()) from e


def _out(session: SessionDep, user: User, course: Course, role: str) -> CourseOut:
    manage = service.can_manage(session, user, course)
    return CourseOut(
        id=course.id or 0,
        name=course.name,
        term=course.term,
        gpu_kind=course.gpu_kind,
        role=role,
        invite_code=course.invite_code if manage else None,
    )


def _assignment_out(session: SessionDep, a: Assignment) -> AssignmentOut:
    return AssignmentOut(
        id=a.id or 0,
        title=a.title,
        opens_at=a.opens_at,
        due_at=a.due_at,
        late_until=a.late_until,
        late_factor=a.late_factor,
        timezone=a.timezone,
        state=assignments.state(a),
        problems=[
            ProblemOut(
                problem=p.problem,
                rule=p.rule,
                points=p.points,
                languages=assignments.counted_languages(p),
            )
            for p in assignments.problems(session, a.id or 0)
        ],
    )


@router.get("", response_model=list[CourseOut])
def my_classes(session: SessionDep, user: CurrentUser) -> list[CourseOut]:
    """The classes the caller teaches or takes, with their role in each."""
    return [_out(session, user, c, role) for c, role in service.my_courses(session, user)]


@router.post("", response_model=CourseOut, status_code=201, summary="Create a class")
def create(
    data: CourseCreate, session: SessionDep, user: CurrentUser, settings: SettingsDep
) -> CourseOut:
    """A new class with the caller as its instructor (instructors and admins only); its join code
    comes back."""
    with _errors():
        course = service.create_course(session, user, data, settings.gpu_kinds)
    return _out(session, user, course, "instructor")


@router.post("/join", response_model=CourseOut)
def join(
    data: JoinRequest, request: Request, session: SessionDep, engine: EngineDep, user: CurrentUser
) -> CourseOut:
    """Throttled: wrong codes count against the address and the account (classes.codes)."""
    with _errors():
        course = codes.guarded(
            engine,
            client_ip(request),
            user.id,
            lambda: service.join(session, user, data.code),
        )
    return _out(session, user, course, "student")


@router.get("/{course_id}/members", response_model=list[MemberOut], summary="Class members")
def members(course_id: int, session: SessionDep, user: CurrentUser) -> list[MemberOut]:
    """The class's students and instructors (its instructors only)."""
    with _errors():
        service.get_course(session, course_id, user, manage=True)
    return [MemberOut(username=u.username, role=r) for u, r in service.roster(session, course_id)]


@router.delete("/{course_id}/members/{username}", status_code=204, summary="Remove a member")
def remove(course_id: int, username: str, session: SessionDep, user: CurrentUser) -> Response:
    """Takes a student, a co-instructor or an open invitation off the roster; submissions stay
    (its instructors only)."""
    with _errors():
        course = service.get_course(session, course_id, user, manage=True)
        who = next(
            (u for u, _ in service.roster(session, course_id) if u.username == username), None
        )
        if who is None or who.id is None:
            raise service.ClassError(f"{username!r} is not in this class", 404)
        service.remove_member(session, course, who.id, user)
    return Response(status_code=204)


@router.post("/{course_id}/instructors", response_model=MemberOut, status_code=201)
def invite_instructor(
    course_id: int, data: InstructorInvite, session: SessionDep, user: CurrentUser
) -> MemberOut:
    """Invite an instructor (an admin grants the role) to co-teach; they answer below."""
    with _errors():
        course = service.get_course(session, course_id, user, manage=True)
        who = service.invite(session, course, data.username)
    m = service.membership(session, course_id, who.id or 0)
    return MemberOut(username=who.username, role=m.role if m else "invited")


@router.post("/{course_id}/invitation", response_model=CourseOut)
def accept_invitation(course_id: int, session: SessionDep, user: CurrentUser) -> CourseOut:
    """The invited instructor accepts: they co-teach the class from now on."""
    with _errors():
        course = service.answer(session, course_id, user, accept=True)
    return _out(session, user, course, "instructor")


@router.delete("/{course_id}/invitation", status_code=204)
def decline_invitation(course_id: int, session: SessionDep, user: CurrentUser) -> Response:
    """The invited instructor declines to co-teach the class."""
    with _errors():
        service.answer(session, course_id, user, accept=False)
    return Response(status_code=204)


@router.get("/{course_id}/assignments", response_model=list[AssignmentOut])
def list_assignments(course_id: int, session: SessionDep, user: CurrentUser) -> list[AssignmentOut]:
    """The class's assignments: problems, opening and due dates, how each is graded."""
    with _errors():
        service.get_course(session, course_id, user)
    return [_assignment_out(session, a) for a in service.assignments(session, course_id)]


@router.post("/{course_id}/assignments", response_model=AssignmentOut, status_code=201)
def create_assignment(
    course_id: int,
    data: AssignmentCreate,
    session: SessionDep,
    user: CurrentUser,
    registry: RegistryDep,
    enqueue: EnqueueDep,
) -> AssignmentOut:
    """A new assignment of one problem to the class (its instructors only)."""
    with _errors():
        course = service.get_course(session, course_id, user, manage=True)
        a = assignments.create(session, course, data, registry)
    speed = assignments.speed_languages(session, a.id or 0)
    out = _assignment_out(session, a)
    out.editorial_runs = editorial.request(session, registry, user, speed, course.gpu_kind, enqueue)
    return out


@router.get("/{course_id}/gradebook", response_model=GradebookOut)
def gradebook(course_id: int, session: SessionDep, user: CurrentUser) -> GradebookOut:
    """Each student's standing on each assignment (its instructors only)."""
    with _errors():
        course = service.get_course(session, course_id, user, manage=True)
    book = grades.build(session, course)
    return GradebookOut(
        course_id=course_id,
        out_of=book.out_of,
        rows=[
            GradeRowOut(
                username=r.user.username,
                total=r.total,
                cells=[
                    CellOut(
                        assignment_id=c.assignment.id or 0,
                        problem=c.problem.problem,
                        **{
                            k: getattr(r.cells[c.key], k)
                            for k in CellOut.model_fields
                            if k not in ("assignment_id", "problem")
                        },
                    )
                    for c in book.columns
                ],
            )
            for r in book.rows
        ],
    )


@router.get("/{course_id}/gradebook.csv", summary="Gradebook as CSV")
def gradebook_csv(course_id: int, session: SessionDep, user: CurrentUser) -> Response:
    """The gradebook as a CSV file, for a spreadsheet (its instructors only)."""
    with _errors():
        course = service.get_course(session, course_id, user, manage=True)
    book = grades.build(session, course)
    return Response(
        export.to_csv(book),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{export.filename(book)}"'},
    )


@router.get(
    "/{course_id}/leaderboard", response_model=list[StandingOut], summary="Class leaderboard"
)
def leaderboard(course_id: int, session: SessionDep, user: CurrentUser) -> list[StandingOut]:
    """The class's own ranking on its assignments."""
    with _errors():
        course = service.get_course(session, course_id, user)
    return [StandingOut(**s.__dict__) for s in boards.standings(boards.boards(session, course))]
