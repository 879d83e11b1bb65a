"""Engine handles: a kibitz session on a server, through the async client
(kibitz/clients/client.py). A local UCI command (`cmd=`) is one too: a kibitz engine of the
server that the pool starts for the match's commands (kibitz/match/local.py).

Sessions are pooled per engine: a game takes one (NewGame clears its tables when it is
reused), gives it back when the game ends, and a session whose engine failed (a hang, a
crash, a lost connection) is closed instead. A server's RESOURCE_EXHAUSTED (no session or
search slot free) is waited out with exponential backoff, never a failure; while waiting for a
session the pool closes idle sessions of other engines on the same server to make room.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Sequence

from kibitz.clients.client import (
    Client,
    DeadlineExceeded,
    KibitzError,
    ResourceExhausted,
    ServerUnavailable,
    Session,
)
from kibitz.clients.values import Limits, Result
from kibitz.match.game import Answer, MoveFailure
from kibitz.match.local import LocalServer, LocalServerError
from kibitz.match.spec import EngineSpec

BACKOFF_FIRST = 0.05
BACKOFF_MAX = 2.0


class MatchError(Exception):
    """A match that cannot run as specified (unknown game or engine, bad option, no server)."""


class EngineLost(MatchError):
    """An engine that cannot be had for the next game mid-match (its server died or refuses
    its session, its command no longer starts): the match stops, and `--resume` goes on."""


class Backoff:
    """Exponential backoff with jitter: 50 ms, doubling up to 2 s."""

    def __init__(self) -> None:
        self.delay = BACKOFF_FIRST

    async def wait(self) -> None:
        await asyncio.sleep(self.delay * (0.5 + random.random() / 2))
        self.delay = min(self.delay * 2, BACKOFF_MAX)


WaitHook = Callable[[str, str], None]
"""Called with (engine name, the server's message) each time the runner waits for room."""


class KibitzPlayer:
    """One engine session on a kibitz server; one the server closed (its idle timeout)
    opens itself again (`Client.open(..., reopen=True)`)."""

    def __init__(
        self, index: int, spec: EngineSpec, client: Client, session: Session, on_wait: WaitHook
    ) -> None:
        self.index = index
        self.spec = spec
        self.name = spec.name
        self.client = client
        self.session = session
        self.healthy = True
        self._on_wait = on_wait

    async def think(
        self, position: str, moves: Sequence[str], limits: Limits, timeout: float | None
    ) -> Answer:
        backoff = Backoff()
        while True:
            started = time.monotonic()
            stream = self.session.search(position, moves, limits)

            async def run(stream=stream) -> Result:
                return await stream

            try:
                result = await asyncio.wait_for(run(), timeout)
            except TimeoutError:
                self.healthy = False
                raise MoveFailure("no answer", f"no move within {timeout:.3f} s") from None
            except ResourceExhausted as exc:  # the server's search queue is full: wait
                self._on_wait(self.name, exc.message)
                await backoff.wait()
                continue
            except ServerUnavailable as exc:
                self.healthy = False
                raise MoveFailure("disconnect", exc.message) from None
            except DeadlineExceeded as exc:
                self.healthy = False
                raise MoveFailure("no answer", exc.message) from None
            except KibitzError as exc:
                self.healthy = False
                raise MoveFailure("engine error", f"{exc.code.name}: {exc.message}") from None
            return Answer(result, time.monotonic() - started)

    async def close(self) -> None:
        with contextlib.suppress(KibitzError):
            await self.session.close()


class SessionPool:
    """Sessions of every engine of a match, reused from game to game; the `cmd=` engines'
    on a server of their own, started with the first need (`check`, or the first game)."""

    def __init__(
        self,
        specs: Sequence[EngineSpec],
        game: str,
        on_wait: WaitHook | None = None,
        concurrency: int = 1,
    ) -> None:
        self.specs = list(specs)
        """How each engine is reached: a `cmd=` engine's spec is replaced by its kibitz
        engine's on the local server once that runs."""
        self.game = game
        self.on_wait = on_wait or (lambda name, message: None)
        self.waits = 0
        self._commands = {i: spec for i, spec in enumerate(specs) if spec.cmd}
        self._local = LocalServer(self._commands, game, concurrency) if self._commands else None
        self._started = False
        self._clients: dict[tuple[str, str | None, str | None], Client] = {}
        self._idle: dict[int, list[KibitzPlayer]] = {i: [] for i in range(len(specs))}
        self._lock = asyncio.Lock()
        self._closing: set[asyncio.Task] = set()

    def _wait_hook(self, name: str, message: str) -> None:
        self.waits += 1
        self.on_wait(name, message)

    def client(self, spec: EngineSpec) -> Client:
        key = (spec.server, spec.tls_ca, spec.token)
        if key not in self._clients:
            try:
                self._clients[key] = Client(spec.server, tls_ca=spec.tls_ca, token=spec.token)
            except ValueError as exc:
                raise MatchError(f"engine {spec.name}: {exc}") from None
        return self._clients[key]

    def where(self, index: int) -> str:
        """How messages name an engine's home: its server, or its command."""
        command = self._commands.get(index)
        return command.cmd if command is not None else self.specs[index].server

    async def _start_local(self) -> None:
        """Start the server of the `cmd=` engines, if there are any and it is not running;
        MatchError naming the engine that keeps it from starting."""
        if self._local is None or self._started:
            return
        try:
            hosted = await self._local.start()
        except LocalServerError as exc:
            raise MatchError(str(exc)) from None
        self._started = True
        for index, spec in hosted.items():
            self.specs[index] = spec

    async def check(self) -> None:
        """Start the `cmd=` engines' server (which starts each command once) and open one
        session of every engine (then kept for the first games): an unknown game, engine or
        option, a server that does not answer, or a command that does not start, is a
        MatchError now rather than a forfeit in every game."""
        await self._start_local()
        for index, spec in enumerate(self.specs):
            try:
                player = await self._open(index, spec)
            except (ServerUnavailable, KibitzError) as exc:
                raise MatchError(
                    f"engine {spec.name} ({self.where(index)}): {exc.message}"
                ) from None
            self._idle[index].append(player)

    async def _open(self, index: int, spec: EngineSpec) -> KibitzPlayer:
        backoff = Backoff()
        while True:
            if self._idle[index]:
                player = self._idle[index].pop()
                try:
                    await player.session.new_game()
                except KibitzError:
                    await player.close()
                    continue
                player.healthy = True
                return player
            try:
                client = self.client(spec)
                session = await client.open(self.game, spec.engine, spec.options, reopen=True)
                return KibitzPlayer(index, spec, client, session, self._wait_hook)
            except ResourceExhausted as exc:
                self._wait_hook(spec.name, exc.message)
                victim = self._idle_elsewhere(index, spec)
                if victim is not None:
                    await victim.close()
                    continue
                await backoff.wait()

    def _idle_elsewhere(self, index: int, spec: EngineSpec) -> KibitzPlayer | None:
        for other, idle in self._idle.items():
            if other != index and idle and self.specs[other].server == spec.server:
                return idle.pop()
        return None

    async def acquire(self, indices: Sequence[int]) -> list[KibitzPlayer]:
        """Players for the engines `indices` (in that order), waiting for room as needed;
        one at a time, so that two games never each hold half of what they need. EngineLost
        when an engine cannot be had (the game is not started)."""
        async with self._lock:
            try:
                await self._start_local()
            except MatchError as exc:
                raise EngineLost(str(exc)) from None
            players: list[KibitzPlayer] = []
            try:
                for index in indices:
                    players.append(await self._player(index, self.specs[index]))
            except BaseException:
                for player in players:
                    await self.release(player)
                raise
            return players

    async def _player(self, index: int, spec: EngineSpec) -> KibitzPlayer:
        """A player for one engine of a game about to start; EngineLost if there is none."""
        try:
            return await self._open(index, spec)
        except KibitzError as exc:  # ServerUnavailable too: the server is gone
            raise EngineLost(f"engine {spec.name} ({self.where(index)}): {exc.message}") from None

    async def release(self, player: KibitzPlayer) -> None:
        """Give a player back after a game. A failed one is closed in the background: a
        server may take a while to close a session whose engine hangs."""
        if player.healthy:
            self._idle[player.index].append(player)
        else:
            closing = asyncio.create_task(player.close())
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    async def close(self) -> None:
        for idle in self._idle.values():
            while idle:
                await idle.pop().close()
        await asyncio.gather(*self._closing)
        for client in self._clients.values():
            await client.close()
        if self._local is not None:
            await self._local.close()


UCI_NOTATION = "fen"
"""The position notation (`Game.notation`) of the games a local UCI engine (`cmd=`) plays."""
