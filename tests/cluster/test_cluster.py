"""`kibitz cluster`: real servers behind Debian's nginx, driven through the front door with
the real client, the CLI, the UCI bridge and the web gateway. A call about a session must
reach the server that holds it (the client's `x-kibitz-session` header, hashed by nginx):
one that lands elsewhere is NOT_FOUND, so every session search below proves the routing."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from gateways import RunningGateway
from servers import KIBITZ, descendants, ended_within

from kibitz.clients import Client, NotFound
from kibitz.server.nginx import find_nginx

if find_nginx() is None:
    pytest.skip(
        "nginx is missing (Debian's nginx; scripts/peers.sh installs it)", allow_module_level=True
    )

SESSIONS = 30
LATER_SESSIONS = 10
HANG_GUARD_S = 60
"""A call that has not answered by then hangs: the test fails instead of waiting forever."""
ROOM = ["--max-sessions", "40", "--max-sessions-per-client", "40", "--spare-workers", "0"]


class ClusterProcess:
    """`kibitz cluster --servers N --port 0 FLAGS`, started at once: `address` (nginx's),
    `servers` (each server's address -> pid), `nginx` (its master's pid) and `directory`
    (where its configuration is)."""

    def __init__(self, servers: int, *flags: str) -> None:
        self.process = subprocess.Popen(
            [*KIBITZ, "cluster", "--servers", str(servers), "--port", "0", *flags],
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        self.servers: dict[str, int] = {}
        for line in self.process.stderr:
            self.log.append(line)
            if found := re.match(r"kibitz cluster: \d+ servers behind nginx on (\S+)", line):
                self.address = found.group(1)
            elif found := re.match(r"  server \d+: (\S+) \(pid (\d+)\)", line):
                self.servers[found.group(1)] = int(found.group(2))
            elif found := re.match(r"  nginx: \S+ \(pid (\d+)\)", line):
                self.nginx = int(found.group(1))
            elif found := re.match(r"  configuration: (.+)/kibitz.conf$", line):
                self.directory = Path(found.group(1))
            elif line.startswith("In another terminal"):
                break
        else:
            raise RuntimeError(f"the cluster did not start: {''.join(self.log)}")

    def stop(self) -> tuple[int, str]:
        """SIGTERM; the exit status and the whole log."""
        self.process.send_signal(signal.SIGTERM)
        _, rest = self.process.communicate(timeout=HANG_GUARD_S)
        return self.process.returncode, "".join(self.log) + rest

    def __enter__(self) -> ClusterProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:  # the test failed half-way
            self.process.kill()
            self.process.communicate(timeout=HANG_GUARD_S)


@pytest.fixture(scope="module")
def cluster() -> Iterator[ClusterProcess]:
    with ClusterProcess(2, *ROOM) as running:
        yield running
        status, log = running.stop()  # not killed: a killed cluster leaves its files behind
    assert status == 0, log


async def guarded(call):
    return await asyncio.wait_for(call, HANG_GUARD_S)


async def searched_twice(session) -> None:
    for _ in range(2):
        assert (await guarded(session.search(moves=["a1"], depth=2))).best_move


def kill(pid: int) -> None:
    """SIGKILL `pid` and wait until it is gone (until then it may still accept a call)."""
    os.kill(pid, signal.SIGKILL)
    assert ended_within(pid, time.monotonic() + HANG_GUARD_S)


def all_ended(pids: list[int]) -> list[int]:
    """Those of `pids` still running a while later (none, when all is well)."""
    deadline = time.monotonic() + HANG_GUARD_S
    return [pid for pid in pids if not ended_within(pid, deadline)]


async def test_sessions_keep_their_server_and_a_dead_server_loses_only_its_own():
    with ClusterProcess(3, *ROOM) as cluster:
        async with Client(cluster.address) as client:
            sessions = [await guarded(client.open("tictactoe")) for _ in range(SESSIONS)]
            await asyncio.gather(*(searched_twice(session) for session in sessions))

            victim = next(iter(cluster.servers))
            async with Client(victim) as direct:
                doomed = {held.id for held in await direct.sessions()}
            assert 0 < len(doomed) < SESSIONS  # the three servers share them
            started = descendants(cluster.process.pid)
            kill(cluster.servers[victim])

            for session in sessions:
                if session.id not in doomed:
                    await searched_twice(session)
                    continue
                with pytest.raises(NotFound) as lost:
                    await guarded(session.search(moves=["a1"], depth=2))
                assert "on this server" in lost.value.message
                assert "server that is gone" in lost.value.message

            later = [await guarded(client.open("tictactoe")) for _ in range(LATER_SESSIONS)]
            await asyncio.gather(*(searched_twice(session) for session in later))

        status, log = cluster.stop()
    assert status == 0, log
    assert f"server 1 ({victim}) exited with status -9" in log
    assert not cluster.directory.exists()  # its temporary configuration went with it
    assert not all_ended(started)
    assert cluster.nginx in started


def test_a_killed_cluster_leaves_no_server_nor_nginx():
    with ClusterProcess(2, *ROOM) as cluster:
        started = descendants(cluster.process.pid)
        assert cluster.nginx in started and set(cluster.servers.values()) <= set(started)
        cluster.process.kill()  # no goodbye: the servers see their input end, nginx its
        cluster.process.wait()  # parent die
    assert not all_ended(started)


async def test_a_reopening_session_whose_server_died_goes_on_elsewhere():
    with ClusterProcess(2, *ROOM) as cluster:
        async with Client(cluster.address) as client:
            victim, survivor = cluster.servers
            sessions = [await guarded(client.open("tictactoe", reopen=True)) for _ in range(16)]
            async with Client(victim) as direct:
                doomed = {held.id for held in await direct.sessions()}
            kill(cluster.servers[victim])
            for session in sessions:
                await searched_twice(session)
            reopened = [session for session in sessions if session.reopened]
            assert len(reopened) == len(doomed) > 0
            async with Client(survivor) as direct:
                held = {session.id for session in await direct.sessions()}
            assert {session.id for session in sessions} <= held
        assert cluster.stop()[0] == 0


def test_the_cli_plays_a_game_through_the_cluster(cluster):
    tries = "\n".join(f"{c}{r}" for r in "123" for c in "abc") * 2 + "\n"
    run = subprocess.run(
        [*KIBITZ, "--server", cluster.address, "play", "tictactoe", "--depth", "3"],
        input=tries,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("engine plays") >= 2 and "game over" in run.stdout


def test_the_uci_bridge_searches_its_session_through_the_cluster(cluster):
    command = [*KIBITZ, "--server", cluster.address, "uci", "--game", "chess"]
    bridge = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    try:
        bridge.stdin.write("uci\n")
        best = []
        for _ in range(3):
            bridge.stdin.write("position startpos moves e2e4\ngo depth 2\n")
            bridge.stdin.flush()
            line = ""
            while not line.startswith("bestmove"):
                line = bridge.stdout.readline()
                assert line, "the bridge ended"
            best.append(line.split()[1])
        bridge.communicate("quit\n", timeout=HANG_GUARD_S)
    finally:
        if bridge.poll() is None:
            bridge.kill()
            bridge.wait()
    assert bridge.returncode == 0
    assert all(re.fullmatch(r"[a-h][1-8][a-h][1-8]", move) for move in best), best


def test_the_web_gateway_searches_its_session_through_the_cluster(cluster):
    gateway = RunningGateway([cluster.address])
    try:
        with httpx.Client(base_url=gateway.url, timeout=HANG_GUARD_S) as http:
            opened = http.post("/api/sessions", json={"game": "connect4"})
            assert opened.status_code == 200, opened.text
            search = f"/api/sessions/{opened.json()['id']}/search"
            for _ in range(3):
                request = {"moves": ["121212"], "limits": {"depth": 3}}
                answer = http.post(search, json=request)
                results = [
                    json.loads(line.removeprefix("data: "))
                    for line in answer.text.splitlines()
                    if line.startswith("data: ") and "bestMove" in line
                ]
                assert results[-1]["bestMove"] == "1"
    finally:
        gateway.stop()


def test_the_operators_nginx_file_in_the_docs_is_what_the_cluster_writes():
    documented = Path(__file__).resolve().parents[2] / "docs" / "scale-out" / "kibitz.conf"
    servers = "10.0.0.11:50051,10.0.0.12:50051,10.0.0.13:50051"
    printed = subprocess.run(
        [*KIBITZ, "cluster", "--host", "0.0.0.0", "--port", "50050", "--print-config", servers],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == documented.read_text()
    assert "hash $kibitz_route consistent;" in printed.stdout
    assert printed.stdout.count("max_fails=1") == 3
