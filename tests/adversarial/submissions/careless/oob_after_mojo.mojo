# Threat class 12 (careless), in Mojo: no `if i < n` in the kernel, so the last block's threads
# past n write past the end of c. Every value inside c is right.
# expect: wrong_answer (c: wrote past the end)
from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv


fn add_kernel(
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
    var ctx = DeviceContext()
    ctx.enqueue_function[add_kernel, add_kernel](
        a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256
    )
    ctx.synchronize()
