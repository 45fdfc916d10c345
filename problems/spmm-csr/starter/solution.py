import torch
import triton
import triton.language as tl


@triton.jit
def spmm_row(rowptr_ptr, col_ptr, val_ptr, b_ptr, y_ptr, n, BN: tl.constexpr):
    # TODO: one program per row i = tl.program_id(0) and block of BN columns of b
    # (tl.program_id(1); mask those past n):
    #   for each entry e of row i (rowptr[i] .. rowptr[i + 1] - 1), add val[e] times the BN
    #   columns of row col[e] of b (row-major: b_ptr + col[e] * n + cols) into a float32
    #   accumulator; store it into row i of y (an empty row stores zeros).
    pass


# rowptr [m + 1], col [nnz] int32; val [nnz], b [k, n], y [m, n] float32; on the GPU.
def solve(rowptr, col, val, b, y, m: int, k: int, n: int, nnz: int):
    BN = 32
    spmm_row[(m, triton.cdiv(n, BN))](rowptr, col, val, b, y, n, BN=BN)
