"""HTML pages (Jinja2 templates in ``app/templates/``), one module per area."""

from fastapi import APIRouter

from app.pages import (
    account,
    account_settings,
    admin,
    apidocs,
    auth,
    boards,
    class_work,
    classes,
    contests,
    discussions,
    front,
    learn,
    playground,
    problems,
    solutions,
    submissions,
)

router = APIRouter(include_in_schema=False)
for r in (
    auth,
    account,
    account_settings,
    front,
    learn,
    problems,
    playground,
    submissions,
    boards,
    admin,
    apidocs,
    classes,
    class_work,
    solutions,
    discussions,
    contests,
):
    router.include_router(r.router)
