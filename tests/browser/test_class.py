"""Class mode in the browser: an instructor creates a class and an assignment, a student
joins by the invite link (signing up through it), submits a wrong solution before the
deadline and a right one after it (late work accepted at half marks), and the instructor
downloads the gradebook, whose CSV rows match."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_learner import set_code
from tests.conftest import ROOT, LiveServer
from tests.samples import VECTOR_ADD as SOLUTION
from tests.samples import VECTOR_ADD_WRONG as WRONG

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]
PASSWORD = "correct-horse-battery"


def utc_input(d: datetime) -> str:
    return d.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")


def sign_up(page: Any, server: LiveServer, name: str, path: str = "/signup") -> None:
    page.goto(f"{server.url}{path}")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("form[action='/signup'] button[type=submit]")


def submit(page: Any, server: LiveServer, code: str) -> str:
    page.goto(f"{server.url}/problems/vector-add")
    page.wait_for_selector(".cm-content")
    set_code(page, code)
    page.click("#submit-btn")
    page.wait_for_url(re.compile(r"/submissions/\d+$"))
    page.wait_for_selector(".verdict-banner", timeout=180_000)
    return str(page.locator(".verdict-label").inner_text())


def test_instructor_and_student_class_flow(
    browser: Any, live_server: LiveServer, shots: Path, tmp_path: Path
) -> None:
    tag = uuid.uuid4().hex[:6]
    prof, stu = f"prof{tag}", f"stu{tag}"
    teacher = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    student = browser.new_context(viewport={"width": 1440, "height": 900})
    tp, sp = teacher.new_page(), student.new_page()
    for p in (tp, sp):
        p.set_default_timeout(30_000)

    # The instructor signs up; the server's operator grants the role on the command line.
    sign_up(tp, live_server, prof)
    tp.wait_for_url(re.compile(r"/problems$"))
    env = {**os.environ, "DATA_DIR": str(live_server.data_dir)}
    env.pop("DATABASE_URL", None)
    r = subprocess.run(
        [sys.executable, "-m", "app.cli", "class", "instructor", prof],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr

    tp.goto(f"{live_server.url}/classes")
    tp.fill("#new-class input[name=name]", f"GPU 101 {tag}")
    tp.fill("#new-class input[name=term]", "Spring 2027")
    tp.click("#new-class button[type=submit]")
    tp.wait_for_url(re.compile(r"/classes/\d+"))
    class_url = tp.url.split("?")[0]
    invite = tp.locator("#invite-link").input_value()
    tp.screenshot(path=str(shots / "class-page.png"), full_page=True)
    assert "/join/" in invite

    now = datetime.now(UTC)
    form = tp.locator("#new-assignment")
    form.locator("input[name=title]").fill("Week 1")
    form.locator("input[name=opens_at]").fill(utc_input(now - timedelta(hours=1)))
    form.locator("input[name=due_at]").fill(utc_input(now + timedelta(hours=1)))
    form.locator("input[name=late_until]").fill(utc_input(now + timedelta(hours=2)))
    form.locator("input[name=late_factor]").fill("0.5")
    form.locator("input[name=include][value=vector-add]").check()
    form.locator("input[aria-label='Points for Vector Addition']").fill("10")
    form.locator("button[type=submit]").click()
    tp.wait_for_selector("text=Assignment created")
    assignment_url = tp.url.split("?")[0]
    tp.screenshot(path=str(shots / "class-assignment.png"), full_page=True)
    assert "UTC" in tp.locator("#due-at").inner_text()

    # The student follows the invite link: sign-up with the code filled in, enrolled.
    sp.goto(invite)
    sp.wait_for_url(re.compile(r"/signup\?invite="))
    assert sp.locator("input[name=invite_code]").input_value() in invite
    sign_up_form = sp.locator("form[action='/signup']")
    sign_up_form.locator("input[name=username]").fill(stu)
    sign_up_form.locator("input[name=password]").fill(PASSWORD)
    sign_up_form.locator("button[type=submit]").click()
    sp.wait_for_selector("text=You are in")  # enrolled, and on the class's page (#37, item 11)
    assert "already in this class" not in sp.content()
    sp.goto(f"{live_server.url}/classes")
    assert "Week 1" in sp.locator(".class-card").inner_text()
    sp.screenshot(path=str(shots / "class-dashboard-before.png"), full_page=True)

    assert submit(sp, live_server, WRONG) == "Wrong Answer"  # before the deadline

    # The instructor moves the due time to now: the next submission is late.
    tp.goto(assignment_url)
    dl = tp.locator("#deadlines")
    dl.locator("input[name=due_at]").fill(utc_input(datetime.now(UTC) - timedelta(seconds=1)))
    dl.locator("button[type=submit]").click()
    tp.wait_for_selector("text=Deadlines saved")

    assert submit(sp, live_server, SOLUTION) == "Accepted"  # after it: graded, marked late
    sp.goto(assignment_url)
    mine = sp.locator("tr[data-problem=vector-add]")
    assert "late" in mine.locator(".my-verdict").inner_text()
    assert mine.locator(".my-score").inner_text().strip() == "5 / 10"
    sp.goto(f"{live_server.url}/classes")
    assert sp.locator(".my-score").first.inner_text().strip() == "5 / 10"
    sp.screenshot(path=str(shots / "class-dashboard.png"), full_page=True)

    tp.goto(f"{class_url}/gradebook")
    row = tp.locator(f"tr[data-username={stu}]")
    assert "5 / 10" in row.locator(".total").inner_text()
    tp.screenshot(path=str(shots / "class-gradebook.png"), full_page=True)
    with tp.expect_download() as got:
        tp.click("#gradebook-csv")
    saved = tmp_path / "gradebook.csv"
    got.value.save_as(saved)
    rows = list(csv.reader(io.StringIO(saved.read_text())))
    assert rows == [
        [
            "student",
            "Week 1 / vector-add verdict",
            "Week 1 / vector-add best_ms",
            "Week 1 / vector-add score",
            "Week 1 / vector-add late",
            "total",
            "out_of",
        ],
        [stu, "accepted", "", "5", "yes", "5", "10"],
    ]
    # The class leaderboard has the student; the similarity report is the instructor's.
    tp.goto(f"{class_url}/leaderboard")
    assert stu in tp.locator(".class-standings").inner_text()
    tp.goto(assignment_url)
    assert tp.locator("#similarity").count() == 1
    sp.goto(assignment_url)
    assert sp.locator("#similarity").count() == 0
    teacher.close()
    student.close()
