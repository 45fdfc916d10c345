# RMSNorm with residual in Mojo: one block of 256 threads per row. Pass 1 adds x + res, writes
# res_out and sums the squares of what res_out holds (rounded to bfloat16); a shared-memory
# tree gives the row's rms; pass 2 reads res_out back and writes y. Each thread re-reads only
# the elements it wrote. Statistics in float32, one rounding to bfloat16 per output.
from std.gpu import barrier, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.gpu.memory import AddressSpace
from std.math import rsqrt
from std.memory import stack_allocation

comptime THREADS = 256
comptime EPS: Float32 = 1e-6


fn add_rmsnorm(
    x: UnsafePointer[BFloat16, MutAnyOrigin],
    res: UnsafePointer[BFloat16, MutAnyOrigin],
    w: UnsafePointer[BFloat16, MutAnyOrigin],
    y: UnsafePointer[BFloat16, MutAnyOrigin],
    res_out: UnsafePointer[BFloat16, MutAnyOrigin],
    n: Int32,
):
    var red = stack_allocation[THREADS, Float32, address_space = AddressSpace.SHARED]()
    var t = Int(thread_idx.x)
    var cols = Int(n)
    var row = Int(block_idx.x) * cols  # an Int is 64 bits: m * n may pass 2^31
    var ss: Float32 = 0.0
    var j = t
    while j < cols:
        var h = (x[row + j].cast[DType.float32]() + res[row + j].cast[DType.float32]()).cast[
            DType.bfloat16
        ]()
        res_out[row + j] = h
        var hf = h.cast[DType.float32]()  # normalize what res_out holds
        ss += hf * hf
        j += THREADS
    red[t] = ss
    barrier()
    var stride = THREADS // 2
    while stride > 0:
        if t < stride:
            red[t] += red[t + stride]
        barrier()
        stride //= 2
    var rstd = rsqrt(red[0] / Float32(cols) + EPS)
    j = t
    while j < cols:
        var v = res_out[row + j].cast[DType.float32]() * rstd * w[j].cast[DType.float32]()
        y[row + j] = v.cast[DType.bfloat16]()
        j += THREADS


@export
def solve(
    x: UnsafePointer[BFloat16, MutAnyOrigin],
    res: UnsafePointer[BFloat16, MutAnyOrigin],
    w: UnsafePointer[BFloat16, MutAnyOrigin],
    y: UnsafePointer[BFloat16, MutAnyOrigin],
    res_out: UnsafePointer[BFloat16, MutAnyOrigin],
    m: Int32,
    n: Int32,
) raises:
    var ctx = DeviceContext()
    ctx.enqueue_function[add_rmsnorm, add_rmsnorm](
        x, res, w, y, res_out, n, grid_dim=Int(m), block_dim=THREADS
    )
    ctx.synchronize()
