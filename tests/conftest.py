"""Shared fixtures: real kibitz servers on free loopback ports, run in background threads."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from kibitz.server.embedded import BackgroundServer
from kibitz.server.service import ServerConfig

TEST_CONFIG = ServerConfig(
    host="127.0.0.1", port=0, max_sessions=8, max_searches=4, idle_timeout=0, info_interval=0.05
)


@pytest.fixture(scope="session")
def server() -> Iterator[BackgroundServer]:
    running = BackgroundServer(TEST_CONFIG)
    yield running
    running.stop()


@pytest.fixture
def make_server():
    """Start servers with custom limits; they are stopped after the test."""
    started: list[BackgroundServer] = []

    def start(**changes) -> BackgroundServer:
        running = BackgroundServer(replace(TEST_CONFIG, **changes))
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
