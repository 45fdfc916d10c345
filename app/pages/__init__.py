"""HTML pages (Jinja2 templates in ``templates/``), one module per area."""

from fastapi import APIRouter

from app.pages import account, admin, auth, boards, class_work, classes, problems, submissions

router = APIRouter(include_in_schema=False)
for r in (auth, account, problems, submissions, boards, admin, classes, class_work):
    router.include_router(r.router)
