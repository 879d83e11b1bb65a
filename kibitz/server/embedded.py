"""A kibitz server running in a background thread of the current process.

For tests, benchmarks and notebooks: `BackgroundServer(ServerConfig(port=0)).address`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from kibitz.server.app import Server
from kibitz.server.config import ServerConfig

T = TypeVar("T")


class BackgroundServer:
    """A started Server on its own event loop thread; `stop()` shuts it down gracefully."""

    def __init__(self, config: ServerConfig) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.server = self.run(self._start(config))

    @staticmethod
    async def _start(config: ServerConfig) -> Server:
        server = Server(config)
        await server.start()
        return server

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run a coroutine on the server's loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    @property
    def address(self) -> str:
        return f"{self.server.config.host}:{self.server.port}"

    def stop(self) -> None:
        self.run(self.server.stop(grace=2))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        self.loop.close()
