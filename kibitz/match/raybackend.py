"""`--backend ray`: every game a Ray task that plays it against the named servers and returns
its record, which streams back into the runner's record and statistics like a local game.

Ray is an optional extra (`pip install 'kibitz[ray]'`); nothing else in kibitz imports it.
A task needs only kibitz on the Ray worker and a route to the engines' servers; see
docs/match.md, "Scale-out with Ray".
"""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

from kibitz.match.engines import EngineLost, MatchError
from kibitz.match.game import GameTask
from kibitz.match.runner import LocalBackend, MatchSettings, MoveListener

TASK_CPUS = 0.25
"""Ray CPUs a game task reserves: it mostly waits for the servers, which do the searching."""


def play_alone(settings: MatchSettings, task: GameTask) -> dict[str, Any]:
    """Play one game in a process of its own (a Ray task); its record."""

    async def play() -> dict[str, Any]:
        backend = LocalBackend(settings)
        try:
            return await backend.play(task)
        finally:
            await backend.close()

    return asyncio.run(play())


def check_alone(settings: MatchSettings) -> str | None:
    """Whether every engine is reachable from a Ray worker: None, or the problem."""

    async def check() -> str | None:
        backend = LocalBackend(settings)
        try:
            await backend.start()
        except MatchError as exc:
            return str(exc)
        finally:
            await backend.close()
        return None

    return asyncio.run(check())


RAY_START_WAIT_VARIABLE = "RAY_gcs_server_port_wait_time_s"
RAY_START_WAIT_S = "120"
CONNECT_TIMEOUT_S = 5.0
"""How long a cluster's address may take to accept a connection before it is refused."""


def ray_address(address: str | None) -> str:
    """What `ray.init` is given for `--ray-address ADDRESS`: without one, `RAY_ADDRESS` where
    set, else a new local instance ("local"; not the last `ray start` that a file in
    /tmp/ray names, which may be long gone: "auto" asks for that one). MatchError for an
    address that is not HOST:PORT or ray://HOST:PORT, or where nothing accepts a connection
    (Ray would try for many minutes)."""
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    if address in ("local", "auto"):
        return address
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise MatchError(
            f"--ray-address {address!r}: expected HOST:PORT, ray://HOST:PORT, auto or local"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise MatchError(f"no Ray cluster answers at {address}: {exc.strerror or exc}") from None
    return address


class RayBackend:
    """Games as Ray tasks on the cluster at `address` (`ray_address`; None: the one this
    process already joined, `RAY_ADDRESS`'s, or a new local instance).

    A local Ray is started by `ray.init()`, which forks its processes and runs Python in the
    child before exec: in a process whose other threads are inside gRPC (a client's
    channels, an embedded server) the child can hang on a lock they held, and Ray waits out
    its start-up timeouts. `kibitz match` starts the backend before it opens a channel;
    other programs should do the same, start Ray themselves first, or give an address."""

    def __init__(self, settings: MatchSettings, address: str | None = None) -> None:
        self.settings = settings
        self.address = address
        self._started_ray = False

    async def start(self) -> None:
        try:
            import ray
        except ImportError:
            raise MatchError(
                "--backend ray needs Ray: pip install 'kibitz[ray]' (or 'ray[default]')"
            ) from None
        if not ray.is_initialized():
            address = ray_address(self.address)
            if address == "local":
                # A local Ray waits 30 s for its control store to start; a busy machine (two
                # cores under a test suite) has taken longer. An operator's setting stands.
                # (Joining a cluster, Ray reads it as its number of tries to connect.)
                os.environ.setdefault(RAY_START_WAIT_VARIABLE, RAY_START_WAIT_S)
            try:
                ray.init(address=address, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise MatchError(f"Ray ({address}): {exc}") from None
            self._started_ray = True
        self._ray = ray
        self._play = ray.remote(num_cpus=TASK_CPUS, max_retries=0)(play_alone)
        self._settings = ray.put(self.settings)
        problem = await ray.remote(num_cpus=TASK_CPUS)(check_alone).remote(self._settings)
        if problem:
            raise MatchError(f"from a Ray worker: {problem}")

    async def play(self, task: GameTask, on_move: MoveListener | None = None) -> dict[str, Any]:
        """Play `task` as a Ray task (its moves are not heard before it ends: `on_move` is
        not called)."""
        ref = self._play.remote(self._settings, task)
        try:
            record = await ref
        except asyncio.CancelledError:
            self._ray.cancel(ref, force=True)
            raise
        except EngineLost as exc:  # a RayTaskError that is one too: its cause's message only
            raise EngineLost(str(getattr(exc, "cause", exc))) from None
        return {**record, "backend": "ray"}

    async def close(self) -> None:
        if self._started_ray:
            self._ray.shutdown()
