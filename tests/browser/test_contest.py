"""A 3-minute contest with two learners in Chromium, end to end, against PostgreSQL (issue 40).

``kerneldojo serve`` runs on a fresh PostgreSQL schema with its worker alongside (the embedded
broker, the CPU interpreter), as the other browser tests' server does on SQLite. An admin creates
a contest on vector-add starting 20 s later, 3 minutes long, its board frozen for the last
minute, with the final re-run. Both learners join before the start (the reminder rings the
bell), watch the countdown, and submit through the API while the contest page is open: ada's
acceptance appears on bob's board over SSE without a reload; bob's wrong answer counts a try;
his acceptance after the freeze stays hidden from the others' board (not from the admin's).
At the end the re-run grades both best submissions again through the queue, and the pages
reveal the final board with each re-run's verdict; "results are out" is in the notifications
and the rating board rates both. Screenshots: contest.png and rating.png.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from app.compete.models import ContestRerun
from app.core.db import make_engine
from app.models import Submission, User
from tests.browser.test_learner import sign_up
from tests.conftest import PG_URL, ROOT, free_port, problems_root

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]
SOLUTIONS = ROOT / "problems/vector-add/solutions"
GOOD = (SOLUTIONS / "accepted/triton_simple.py").read_text()
WRONG = (SOLUTIONS / "rejected/wrong_answer_no_mask.py").read_text()
LENGTH_S, LEAD_S = 180, 20


class Server:
    def __init__(self, url: str, database_url: str, log: Path) -> None:
        self.url, self.database_url, self.log = url, database_url, log


@contextlib.contextmanager
def serving_on_postgres(data: Path) -> Iterator[Server]:
    """``kerneldojo serve`` (web, embedded broker, a CPU worker) on a schema of its own."""
    schema = f"kd_contest_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(PG_URL)
    with admin.begin() as c:
        c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    db = f"{PG_URL}?options=-csearch_path%3D{schema}"
    port = free_port()
    env = {**os.environ, "DATA_DIR": str(data), "KERNELDOJO_GPU_KIND": "cpu",
           "ENVIRONMENT": "development", "PROBLEMS_DIR": str(problems_root()),
           "KERNELDOJO_PROBLEMS": str(problems_root()), "KERNELDOJO_SELF_TEST": "0",
           "DATABASE_URL": db, "SWEEP_EVERY_S": "5"}  # fmt: skip
    for k in ("REDIS_URL", "GPU_KINDS"):
        env.pop(k, None)
    log = data / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/problems", timeout=2).status_code == 200:
                    break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"kerneldojo serve did not start:\n{log.read_text()[-4000:]}")
            time.sleep(0.3)
        yield Server(url, db, log)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        with admin.begin() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _api(page: Any, server: Server, method: str, path: str, body: Any = None) -> Any:
    csrf = page.get_attribute("meta[name=csrf-token]", "content")
    r = page.request.fetch(
        f"{server.url}/api/v1{path}", method=method, data=body, headers={"X-CSRF-Token": csrf}
    )
    assert r.ok, r.text()
    return r.json()


def _submit(page: Any, server: Server, source: str) -> int:
    body = {"problem": "vector-add", "language": "triton", "source": source, "mode": "submit"}
    return int(_api(page, server, "POST", "/submissions", body)["id"])


def _graded(page: Any, server: Server, sid: int, timeout_s: float = 180) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        s = _api(page, server, "GET", f"/submissions/{sid}")
        if s["status"] == "done":
            return str(s["verdict"])
        time.sleep(1)
    raise AssertionError(
        f"submission {sid} not graded in {timeout_s} s:\n{server.log.read_text()[-3000:]}"
    )


def _sleep_until(t: datetime) -> None:
    time.sleep(max(0.0, (t - datetime.now(UTC)).total_seconds()))


def test_a_three_minute_contest(browser: Any, shots: Path, tmp_path: Path) -> None:
    with serving_on_postgres(tmp_path) as server:
        pages = []
        for _ in range(3):
            ctx = browser.new_context(viewport={"width": 1280, "height": 860})
            p = ctx.new_page()
            p.set_default_timeout(30_000)
            pages.append(p)
        root, ada, bob = pages
        names = [sign_up(p, server) for p in pages]  # type: ignore[arg-type]
        engine = make_engine(server.database_url)
        with Session(engine) as s:
            u = s.exec(select(User).where(User.username == names[0])).one()
            u.is_admin = True
            s.add(u)
            s.commit()

        start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=LEAD_S)
        end = start + timedelta(seconds=LENGTH_S)
        root.goto(f"{server.url}/contests")
        c = _api(root, server, "POST", "/contests", {
            "title": "Friday sprint", "problems": ["vector-add"], "start_at": start.isoformat(),
            "end_at": end.isoformat(), "freeze_minutes": 1, "rerun": True,
        })  # fmt: skip
        cid, page_url = c["id"], f"{server.url}/contests/{c['id']}"
        assert c["phase"] == "upcoming" and c["gpu_kind"] == "cpu"
        for p in (ada, bob):
            p.goto(page_url)
            assert p.locator(".countdown-label").text_content() == "Starts in"
            p.click("#join")
            p.wait_for_selector("#joined")
        ada.goto(f"{server.url}/notifications")
        assert "“Friday sprint” starts in 1 minute" in ada.locator("main").inner_text()
        for p in (root, ada, bob):
            p.goto(page_url)
            assert p.locator("#countdown-time").inner_text().startswith("00:00:")

        # The start: the stream says "running" and the pages reload themselves.
        for p in (ada, bob):
            p.wait_for_selector("#contest-phase:has-text('running')", timeout=(LEAD_S + 15) * 1000)
        assert ada.locator(".contest-problems-list a").inner_text() == "Vector Addition"
        bob.evaluate("window.__same_page = 1")
        assert _graded(ada, server, _submit(ada, server, GOOD)) == "accepted"
        bob.wait_for_selector(f"#board tr:has-text('{names[1]}') td.cell.ok", timeout=15_000)
        assert bob.evaluate("window.__same_page") == 1  # drawn from the stream, not reloaded
        assert _graded(bob, server, _submit(bob, server, WRONG)) == "wrong_answer"

        # The freeze: bob's acceptance now stays behind it, except for the admin.
        _sleep_until(end - timedelta(seconds=58))
        bob_ok = _submit(bob, server, GOOD)
        ada.goto(page_url)
        assert ada.locator("#contest-phase").inner_text() == "frozen"
        assert _graded(bob, server, bob_ok) == "accepted"
        ada.goto(page_url)  # frozen still, or judging the re-run: the board stays frozen
        assert "Frozen since" in ada.locator("#board-note").inner_text()
        bob_row = ada.locator(f"#board tr:has-text('{names[2]}')")
        assert bob_row.locator("td.cell").inner_text().strip() == "−1"
        assert _api(ada, server, "GET", f"/contests/{cid}/standings")["frozen"] is True
        seen = _api(root, server, "GET", f"/contests/{cid}/standings")
        assert [line["solved"] for line in seen["lines"]] == [1, 1]
        ada.screenshot(path=str(shots / "contest.png"), full_page=True)

        # The end: the re-run grades both best submissions again, then the reveal.
        _sleep_until(end)
        for p in (ada, bob):
            p.wait_for_selector("#contest-phase:has-text('final')", timeout=240_000)
        board = ada.locator("#board tbody tr")
        assert board.count() == 2
        assert names[1] in board.nth(0).inner_text() and names[2] in board.nth(1).inner_text()
        assert ada.locator("#board td.cell.ok .rerun").all_inner_texts() == ["re-run: accepted"] * 2
        final = _api(bob, server, "GET", f"/contests/{cid}/standings")
        assert [(x["rank"], x["solved"], x["points"]) for x in final["lines"]] == [
            (1, 1, 100.0),
            (2, 1, 100.0),
        ]
        with Session(engine) as s:
            reruns = s.exec(select(ContestRerun).where(ContestRerun.contest_id == cid)).all()
            assert bob_ok in {r.original_id for r in reruns} and len(reruns) == 2
            again = [s.get(Submission, r.rerun_id) for r in reruns]
            assert all(x and x.hidden and x.verdict == "accepted" for x in again)
        bob.goto(f"{server.url}/notifications")
        assert (
            "results of “Friday sprint” are out: you placed 2 of 2"
            in bob.locator("main").inner_text()
        )

        root.goto(f"{server.url}/rating?gpu=cpu")
        rows = root.locator("#rating-board tbody tr")
        assert rows.count() == 2 and "1075" in rows.nth(0).inner_text()
        assert [rows.nth(i).locator("td").first.inner_text() for i in range(2)] == ["1", "1"]
        root.set_viewport_size({"width": 1280, "height": 480})
        root.screenshot(path=str(shots / "rating.png"))
        ada.goto(f"{server.url}/users/{names[1]}")
        assert "1075 now" in ada.locator("#rating-history").inner_text()
        engine.dispose()
