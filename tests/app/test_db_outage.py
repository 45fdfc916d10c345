"""A PostgreSQL outage (issue 36): every page answers 503 with Retry-After and a readable page,
the API 503 with JSON, and a submission made meanwhile is refused with a message to submit
again, never silently lost; once the database is back, everything works again.

The outage is this app's alone: it reaches the shared PostgreSQL through a TCP relay that the
test cuts (every connection closed, nothing listening) and restores, on the same port.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from app.core.config import Settings
from app.main import create_app
from tests.app.conftest import Queue, signup

GOOD = "import triton\n\ndef solve(a, b, c, n):\n    pass\n"


class Relay:
    """127.0.0.1:<port> -> the database's address, until ``cut``; ``restore`` reopens it."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", self.port))
        s.listen(64)
        self.port = s.getsockname()[1]
        self._listener = s
        threading.Thread(target=self._accept, args=(s,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            upstream = socket.create_connection(self.target)
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        assert self._listener is not None
        # shutdown first: it wakes the accept() blocked in the other thread (close alone
        # leaves the kernel's socket listening until that call returns).
        for s in [self._listener]:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


@pytest.fixture
def relay(db_url: str) -> Iterator[tuple[Relay, str]]:
    url = make_url(db_url)
    r = Relay((url.host or "127.0.0.1", url.port or 5432))
    yield r, url.set(host="127.0.0.1", port=r.port).render_as_string(hide_password=False)
    r.cut()


# An outage of a database server: PostgreSQL only (SQLite has no server to lose).
@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_an_outage_answers_503_and_loses_no_submission(
    settings: Settings, queue: Queue, relay: tuple[Relay, str]
) -> None:
    r, url = relay
    s = settings.model_copy(update={"DATABASE_URL": url})
    with TestClient(create_app(s, enqueue=queue)) as c:
        csrf = signup(c, "alice")
        body = {"problem": "toy-add", "language": "triton", "source": GOOD, "mode": "submit"}
        r.cut()

        page = c.get("/problems")
        assert page.status_code == 503 and int(page.headers["retry-after"]) > 0
        assert page.headers["content-type"].startswith("text/html")
        assert "database" in page.text and "try again" in page.text.lower()
        api = c.get("/api/v1/problems")
        assert api.status_code == 503 and "database" in api.json()["detail"]
        sent = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
        assert sent.status_code == 503 and int(sent.headers["retry-after"]) > 0
        assert "not stored" in sent.json()["detail"] and "again" in sent.json()["detail"]
        assert queue == []

        r.restore()
        assert c.get("/api/v1/submissions").json() == []  # refused, not half-stored
        again = c.post("/api/v1/submissions", json=body, headers={"X-CSRF-Token": csrf})
        assert again.status_code == 201 and [i for i, _ in queue] == [again.json()["id"]]
        assert c.get("/problems").status_code == 200
