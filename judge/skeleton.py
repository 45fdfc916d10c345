"""``kerneldojo problems new SLUG``: a problem folder to start from, every field explained.

The skeleton is a complete placeholder problem (``y = 2·x`` over ``n`` float32 values), so that
it loads, checks and grades from the first minute: ``problem.toml`` with each field's meaning in
comments, ``statement.md`` and ``reference.py`` templates, an empty ``mutants.toml``, and the
starters of the languages that own a suffix (Triton's ``solution.py``, CUDA's ``solution.cu``)
written from the signature by their language modules, as the judge writes the starter of a
folder without one. Every place the author must fill in says ``TODO``; ``TODO_LIST`` is the
checklist the command prints.
"""

from __future__ import annotations

import re
from pathlib import Path

from judge import languages
from judge.problem.schema import Problem, ProblemError

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # as schema.py requires of a prerequisite

PROBLEM_TOML = """\
# __SLUG__: written by `kerneldojo problems new __SLUG__`. As it stands it is a placeholder
# problem (y = 2 * x) that loads and checks; replace every TODO (docs/problem-format.md has
# the whole format), then run `kerneldojo problems check __SLUG__ --device cpu` and
# `kerneldojo problems mutate __SLUG__ --device cpu`.

title = "TODO: __TITLE__"       # the problem list and the page's heading
difficulty = "easy"             # easy | medium | hard
tags = ["elementwise"]          # TODO: words the problem list shows and filters by
order = 100                     # position in the problem list (and within its track)
# track = "foundations"         # optional: the Learn page's track: foundations |
                                # parallel-patterns | llm-kernels
# prerequisites = []            # optional: slugs of problems a learner should solve first

[signature]
# solve(...)'s arguments, in call order (the starters in starter/ are written from them:
# `kerneldojo problems new __SLUG__ --starters` writes them again after a change).
# role: input (CUDA: a const pointer) | output (arrives poisoned with NaN: write every
# element) | inout (read, then overwritten in place) | int (a size, given per case below).
# dtype: float32 float16 bfloat16 float8_e4m3fn int8 uint8 int32 uint32 int64.
# shape: expressions over the int arguments, e.g. ["rows", "cols"].
args = [
  { name = "x", role = "input",  dtype = "float32", shape = ["n"] },
  { name = "y", role = "output", dtype = "float32", shape = ["n"] },
  { name = "n", role = "int" },
]

[check]
# checker = "close"             # the default; or exact, argmax, sorted_stable, compaction, topk
# close: |got - expected| <= atol + rtol * scale per element, expected in float64 (scale:
# |expected|, or what reference.py's error_scale returns). TODO: argue both numbers here:
# the error a sound kernel makes (2 * x is exact in float32), and that the bugs learners
# make (computing in bfloat16 or float16, a missing term) exceed them by a wide margin.
rtol = 1e-6
atol = 1e-30                    # only forgives denormals flushed to zero
# max_rel_l2 = 1e-5             # optional: ||got - expected|| / ||expected|| per output

[limits]
# All optional, the defaults shown. On the CPU these are wall-clock limits less the time the
# runner waited for a CPU; on a GPU plain wall-clock limits.
# compile_s = 120               # nvcc; Triton's compiling ahead and each first call at a new size
# call_s = 10                   # one call of solve
# total_s = 300                 # the whole grading
# host_memory_mb = 8192
# scratch_memory_mb = 1536      # GPU memory beyond the runner's own; unset: 2x the largest
                                # case's inputs and outputs + 1024

[roofline]
# Expressions over the int arguments, for the speed-of-light bound of each benchmark.
flops = "n"                     # TODO: one multiplication per element
bytes = "8 * n"                 # TODO: the fewest bytes any kernel must move (read x, write y)
compute = "fp32"                # fp32 | tf32 | fp16 | bf16 | int8 | fp8: the peak that bounds flops

[rules]
forbid_library_compute = true   # solve computes with its own kernels (no torch math, no cuBLAS)

# --- correctness tests --------------------------------------------------------------------
# Every int argument gets a value; kind (default "random") is passed to reference.py's
# generate; interpreter = false runs a case on a GPU only (too slow for the CPU interpreter).
# TODO: sizes that end mid-block in every dimension a learner tiles over (1, odd sizes,
# primes, 2^k + 1), several small enough for the interpreter, so that a missing tail mask
# (solutions/rejected/wrong_answer_no_mask.py) writes into the guard band and is caught.

[[tests]]
name = "n = 1"
n = 1

[[tests]]
name = "n = 1025"
n = 1025

[[tests]]
name = "n = 65537 (prime)"
n = 65537

[[tests]]
name = "n = 2^22 + 3"
n = 4194307
interpreter = false

# --- benchmarks ---------------------------------------------------------------------------

[[benchmarks]]
name = "n = 2^24"
n = 16777216
"""

REFERENCE_PY = '''\
"""__TITLE__: inputs, the float64 reference and a torch baseline.

TODO: the kinds of input (``kind`` in problem.toml's cases) and why each is there.
- ``random``: x ~ N(0, 1).
"""

from __future__ import annotations

import torch


def generate(
    params: dict[str, int], kind: str, gen: torch.Generator, device: torch.device
) -> dict[str, torch.Tensor]:
    """Inputs for one case by name, with the declared dtype and shape; every random number
    comes from ``gen`` (seeded by the referee) on ``device``."""
    n = params["n"]
    if kind != "random":
        raise ValueError(f"unknown kind {kind!r}")
    return {"x": torch.randn(n, generator=gen, device=device, dtype=torch.float32)}


def reference(inputs: dict[str, torch.Tensor], params: dict[str, int]) -> dict[str, torch.Tensor]:
    """Expected outputs by name, computed in float64. TODO: the problem's own."""
    return {"y": 2.0 * inputs["x"].to(torch.float64)}


def baseline(x: torch.Tensor, y: torch.Tensor, n: int) -> None:
    """A torch implementation in solve's form: the speed a learner is compared with."""
    torch.mul(x, 2.0, out=y)


# Optional (docs/problem-format.md): error_scale(inputs, params, expected) for a per-element
# scale other than |expected|; reference_sample(inputs, params, gen) for a reference much
# slower than the kernel.
'''

STATEMENT_MD = """\
# __TITLE__

TODO: what to compute, with the math:

$$y_i = 2\\,x_i \\qquad \\text{for } i = 0, 1, \\dots, n-1.$$

## Signature

__SIGNATURES__

## Example

```
x = [1.0, -2.0, 0.5]
n = 3
y = [2.0, -4.0, 1.0]
```

## Constraints

- TODO: the sizes in the tests, the values, the accuracy asked for (problem.toml's
  tolerances, in words), and that outputs arrive holding NaN: every element must be written.

## Performance

TODO: the benchmark sizes, the FLOPs and bytes per element, the roofline regime, and what a
good solution reaches.

## Rules

- `solve` must compute the result with your own kernels. TODO: the calls this problem tempts
  one with (`torch.xxx`, cuBLAS, ...) and what it allows. The rules every problem shares and
  "How your code runs" are on the problem page already (app/templates/_statement_common.html,
  drawn from problem.toml): do not repeat them here.
"""

MUTANTS_TOML = """\
# Equivalent mutants of this problem's accepted samples: a mutant no test can kill (it computes
# the same outputs for every valid input), each with a one-line reason. Ids are
# sample:operator:line:ordinal, as `kerneldojo problems mutate __SLUG__` prints them
# (docs/mutation.md). A survivor that is not equivalent is a missing test: add the test.

[equivalent]
"""

TODO_LIST = (
    "problem.toml: title, tags, signature, argued tolerances, roofline, tests, benchmarks",
    "reference.py: generate (seeded, every kind), reference (float64), baseline",
    "statement.md: the task with math, constraints, performance, rules",
    "solutions/accepted/: Triton and CUDA samples, simple and fast (others where they fit)",
    "solutions/rejected/: at least three bugs learners make, each declaring its verdict "
    "(wrong_answer_no_mask.py and wrong_answer_no_bounds_check.cu among them)",
    "editorial.md (optional), mutants.toml: after `problems mutate`, equivalent mutants only",
)


def _title(slug: str) -> str:
    return " ".join(w.capitalize() for w in slug.split("-"))


def write_starters(problem: Problem) -> list[Path]:
    """Each suffix's first language's starter (``starter/solution.py``, ``solution.cu``),
    written from the signature; other languages' starters stay generated on demand."""
    written = []
    for lang in languages.all():
        if lang.starter_stem != "solution":
            continue
        path = lang.starter_path(problem)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(lang.generate_starter(problem), encoding="utf-8")
        written.append(path)
    return written


def _signatures(problem: Problem) -> str:
    blocks = []
    for lang in languages.all():
        if lang.starter_stem == "solution":
            fence = "cuda" if lang.suffix == ".cu" else "python"
            blocks.append(
                f"{lang.label}:\n\n```{fence}\n{lang.signature(problem)}{lang.declaration_end}\n```"
            )
    return "\n\n".join(blocks)


def create(root: Path, slug: str) -> list[Path]:
    """Write the skeleton of ``slug`` under ``root``; the files written. ProblemError when the
    slug is malformed or the folder exists, or (a bug here) the skeleton does not load."""
    from judge.problem import loader

    folder = root / slug
    if not SLUG.fullmatch(slug):
        raise ProblemError(folder, "slug", "expected lowercase words joined by '-' (vector-add)")
    if folder.exists():
        raise ProblemError(folder, "", "already exists (new writes a fresh folder only)")
    title = _title(slug)
    files = {
        "problem.toml": PROBLEM_TOML,
        "reference.py": REFERENCE_PY,
        "statement.md": STATEMENT_MD,
        "mutants.toml": MUTANTS_TOML,
    }
    for sub in ("accepted", "rejected"):
        (folder / "solutions" / sub).mkdir(parents=True)
    for name, text in files.items():
        text = text.replace("__SLUG__", slug).replace("__TITLE__", title)
        (folder / name).write_text(text, encoding="utf-8")
    problem = loader.load_problem(folder)
    statement = folder / "statement.md"
    statement.write_text(
        statement.read_text(encoding="utf-8").replace("__SIGNATURES__", _signatures(problem)),
        encoding="utf-8",
    )
    return [folder / name for name in files] + write_starters(problem)
