"""A matmul as a learner brings it from a tutorial: ``@triton.autotune`` over 16 configs keyed on
(M, N, K), no prune, pointer arithmetic with masks, b read row-major. Written for
``benchmarks/latency.py`` (not a sample of the matmul problem): it measures how long the judge
takes to grade this style, not how fast the kernel is.

Two of the 16 configs need more shared memory than an H100 has (128 x 128 x 64 float32 tiles,
4 stages): the autotuner skips them, as Triton does on a GPU.
"""

import torch
import triton
import triton.language as tl


def configs() -> list[triton.Config]:
    out = []
    for bm in (64, 128):
        for bn in (64, 128):
            for bk in (32, 64):
                for stages in (3, 4):
                    warps = 8 if bm * bn >= 128 * 128 else 4
                    out.append(
                        triton.Config(
                            {"BM": bm, "BN": bn, "BK": bk, "GROUP": 8},
                            num_stages=stages,
                            num_warps=warps,
                        )
                    )
    return out


@triton.autotune(configs=configs(), key=["M", "N", "K"])  # type: ignore[untyped-decorator]
@triton.jit  # type: ignore[untyped-decorator]
def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr):  # type: ignore[no-untyped-def]
    pid = tl.program_id(0)
    grid_m = tl.cdiv(M, BM)
    grid_n = tl.cdiv(N, BN)
    width = GROUP * grid_n
    first = (pid // width) * GROUP
    rows = min(grid_m - first, GROUP)
    pm = first + (pid % width) % rows
    pn = (pid % width) // rows
    om = pm * BM + tl.arange(0, BM)
    on = pn * BN + tl.arange(0, BN)
    ok = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 + ok
        x = tl.load(
            a + om[:, None] * K + ka[None, :], mask=(om[:, None] < M) & (ka[None, :] < K), other=0.0
        )
        y = tl.load(
            b + ka[:, None] * N + on[None, :], mask=(ka[:, None] < K) & (on[None, :] < N), other=0.0
        )
        acc = tl.dot(x, y, acc)
    tl.store(c + om[:, None] * N + on[None, :], acc, mask=(om[:, None] < M) & (on[None, :] < N))


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int) -> None:
    grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)  # noqa: E731
    mm[grid](a, b, c, m, n, k)
