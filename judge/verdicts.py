"""Verdicts a grading can end with (a contract: see DESIGN.md), in display order."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    ACCEPTED = "accepted"
    WRONG_ANSWER = "wrong_answer"
    COMPILE_ERROR = "compile_error"
    RUNTIME_ERROR = "runtime_error"
    TIME_LIMIT_EXCEEDED = "time_limit_exceeded"
    MEMORY_LIMIT_EXCEEDED = "memory_limit_exceeded"
    REJECTED = "rejected"
    NOT_RUN = "not_run"
    INTERNAL_ERROR = "internal_error"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_final_failure(self) -> bool:
        """A verdict after which no further case is worth running."""
        return self not in (Verdict.ACCEPTED, Verdict.WRONG_ANSWER, Verdict.NOT_RUN)


_LABELS = {
    Verdict.ACCEPTED: "Accepted",
    Verdict.WRONG_ANSWER: "Wrong Answer",
    Verdict.COMPILE_ERROR: "Compile Error",
    Verdict.RUNTIME_ERROR: "Runtime Error",
    Verdict.TIME_LIMIT_EXCEEDED: "Time Limit Exceeded",
    Verdict.MEMORY_LIMIT_EXCEEDED: "Memory Limit Exceeded",
    Verdict.REJECTED: "Rejected",
    Verdict.NOT_RUN: "Not Run",
    Verdict.INTERNAL_ERROR: "Internal Error",
}
