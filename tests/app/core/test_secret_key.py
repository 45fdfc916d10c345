"""Issue 18.6: the example secret key is never used beyond loopback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from app.core import secret_key
from app.core.config import DEFAULT_SECRET, Settings, get_settings


def _settings(tmp_path: Path, **kw: Any) -> Settings:
    return Settings(ENVIRONMENT="development", DATA_DIR=tmp_path, **kw)


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_loopback_keeps_the_example_key(tmp_path: Path, host: str) -> None:
    assert secret_key.key_for(_settings(tmp_path), host) is None
    assert not (tmp_path / "secret_key").exists()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "myhost.example"])
def test_beyond_loopback_a_generated_key_is_persisted_0600(tmp_path: Path, host: str) -> None:
    key = secret_key.key_for(_settings(tmp_path), host)
    assert key is not None and key != DEFAULT_SECRET and len(key) >= 32
    path = tmp_path / "secret_key"
    assert path.stat().st_mode & 0o777 == 0o600
    assert secret_key.key_for(_settings(tmp_path), host) == key  # the same after a restart


def test_a_configured_key_is_kept(tmp_path: Path) -> None:
    assert secret_key.key_for(_settings(tmp_path, SECRET_KEY="k" * 40), "0.0.0.0") is None


def test_a_key_file_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    path.write_text("x" * 64)
    path.chmod(0o644)
    with pytest.raises(secret_key.SecretKeyError, match="chmod 600"):
        secret_key.key_for(_settings(tmp_path), "0.0.0.0")


def test_serve_beyond_loopback_does_not_sign_with_the_example_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app import cli

    served: dict[str, Any] = {}

    def fake_serve(app: FastAPI, host: str, port: int, line: str) -> bool:  # built, not started
        served["app"], served["host"] = app, host
        return True

    monkeypatch.setattr(cli, "_serve_one", fake_serve)
    monkeypatch.setenv("DATA_DIR", str(tmp_path))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("ENVIRONMENT", "development")
    monkeypatch.setenv("KERNELDOJO_GPU_KIND", "cpu")  # serve sets it; restored after
    monkeypatch.chdir(tmp_path)  # no .env here
    get_settings.cache_clear()
    try:
        cli.serve(host="0.0.0.0", port=8000, worker=False, workers=1)
        used = served["app"].state.settings.SECRET_KEY
        assert used != DEFAULT_SECRET
        assert used == (tmp_path / "secret_key").read_text().strip()
        # The example key is the one a forged cookie would be signed with: not this one.
        (tmp_path / "secret_key").chmod(0o640)
        get_settings.cache_clear()
        os.environ.pop("SECRET_KEY", None)
        with pytest.raises(SystemExit, match=r"refusing to serve on 0\.0\.0\.0"):
            cli.serve(host="0.0.0.0", port=8000, worker=False, workers=1)
    finally:
        os.environ.pop("SECRET_KEY", None)
        get_settings.cache_clear()
