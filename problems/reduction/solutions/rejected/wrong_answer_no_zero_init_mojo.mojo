# expect: wrong_answer
# Bug: out[0] is never zeroed. The blocks add their sums to whatever out[0] held, and the
# judge fills every output with NaN before a call: NaN plus anything is NaN.
from std.gpu import barrier, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.gpu.memory import AddressSpace
from std.math import ceildiv
from std.memory import stack_allocation
from std.os.atomic import Atomic

comptime THREADS = 256


fn sum_kernel(
    x: UnsafePointer[Float32, MutAnyOrigin],
    out_: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
):
    var s = stack_allocation[THREADS, Float32, address_space = AddressSpace.SHARED]()
    var t = Int(thread_idx.x)
    var i = Int(block_idx.x) * THREADS + t
    s[t] = x[i] if i < Int(n) else 0.0  # padding must be 0 for a sum
    barrier()
    var stride = THREADS // 2
    while stride > 0:
        if t < stride:
            s[t] += s[t + stride]
        barrier()
        stride //= 2
    if t == 0:
        _ = Atomic.fetch_add(out_, s[0])


@export
def solve(
    x: UnsafePointer[Float32, MutAnyOrigin],
    out_: UnsafePointer[Float32, MutAnyOrigin],
    n: Int32,
) raises:
    var ctx = DeviceContext()
    ctx.enqueue_function[sum_kernel, sum_kernel](
        x, out_, n, grid_dim=ceildiv(Int(n), THREADS), block_dim=THREADS
    )
    ctx.synchronize()
