"""Mojo (judge/languages/mojo.py, mojo_rules.py, judge/build/mojo_build.py): the static check,
the starters built by the pinned compiler, the compiler's messages, the library's calls and its
kernels' names. A CPU worker builds a Mojo source and answers not_run (the samples' verdicts are
graded by ``problems check``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge import languages
from judge.build import mojo_build
from judge.languages import mojo_rules
from judge.languages.runtime import Refused
from judge.problem.loader import load_problem

ROOT = Path(__file__).resolve().parents[3]
MOJO = languages.require("mojo")
VA = ROOT / "problems" / "vector-add" / "solutions"
SAMPLE = (VA / "accepted" / "mojo_simple.mojo").read_text()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds are kept per source (mojo_build._store): each test starts with none."""
    monkeypatch.setenv("KERNELDOJO_CACHE", str(tmp_path / "cache"))


def _build(tmp_path: Path, slug: str, source: str) -> tuple[object, Path | None, str | None]:
    tmp_path.chmod(0o777)  # the sandbox's uid writes the library there (as Grading sets it)
    return mojo_build.compile_mojo(source, tmp_path, load_problem(ROOT / "problems" / slug), 120)


def test_the_registry_lists_mojo() -> None:
    assert MOJO.public() == {
        "name": "mojo",
        "label": "Mojo",
        "menu_label": "Mojo",
        "suffix": ".mojo",
        "editor_mode": "python",
        "track": "kernel",
        "runs_on_cpu": False,
    }
    assert languages.by_suffix(".mojo") is MOJO
    assert languages.infer("wrong_answer_tail_mojo.mojo", "") is MOJO


def test_the_signature_names_mojo_types() -> None:
    p = load_problem(ROOT / "problems" / "reduction")
    assert MOJO.signature(p) == (
        "def solve(x: UnsafePointer[Float32, MutAnyOrigin], "
        "out_: UnsafePointer[Float32, MutAnyOrigin], n: Int32) raises"
    )  # `out` is a Mojo keyword


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("from std.ffi import external_call", "import of std.ffi"),
        ("from sys.ffi import DLHandle", "import of sys.ffi"),
        ("import std.os", "import of std.os"),
        ("from std.python import Python", "import of std.python"),
        ("from std.algorithm import elementwise", "its library functions"),
        ("from buffer import NDBuffer", "its library functions"),
        ("from numpy import zeros", "may import only"),
        ("from . import helpers", "relative imports"),
        ("    var f = open('/etc/passwd', 'r')", "open is not allowed"),
        ("    __mlir_op.`pop.external_call`()", "__mlir_op is not allowed"),
        ("    inlined_assembly['syscall', NoneType]()", "inlined_assembly is not allowed"),
        ("fn kerneldojo_solve():", "the judge's"),
    ],
)
def test_the_static_check_refuses(line: str, why: str) -> None:
    refused = mojo_rules.check(SAMPLE + line + "\n")
    assert refused is not None and why in refused, refused
    assert refused.startswith(f"line {len(SAMPLE.splitlines()) + 1}:")


def test_the_static_check_reads_code_not_comments_or_strings() -> None:
    assert mojo_rules.check(SAMPLE) is None
    quiet = SAMPLE + '\n# open() and external_call in a comment\nfn f():\n    print("open(x)")\n'
    assert mojo_rules.check(quiet) is None
    allowed = "from std.gpu.memory import AddressSpace\nfrom std.os.atomic import Atomic\n"
    assert mojo_rules.check(allowed + "from layout import Layout, LayoutTensor\n") is None
    assert mojo_rules.check("from gpu.host import DeviceContext\n") is None  # implicit std.


def test_the_kernel_owner_accepts_the_sources_own_kernels() -> None:
    owns = MOJO.kernel_owner(SAMPLE)
    assert owns is not None
    assert owns("solution_vector_add_kernel_UnsafePo6A6AoA6A6A_446ef7ff5fb22ca9")
    assert not owns("solution_other_kernel_UnsafePo6A6AoA6A6A_446ef7ff5fb22ca9")
    assert not owns("std_algorithm_functional_elementwise_kernel_0123")
    assert not owns("_ZN2at6native29vectorized_elementwise_kernel")


def test_a_sample_builds_and_its_kernels_are_its_own(tmp_path: Path) -> None:
    res, lib, violation = _build(tmp_path, "vector-add", SAMPLE)
    assert lib is not None and violation is None, res
    again = tmp_path / "again"
    again.mkdir()
    kept, lib2, _ = _build(again, "vector-add", SAMPLE)  # the same source: the kept build
    assert res.seconds > 0.5 and kept.seconds == 0.0  # type: ignore[attr-defined]
    assert lib2 is not None and lib2.read_bytes() == lib.read_bytes()
    # The PTX Mojo embeds in the library names each kernel: the ledger sees these names.
    ptx = subprocess.run(["strings", str(lib)], capture_output=True, text=True).stdout
    kernels = re.findall(r"\.entry (\w+)\(", ptx)
    assert kernels and all(MOJO.kernel_owner(SAMPLE)(k) for k in kernels), kernels  # type: ignore[misc]
    symbols = subprocess.run(["nm", "-D", str(lib)], capture_output=True, text=True).stdout
    assert re.search(r" T kerneldojo_solve$", symbols, re.MULTILINE)


@pytest.mark.parametrize(
    "slug",
    # One problem per family of argument types: float32 with `out` (a keyword), fp8 with
    # float32 scales and a bfloat16 output, integers. Every problem's starter built once by hand (docs/languages.md).
    ["reduction", "gemm-fp8-blockscaled", "histogram"],
)
def test_generated_starters_build(tmp_path: Path, slug: str) -> None:
    p = load_problem(ROOT / "problems" / slug)
    starter = MOJO.generate_starter(p)
    assert mojo_rules.check(starter) is None
    res, lib, _ = _build(tmp_path, slug, starter)
    assert lib is not None, res


def test_a_compile_error_names_the_learners_line_and_the_fix(tmp_path: Path) -> None:
    old = (VA / "rejected" / "compile_error_old_mojo.mojo").read_text()
    res, lib, _ = _build(tmp_path, "vector-add", old)
    assert lib is None
    log = res.log  # type: ignore[attr-defined]
    assert log.startswith("note: this judge runs Mojo 0.26.2: pointers carry an origin")
    assert "solution.mojo:18:" in log
    assert str(tmp_path) not in log and mojo_build.ENTRY not in log


def test_a_solve_with_other_arguments_is_told_the_signature(tmp_path: Path) -> None:
    two = SAMPLE.replace(
        "    c: UnsafePointer[Float32, MutAnyOrigin],\n    n: Int32,\n) raises",
        "    n: Int32,\n) raises",
    )
    res, lib, _ = _build(tmp_path, "vector-add", two)
    assert lib is None
    assert "solve's arguments must be the problem's" in res.log  # type: ignore[attr-defined]


def test_the_library_may_not_call_the_file_system(tmp_path: Path) -> None:
    reads = SAMPLE.replace(
        "    comptime BLOCK = 256\n",
        '    comptime BLOCK = 256\n    with open("/etc/hostname", "r") as f:\n        print(f.read())\n',
    )
    assert "open(" in reads and mojo_rules.check(reads) is not None
    _, lib, violation = _build(tmp_path, "vector-add", reads)  # past the static check
    assert lib is not None and violation is not None, violation
    assert re.search(r"the library calls .*\bopen\b", violation), violation


def test_prepare_refuses_before_compiling(tmp_path: Path) -> None:
    tmp_path.chmod(0o777)
    p = load_problem(ROOT / "problems" / "vector-add")
    bad = (VA / "rejected" / "rejected_external_call_mojo.mojo").read_text()
    with pytest.raises(Refused) as e:
        MOJO.prepare(bad, tmp_path, p, static_policy=True, compile_s=120)
    assert e.value.verdict == "rejected" and e.value.compile is None
    assert not (tmp_path / mojo_build.LIBRARY).exists()


def test_the_entry_passes_solves_arguments_through() -> None:
    entry = mojo_build.entry_source(load_problem(ROOT / "problems" / "reduction"))
    assert "        solve(x, out_, n)\n" in entry
    assert "    err: UnsafePointer[UInt8, MutAnyOrigin],\n    err_cap: Int,\n) -> Int32:" in entry


_CALL = """
import sys, torch
from judge import languages
from judge.languages.runtime import RunContext, SubmissionError
ctx = RunContext("cpu", ["ptr", "ptr", "ptr", "int"], True, torch, None)
loaded = languages.require("mojo").load(__import__("pathlib").Path(sys.argv[1]), ctx)
a = torch.zeros(4)
try:
    loaded.invoke([a, a, a, 4])
except SubmissionError as e:
    print(e.verdict, e.message)
"""


def test_an_error_solve_raises_reaches_the_learner(tmp_path: Path) -> None:
    """Without a GPU, DeviceContext() raises inside solve: the entry catches it and the runner's
    load/invoke answer runtime_error with Mojo's message (called bare, the export crashed)."""
    _, lib, _ = _build(tmp_path, "vector-add", SAMPLE)
    assert lib is not None
    # In a child: the Mojo runtime brings its own allocator into the process that loads it.
    done = subprocess.run(
        [sys.executable, "-c", _CALL, str(lib)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("runtime_error solve raised: "), done.stdout
    assert "device_context.mojo" in done.stdout and "MODULAR_" not in done.stdout
