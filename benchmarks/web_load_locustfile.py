"""Locust users for ``benchmarks/web_load.py browse``: a class browsing KernelDojo.

Not run on its own: ``web_load.py`` seeds the database, writes the seed file named by
``KD_LOAD_SEED`` (slugs, submission ids, learners' names, their password) and starts
``locust -f`` on this file headless. Each simulated user is a learner with a browser tab:

* 70% log in through the HTML form (GET /login for the CSRF token, POST /login), with
  their own seeded account, then browse; 30% browse anonymously;
* between two requests they think 1-3 s (``between(1, 3)``);
* they open the problem list, problem pages, leaderboards (overall and per problem),
  submission pages and learners' profiles, and the ``/api/v1`` JSON equivalents (the
  editor's and the ``kerneldojo submit`` client's view).

Every request's latency is also written raw (``KD_LOAD_RAW``, one JSON line per request) so
that web_load.py computes exact percentiles and the figure without log-ins.

``FastHttpUser`` (geventhttpclient) keeps the load generator cheap: it shares the machine's
two cores with the server. Production marks the session cookie ``Secure`` (a class server sits
behind TLS); over plain HTTP to loopback the client's cookie jar would not send it back, so
each user keeps the ``kd_session`` cookie itself and sends it, as the browser behind TLS does.
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.cookiejar import DefaultCookiePolicy
from typing import Any, TypeVar

from locust import FastHttpUser, between, events, task

with open(os.environ["KD_LOAD_SEED"], encoding="utf-8") as _f:
    SEED = json.load(_f)
SLUGS: list[str] = SEED["slugs"]
SUB_IDS: list[int] = SEED["submission_ids"]
LEARNERS: list[str] = SEED["learners"]
PASSWORD: str = SEED["password"]
LOGGED_IN_SHARE = float(os.environ.get("KD_LOAD_LOGGED_IN", "0.7"))
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
SESSION_COOKIE = re.compile(r"kd_session=([^;]*)")

_Task = TypeVar("_Task", bound=Callable[..., None])


def weighted(weight: int) -> Callable[[_Task], _Task]:
    """Locust's ``@task(weight)``, typed (mypy sees locust as untyped where it is not installed).

    It marks the method as a task, picked ``weight`` times as often as a task of weight 1.
    """
    mark: Callable[[_Task], _Task] = task(weight)
    return mark


_raw: list[tuple[float, str, str, float, int, str | None]] = []
_next_learner = iter(range(10**9))


@events.request.add_listener
def _record(request_type, name, response_time, response_length, exception=None, **_kw):  # type: ignore[no-untyped-def]
    _raw.append(
        (
            time.time(),
            request_type,
            name,
            response_time,
            response_length,
            repr(exception) if exception else None,
        )
    )


@events.quitting.add_listener
def _dump(environment, **_kw):  # type: ignore[no-untyped-def]
    path = os.environ.get("KD_LOAD_RAW")
    if not path:
        return
    with open(path, "w", encoding="utf-8") as f:
        for ts, t, n, ms, size, exc in _raw:
            f.write(
                json.dumps({"t": ts, "method": t, "name": n, "ms": ms, "bytes": size, "error": exc})
                + "\n"
            )


# FastHttpUser is Any to mypy where locust is not installed (the dev environment).
class Learner(FastHttpUser):  # type: ignore[misc,unused-ignore]
    wait_time = between(1, 3)

    def on_start(self) -> None:
        # The session cookie is handled by hand (see the module's docstring).
        self.client.cookiejar.set_policy(
            DefaultCookiePolicy(blocked_domains=["127.0.0.1", "localhost"])
        )
        self.session_cookie = ""
        self.username: str | None = None
        if random.random() < LOGGED_IN_SHARE:
            self.username = LEARNERS[next(_next_learner) % len(LEARNERS)]
            self._login()

    @contextmanager
    def _request(self, method: str, path: str, name: str, **kw: Any) -> Iterator[Any]:
        headers = {"Cookie": f"kd_session={self.session_cookie}"} if self.session_cookie else {}
        with self.client.request(
            method, path, name=name, headers=headers, catch_response=True, **kw
        ) as r:
            set_cookie = (r.headers or {}).get("set-cookie") or ""
            m = SESSION_COOKIE.search(set_cookie)
            if m:
                self.session_cookie = m.group(1)
            yield r

    def _login(self) -> None:
        with self._request("GET", "/login", "GET /login") as r:
            m = CSRF.search(r.text or "")
            if r.status_code != 200 or not m:
                r.failure(f"login form: {r.status_code}")
                return
        form = {
            "csrf_token": m.group(1),
            "username": self.username,
            "password": PASSWORD,
            "next": "/problems",
        }
        with self._request("POST", "/login", "POST /login", data=form, allow_redirects=False) as r:
            if r.status_code != 303:
                r.failure(f"login: {r.status_code}")

    def _get(self, path: str, name: str) -> None:
        with self._request("GET", path, name) as r:
            if r.status_code != 200:
                r.failure(f"{r.status_code}")

    # --- HTML pages --------------------------------------------------------------------

    @weighted(4)
    def problem_list(self) -> None:
        self._get("/problems", "GET /problems")

    @weighted(5)
    def problem_page(self) -> None:
        self._get(f"/problems/{random.choice(SLUGS)}", "GET /problems/[slug]")

    @weighted(2)
    def leaderboard(self) -> None:
        self._get("/leaderboard", "GET /leaderboard")

    @weighted(3)
    def problem_board(self) -> None:
        self._get(f"/leaderboard/{random.choice(SLUGS)}", "GET /leaderboard/[slug]")

    @weighted(4)
    def submission_page(self) -> None:
        self._get(f"/submissions/{random.choice(SUB_IDS)}", "GET /submissions/[id]")

    @weighted(1)
    def profile(self) -> None:
        self._get(f"/users/{random.choice(LEARNERS[: len(LEARNERS) // 2])}", "GET /users/[name]")

    # --- the JSON API ------------------------------------------------------------------

    @weighted(1)
    def api_problems(self) -> None:
        self._get("/api/v1/problems", "GET /api/v1/problems")

    @weighted(2)
    def api_problem(self) -> None:
        self._get(f"/api/v1/problems/{random.choice(SLUGS)}", "GET /api/v1/problems/[slug]")

    @weighted(1)
    def api_leaderboard(self) -> None:
        self._get("/api/v1/leaderboard", "GET /api/v1/leaderboard")

    @weighted(1)
    def api_problem_board(self) -> None:
        self._get(f"/api/v1/leaderboard/{random.choice(SLUGS)}", "GET /api/v1/leaderboard/[slug]")

    @weighted(2)
    def api_submission(self) -> None:
        self._get(f"/api/v1/submissions/{random.choice(SUB_IDS)}", "GET /api/v1/submissions/[id]")

    @weighted(1)
    def api_mine(self) -> None:
        if self.username:  # the list of one's own submissions needs a log-in
            self._get("/api/v1/submissions", "GET /api/v1/submissions (mine)")
        else:
            self._get("/api/v1/problems", "GET /api/v1/problems")
