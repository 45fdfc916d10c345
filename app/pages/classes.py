"""Class pages: the learner's class dashboard, creating and joining a class (code or invite
link), the class page with its roster and assignments. Assignments, the gradebook, the class
leaderboard and the similarity report are ``app/pages/class_work.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlalchemy.engine import Engine

from app.classes import assignments, codes, grades, service
from app.classes.models import Assignment, Course, Role
from app.classes.schemas import CourseCreate
from app.deps import EngineDep, RegistryDep, SessionDep, SettingsDep
from app.login_guard import client_ip
from app.models import User
from app.pages.common import CsrfChecked, PageUser, redirect, render
from judge import languages

router = APIRouter(include_in_schema=False)
T = TypeVar("T")


def need_user(request: Request, user: User | None) -> User:
    if user is None:
        raise HTTPException(401, "Log in first.")
    return user


def course_or_error(
    session: SessionDep, course_id: int, user: User, manage: bool = False
) -> Course:
    try:
        return service.get_course(session, course_id, user, manage)
    except service.ClassError as e:
        raise HTTPException(e.status, str(e)) from e


def back(request: Request, url: str, message: str = "", error: str = "") -> Response:
    """Back to a class page with a notice, through the session (never ``?message=``)."""
    return redirect(request, url, message, error)


def invite_link(request: Request, course: Course) -> str:
    """Shown to the instructor who asked; PUBLIC_URL's when set, so that it is the site's."""
    base = request.app.state.settings.PUBLIC_URL or str(request.base_url)
    return f"{base.rstrip('/')}/join/{course.invite_code}"


@router.get("/classes")
def dashboard(
    request: Request,
    user: PageUser,
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """Each class of the learner with its assignments: deadlines, state and their score."""
    if user is None:
        return RedirectResponse("/login?next=/classes", 303)
    mine: list[tuple[Course, str, list[tuple[Assignment, float | None, float]]]] = []
    for course, role in service.my_courses(session, user):
        if role == Role.INVITED:  # an invitation to co-teach: answered on this page
            mine.append((course, role, []))
            continue
        book = grades.build(session, course, only_user=user.id) if role == Role.STUDENT else None
        row = book.row_of(user.id or 0) if book else None
        work = []
        for a in service.assignments(session, course.id or 0):
            cols = [c for c in (book.columns if book else []) if c.assignment.id == a.id]
            score = sum(row.cells[c.key].score for c in cols) if row else None
            out_of = sum(c.problem.points for c in cols)
            work.append((a, score, out_of))
        mine.append((course, role, work))
    return render(
        request,
        "class_list.html",
        user,
        classes=mine,
        may_create=service.may_create(user),
        gpu_kinds=settings.gpu_kinds,
        state=assignments.state,
        local=assignments.local,
    )


@router.post("/classes", dependencies=[CsrfChecked])
def create(
    request: Request,
    user: PageUser,
    session: SessionDep,
    settings: SettingsDep,
    name: Annotated[str, Form()] = "",
    term: Annotated[str, Form()] = "",
    gpu_kind: Annotated[str, Form()] = "",
) -> Response:
    u = need_user(request, user)
    try:
        data = CourseCreate(name=name[:100], term=term[:60], gpu_kind=gpu_kind[:32] or None)
        course = service.create_course(session, u, data, settings.gpu_kinds)
    except ValidationError as e:
        return back(
            request, "/classes", error=str(e.errors()[0]["msg"]).removeprefix("Value error, ")
        )
    except service.ClassError as e:
        if e.status == 403:
            raise HTTPException(403, str(e)) from e
        return back(request, "/classes", error=str(e))
    return back(request, f"/classes/{course.id}", message="Class created; share its invite link.")


def _guarded(request: Request, engine: Engine, user: User | None, attempt: Callable[[], T]) -> T:
    """A code lookup under the invite-code throttle (app/classes/codes.py): 429 while locked."""
    try:
        return codes.guarded(engine, client_ip(request), user.id if user else None, attempt)
    except service.ClassError as e:
        if e.status == 429:
            raise HTTPException(429, str(e).capitalize() + ".", headers=e.headers()) from e
        raise


@router.post("/classes/join", dependencies=[CsrfChecked])
def join_by_code(
    request: Request,
    user: PageUser,
    session: SessionDep,
    engine: EngineDep,
    code: Annotated[str, Form()] = "",
) -> Response:
    u = need_user(request, user)
    try:
        course = _guarded(request, engine, u, lambda: service.join(session, u, code[:64]))
    except service.ClassError as e:
        return back(request, "/classes", error=str(e))
    return back(request, f"/classes/{course.id}", message=f"You joined {course.name}.")


def _by_code(session: SessionDep, code: str) -> Course:
    course = service.by_code(session, code[:64])
    if course is None:
        raise service.ClassError("not a class's code", 404)
    return course


@router.get("/join/{code}")
def invite(
    code: str, request: Request, user: PageUser, session: SessionDep, engine: EngineDep
) -> Response:
    """The invite link: a learner without an account signs up with the code filled in (and is
    enrolled by signing up); a logged-in one confirms. Throttled like a typed code."""
    try:
        course = _guarded(request, engine, user, lambda: _by_code(session, code))
    except service.ClassError as e:
        raise HTTPException(
            404, "This class invite link is not valid (any more); ask for a new one."
        ) from e
    if user is None:
        here = quote(f"/join/{course.invite_code}")
        return RedirectResponse(f"/signup?invite={quote(course.invite_code)}&next={here}", 303)
    member = service.membership(session, course.id or 0, user.id or 0)
    if member is not None and member.role != Role.INVITED:
        # Signing up through the link enrols; its next stop is this link again: the class.
        return back(request, f"/classes/{course.id}", message=f"You are in {course.name}.")
    return render(request, "class_join.html", user, course=course, member=member is not None)


@router.post("/join/{code}", dependencies=[CsrfChecked])
def invite_accept(
    code: str, request: Request, user: PageUser, session: SessionDep, engine: EngineDep
) -> Response:
    u = need_user(request, user)
    try:
        course = _guarded(request, engine, u, lambda: service.join(session, u, code[:64]))
    except service.ClassError as e:
        raise HTTPException(e.status, str(e)) from e
    return back(request, f"/classes/{course.id}", message=f"You joined {course.name}.")


@router.get("/classes/{course_id}")
def class_page(
    course_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u)
    manage = service.can_manage(session, u, course)
    book = grades.build(session, course, only_user=None if manage else u.id)
    work = []
    for a in service.assignments(session, course_id):
        cols = [c for c in book.columns if c.assignment.id == a.id]
        mine = book.row_of(u.id or 0)
        score = sum(mine.cells[c.key].score for c in cols) if mine else None
        work.append((a, cols, score, sum(c.problem.points for c in cols)))
    return render(
        request,
        "class_page.html",
        u,
        course=course,
        manage=manage,
        roster=service.roster(session, course_id) if manage else [],
        work=work,
        row=book.row_of(u.id or 0),
        invite_link=invite_link(request, course),
        catalog=registry.catalog.ordered(),
        languages=languages.all(),
        state=assignments.state,
        local=assignments.local,
        new_window=assignments.new_window(),
    )


@router.post("/classes/{course_id}/members/{user_id}/remove", dependencies=[CsrfChecked])
def remove_member(
    course_id: int, user_id: int, request: Request, user: PageUser, session: SessionDep
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u, manage=True)
    try:
        service.remove_member(session, course, user_id, u)
    except service.ClassError as e:
        return back(request, f"/classes/{course_id}", error=str(e))
    return back(request, f"/classes/{course_id}", message="Removed from the class.")


@router.post("/classes/{course_id}/instructors", dependencies=[CsrfChecked])
def invite_instructor(
    course_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    username: Annotated[str, Form()] = "",
) -> Response:
    """Invite an instructor to co-teach; they accept or decline on their Classes page."""
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    try:
        who = service.invite(session, course, username[:64])
    except service.ClassError as e:
        return back(request, f"/classes/{course_id}", error=str(e))
    return back(
        request,
        f"/classes/{course_id}",
        message=f"You invited {who.username} to co-teach; they accept on their Classes page.",
    )


@router.post("/classes/{course_id}/coteach", dependencies=[CsrfChecked])
def answer_invitation(
    course_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    accept: Annotated[str, Form()] = "",
) -> Response:
    """The invited instructor's answer: ``accept=1`` co-teaches, anything else declines."""
    u = need_user(request, user)
    try:
        course = service.answer(session, course_id, u, accept == "1")
    except service.ClassError as e:
        return back(request, "/classes", error=str(e))
    if accept != "1":
        return back(request, "/classes", message=f"You declined to co-teach {course.name}.")
    return back(request, f"/classes/{course_id}", message=f"You now co-teach {course.name}.")


@router.post("/classes/{course_id}/invite", dependencies=[CsrfChecked])
def new_invite(course_id: int, request: Request, user: PageUser, session: SessionDep) -> Response:
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    service.new_invite(session, course)
    return back(
        request, f"/classes/{course_id}", message="New invite code; the old link no longer works."
    )


@router.post("/admin/instructors", dependencies=[CsrfChecked])
def admin_instructor(
    request: Request,
    user: PageUser,
    session: SessionDep,
    username: Annotated[str, Form()] = "",
    revoke: Annotated[str, Form()] = "",
) -> Response:
    """An admin grants (or takes away) the instructor role (the CLI: ``class instructor``)."""
    if need_user(request, user).is_admin is False:
        raise HTTPException(403, "Only admins can grant the instructor role.")
    try:
        who = service.set_instructor(session, username[:64], revoke != "1")
    except service.ClassError as e:
        return back(request, "/admin", message=str(e))
    state = "is now" if who.is_instructor else "is no longer"
    return back(request, "/admin", message=f"{who.username} {state} an instructor.")
