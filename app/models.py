"""Database models: SQLModel families ``XBase`` / ``X`` (table) / ``XCreate`` / ``XPublic``.

The database is the source of truth for submissions: the queue carries only their ids, and a
worker claims a row with a conditional UPDATE (see ``app/submissions.py``) before grading it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import ValidationInfo, field_validator
from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel

from app.core.passwords import check_password, check_username


def utcnow() -> datetime:
    """Aware UTC (SQLModel's UTCDateTime stores it the same way in SQLite and PostgreSQL)."""
    return datetime.now(UTC)


# --- users -------------------------------------------------------------------------------


class UserBase(SQLModel):
    username: str = Field(min_length=3, max_length=32, index=True, unique=True)


class User(UserBase, table=True):
    id: int | None = Field(default=None, primary_key=True)
    password_hash: str
    is_admin: bool = False
    # Optional, for password resets by e-mail where the server has SMTP (app/mail.py).
    email: str | None = Field(default=None, max_length=254, index=True)
    # Runs classes (app/classes): creates them, grades their students; no server admin.
    is_instructor: bool = False
    created_at: datetime = Field(default_factory=utcnow)


class UserCreate(UserBase):
    password: str = Field(min_length=8, max_length=128)
    invite_code: str = ""

    @field_validator("username")
    @classmethod
    def _username_chars(cls, v: str) -> str:
        return check_username(v)  # normalised: "Alice" and "ａｌｉｃｅ" are "alice"

    # A field validator, so that its error names the field (``loc`` = ("password",)): the
    # sign-up page and the API say which field is wrong. ``username`` is declared before
    # ``password``, so it is in ``info.data`` when it was valid itself.
    @field_validator("password")
    @classmethod
    def _password_rules(cls, v: str, info: ValidationInfo) -> str:
        check_password(v, str(info.data.get("username", "")))
        return v


class PasswordChange(SQLModel):
    """A new password, checked by the same rules as at sign-up."""

    username: str
    password: str = Field(min_length=8, max_length=128)

    @field_validator("password")
    @classmethod
    def _password_rules(cls, v: str, info: ValidationInfo) -> str:
        check_password(v, str(info.data.get("username", "")))
        return v


class UserPublic(UserBase):
    id: int
    is_admin: bool
    is_instructor: bool = False
    created_at: datetime


# --- personal API tokens -----------------------------------------------------------------


class Scope(StrEnum):
    """What a personal token may do (app/deps.py decides which a request needs)."""

    READ = "read"  # GET: problems, submissions, leaderboards, one's own data
    SUBMIT = "submit"  # every other method outside /admin: submitting, run
    ADMIN = "admin"  # /api/v1/admin/...; only an admin can hold it


class ApiTokenBase(SQLModel):
    name: str = Field(min_length=1, max_length=64)


class ApiToken(ApiTokenBase, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    # Only a SHA-256 of the token is stored; the token itself is shown once.
    token_hash: str = Field(index=True, unique=True)
    prefix: str
    # Comma-separated Scope values.
    scopes: str = Field(default="read,submit", max_length=64)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime | None = None
    last_used_at: datetime | None = None

    @property
    def scope_set(self) -> set[str]:
        return {x for x in self.scopes.split(",") if x}


class ApiTokenCreate(ApiTokenBase):
    scopes: list[Scope] = Field(default_factory=lambda: [Scope.READ, Scope.SUBMIT], min_length=1)
    # None: never expires.
    expires_in_days: int | None = Field(default=None, ge=1, le=3650)


class ApiTokenPublic(ApiTokenBase):
    id: int
    prefix: str
    scopes: str
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None


class ApiTokenCreated(ApiTokenPublic):
    token: str


# --- server-side sessions (app/sessions.py) ---------------------------------------------


class UserSession(SQLModel, table=True):
    # SHA-256 of the random token in the signed cookie.
    id: str = Field(primary_key=True, max_length=64)
    user_id: int = Field(foreign_key="user.id", index=True)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime


# --- log-in throttling (app/core/throttle.py) --------------------------------------------


class Throttle(SQLModel, table=True):
    """Failed attempts under one key (``login-user:alice``, ``login-ip:10.0.0.7``, ...)."""

    key: str = Field(primary_key=True, max_length=200)
    failures: int = 0
    last_failure_at: datetime = Field(default_factory=utcnow)
    locked_until: datetime | None = None


# --- site settings (one row) -------------------------------------------------------------


class SiteConfig(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    signups_open: bool = True
    # When set, signing up needs this code even while sign-ups are closed (a class's code).
    invite_code: str = ""


INVITE_MIN_CHARS = 12


class SiteConfigPublic(SQLModel):
    signups_open: bool
    invite_code: str


class SiteConfigUpdate(SQLModel):
    signups_open: bool
    invite_code: str = Field(default="", max_length=64)
    # A strong random code (accounts.new_invite_code) instead of ``invite_code``.
    generate_invite_code: bool = False

    @field_validator("invite_code")
    @classmethod
    def _strong_enough(cls, v: str) -> str:
        v = v.strip()
        if v and len(v) < INVITE_MIN_CHARS:
            raise ValueError(
                f"an invite code needs at least {INVITE_MIN_CHARS} characters (short ones are "
                "guessed); leave it empty and ask for a generated one"
            )
        return v


# --- editor drafts (app/api/routes/drafts.py) ---------------------------------------------


class Draft(SQLModel, table=True):
    """A logged-in learner's unsent code, per problem and language: the editor saves it as they
    type, so that it follows them to another browser."""

    user_id: int = Field(foreign_key="user.id", primary_key=True)
    problem: str = Field(primary_key=True, max_length=64)
    language: str = Field(primary_key=True, max_length=16)
    source: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


class DraftSave(SQLModel):
    source: str


# --- submissions -------------------------------------------------------------------------


class Mode(StrEnum):
    RUN = "run"  # test cases only, quick feedback, not ranked
    SUBMIT = "submit"  # tests + benchmark + leaderboard
    # One run under Nsight Compute on a GPU (judge/profile/): figures and hints, not
    # ranked; a lower priority on the GPU queue than Submit, one in flight per learner.
    PROFILE = "profile"
    SANITIZE = "sanitize"  # tests, then a case under compute-sanitizer (or the interpreter's check)


class Status(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class SubmissionBase(SQLModel):
    problem: str = Field(index=True, max_length=64)
    language: str = Field(max_length=16)


class Submission(SubmissionBase, table=True):
    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    gpu_kind: str = Field(index=True, max_length=32)
    source: str = Field(sa_column=Column(Text, nullable=False))
    # Plain strings (values of Mode / Status), not database enums: simpler migrations.
    mode: str = Field(default=Mode.SUBMIT, max_length=8)
    status: str = Field(default=Status.QUEUED, max_length=8, index=True)
    verdict: str | None = Field(default=None, index=True)
    message: str = ""
    score_ms: float | None = None
    result_json: str | None = Field(default=None, sa_column=Column(Text))
    progress_json: str | None = Field(default=None, sa_column=Column(Text))
    # Bumped by every claim; a result is recorded only by the claim that is still current.
    attempt: int = 0
    # Claims since a person last queued it (submitted, rejudged): capped (app/retries.py).
    tries: int = 0
    hidden: bool = False
    worker: str | None = None
    created_at: datetime = Field(default_factory=utcnow, index=True)
    enqueued_at: datetime = Field(default_factory=utcnow)
    started_at: datetime | None = None
    heartbeat_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def result(self) -> dict[str, Any] | None:
        return json.loads(self.result_json) if self.result_json else None

    @property
    def progress(self) -> dict[str, Any] | None:
        return json.loads(self.progress_json) if self.progress_json else None


class SubmissionCreate(SubmissionBase):
    mode: Mode = Mode.SUBMIT
    source: str
    gpu_kind: str | None = None


class SubmissionPublic(SubmissionBase):
    id: int
    user_id: int
    username: str = ""
    mode: str
    gpu_kind: str
    status: str
    verdict: str | None
    message: str
    score_ms: float | None
    attempt: int
    hidden: bool
    created_at: datetime
    finished_at: datetime | None


class SubmissionDetail(SubmissionPublic):
    # None when the viewer may not see the code (not theirs, and they have not solved it).
    source: str | None = None
    result: dict[str, Any] | None = None
    progress: dict[str, Any] | None = None
    queue_position: int | None = None


# --- workers' self-tests (app/workers.py, worker/selftest.py) -------------------------------


class WorkerReport(SQLModel, table=True):
    """A worker's environment and its languages' self-test (judge/doctor.py), one row per
    worker (its Celery name, ``worker-h100-gpu0@host``), replaced at each start of the worker."""

    name: str = Field(primary_key=True, max_length=200)
    gpu_kind: str = Field(index=True, max_length=32)
    # judge/environment.py's report: Python, OS, GPU, driver, package versions.
    environment_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    # Per language name: judge/doctor.py's LanguageStatus (status, verdict, error, seconds).
    languages_json: str = Field(default="{}", sa_column=Column(Text, nullable=False))
    started_at: datetime = Field(default_factory=utcnow)
    checked_at: datetime | None = None  # when the self-test ended; None while it runs
    seen_at: datetime = Field(default_factory=utcnow)  # the worker says it is alive

    @property
    def environment(self) -> dict[str, Any]:
        return dict(json.loads(self.environment_json or "{}"))

    @property
    def languages(self) -> dict[str, dict[str, Any]]:
        return dict(json.loads(self.languages_json or "{}"))


# --- the playground (app/playground.py, worker/playground.py) ------------------------------


class PlaygroundRun(SQLModel, table=True):
    """One playground run: the learner's code on the case they chose. Never a submission: no
    verdict of record, no leaderboard, no statistics; kept a day (app/playground.py)."""

    id: int | None = Field(default=None, primary_key=True)
    user_id: int = Field(foreign_key="user.id", index=True)
    problem: str = Field(max_length=64)
    language: str = Field(max_length=16)
    gpu_kind: str = Field(max_length=32)
    source: str = Field(sa_column=Column(Text, nullable=False))
    # {"params": {...}, "seed": int, "literals": {...}}: judge/playcase.py checked it.
    request_json: str = Field(sa_column=Column(Text, nullable=False))
    status: str = Field(default=Status.QUEUED, max_length=8)
    stage: str = Field(default="", max_length=32)  # the last progress event's stage
    result_json: str | None = Field(default=None, sa_column=Column(Text))
    created_at: datetime = Field(default_factory=utcnow, index=True)
    finished_at: datetime | None = None

    @property
    def request(self) -> dict[str, Any]:
        return dict(json.loads(self.request_json))

    @property
    def result(self) -> dict[str, Any] | None:
        return json.loads(self.result_json) if self.result_json else None


class PlaygroundCreate(SQLModel):
    language: str = Field(max_length=16)
    source: str
    params: dict[str, int] = {}
    seed: int = 0
    # An input's values as nested lists of JSON numbers (never evaluated): judge/playcase.py.
    literals: dict[str, Any] = {}
    gpu_kind: str | None = None


class PlaygroundPublic(SQLModel):
    id: int
    problem: str
    language: str
    gpu_kind: str
    status: str
    stage: str
    request: dict[str, Any]
    result: dict[str, Any] | None
    created_at: datetime
    finished_at: datetime | None
