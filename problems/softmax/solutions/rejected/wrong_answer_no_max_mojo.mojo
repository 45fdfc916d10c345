# expect: wrong_answer
# Bug: no maximum subtracted. exp(x) overflows to inf for x > 88.7, and inf / inf is NaN: the
# rows with large entries come out NaN (the problem's wide-range case has them).
from std.gpu import barrier, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.gpu.memory import AddressSpace
from std.math import exp
from std.memory import stack_allocation

comptime THREADS = 256


fn softmax_kernel(
    x: UnsafePointer[Float32, MutAnyOrigin],
    y: UnsafePointer[Float32, MutAnyOrigin],
    cols: Int32,
):
    var red = stack_allocation[THREADS, Float32, address_space = AddressSpace.SHARED]()
    var t = Int(thread_idx.x)
    var n = Int(cols)
    var row = Int(block_idx.x) * n
    var m = Float32.MIN
    var j = t
    while j < n:
        m = max(m, x[row + j])
        j += THREADS
    red[t] = m
    barrier()
    var stride = THREADS // 2
    while stride > 0:
        if t < stride:
            red[t] = max(red[t], red[t + stride])
        barrier()
        stride //= 2
    var row_max = red[0]
    barrier()  # every thread has read red[0] before it is overwritten
    var s: Float32 = 0.0
    j = t
    while j < n:
        s += exp(x[row + j])
        j += THREADS
    red[t] = s
    barrier()
    stride = THREADS // 2
    while stride > 0:
        if t < stride:
            red[t] += red[t + stride]
        barrier()
        stride //= 2
    var total = red[0]
    j = t
    while j < n:
        y[row + j] = exp(x[row + j]) / total
        j += THREADS


@export
def solve(
    x: UnsafePointer[Float32, MutAnyOrigin],
    y: UnsafePointer[Float32, MutAnyOrigin],
    rows: Int32,
    cols: Int32,
) raises:
    var ctx = DeviceContext()
    ctx.enqueue_function[softmax_kernel, softmax_kernel](
        x, y, cols, grid_dim=Int(rows), block_dim=THREADS
    )
    ctx.synchronize()
