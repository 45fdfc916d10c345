"""The secret key when none is configured: the example key on loopback only.

``SECRET_KEY`` signs the session, CSRF and device cookies. The example key in the code is
public, so a server reachable beyond loopback must not use it: ``kerneldojo serve`` with a
non-loopback ``--host`` and no key of its own generates one on first start, keeps it in
``DATA_DIR/secret_key`` (created 0600, refused if anyone else may read it) and uses it from
then on, so cookies survive restarts. A deployment should still set ``SECRET_KEY``.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import stat
from pathlib import Path

from app.core.config import DEFAULT_SECRET, Settings


class SecretKeyError(RuntimeError):
    pass


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name other than localhost may resolve anywhere


def key_path(settings: Settings) -> Path:
    return settings.DATA_DIR / "secret_key"


def persisted_key(path: Path) -> str:
    """The key in ``path``, created (0600) if missing; refused if group or others may read it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48) + "\n")
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise SecretKeyError(f"{path} is not a regular file; remove it or set SECRET_KEY")
    if st.st_mode & 0o077 or st.st_uid != os.getuid():
        raise SecretKeyError(
            f"{path} may be read by other users (mode {stat.S_IMODE(st.st_mode):o}); "
            f"run chmod 600 {path} (as its owner), or set SECRET_KEY"
        )
    key = path.read_text().strip()
    if len(key) < 32:
        raise SecretKeyError(f"{path} holds a key shorter than 32 characters; remove it")
    return key


def key_for(settings: Settings, host: str) -> str | None:
    """A key to use instead of the configured one, or None to keep it."""
    if settings.SECRET_KEY != DEFAULT_SECRET or is_loopback(host):
        return None
    return persisted_key(key_path(settings))
