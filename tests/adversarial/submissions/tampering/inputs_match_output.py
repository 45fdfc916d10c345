# Threat class 5 (input tampering): write a constant into c, then rewrite the inputs so that
# a + b equals that constant (a := 7, b := 0). A judge that recomputed the expected output
# from the (shared, writable) input buffers after the call would accept it. The referee
# computes the expected outputs from its private copy of the inputs before the call.
# expect: wrong_answer
import triton
import triton.language as tl


@triton.jit
def tamper(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    seven = tl.zeros([BLOCK], dtype=tl.float32) + 7.0
    tl.store(c_ptr + offs, seven, mask=mask)
    tl.store(a_ptr + offs, seven, mask=mask)
    tl.store(b_ptr + offs, seven * 0.0, mask=mask)


def solve(a, b, c, n):
    block = 1024 if a.is_cuda else 1 << 16
    tamper[(triton.cdiv(n, block),)](a, b, c, n, BLOCK=block)
