"""Class invite codes are throttled (issue 36), as SECURITY.md says: wrong codes count against
the address (the invite-code policy) and the account, on the API, the Classes page and the
invite link alike; past the allowance every attempt is refused with Retry-After, the right
code included, so guessing learns nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app.classes.models import Course
from app.core import throttle
from tests.class_factories import user_client

WRONG = "aaaa-bbbb-cccc-dddd"


def test_wrong_class_codes_lock_the_address(client: TestClient, engine: Engine) -> None:
    teacher, csrf = user_client(client, "teacher", instructor=True)
    teacher.post("/classes", data={"csrf_token": csrf, "name": "Kernels", "gpu_kind": "cpu"})
    with Session(engine) as s:
        code = s.exec(select(Course)).one().invite_code
    guesser, gcsrf = user_client(client, "guesser")
    h = {"X-CSRF-Token": gcsrf}
    free = throttle.POLICIES["invite-ip"].free
    statuses = [
        guesser.post("/api/v1/classes/join", json={"code": WRONG}, headers=h).status_code
        for _ in range(free + 2)
    ]
    assert statuses[:free] == [404] * free and statuses[-1] == 429
    r = guesser.post("/api/v1/classes/join", json={"code": code}, headers=h)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1  # no oracle while locked
    # The form and the link share the count (same address).
    r = guesser.post("/classes/join", data={"csrf_token": gcsrf, "code": WRONG})
    assert r.status_code == 429 and "try again in" in r.text
    assert TestClient(client.app).get(f"/join/{WRONG}").status_code == 429
    assert guesser.get(f"/join/{code}").status_code == 429
