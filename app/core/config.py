"""One ``Settings`` object, read from the environment (and ``.env``); see ``.env.example``.

With nothing set, KernelDojo runs self-contained under ``var/``: a SQLite database and an
embedded broker (kombu's filesystem transport). ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL and Redis for a real deployment. Default secrets are refused outside development.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from judge.device import gpu_kind
from judge.limits import MAX_SOURCE_BYTES as JUDGE_MAX_SOURCE_BYTES

DEFAULT_SECRET = "change-me-in-production"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_ignore_empty=True, extra="ignore")

    ENVIRONMENT: Literal["development", "test", "production"] = "development"
    SECRET_KEY: str = DEFAULT_SECRET
    # Where the embedded defaults keep their files (database, broker folders).
    DATA_DIR: Path = Path("var")
    DATABASE_URL: str = ""
    REDIS_URL: str = ""
    # Redis key prefix, so that several deployments (or test runs) can share one server.
    REDIS_PREFIX: str = ""
    PROBLEMS_DIR: Path | None = None
    # GPU kinds offered to learners (each is a Celery queue). The first is the default;
    # empty means "this host's kind" (KERNELDOJO_GPU_KIND or the GPU detected, else cpu).
    GPU_KINDS: list[str] = Field(default_factory=list)
    # At most the judge's limit (judge/limits.py), which is the default.
    MAX_SOURCE_BYTES: int = JUDGE_MAX_SOURCE_BYTES
    # Largest request body read at all (app/core/bodylimit.py); 0: 4 x MAX_SOURCE_BYTES + 16 KiB,
    # room for a source in JSON (escapes) with its other fields. Set the proxy's limit likewise.
    MAX_BODY_BYTES: int = 0
    SUBMISSIONS_PER_MINUTE: int = 10
    # Live-progress streams (app/streams.py): per web process, per client, per submission, and
    # how long one lasts. Logged-in viewers only; the others poll.
    SSE_MAX_TOTAL: int = 200
    SSE_MAX_PER_CLIENT: int = 4
    SSE_MAX_PER_SUBMISSION: int = 8
    SSE_MAX_S: float = 300.0
    # A submission `running` with no heartbeat for this long is re-queued by the sweeper.
    STUCK_AFTER_S: float = 120.0
    SWEEP_EVERY_S: float = 15.0
    # A submission still `queued` after this long is sent again (its message may be lost).
    RESEND_QUEUED_AFTER_S: float = 600.0
    # Redis re-delivers an unacknowledged task after this long (a worker that vanished).
    BROKER_VISIBILITY_TIMEOUT_S: int = 3600
    SESSION_MAX_AGE_S: int = 14 * 24 * 3600
    # The web app's PostgreSQL connections, per web process. Sync routes run in a pool of 40
    # threads (anyio's default) and each holds a connection until its response is sent: with
    # SQLAlchemy's default 5 (+10 overflow, opened and closed per request) 200 browsing
    # learners mostly waited on the pool (benchmarks/README.md, 'Web under load'). Keep
    # (DB_POOL_SIZE + DB_MAX_OVERFLOW) x web processes + workers below max_connections (100).
    DB_POOL_SIZE: int = 10
    DB_MAX_OVERFLOW: int = 20
    # Outgoing mail (app/mail.py), for password resets by e-mail; without SMTP_HOST and
    # SMTP_FROM there are none (an admin resets). SMTP_SECURITY: starttls, ssl or none.
    SMTP_HOST: str = ""
    SMTP_PORT: int = 587
    SMTP_SECURITY: Literal["starttls", "ssl", "none"] = "starttls"
    SMTP_USERNAME: str = ""
    SMTP_PASSWORD: str = ""
    SMTP_FROM: str = ""
    # The site's address as learners reach it, for links in mails ("https://dojo.example.edu").
    # Empty: reset mails are sent only to a learner on this very machine (loopback), with a
    # link to the server's own socket; never one built from the request's Host header.
    PUBLIC_URL: str = ""
    # Host names the site answers to (Starlette's TrustedHostMiddleware; others get a 400).
    # Empty: PUBLIC_URL's host plus localhost and 127.0.0.1, or any host without PUBLIC_URL
    # (app/core/hosts.py).
    ALLOWED_HOSTS: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _refuse_default_secrets(self) -> Settings:
        if not 0 < self.MAX_SOURCE_BYTES <= JUDGE_MAX_SOURCE_BYTES:
            raise ValueError(
                f"MAX_SOURCE_BYTES must be between 1 and the judge's {JUDGE_MAX_SOURCE_BYTES} "
                f"bytes (judge/limits.py), not {self.MAX_SOURCE_BYTES}"
            )
        if self.ENVIRONMENT != "development" and self.SECRET_KEY == DEFAULT_SECRET:
            raise ValueError("SECRET_KEY must be set to a random value outside development")
        if self.ENVIRONMENT == "production" and len(self.SECRET_KEY) < 32:
            raise ValueError("SECRET_KEY must be at least 32 characters in production")
        return self

    @property
    def database_url(self) -> str:
        if self.DATABASE_URL:
            return self.DATABASE_URL
        return f"sqlite:///{(self.DATA_DIR / 'kerneldojo.db').resolve()}"

    @property
    def max_body_bytes(self) -> int:
        return self.MAX_BODY_BYTES or 4 * self.MAX_SOURCE_BYTES + 16 * 1024

    @property
    def broker_url(self) -> str:
        # The filesystem transport ignores the host; naming one keeps kombu from warning
        # "No hostname was supplied" at every connection.
        return self.REDIS_URL or "filesystem://localhost//"

    @property
    def broker_folder(self) -> Path:
        return (self.DATA_DIR / "broker").resolve()

    @property
    def secure_cookies(self) -> bool:
        return self.ENVIRONMENT == "production"

    @property
    def smtp_configured(self) -> bool:
        return bool(self.SMTP_HOST and self.SMTP_FROM)

    @property
    def gpu_kinds(self) -> list[str]:
        return self.GPU_KINDS or [gpu_kind()]


@lru_cache
def get_settings() -> Settings:
    return Settings()
