"""The learners' rating (issue 40): the board, filterable by language and GPU kind, and one
learner's rating with its history. The formula: docs/rating.md, app/compete/rating.py."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field
from sqlmodel import select

from app.compete import rating
from app.deps import RegistryDep, SessionDep, SettingsDep
from app.models import User
from judge import languages

router = APIRouter(tags=["rating"])


class RatingRow(BaseModel):
    rank: int
    username: str
    rating: float
    solved: int = Field(description="problems that count toward it")


class RatingPointOut(BaseModel):
    at: datetime
    rating: float


class UserRatingOut(BaseModel):
    username: str
    rating: float | None = Field(description="none before a first accepted Submit")
    history: list[RatingPointOut]


def difficulty_of(registry: RegistryDep) -> dict[str, str]:
    return {p.slug: p.difficulty for p in registry.catalog.problems.values()}


def check_filters(language: str, gpu: str, gpu_kinds: list[str]) -> None:
    if language and languages.get(language) is None:
        raise HTTPException(
            422, f"unknown language {language!r}; use one of {', '.join(languages.names())}"
        )
    if gpu and gpu not in gpu_kinds:
        raise HTTPException(
            422, f"unknown GPU kind {gpu!r}; this server has {', '.join(gpu_kinds)}"
        )


@router.get("/rating", response_model=list[RatingRow], summary="The rating board")
def rating_board(
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
    language: str = "",
    gpu: str = "",
) -> list[RatingRow]:
    """Every rated learner, highest first: 1000 plus, per problem solved, its weight (easy
    100, medium 200, hard 300; half on the framework track) × (1 + speed percentile) / 2.
    ``language`` and ``gpu`` count only the submissions in that language or on that GPU kind."""
    check_filters(language, gpu, settings.gpu_kinds)
    rows = rating.board(session, difficulty_of(registry), language or None, gpu or None)
    return [
        RatingRow(rank=r.rank, username=r.username, rating=round(r.rating, 2), solved=r.solved)
        for r in rows
    ]


@router.get("/users/{username}/rating", response_model=UserRatingOut, summary="A rating")
def user_rating(username: str, session: SessionDep, registry: RegistryDep) -> UserRatingOut:
    """A learner's overall rating now and its history (a point each time it moved)."""
    who = session.exec(select(User).where(User.username == username)).first()
    if who is None or who.id is None:
        raise HTTPException(404, f"there is no learner called {username!r}")
    now = rating.current(session, who.id, difficulty_of(registry))
    return UserRatingOut(
        username=who.username,
        rating=None if now is None else round(now, 2),
        history=[
            RatingPointOut(at=a, rating=round(r, 2)) for a, r in rating.history(session, who.id)
        ],
    )
