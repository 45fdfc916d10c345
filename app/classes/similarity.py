"""Integrity aid: pairs of students' accepted submissions whose code is suspiciously alike.

Winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003), written here in a few lines: the
source is tokenised by Pygments (a dependency of ``rich``, so always installed), names,
numbers and strings are each replaced by one placeholder and comments and whitespace dropped,
so renaming variables, retuning constants or reformatting changes nothing; every run of ``K``
tokens is hashed, and in every window of ``W`` consecutive hashes the smallest is kept. Two
programs sharing a run of at least ``K + W - 1`` tokens are guaranteed to share a fingerprint.
The fingerprints of the problem's starter code are removed first: code every student was
given is not evidence.

The score of a pair is the share of the smaller program's fingerprints found in the other's
(a student who copied and then added code still scores high). It is a pointer for a person
to read both programs, never a verdict: short kernels for simple problems look alike.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import combinations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_for_filename
from pygments.token import Comment, Name, Number, String, Text, Token
from pygments.util import ClassNotFound
from sqlmodel import Session, col, select

from app.classes import service
from app.classes.models import Assignment
from app.models import Mode, Status, Submission
from judge import languages

K = 12  # tokens per hashed run
W = 8  # hashes per window
MIN_FINGERPRINTS = 6  # fewer than this after removing the starter: too short to compare
PER_STUDENT = 5  # newest accepted submissions compared per student and problem
DEFAULT_THRESHOLD = 0.7


@lru_cache(maxsize=8)
def _lexer(language: str) -> Lexer | None:
    lang = languages.get(language)
    if lang is None:
        return None
    try:
        return get_lexer_for_filename(f"solution{lang.suffix}")
    except ClassNotFound:
        return None


def tokens(source: str, language: str) -> list[str]:
    """The normalised token stream (placeholders for names, numbers and strings)."""
    lexer = _lexer(language)
    if lexer is None:
        return source.split()
    out: list[str] = []
    for kind, value in lexer.get_tokens(source):
        if kind in Comment or kind in Text or kind is Token.Text or not value.strip():
            continue
        if kind in String.Doc:
            continue
        if kind in Name and kind not in Name.Builtin:
            out.append("N")
        elif kind in Number:
            out.append("0")
        elif kind in String:
            if not out or out[-1] != "S":  # a string split into several tokens is one
                out.append("S")
        else:
            out.append(value.strip())
    return out


def _hash(run: list[str]) -> int:
    digest = hashlib.blake2b("\x1f".join(run).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def fingerprints(source: str, language: str) -> frozenset[int]:
    toks = tokens(source, language)
    hashes = [_hash(toks[i : i + K]) for i in range(len(toks) - K + 1)]
    if not hashes:
        return frozenset()
    if len(hashes) <= W:
        return frozenset([min(hashes)])
    return frozenset(min(hashes[i : i + W]) for i in range(len(hashes) - W + 1))


def similarity(a: frozenset[int], b: frozenset[int]) -> float:
    """Share of the smaller set found in the other (0 when either is too short to judge)."""
    if min(len(a), len(b)) < MIN_FINGERPRINTS:
        return 0.0
    return len(a & b) / min(len(a), len(b))


@dataclass
class Pair:
    problem: str
    score: float
    user_a: str
    user_b: str
    submission_a: int
    submission_b: int


def _accepted(
    session: Session, user_ids: list[int], problem: str, gpu_kind: str, since: datetime
) -> list[Submission]:
    return list(
        session.exec(
            select(Submission)
            .where(
                col(Submission.user_id).in_(user_ids),
                Submission.problem == problem,
                Submission.gpu_kind == gpu_kind,
                Submission.mode == Mode.SUBMIT,
                Submission.status == Status.DONE,
                Submission.verdict == "accepted",
                col(Submission.hidden).is_(False),
                col(Submission.created_at) >= since,
            )
            .order_by(col(Submission.id).desc())
        ).all()
    )


def pairs(
    session: Session,
    assignment: Assignment,
    problems: list[str],
    starters: dict[tuple[str, str], str],
    gpu_kind: str,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[Pair]:
    """Pairs of different students at or above ``threshold``, most alike first.

    ``starters``: (problem, language) -> the starter code handed out, whose fingerprints are
    not counted.
    """
    people = {u.id: u.username for u in service.students(session, assignment.course_id) if u.id}
    found: list[Pair] = []
    for problem in problems:
        per_user: dict[int, list[tuple[int, frozenset[int]]]] = {}
        for sub in _accepted(session, list(people), problem, gpu_kind, assignment.opens_at):
            mine = per_user.setdefault(sub.user_id, [])
            if len(mine) >= PER_STUDENT or sub.id is None:
                continue
            given = fingerprints(starters.get((problem, sub.language), ""), sub.language)
            mine.append((sub.id, fingerprints(sub.source, sub.language) - given))
        for ua, ub in combinations(sorted(per_user), 2):
            best: tuple[float, int, int] | None = None
            for sa, fa in per_user[ua]:
                for sb, fb in per_user[ub]:
                    s = similarity(fa, fb)
                    if best is None or s > best[0]:
                        best = (s, sa, sb)
            if best is not None and best[0] >= threshold:
                found.append(
                    Pair(problem, round(best[0], 3), people[ua], people[ub], best[1], best[2])
                )
    return sorted(found, key=lambda p: (-p.score, p.problem, p.user_a, p.user_b))
