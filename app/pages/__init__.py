"""HTML pages (Jinja2 templates in ``templates/``), one module per area."""

from fastapi import APIRouter

from app.pages import account, admin, auth, boards, problems, submissions

router = APIRouter(include_in_schema=False)
for r in (auth, account, problems, submissions, boards, admin):
    router.include_router(r.router)
