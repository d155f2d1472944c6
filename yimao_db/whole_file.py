"""Writing a file whole or not at all: into a file beside it, put in its place when
complete, so that a full disk, an error or a Ctrl-C leaves the target as it was."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_whole(target: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to the file ``target`` whole or not at all. The file beside it
    is created as the target would be (the umask's mode) and never over another file; a
    target that exists and is not a regular file (``/dev/stdout``) is written directly."""
    if target.exists() and not target.is_file():
        target.write_text(text, encoding="utf-8")
        return
    partial = target.parent / f".{target.name}.{os.getpid()}.partial"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise
