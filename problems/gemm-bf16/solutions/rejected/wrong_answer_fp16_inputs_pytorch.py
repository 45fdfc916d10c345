# expect: wrong_answer
# Bug: a precision mistake, of range rather than digits. The inputs are converted to float16
# "for the faster tensor cores": float16 has 3 more significant bits than bfloat16 but its
# largest finite value is 65504 and its normal range ends at 6e-5. The "wide exponent range"
# rows and columns are scaled by 2^20 and 2^-20: the large ones become inf (and inf - inf
# NaN), the small ones lose their digits. Which case fails first depends on the seed: a product
# below float16's normal range in the outer product (k = 1) case on some seeds, the wide
# range case always. bfloat16 exists for exactly this range; keep it.
import torch


def solve(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor, m: int, n: int, k: int):
    c.copy_(torch.matmul(a.half(), b.half()))
