"""The gradebook as CSV: one row per student, four columns per assignment problem, the total.

The same text is served on the web (``GET /classes/{id}/gradebook.csv``, and under
``/api/v1``) and printed by ``kerneldojo class gradebook CLASS --csv``.
"""

from __future__ import annotations

import csv
import io

from app.classes.grades import Gradebook

FIELDS = ("verdict", "best_ms", "score", "late")


def _safe(text: str) -> str:
    """A spreadsheet must not run a cell as a formula (a title typed as ``=HYPERLINK(...)``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.6g}"


def header(book: Gradebook) -> list[str]:
    cols = ["student"]
    for c in book.columns:
        cols += [_safe(f"{c.label} {f}") for f in FIELDS]
    return [*cols, "total", "out_of"]


def rows(book: Gradebook) -> list[list[str]]:
    out = []
    for r in book.rows:
        line = [_safe(r.user.username)]
        for c in book.columns:
            cell = r.cells[c.key]
            line += [
                cell.verdict or "",
                _num(cell.best_ms),
                _num(cell.score),
                "yes" if cell.late else "no",
            ]
        out.append([*line, _num(r.total), _num(book.out_of)])
    return out


def to_csv(book: Gradebook) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header(book))
    w.writerows(rows(book))
    return buf.getvalue()


def filename(book: Gradebook) -> str:
    stem = "".join(ch if ch.isalnum() else "-" for ch in book.course.name.lower()).strip("-")
    return f"gradebook-{stem or 'class'}-{book.course.id}.csv"
