"""The learner's profile page (#37, "the learner's second hour"): submissions per day over the
last year, solved by difficulty and by track, languages, the best percent of speed of light per
problem, the dates, a friendly empty state, and a rating section drawn only when there are
ratings. On SQLite and PostgreSQL (the ``engine`` fixture's two databases)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from html import unescape
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session

from app.core.config import Settings
from app.main import create_app
from app.models import Mode, Submission
from app.pages.common import templates
from tests.app.conftest import Queue, signup
from tests.class_factories import judged
from tests.conftest import FIXTURE_PROBLEMS

TODAY = datetime.now(UTC).date()
# slug: (difficulty, learning track); toy-add's folder copied under each name.
PROBLEMS = {
    "toy-add": ("easy", "foundations"),
    "toy-mul": ("easy", "foundations"),
    "toy-scan": ("medium", "parallel-patterns"),
    "toy-attention": ("hard", "llm-kernels"),
}


@contextmanager
def _app(settings: Settings, queue: Queue, tmp_path: Path) -> Iterator[TestClient]:
    problems = tmp_path / "problems"
    for i, (slug, (difficulty, track)) in enumerate(PROBLEMS.items()):
        shutil.copytree(FIXTURE_PROBLEMS / "toy-add", problems / slug)
        toml = problems / slug / "problem.toml"
        text = toml.read_text().replace('difficulty = "easy"', f'difficulty = "{difficulty}"')
        text = text.replace('title = "Toy Addition"', f'title = "{slug.title()}"')
        toml.write_text(f'track = "{track}"\n' + text.replace("order = 1", f"order = {i + 1}"))
    s = settings.model_copy(update={"PROBLEMS_DIR": problems})
    with TestClient(create_app(s, enqueue=queue)) as c:
        yield c


def _at(days_ago: int) -> datetime:
    return datetime.combine(TODAY - timedelta(days=days_ago), time(12), UTC)


def _sub(
    engine: Engine,
    days_ago: int,
    mode: str = Mode.SUBMIT,
    sol: list[float] | None = None,
    **kw: Any,
) -> int:
    """A judged submission of ada's; ``sol`` (percent per benchmark case) records a GPU result."""
    sid = judged(engine, "ada", _at(days_ago), **kw)
    with Session(engine) as s:
        row = s.get(Submission, sid)
        assert row is not None
        row.mode = mode
        if sol is not None:
            bench = [{"name": f"case {i}", "sol_pct": p} for i, p in enumerate(sol)]
            row.result_json = json.dumps({"verdict": row.verdict, "benchmark": bench})
        s.add(row)
        s.commit()
    return sid


def _history(engine: Engine) -> int:
    """Ada's year: 3 submissions two days ago, 1 forty days ago, 2 a hundred days ago, one
    hidden yesterday and one over a year ago (neither on the heatmap); the id of her best."""
    _sub(engine, 2, verdict="wrong_answer", problem="toy-add")
    _sub(engine, 2, problem="toy-add", gpu_kind="h100", score_ms=2.0, sol=[30.0, 30.0])
    best = _sub(engine, 2, problem="toy-add", gpu_kind="h100", score_ms=1.0, sol=[50.0, 72.0])
    _sub(engine, 40, problem="toy-scan", language="cuda")
    _sub(engine, 100, problem="toy-attention", language="pytorch")  # a framework only
    _sub(engine, 100, Mode.RUN, verdict="wrong_answer", problem="toy-attention")
    _sub(engine, 1, problem="toy-mul", hidden=True)  # hidden: out of every public view
    _sub(engine, 400, verdict="wrong_answer", problem="toy-mul")
    return best


def _section(html: str, ident: str) -> str:
    """The text of the section with this id, tags stripped, spaces collapsed."""
    m = re.search(rf'<section[^>]*id="{ident}".*?</section>', html, re.S)
    assert m, f"no section {ident}"
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", m.group(0))).split())


def test_heatmap_counts_submissions_per_day(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _app(settings, queue, tmp_path) as c:
        signup(c, "ada")
        _history(engine)
        html = c.get("/users/ada").text
    cells = dict(re.findall(r'data-date="([\d-]+)" data-count="(\d+)"', html))
    assert len(cells) >= 365 and max(cells) == TODAY.isoformat()
    day = {k: (TODAY - timedelta(days=k)).isoformat() for k in (0, 1, 2, 40, 100, 400)}
    assert cells[day[2]] == "3" and cells[day[40]] == "1" and cells[day[100]] == "2"
    assert cells[day[1]] == "0" and cells[day[0]] == "0"  # the hidden one is not shown
    assert day[400] not in cells
    assert sum(map(int, cells.values())) == 6
    two_days_ago = TODAY - timedelta(days=2)
    assert f'title="3 submissions on {two_days_ago:%a %Y-%m-%d}"' in html
    assert f'title="1 submission on {TODAY - timedelta(days=40):%a %Y-%m-%d}"' in html
    assert f'title="No submissions on {TODAY:%a %Y-%m-%d}"' in html
    assert "6 submissions in the last year, on 3 days" in _section(html, "activity")
    # Joined today; last active two days ago (the hidden submission of yesterday is not shown).
    dates = re.search(r'id="profile-dates">(.*?)</p>', html, re.S)
    assert dates
    text = " ".join(re.sub(r"<[^>]+>", "", dates.group(1)).split())
    assert text == f"Member since {TODAY.isoformat()} · last active {two_days_ago.isoformat()}"


def test_solved_by_difficulty_and_track_languages_and_best_sol(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _app(settings, queue, tmp_path) as c:
        signup(c, "ada")
        best = _history(engine)
        html = c.get("/users/ada").text
    # Kernel-track acceptances solve toy-add (easy) and toy-scan (medium); toy-attention was
    # accepted in PyTorch only and toy-mul's acceptance is hidden.
    solved = _section(html, "solved-by")
    assert "Easy 1 / 2" in solved and "Medium 1 / 1" in solved and "Hard 0 / 1" in solved
    assert "Foundations 1 / 2" in solved and "Parallel patterns 1 / 1" in solved
    assert "LLM kernels 0 / 1" in solved
    assert "1 more with a framework only (Toy-Attention)" in solved
    assert re.search(r"<b>2<small> / 4</small></b><span>solved</span>", html)

    langs = _section(html, "languages")  # accepted submissions, then distinct problems
    assert "Triton 2 1" in langs and "CUDA 1 1" in langs and "PyTorch 1 1" in langs
    assert langs.index("Triton") < langs.index("CUDA")  # the most used first

    # toy-add on the H100: the faster acceptance (1 ms), at the geometric mean of its cases'
    # percentages (sqrt(50 * 72) = 60%), not the slower one's 30%.
    sol = _section(html, "best-sol")
    assert "Toy-Add H100 Triton 1.00 ms 60%" in sol
    assert "30%" not in sol and "Toy-Scan" not in sol  # untimed (CPU) acceptances have no SOL
    assert f'href="/submissions/{best}"' in html
    assert 'href="/leaderboard/toy-add?gpu=h100&amp;track=kernel"' in html
    assert 'id="rating-history"' not in html  # no rating yet, no empty section


def test_the_page_reads_a_fixed_number_of_queries(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    """No query per problem, per language or per day: twice the history, the same queries."""
    with _app(settings, queue, tmp_path) as c:
        signup(c, "ada")
        statements: list[str] = []

        def count(*args: object) -> None:
            statements.append(str(args[2]))

        app_engine = c.app.state.engine  # type: ignore[attr-defined]
        _history(engine)
        event.listen(app_engine, "before_cursor_execute", count)
        try:
            assert c.get("/users/ada").status_code == 200
            first = len(statements)
            _history(engine)
            for slug in PROBLEMS:
                _sub(engine, 3, problem=slug, language="cuda", gpu_kind="h100", score_ms=3.0)
            statements.clear()
            html = c.get("/users/ada").text
        finally:
            event.remove(app_engine, "before_cursor_execute", count)
    assert len(statements) == first
    assert first <= 14, statements
    best = _section(html, "best-sol")  # every problem's new timed acceptance, read all at once
    assert all(f"{slug.title()} H100" in best for slug in PROBLEMS)
    assert "Toy-Attention H100 CUDA 3.00 ms" in best  # recorded without a speed of light


def test_a_learner_with_nothing_gets_a_friendly_empty_state(
    settings: Settings, queue: Queue, engine: Engine, tmp_path: Path
) -> None:
    with _app(settings, queue, tmp_path) as c:
        signup(c, "newbie")
        own = c.get("/users/newbie").text
        other = TestClient(c.app).get("/users/newbie").text
    assert "You haven't submitted a kernel yet" in _section(own, "profile-empty")
    assert '<a class="btn btn-primary" href="/learn">Start the learning path' in own
    assert "newbie hasn't submitted a kernel yet" in _section(other, "profile-empty")
    assert "Start the learning path" not in other
    for page in (own, other):
        assert 'class="heatmap"' not in page and 'id="best-sol"' not in page
        assert f"Member since {TODAY.isoformat()} · not active yet" in " ".join(
            re.sub(r"<[^>]+>", "", page).split()
        )
        assert 'id="rating-history"' not in page


def test_the_rating_section_draws_the_points_it_is_given() -> None:
    """Ready for a rating: the profile's partial draws (date, rating) points, and nothing
    without them."""
    partial = templates.env.get_template("_rating_history.html")
    assert partial.render(rating_history=None).strip() == ""
    assert partial.render(rating_history=[]).strip() == ""
    points = [(date(2026, 9, 1), 1500.0), (date(2026, 10, 1), 1440.0), (date(2026, 11, 1), 1620.0)]
    html = partial.render(rating_history=points)
    assert 'id="rating-history"' in html and "1620 now · highest 1620" in html
    assert 'aria-label="Rating from 1500 on 2026-09-01 to 1620 on 2026-11-01"' in html
    assert html.count("<circle") == 3 and "<title>2026-10-01: 1440</title>" in html
    ys = [float(y) for y in re.findall(r'cy="([\d.]+)"', html)]
    assert ys[2] < ys[0] < ys[1]  # higher ratings are drawn higher
    one = partial.render(rating_history=[(date(2026, 11, 1), 1500.0)])
    assert one.count("<circle") == 1
