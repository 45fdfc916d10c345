"""``kerneldojo class gradebook CLASS --csv`` prints what the web's CSV serves (both
databases); ``class instructor`` grants the role; unknown or ambiguous classes are errors."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.models import User
from tests.app.api.routes.test_classes import NOW, assignment, make_class
from tests.class_factories import judged, user_client

KERNELDOJO = str(Path(sys.executable).parent / "kerneldojo")


def kd(db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": db_url}
    return subprocess.run([KERNELDOJO, *args], env=env, capture_output=True, text=True, timeout=120)


def test_gradebook_csv_matches_the_web(client: TestClient, engine: Engine, db_url: str) -> None:
    teacher, h, cid, code = make_class(client)
    assignment(teacher, h, cid)
    for name in ("ann", "bob"):
        c, csrf = user_client(client, name)
        c.post("/api/v1/classes/join", json={"code": code}, headers={"X-CSRF-Token": csrf})
    judged(engine, "ann", NOW - timedelta(days=2))
    judged(engine, "bob", NOW - timedelta(hours=1))  # late: x0.5
    web = teacher.get(f"/api/v1/classes/{cid}/gradebook.csv").text

    for ref in (str(cid), "GPU 101"):
        r = kd(db_url, "class", "gradebook", ref, "--csv")
        assert r.returncode == 0, r.stderr
        assert r.stdout == web
    lines = web.splitlines()
    assert lines[1:] == [
        "ann,accepted,,10,no,10,10",
        "bob,accepted,,5,yes,5,10",
    ]
    table = kd(db_url, "class", "gradebook", str(cid))
    assert table.returncode == 0 and "5/10 accepted late" in table.stdout
    assert "10/10" in table.stdout

    missing = kd(db_url, "class", "gradebook", "no such class", "--csv")
    assert missing.returncode == 2 and "no class" in missing.stderr
    make_class_again = teacher.post("/api/v1/classes", json={"name": "GPU 101"}, headers=h)
    assert make_class_again.status_code == 201
    twice = kd(db_url, "class", "gradebook", "GPU 101")
    assert twice.returncode == 2 and "give the id" in twice.stderr


def test_instructor_role_from_the_cli(client: TestClient, engine: Engine, db_url: str) -> None:
    user_client(client, "newprof")
    assert kd(db_url, "class", "instructor", "newprof").returncode == 0
    with Session(engine) as s:
        assert s.exec(select(User).where(User.username == "newprof")).one().is_instructor
    r = kd(db_url, "class", "instructor", "newprof", "--revoke")
    assert r.returncode == 0 and "no longer" in r.stdout
    with Session(engine) as s:
        assert not s.exec(select(User).where(User.username == "newprof")).one().is_instructor
    assert kd(db_url, "class", "instructor", "ghost").returncode == 2
