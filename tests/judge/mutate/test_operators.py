"""The mutation operators (judge/mutate/): what each proposes, on the repository's samples and
on small sources; ids stable from run to run. No grading here."""

from __future__ import annotations

import ast
from pathlib import Path

from judge.mutate import cuda_ops, python_ops
from judge.mutate.base import Mutant, build
from judge.mutate.run import mutants_of
from judge.problem import loader

ROOT = Path(__file__).resolve().parents[3]


def _py(source: str, language: str = "triton") -> list[Mutant]:
    edits = python_ops.edits(source, language)
    return build("s.py", language, source, edits, python_ops.OPERATORS)


def _cu(source: str) -> list[Mutant]:
    return build("s.cu", "cuda", source, cuda_ops.edits(source, "cuda"), cuda_ops.OPERATORS)


def _sample(slug: str, name: str) -> list[Mutant]:
    p = loader.load_problem(ROOT / "problems" / slug)
    return mutants_of(next(s for s in p.samples if s.path.name == name))


def test_vector_add_triton_sample_gets_each_applicable_operator() -> None:
    ms = _sample("vector-add", "triton_simple.py")
    ids = [m.id for m in ms]
    assert ids == [
        "triton_simple.py:drop_mask:13:1",
        "triton_simple.py:drop_mask:14:1",
        "triton_simple.py:drop_mask:15:1",
        "triton_simple.py:lt_le:12:1",
        "triton_simple.py:grid_minus_one:20:1",
        "triton_simple.py:const_0_1:10:1",
    ]
    store = ms[2]
    assert store.diff == (
        "L15: tl.store(c_ptr + offs, a + b, mask=mask) → tl.store(c_ptr + offs, a + b)"
    )
    # Only the changed span differs: the comment on the grid's line is kept.
    assert "max(triton.cdiv(n, BLOCK) - 1, 1)" in ms[4].source
    assert "# round up, not down" in ms[4].source
    for m in ms:
        ast.parse(m.source)
    assert [m.id for m in _sample("vector-add", "triton_simple.py")] == ids  # stable


def test_softmax_operators_reach_the_max_subtraction_and_the_accumulators() -> None:
    ms = {m.id: m for m in _sample("softmax", "triton_fast.py")}
    drop = ms["triton_fast.py:drop_max_subtraction:35:1"]
    assert drop.after == "e = tl.exp(x)"
    assert "dtype=tl.bfloat16" in ms["triton_fast.py:bf16_accumulate:49:1"].after
    fp16 = ms["triton_fast.py:fp16_accumulate:49:1"]
    assert "dtype=tl.float16" in fp16.after
    # every update of the accumulator is rounded back: float16 + float32 would promote it
    assert "s = (s * tl.exp(m - m_new) + tl.exp(x - m_new)).to(tl.float16)" in fp16.source
    assert fp16.diff.endswith("(+1 more edits)")
    assert ms["triton_fast.py:loop_minus_one:50:1"].after == (
        "for start in range(0, cols - BLOCK, BLOCK):"
    )
    # a masked load keeps other= only with its mask: both go
    assert "other=" not in ms["triton_fast.py:drop_mask:31:1"].after


def test_an_accumulator_stays_in_low_precision() -> None:
    src = (
        "def k(x, y):\n"
        "    acc = tl.zeros([8], dtype=tl.float32)\n"
        "    for i in range(4):\n"
        "        acc += tl.load(x + i)\n"
        "    tl.store(y, acc.to(tl.float32))\n"
    )
    by_id = {m.id: m for m in _py(src)}
    bf16 = by_id["s.py:bf16_accumulate:2:1"].source
    assert "acc = tl.zeros([8], dtype=tl.bfloat16)" in bf16
    assert "acc = (acc + (tl.load(x + i))).to(tl.bfloat16)" in bf16
    assert "tl.store(y, acc.to(tl.float32))" in bf16  # a cast elsewhere is a mutant of its own
    assert by_id["s.py:fp16_accumulate:5:1"].after == "tl.store(y, acc.to(tl.float16))"


def test_swap_index_forms() -> None:
    src = (
        "def k(a, c, r, s, i, j):\n"
        "    c[i, j] = a[r * s + j]\n"
        "    spec = f(index_map=lambda i, j: (i, j))\n"
    )
    after = sorted(m.after for m in _py(src, "numba") if m.operator == "swap_index")
    assert after == [
        "c[i, j] = a[j * s + r]",
        "c[j, i] = a[r * s + j]",
        "spec = f(index_map=lambda i, j: (j, i))",
    ]


def test_numba_grid_and_guard() -> None:
    src = (
        "from numba import cuda\n\n@cuda.jit\ndef k(a, n):\n    i = cuda.grid(1)\n"
        "    if i < n:\n        a[i] = 0.5\n\n"
        "def solve(a, n):\n    k[(n + 255) // 256, 256](a, n)\n"
    )
    by_op = {m.operator: m for m in _py(src, "numba")}
    assert by_op["drop_guard"].after == "if True:"
    assert by_op["grid_minus_one"].after == "k[max(((n + 255) // 256) - 1, 1), 256](a, n)"


def test_cuda_operators() -> None:
    src = (
        "#include <cuda_runtime.h>  // a <comment>\n"
        "__global__ void k(const float* x, float* y, int n) {\n"
        "    __shared__ float s[256];\n"
        "    float acc = 0.0f;\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    for (int j = 0; j < 4; ++j) acc += x[i] * (j << 1);\n"
        "    __syncthreads();\n"
        "    if (i < n) y[i] = acc + static_cast<float>(s[0]);\n"
        "}\n"
        'extern "C" void solve(const float* x, float* y, int n) {\n'
        "    dim3 grid((n + 255) / 256, 1);\n"
        "    k<<<grid, 256>>>(x, y, n);\n"
        "}\n"
    )
    ms = _cu(src)
    got = [(m.id, m.after) for m in ms]
    assert got == [
        ("s.cu:drop_guard:8:1", "if (true) y[i] = acc + static_cast<float>(s[0]);"),
        ("s.cu:remove_syncthreads:7:1", "(void)0;"),
        ("s.cu:lt_le:6:1", "for (int j = 0; j <= 4; ++j) acc += x[i] * (j << 1);"),
        ("s.cu:lt_le:8:1", "if (i <= n) y[i] = acc + static_cast<float>(s[0]);"),
        (
            "s.cu:blocks_minus_one:11:1",
            "dim3 grid((((n + 255) / 256) > 1 ? ((n + 255) / 256) - 1 : 1), 1);",
        ),
        ("s.cu:half_accumulator:3:1", "__shared__ kd_half s[256];"),
        ("s.cu:half_accumulator:4:1", "kd_half acc = 0.0f;"),
    ]
    assert ms[-1].source == cuda_ops.HALF_PRELUDE + src.replace("float acc", "kd_half acc")


def test_every_sample_of_the_core_problems_mutates_into_valid_python() -> None:
    for slug in ("vector-add", "reduction", "softmax", "matmul", "flash-attention"):
        p = loader.load_problem(ROOT / "problems" / slug)
        for s in p.samples:
            if s.path.parent.name != "accepted":
                continue
            ms = mutants_of(s)
            assert len({m.id for m in ms}) == len(ms), s.path
            if s.path.suffix == ".py":
                assert ms or s.language == "pytorch", s.path  # torch.add(a, b, out=c): none
                for m in ms:
                    ast.parse(m.source)
