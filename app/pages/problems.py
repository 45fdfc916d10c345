"""The problem list (filters, solved marks, acceptance) and the problem page (statement + editor)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import Response
from sqlmodel import col, or_, select

from app import curriculum, stats, unavailable, visibility, workbench
from app.deps import RegistryDep, SessionDep, SettingsDep
from app.models import Submission
from app.pages.common import PageUser, render
from app.social import solutions
from judge import languages

router = APIRouter(include_in_schema=False)


@router.get("/problems")
def problem_list(
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    difficulty: str = "",
    tag: str = "",
    status: str = "",
    q: str = "",
    track: str = "",
) -> Response:
    acc = stats.acceptance(session)
    solved = visibility.solved_problems(session, user.id) if user and user.id else set()
    tried = set()
    if user:
        # Attempted: any submission but one the workers could not grade (no attempt).
        tried = set(
            session.exec(
                select(Submission.problem).where(
                    Submission.user_id == user.id,
                    or_(
                        col(Submission.verdict).is_(None),
                        col(Submission.verdict) != unavailable.VERDICT,
                    ),
                )
            ).all()
        )
    all_problems = registry.catalog.ordered()
    tags = sorted({t for p in all_problems for t in p.tags})
    # Tracks present, in the Learn page's order; "none" selects problems without a track.
    tracks = list(dict.fromkeys((p.track or "none") for p in curriculum.ordered(all_problems)))
    rows = []
    for p in curriculum.ordered(all_problems) if track else all_problems:
        if track and (p.track or "none") != track:
            continue
        if difficulty and p.difficulty != difficulty:
            continue
        if tag and tag not in p.tags:
            continue
        if status == "solved" and p.slug not in solved:
            continue
        if status == "unsolved" and p.slug in solved:
            continue
        if q and q.lower() not in (p.title + " " + p.slug + " " + " ".join(p.tags)).lower():
            continue
        a, n = acc.get(p.slug, (0, 0))
        rows.append(
            {
                "p": p,
                "accepted": a,
                "judged": n,
                "rate": (a / n if n else None),
                "solved": p.slug in solved,
                "tried": p.slug in tried,
            }
        )
    return render(
        request,
        "problems.html",
        user,
        rows=rows,
        tags=tags,
        tracks=[(t, curriculum.track_label("" if t == "none" else t)) for t in tracks],
        total=len(all_problems),
        solved_count=len(solved & set(registry.catalog.problems)),
        f={"difficulty": difficulty, "tag": tag, "status": status, "q": q, "track": track},
    )


@router.get("/problems/{slug}")
def problem_page(
    slug: str,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    from_id: Annotated[int | None, Query(alias="from", ge=1)] = None,
) -> Response:
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"There is no problem called “{slug}”.")
    solved = bool(user and user.id and visibility.has_solved(session, user.id, slug))
    # The editorial explains the kernels: it waits for a kernel-track acceptance.
    kernel_solved = bool(
        user and user.id and visibility.has_solved(session, user.id, slug, visibility.KERNEL)
    )
    # Giving up opens it too, recorded (app/social/solutions.py: give_up).
    gave_up = bool(user and user.id and solutions.gave_up(session, user.id, slug))
    mine = workbench.recent(session, user, slug)
    a, n = stats.acceptance(session).get(slug, (0, 0))
    data = {
        "slug": slug,
        "loggedIn": user is not None,
        # The editor's menu, highlighting and starters, in the registry's order.
        "languages": [lang.public() for lang in languages.all()],
        "starters": {lang.name: lang.starter(p) for lang in languages.all()},
        # What this server runs, drafts, an opened submission (app/workbench.py).
        **workbench.editor_data(session, user, p, settings.gpu_kinds, mine, from_id),
    }
    return render(
        request,
        "problem.html",
        user,
        p=p,
        languages=languages.all(),
        statement=registry.catalog.statements.get(slug, ""),
        editorial=registry.catalog.editorials.get(slug) if kernel_solved or gave_up else None,
        gave_up=gave_up,
        # Statements cite "the editorial": say near the top that there is one, and when it opens.
        has_editorial=slug in registry.catalog.editorials,
        kernel_languages=", ".join(x.label for x in languages.all() if x.track == "kernel"),
        solved=solved,
        mine=mine,
        accepted=a,
        judged=n,
        # Embedded with Jinja's tojson (problem.html): every <, > and & becomes \u003c,
        # \u003e, \u0026, so no text (a draft's "<!--<script>") can end or reopen the block.
        data=data,
        gpu_kinds=settings.gpu_kinds,
        # Profile: Nsight Compute on a GPU worker (judge/profile/); none on the CPU.
        profiling=any(k != "cpu" for k in settings.gpu_kinds),
    )
