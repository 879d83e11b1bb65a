"""`kibitz web`'s gateway in a thread of the test process, for the web tests."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

from kibitz.web.gateway import bind, create_app, web_server


class RunningGateway:
    """`kibitz web` for `addresses` on a free loopback port (`url`), served by uvicorn on a
    thread of its own until `stop()`. The socket listens before the thread starts, so the
    gateway is reachable at once. `allowed_hosts`: its `--allow-host` names."""

    def __init__(
        self, addresses: list[str], allowed_hosts: Sequence[str] = (), **credentials: str | None
    ) -> None:
        self.app = create_app(addresses, allowed_hosts=allowed_hosts, **credentials)
        sock = bind("127.0.0.1", 0)
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = web_server(self.app)
        self.thread = threading.Thread(
            target=lambda: asyncio.run(self.server.serve(sockets=[sock])), daemon=True
        )
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
