"""The playground's case, checked without torch (the web app checks it before queueing it):
the learner's integer parameters within the limits of the test cases the device runs, a seed,
and literal inputs made of JSON numbers only (never evaluated). judge/playground.py runs it."""

from __future__ import annotations

import math
from typing import Any

from judge import languages
from judge.problem.schema import Case, Problem

MAX_LITERAL = 4096  # numbers in a literal input
MAX_SEED = 2**62


class PlaygroundError(ValueError):
    """The learner's parameters or literal cannot be run; the message says why."""


def _device_cases(problem: Problem, device: str) -> list[Case]:
    cases = [c for c in problem.tests if device == "cuda" or c.interpreter] or list(problem.tests)
    return cases + (list(problem.benchmarks) if device == "cuda" else [])


def limits(problem: Problem, device: str) -> dict[str, int]:
    """The largest value of each integer parameter among the cases ``device`` runs (on the CPU,
    the test cases marked for the interpreter): what the playground allows."""
    cases = _device_cases(problem, device)
    return {a.name: max(int(c.params.get(a.name, 1)) for c in cases) for a in problem.int_args}


def defaults(problem: Problem) -> dict[str, int]:
    """The parameters the playground starts from: the first test case's."""
    return {a.name: int(problem.tests[0].params.get(a.name, 1)) for a in problem.int_args}


def _elements(problem: Problem, params: dict[str, int]) -> int:
    return sum(math.prod(problem.shape(a, params)) for a in problem.args if a.is_tensor)


def custom_case(problem: Problem, params: dict[str, Any], device: str, language: str) -> Case:
    """The learner's case, checked against the limits (``PlaygroundError`` says what is wrong)."""
    cap = limits(problem, device)
    chosen = defaults(problem)
    for name, value in params.items():
        if name not in cap:
            raise PlaygroundError(f"{problem.slug} has no integer parameter {name!r}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise PlaygroundError(f"{name} must be an integer")
        if not 1 <= value <= cap[name]:
            raise PlaygroundError(f"{name} must be between 1 and {cap[name]} here")
        chosen[name] = value
    biggest = max(_elements(problem, c.params) for c in _device_cases(problem, device))
    if (size := _elements(problem, chosen)) > biggest:
        raise PlaygroundError(f"these sizes make {size} elements; at most {biggest} here")
    case = Case("playground: " + ", ".join(f"{k} = {v}" for k, v in chosen.items()), chosen)
    lang = languages.get(language)
    # A language that never runs on the CPU (CUDA) is compiled and answered not_run, as a Run is.
    cpu = device == "cpu" and lang is not None and lang.runs_on_cpu
    if cpu and lang is not None and not lang.runs_on_cpu_case(problem, case):
        raise PlaygroundError(f"{lang.label} runs cases this large only on a GPU")
    return case


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise PlaygroundError(f"the seed must be an integer from 0 to {MAX_SEED - 1}")
    return seed


def literal_numbers(problem: Problem, name: str, value: Any, params: dict[str, int]) -> list[Any]:
    """A literal input's numbers, flattened, checked against the input's shape at ``params``."""
    arg = next((a for a in problem.inputs if a.name == name), None)
    if arg is None:
        raise PlaygroundError(f"{name!r} is not an input of {problem.slug}")
    flat: list[Any] = []
    stack = [value]
    while stack:  # depth-first, in order, without recursion (a deeply nested list is refused)
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            flat.append(v)
        else:
            raise PlaygroundError(f"{name}: only finite numbers and lists of them")
        if len(flat) + len(stack) > MAX_LITERAL:
            raise PlaygroundError(f"{name}: at most {MAX_LITERAL} numbers")
    need = math.prod(problem.shape(arg, params))
    if len(flat) != need:
        shape = list(problem.shape(arg, params))
        raise PlaygroundError(f"{name} has {len(flat)} numbers; its shape {shape} needs {need}")
    return flat


def check(
    problem: Problem,
    params: dict[str, Any],
    seed: Any,
    literals: dict[str, Any] | None,
    device: str,
    language: str,
) -> Case:
    """Everything the learner chose, checked; the case to run."""
    check_seed(seed)
    case = custom_case(problem, params, device, language)
    for name, value in (literals or {}).items():
        literal_numbers(problem, name, value, case.params)
    return case
