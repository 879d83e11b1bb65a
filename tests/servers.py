"""`kibitz serve` in a subprocess, for tests that need a server process of their own, and
what tests ask about the processes they start."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

KIBITZ = [sys.executable, "-m", "kibitz"]


class ServerProcess:
    """`kibitz serve --port 0 FLAGS`, started at once; `address` is where it listens and
    `log` holds its log lines (read continuously, so the server never blocks on them).

    Use it as a context manager: leaving stops it with SIGTERM and checks it exits cleanly.
    """

    def __init__(self, *flags: str, path: tuple[str, ...] = ()) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([*path, env.get("PYTHONPATH", "")])
        self.process = subprocess.Popen(
            [*KIBITZ, "serve", "--port", "0", *flags], stderr=subprocess.PIPE, text=True, env=env
        )
        self.log: list[str] = []
        for line in self.process.stderr:
            self.log.append(line)
            match = re.search(r"serving on (\S+):(\d+)", line)
            if match:
                self.address = f"{match.group(1)}:{match.group(2)}"
                break
        else:
            raise RuntimeError(f"server did not start: {''.join(self.log)}")
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.log.append(line)

    def stop(self) -> int:
        """SIGTERM, then the exit code."""
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=30)
        self._reader.join(timeout=5)
        return code

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.stop() == 0, "".join(self.log)


def descendants(pid: int) -> list[int]:
    """The processes below `pid` now: its children, theirs, ..."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def ended_within(pid: int, deadline: float) -> bool:
    """Whether process `pid` ends before `deadline` (monotonic), waiting on its pidfd."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([handle], [], [], max(0.0, deadline - time.monotonic()))
        return bool(ready)
    finally:
        os.close(handle)
