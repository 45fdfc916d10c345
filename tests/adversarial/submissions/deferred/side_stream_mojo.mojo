# Threat class 2 (deferred work), in Mojo: the kernel goes on a stream of its own (created
# non-blocking and at the highest priority by Mojo's runtime), and solve returns without waiting
# for it, hoping the judge's timer stops before the work ends. The judge's holding kernel keeps
# every SM until the start event, and its end event follows a device-wide synchronize.
# expect: accepted (timed honestly)
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
    var ctx = DeviceContext()
    var side = ctx.create_stream(priority=ctx.stream_priority_range().greatest)
    var f = ctx.compile_function[add_kernel, add_kernel]()
    side.enqueue_function(f, a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256)
