"""Settings: embedded defaults, deployment URLs, default secrets refused outside development."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.core.config import Settings
from judge.device import kind_from_name


def test_embedded_defaults(tmp_path: pytest.TempPathFactory) -> None:
    s = Settings(DATA_DIR=tmp_path, DATABASE_URL="", REDIS_URL="")
    assert s.database_url.startswith("sqlite:///") and s.database_url.endswith("kerneldojo.db")
    assert s.broker_url == "filesystem://localhost//"


def test_deployment_urls() -> None:
    s = Settings(DATABASE_URL="postgresql+psycopg://u@db/kd", REDIS_URL="redis://r:6379/0")
    assert s.database_url == "postgresql+psycopg://u@db/kd"
    assert s.broker_url == "redis://r:6379/0"


def test_default_secret_refused_in_production() -> None:
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(ENVIRONMENT="production")
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(ENVIRONMENT="test")
    assert Settings(ENVIRONMENT="development").SECRET_KEY  # the default is fine on a laptop
    with pytest.raises(ValidationError, match="32 characters"):
        Settings(ENVIRONMENT="production", SECRET_KEY="short")
    assert Settings(ENVIRONMENT="production", SECRET_KEY="x" * 40).secure_cookies


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("NVIDIA H100 80GB HBM3", "h100"),
        ("NVIDIA A100-SXM4-40GB", "a100"),
        ("NVIDIA GeForce RTX 4090", "rtx4090"),
        ("NVIDIA H200", "h200"),
    ],
)
def test_gpu_kind_from_name(name: str, kind: str) -> None:
    assert kind_from_name(name) == kind


def test_the_source_limit_defaults_to_the_judges_and_cannot_exceed_it() -> None:
    from judge.limits import MAX_SOURCE_BYTES

    assert Settings().MAX_SOURCE_BYTES == MAX_SOURCE_BYTES
    assert Settings(MAX_SOURCE_BYTES=1000).MAX_SOURCE_BYTES == 1000  # a server may lower it
    with pytest.raises(ValueError, match="MAX_SOURCE_BYTES must be between 1 and the judge's"):
        Settings(MAX_SOURCE_BYTES=MAX_SOURCE_BYTES + 1)
