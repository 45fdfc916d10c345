"""Published solutions (issue 40): list a problem's, read one, publish, unpublish, vote, and
hide (admins). A problem's solutions open to learners who solved it or gave up on it and opened
its editorial (``POST /problems/{slug}/give-up``): app/social/solutions.py."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Response
from pydantic import BaseModel, Field

from app.deps import AdminUser, CurrentUser, OptionalUser, RegistryDep, SessionDep
from app.social import markup, solutions
from app.social.solutions import SolutionError, SolutionView

router = APIRouter(tags=["solutions"])


class SolutionOut(BaseModel):
    id: int
    problem: str
    title: str
    username: str
    submission_id: int
    language: str
    gpu_kind: str
    verdict: str | None = Field(description="the submission's verdict, as recorded by the judge")
    score_ms: float | None = Field(description="its recorded score (none on the CPU)")
    sol_pct: float | None = Field(description="its recorded percent of the speed of light")
    votes: int
    voted: bool
    hidden: bool
    created_at: datetime
    updated_at: datetime


class SolutionDetailOut(SolutionOut):
    writeup: str
    writeup_html: str = Field(description="the write-up rendered and sanitised")
    source: str


class PublishIn(BaseModel):
    submission_id: int
    title: str = Field(min_length=1, max_length=solutions.TITLE_MAX)
    writeup: str = Field(default="", max_length=solutions.WRITEUP_MAX)


class VoteIn(BaseModel):
    up: bool = True


class VotesOut(BaseModel):
    votes: int


class HiddenIn(BaseModel):
    hidden: bool = True


def _out(v: SolutionView) -> SolutionOut:
    return SolutionOut(**{k: getattr(v, k) for k in SolutionOut.model_fields})


def _detail(v: SolutionView) -> SolutionDetailOut:
    return SolutionDetailOut(
        **_out(v).model_dump(),
        writeup=v.writeup,
        writeup_html=markup.render(v.writeup),
        source=v.source,
    )


def _fail(e: SolutionError) -> HTTPException:
    return HTTPException(e.status, str(e))


@router.get(
    "/problems/{slug}/solutions",
    response_model=list[SolutionOut],
    summary="A problem's published solutions",
)
def list_solutions(
    slug: str,
    session: SessionDep,
    registry: RegistryDep,
    user: OptionalUser,
    sort: Annotated[str, Query(description="votes (most first) or speed (fastest first)")] = (
        "votes"
    ),
) -> list[SolutionOut]:
    """The published solutions of a problem that the caller may read (403 until they have
    solved it or given up on it), by votes or by speed."""
    if registry.get(slug) is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    try:
        return [_out(v) for v in solutions.listing(session, user, slug, sort)]
    except SolutionError as e:
        raise _fail(e) from e


@router.post("/problems/{slug}/give-up", status_code=204, summary="Give up and open the editorial")
def give_up(slug: str, session: SessionDep, registry: RegistryDep, user: CurrentUser) -> Response:
    """Records that the caller gave up on the problem: its editorial and published solutions
    open to them. It cannot be taken back."""
    if registry.get(slug) is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    solutions.give_up(session, user, slug)
    return Response(status_code=204)


@router.get("/solutions/{sol_id}", response_model=SolutionDetailOut, summary="A published solution")
def get_solution(sol_id: int, session: SessionDep, user: OptionalUser) -> SolutionDetailOut:
    """One published solution with its write-up (Markdown and sanitised HTML) and its code."""
    try:
        return _detail(solutions.get(session, user, sol_id))
    except SolutionError as e:
        raise _fail(e) from e


@router.post(
    "/solutions", response_model=SolutionDetailOut, status_code=201, summary="Publish a solution"
)
def publish(body: PublishIn, session: SessionDep, user: CurrentUser) -> SolutionDetailOut:
    """Publishes one of the caller's accepted submissions with a title and a Markdown write-up
    (again: updates them). Verdict, time and speed of light come from the stored result."""
    try:
        sol = solutions.publish(session, user, body.submission_id, body.title, body.writeup)
        assert sol.id is not None
        return _detail(solutions.get(session, user, sol.id))
    except SolutionError as e:
        raise _fail(e) from e


@router.delete("/solutions/{sol_id}", status_code=204, summary="Unpublish a solution")
def unpublish(sol_id: int, session: SessionDep, user: CurrentUser) -> Response:
    """The author takes their solution back (publishing the submission again restores it)."""
    try:
        solutions.unpublish(session, user, sol_id)
    except SolutionError as e:
        raise _fail(e) from e
    return Response(status_code=204)


@router.put("/solutions/{sol_id}/vote", response_model=VotesOut, summary="Vote for a solution")
def vote(sol_id: int, body: VoteIn, session: SessionDep, user: CurrentUser) -> VotesOut:
    """Adds (``up``: true) or takes back the caller's vote; not on one's own solution."""
    try:
        return VotesOut(votes=solutions.vote(session, user, sol_id, body.up))
    except SolutionError as e:
        raise _fail(e) from e


@router.put("/admin/solutions/{sol_id}/hidden", status_code=204, summary="Hide or show a solution")
def hide(sol_id: int, body: HiddenIn, session: SessionDep, admin: AdminUser) -> Response:
    """Admins: hides a published solution from everyone but its author and admins."""
    try:
        solutions.set_hidden(session, admin, sol_id, body.hidden)
    except SolutionError as e:
        raise _fail(e) from e
    return Response(status_code=204)
