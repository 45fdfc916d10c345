"""The Learn page: every problem in its track, in order, with prerequisites and what to do
next (app/curriculum.py). Logged in, it shows the learner's solved problems."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app import curriculum, visibility
from app.deps import RegistryDep, SessionDep
from app.pages.common import PageUser, render

router = APIRouter(include_in_schema=False)


@router.get("/learn")
def learn(request: Request, user: PageUser, session: SessionDep, registry: RegistryDep) -> Response:
    solved = visibility.solved_problems(session, user.id) if user and user.id else set()
    path = curriculum.build(registry.catalog.ordered(), solved)
    return render(request, "learn.html", user, learning=path)
