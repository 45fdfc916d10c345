# Threat class 4/10 (peeking, escape), in Mojo: solve opens a host file with the built-in
# open() and prints it. The static check refuses `open`; past it (graded with the check off),
# the built library imports libc's open, which the link-level check refuses.
# expect: rejected
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
    with open("/etc/passwd", "r") as f:
        print(f.read())
    var ctx = DeviceContext()
    ctx.enqueue_function[add_kernel, add_kernel](
        a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256
    )
    ctx.synchronize()
