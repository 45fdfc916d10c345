"""The learning path (app/curriculum.py), the Learn page and the problem list's track filter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from app import curriculum
from app.core.config import Settings
from app.main import create_app
from app.models import Mode, Status, Submission, User
from judge.problem import loader
from judge.problem.loader import load_problem
from tests.app.conftest import Queue, signup
from tests.conftest import FIXTURE_PROBLEMS


@pytest.fixture(scope="module")
def real() -> list[loader.Problem]:
    report = loader.load_all(loader.REPO_PROBLEMS)
    return report.problems


def test_tracks_come_in_order_and_the_first_step_is_vector_add(
    real: list[loader.Problem],
) -> None:
    path = curriculum.build(real, set())
    keys = [t.key for t in path.tracks]
    assert keys[:2] == ["foundations", "parallel-patterns"]
    assert [t.label for t in path.tracks][:2] == ["Foundations", "Parallel patterns"]
    first = path.tracks[0].steps[0]
    assert first.problem.slug == "vector-add" and first.state == "ready"
    assert path.next_step is not None and path.next_step.problem.slug == "vector-add"
    assert path.solved == 0 and path.total == len(real)
    orders = [s.problem.order for s in path.tracks[0].steps]
    assert orders == sorted(orders)


def test_solving_moves_the_next_step_and_prerequisites_say_what_waits(
    real: list[loader.Problem],
) -> None:
    path = curriculum.build(real, {"vector-add"})
    steps = {s.problem.slug: s for t in path.tracks for s in t.steps}
    assert steps["vector-add"].state == "solved"
    assert path.next_step is not None and path.next_step.problem.slug == "reduction"
    softmax = steps["softmax"]
    assert softmax.state == "waiting" and softmax.missing_slugs == {"reduction"}
    fa = steps["flash-attention"]
    assert {p.slug for p in fa.prerequisites} == {"softmax", "matmul"}
    assert path.tracks[0].solved == 1
    everything = curriculum.build(real, {p.slug for p in real})
    assert everything.next_step is None and everything.solved == everything.total


def test_the_llm_track_follows_the_others_in_order(real: list[loader.Problem]) -> None:
    path = curriculum.build(real, set())
    keys = [t.key for t in path.tracks]
    assert keys.index("llm-kernels") == keys.index("parallel-patterns") + 1
    llm = path.tracks[keys.index("llm-kernels")]
    assert llm.label == "LLM kernels" and "language model" in llm.blurb
    slugs = [s.problem.slug for s in llm.steps]
    share = ["layernorm", "rmsnorm-residual", "swiglu", "rope"]
    assert [s for s in slugs if s in share] == share  # orders 20 to 23, in that order
    steps = {s.problem.slug: s for s in llm.steps}
    assert {p.slug for p in steps["rmsnorm-residual"].prerequisites} == {"layernorm"}
    assert steps["swiglu"].missing_slugs == {"gelu"}  # a prerequisite from another track
    assert all(p.track == "llm-kernels" for p in (s.problem for s in llm.steps))


def test_problems_without_a_track_come_last(real: list[loader.Problem]) -> None:
    toy = load_problem(FIXTURE_PROBLEMS / "toy-add")
    assert toy.track is None
    path = curriculum.build([toy, *real], set())
    assert path.tracks[-1].key == curriculum.OTHER
    assert path.tracks[-1].label == "More problems"
    assert [s.problem.slug for s in path.tracks[-1].steps] == ["toy-add"]


@pytest.fixture
def repo_client(settings: Settings, queue: Queue) -> Iterator[TestClient]:
    real_settings = settings.model_copy(update={"PROBLEMS_DIR": loader.REPO_PROBLEMS})
    with TestClient(create_app(real_settings, enqueue=queue)) as c:
        yield c


def test_learn_page_for_a_visitor_and_a_learner(repo_client: TestClient, engine: Engine) -> None:
    page = repo_client.get("/learn")
    assert page.status_code == 200
    html = page.text
    assert "Start here" in html and 'href="/problems/vector-add"' in html
    assert (
        html.index(">Foundations<")
        < html.index(">Parallel patterns<")
        < html.index(">LLM kernels<")
    )
    llm = html[html.index('id="track-llm-kernels"') :]
    assert 'class="learn-track-blurb muted small">The kernels inside a large language model' in llm
    assert llm.index('data-slug="layernorm"') < llm.index('data-slug="rope"')
    assert "sign up</a> to see your progress" in html

    signup(repo_client, "lea")
    with Session(engine) as s:
        uid = s.exec(select(User.id).where(User.username == "lea")).one()
        s.add(
            Submission(
                problem="vector-add",
                language="triton",
                user_id=uid,
                gpu_kind="cpu",
                source="x",
                mode=Mode.SUBMIT,
                status=Status.DONE,
                verdict="accepted",
            )
        )
        s.commit()
    html = repo_client.get("/learn").text
    assert "Next up" in html
    assert 'class="learn-next-link" href="/problems/reduction"' in html
    assert 'class="learn-solved-count">1<' in html
    assert 'data-slug="vector-add" data-state="solved"' in html
    assert 'data-slug="softmax" data-state="waiting"' in html


def test_problem_list_filters_by_track(repo_client: TestClient) -> None:
    html = repo_client.get("/problems?track=parallel-patterns").text
    assert "Argmax of Each Row" in html and "Vector Addition" not in html
    html = repo_client.get("/problems?track=foundations").text
    assert "Vector Addition" in html and "Argmax of Each Row" not in html
    assert '<option value="parallel-patterns" >Parallel patterns</option>' in html
    html = repo_client.get("/problems?track=nonsense").text
    assert "No problem matches these filters." in html


def test_the_api_lists_tracks_and_prerequisites(repo_client: TestClient) -> None:
    rows = {r["slug"]: r for r in repo_client.get("/api/v1/problems").json()}
    assert rows["vector-add"]["track"] == "foundations"
    assert rows["vector-add"]["prerequisites"] == []
    assert rows["stream-compaction"]["track"] == "parallel-patterns"
    assert rows["stream-compaction"]["prerequisites"] == ["prefix-sum"]
    one = repo_client.get("/api/v1/problems/flash-attention").json()
    assert one["prerequisites"] == ["softmax", "matmul"]
