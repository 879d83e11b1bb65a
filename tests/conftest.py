"""Shared fixtures: a real kibitz server on a free loopback port, run in a background thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from kibitz.server.app import Server
from kibitz.server.service import ServerConfig

TEST_CONFIG = ServerConfig(
    host="127.0.0.1", port=0, max_sessions=8, max_searches=4, idle_timeout=0, info_interval=0.05
)


class ServerThread:
    """A started Server on its own event loop, so tests can reach into it (worker pids)."""

    def __init__(self, config: ServerConfig) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.server = self.run(self._start(config))

    async def _start(self, config: ServerConfig) -> Server:
        server = Server(config)
        await server.start()
        return server

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server.port}"

    def stop(self) -> None:
        self.run(self.server.stop(grace=2))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()


@pytest.fixture(scope="session")
def server() -> Iterator[ServerThread]:
    running = ServerThread(TEST_CONFIG)
    yield running
    running.stop()


@pytest.fixture
def make_server():
    """Start servers with custom limits; they are stopped after the test."""
    started: list[ServerThread] = []

    def start(**changes) -> ServerThread:
        running = ServerThread(replace(TEST_CONFIG, **changes))
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
