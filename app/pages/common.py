"""What every HTML page needs: the Jinja2 environment, the logged-in user, CSRF on forms,
notices carried to the next page in the session (``flash``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from pydantic import ValidationError
from sqlmodel import Session

from app import curriculum, sessions, unavailable
from app.core.security import csrf_matches
from app.deps import SessionDep
from app.models import User
from app.profile_view import short_name
from app.sessions import csrf_token
from app.social import notifications
from judge import languages
from judge.problem.schema import Problem
from judge.verdicts import Verdict

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
templates = Jinja2Templates(directory=TEMPLATES)


def verdict_label(v: str | None) -> str:
    if v == unavailable.VERDICT:  # the app's own (app/unavailable.py), not the judge's
        return unavailable.LABEL
    try:
        return Verdict(v).label if v else "Pending"
    except ValueError:
        return str(v)


def fmt_ms(v: float | None) -> str:
    if v is None:
        return "—"
    if v >= 100:
        return f"{v:,.0f} ms"
    if v >= 1:
        return f"{v:.2f} ms"
    return f"{v * 1000:.1f} µs"


def language_label(name: str) -> str:
    lang = languages.get(name)
    return lang.label if lang else name


def editor_mode(name: str) -> str:
    lang = languages.get(name)
    return lang.editor_mode if lang else languages.default().editor_mode


templates.env.filters["verdict_label"] = verdict_label
# The labels the browser shows (static/src/progress.js reads them from base.html): defined once,
# in judge/verdicts/py/
templates.env.globals["verdict_labels"] = {
    **{v.value: v.label for v in Verdict},
    unavailable.VERDICT: unavailable.LABEL,
}
# "Triton, CUDA, PyTorch, Numba or Pallas": what pages say a learner may write in, from the
# registry (a language added there is named everywhere).
_labels = [lang.label for lang in languages.all()]
templates.env.globals["language_list"] = (
    f"{', '.join(_labels[:-1])} or {_labels[-1]}" if len(_labels) > 1 else _labels[0]
)
templates.env.filters["language_label"] = language_label
templates.env.filters["editor_mode"] = editor_mode
templates.env.filters["ms"] = fmt_ms
templates.env.filters["kernel_name"] = short_name  # a kernel's name without its arguments
templates.env.filters["dt"] = lambda d: d.strftime("%Y-%m-%d %H:%M") if d else ""
templates.env.filters["by_track"] = curriculum.by_track  # the leaderboard's problem picker


@pass_context
def problem_number(ctx: Context, problem: Problem) -> int | str:
    """``{{ p|number }}``: the problem's number on every page (Catalog.number), from the
    request's registry; the toml's ``order`` where a page has no request."""
    request = ctx.get("request")
    registry = getattr(request.app.state, "registry", None) if request is not None else None
    n = registry.catalog.number(problem.slug) if registry is not None else None
    return n if n is not None else problem.order


templates.env.filters["number"] = problem_number


def page_user(request: Request, session: SessionDep) -> User | None:
    return sessions.current_user(session, request)


PageUser = Annotated[User | None, Depends(page_user)]


def check_csrf(
    request: Request, csrf_token_field: Annotated[str, Form(alias="csrf_token")] = ""
) -> None:
    if not csrf_matches(request.session.get("csrf"), csrf_token_field):
        raise HTTPException(
            403, "the form expired or came from another site; reload the page and try again"
        )


CsrfChecked = Depends(check_csrf)


FLASH = "flash"


def flash(request: Request, message: str = "", error: str = "") -> None:
    """A notice for the next page this browser renders, kept in the signed session cookie:
    a notice in the URL (``?message=``) would let any link put its text on the site."""
    if message or error:
        request.session[FLASH] = {"message": message[:500], "error": error[:500]}


def redirect(request: Request, url: str, message: str = "", error: str = "") -> RedirectResponse:
    """303 to ``url`` (a path), carrying a notice through the session (``flash``)."""
    flash(request, message, error)
    return RedirectResponse(url, 303)


def render(
    request: Request, name: str, user: User | None, status_code: int = 200, **ctx: Any
) -> HTMLResponse:
    notes = request.session.pop(FLASH, None) or {}  # shown once, on the next page rendered
    for key in ("message", "error"):
        ctx.setdefault(key, str(notes.get(key) or ""))
    if user is not None and user.id is not None and "unread_notifications" not in ctx:
        with Session(request.app.state.engine) as s:  # the bell's count (app/social)
            ctx["unread_notifications"] = notifications.unread_count(s, user.id)
    ctx.update(
        request=request,
        user=user,
        csrf=csrf_token(request),
        settings=request.app.state.settings,
        path=request.url.path,
    )
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def login_redirect_target(request: Request) -> str:
    return f"/login?next={request.url.path}"


def session_of(request: Request) -> Session:
    return Session(request.app.state.engine)


def form_errors(e: ValidationError) -> str:
    """A form's validation errors for a person: each as ``field: message`` (the field where
    pydantic names one), joined by "; ", without pydantic's "Value error, " prefix."""
    parts = []
    for err in e.errors(include_url=False, include_input=False):
        where = ".".join(str(x) for x in err["loc"] if not isinstance(x, int))
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)
