# expect: wrong_answer
# expect-message: out: wrote past the end
# Bug: the column mask is on the row loads but not on the store. When dim is not a multiple
# of BLOCK_D, the last block of columns writes its masked-off lanes (zeros) past each output
# row, and from the last bag past the end of out. Right only when BLOCK_D divides dim. The
# fix: mask=live on the store.
import triton
import triton.language as tl


@triton.jit
def bag_mean(weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    live = cols < dim
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for k in range(start, end):
        row = tl.load(indices_ptr + k).to(tl.int64)
        acc += tl.load(weight_ptr + row * dim + cols, mask=live, other=0.0)
    count = tl.maximum(end - start, 1).to(tl.float32)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, acc / count)  # BUG: no mask=live


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    BLOCK_D = 64
    bag_mean[(bags, triton.cdiv(dim, BLOCK_D))](weight, indices, offsets, out, dim, BLOCK_D=BLOCK_D)
