"""Mutation operators for CUDA samples, by careful rewriting of the source's tokens.

The source is first *masked*: comments, string and character literals and preprocessor lines
become spaces of the same length, so that no pattern matches inside them (``#include <...>``,
a ``<`` in a comment) and every offset still points into the real text. The operators:

- ``drop_guard``: a device function's ``if`` on a bound (``if (i < n)``) made ``if (true)``;
- ``remove_syncthreads``: a ``__syncthreads()`` made ``(void)0``;
- ``lt_le``: ``<`` ↔ ``<=``, ``>`` ↔ ``>=`` in the condition of an ``if``, ``while`` or ``for``
  (never ``<<``, ``>>``, ``->``, ``<<<``, a cast's template brackets);
- ``blocks_minus_one``: a launch's block count one fewer, never below 1 (each component of a
  ``dim3`` grid, where it is written as one);
- ``half_accumulator``: a device function's local ``float`` (an accumulator, a partial sum,
  a shared array) declared ``kd_half``: a ``__half`` that converts to and from ``float``, so
  each value stored in it is rounded to half precision while the arithmetic stays as written.
  A plain ``__half`` does not compile wherever it meets a ``float`` (``x - m``: C++ finds the
  built-in and ``cuda_fp16.h``'s operators equally good): all 23 such mutants of softmax's
  CUDA samples were stillborn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from judge.mutate.base import Edit

OPERATORS = ("drop_guard", "remove_syncthreads", "lt_le", "blocks_minus_one", "half_accumulator")

_CASTS = re.compile(r"\b(?:\w+_cast|numeric_limits)\s*<[^<>;]*>")
_FUNCTION_KIND = re.compile(r"\b__(?:global|device)__\b")


def mask(source: str) -> str:
    """``source`` with comments, literals and preprocessor lines blanked (newlines kept)."""
    out = list(source)
    i, n = 0, len(source)
    line_start = True
    while i < n:
        c = source[i]
        if line_start and c == "#":
            end = i
            while end < n and (source[end] != "\n" or source[end - 1] == "\\"):
                end += 1
        elif source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c in "\"'":
            end = i + 1
            while end < n and source[end] != c and source[end] != "\n":
                end += 2 if source[end] == "\\" else 1
            end = min(end + 1, n)
        else:
            if c == "\n":
                line_start = True
            elif not c.isspace():
                line_start = False
            i += 1
            continue
        for j in range(i, end):
            if out[j] != "\n":
                out[j] = " "
        i = end
    text = "".join(out)
    return _CASTS.sub(lambda m: " " * len(m.group(0)), text)


def _close(text: str, open_at: int) -> int:
    """The index of the bracket closing the one at ``open_at`` (or -1)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    opener = text[open_at]
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == opener:
            depth += 1
        elif text[j] == pairs[opener]:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _device_bodies(m: str) -> list[tuple[int, int]]:
    """The ``{...}`` spans of ``__global__``/``__device__`` functions (not variables)."""
    bodies = []
    for k in _FUNCTION_KIND.finditer(m):
        depth = 0
        for j in range(k.end(), len(m)):
            ch = m[j]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif depth == 0 and ch in ";=[":
                break  # a __device__ variable
            elif depth == 0 and ch == "{":
                end = _close(m, j)
                if end > 0:
                    bodies.append((j, end))
                break
    return bodies


def _in(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


def _relational(m: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """Comparison tokens (``<``, ``<=``, ``>``, ``>=``) in ``m[start:end]`` with their offsets."""
    i = start
    while i < end:
        ch = m[i]
        if ch not in "<>":
            i += 1
            continue
        j = i
        while j < end and m[j] == ch:
            j += 1
        if j - i == 1 and not (ch == ">" and i > 0 and m[i - 1] == "-"):
            tok = ch + "=" if m[j : j + 1] == "=" else ch
            yield i, tok
            j = i + len(tok)
        elif m[j : j + 1] == "=":
            j += 1  # <<= and >>=
        i = j


def _conditions(m: str) -> Iterator[tuple[int, int]]:
    """The spans of ``if``/``while`` conditions and of ``for``'s middle clause."""
    for k in re.finditer(r"\b(if|while|for)\s*\(", m):
        open_at = k.end() - 1
        close = _close(m, open_at)
        if close < 0:
            continue
        if k.group(1) != "for":
            yield open_at + 1, close
            continue
        parts, depth, last = [], 0, open_at + 1
        for j in range(open_at + 1, close):
            depth += m[j] in "([{"
            depth -= m[j] in ")]}"
            if m[j] == ";" and depth == 0:
                parts.append((last, j))
                last = j + 1
        if len(parts) >= 2:
            yield parts[1]


def drop_guard(src: str, m: str) -> Iterator[Edit]:
    bodies = _device_bodies(m)
    for k in re.finditer(r"\bif\s*\(", m):
        open_at = k.end() - 1
        close = _close(m, open_at)
        if close > 0 and _in(k.start(), bodies) and any(_relational(m, open_at, close)):
            yield Edit("drop_guard", ((open_at + 1, close, "true"),))


def remove_syncthreads(src: str, m: str) -> Iterator[Edit]:
    for k in re.finditer(r"\b__syncthreads\s*\(\s*\)", m):
        yield Edit("remove_syncthreads", ((k.start(), k.end(), "(void)0"),))


def lt_le(src: str, m: str) -> Iterator[Edit]:
    flip = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
    for start, end in _conditions(m):
        for pos, tok in _relational(m, start, end):
            yield Edit("lt_le", ((pos, pos + len(tok), flip[tok]),))


def _args(m: str, start: int, end: int) -> list[tuple[int, int]]:
    """Top-level comma-separated spans of ``m[start:end]``, whitespace trimmed."""
    spans, depth, last = [], 0, start
    for j in range(start, end + 1):
        if j == end or (m[j] == "," and depth == 0):
            a, b = last, j
            while a < b and m[a].isspace():
                a += 1
            while b > a and m[b - 1].isspace():
                b -= 1
            spans.append((a, b))
            last = j + 1
        elif j < end:
            depth += m[j] in "([{"
            depth -= m[j] in ")]}"
    return spans


def _one_fewer(text: str) -> str:
    return f"(({text}) > 1 ? ({text}) - 1 : 1)"


def blocks_minus_one(src: str, m: str) -> Iterator[Edit]:
    for k in re.finditer(r"<<<", m):
        end = m.find(">>>", k.end())
        if end < 0:
            continue
        a, b = _args(m, k.end(), end)[0]
        grid = m[a:b]
        components: list[tuple[int, int]] = []
        inline = re.match(r"dim3\s*([({])", grid)
        if inline:
            open_at = a + inline.start(1)
            components = _args(m, open_at + 1, _close(m, open_at))
        elif re.fullmatch(r"\w+", grid):
            decl = re.search(rf"\bdim3\s+{grid}\s*(?:=\s*dim3\s*)?([({{])", m)
            if decl:
                components = _args(m, decl.start(1) + 1, _close(m, decl.start(1)))
        if not components:
            components = [(a, b)]
        for s, t in components:
            if m[s:t].strip() not in ("", "1"):
                yield Edit("blocks_minus_one", ((s, t, _one_fewer(src[s:t])),))


# Put before the sample: half-precision storage behind float's arithmetic. The default
# constructor stays trivial, so that a __shared__ array of it compiles.
HALF_PRELUDE = """#include <cuda_fp16.h>
struct kd_half {  // mutant: a float kept in half precision
    __half h;
    kd_half() = default;
    __host__ __device__ kd_half(float f) : h(__float2half(f)) {}
    __host__ __device__ operator float() const { return __half2float(h); }
    __host__ __device__ kd_half& operator+=(float v) { return *this = float(*this) + v; }
    __host__ __device__ kd_half& operator-=(float v) { return *this = float(*this) - v; }
    __host__ __device__ kd_half& operator*=(float v) { return *this = float(*this) * v; }
    __host__ __device__ kd_half& operator/=(float v) { return *this = float(*this) / v; }
};
"""


def half_accumulator(src: str, m: str) -> Iterator[Edit]:
    bodies = _device_bodies(m)
    for k in re.finditer(r"\bfloat(?=\s+\w+\s*[=;\[,])", m):
        if _in(k.start(), bodies):
            yield Edit("half_accumulator", ((k.start(), k.end(), "kd_half"), (0, 0, HALF_PRELUDE)))


_ALL: dict[str, Callable[[str, str], Iterator[Edit]]] = {
    "drop_guard": drop_guard,
    "remove_syncthreads": remove_syncthreads,
    "lt_le": lt_le,
    "blocks_minus_one": blocks_minus_one,
    "half_accumulator": half_accumulator,
}
assert tuple(_ALL) == OPERATORS


def edits(source: str, language: str) -> list[Edit]:
    """Every edit the operators propose for a CUDA sample."""
    m = mask(source)
    return [e for op in _ALL.values() for e in op(source, m)]
