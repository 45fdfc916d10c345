# expect: compile_error
# LeetGPU's older Mojo starter: `gpu.id` and UnsafePointer without an origin are gone in Mojo
# 0.26.2 (the judge's note says what to write instead).
from gpu.host import DeviceContext
from gpu.id import block_dim, block_idx, thread_idx
from math import ceildiv


fn vector_add_kernel(
    A: UnsafePointer[Float32], B: UnsafePointer[Float32], C: UnsafePointer[Float32], N: Int32
):
    var i = block_idx.x * block_dim.x + thread_idx.x
    if i < UInt(N):
        C[i] = A[i] + B[i]


@export
def solve(A: UnsafePointer[Float32], B: UnsafePointer[Float32], C: UnsafePointer[Float32], N: Int32):
    var ctx = DeviceContext()
    ctx.enqueue_function[vector_add_kernel](
        A, B, C, N, grid_dim=ceildiv(Int(N), 256), block_dim=256
    )
    ctx.synchronize()
