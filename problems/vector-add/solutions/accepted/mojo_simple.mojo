# Vector add in Mojo: one thread per element, LeetGPU's convention in Mojo 0.26.2's syntax.
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
    if i < Int(n):
        c[i] = a[i] + b[i]


# a, b, c are device pointers (memory on the GPU).
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
