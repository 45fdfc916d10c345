# expect: runtime_error
# expect-message: shared memory
# Triton's fused-softmax tutorial, as learners bring it: persistent programs walk the rows, each
# row is loaded whole (BLOCK_SIZE = next power of two >= cols) and the row loop is software-
# pipelined with num_stages = 4 on a GPU with more than 200 KB of shared memory. The pipeline
# keeps num_stages - 1 rows in shared memory: fine up to 16384 columns (192 KiB), but at 65536
# columns it needs 786464 bytes and an H100 has 232448 per block, so the launch fails with
# Triton's OutOfResources on the GPU. Under the CPU interpreter the judge compiles the kernel for
# sm_90 and fails it the same way (docs/triton.md); without that check it would be Accepted.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
properties = triton.runtime.driver.active.utils.get_device_properties(DEVICE.index)
NUM_SM = properties["multiprocessor_count"]
SIZE_SMEM = properties["max_shared_mem"]


@triton.jit
def softmax_kernel(y_ptr, x_ptr, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        offs = tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
        num = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + offs, num / tl.sum(num, axis=0), mask=mask)


def solve(x: torch.Tensor, y: torch.Tensor, rows: int, cols: int):
    BLOCK_SIZE = triton.next_power_of_2(cols)
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    num_programs = min(rows, 4 * NUM_SM)
    softmax_kernel[(num_programs,)](y, x, rows, cols, BLOCK_SIZE=BLOCK_SIZE,
                                    num_stages=num_stages, num_warps=8)
