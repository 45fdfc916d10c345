"""The docs name files that exist: README.md, SECURITY.md and docs/*.md, kept honest.

Every backquoted word that starts with one of the repository's folders
(`judge/sandbox/runner.py`, `tests/judge/test_cli.py`, `python3 scripts/gpu_check.py --phase
adversarial`, `records/2026-11-26-h100/README.md`) must exist, a folder (`app/templates/`) as a
folder, and so must the name it points at inside the file: a test id's ``::test_name``,
``app/submissions.py:claim``, ``app/accounts.new_invite_code``. So must a dotted module
(`python -m judge.cli`, `app.queue.enqueue`). Glob patterns and placeholders
(`problems/*/problem.toml`, `problems/<slug>/`, `tests/judge/...`) are not paths. Fenced code
blocks are left out: they hold commands and sketches.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

DOCS = [ROOT / "README.md", ROOT / "SECURITY.md", *sorted((ROOT / "docs").glob("*.md"))]
FOLDERS = (
    "judge/",
    "app/",
    "worker/",
    "tests/",
    "scripts/",
    "problems/",
    "benchmarks/",
    "records/",
)
# `app.css` is a file name, not a module.
SUFFIXES = {"py", "pyi", "md", "toml", "yml", "yaml", "json", "html", "css", "js", "txt", "cu"}

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`]+)`")
DOTTED = re.compile(r"(?:judge|app|worker)(?:\.[A-Za-z_]\w*)+")


def _defines(path: Path, name: str) -> bool:
    """Whether the file at ``path`` has ``name`` as a word (a def, class, attribute, key)."""
    return path.is_file() and re.search(rf"\b{re.escape(name)}\b", path.read_text()) is not None


def _check_path(token: str) -> str | None:
    """What is wrong with a path token (None when it names what exists)."""
    path, _, test_id = token.partition("::")
    if path.endswith("/"):
        return None if (ROOT / path).is_dir() else "no such folder"
    inner = ""
    if ":" in path:  # app/submissions.py:claim
        path, _, inner = path.partition(":")
    if not (ROOT / path).exists():
        # app/accounts.new_invite_code: the module app/accounts.py and a name in it
        folder, _, last = path.rpartition("/")
        module, dot, name = last.partition(".")
        if not dot or name in SUFFIXES or not (ROOT / folder / f"{module}.py").is_file():
            return "no such file"
        path, inner = f"{folder}/{module}.py", name.split(".")[0]
    names = [inner] if inner else []
    names += [re.sub(r"\[.*\]$", "", part) for part in test_id.split("::") if part]
    for name in names:
        if not _defines(ROOT / path, name):
            return f"{path} has no {name!r}"
    return None


def _check_module(dotted: str) -> str | None:
    """What is wrong with a dotted module name (`judge.sandbox.runner`, `app.queue.enqueue`)."""
    parts = dotted.split(".")
    if parts[-1] in SUFFIXES:
        return None
    for i in range(len(parts), 1, -1):
        base = ROOT.joinpath(*parts[:i])
        file = base.with_suffix(".py") if not base.is_dir() else base / "__init__.py"
        if file.is_file():
            rest = parts[i:]
            if rest and not _defines(file, rest[0]):
                return f"{file.relative_to(ROOT)} has no {rest[0]!r}"
            return None
    return "no such module"


def stale_references(text: str) -> list[str]:
    """Each backquoted path or module in a Markdown text that names nothing, with why."""
    found = []
    for span in SPAN.findall(FENCE.sub("", text)):
        if "\n\n" in span:  # an unpaired backquote, not a span
            continue
        for word in span.split():
            token = word.strip("(),;'\"").rstrip(".:")
            token = token.removeprefix("./")
            if any(c in token for c in "*?{}<>|$") or "..." in token:
                continue
            if token.startswith(FOLDERS):
                why = _check_path(token)
            elif DOTTED.fullmatch(token):
                why = _check_module(token)
            else:
                continue
            if why:
                found.append(f"`{token}`: {why}")
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_name_paths_that_exist(doc: Path) -> None:
    assert stale_references(doc.read_text()) == []


def test_a_moved_file_is_caught() -> None:
    text = """
The referee (`worker/grading/grader.py`) and `judge/grader.py`; `worker/grading/`;
the queue in `worker.celery_app`, `app.queue.enqueue`, `app.queue.no_such_name`; tests:
`tests/worker/grading/test_sandbox.py`,
`tests/adversarial/test_adversarial.py::test_no_such_test`,
`tests/adversarial/test_adversarial.py::test_worker_grades_correctly_after_a_crash[x]`;
`app/submissions.no_such_function`, `app/submissions.py:claim`, `app/templates/`.
Not paths: `problems/<slug>/problem.toml`, `problems/*/solutions`, `tests/judge/...`.

```
worker/grading/in_a_fence.py
```
"""
    assert stale_references(text) == [
        "`worker/grading/grader.py`: no such file",
        "`worker/grading/`: no such folder",
        "`worker.celery_app`: no such module",
        "`app.queue.no_such_name`: app/queue.py has no 'no_such_name'",
        "`tests/worker/grading/test_sandbox.py`: no such file",
        "`tests/adversarial/test_adversarial.py::test_no_such_test`: "
        "tests/adversarial/test_adversarial.py has no 'test_no_such_test'",
        "`app/submissions.no_such_function`: app/submissions.py has no 'no_such_function'",
    ]
