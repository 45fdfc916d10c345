"""Safe evaluation of the integer/float arithmetic used in problem.toml (shapes, roofline)."""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Mapping

_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}


class ExprError(ValueError):
    pass


def names(expr: str) -> set[str]:
    """The parameter names an expression refers to (raises ExprError if it is not arithmetic)."""
    tree = _parse(expr)
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def evaluate(expr: str, env: Mapping[str, int | float]) -> int | float:
    return _eval(_parse(expr).body, env)


# Parsed once per text: a grading evaluates problem.toml's few shape expressions thousands of
# times (39 468 parses, 1.0 s of the referee's time over 16 gradings on an H100:
# benchmarks/README.md, 'Where grading time goes'); the trees are only read.
@functools.lru_cache(maxsize=4096)
def _parse(expr: str) -> ast.Expression:
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        raise ExprError(f"not an arithmetic expression: {expr!r}") from e
    for node in ast.walk(tree):
        if not isinstance(
            node,
            ast.Expression
            | ast.BinOp
            | ast.UnaryOp
            | ast.Constant
            | ast.Name
            | ast.Load
            | ast.operator
            | ast.unaryop,
        ):
            raise ExprError(f"only numbers, names and + - * / // % ** are allowed: {expr!r}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, int | float):
            raise ExprError(f"only numeric constants are allowed: {expr!r}")
    return tree


def _eval(node: ast.expr, env: Mapping[str, int | float]) -> int | float:
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, int | float)
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ExprError(f"unknown name {node.id!r}")
        return env[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise ExprError("unsupported operator")
        return op(_eval(node.left, env), _eval(node.right, env))
    raise ExprError("unsupported expression")
