# expect: wrong_answer
# expect-message: c: wrote past the end
# Bug: no bounds check. The grid is rounded up, as it should be, but the kernel lacks its
# `if i < Int(n)`, so the last block's threads past n read past a and b and write past the end
# of c. Every value inside c is right; the judge's guard bands after c see the stores.
from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv


fn vector_add_kernel(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
):
    var i = Int(block_idx.x * block_dim.x + thread_idx.x)
    c[i] = a[i] + b[i]


@export
def solve(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
) raises:
    comptime BLOCK = 256
    var ctx = DeviceContext()
    ctx.enqueue_function[vector_add_kernel, vector_add_kernel](
        a, b, c, n, grid_dim=ceildiv(Int(n), BLOCK), block_dim=BLOCK
    )
    ctx.synchronize()
