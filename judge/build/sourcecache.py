"""Compiled Triton kernels kept per submitted source: a resubmission, or the Submit after a Run,
compiles nothing.

A runner compiles into its private Triton cache (``<work folder>/.triton``), which goes away with
it. After a grading the worker (trusted) copies what looks like Triton's compiled artefacts from
there into ``<root>/<key>/``, where ``key`` is an HMAC, under a secret only the worker reads, of
the problem, the source, the GPU and the Triton version. The next runner grading the same source
is told its key and reads that folder (bound read-only with the root) after the worker's shared
cache and before its own: Triton finds every kernel it would compile.

What a runner can and cannot do with it:

* It cannot list the root (mode 0311) nor compute another source's key (the secret), so it sees
  only the folder of the source it is running: nobody's compiled code but its own.
* What the worker copies is untrusted: regular files only (no links, one hard link at most),
  Triton's cache layout and file types, no shared libraries (launchers are built by the worker,
  tritoncache.py), size limits; group files are rewritten to the new place. The same source
  runs again on them, so planting other content gains nothing a submission does not already
  have: every run's inputs are fresh and checked by the referee, and the times are the
  referee's (SECURITY.md).
* At most ``MAX_SOURCES`` folders are kept, the least recently used go first.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import shutil
import stat
import time
from pathlib import Path
from typing import Any

from judge.build import cachepaths
from judge.build.cachepaths import KEY_ENV

log = logging.getLogger(__name__)

MAX_SOURCES = 2000
MAX_FILE = 32 << 20
MAX_TOTAL = 128 << 20
MAX_FILES = 512
_DIR = re.compile(r"[A-Za-z0-9_\-]{16,128}")
_FILE = re.compile(r"(?:__grp__)?[A-Za-z0-9_\-.]{1,160}\.(?:json|cubin|ptx|ttir|ttgir|llir|source)")


def root() -> Path:
    """Beside the worker's shared Triton cache; listable by the worker only."""
    return cachepaths.by_source_root()


def _secret() -> bytes:
    return _read_secret(root().parent / "triton-by-source.key")


@functools.cache
def _read_secret(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
        return path.read_bytes()


def key(problem: str, source: str, gpu: str) -> str:
    import triton

    text = json.dumps([problem, source, gpu, triton.__version__])
    return hmac.new(_secret(), text.encode(), hashlib.sha256).hexdigest()[:40]


def folder(k: str) -> Path | None:
    """The folder of a key, if a grading left one (and marks it used)."""
    path = root() / k
    try:
        os.utime(path)
    except OSError:
        return None
    return path


def store(workdir: Path, k: str) -> int:
    """Copy a finished runner's compiled kernels for key ``k``; how many files were kept."""
    base = root()
    if (base / k).exists():
        return 0
    src = workdir / ".triton"
    tmp = base / f".tmp-{k}-{secrets.token_hex(4)}"
    kept = 0
    try:
        kept = _copy(src, tmp, base / k)
        if kept:
            os.chmod(tmp, 0o755)
            os.rename(tmp, base / k)
    except OSError as e:
        log.info("compiled kernels of %s not kept: %s", k, e)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _evict(base)
    return kept


def _copy(src: Path, tmp: Path, final: Path) -> int:
    try:
        top = os.open(src, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return 0
    total = count = 0
    tmp.mkdir(mode=0o700)
    try:
        for entry in os.scandir(top):
            if not (_DIR.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False)):
                continue
            sub = os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=top)
            try:
                files: dict[str, bytes] = {}
                for f in os.scandir(sub):
                    if count + len(files) >= MAX_FILES or not _FILE.fullmatch(f.name):
                        continue
                    data = _read(f.name, sub, MAX_FILE)
                    if data is None or total + len(data) > MAX_TOTAL:
                        continue
                    files[f.name] = data
                    total += len(data)
            finally:
                os.close(sub)
            out = tmp / entry.name
            written = _write_group(out, final / entry.name, files)
            count += written
    finally:
        os.close(top)
    return count


def _read(name: str, dir_fd: int, limit: int) -> bytes | None:
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_size > limit:
            return None
        data = os.read(fd, limit + 1)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)


def _write_group(out: Path, final: Path, files: dict[str, bytes]) -> int:
    """One Triton cache entry; its group files point to where the entry will be."""
    written = 0
    out.mkdir(mode=0o755)
    for name, data in files.items():
        body = _regroup(data, final, files) if name.startswith("__grp__") else data
        if body is None:
            continue
        path = out / name
        path.write_bytes(body)
        path.chmod(0o444)
        written += 1
    return written


def _regroup(data: bytes, final: Path, files: dict[str, bytes]) -> bytes | None:
    try:
        children = json.loads(data)["child_paths"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(children, dict):
        return None
    moved: dict[str, str] = {}
    for child in children:
        if not (isinstance(child, str) and child in files and _FILE.fullmatch(child)):
            return None  # a group whose pieces were not all kept is of no use
        moved[child] = str(final / child)
    return json.dumps({"child_paths": moved}).encode()


def _evict(base: Path) -> None:
    os.chmod(base, 0o700)
    try:
        entries = [e for e in os.scandir(base) if e.is_dir(follow_symlinks=False)]
        stale = [e for e in entries if e.name.startswith(".tmp-")]
        now = time.time()
        for e in stale:
            if now - e.stat(follow_symlinks=False).st_mtime > 600:
                shutil.rmtree(e.path, ignore_errors=True)
        kept = sorted(
            (e for e in entries if not e.name.startswith(".")),
            key=lambda e: e.stat(follow_symlinks=False).st_mtime,
        )
        for e in kept[: max(0, len(kept) - MAX_SOURCES)]:
            shutil.rmtree(e.path, ignore_errors=True)
    finally:
        os.chmod(base, 0o311)


def note_in_runner(msg: dict[str, Any]) -> None:
    """The referee's ``load`` message names the source's folder (or none)."""
    k = msg.get("source_cache")
    os.environ[KEY_ENV] = k if isinstance(k, str) else ""
