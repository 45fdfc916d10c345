# Threat class 8 (shortcuts), Triton: a library computes, a trivial Triton kernel copies. JAX
# (installed on GPU workers for the Pallas language) adds the inputs through DLPack views, and a
# one-line copy kernel writes the result into the output, so the submission does launch a Triton
# kernel and runs no torch operator. The static policy's import rule refuses jax in a Triton file.
# expect: rejected
import jax.dlpack
import jax.numpy as jnp
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, n: int) -> None:
    total = jnp.add(jax.dlpack.from_dlpack(a), jax.dlpack.from_dlpack(b))
    result = torch.utils.dlpack.from_dlpack(total)
    copy_kernel[(triton.cdiv(n, 1024),)](result, c, n, BLOCK=1024)
