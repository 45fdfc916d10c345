"""Collects the API routers under /api/v1."""

from fastapi import APIRouter

from app.api.routes import (
    admin,
    auth,
    classes,
    drafts,
    languages,
    leaderboard,
    playground,
    problems,
    submissions,
    tokens,
)

api_router = APIRouter()
for r in (
    auth,
    problems,
    languages,
    submissions,
    drafts,
    leaderboard,
    tokens,
    admin,
    classes,
    playground,
):
    api_router.include_router(r.router)
