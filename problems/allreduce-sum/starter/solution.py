import torch
import triton
import triton.language as tl


@triton.jit
def solve_kernel(y_ptr, x0_ptr, x1_ptr, n, BLOCK: tl.constexpr):
    # TODO: program i handles elements i * BLOCK ... of y (mask out those past n):
    # load both ranks' x there and store their sum into y.
    pass


# x, y: float32 [n], this rank's own; comm: comm.rank, comm.world, comm.peer(k, "x"),
# comm.barrier(). Read a peer's buffer only after a barrier it has passed.
def solve(x: torch.Tensor, y: torch.Tensor, n: int, comm):
    comm.barrier()  # every rank's x holds its data from here on
    BLOCK = 1024
    grid = (triton.cdiv(n, BLOCK),)
    solve_kernel[grid](y, comm.peer(0, "x"), comm.peer(1, "x"), n, BLOCK=BLOCK)
