"""The CPU interpreter's findings (bounds.py), gathered by the referee call after call."""

from __future__ import annotations

from typing import Any

from judge.profile.report import Finding, SanitizerReport


class Findings:
    """The CPU interpreter's findings (bounds.py) as the runner sends them with each call:
    untrusted, so only well-formed short strings and small ints are kept."""

    LIMIT = 5

    def __init__(self) -> None:
        self.items: list[Finding] = []
        self.seen: set[tuple[str, str | None, int | None]] = set()
        self.case = ""

    def add(self, raw: Any, case: str) -> None:
        if not isinstance(raw, list):
            return
        for item in raw[: self.LIMIT]:
            if len(self.items) >= self.LIMIT or not isinstance(item, dict):
                return
            text = {
                k: str(item[k])[:400]
                for k in ("kind", "message", "file")
                if isinstance(item.get(k), str)
            }
            line = item.get("line")
            if "message" not in text:
                continue
            finding = Finding(
                kind=text.get("kind", "out-of-bounds access")[:60],
                message=text["message"],
                file=text.get("file"),
                line=line if isinstance(line, int) and 0 < line < 10**6 else None,
            )
            where = (finding.kind, finding.file, finding.line)
            if where in self.seen:  # the same line in a later call or case
                continue
            self.seen.add(where)
            self.case = self.case or case
            self.items.append(finding)

    def report(self) -> SanitizerReport:
        return SanitizerReport(
            "interpreter",
            case=self.case,
            findings=list(self.items),
            errors=len(self.items),
            message="" if self.items else "the interpreter saw no out-of-bounds access",
        )
