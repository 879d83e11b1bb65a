"""The match's local UCI engines (`cmd=`) on a kibitz server of their own, so that every
player of a match is a kibitz engine on some server, and a UCI engine is always driven by
the server's `uci` engine family (its clock, score and failure handling: docs/uci.md).

The runner starts the server as a child process, `python -m kibitz.server.child` (see
there) with an engine config naming each command, on a free loopback port: a process, not
an import, because the match layer is a client of servers (docs/architecture.md), and
because the child ends when its standard input does, so that neither the server nor its
engines outlive the runner, even a killed one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from kibitz.match.spec import EngineSpec

START_TIMEOUT = 120.0
"""Seconds the server has to start: each engine is started once to read its options."""
STOP_TIMEOUT = 10.0
"""Seconds it has to stop (its sessions closed, its engines quit) before it is killed."""
CHILD = (sys.executable, "-m", "kibitz.server.child")


class LocalServerError(Exception):
    """The server for the `cmd=` engines did not start; the message names the engine."""


def engine_names(specs: Mapping[int, EngineSpec]) -> dict[int, str]:
    """A name on the server for each `cmd=` engine (by its index in the match): `uci-` and
    its name in the match as an engine name may be written (lower case, letters, digits,
    - and _), kept apart from the server's own engines by the prefix."""
    names: dict[int, str] = {}
    for index, spec in specs.items():
        slug = re.sub(r"[^a-z0-9_-]+", "-", spec.name.lower()).strip("-_")[:30]
        name = f"uci-{slug or 'engine'}"
        if name in names.values():
            name = f"{name[:34]}-{index + 1}"
        names[index] = name
    return names


def engine_config(specs: Mapping[int, EngineSpec], names: Mapping[int, str], game: str) -> str:
    """The server's engine config (TOML) hosting each `cmd=` engine, with its options as the
    engine's defaults (so the server checks them at its start); ValueError for a command
    that cannot be split into words."""
    tables = []
    for index, spec in specs.items():
        try:
            argv = shlex.split(spec.cmd)
        except ValueError as exc:
            raise ValueError(f"engine {spec.name}: cmd={spec.cmd}: {exc}") from None
        if not argv:
            raise ValueError(f"engine {spec.name}: cmd= names no command")
        command = argv[0]
        if "/" in command:  # relative to where the match runs, not to the config file
            command = os.path.abspath(command)
        options = ", ".join(
            f"{_toml(name)} = {_toml(value)}" for name, value in spec.options.items()
        )
        tables.append(
            f"[engines.{names[index]}]\n"
            f"command = {_toml(command)}\n"
            f"args = [{', '.join(_toml(arg) for arg in argv[1:])}]\n"
            f"game = {_toml(game)}\n"
            f"options = {{ {options} }}\n"
        )
    return "\n".join(tables)


def _toml(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but DEL must be escaped too)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


class LocalServer:
    """The server of a match's `cmd=` engines (by their index in the match): `start()` says
    how to reach each as a kibitz engine, `close()` ends the server and its engines."""

    def __init__(self, specs: Mapping[int, EngineSpec], game: str, concurrency: int = 1) -> None:
        self.specs = dict(specs)
        self.game = game
        self.concurrency = max(1, concurrency)
        self.names = engine_names(self.specs)
        self.address = ""
        self._process: asyncio.subprocess.Process | None = None
        self._files: tempfile.TemporaryDirectory | None = None

    async def start(self) -> dict[int, EngineSpec]:
        """Start the server; each `cmd=` engine as a kibitz engine on it (by index).
        LocalServerError, naming the engine, when it cannot start."""
        try:
            config = engine_config(self.specs, self.names, self.game)
        except ValueError as exc:
            raise LocalServerError(str(exc)) from None
        self._files = tempfile.TemporaryDirectory(prefix="kibitz-match-")
        folder = Path(self._files.name)
        (folder / "engines.toml").write_text(config)
        sessions = str(4 * self.concurrency * len(self.specs))
        flags = {
            "--host": "127.0.0.1",
            "--port": "0",
            "--config": str(folder / "engines.toml"),
            "--max-sessions": sessions,
            "--max-sessions-per-client": sessions,
            "--max-searches": str(self.concurrency),  # a game searches one move at a time
            "--max-memory": str(2**40),  # the engines' Hash is the user's choice
            "--idle-timeout": "0",
        }
        with (folder / "server.log").open("w") as log:
            self._process = await asyncio.create_subprocess_exec(
                *CHILD,
                *(word for pair in flags.items() for word in pair),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                start_new_session=True,  # Ctrl-C is the runner's: it stops the server itself
            )
        try:
            line = await asyncio.wait_for(self._process.stdout.readline(), START_TIMEOUT)
        except TimeoutError:
            line = b""
        answer = line.decode(errors="replace").strip()
        if not answer.startswith("listening "):
            await self._stop()
            answer = answer or _last_line(folder / "server.log")  # it died: its log says why
            await self.close()
            raise LocalServerError(self._blame(answer.removeprefix("error ")))
        self.address = answer.removeprefix("listening ")
        return {index: self._hosted(index) for index in self.specs}

    def _hosted(self, index: int) -> EngineSpec:
        """The `cmd=` engine `index` as a kibitz engine of this server (its options are the
        engine's defaults there already; no TLS, no token on loopback)."""
        hosted = {"server": self.address, "engine": self.names[index], "cmd": ""}
        return replace(self.specs[index], **hosted, options={}, tls_ca="", token="")

    def _blame(self, message: str) -> str:
        """The server's start-up error as the engine's: `engine NAME: what went wrong`."""
        for index, name in self.names.items():
            where = f"[engines.{name}]: "
            if where in message:
                return f"engine {self.specs[index].name}: {message.split(where, 1)[1]}"
        commands = ", ".join(spec.name for spec in self.specs.values())
        return (
            f"the server for the cmd= engines ({commands}) did not start: {message or 'no answer'}"
        )

    async def close(self) -> None:
        """End the server and its engines."""
        await self._stop()
        if self._files is not None:
            self._files.cleanup()
            self._files = None

    async def _stop(self) -> None:
        """Closing its input stops the server; one that does not stop in time is killed."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
            try:
                await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
            except TimeoutError:
                process.kill()
                await process.wait()


def _last_line(path: Path) -> str:
    with contextlib.suppress(OSError):
        lines = path.read_text(errors="replace").strip().splitlines()
        return lines[-1] if lines else ""
    return ""
