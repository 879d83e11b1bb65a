"""`python -m kibitz.server.child [the flags of kibitz serve]`: a server that belongs to the
process that started it, as `kibitz match` starts one for its `cmd=` engines.

It answers on standard output with one line: `listening HOST:PORT` once it listens, or
`error MESSAGE` when it cannot start (a bad engine config, an engine that does not start, a
busy port), then exits 1. It serves until its standard input ends: when its parent closes
it, or dies, even killed, so that the server and the engines it hosts never outlive their
parent. SIGTERM stops it too. Its log goes to standard error (warnings and worse).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import threading

from kibitz.server.config import ServerConfig, add_flags, config_from

EXIT_ERROR = 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kibitz.server.child",
        description="A kibitz server that serves until its standard input ends.",
    )
    add_flags(parser)
    config = config_from(parser.parse_args(argv))
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return asyncio.run(serve(config))


async def serve(config: ServerConfig) -> int:
    """Start, say where it listens (or why it cannot), serve until stdin ends or SIGTERM."""
    from kibitz.server.app import Server  # after the flags: `--help` needs no gRPC

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    try:
        server = Server(config)
        await server.start()
    except (OSError, ValueError) as exc:
        _answer(f"error {exc}")
        return EXIT_ERROR
    _answer(f"listening {config.host}:{server.port}")
    threading.Thread(
        target=_wait_for_eof, args=(loop, stopping), name="kibitz-child-stdin", daemon=True
    ).start()
    await stopping.wait()
    await server.stop(grace=2)
    return 0


def _answer(line: str) -> None:
    print(" ".join(line.split()), flush=True)  # one line, whatever the message holds


def _wait_for_eof(loop: asyncio.AbstractEventLoop, stopping: asyncio.Event) -> None:
    """Read standard input to its end (the parent closed it or died), then stop."""
    stdin = sys.stdin.buffer
    while stdin.read(4096):
        pass
    with contextlib.suppress(RuntimeError):  # the loop closed: stopped by SIGTERM already
        loop.call_soon_threadsafe(stopping.set)


if __name__ == "__main__":
    sys.exit(main())
