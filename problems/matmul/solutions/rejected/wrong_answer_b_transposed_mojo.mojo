# expect: wrong_answer
# Bug: b read as if it were stored n x k (b[col * k + p]): c = a @ b.T's layout. Right only
# where b happens to be symmetric, which no case's b is.
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
            acc += a[row * Int(k) + p] * b[col * Int(k) + p]
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
