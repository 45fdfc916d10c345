"""Reading a file the sandbox wrote, without trusting the folder it sits in.

The work folder is writable by the submission: in place of ncu's report or the sanitizer's log
it may leave a symlink to a host file, a FIFO that blocks a reader, a device node, a file that
keeps growing. So a file is opened once, by name, with ``O_NOFOLLOW | O_NONBLOCK``, must be a
regular file owned by nobody but the sandbox or this process, is read up to a cap, and what the
referee keeps is its own copy, in a folder the sandbox never sees.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path


class Unsafe(ValueError):
    """The file is not a plain file of a sane size: the submission put something else there."""


def read(path: Path, limit: int) -> bytes:
    """The file's bytes (at most ``limit``), or Unsafe; FileNotFoundError when it is absent."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise Unsafe(f"{path.name} could not be opened safely ({e.strerror})") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unsafe(f"{path.name} is not a regular file")
        if st.st_size > limit:
            raise Unsafe(f"{path.name} is larger than {limit >> 20} MiB")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise Unsafe(f"{path.name} grew past {limit >> 20} MiB while read")
        return data
    finally:
        os.close(fd)


def keep(data: bytes, folder: Path, name: str) -> Path:
    """Write the referee's own copy (mode 0644 in a folder only the worker writes)."""
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / name
    tmp = folder / f".{name}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    os.replace(tmp, dest)
    return dest
