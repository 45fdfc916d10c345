from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv


fn solve_kernel(
    x: UnsafePointer[Float32, MutAnyOrigin],
    dy: UnsafePointer[Float32, MutAnyOrigin],
    gamma: UnsafePointer[Float32, MutAnyOrigin],
    mean: UnsafePointer[Float32, MutAnyOrigin],
    rstd: UnsafePointer[Float32, MutAnyOrigin],
    dx: UnsafePointer[Float32, MutAnyOrigin],
    dgamma: UnsafePointer[Float32, MutAnyOrigin],
    dbeta: UnsafePointer[Float32, MutAnyOrigin],
    m: Int32,
    n: Int32,
):
    # TODO: thread i computes element i of dx (return if i is past its end).
    var i = Int(block_idx.x * block_dim.x + thread_idx.x)
    _ = i


# inputs x [m, n] float32, dy [m, n] float32, gamma [n] float32, mean [m] float32, rstd [m] float32; outputs dx [m, n] float32, dgamma [n] float32, dbeta [n] float32.
# Device pointers to contiguous arrays; launch your kernel(s) through a DeviceContext.
@export
def solve(
    x: UnsafePointer[Float32, MutAnyOrigin],
    dy: UnsafePointer[Float32, MutAnyOrigin],
    gamma: UnsafePointer[Float32, MutAnyOrigin],
    mean: UnsafePointer[Float32, MutAnyOrigin],
    rstd: UnsafePointer[Float32, MutAnyOrigin],
    dx: UnsafePointer[Float32, MutAnyOrigin],
    dgamma: UnsafePointer[Float32, MutAnyOrigin],
    dbeta: UnsafePointer[Float32, MutAnyOrigin],
    m: Int32,
    n: Int32,
) raises:
    var total = Int(m) * Int(n)  # elements of dx
    comptime BLOCK = 256
    var ctx = DeviceContext()
    ctx.enqueue_function[solve_kernel, solve_kernel](
        x, dy, gamma, mean, rstd, dx, dgamma, dbeta, m, n,
        grid_dim=ceildiv(total, BLOCK),
        block_dim=BLOCK,
    )
    ctx.synchronize()
