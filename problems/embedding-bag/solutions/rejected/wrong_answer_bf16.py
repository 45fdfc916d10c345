# expect: wrong_answer
# Bug: rows are summed in bfloat16 ("half the bytes, and it's only embeddings"). bfloat16
# keeps 8 significant bits: each add rounds at 2^-9 of the running sum, far beyond the 1e-5
# asked for. The fix: load in float32 and keep a float32 accumulator.
import triton
import triton.language as tl


@triton.jit
def bag_mean(weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    live = cols < dim
    start = tl.load(offsets_ptr + bag)
    end = tl.load(offsets_ptr + bag + 1)
    acc = tl.zeros([BLOCK_D], dtype=tl.bfloat16)  # BUG: a bfloat16 accumulator
    for k in range(start, end):
        row = tl.load(indices_ptr + k).to(tl.int64)
        acc += tl.load(weight_ptr + row * dim + cols, mask=live, other=0.0).to(tl.bfloat16)
    count = tl.maximum(end - start, 1).to(tl.float32)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, acc.to(tl.float32) / count, mask=live)


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    BLOCK_D = min(256, triton.next_power_of_2(dim))
    bag_mean[(bags, triton.cdiv(dim, BLOCK_D))](weight, indices, offsets, out, dim, BLOCK_D=BLOCK_D)
