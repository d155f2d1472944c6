"""Progress of long work on a terminal's stderr: one line, rewritten in place, cleared at the
end. ``yimao import``, ``yimao export`` and ``yimao check`` show it only when stderr is a
terminal; their summary and results go to stdout.

A :class:`TerminalProgress` is called as ``progress(stage, done, total)`` (``total`` 0 when
not known yet) and shows ``{prefix}{stage}: 45% (450,000 of 1,000,000)`` or
``{prefix}{stage} 2,000{unit}…``, at most five times a second. It stays quiet for work that
is small (``total`` under ``many``) and quick (under ``quiet_seconds`` so far).
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

EVERY_SECONDS = 0.2  # at most this often


class TerminalProgress:
    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        prefix: str = "",
        unit: str = "",
        many: int = 0,
        quiet_seconds: float = 0.0,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.prefix, self.unit = prefix, unit
        self.many, self.quiet_seconds = many, quiet_seconds
        self.started = time.monotonic()
        self.shown = 0.0  # when the line was last written
        self.width = 0  # of what is on the line now

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if total < self.many and now - self.started < self.quiet_seconds:
            return
        if done < total and now - self.shown < EVERY_SECONDS:
            return
        if not total and self.width and now - self.shown < EVERY_SECONDS:
            return
        if total:
            line = f"{self.prefix}{stage}: {done * 100 // total}% ({done:,} of {total:,})"
        elif done:
            line = f"{self.prefix}{stage} {done:,}{self.unit}…"
        else:
            line = f"{self.prefix}{stage}…"
        self.stream.write("\r" + line + "\x1b[K")
        self.stream.flush()
        self.shown, self.width = now, len(line)

    def clear(self) -> None:
        """Take the line away (nothing if none was shown)."""
        if self.width:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.width = 0


def on_terminal(
    *, prefix: str = "", unit: str = "", many: int = 0, quiet_seconds: float = 0.0
) -> TerminalProgress | None:
    """A :class:`TerminalProgress` on stderr if stderr is a terminal, else None."""
    if not sys.stderr.isatty():
        return None
    return TerminalProgress(
        sys.stderr, prefix=prefix, unit=unit, many=many, quiet_seconds=quiet_seconds
    )
