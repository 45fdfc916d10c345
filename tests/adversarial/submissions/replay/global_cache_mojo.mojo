# Threat class 1 (replay), in Mojo: Mojo has no global variables, but the runtime keeps named
# globals for the standard library (std.ffi._get_global); one holds the pointer of the last c,
# and solve skips the kernel when it repeats, hoping c still holds the previous result. The
# static check refuses std.ffi; past it, the judge refills c with NaN and the inputs before every
# call and checks every timed output.
# expect: wrong_answer
from std.ffi import _get_global
from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv
from std.memory import alloc


fn _init() -> UnsafePointer[NoneType, MutExternalOrigin]:
    var p = alloc[Int](1)
    p[0] = 0
    return p.bitcast[NoneType]()


fn _destroy(p: UnsafePointer[NoneType, MutExternalOrigin]):
    pass


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
    var last = _get_global["kd_last_c", _init, _destroy]().bitcast[Int]()
    if last[0] == Int(c):
        return
    last[0] = Int(c)
    var ctx = DeviceContext()
    ctx.enqueue_function[add_kernel, add_kernel](a, b, c, n, grid_dim=ceildiv(Int(n), 256), block_dim=256)
    ctx.synchronize()
