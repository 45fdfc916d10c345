"""Triton's CPU interpreter made to compute bfloat16 as an H100 does.

numpy has no bfloat16, so the interpreter keeps bf16 tensors as their ``uint16`` bit patterns and
converts them by hand. Loads and stores are right; these operations are not (the same code in
Triton 3.6 to 3.9):

* ``tl.dot`` on bf16 operands: the builder's ``create_dot`` converts only 8-bit float operands
  before ``np.matmul``, so it multiplies the bit patterns as integers and returns values around
  1e10 for inputs of order 1 (triton-lang/triton#11584, closed as unsupported). Every bf16 GEMM
  and attention kernel a learner writes goes through it.
* float32 -> bf16 casts (``x.to(tl.bfloat16)``, or a float32 value stored through a bf16
  pointer): the builder's ``cast_impl`` drops the low 16 bits, rounding towards zero, where the
  GPU rounds to nearest even (``cvt.rn.bf16.f32``). Truncation doubles the error of every bf16
  output (up to 2^-7 relative instead of 2^-8), so a correct kernel could fail here and not on
  the GPU.
* arithmetic on bf16 values (``gate * up`` or ``x - mean`` on loaded bf16 tensors, ``tl.exp``
  of one, a ``tl.sum`` over one): the builder's ``binary_op``, ``unary_op``, ``create_fma``,
  ``create_rsqrt`` and the reductions apply numpy to the bit patterns as unsigned integers:
  3.0 - 1.0 comes out as 1.8e-38, and comparisons order negative values backwards.

``install()`` wraps both: each bf16 operand of a dot is widened to float32 from its bits (exact:
a bf16 value is the top half of the float32 with the same value) and multiplied as the
interpreter multiplies every other float type, with ``np.matmul`` into the accumulator's dtype,
which is what the tensor cores compute (exact products, float32 sums); float32 -> bf16 casts
round to nearest, ties to even, NaN kept NaN, as ``cvt.rn`` does; bf16 arithmetic widens its
operands, computes in float32 and rounds the result back to bf16 (comparisons return their
truth values as the interpreter returns them for any type): what the GPU computes, where each
bf16 operation rounds once (a bf16 ``tl.sum`` rounds once here, at each step of its tree on a
GPU). Everything else passes through untouched.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import triton.language as tl

log = logging.getLogger(__name__)

_installed = False


def widen_bf16(bits: np.ndarray) -> np.ndarray:
    """float32 values of bfloat16 bit patterns (uint16 or int16), exactly."""
    return (bits.view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def round_to_bf16(values: np.ndarray) -> np.ndarray:
    """bfloat16 bit patterns (uint16) of float32 values, rounded to nearest, ties to even."""
    # Shape kept: np.ascontiguousarray makes a 0-d array (a tl.sum's scalar) one-dimensional.
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).reshape(np.shape(values))
    lsb = (bits >> np.uint32(16)) & np.uint32(1)
    rounded = ((bits + np.uint32(0x7FFF) + lsb) >> np.uint32(16)).astype(np.uint16)
    nan = np.isnan(values)
    if np.any(nan):  # a NaN stays a (quiet) NaN: rounding could carry it into infinity
        rounded = np.where(
            nan, ((bits >> np.uint32(16)) | np.uint32(0x40)).astype(np.uint16), rounded
        )
    return rounded


def _scalar(dtype: Any) -> Any:
    return getattr(dtype, "scalar", dtype)


def install() -> bool:
    """Patch the interpreter's builder (idempotent). False when this Triton's builder lacks
    ``create_dot`` or ``cast_impl``: then the caller says so on every result."""
    global _installed
    if _installed:
        return True
    try:
        from triton.runtime.interpreter import InterpreterBuilder, TensorHandle
    except ImportError:
        return False
    dot = getattr(InterpreterBuilder, "create_dot", None)
    cast = getattr(InterpreterBuilder, "cast_impl", None)
    if dot is None or cast is None:
        return False
    _install_arithmetic(InterpreterBuilder, TensorHandle)

    def widen(h: Any) -> Any:
        if _scalar(h.dtype) != tl.bfloat16:
            return h
        return TensorHandle(widen_bf16(np.asarray(h.data)), tl.float32)

    def create_dot(self: Any, a: Any, b: Any, d: Any, *rest: Any, **kw: Any) -> Any:
        return dot(self, widen(a), widen(b), d, *rest, **kw)

    def cast_impl(self: Any, src: Any, dst_type: Any) -> Any:
        if _scalar(src.dtype) == tl.float32 and _scalar(dst_type) == tl.bfloat16:
            return TensorHandle(round_to_bf16(np.asarray(src.data)), tl.bfloat16)
        return cast(self, src, dst_type)

    InterpreterBuilder.create_dot = create_dot
    InterpreterBuilder.cast_impl = cast_impl
    if not hasattr(InterpreterBuilder, "get_bf16"):  # Triton 3.6's builder has no bf16 constant
        InterpreterBuilder.get_bf16 = _get_bf16(TensorHandle)
    _installed = True
    log.debug("interpreter: bf16 tl.dot by value, float32 -> bf16 casts rounded to nearest")
    return True


def _get_bf16(handle: Any) -> Any:
    """A bf16 constant (``tl.full(..., dtype=tl.bfloat16)``, a scalar cast to bf16), rounded to
    nearest as the GPU's constant folding does; later builders have it, 3.6's does not."""

    def get_bf16(self: Any, value: float) -> Any:
        return handle(round_to_bf16(np.array([value], dtype=np.float32)), tl.bfloat16)

    return get_bf16


_COMPARISONS = frozenset(
    {np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal}
)


def _install_arithmetic(builder: Any, handle: Any) -> None:
    """bf16 arithmetic by value: widen to float32, compute, round back (missing hooks are left)."""
    from triton.runtime import interpreter as interp

    def is_bf16(h: Any) -> bool:
        return bool(_scalar(h.dtype) == tl.bfloat16)

    def wide(h: Any) -> np.ndarray:
        return widen_bf16(np.asarray(h.data))

    def narrow(values: Any) -> Any:
        return handle(round_to_bf16(np.asarray(values, dtype=np.float32)), tl.bfloat16)

    binary = getattr(builder, "binary_op", None)
    if binary is not None:

        def binary_op(self: Any, lhs: Any, rhs: Any, op: Any) -> Any:
            if not (is_bf16(lhs) and is_bf16(rhs)):
                return binary(self, lhs, rhs, op)
            out = op(wide(lhs), wide(rhs))
            if op in _COMPARISONS:  # truth values, widened to the operand size as for any type
                return handle(np.asarray(out).astype(np.uint16), tl.bfloat16)
            return narrow(out)

        builder.binary_op = binary_op

    unary = getattr(builder, "unary_op", None)
    if unary is not None:

        def unary_op(self: Any, arg: Any, op: Any) -> Any:
            return narrow(op(wide(arg))) if is_bf16(arg) else unary(self, arg, op)

        builder.unary_op = unary_op

    rsqrt = getattr(builder, "create_rsqrt", None)
    if rsqrt is not None:

        def create_rsqrt(self: Any, arg: Any) -> Any:
            return narrow(1.0 / np.sqrt(wide(arg))) if is_bf16(arg) else rsqrt(self, arg)

        builder.create_rsqrt = create_rsqrt

    fma = getattr(builder, "create_fma", None)
    if fma is not None:

        def create_fma(self: Any, x: Any, y: Any, z: Any) -> Any:
            if not is_bf16(z):
                return fma(self, x, y, z)
            a, b, c = (np.asarray(wide(h), dtype=np.float64) for h in (x, y, z))
            return narrow((a * b + c).astype(np.float32))  # exact in float64 for bf16 operands

        builder.create_fma = create_fma

    reduce_ops = getattr(interp, "ReduceOps", None)
    if reduce_ops is None:
        return
    total, min_max = getattr(reduce_ops, "sum", None), getattr(reduce_ops, "min_max", None)

    def as_float32(self: Any, t: Any) -> Any:
        return self.to_tensor(wide(t.handle), tl.float32)

    def back(self: Any, t: Any) -> Any:
        bits = round_to_bf16(np.asarray(t.handle.data, dtype=np.float32))
        if not t.type.is_block():  # a reduction to a scalar stays a scalar (to_tensor's rule)
            return self.to_tensor(bits.reshape(-1)[0], tl.bfloat16)
        return self.to_tensor(bits, tl.bfloat16)

    if total is not None:

        def sum_(self: Any, input: Any) -> Any:
            if _scalar(input.dtype) != tl.bfloat16:
                return total(self, input)
            return back(self, total(self, as_float32(self, input)))

        reduce_ops.sum = sum_
    if min_max is not None:

        def min_max_(self: Any, input: Any, val_reduce_op: Any, idx_reduce_op: Any = None) -> Any:
            t = input[0] if isinstance(input, tuple) else input
            if _scalar(t.dtype) != tl.bfloat16:
                return min_max(self, input, val_reduce_op, idx_reduce_op)
            out = min_max(self, as_float32(self, t), val_reduce_op, idx_reduce_op)
            if isinstance(out, tuple):
                return back(self, out[0]), out[1]
            return back(self, out) if val_reduce_op else out

        reduce_ops.min_max = min_max_
