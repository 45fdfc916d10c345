"""Collects the API routers under /api/v1."""

from fastapi import APIRouter

from app.api.routes import (
    admin,
    auth,
    classes,
    contests,
    discussions,
    drafts,
    languages,
    leaderboard,
    notifications,
    playground,
    problems,
    rating,
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
    contests,
    rating,
):
    api_router.include_router(r.router)
