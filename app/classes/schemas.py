"""Validated input for class mode (the API's bodies; the pages build the same objects).

Assignment times arrive as wall-clock times in the assignment's time zone (what an instructor
types: "due 2026-12-01 23:59, Europe/Berlin") and are stored in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import field_validator, model_validator
from sqlmodel import Field, SQLModel

from app.classes.models import Rule
from judge import languages

MAX_PROBLEMS = 20


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones())  # scans the zoneinfo folders: once per process


def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name``; ValueError with a readable message if there is none."""
    try:
        if name not in _zone_names() and name != "UTC":
            raise ZoneInfoNotFoundError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as e:
        raise ValueError(
            f"unknown time zone {name!r}; use an IANA name such as Europe/Berlin or UTC"
        ) from e


def to_utc(local: datetime, tz: str) -> datetime:
    """A wall-clock time in ``tz`` (or an aware time, kept as it is) in UTC."""
    if local.tzinfo is None:
        local = local.replace(tzinfo=zone(tz))
    return local.astimezone(UTC)


class CourseCreate(SQLModel):
    name: str = Field(min_length=1, max_length=100)
    term: str = Field(default="", max_length=60)
    # Default: the server's first GPU kind (checked against the server's list by the service).
    gpu_kind: str | None = Field(default=None, max_length=32)

    @field_validator("name", "term")
    @classmethod
    def _strip(cls, v: str) -> str:
        return v.strip()

    @model_validator(mode="after")
    def _named(self) -> CourseCreate:
        if not self.name:
            raise ValueError("a class needs a name")
        return self


class JoinRequest(SQLModel):
    code: str = Field(min_length=1, max_length=64)


class InstructorInvite(SQLModel):
    username: str = Field(min_length=1, max_length=64)


TRACK_WORDS = ("kernel", "framework", "any")


def language_names(named: list[str]) -> list[str]:
    """Language names and the words ``kernel``, ``framework`` and ``any`` (every language of
    that track, or every language), as language names in the registry's order; ValueError
    naming an unknown one."""
    known = languages.all()
    wanted: set[str] = set()
    for word in named:
        word = word.strip().lower()
        if word == "any":
            wanted.update(lang.name for lang in known)
        elif word in TRACK_WORDS:
            wanted.update(lang.name for lang in known if lang.track == word)
        elif languages.get(word) is not None:
            wanted.add(word)
        else:
            raise ValueError(
                f"unknown language {word!r}; use {', '.join(languages.names())}, "
                "or kernel, framework or any"
            )
    return [lang.name for lang in known if lang.name in wanted]


class ProblemRule(SQLModel):
    problem: str = Field(min_length=1, max_length=64)
    rule: Rule = Rule.CORRECTNESS
    points: float = Field(default=10.0, gt=0, le=1000)
    # The languages whose submissions count (names, or kernel / framework / any); empty: the
    # kernel track's. A speed rule compares with the fastest editorial among them.
    languages: list[str] = Field(default_factory=list, max_length=20)

    @field_validator("languages")
    @classmethod
    def _known_languages(cls, v: list[str]) -> list[str]:
        return language_names(v)


class Deadlines(SQLModel):
    """When an assignment opens and is due, and its late policy, in the time zone ``timezone``."""

    opens_at: datetime
    due_at: datetime
    # With a late policy: submissions until this hard deadline count, times ``late_factor``.
    late_until: datetime | None = None
    late_factor: float = Field(default=1.0, ge=0, le=1)
    timezone: str = Field(default="UTC", max_length=64)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        v = v.strip() or "UTC"
        zone(v)
        return v

    @model_validator(mode="after")
    def _in_order(self) -> Deadlines:
        self.opens_at = to_utc(self.opens_at, self.timezone)
        self.due_at = to_utc(self.due_at, self.timezone)
        if self.late_until is not None:
            self.late_until = to_utc(self.late_until, self.timezone)
        if self.due_at <= self.opens_at:
            raise ValueError("the due time must come after the opening time")
        if self.late_until is not None and self.late_until <= self.due_at:
            raise ValueError("the hard deadline for late work must come after the due time")
        return self


class AssignmentCreate(Deadlines):
    title: str = Field(min_length=1, max_length=100)
    problems: list[ProblemRule] = Field(min_length=1, max_length=MAX_PROBLEMS)

    @field_validator("title")
    @classmethod
    def _strip(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("an assignment needs a title")
        return v.strip()

    @field_validator("problems")
    @classmethod
    def _distinct(cls, v: list[ProblemRule]) -> list[ProblemRule]:
        slugs = [p.problem for p in v]
        twice = sorted({s for s in slugs if slugs.count(s) > 1})
        if twice:
            raise ValueError(f"a problem is listed twice: {', '.join(twice)}")
        return v
