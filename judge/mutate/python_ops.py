"""Mutation operators for Python samples (Triton, Numba, Pallas, PyTorch), read with ``ast``.

Each operator finds the nodes it changes and proposes an edit of their text only: the rest of
the file, comments included, stays as written, so a mutant's diff is the one change. The
operators are the bugs learners make and tests must catch (docs/mutation.md):

- ``drop_mask``: a ``load``/``store`` without its ``mask=`` (and ``other=``);
- ``drop_guard``: a kernel's ``if`` on a bound (``if i < n:``) made ``if True:``;
- ``lt_le``: ``<`` ↔ ``<=``, ``>`` ↔ ``>=`` in a comparison;
- ``grid_minus_one``: one block fewer in a launch grid (``max(g - 1, 1)``: never an empty
  grid, so that only the missing last block is tested);
- ``loop_minus_one``: a ``range``/``tl.range``/``tl.static_range`` one iteration shorter;
- ``const_0_1``: an integer or float constant 0 ↔ 1;
- ``fp16_accumulate``/``bf16_accumulate``: a ``float32`` dtype of an accumulator or a cast
  made float16/bfloat16;
- ``drop_max_subtraction``: ``exp(x - m)`` → ``exp(x)``, ``x - tl.max(x)`` → ``x``;
- ``swap_index``: two index expressions swapped (``a[i, j]`` → ``a[j, i]``, ``r * s + c`` →
  ``c * s + r``, a Pallas index map's ``(i, j)`` → ``(j, i)``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator

from judge.mutate.base import Edit, Span

OPERATORS = (
    "drop_mask",
    "drop_guard",
    "lt_le",
    "grid_minus_one",
    "loop_minus_one",
    "const_0_1",
    "fp16_accumulate",
    "bf16_accumulate",
    "drop_max_subtraction",
    "swap_index",
)

_RELATIONAL = {ast.Lt: (r"<(?!=)", "<="), ast.LtE: (r"<=", "<"), ast.Gt: (r">(?!=)", ">=")}
_RELATIONAL[ast.GtE] = (r">=", ">")
# Keyword arguments that tune speed only: a 0 ↔ 1 there is a mutant no test can kill.
_TUNING = {"num_warps", "num_stages", "num_ctas", "maxnreg", "eviction_policy", "cache_modifier"}
_DTYPE_MODULES = {"tl", "torch", "jnp", "np", "numpy"}
_AUGMENTED = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}
_ATOMIC = (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant)


class _Context:
    """A parsed sample: its text, node spans in characters, parents, and what to leave alone."""

    def __init__(self, source: str, language: str) -> None:
        self.source = source
        self.language = language
        self.tree = ast.parse(source)
        self.lines = source.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        # Decorators and annotations: configuration and types, not the computation.
        self.skip: set[ast.AST] = set()
        for node in ast.walk(self.tree):
            roots: list[ast.AST | None] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                roots += [*node.decorator_list, node.returns]
            elif isinstance(node, ast.arg | ast.AnnAssign):
                roots.append(node.annotation)
            for r in roots:
                if r is not None:
                    self.skip.update(ast.walk(r))

    def offset(self, lineno: int, col: int) -> int:
        """A character offset from ast's (1-based line, UTF-8 byte column)."""
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode()[:col].decode("utf-8", "ignore"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        end_line, end_col = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return start, self.offset(end_line, end_col)

    def text(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def replace(self, node: ast.AST, text: str) -> Span:
        start, end = self.span(node)
        return (start, end, text)

    def nodes(self) -> Iterator[ast.AST]:
        return (n for n in ast.walk(self.tree) if n not in self.skip)

    def enclosing(self, node: ast.AST) -> ast.AST:
        """The function (or module) a node is in."""
        p = self.parent.get(node)
        while p is not None and not isinstance(p, ast.FunctionDef | ast.AsyncFunctionDef):
            p = self.parent.get(p)
        return p if p is not None else self.tree

    def in_kernel(self, node: ast.AST) -> bool:
        """Inside a ``@triton.jit``/``@cuda.jit`` function or a Pallas kernel (``*_ref`` args)."""
        f = self.enclosing(node)
        if not isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
            return False
        jitted = any("jit" in ast.unparse(d) for d in f.decorator_list)
        return jitted or any(a.arg.endswith("_ref") for a in f.args.args)


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _paren(ctx: _Context, node: ast.AST) -> str:
    text = ctx.text(node)
    return text if isinstance(node, _ATOMIC) else f"({text})"


def _calls(ctx: _Context) -> Iterator[ast.Call]:
    return (n for n in ctx.nodes() if isinstance(n, ast.Call))


def _remove_keyword(ctx: _Context, call: ast.Call, kw: ast.keyword) -> Span:
    """The span that removes ``kw`` and the comma before it (or after it, when it is first)."""
    items: list[ast.AST] = sorted([*call.args, *call.keywords], key=lambda n: ctx.span(n))
    i = items.index(kw)
    if i > 0:
        return (ctx.span(items[i - 1])[1], ctx.span(kw)[1], "")
    end = ctx.span(items[1])[0] if len(items) > 1 else ctx.span(kw)[1]
    return (ctx.span(kw)[0], end, "")


def drop_mask(ctx: _Context) -> Iterator[Edit]:
    for call in _calls(ctx):
        kws = {k.arg: k for k in call.keywords}
        if _name(call) in ("load", "store") and "mask" in kws:
            spans = [_remove_keyword(ctx, call, kws["mask"])]
            if "other" in kws:  # other= without mask= is an error in Triton and Pallas
                spans.append(_remove_keyword(ctx, call, kws["other"]))
            yield Edit("drop_mask", tuple(spans))


def _relational(test: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Compare) and any(type(op) in _RELATIONAL for op in n.ops)
        for n in ast.walk(test)
    )


def drop_guard(ctx: _Context) -> Iterator[Edit]:
    for node in ctx.nodes():
        if isinstance(node, ast.If) and _relational(node.test) and ctx.in_kernel(node):
            yield Edit("drop_guard", (ctx.replace(node.test, "True"),))


def lt_le(ctx: _Context) -> Iterator[Edit]:
    for node in ctx.nodes():
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            if type(op) not in _RELATIONAL:
                continue
            pattern, flipped = _RELATIONAL[type(op)]
            start, end = ctx.span(operands[i])[1], ctx.span(operands[i + 1])[0]
            m = re.search(pattern, ctx.source[start:end])
            if m:
                yield Edit("lt_le", ((start + m.start(), start + m.end(), flipped),))


def _resolve(ctx: _Context, expr: ast.expr, scope: ast.AST, scalar: bool) -> list[ast.expr]:
    """A grid's block counts: the elements of a tuple, of what a lambda or a function returns,
    of what a name was assigned; a single count where ``scalar`` (Numba, Pallas)."""
    if isinstance(expr, ast.Tuple):
        return list(expr.elts)
    if isinstance(expr, ast.Lambda):
        return _resolve(ctx, expr.body, scope, scalar)
    if isinstance(expr, ast.Name):
        found: list[ast.expr] = []
        for n in ast.walk(scope):
            if (
                isinstance(n, ast.Assign)
                and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name)
                and n.targets[0].id == expr.id
                and isinstance(n.value, ast.Tuple | ast.Lambda)
            ):
                found += _resolve(ctx, n.value, scope, False)
            elif isinstance(n, ast.FunctionDef) and n.name == expr.id:
                for r in ast.walk(n):
                    if isinstance(r, ast.Return) and r.value is not None:
                        found += _resolve(ctx, r.value, scope, False)
        return found or ([expr] if scalar else [])
    return [expr] if scalar else []


def grid_minus_one(ctx: _Context) -> Iterator[Edit]:
    numba = ctx.language == "numba"
    counts: list[ast.expr] = []
    for call in _calls(ctx):
        scope = ctx.enclosing(call)
        if isinstance(call.func, ast.Subscript):  # kernel[grid](...), Numba's [blocks, threads]
            grid = call.func.slice
            if numba and isinstance(grid, ast.Tuple) and len(grid.elts) >= 2:
                grid = grid.elts[0]
            counts += _resolve(ctx, grid, scope, numba)
        for kw in call.keywords:  # pl.pallas_call(..., grid=(...))
            if kw.arg == "grid":
                counts += _resolve(ctx, kw.value, scope, True)
    seen: set[int] = set()
    for c in counts:
        if id(c) in seen or isinstance(c, ast.Constant) or c in ctx.skip:
            continue
        seen.add(id(c))
        yield Edit("grid_minus_one", (ctx.replace(c, f"max({_paren(ctx, c)} - 1, 1)"),))


def loop_minus_one(ctx: _Context) -> Iterator[Edit]:
    for node in ctx.nodes():
        if not (isinstance(node, ast.For) and isinstance(node.iter, ast.Call)):
            continue
        call = node.iter
        if _name(call) not in ("range", "static_range", "prange") or not call.args:
            continue
        stop = call.args[0] if len(call.args) == 1 else call.args[1]
        step = f" - {_paren(ctx, call.args[2])}" if len(call.args) > 2 else " - 1"
        yield Edit("loop_minus_one", (ctx.replace(stop, _paren(ctx, stop) + step),))


def _const_skip(ctx: _Context) -> set[ast.AST]:
    """Constants a 0 ↔ 1 would only make stillborn or leave equal: tuning keywords,
    ``triton.Config``, and ``tl.arange``'s start (a range must be a power of two long)."""
    out: set[ast.AST] = set()
    for call in _calls(ctx):
        if _name(call) == "Config":
            out.update(ast.walk(call))
        if _name(call) == "arange" and call.args:
            out.add(call.args[0])
        for kw in call.keywords:
            if kw.arg in _TUNING:
                out.update(ast.walk(kw.value))
    return out


def const_0_1(ctx: _Context) -> Iterator[Edit]:
    skip = _const_skip(ctx)
    for node in ctx.nodes():
        if isinstance(node, ast.Constant) and node not in skip:
            v = node.value
            if type(v) in (int, float) and v in (0, 1):
                text = str(1 - v) if type(v) is int else repr(1.0 - v)
                yield Edit("const_0_1", (ctx.replace(node, text),))


def _float32_nodes(ctx: _Context) -> Iterator[ast.Attribute]:
    for node in ctx.nodes():
        if not (
            isinstance(node, ast.Attribute)
            and node.attr == "float32"
            and isinstance(node.value, ast.Name)
            and node.value.id in _DTYPE_MODULES
        ):
            continue
        parent = ctx.parent.get(node)
        as_dtype = isinstance(parent, ast.keyword) and parent.arg == "dtype"
        cast = (
            isinstance(parent, ast.Call)
            and node in parent.args
            and _name(parent) in ("to", "astype", "cast")
        )
        if as_dtype or cast:
            yield node


def _accumulator(ctx: _Context, node: ast.Attribute) -> str | None:
    """The name a ``dtype=`` belongs to when it declares one: ``acc = tl.zeros(..., dtype=...)``."""
    kw = ctx.parent.get(node)
    call = ctx.parent.get(kw) if isinstance(kw, ast.keyword) else None
    stmt = ctx.parent.get(call) if isinstance(call, ast.Call) else None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.value is call:
        target = stmt.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _low_precision(ctx: _Context, node: ast.Attribute, kind: str) -> Edit:
    """``float32`` made ``kind``; for a declared accumulator, every later assignment to it is
    rounded back to ``kind`` too (``acc = (acc + x).to(tl.float16)``), so that the type
    promotion of ``acc += x`` (float16 + float32 is float32, in Triton as in NumPy) does not
    quietly undo the mutant."""
    module = ctx.text(node.value)
    low = f"{module}.{kind}"
    spans = [ctx.replace(node, low)]
    acc = _accumulator(ctx, node)
    if acc is not None:
        cast = "astype" if module in ("jnp", "np", "numpy") else "to"
        declaration = ctx.parent[ctx.parent[ctx.parent[node]]]
        for n in ast.walk(ctx.enclosing(node)):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                if n.target.id == acc and type(n.op) in _AUGMENTED:
                    update = f"{acc} {_AUGMENTED[type(n.op)]} ({ctx.text(n.value)})"
                    spans.append(ctx.replace(n, f"{acc} = ({update}).{cast}({low})"))
            elif isinstance(n, ast.Assign) and n is not declaration and len(n.targets) == 1:
                target = n.targets[0]
                if isinstance(target, ast.Name) and target.id == acc:
                    spans.append(ctx.replace(n.value, f"({ctx.text(n.value)}).{cast}({low})"))
    return Edit("fp16_accumulate" if kind == "float16" else "bf16_accumulate", tuple(spans))


def fp16_accumulate(ctx: _Context) -> Iterator[Edit]:
    for node in _float32_nodes(ctx):
        yield _low_precision(ctx, node, "float16")


def bf16_accumulate(ctx: _Context) -> Iterator[Edit]:
    for node in _float32_nodes(ctx):
        if isinstance(node.value, ast.Name) and node.value.id not in ("np", "numpy"):
            yield _low_precision(ctx, node, "bfloat16")


def _mentions_max(node: ast.AST) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and _name(n) in ("max", "maximum", "amax"):
            return True
        if isinstance(n, ast.Name) and "max" in n.id.lower():
            return True
    return False


def drop_max_subtraction(ctx: _Context) -> Iterator[Edit]:
    for node in ctx.nodes():
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
            continue
        parent = ctx.parent.get(node)
        in_exp = isinstance(parent, ast.Call) and _name(parent) in ("exp", "exp2")
        if in_exp or _mentions_max(node.right):
            yield Edit("drop_max_subtraction", (ctx.replace(node, ctx.text(node.left)),))


def _swap(ctx: _Context, a: ast.AST, b: ast.AST) -> Edit | None:
    ta, tb = ctx.text(a), ctx.text(b)
    if ta == tb:
        return None
    return Edit("swap_index", (ctx.replace(a, tb), ctx.replace(b, ta)))


def _index_factor(m: ast.BinOp) -> ast.expr:
    """Of ``index * stride``, the index (the side that is not a constant)."""
    return m.right if isinstance(m.left, ast.Constant) else m.left


def _swaps(ctx: _Context) -> Iterator[Edit | None]:
    for node in ctx.nodes():
        up = ctx.parent.get(node)
        launch = isinstance(up, ast.Call) and up.func is node  # kernel[grid, block](...)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and not launch:
            a_b = node.slice.elts[:2]
            if len(a_b) == 2 and not any(
                isinstance(e, ast.Slice) or (isinstance(e, ast.Constant) and e.value is None)
                for e in a_b
            ):
                yield _swap(ctx, a_b[0], a_b[1])
        elif isinstance(node, ast.Lambda) and isinstance(node.body, ast.Tuple):
            a_b = node.body.elts[:2]
            if len(a_b) == 2 and all(isinstance(e, ast.Name) for e in a_b):
                yield _swap(ctx, a_b[0], a_b[1])
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if isinstance(up, ast.BinOp) and isinstance(up.op, ast.Add):
                continue  # not the whole sum: the outermost Add holds the last two terms
            t1, t2 = node.left, node.right
            if isinstance(t1, ast.BinOp) and isinstance(t1.op, ast.Add):
                t1 = t1.right  # ``ptr + row * s + col``: the last two terms
            if not (isinstance(t1, ast.BinOp) and isinstance(t1.op, ast.Mult)):
                continue
            if isinstance(t2, ast.BinOp) and isinstance(t2.op, ast.Mult):
                yield _swap(ctx, _index_factor(t1), _index_factor(t2))  # r*s + c*t -> c*s + r*t
            elif isinstance(t2, ast.Name | ast.Subscript | ast.Attribute):
                yield _swap(ctx, _index_factor(t1), t2)  # r * s + c -> c * s + r


def swap_index(ctx: _Context) -> Iterator[Edit]:
    return (e for e in _swaps(ctx) if e is not None)


_ALL: dict[str, Callable[[_Context], Iterator[Edit]]] = {
    "drop_mask": drop_mask,
    "drop_guard": drop_guard,
    "lt_le": lt_le,
    "grid_minus_one": grid_minus_one,
    "loop_minus_one": loop_minus_one,
    "const_0_1": const_0_1,
    "fp16_accumulate": fp16_accumulate,
    "bf16_accumulate": bf16_accumulate,
    "drop_max_subtraction": drop_max_subtraction,
    "swap_index": swap_index,
}
assert tuple(_ALL) == OPERATORS


def edits(source: str, language: str) -> list[Edit]:
    """Every edit the operators propose for a Python sample (none if it does not parse)."""
    try:
        ctx = _Context(source, language)
    except SyntaxError:
        return []
    return [e for op in _ALL.values() for e in op(ctx)]
