"""Finding problem folders, loading them (schema.py, with the checkers' and languages'
registries), and loading their trusted ``reference.py``."""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from judge import checkers, languages
from judge.problem.schema import Problem, ProblemError, parse_problem

REPO_PROBLEMS = Path(__file__).resolve().parents[2] / "problems"


def load_problem(path: Path) -> Problem:
    """Load and validate one problem folder."""
    return parse_problem(path, checkers.CHECKERS, _infer_language)


def _infer_language(filename: str, text: str) -> str | None:
    lang = languages.infer(filename, text)
    return lang.name if lang else None


def problems_dir() -> Path:
    """``$KERNELDOJO_PROBLEMS``, else ``./problems``, else the repository's own folder."""
    env = os.environ.get("KERNELDOJO_PROBLEMS")
    if env:
        return Path(env)
    local = Path.cwd() / "problems"
    return local if local.is_dir() else REPO_PROBLEMS


def resolve(problem: str | Path, root: Path | None = None) -> Problem:
    """A slug in the problems folder, or a path to a problem folder."""
    p = Path(problem)
    if (p / "problem.toml").is_file():
        return load_problem(p)
    root = root or problems_dir()
    if (root / str(problem) / "problem.toml").is_file():
        return load_problem(root / str(problem))
    known = (
        ", ".join(sorted(d.name for d in root.iterdir() if (d / "problem.toml").is_file()))
        if root.is_dir()
        else ""
    )
    raise ProblemError(p, "", f"no such problem (looked in {root}; known: {known or 'none'})")


@dataclass
class LoadReport:
    problems: list[Problem]
    errors: list[ProblemError]


def load_all(root: Path | None = None) -> LoadReport:
    """Every folder under root; a broken folder is reported and the others still load."""
    root = root or problems_dir()
    problems: list[Problem] = []
    errors: list[ProblemError] = []
    for d in sorted(root.iterdir()) if root.is_dir() else []:
        if not d.is_dir() or d.name.startswith((".", "_")):
            continue
        try:
            problems.append(load_problem(d))
        except ProblemError as e:
            errors.append(e)
    bad = _prerequisite_errors(problems)
    errors += bad
    broken = {Path(e.file).parent.name for e in bad}
    problems = [p for p in problems if p.slug not in broken]
    problems.sort(key=lambda p: (p.order, p.slug))
    return LoadReport(problems, errors)


def _prerequisite_errors(loaded: list[Problem]) -> list[ProblemError]:
    """Prerequisites that name no loaded problem, and cycles (a problem that, through its
    prerequisites, requires itself): one error per problem involved."""
    by_slug = {p.slug: p for p in loaded}
    errors: list[ProblemError] = []
    for p in loaded:
        for i, slug in enumerate(p.prerequisites):
            if slug not in by_slug:
                errors.append(
                    ProblemError(
                        p.path / "problem.toml",
                        f"prerequisites[{i}]",
                        f"no problem {slug!r} in {p.path.parent} "
                        f"(known: {', '.join(sorted(by_slug))})",
                    )
                )
    for p in loaded:
        path = _cycle_from(p.slug, by_slug)
        if path:
            errors.append(
                ProblemError(
                    p.path / "problem.toml",
                    "prerequisites",
                    f"a cycle: {' -> '.join(path)} (a problem cannot require itself)",
                )
            )
    return errors


def _cycle_from(start: str, by_slug: dict[str, Problem]) -> list[str] | None:
    """The chain of prerequisites from ``start`` back to itself, if there is one."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        slug, chain = stack.pop()
        for nxt in by_slug[slug].prerequisites if slug in by_slug else ():
            if nxt == start:
                return [*chain, nxt]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*chain, nxt]))
    return None


def load_reference(problem: Problem) -> ModuleType:
    """Import the problem's reference.py under a private name; check it defines what it must."""
    path = problem.path / "reference.py"
    spec = importlib.util.spec_from_file_location(
        f"kerneldojo_ref_{problem.slug.replace('-', '_')}", path
    )
    if spec is None or spec.loader is None:
        raise ProblemError(path, "", "cannot be imported")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:
        raise ProblemError(path, "", f"failed to import: {type(e).__name__}: {e}") from e
    for fn in ("generate", "reference"):
        if not callable(getattr(mod, fn, None)):
            raise ProblemError(path, fn, "must define this function (see docs/problem-format.md)")
    return mod


def call_generate(
    mod: ModuleType, problem: Problem, case_params: dict[str, int], kind: str, gen: Any, device: Any
) -> dict[str, Any]:
    """generate() with its result checked against the signature (names, dtypes, shapes)."""
    import torch

    inputs = mod.generate(dict(case_params), kind, gen, device)
    path = problem.path / "reference.py"
    for a in problem.inputs:
        t = inputs.get(a.name) if isinstance(inputs, dict) else None
        if not isinstance(t, torch.Tensor):
            raise ProblemError(path, "generate", f"must return a tensor for input {a.name!r}")
        want = problem.shape(a, case_params)
        if tuple(t.shape) != want or str(t.dtype).removeprefix("torch.") != a.dtype:
            raise ProblemError(
                path,
                "generate",
                f"input {a.name!r}: expected {a.dtype}{list(want)}, got {str(t.dtype).removeprefix('torch.')}{list(t.shape)}",
            )
    return inputs
