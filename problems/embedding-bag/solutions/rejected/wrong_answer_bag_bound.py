# expect: wrong_answer
# expect-message: 1 x 1 table, one bag of one index
# Bug: an off-by-one bag bound. offsets[b + 1] is read as the index of bag b's last entry,
# when it is one past it: the loop stops a row short, so every bag loses its last row (the
# count divided by is still right): a bag of one row comes out 0. The fix: bag b is indices[offsets[b] : offsets[b + 1]], end excluded.
import triton
import triton.language as tl


@triton.jit
def bag_mean(weight_ptr, indices_ptr, offsets_ptr, out_ptr, dim, BLOCK_D: tl.constexpr):
    bag = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    live = cols < dim
    first = tl.load(offsets_ptr + bag)
    last = tl.load(offsets_ptr + bag + 1) - 1  # BUG: this is the last entry, not one past it
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for k in range(first, last):
        row = tl.load(indices_ptr + k).to(tl.int64)
        acc += tl.load(weight_ptr + row * dim + cols, mask=live, other=0.0)
    count = tl.maximum(last - first + 1, 1).to(tl.float32)
    tl.store(out_ptr + bag.to(tl.int64) * dim + cols, acc / count, mask=live)


def solve(weight, indices, offsets, out, num_embeddings: int, dim: int, bags: int, nnz: int):
    BLOCK_D = min(256, triton.next_power_of_2(dim))
    bag_mean[(bags, triton.cdiv(dim, BLOCK_D))](weight, indices, offsets, out, dim, BLOCK_D=BLOCK_D)
