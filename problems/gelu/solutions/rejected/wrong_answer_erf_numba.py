# expect: wrong_answer
# Bug: computes the exact GELU, x · Φ(x) = 0.5 · x · (1 + erf(x / √2)), "because math.erf is
# there", instead of the tanh approximation the problem asks for. The two differ by up to
# 1.8e-4 of |x| where the curve bends, 18 times the tolerance.
import math

from numba import cuda, float32

INV_SQRT_2 = float32(0.7071067811865476)


@cuda.jit
def gelu_kernel(x, y, n):
    i = cuda.grid(1)
    if i < n:
        v = x[i]
        y[i] = float32(0.5) * v * (float32(1.0) + math.erf(v * INV_SQRT_2))


def solve(x, y, n):
    threads = 256
    gelu_kernel[(n + threads - 1) // threads, threads](x, y, n)
