"""Mutants: what an operator proposes (``Edit``), and the mutated sample it makes (``Mutant``).

An operator (python_ops.py, cuda_ops.py) reads a sample's source and proposes edits: spans of
the text to replace. ``build`` turns them into mutants in a fixed order, each named by an id
that stays the same from run to run while the sample does: ``sample:operator:line:ordinal``
(the line of the edit in the sample, the ordinal among that operator's edits on that line).
That id is what a problem's ``mutants.toml`` lists as an equivalent mutant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A replacement of source[start:end] by text (offsets in characters).
Span = tuple[int, int, str]

# How long a diff line may grow before it is cut (a launch can span several lines).
DIFF_CHARS = 160


@dataclass(frozen=True)
class Edit:
    """One mutation an operator proposes: its first span is the one the id and diff show;
    any others go with it (the other half of a swap, an ``#include`` the change needs)."""

    operator: str
    spans: tuple[Span, ...]


@dataclass(frozen=True)
class Mutant:
    sample: str  # the accepted sample's file name
    language: str
    operator: str
    line: int  # 1-based line of the change in the sample
    ordinal: int  # 1-based among this operator's changes on that line
    source: str  # the mutated file
    before: str  # the changed line(s) of the sample, whitespace collapsed
    after: str  # the same line(s) in the mutant
    elsewhere: int = 0  # spans of the edit outside those lines (an accumulator's updates)

    @property
    def id(self) -> str:
        return f"{self.sample}:{self.operator}:{self.line}:{self.ordinal}"

    @property
    def diff(self) -> str:
        more = f" (+{self.elsewhere} more edits)" if self.elsewhere else ""
        return f"L{self.line}: {self.before} → {self.after}{more}"


def _collapse(text: str) -> str:
    one = re.sub(r"\s+", " ", text).strip()
    return one if len(one) <= DIFF_CHARS else one[: DIFF_CHARS - 1] + "…"


def apply(source: str, spans: tuple[Span, ...]) -> str:
    """``source`` with every span replaced (spans must not overlap)."""
    out = source
    for start, end, text in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
        out = out[:start] + text + out[end:]
    return out


def _lines_around(source: str, start: int, end: int) -> tuple[int, int]:
    """The start of the line holding ``start`` and the end of the line holding ``end``."""
    first = source.rfind("\n", 0, start) + 1
    last = source.find("\n", end)
    return first, len(source) if last < 0 else last


def build(
    sample: str, language: str, source: str, edits: list[Edit], order: tuple[str, ...]
) -> list[Mutant]:
    """The mutants of ``source``: ordered by operator (as in ``order``), then by position; an
    edit that changes nothing, or makes a file another edit already made, is left out."""
    rank = {name: i for i, name in enumerate(order)}
    ordered = sorted(edits, key=lambda e: (rank[e.operator], e.spans[0][0], e.spans[0][1]))
    seen = {source}
    counts: dict[tuple[str, int], int] = {}
    mutants: list[Mutant] = []
    for e in ordered:
        start, end, _ = e.spans[0]
        line = source.count("\n", 0, start) + 1
        key = (e.operator, line)
        counts[key] = counts.get(key, 0) + 1  # counted even when skipped: ids do not shift
        mutated = apply(source, e.spans)
        if mutated in seen:
            continue
        seen.add(mutated)
        first, last = _lines_around(source, start, end)
        # The diff shows the lines of the first span, with every span that falls inside them
        # (both halves of a swap on one line); a span elsewhere (an #include) is not shown.
        inside = tuple((s - first, t - first, x) for s, t, x in e.spans if first <= s and t <= last)
        mutants.append(
            Mutant(
                sample=sample,
                language=language,
                operator=e.operator,
                line=line,
                ordinal=counts[key],
                source=mutated,
                before=_collapse(source[first:last]),
                after=_collapse(apply(source[first:last], inside)),
                elsewhere=len(e.spans) - len(inside),
            )
        )
    return mutants
