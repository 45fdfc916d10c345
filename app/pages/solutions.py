"""Published solutions' pages (issue 40): a problem's list (by votes or speed), one solution
with its write-up, code and discussion, the Publish form of an accepted submission, giving up
on a problem. The rules are app/social/solutions.py's; these pages only show them."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from app.deps import RegistryDep, SessionDep
from app.models import Submission, User
from app.pages.common import CsrfChecked, PageUser, login_redirect_target, redirect, render
from app.social import discussions, markup, solutions
from app.social.solutions import SolutionError

router = APIRouter(include_in_schema=False)


def _logged_in(user: User | None) -> User:
    if user is None:
        raise HTTPException(401, "Log in first.")
    return user


@router.get("/problems/{slug}/solutions")
def solution_list(
    slug: str,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    sort: str = "votes",
) -> Response:
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    if user is None:
        return RedirectResponse(login_redirect_target(request), 303)
    sort = sort if sort in solutions.SORTS else "votes"
    try:
        rows = solutions.listing(session, user, slug, sort)
    except SolutionError as e:
        return render(
            request,
            "solutions.html",
            user,
            status_code=e.status,
            p=p,
            refused=str(e),
            has_editorial=slug in registry.catalog.editorials,
        )
    mine = solutions.publishable(session, user, slug)
    return render(request, "solutions.html", user, p=p, rows=rows, sort=sort, mine=mine[:5])


@router.post("/problems/{slug}/give-up", dependencies=[CsrfChecked])
def give_up(
    slug: str, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    if registry.get(slug) is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    solutions.give_up(session, _logged_in(user), slug)
    return redirect(
        request,
        f"/problems/{slug}/solutions",
        "You gave up on this problem: its editorial and published solutions are open to you.",
    )


@router.get("/solutions/{sol_id}")
def solution_page(
    sol_id: int, request: Request, user: PageUser, session: SessionDep, registry: RegistryDep
) -> Response:
    try:
        sol = solutions.get(session, user, sol_id)
    except SolutionError as e:
        raise HTTPException(e.status, str(e)) from e
    thread = discussions.solution_thread(sol_id)
    return render(
        request,
        "solution.html",
        user,
        sol=sol,
        p=registry.get(sol.problem),
        writeup=markup.render(sol.writeup),
        thread=thread,
        comments=discussions.comments(session, user, thread),
        locked=discussions.is_locked(session, thread),
    )


def _own_accepted(session: SessionDep, user: User, sub_id: int) -> Submission:
    sub = session.get(Submission, sub_id)
    if sub is None or sub.user_id != user.id:
        raise HTTPException(404, f"You have no submission {sub_id}.")
    return sub


@router.get("/submissions/{sub_id}/publish")
def publish_form(sub_id: int, request: Request, user: PageUser, session: SessionDep) -> Response:
    if user is None:
        return RedirectResponse(login_redirect_target(request), 303)
    sub = _own_accepted(session, user, sub_id)
    return render(
        request, "publish.html", user, sub=sub, sol=solutions.of_submission(session, sub_id)
    )


@router.post("/submissions/{sub_id}/publish", dependencies=[CsrfChecked])
def publish(
    sub_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    title: Annotated[str, Form()] = "",
    writeup: Annotated[str, Form()] = "",
) -> Response:
    user = _logged_in(user)
    sub = _own_accepted(session, user, sub_id)
    try:
        sol = solutions.publish(session, user, sub_id, title, writeup)
    except SolutionError as e:
        return render(
            request,
            "publish.html",
            user,
            status_code=e.status,
            sub=sub,
            sol=solutions.of_submission(session, sub_id),
            error=str(e),
            title=title,
            writeup=writeup,
        )
    return redirect(
        request, f"/solutions/{sol.id}", "Published: learners who solved it can read it."
    )


@router.post("/solutions/{sol_id}/unpublish", dependencies=[CsrfChecked])
def unpublish(sol_id: int, request: Request, user: PageUser, session: SessionDep) -> Response:
    user = _logged_in(user)
    try:
        sol = solutions.get(session, user, sol_id)
        solutions.unpublish(session, user, sol_id)
    except SolutionError as e:
        raise HTTPException(e.status, str(e)) from e
    return redirect(
        request,
        f"/submissions/{sol.submission_id}",
        "Unpublished. Publish this submission again to bring it back with its votes.",
    )


@router.post("/solutions/{sol_id}/hide", dependencies=[CsrfChecked])
def hide(
    sol_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    hidden: Annotated[int, Form()] = 1,
) -> Response:
    try:
        solutions.set_hidden(session, _logged_in(user), sol_id, bool(hidden))
    except SolutionError as e:
        raise HTTPException(e.status, str(e)) from e
    return redirect(request, f"/solutions/{sol_id}", "Hidden." if hidden else "Shown again.")


@router.post("/solutions/{sol_id}/vote", dependencies=[CsrfChecked])
def vote(
    sol_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    up: Annotated[int, Form()] = 1,
) -> Response:
    try:
        solutions.vote(session, _logged_in(user), sol_id, bool(up))
    except SolutionError as e:
        raise HTTPException(e.status, str(e)) from e
    return RedirectResponse(f"/solutions/{sol_id}", 303)
