"""Run the gRPC server: the engine service plus health checking and reflection."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import signal
from collections.abc import Callable
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from kibitz.engines import (
    EngineDefinition,
    load_engine_config,
    load_plugins,
    register_engines,
)
from kibitz.server import reflection
from kibitz.server.auth import TokenInterceptor, Tokens
from kibitz.server.config import ServerConfig
from kibitz.server.service import EngineService
from kibitz.v1 import engine_pb2 as pb
from kibitz.v1 import engine_pb2_grpc as pb_grpc

log = logging.getLogger("kibitz.server")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["EngineService"].full_name


class Server:
    """A started kibitz server; `port` is the bound port (useful with port 0).

    Raises ValueError for unreadable TLS or token files and for a bad engine config (which
    includes an engine that does not start).
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        tokens = Tokens.load(config.auth_tokens) if config.auth_tokens else None
        self._credentials = _tls_credentials(config)
        self.engines = _configured_engines(config)
        self.service = EngineService(config, tokens, self.engines)
        self.health = health.aio.HealthServicer()
        self._grpc = grpc.aio.server(
            interceptors=[TokenInterceptor(tokens)] if tokens else [],
            # no SO_REUSEPORT: a second server on a busy port must fail, not share it
            options=[("grpc.so_reuseport", 0)],
        )
        self._housekeeping: list[asyncio.Task] = []
        self.port = 0

    async def start(self) -> None:
        for problem in load_plugins():
            log.warning("%s", problem)
        pb_grpc.add_EngineServiceServicer_to_server(self.service, self._grpc)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self._grpc)
        reflection.enable((SERVICE_NAME, health.SERVICE_NAME), self._grpc)
        address = f"{self.config.host}:{self.config.port}"
        try:
            if self._credentials is None:
                self.port = self._grpc.add_insecure_port(address)
            else:
                self.port = self._grpc.add_secure_port(address, self._credentials)
        except RuntimeError as exc:  # grpc reports a bad or busy address this way
            raise OSError(f"cannot listen on {address} (bad address, or port in use)") from exc
        if self.port == 0:
            raise OSError(f"cannot listen on {address}")
        await self._grpc.start()
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        self._housekeeping = await self.service.start()

    async def stop(self, grace: float = 5.0) -> None:
        """Graceful shutdown: refuse new calls, stop searches so their streams get a Result."""
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.service.stop_all_searches()
        for task in self._housekeeping:
            task.cancel()
        await self._grpc.stop(grace)
        await self.service.close()

    async def wait(self) -> None:
        await self._grpc.wait_for_termination()


def _configured_engines(config: ServerConfig) -> tuple[EngineDefinition, ...]:
    """The engines of `--config`, started once each and registered (here; the workers
    register them from the same definitions)."""
    if not config.engine_config:
        return ()
    load_plugins()  # their engines' names are taken
    definitions = load_engine_config(config.engine_config)
    register_engines(definitions)
    for definition in definitions:
        log.info(
            "engine %s: %s (%s), game %s, %d options",
            definition.name,
            definition.description,
            definition.argv[0],
            definition.game,
            len(definition.option_specs),
        )
    return definitions


def _tls_credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    """TLS credentials from the certificate and key files, if both are given."""
    if not config.tls_cert and not config.tls_key:
        return None
    if not (config.tls_cert and config.tls_key):
        raise ValueError("TLS needs both --tls-cert and --tls-key")
    try:
        chain = Path(config.tls_cert).read_bytes()
        key = Path(config.tls_key).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {exc.filename}: {exc.strerror}") from None
    for path, text, what in ((config.tls_cert, chain, "CERTIFICATE"), (config.tls_key, key, "KEY")):
        if b"-----BEGIN" not in text or what.encode() not in text:
            raise ValueError(f"{path} holds no PEM {what.lower()}")
    return grpc.ssl_server_credentials([(key, chain)])


def exposure_warning(config: ServerConfig) -> str:
    """A warning when a server others can reach lacks TLS or tokens ("" otherwise)."""
    if _is_loopback(config.host):
        return ""
    missing = [
        what
        for what, present in (
            ("TLS (--tls-cert/--tls-key)", config.tls_cert),
            ("tokens (--auth-tokens)", config.auth_tokens),
        )
        if not present
    ]
    if not missing:
        return ""
    return (
        f"serving on {config.host} without {' or '.join(missing)}: whoever can reach this "
        "address can use every session and read all traffic; see docs/production.md"
    )


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def serve(
    config: ServerConfig, on_listening: Callable[[str, int], None] | None = None
) -> None:
    """Run until SIGINT or SIGTERM, then shut down gracefully; `on_listening(host, port)`
    is called once the server listens (with the bound port, which --port 0 leaves open)."""
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):  # before anyone can learn our port
        loop.add_signal_handler(sig, stopping.set)
    server = Server(config)
    await server.start()
    warning = exposure_warning(config)
    if warning:
        log.warning("%s", warning)
    log.info(
        "kibitz serving on %s:%d (max %d sessions, %d concurrent searches)",
        config.host,
        server.port,
        config.max_sessions,
        config.max_searches,
    )
    if on_listening is not None:
        on_listening(config.host, server.port)
    await stopping.wait()
    log.info("shutting down: stopping running searches")
    with contextlib.suppress(asyncio.CancelledError):
        await server.stop()
    log.info("bye")
