"""One number per problem, everywhere (#37, item 11): the problem list showed problem.toml's
``order`` (which skipped 19), the Learn page counted from 1 in every track, and the problem page
showed the order again. Now a problem's number is its place in the one order the site lists
problems in (the Learn page's: track by track, ``order`` within each), 1 to N without a gap,
and the list, the Learn page, the problem page and the playground show the same one."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.main import create_app
from judge.problem import loader
from tests.app.conftest import Queue


@pytest.fixture
def site(settings: Settings, queue: Queue) -> Iterator[TestClient]:
    s = settings.model_copy(update={"PROBLEMS_DIR": loader.REPO_PROBLEMS})
    with TestClient(create_app(s, enqueue=queue)) as c:
        yield c


def _list_numbers(c: TestClient) -> dict[str, int]:
    html = c.get("/problems").text
    rows = re.findall(
        r'<tr data-slug="([^"]+)">\s*<td class="col-status">.*?</td>\s*<td[^>]*>(\d+)</td>',
        html,
        re.S,
    )
    return {slug: int(n) for slug, n in rows}


def test_the_list_learn_and_problem_pages_agree_and_skip_nothing(site: TestClient) -> None:
    listed = _list_numbers(site)
    assert len(listed) >= 30
    assert list(listed.values()) == list(range(1, len(listed) + 1))  # in order, no gap

    learn = site.get("/learn").text
    steps = re.findall(
        r'data-slug="([^"]+)" data-state="[a-z]+">\s*<span class="learn-mark"[^>]*>(\d+)</span>',
        learn,
    )
    assert len(steps) == len(listed)
    assert {slug: int(n) for slug, n in steps} == listed
    assert [slug for slug, _ in steps] == list(listed)  # the same order too

    for slug in ("vector-add", "spmv-csr", "layernorm", "causal-gqa-attention"):
        page = site.get(f"/problems/{slug}").text
        m = re.search(r'<h1 class="problem-title">(\d+)\. ', page)
        assert m and int(m.group(1)) == listed[slug], (slug, m and m.group(1))
        play = site.get(f"/problems/{slug}/playground").text
        if "Playground:" in play:  # logged-out visitors may be sent to log in
            assert f">{listed[slug]}. " in play
