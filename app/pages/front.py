"""The front door: a landing page for a first-time visitor (``/``, and ``/about`` for anyone)
and the tutorial for a first Triton and a first CUDA kernel on this judge (``/tutorial``).

A logged-in learner who opens ``/`` goes straight to the problem list. "Start here" is the
first problem of the learning path (``app/curriculum.py``, as the Learn page orders it):
vector-add in the shipped set.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app import capabilities, curriculum
from app.deps import RegistryDep, SettingsDep
from app.pages.common import PageUser, render
from app.problems import Catalog
from judge import languages
from judge.problem.schema import Problem

router = APIRouter(include_in_schema=False)


def first_problem(catalog: Catalog) -> Problem | None:
    """Where a newcomer starts: what the Learn page calls next for someone who solved nothing."""
    step = curriculum.build(catalog.ordered(), set()).next_step
    return step.problem if step is not None else None


def _context(registry: RegistryDep, settings: SettingsDep) -> dict[str, Any]:
    # What the best of the server's queues does: a server with a GPU kind among its kinds runs
    # everything there, whatever its default.
    kind = next((k for k in settings.gpu_kinds if k != capabilities.CPU), settings.gpu_kinds[0])
    return {
        "start": first_problem(registry.catalog),
        "problem_count": len(registry.catalog.problems),
        "gpu_kind": kind,
        "runs": [(lang, capabilities.note(lang.name, kind)) for lang in languages.all()],
    }


@router.get("/")
def home(
    request: Request, user: PageUser, registry: RegistryDep, settings: SettingsDep
) -> Response:
    if user is not None:
        return RedirectResponse("/problems", status_code=303)
    return render(request, "landing.html", user, **_context(registry, settings))


@router.get("/about")
def about(
    request: Request, user: PageUser, registry: RegistryDep, settings: SettingsDep
) -> Response:
    return render(request, "landing.html", user, **_context(registry, settings))


@router.get("/tutorial")
def tutorial(
    request: Request, user: PageUser, registry: RegistryDep, settings: SettingsDep
) -> Response:
    return render(request, "tutorial.html", user, **_context(registry, settings))
