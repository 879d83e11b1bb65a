"""Worker processes run as batch jobs (SCHED_BATCH: they do not preempt the server on
waking) and, with `--worker-nice N`, N steps nicer than the server (real server, real
client); they search as before."""

from __future__ import annotations

import os

import pytest

from kibitz.clients import Client, ScoreKind


def _nice(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid)


def _yields(pid: int, nice: int) -> bool:
    """Whether process `pid` runs as a batch job `nice` steps nicer than this one."""
    batch = os.sched_getscheduler(pid) == os.SCHED_BATCH
    return batch and _nice(pid) == min(19, _nice(0) + nice)


@pytest.mark.parametrize("nice", [0, 3])
async def test_a_sessions_worker_runs_as_much_nicer_as_asked(make_server, nice):
    server = make_server(worker_nice=nice)
    async with Client(server.address) as client, await client.open("tictactoe") as session:
        result = await session.search(depth=9)
        assert result.best_move is not None and result.score.kind == ScoreKind.DRAW
        service = server.server.service
        worker = service.sessions.get(session.id, session.info.owner).worker
        assert _yields(worker.pid, nice)
        assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the server's own, unchanged


async def test_an_analysis_worker_too(make_server):
    server = make_server(worker_nice=3, spare_workers=0)
    async with Client(server.address) as client:
        result = await client.analyze_result("tictactoe", depth=6)  # too big to run inline
        assert result.best_move is not None
        (worker,) = server.server.service.pool._idle  # lent for the analysis, then kept
        assert _yields(worker.pid, 3)
