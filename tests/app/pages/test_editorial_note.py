"""The editorial is announced before it opens and when it does (#37, item 7): statements cite
"the editorial", so a problem that has one says so near the top ("opens when you solve this"),
and the author's accepted kernel-track submission says it is open now."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

from app.core.config import Settings
from app.main import create_app
from tests.app.conftest import Queue, signup
from tests.class_factories import judged
from tests.conftest import FIXTURE_PROBLEMS

NOW = datetime.now(UTC).replace(microsecond=0)
EDITORIAL = "The EDITORIAL_OF_TOY_ADD explains the kernel."


@contextmanager
def _learner(
    settings: Settings, queue: Queue, tmp_path: Path, editorial: bool, name: str = "learner"
) -> Iterator[TestClient]:
    """The app on a copy of toy-add (with an editorial or none), ``name`` signed up."""
    problems = tmp_path / "problems"
    shutil.copytree(FIXTURE_PROBLEMS / "toy-add", problems / "toy-add")
    if editorial:
        (problems / "toy-add" / "editorial.md").write_text(EDITORIAL)
    s = settings.model_copy(update={"PROBLEMS_DIR": problems})
    with TestClient(create_app(s, enqueue=queue)) as c:
        signup(c, name)
        yield c


def test_the_editorial_is_announced_then_opened(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _learner(settings, queue, tmp_path, editorial=True) as c:
        page = c.get("/problems/toy-add").text
        assert "Editorial (opens when you solve this with a kernel of your own:" in page
        assert "Triton" in page.split("Editorial (opens when you solve this")[1][:200]
        assert "EDITORIAL_OF_TOY_ADD" not in page
        # The note comes before the statement, not after it.
        assert page.index("Editorial (opens") < page.index('<article class="markdown">')

        torch_sub = judged(engine, "learner", NOW, language="pytorch")
        assert "is open to you now" not in c.get(f"/submissions/{torch_sub}").text

        kernel_sub = judged(engine, "learner", NOW, language="triton")
        result = c.get(f"/submissions/{kernel_sub}").text
        assert "is open to you now" in result
        assert 'href="/problems/toy-add#editorial"' in result
        page = c.get("/problems/toy-add").text
        assert "EDITORIAL_OF_TOY_ADD" in page and 'id="editorial"' in page
        assert "Editorial (opens" not in page


def test_no_note_where_there_is_no_editorial(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _learner(settings, queue, tmp_path, editorial=False) as c:
        assert "editorial-note" not in c.get("/problems/toy-add").text
        sub = judged(engine, "learner", NOW, language="triton")
        assert "is open to you now" not in c.get(f"/submissions/{sub}").text


def test_someone_elses_accepted_submission_does_not_announce_it(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _learner(settings, queue, tmp_path, editorial=True, name="viewer") as c:
        signup(TestClient(c.app), "author")
        sub = judged(engine, "author", NOW, language="triton")
        assert "is open to you now" not in c.get(f"/submissions/{sub}").text
