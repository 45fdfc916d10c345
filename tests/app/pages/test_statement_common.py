"""What every statement repeated is said once (#37, item 11): about 40% of each statement.md was
the same "How your code runs" and "Rules" text. The problem page now renders it for every problem
from app/templates/_statement_common.html, drawn from the problem's fields (its outputs and their
poison, in-place arguments, limits, [rules]); the statements keep only what is their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.pages.common import templates
from judge.problem.loader import load_problem
from tests.conftest import ROOT

STATEMENTS = sorted((ROOT / "problems").glob("*/statement.md"))
# Sentences that _statement_common.html says for every problem: a statement repeating one is
# out of date as soon as the shared text changes.
SHARED = (
    "## How your code runs",
    "Triton submissions are checked before they run",
    "Inputs and outputs are contiguous device buffers",
    "On a GPU each timed call is measured by the judge's own clock",
    "Triton 3.6 to 3.9",
)


def _common(slug: str) -> str:
    """The shared part as the problem page renders it for ``slug``, as plain text."""
    html = templates.get_template("_statement_common.html").render(
        p=load_problem(ROOT / "problems" / slug)
    )
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


@pytest.mark.parametrize("statement", STATEMENTS, ids=lambda p: p.parent.name)
def test_a_statement_leaves_the_shared_text_to_the_page(statement: Path) -> None:
    flat = " ".join(statement.read_text(encoding="utf-8").split())
    repeated = [s for s in SHARED if s in flat]
    assert not repeated, (
        f"{statement.relative_to(ROOT)} repeats {repeated}: the problem page shows this for "
        "every problem (app/templates/_statement_common.html); keep only what is this problem's"
    )
    assert "## Rules" in flat  # the problem's own rules stay: the calls it means


def test_the_shared_text_follows_each_problems_fields() -> None:
    add = _common("vector-add")
    assert "Rules on every problem" in add and "How your code runs" in add
    assert "Before every call, c holds NaN." in add
    assert "c must be written by your kernels, in place" in add
    assert "Treat a and b as read-only" in add
    assert "restore_value" not in add  # nothing works in place
    assert "(120 s here)" in add and "one call of solve (10 s)" in add
    assert "Triton submissions are checked before they run" in add

    # An integer output arrives as 0x7F bytes; a float one as NaN.
    assert "bins holds garbage (every byte 0x7F)" in _common("histogram")
    assert (
        "Before every call, vals holds NaN, idx holds garbage (every byte 0x7F). Every"
        in _common("top-k")
    )
    # In-place arguments hold their input again, and the autotuner must restore them.
    sort = _common("radix-sort")
    assert (
        "Before every call, keys and vals hold their input again (worked on in place). Writing"
        in sort
    )
    assert "name keys and vals in its restore_value" in sort
    assert "Every element of an output" not in sort


def test_the_problem_page_shows_it_after_the_statement(client: TestClient) -> None:
    page = client.get("/problems/toy-add").text
    article = page[page.index('<article class="markdown">') :]
    assert article.index("statement-common") > 0
    assert 'id="how-your-code-runs"' in article and 'id="rules-everywhere"' in article
    assert article.index('id="how-your-code-runs"') < article.index("</article>")
