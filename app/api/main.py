"""Collects the API routers under /api/v1."""

from fastapi import APIRouter

from app.api.routes import (
    admin,
    auth,
    classes,
    discussions,
    drafts,
    languages,
    leaderboard,
    notifications,
    playground,
    problems,
    solutions,
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
    solutions,
    discussions,
    notifications,
):
    api_router.include_router(r.router)
