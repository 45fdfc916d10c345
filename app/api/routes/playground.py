"""The playground: run the learner's code on a case they choose, without a submission.

``POST /problems/{slug}/playground`` checks the case and queues it on the grading queue;
``GET /playground/{id}`` is polled by the page until the run is done (the learner's own runs
only). Nothing here counts: no submission row, no leaderboard, no statistics.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError

from app import playground
from app.deps import CurrentUser, RegistryDep, SessionDep, SettingsDep
from app.models import PlaygroundCreate, PlaygroundPublic, PlaygroundRun
from app.submissions import SubmissionError
from judge import playcase

router = APIRouter(tags=["playground"])


async def playground_body(request: Request, _: CurrentUser) -> PlaygroundCreate:
    """The JSON body, parsed only once its sender is authenticated (as a submission's is:
    app/api/routes/submissions.py's ``submission_body``)."""
    try:
        return PlaygroundCreate.model_validate_json(await request.body())
    except ValidationError as e:
        errors = [{**err, "loc": ("body", *err["loc"])} for err in e.errors(include_url=False)]
        raise RequestValidationError(errors) from e


_BODY_DOC: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": PlaygroundCreate.model_json_schema()}},
    }
}


def public(run: PlaygroundRun) -> PlaygroundPublic:
    status, result = playground.shown_result(run)
    return PlaygroundPublic.model_validate(
        run, update={"request": run.request, "result": result, "status": status}
    )


@router.get("/problems/{slug}/playground/limits")
def playground_limits(slug: str, registry: RegistryDep, settings: SettingsDep) -> dict[str, Any]:
    """The integer parameters the playground takes on this server's first GPU kind (the CPU:
    up to the largest interpreter test case), and the values it starts from."""
    problem = registry.get(slug)
    if problem is None:
        raise HTTPException(404, "no such problem")
    device = "cpu" if settings.gpu_kinds[0] == "cpu" else "cuda"
    return {
        "limits": playcase.limits(problem, device),
        "defaults": playcase.defaults(problem),
        "inputs": [a.name for a in problem.inputs],
    }


@router.post(
    "/problems/{slug}/playground",
    response_model=PlaygroundPublic,
    status_code=201,
    openapi_extra=_BODY_DOC,
)
def create_playground_run(
    slug: str,
    data: Annotated[PlaygroundCreate, Depends(playground_body)],
    request: Request,
    session: SessionDep,
    user: CurrentUser,
    registry: RegistryDep,
    settings: SettingsDep,
) -> Any:
    """Queue a playground run: the learner's sizes (within the test cases' limits), a seed, and
    optional literal inputs (JSON numbers). Rate-limited as submissions are."""
    try:
        run = playground.create(
            session,
            user,
            registry.get(slug),
            data,
            settings.gpu_kinds,
            settings.MAX_SOURCE_BYTES,
            settings.SUBMISSIONS_PER_MINUTE,
        )
    except SubmissionError as e:
        raise HTTPException(e.status, str(e)) from e
    assert run.id is not None
    send = getattr(request.app.state, "playground_enqueue", None)
    send = playground.enqueue if send is None else send
    try:
        send(run.id, run.gpu_kind)
    except Exception as e:  # a playground run is not kept for later: say so at once
        session.delete(run)
        session.commit()
        raise HTTPException(503, "the judge's queue is unreachable; try again shortly") from e
    return public(run)


@router.get("/playground/{run_id}", response_model=PlaygroundPublic)
def get_playground_run(run_id: int, session: SessionDep, user: CurrentUser) -> Any:
    """A playground run of the caller's: ``queued``, ``running`` (with its stage) or ``done``
    with its result (the outputs beside the reference's under ``result.playground``)."""
    run = session.get(PlaygroundRun, run_id)
    if run is None or run.user_id != user.id:
        raise HTTPException(404, "no such playground run")
    return public(run)
