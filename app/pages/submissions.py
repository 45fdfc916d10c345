"""The submission page: live progress while it runs, then cases, compile log, timings, charts."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, Response

from app import capabilities, charts, profile_view, stats, submissions, visibility
from app.deps import RegistryDep, SessionDep, SettingsDep
from app.models import Status, Submission, User
from app.pages.common import PageUser, render
from judge import languages

router = APIRouter(include_in_schema=False)


@router.get("/submissions/{sub_id}")
def submission_page(
    sub_id: int,
    request: Request,
    user: PageUser,
    session: SessionDep,
    registry: RegistryDep,
    settings: SettingsDep,
) -> Response:
    sub = session.get(Submission, sub_id)
    if sub is None:
        raise HTTPException(404, f"There is no submission #{sub_id}.")
    owner = session.get(User, sub.user_id)
    problem = registry.get(sub.problem)
    code = visibility.may_see_code(session, user, sub)
    admin = bool(user and user.is_admin)
    result = visibility.result_for(sub.result, code=code, admin=admin) or {}
    bench = result.get("benchmark") or []
    lang = languages.get(sub.language)
    board = stats.leaderboard(
        session, sub.problem, sub.gpu_kind, lang.track if lang is not None else "kernel"
    )
    best: dict[str, float] = {}
    if board and board[0].submission_id != sub.id:
        top = session.get(Submission, board[0].submission_id)
        for b in ((top.result or {}).get("benchmark") or []) if top else []:
            best[b["name"]] = b["median_ms"]
    hist = stats.history(session, sub.user_id, sub.problem, sub.gpu_kind)
    rank = next((e.rank for e in board if e.submission_id == sub.id), None)
    done = sub.status == Status.DONE
    mine = user is not None and user.id == sub.user_id
    author = owner.username if owner else "the author"
    # The author's kernel-track acceptance opens the problem's editorial: say so on the result.
    editorial_open = (
        mine
        and sub.mode == "submit"
        and sub.verdict == "accepted"
        and lang is not None
        and lang.track == visibility.KERNEL
        and sub.problem in registry.catalog.editorials
    )
    history_title = (
        "Your submissions on this problem" if mine else f"{author}’s submissions on this problem"
    )
    return render(
        request,
        "submission.html",
        user,
        sub=sub,
        owner=owner,
        problem=problem,
        result=result,
        done=done,
        queue_position=submissions.queue_position(session, sub),
        show_source=code,
        internal=(sub.result or {}).get("internal") if admin else None,
        timing_svg=charts.timing_chart(bench, best) if bench else None,
        roofline_svg=charts.roofline_chart(bench) if bench else None,
        history_svg=charts.history_chart(
            [(h.id or 0, h.verdict, h.score_ms) for h in hist],
            sub.id,
            history_title,
        ),
        phases_svg=charts.phases_chart(result.get("phases") or {}),
        history_title=history_title,
        coverage=capabilities.coverage(problem, sub.gpu_kind, result, sub.language),
        support=capabilities.support(sub.language, sub.gpu_kind),
        rank=rank,
        editorial_open=editorial_open,
        board_size=len(board),
        passed=sum(1 for c in result.get("cases", []) if c.get("passed")),
        **profile_view.context(result, settings.DATA_DIR),
    )


@router.get("/submissions/{sub_id}/profile.ncu-rep")
def profile_report(
    sub_id: int, user: PageUser, session: SessionDep, settings: SettingsDep
) -> Response:
    """The raw Nsight Compute report of a profile, for whoever may see the submission's code."""
    sub = session.get(Submission, sub_id)
    if sub is None or not visibility.may_see_code(session, user, sub):
        raise HTTPException(404, f"There is no profile report for submission #{sub_id}.")
    profile = (sub.result or {}).get("profile") or {}
    path = profile_view.report_path(settings.DATA_DIR, profile.get("report_file"))
    if path is None:
        raise HTTPException(404, f"There is no profile report for submission #{sub_id}.")
    return FileResponse(
        path,
        media_type="application/octet-stream",
        filename=f"submission-{sub_id}-{sub.problem}.ncu-rep",
    )
