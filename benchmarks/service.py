"""Round-trip time of a tiny Analyze call over loopback, next to a call with no search.

A real server runs in this process (its own event loop thread, worker processes as in
production); the client is the real async client. `ListGames` never touches a worker, so the
ratio Analyze/ListGames shows what the worker hop (pipe, pickling, engine set-up) costs.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from kibitz.clients import Client
from kibitz.server.embedded import BackgroundServer
from kibitz.server.service import ServerConfig


async def _timed(call, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await call()
        times.append(time.perf_counter() - start)
    return times


async def _measure(address: str, count: int) -> dict[str, list[float]]:
    async with Client(address) as client:
        await client.analyze("tictactoe", depth=1)  # warm up: spawns the spare worker
        return {
            "ListGames (no worker)": await _timed(client.games, count),
            "Analyze tictactoe depth 1": await _timed(
                lambda: client.analyze("tictactoe", depth=1), count
            ),
            "Analyze connect4 depth 1": await _timed(
                lambda: client.analyze("connect4", depth=1), count
            ),
        }


def run(count: int = 200) -> None:
    server = BackgroundServer(ServerConfig(port=0, idle_timeout=0))
    try:
        results = asyncio.run(_measure(server.address, count))
    finally:
        server.stop()
    base = statistics.median(results["ListGames (no worker)"])
    print(f"\nService round trips over loopback ({count} calls each)")
    print(f"{'call':<28} {'median ms':>10} {'p90 ms':>8} {'x ListGames':>12}")
    for name, times in results.items():
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        print(f"{name:<28} {median * 1000:>10.2f} {p90 * 1000:>8.2f} {median / base:>12.1f}")


if __name__ == "__main__":
    run()
