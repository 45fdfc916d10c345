from std.gpu import block_dim, block_idx, thread_idx
from std.gpu.host import DeviceContext
from std.math import ceildiv


fn solve_kernel(
    logits: UnsafePointer[Float32, MutAnyOrigin],
    labels: UnsafePointer[Int32, MutAnyOrigin],
    loss: UnsafePointer[Float32, MutAnyOrigin],
    dlogits: UnsafePointer[Float32, MutAnyOrigin],
    b: Int32,
    v: Int32,
):
    # TODO: thread i computes element i of loss (return if i is past its end).
    var i = Int(block_idx.x * block_dim.x + thread_idx.x)
    _ = i


# inputs logits [b, v] float32, labels [b] int32; outputs loss [1] float32, dlogits [b, v] float32.
# Device pointers to contiguous arrays; launch your kernel(s) through a DeviceContext.
@export
def solve(
    logits: UnsafePointer[Float32, MutAnyOrigin],
    labels: UnsafePointer[Int32, MutAnyOrigin],
    loss: UnsafePointer[Float32, MutAnyOrigin],
    dlogits: UnsafePointer[Float32, MutAnyOrigin],
    b: Int32,
    v: Int32,
) raises:
    var total = 1  # elements of loss
    comptime BLOCK = 256
    var ctx = DeviceContext()
    ctx.enqueue_function[solve_kernel, solve_kernel](
        logits, labels, loss, dlogits, b, v,
        grid_dim=ceildiv(total, BLOCK),
        block_dim=BLOCK,
    )
    ctx.synchronize()
