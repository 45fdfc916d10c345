"""The API docs page: Swagger UI served from the static bundle (no CDN), inside the site's frame.

FastAPI's own docs page loads Swagger UI from a CDN and starts it with an inline script, so it
is blank without internet and needs a looser Content-Security-Policy; this one loads
``dist/swagger/`` (copied from the ``swagger-ui-dist`` npm package at install) and a bundled
module, under the same policy as every other page.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.pages.common import PageUser, render

router = APIRouter(include_in_schema=False)

DOCS_PATH = "/api/v1/docs"


@router.get(DOCS_PATH)
def api_docs(request: Request, user: PageUser) -> Response:
    return render(request, "apidocs.html", user, openapi_url=request.app.openapi_url)
