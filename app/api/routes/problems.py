"""Problems: the list (with acceptance rates and solved marks) and one problem's details."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel

from app import stats, visibility, workers
from app.api.routes.languages import Availability
from app.deps import OptionalUser, RegistryDep, SessionDep, SettingsDep
from judge import languages

router = APIRouter(prefix="/problems", tags=["problems"])


class ProblemSummary(BaseModel):
    slug: str
    title: str
    difficulty: str
    tags: list[str]
    track: str | None  # problem.toml's track (the Learn page's grouping); None: no track
    prerequisites: list[str]  # slugs to solve first
    accepted: int
    judged: int
    acceptance_rate: float | None
    solved: bool


class ProblemDetail(ProblemSummary):
    statement_markdown: str
    statement_html: str
    signatures: dict[str, str]
    starters: dict[str, str]
    # Per language, per GPU kind: whether the workers can grade it now (app/workers.py).
    availability: dict[str, dict[str, Availability]]


@router.get("", response_model=list[ProblemSummary])
def list_problems(
    session: SessionDep, registry: RegistryDep, user: OptionalUser
) -> list[ProblemSummary]:
    """Every problem in the catalogue's order: title, difficulty, tags, track, acceptance, and
    whether the caller solved it."""
    acc = stats.acceptance(session)
    solved = visibility.solved_problems(session, user.id) if user and user.id else set()
    out = []
    for p in registry.catalog.ordered():
        a, n = acc.get(p.slug, (0, 0))
        out.append(
            ProblemSummary(
                slug=p.slug,
                title=p.title,
                difficulty=p.difficulty,
                tags=list(p.tags),
                track=p.track,
                prerequisites=list(p.prerequisites),
                accepted=a,
                judged=n,
                acceptance_rate=(a / n if n else None),
                solved=p.slug in solved,
            )
        )
    return out


@router.get("/{slug}", response_model=ProblemDetail)
def get_problem(
    slug: str,
    session: SessionDep,
    registry: RegistryDep,
    user: OptionalUser,
    settings: SettingsDep,
) -> ProblemDetail:
    """One problem: its statement, signature, starters per language, test and benchmark cases,
    limits."""
    p = registry.get(slug)
    if p is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    a, n = stats.acceptance(session).get(slug, (0, 0))
    solved = bool(user and user.id and slug in visibility.solved_problems(session, user.id))
    return ProblemDetail(
        slug=p.slug,
        title=p.title,
        difficulty=p.difficulty,
        tags=list(p.tags),
        track=p.track,
        prerequisites=list(p.prerequisites),
        accepted=a,
        judged=n,
        acceptance_rate=(a / n if n else None),
        solved=solved,
        statement_markdown=p.statement,
        statement_html=registry.catalog.statements.get(slug, ""),
        signatures={lang.name: lang.signature(p) for lang in languages.all()},
        starters={lang.name: lang.starter(p) for lang in languages.all()},
        availability={
            name: {k: Availability(**a) for k, a in kinds.items()}
            for name, kinds in workers.availability(session, settings.gpu_kinds).items()
        },
    )
