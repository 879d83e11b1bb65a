"""`kibitz cluster`: N kibitz servers on loopback ports and nginx in front of them, in the
foreground, for development, tests and one-box deployments.

Each server is a `python -m kibitz.server.child` (it serves until its standard input ends,
so it never outlives the cluster, even when the cluster is killed); nginx runs from a
directory of its own with the configuration of kibitz/server/nginx.py and dies with the
cluster too (Linux: the parent-death signal). Both are health-checked (`grpc.health.v1`)
before the cluster says where it listens. A server that exits is reported and not
replaced: its sessions are gone, nginx sends their calls to the next server, which answers
NOT_FOUND; new sessions go to the servers that are up. SIGTERM or SIGINT stops everything.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from kibitz.server import nginx

READY_TIMEOUT_S = 30.0
"""How long a server or nginx may take to start serving."""
STOP_TIMEOUT_S = 10.0
PR_SET_PDEATHSIG = 1


class ClusterError(Exception):
    """The cluster could not start; the message says why."""


@dataclass
class Member:
    """A process of the cluster."""

    name: str
    process: subprocess.Popen
    address: str = ""

    def stop(self) -> None:
        """Ask it to stop: a server by closing its standard input, nginx by SIGTERM."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
            return
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()

    def wait(self) -> None:
        try:
            self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@dataclass
class Cluster:
    """Servers started with `serve_flags` (the flags of `kibitz serve`, less --host and
    --port) behind nginx on `host`:`port` (0 = a free port)."""

    servers: int
    host: str
    port: int
    serve_flags: list[str]
    max_search_time: float
    nginx_program: str
    directory: Path
    members: list[Member] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self) -> None:
        """Start the servers, then nginx; ClusterError (everything stopped) if one fails."""
        try:
            backends = [self._start_server(index + 1) for index in range(self.servers)]
            if self.port == 0:
                self.port = _free_port(self.host)
            self._start_nginx([member.address for member in backends])
            for member in self.members:
                _wait_serving(member.address, member.name)
        except BaseException:
            self.stop()
            raise

    def _start_server(self, number: int) -> Member:
        command = [sys.executable, "-m", "kibitz.server.child", "--host", "127.0.0.1"]
        process = subprocess.Popen(
            [*command, "--port", "0", *self.serve_flags],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            start_new_session=True,  # Ctrl-C reaches the cluster alone; it stops them in order
        )
        member = Member(f"server {number}", process)
        self.members.append(member)
        answer = process.stdout.readline().strip()
        if not answer.startswith("listening "):
            raise ClusterError(f"{member.name} did not start: {answer or 'it exited'}")
        member.address = answer.split(" ", 1)[1]
        return member

    def _start_nginx(self, backends: list[str]) -> None:
        (self.directory / "temp").mkdir(parents=True, exist_ok=True)
        site = self.directory / "kibitz.conf"
        site.write_text(nginx.site_config(self.address, backends, self.max_search_time))
        config = self.directory / "nginx.conf"
        config.write_text(nginx.main_config(site.name))
        process = subprocess.Popen(
            [self.nginx_program, "-e", "stderr", "-p", str(self.directory), "-c", str(config)],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # no thread runs yet: see _die_with_parent
        )
        self.members.append(Member("nginx", process, self.address))

    def banner(self) -> str:
        """Where the cluster listens, what it runs, and how to query it."""
        lines = [
            f"kibitz cluster: {self.servers} servers behind nginx on {self.address} (Ctrl-C "
            "stops them all)"
        ]
        lines += [
            f"  {member.name}: {member.address} (pid {member.process.pid})"
            for member in self.members
        ]
        lines += [
            f"  configuration: {self.directory / 'kibitz.conf'}",
            "In another terminal:",
            f"  kibitz --server {self.address} analyse connect4 --moves 4453 --depth 12",
        ]
        return "\n".join(lines)

    def watch(self) -> int:
        """Report members that exit until `stopping` is set or nginx exits; 0, or 1 when
        nginx exited by itself."""
        reported: set[str] = set()
        front = self.members[-1]
        while not self.stopping.wait(0.2):
            for member in self.members:
                code = member.process.poll()
                if code is None or member.name in reported:
                    continue
                reported.add(member.name)
                if member is front:
                    _say(f"nginx exited with status {code}; stopping the servers")
                    return 1
                _say(
                    f"{member.name} ({member.address}) exited with status {code}; its "
                    "sessions are gone, new sessions go to the servers that are up"
                )
        return 0

    def stop(self) -> None:
        """Stop every member (SIGKILL after STOP_TIMEOUT_S) and wait for it."""
        for member in reversed(self.members):
            member.stop()
        for member in self.members:
            member.wait()


def run(cluster: Cluster) -> int:
    """Start `cluster`, say where it listens, serve until SIGTERM or SIGINT."""
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: cluster.stopping.set())
    try:
        cluster.start()
    except ClusterError as exc:
        _say(str(exc))
        return 1
    print(cluster.banner(), file=sys.stderr, flush=True)
    try:
        return cluster.watch()
    finally:
        cluster.stop()


def temporary_directory() -> Path:
    return Path(tempfile.mkdtemp(prefix="kibitz-cluster-"))


def _say(message: str) -> None:
    print(f"kibitz cluster: {message}", file=sys.stderr, flush=True)


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it when the cluster's process dies (Linux). Runs
    between fork and exec, which is safe only while the parent runs no other thread."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _wait_serving(address: str, name: str) -> None:
    """Return once `address` answers the gRPC health check SERVING; ClusterError after
    READY_TIMEOUT_S."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    deadline = time.monotonic() + READY_TIMEOUT_S
    with grpc.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ClusterError(f"{name} on {address} did not answer the health check")
            try:
                answer = health.Check(health_pb2.HealthCheckRequest(), timeout=min(left, 2.0))
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            time.sleep(0.1)  # nginx is still starting: poll again
