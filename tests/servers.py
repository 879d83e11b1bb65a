"""`kibitz serve` in a subprocess, for tests that need a server process of their own."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading

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
