# Matmul in Mojo, the naive way: one thread per element of c, 16 x 16 threads per block, each
# walks a row of a and a column of b in float32. Correct and slow: every thread reads its whole
# row and column from global memory (tiling them through shared memory is the next step).
from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv

comptime TILE = 16


fn matmul_kernel(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    m: Int32,
    n: Int32,
    k: Int32,
):
    var row = Int(block_idx.y * block_dim.y + thread_idx.y)
    var col = Int(block_idx.x * block_dim.x + thread_idx.x)
    if row < Int(m) and col < Int(n):
        var acc: Float32 = 0.0
        for p in range(Int(k)):
            acc += a[row * Int(k) + p] * b[p * Int(n) + col]
        c[row * Int(n) + col] = acc


@export
def solve(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    m: Int32,
    n: Int32,
    k: Int32,
) raises:
    var ctx = DeviceContext()
    ctx.enqueue_function[matmul_kernel, matmul_kernel](
        a,
        b,
        c,
        m,
        n,
        k,
        grid_dim=(ceildiv(Int(n), TILE), ceildiv(Int(m), TILE)),
        block_dim=(TILE, TILE),
    )
    ctx.synchronize()
