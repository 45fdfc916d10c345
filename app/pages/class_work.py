"""A class's work: assignments (create, re-time, delete, measure the editorials), the
gradebook (page and CSV), the class leaderboard and the instructors' similarity report."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import Response
from pydantic import ValidationError

from app.classes import assignments, boards, editorial, export, grades, service, similarity
from app.classes.models import Assignment, Course, Rule
from app.classes.schemas import AssignmentCreate, Deadlines, ProblemRule
from app.deps import EnqueueDep, RegistryDep, SessionDep
from app.pages.classes import back, course_or_error, need_user
from app.pages.common import CsrfChecked, PageUser, render
from app.problems import ProblemRegistry
from judge import languages

router = APIRouter(include_in_schema=False)


def _first_error(e: ValidationError) -> str:
    err = e.errors()[0]
    where = ".".join(str(x) for x in err["loc"] if not isinstance(x, int))
    msg = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def _deadline_fields(
    opens_at: str, due_at: str, late_until: str, late_factor: str, timezone: str
) -> dict[str, Any]:
    return {
        "opens_at": opens_at,
        "due_at": due_at,
        "late_until": late_until or None,
        "late_factor": late_factor or "1",
        "timezone": timezone,
    }


def _starters(registry: ProblemRegistry, slugs: list[str]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for slug in slugs:
        p = registry.get(slug)
        if p is None:
            continue
        for lang in languages.all():
            out[(slug, lang.name)] = lang.starter(p)
    return out


@router.post("/classes/{course_id}/assignments", dependencies=[CsrfChecked])
def create(
    course_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    enqueue: EnqueueDep,
    title: Annotated[str, Form()] = "",
    opens_at: Annotated[str, Form()] = "",
    due_at: Annotated[str, Form()] = "",
    late_until: Annotated[str, Form()] = "",
    late_factor: Annotated[str, Form()] = "",
    timezone: Annotated[str, Form()] = "UTC",
    slug: Annotated[list[str] | None, Form()] = None,
    include: Annotated[list[str] | None, Form()] = None,
    rule: Annotated[list[str] | None, Form()] = None,
    points: Annotated[list[str] | None, Form()] = None,
    counted: Annotated[list[str] | None, Form(alias="languages")] = None,
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u, manage=True)
    chosen = set(include or [])
    slugs = slug or []
    # One "languages" choice per row (kernel, framework, any or a language name); a form
    # without the column counts the kernel track.
    langs = (counted or []) + [""] * len(slugs)
    rows = list(zip(slugs, rule or [], points or [], langs, strict=False))
    try:
        data = AssignmentCreate(
            title=title[:100],
            problems=[
                ProblemRule(
                    problem=s,
                    rule=r or Rule.CORRECTNESS,  # type: ignore[arg-type]
                    points=p or "10",  # type: ignore[arg-type]
                    languages=[lang[:32]] if lang else [],
                )
                for s, r, p, lang in rows
                if s in chosen
            ],
            **_deadline_fields(opens_at, due_at, late_until, late_factor, timezone[:64]),
        )
        if why := assignments.untimed_speed(course, data):  # said before anything is made
            raise service.ClassError(why, 422)
        a = assignments.create(session, course, data, registry)
    except ValidationError as e:
        return back(request, f"/classes/{course_id}", error=_first_error(e))
    except service.ClassError as e:
        return back(request, f"/classes/{course_id}", error=str(e))
    speed = assignments.speed_languages(session, a.id or 0)
    queued = editorial.request(session, registry, u, speed, course.gpu_kind, enqueue)
    note = f" Timing {len(queued)} editorial solutions for the speed score." if queued else ""
    return back(
        request, f"/classes/{course_id}/assignments/{a.id}", message="Assignment created." + note
    )


def _assignment(session: SessionDep, course: Course, assignment_id: int) -> Assignment:
    try:
        return assignments.get(session, course, assignment_id)
    except service.ClassError as e:
        raise HTTPException(e.status, str(e)) from e


@router.get("/classes/{course_id}/assignments/{assignment_id}")
def assignment_page(
    course_id: int,
    assignment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    threshold: float = similarity.DEFAULT_THRESHOLD,
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u)
    a = _assignment(session, course, assignment_id)
    manage = service.can_manage(session, u, course)
    book = grades.build(session, course, only_user=None if manage else u.id)
    cols = [c for c in book.columns if c.assignment.id == a.id]
    slugs = [c.problem.problem for c in cols]
    refs = editorial.reference_ms(session, slugs, course.gpu_kind)
    counted = {c.key: assignments.counted_languages(c.problem) for c in cols}
    pairs = (
        similarity.pairs(
            session,
            a,
            slugs,
            _starters(registry, slugs),
            course.gpu_kind,
            min(max(threshold, 0), 1),
        )
        if manage
        else []
    )
    return render(
        request,
        "class_assignment.html",
        u,
        course=course,
        a=a,
        cols=cols,
        book=book,
        row=book.row_of(u.id or 0),
        manage=manage,
        pairs=pairs,
        threshold=threshold,
        counted=counted,
        reference={c.key: editorial.fastest(refs, c.problem.problem, counted[c.key]) for c in cols},
        untimed_kind=course.gpu_kind in editorial.UNTIMED_KINDS,
        titles={p.slug: p.title for p in registry.catalog.ordered()},
        state=assignments.state(a),
        local=assignments.local,
        local_input=assignments.local_input,
    )


@router.post(
    "/classes/{course_id}/assignments/{assignment_id}/deadlines", dependencies=[CsrfChecked]
)
def retime(
    course_id: int,
    assignment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    opens_at: Annotated[str, Form()] = "",
    due_at: Annotated[str, Form()] = "",
    late_until: Annotated[str, Form()] = "",
    late_factor: Annotated[str, Form()] = "",
    timezone: Annotated[str, Form()] = "UTC",
) -> Response:
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    a = _assignment(session, course, assignment_id)
    here = f"/classes/{course_id}/assignments/{assignment_id}"
    try:
        data = Deadlines(
            **_deadline_fields(opens_at, due_at, late_until, late_factor, timezone[:64])
        )
    except ValidationError as e:
        return back(request, here, error=_first_error(e))
    assignments.retime(session, a, data)
    return back(request, here, message="Deadlines saved; the grades follow them.")


@router.post("/classes/{course_id}/assignments/{assignment_id}/delete", dependencies=[CsrfChecked])
def delete(
    course_id: int, assignment_id: int, request: Request, user: PageUser, session: SessionDep
) -> Response:
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    assignments.delete(session, _assignment(session, course, assignment_id))
    return back(
        request, f"/classes/{course_id}", message="Assignment deleted (submissions are kept)."
    )


@router.post(
    "/classes/{course_id}/assignments/{assignment_id}/editorial", dependencies=[CsrfChecked]
)
def measure(
    course_id: int,
    assignment_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    enqueue: EnqueueDep,
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u, manage=True)
    a = _assignment(session, course, assignment_id)
    speed = assignments.speed_languages(session, a.id or 0)
    ids = editorial.request(session, registry, u, speed, course.gpu_kind, enqueue, again=True)
    here = f"/classes/{course_id}/assignments/{assignment_id}"
    if course.gpu_kind in editorial.UNTIMED_KINDS:
        return back(
            request, here, error="This class grades on the CPU interpreter, which does not time."
        )
    return back(request, here, message=f"{len(ids)} editorial runs queued on {course.gpu_kind}.")


@router.get("/classes/{course_id}/gradebook")
def gradebook(course_id: int, request: Request, user: PageUser, session: SessionDep) -> Response:
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    return render(
        request, "class_gradebook.html", user, course=course, book=grades.build(session, course)
    )


@router.get("/classes/{course_id}/gradebook.csv")
def gradebook_csv(
    course_id: int, request: Request, user: PageUser, session: SessionDep
) -> Response:
    course = course_or_error(session, course_id, need_user(request, user), manage=True)
    book = grades.build(session, course)
    return Response(
        export.to_csv(book),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{export.filename(book)}"'},
    )


@router.get("/classes/{course_id}/leaderboard")
def leaderboard(
    course_id: int, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    u = need_user(request, user)
    course = course_or_error(session, course_id, u)
    per_problem = boards.boards(session, course)
    return render(
        request,
        "class_leaderboard.html",
        u,
        course=course,
        per_problem=per_problem,
        standings=boards.standings(per_problem),
        titles={p.slug: p.title for p in registry.catalog.ordered()},
    )
