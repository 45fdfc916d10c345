# expect: rejected
# Calls into C from solve (external_call through std.ffi): refused before it is compiled.
from std.ffi import external_call
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


@export
def solve(
    a: UnsafePointer[Float32, MutAnyOrigin],
    b: UnsafePointer[Float32, MutAnyOrigin],
    c: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
) raises:
    _ = external_call["system", Int32]("true".unsafe_ptr())
    var ctx = DeviceContext()
    ctx.enqueue_function[vector_add_kernel, vector_add_kernel](
        a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256
    )
    ctx.synchronize()
