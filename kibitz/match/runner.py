"""The match: its settings, the games it plays `concurrency` at a time on a backend (local
asyncio, or Ray tasks: kibitz/match/raybackend.py), the record it writes as it goes, and the
summary (docs/match.md).

    settings = MatchSettings(game="connect4", engines=(a, b), rules=rules, tasks=tasks)
    summary = await Match(settings, out="runs/c4").run()
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kibitz.match.engines import EngineLost, SessionPool
from kibitz.match.game import FAILURES, GameTask, Rules, play_game
from kibitz.match.record import Record
from kibitz.match.schedule import encounters
from kibitz.match.seats import SeatTally
from kibitz.match.spec import EngineSpec, SprtSpec
from kibitz.match.tally import Tally

MAX_REPLAYS = 3
"""With --replay-failed, how often a failed game is replayed before its forfeit counts."""


@dataclass(frozen=True)
class MatchSettings:
    """Everything that decides what a match plays and how it is judged."""

    game: str
    engines: Sequence[EngineSpec]
    rules: Rules
    tasks: Sequence[GameTask]
    tournament: str = "round-robin"
    concurrency: int = 1
    sprt: SprtSpec | None = None
    replay_failed: bool = False
    seats: int = 2
    """Players of the game: 2, or N > 2 for a match of N seats (as many engines, each game
    played by all of them; `tasks` from `schedule.build_seated`)."""
    seating: str = "rotations"
    """With N seats: the seatings of a rotation set (`seats.seatings`)."""

    @property
    def names(self) -> list[str]:
        return [spec.name for spec in self.engines]

    def identity(self) -> dict[str, Any]:
        """What must match for `--resume` to continue a record: the game, the engines, the
        rules and the schedule (a digest of every game's task)."""
        tasks = json.dumps([task.to_json() for task in self.tasks], sort_keys=True)
        identity = {
            "game": self.game,
            "engines": [spec.to_json() for spec in self.engines],
            "rules": self.rules.to_json(),
            "tournament": self.tournament,
            "games": len(self.tasks),
            "schedule": hashlib.sha256(tasks.encode()).hexdigest()[:16],
        }
        if self.seats > 2:
            identity.update(seats=self.seats, seating=self.seating)
        return identity


MoveListener = Callable[[list[str]], None]
"""Hears a game's moves so far after each move."""


class Backend(Protocol):
    """Where games are played (kibitz/match/runner.py's LocalBackend, or Ray)."""

    async def start(self) -> None:
        """Check that every engine can be reached (MatchError otherwise)."""

    async def play(self, task: GameTask, on_move: MoveListener | None = None) -> dict[str, Any]:
        """Play one game; its record. `on_move` hears its moves as they are played, where
        the backend can tell (the local one)."""

    async def close(self) -> None: ...


class LocalBackend:
    """Games played by this process, on sessions pooled across games."""

    def __init__(self, settings: MatchSettings, on_wait: Callable[[str, str], None] | None = None):
        self.settings = settings
        self.pool = SessionPool(settings.engines, settings.game, on_wait, settings.concurrency)

    async def start(self) -> None:
        await self.pool.check()

    async def play(self, task: GameTask, on_move: MoveListener | None = None) -> dict[str, Any]:
        players = await self.pool.acquire(task.players)
        try:
            names = [self.settings.engines[index].name for index in task.players]
            record = await play_game(task, self.settings.rules, players, names, on_move)
            return {**record, "backend": "local"}
        except BaseException:  # stopped mid-game: its sessions may still be searching
            for player in players:
                player.healthy = False
            raise
        finally:
            for player in players:
                await self.pool.release(player)

    async def close(self) -> None:
        await self.pool.close()


Listener = Callable[[dict[str, Any], Tally | SeatTally], None]
"""Called after every finished game with its record and the tally so far."""


class Match:
    """One run of a match; `run()` plays what the record (if any) does not hold yet."""

    def __init__(
        self,
        settings: MatchSettings,
        *,
        out: str | Path | None = None,
        resume: bool = False,
        backend: Backend | None = None,
        listener: Listener | None = None,
    ) -> None:
        self.settings = settings
        self.backend = backend or LocalBackend(settings)
        self.listener = listener or (lambda record, tally: None)
        self.move_listener: Callable[[GameTask, list[str]], None] | None = None
        """Called after every move of a game played here (not on Ray), with the game's
        moves so far, once the record's `running.json` has them."""
        self.tally: Tally | SeatTally = (
            SeatTally(settings.names)
            if settings.seats > 2
            else Tally(settings.names, encounters(len(settings.engines), settings.tournament))
        )
        header = {"type": "match", "match": settings.identity()}
        self.record = Record(out, header, resume=resume) if out else None
        self.stopped: str | None = None
        """Why the match ended early ("interrupted", "SPRT: H1 accepted", an engine that
        was lost: "engine b (HOST:PORT): ..."), else None."""
        self.lost: str | None = None
        """Why an engine could not be had for a game (EngineLost), which stopped the match."""
        self._replays: dict[int, int] = {}
        self._pending: deque[GameTask] = deque()
        self._workers: list[asyncio.Task] = []

    @property
    def total(self) -> int:
        return len(self.settings.tasks)

    async def run(self) -> dict[str, Any]:
        """Play the match (or its rest) and return the summary."""
        done = set()
        for game in self.record.games if self.record else ():
            if game.get("counted", True):
                done.add(game["id"])
                self.tally.add(game)
            else:
                self._replays[game["id"]] = self._replays.get(game["id"], 0) + 1
        self._pending.extend(task for task in self.settings.tasks if task.id not in done)
        await self.backend.start()
        try:
            self._check_sprt()
            workers = min(self.settings.concurrency, len(self._pending))
            self._workers = [asyncio.create_task(self._work()) for _ in range(workers)]
            results = await asyncio.gather(*self._workers, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException) and not isinstance(
                    result, asyncio.CancelledError
                ):
                    raise result
        finally:  # whatever ended it, the summary of the games played is written
            await self.backend.close()
            summary = self.summary()
            if self.record:
                self.record.finish(summary)
        return summary

    def stop(self, reason: str = "interrupted") -> None:
        """End the match now: games in progress are abandoned (not recorded)."""
        self.stopped = self.stopped or reason
        self._pending.clear()
        for worker in self._workers:
            worker.cancel()

    async def _work(self) -> None:
        while self._pending and not self.stopped:
            task = self._pending.popleft()
            try:
                record = await self.backend.play(task, self._watcher(task))
            except EngineLost as exc:  # the game did not start: `--resume` plays it
                self.lost = self.lost or str(exc)
                self.stop(str(exc))
                return
            replays = self._replays.get(task.id, 0)
            replay = (
                self.settings.replay_failed
                and record["failure"] in FAILURES
                and replays < MAX_REPLAYS
            )
            record["counted"] = not replay
            record["options"] = [self.settings.engines[i].options for i in task.players]
            if self.record:
                self.record.add(record)
            if replay:
                self._replays[task.id] = replays + 1
                self._pending.appendleft(task)
                continue
            self.tally.add(record)
            self.listener(record, self.tally)
            self._check_sprt()

    def _watcher(self, task: GameTask) -> MoveListener | None:
        """What hears a running game's moves: the record (`running.json`), then
        `move_listener`."""
        record, hear = self.record, self.move_listener
        if record is None and hear is None:
            return None
        engines = [self.settings.engines[index].name for index in task.players]

        def moved(moves: list[str]) -> None:
            if record is not None:
                record.playing(task.to_json(), engines, moves)
            if hear is not None:
                hear(task, moves)

        return moved

    def _check_sprt(self) -> None:
        sprt = self.settings.sprt
        if sprt is None or len(self.settings.engines) != 2:
            return
        value = self.tally.llr(sprt)
        if value is not None and value >= sprt.upper:
            self.stop("SPRT: H1 accepted")
        elif value is not None and value <= sprt.lower:
            self.stop("SPRT: H0 accepted")

    def summary(self) -> dict[str, Any]:
        """The summary so far: the head-to-head numbers for two engines, a table always
        (with N seats: points, ranks and win rates per engine)."""
        summary: dict[str, Any] = {"game": self.settings.game, "planned": self.total}
        if self.settings.seats > 2:
            summary["seats"] = self.settings.seats
            summary["seating"] = self.settings.seating
            summary["games"] = self.tally.games
        elif len(self.settings.engines) == 2:
            summary.update(self.tally.head_to_head(self.settings.sprt))
        else:
            summary["tournament"] = self.settings.tournament
            summary["games"] = self.tally.games
        summary["table"] = self.tally.table()
        summary["stopped"] = self.stopped
        summary["complete"] = self.stopped is None and self.tally.games == self.total
        return summary
