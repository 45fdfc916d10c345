# Threat class 10 (escape), in Mojo: solve runs a shell command through external_call (C's
# system). The static check refuses std.ffi and external_call before anything is built.
# expect: rejected
from std.ffi import external_call
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
    if i < Int(n):
        c[i] = a[i] + b[i]


@export
def solve(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
) raises:
    _ = external_call["system", Int32]("cat /etc/passwd".unsafe_ptr())
    var ctx = DeviceContext()
    ctx.enqueue_function[add_kernel, add_kernel](
        a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256
    )
    ctx.synchronize()
