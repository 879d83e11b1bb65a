"""Engine handles: a kibitz session on a server (through the async client,
kibitz/clients/client.py), or a local UCI command for chess (python-chess's chess.engine).

Sessions are pooled per engine: a game takes one (NewGame clears its tables when it is
reused), gives it back when the game ends, and a session whose engine failed (a hang, a
crash, a lost connection) is closed instead. A server's RESOURCE_EXHAUSTED (no session or
search slot free) is waited out with exponential backoff, never a failure; while waiting for a
session the pool closes idle sessions of other engines on the same server to make room.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import shlex
import time
from collections.abc import Callable, Sequence
from typing import Any

from kibitz.clients.client import (
    Client,
    DeadlineExceeded,
    KibitzError,
    NotFound,
    ResourceExhausted,
    ServerUnavailable,
    Session,
)
from kibitz.clients.values import Limits, Result, Score
from kibitz.match.game import Answer, MoveFailure
from kibitz.match.spec import EngineSpec
from kibitz.vocabulary import ScoreKind, StopReason

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
    """One engine session on a kibitz server."""

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
        reopened = False
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
            except NotFound as exc:  # the session expired (idle timeout) mid-game: reopen once
                if reopened:
                    self.healthy = False
                    raise MoveFailure("engine error", exc.message) from None
                reopened = True
                game = self.session.info.game
                self.session = await self.client.open(game, self.spec.engine, self.spec.options)
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
    """Sessions of every kibitz engine of a match, reused from game to game."""

    def __init__(
        self, specs: Sequence[EngineSpec], game: str, on_wait: WaitHook | None = None
    ) -> None:
        self.specs = specs
        self.game = game
        self.on_wait = on_wait or (lambda name, message: None)
        self.waits = 0
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

    async def check(self) -> None:
        """Open one session of every engine (then kept for the first games) and start every
        local UCI command once: an unknown game, engine or option, a server that does not
        answer, or a command that does not start, is a MatchError now rather than a forfeit
        in every game."""
        for index, spec in enumerate(self.specs):
            if spec.cmd:
                await _check_command(spec)
                continue
            try:
                player = await self._open(index, spec)
            except (ServerUnavailable, KibitzError) as exc:
                raise MatchError(f"engine {spec.name} ({spec.server}): {exc.message}") from None
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
                session = await client.open(self.game, spec.engine, spec.options)
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

    async def acquire(self, indices: Sequence[int]) -> list[Any]:
        """Players for the engines `indices` (in that order), waiting for room as needed;
        one at a time, so that two games never each hold half of what they need. EngineLost
        when an engine cannot be had (the game is not started)."""
        async with self._lock:
            players: list[Any] = []
            try:
                for index in indices:
                    players.append(await self._player(index, self.specs[index]))
            except BaseException:
                for player in players:
                    await self.release(player)
                raise
            return players

    async def _player(self, index: int, spec: EngineSpec) -> Any:
        """A player for one engine of a game about to start; EngineLost if there is none."""
        if spec.cmd:
            player = UciPlayer(spec)
            try:
                await player.start()
            except MoveFailure as exc:
                raise EngineLost(f"engine {spec.name}: {exc.detail}") from None
            return player
        try:
            return await self._open(index, spec)
        except KibitzError as exc:  # ServerUnavailable too: the server is gone
            raise EngineLost(f"engine {spec.name} ({spec.server}): {exc.message}") from None

    async def release(self, player: Any) -> None:
        """Give a player back after a game. A failed one is closed in the background: a
        server may take a while to close a session whose engine hangs."""
        if isinstance(player, KibitzPlayer) and player.healthy:
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


# ---------------------------------------------------------------------------- UCI (chess)

UCI_NOTATION = "fen"
"""The position notation (`Game.notation`) of the games a local UCI engine plays."""


async def _check_command(spec: EngineSpec) -> None:
    """Start a local UCI engine, set its options, and quit it; MatchError if that fails."""
    player = UciPlayer(spec)
    try:
        await player.start()
    except MoveFailure as exc:
        raise MatchError(f"engine {spec.name}: {exc.detail}") from None
    finally:
        await player.close()


class UciPlayer:
    """A local UCI engine (`cmd=...`), chess only, driven by python-chess's chess.engine;
    started for each game."""

    def __init__(self, spec: EngineSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.engine: Any = None
        self.healthy = True

    async def start(self) -> None:
        import chess.engine

        try:
            _, self.engine = await chess.engine.popen_uci(shlex.split(self.spec.cmd))
            if self.spec.options:
                await self.engine.configure(dict(self.spec.options))
        except (OSError, chess.engine.EngineError) as exc:
            raise MoveFailure("engine error", f"cannot start {self.spec.cmd!r}: {exc}") from None

    async def think(
        self, position: str, moves: Sequence[str], limits: Limits, timeout: float | None
    ) -> Answer:
        import chess
        import chess.engine

        board = chess.Board(position if position not in ("", "startpos") else chess.STARTING_FEN)
        for move in moves:
            board.push_uci(move)
        clock: dict[str, Any] = {}
        if limits.time_left:
            clock = {
                "white_clock": limits.time_left[0],
                "black_clock": limits.time_left[1],
                "white_inc": limits.increment[0],
                "black_inc": limits.increment[1],
                "remaining_moves": limits.moves_to_go or None,
            }
        limit = chess.engine.Limit(
            time=limits.movetime, depth=limits.depth, nodes=limits.nodes, **clock
        )
        started = time.monotonic()
        try:
            played = await asyncio.wait_for(
                self.engine.play(board, limit, info=chess.engine.INFO_SCORE), timeout
            )
        except TimeoutError:
            self.healthy = False
            raise MoveFailure("no answer", f"no move within {timeout:.3f} s") from None
        except chess.engine.EngineTerminatedError as exc:
            self.healthy = False
            raise MoveFailure("disconnect", f"the engine exited: {exc}") from None
        except chess.engine.EngineError as exc:
            self.healthy = False
            raise MoveFailure("engine error", str(exc)) from None
        wall = time.monotonic() - started
        info = played.info
        score = Score()
        if "score" in info:
            relative = info["score"].relative
            mate = relative.mate()
            if mate is not None:
                kind = ScoreKind.WIN if mate > 0 else ScoreKind.LOSS
                score = Score(kind=kind, plies=abs(mate) * 2 - (mate > 0))
            else:
                score = Score(centi=relative.score())
        player = 0 if board.turn else 1
        result = Result(
            best_move=played.move.uci() if played.move else None,
            score=dataclasses.replace(score, player=player),
            depth=info.get("depth", 0),
            nodes=info.get("nodes", 0),
            time=info.get("time", 0.0),
            stop_reason=StopReason.TIME if limits.movetime or limits.time_left else None,
        )
        return Answer(result, wall)

    async def close(self) -> None:
        if self.engine is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.engine.quit(), 5)
