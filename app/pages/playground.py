"""The playground page: the learner's current draft run on sizes, a seed or literal inputs of
their choosing, its outputs beside the reference's (app/api/routes/playground.py runs it)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
from sqlmodel import select

from app.deps import RegistryDep, SessionDep, SettingsDep
from app.models import Draft
from app.pages.common import PageUser, render
from judge import languages, playcase

router = APIRouter(include_in_schema=False)


@router.get("/problems/{slug}/playground")
def playground_page(
    slug: str,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
) -> Response:
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    kind = settings.gpu_kinds[0]
    drafts = {}
    if user is not None:
        for d in session.exec(select(Draft).where(Draft.user_id == user.id, Draft.problem == slug)):
            drafts[d.language] = {"source": d.source, "updated": d.updated_at.timestamp() * 1000}
    data = {
        "slug": slug,
        "loggedIn": user is not None,
        "languages": [lang.public() for lang in languages.all()],
        "starters": {lang.name: lang.starter(p) for lang in languages.all()},
        "drafts": drafts,
        # Per GPU kind (a CPU server's are the interpreter's test cases): the page's fields' max.
        "limits": {
            k: playcase.limits(p, "cpu" if k == "cpu" else "cuda") for k in settings.gpu_kinds
        },
        "gpuKinds": settings.gpu_kinds,
        "defaults": playcase.defaults(p),
        "inputs": [{"name": a.name, "dtype": a.dtype, "shape": list(a.shape)} for a in p.inputs],
        "gpuKind": kind,
    }
    return render(request, "playground.html", user, p=p, data=data, gpu_kind=kind)
