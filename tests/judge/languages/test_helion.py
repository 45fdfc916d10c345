"""Helion (judge/languages/helion.py, helion_rules.py): the kernel names the ledger owns, the
static rule, starters, the runner's variables and the interpreter's libdevice.

Helion itself is imported only in child processes: it registers itself with torch's dynamo and
sets up logging when imported, which the rest of the suite's process should not inherit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from judge import languages
from judge.languages import helion_rules, policy
from judge.languages.helion import LANGUAGE, helion_owner
from judge.problem.loader import load_problem

ROOT = Path(__file__).resolve().parents[3]
SAMPLED = ("vector-add", "reduction", "softmax", "matmul", "flash-attention", "layernorm")

TWO_KERNELS = """
import torch
import helion
import helion.language as hl


@helion.kernel(config=helion.Config(block_sizes=[64]))
def add_kernel(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    for tile in hl.tile(c.size(0)):
        c[tile] = a[tile] + b[tile]


@helion.kernel(config=helion.Config(block_sizes=[64]))
def scale(x: torch.Tensor, y: torch.Tensor) -> None:
    for tile in hl.tile(x.size(0)):
        y[tile] = x[tile] * 2.0


def solve(a, b, c, n):
    add_kernel(a, b, c)
"""


def _child(code: str, env: dict[str, str] | None = None) -> str:
    """Run ``code`` in a fresh interpreter (the repository on its path); its stdout."""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_the_kernel_names_helion_generates_are_the_submissions_own(tmp_path: Path) -> None:
    """The Triton kernels Helion writes for the source's two kernels (their ``@triton.jit``
    functions, the names the driver reports) are owned; nothing else is."""
    (tmp_path / "two.py").write_text(TWO_KERNELS)
    code = f"""
import json, sys, torch, helion
sys.path.insert(0, {str(tmp_path)!r})
import two
names = []
for kernel, args in ((two.add_kernel, (torch.ones(8),) * 3), (two.scale, (torch.ones(8),) * 2)):
    src = kernel.bind(args).to_triton_code(helion.Config(block_sizes=[64]))
    lines = src.splitlines()
    names += [lines[i + 1].split("(")[0][4:] for i, l in enumerate(lines) if l == "@triton.jit"]
print(json.dumps(names))
"""
    generated = json.loads(_child(code))
    assert generated == ["_helion_add_kernel", "_helion_scale"]
    owns = helion_owner(TWO_KERNELS)
    assert all(owns(n) for n in generated)
    for foreign in (
        "add_kernel",  # a Triton kernel of that name is not Helion's
        "_helion_solve_other",  # no such function in the source
        "_helion_cublasLt_gemm",  # a library's name is never the submission's
        "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEE",
    ):
        assert not owns(foreign), foreign


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("x = torch.softmax(y, 0)", "`torch.softmax` computes outside a Helion device loop"),
        ("def solve(x, y):\n    torch.add(x, x, out=y)", "`torch.add` computes outside"),
        ("def solve(x, y):\n    y.zero_()\n    z = torch.empty_like(x)", None),
        ("@helion.kernel(config=c, autotune_effort='quick')\ndef k(x):\n    pass", "autotune"),
        ("@helion.kernel(config=c, autotune_effort='none')\ndef k(x):\n    pass", None),
        ("@helion.kernel\ndef k(x):\n    pass", "give each Helion kernel its config"),
        ("@helion.kernel(static_shapes=False)\ndef k(x):\n    pass", "give each Helion kernel"),
        ("@helion.kernel(configs=[c1, c2])\ndef k(x):\n    pass", "does not autotune"),
        ("@helion.kernel(configs=[c1])\ndef k(x):\n    pass", None),
        ("@helion.kernel(config=c, ref_mode=1)\ndef k(x):\n    pass", "`ref_mode=` is not"),
        ("@helion.kernel(config=c, **opts)\ndef k(x):\n    pass", "`**=` is not allowed"),
        ("@helion.jit(config=c, backend='cute')\ndef k(x):\n    pass", "`backend=` is not"),
        ("@kernel(config=c, force_autotune=True)\ndef k(x):\n    pass", "`force_autotune=` is"),
        ("k = helion.kernel(fn, config=c)", "by keyword"),
        (
            "@helion.kernel(config=c)\ndef k(x, y):\n    n = x.size(0)\n    for t in hl.tile(n):\n"
            "        y[t] = torch.exp(x[t]) + torch.sum(x[t])",
            None,
        ),
        (
            "@helion.kernel(config=c)\ndef k(x, y):\n    z = torch.exp(x)\n    for t in hl.tile(3):\n"
            "        y[t] = z[t]",
            "`torch.exp` computes outside",
        ),
    ],
)
def test_helions_own_rule(source: str, expected: str | None) -> None:
    head = "import torch\nimport helion\nimport helion.language as hl\nfrom helion import kernel\n"
    found = helion_rules.check(head + source)
    if expected is None:
        assert found is None, found
    else:
        assert found is not None and expected in str(found), found


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("helion.runtime.set_triton_allocator(None)", "how Helion runs kernels"),
        ("s = helion.Settings(ref_mode=helion.RefMode.EAGER)", "how Helion runs kernels"),
        ("hl.inline_triton('tl.store(p, v)', args=[], output_like=None)", "string of Triton"),
        ("helion.aot_kernel()", "as files"),
    ],
)
def test_the_shared_policy_refuses_helions_dangerous_paths(line: str, why: str) -> None:
    found = policy.check_python(f"import helion\nimport helion.language as hl\n{line}\n")
    assert found is not None and why in found.reason, found


def test_the_track_rule_applies_only_where_the_problem_forbids_library_compute() -> None:
    p = load_problem(ROOT / "problems" / "vector-add")
    assert LANGUAGE.library_rule(p)
    assert LANGUAGE.check_source("import torch\ny = torch.softmax(x, 0)\n", p) is not None
    free = "import torch\nimport helion\ny = torch.softmax(x, 0)\n"
    assert helion_rules.check(free, library_rule=False) is None
    bare = "import helion\n@helion.kernel\ndef k(x):\n    pass\n"
    assert helion_rules.check(bare, library_rule=False) is not None  # settings: all the same


@pytest.mark.parametrize("slug", SAMPLED)
def test_generated_starters_pass_the_checks(slug: str) -> None:
    p = load_problem(ROOT / "problems" / slug)
    py = LANGUAGE.starter(p)
    compile(py, "solution.py", "exec")
    assert policy.check_python(py) is None
    assert helion_rules.check(py) is None
    params = ", ".join(f"{a.name}: {'torch.Tensor' if a.is_tensor else 'int'}" for a in p.args)
    assert f"def solve({params}):" in py
    assert languages.infer("solution.py", py) is LANGUAGE


def test_every_problems_starter_compiles_with_helion() -> None:
    """Helion compiles each generated starter's kernel for the problem's first test case (an
    empty device loop would not: EmptyDeviceLoopAfterDCE), without running it."""
    code = textwrap.dedent(
        """
        import importlib.util, pathlib, sys, tempfile
        import torch, helion
        from judge.languages.helion import LANGUAGE
        from judge.problem import loader

        folder = pathlib.Path(tempfile.mkdtemp())
        failed = []
        for p in loader.load_all(loader.REPO_PROBLEMS).problems:
            path = folder / (p.slug.replace("-", "_") + ".py")
            path.write_text(LANGUAGE.starter(p))
            spec = importlib.util.spec_from_file_location(path.stem, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            case = p.tests[0].params
            args = tuple(
                torch.zeros(p.shape(a, case), dtype=getattr(torch, a.dtype))
                if a.is_tensor else case.get(a.name, 1)
                for a in p.args
            )
            try:
                mod.solve_kernel.bind(args).to_triton_code(helion.Config(block_sizes=[1024]))
            except Exception as e:
                failed.append(f"{p.slug}: {type(e).__name__}: {str(e)[:200]}")
        print(len(failed), failed)
        """
    )
    out = _child(code).strip().splitlines()[-1]
    assert out == "0 []", out


def test_the_runners_variables() -> None:
    cpu, gpu = LANGUAGE.runner_env("cpu"), LANGUAGE.runner_env("cuda")
    assert cpu == {"HELION_AUTOTUNE_EFFORT": "none", "TRITON_INTERPRET": "1"}
    assert gpu == {"HELION_AUTOTUNE_EFFORT": "none"}


def test_each_sampled_problem_has_both_helion_samples() -> None:
    for slug in SAMPLED:
        folder = ROOT / "problems" / slug / "solutions"
        assert (folder / "accepted" / "helion_simple.py").is_file(), slug
        rejected = list((folder / "rejected").glob("*_helion.py"))
        assert rejected, slug
        for path in rejected:
            assert languages.infer(path.name, path.read_text()) is LANGUAGE, path


def test_the_interpreters_libdevice_runs_helions_math(tmp_path: Path) -> None:
    """exp and tanh (inductor's libdevice.exp / libdevice.tanh in Helion's kernel) under
    Triton's interpreter once the runner's shim is in, against torch's."""
    code = textwrap.dedent(
        """
        from judge.languages.helion import interpreter_libdevice
        interpreter_libdevice()
        import torch, helion
        import helion.language as hl

        @helion.kernel(config=helion.Config(block_sizes=[32]))
        def act(x: torch.Tensor, y: torch.Tensor) -> None:
            for t in hl.tile(x.size(0)):
                y[t] = torch.tanh(x[t]) * torch.exp(x[t] * 0.5)

        x = torch.linspace(-6, 6, 101)
        y = torch.empty_like(x)
        act(x, y)
        print(float((y - torch.tanh(x) * torch.exp(x * 0.5)).abs().max()))
        """
    )
    (tmp_path / "act.py").write_text(code)  # Helion reads a kernel's source from its file
    run = f"import runpy; runpy.run_path({str(tmp_path / 'act.py')!r})"
    err = float(_child(run, {"TRITON_INTERPRET": "1"}).strip().splitlines()[-1])
    assert err < 1e-4
