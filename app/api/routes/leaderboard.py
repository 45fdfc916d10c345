"""Leaderboards: per problem and GPU kind, and the overall ranking."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel

from app import stats
from app.deps import RegistryDep, SessionDep, SettingsDep

router = APIRouter(prefix="/leaderboard", tags=["leaderboard"])


class EntryOut(BaseModel):
    rank: int
    username: str
    submission_id: int
    score_ms: float | None
    language: str
    finished_at: datetime | None


class OverallOut(BaseModel):
    rank: int
    username: str
    solved: int
    mean_rank: float


@router.get("", response_model=list[OverallOut], summary="Overall leaderboard")
def overall(
    session: SessionDep, registry: RegistryDep, settings: SettingsDep, gpu: str | None = None
) -> list[OverallOut]:
    """Every ranked user across the problems, on one GPU kind (``gpu``, the server's first by
    default)."""
    kind = gpu or settings.gpu_kinds[0]
    slugs = [p.slug for p in registry.catalog.ordered()]
    return [OverallOut(**e.__dict__) for e in stats.overall(session, slugs, kind)]


@router.get("/{slug}", response_model=list[EntryOut])
def problem_board(
    slug: str,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    gpu: str | None = None,
    track: str = "kernel",
) -> list[EntryOut]:
    """The board of one track: ``kernel`` (Triton, CUDA, Numba) or ``framework`` (PyTorch)."""
    if registry.get(slug) is None:
        raise HTTPException(404, f"unknown problem {slug!r}")
    if track not in stats.TRACKS:
        raise HTTPException(422, f"unknown track {track!r}; use one of {', '.join(stats.TRACKS)}")
    kind = gpu or settings.gpu_kinds[0]
    return [
        EntryOut(
            rank=e.rank,
            username=e.username,
            submission_id=e.submission_id,
            score_ms=e.score_ms,
            language=e.language,
            finished_at=e.finished_at,
        )
        for e in stats.leaderboard(session, slug, kind, track)
    ]
