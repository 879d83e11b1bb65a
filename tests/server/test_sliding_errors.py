"""The sliding puzzle's search errors over a real server (`kibitz serve` in a process of its
own, with a $KIBITZ_PDB_DIR of the test's own, which its workers inherit): the heuristic
``pdb`` without its databases is FAILED_PRECONDITION naming the build command, on a board
other than 4x4 INVALID_ARGUMENT naming the size, both before the search reaches a worker
and without losing the session, which searches with ``pdb`` once the databases are there;
`astar` over its Memory bound is RESOURCE_EXHAUSTED, and its session searches on."""

from __future__ import annotations

import grpc
import pytest
from servers import ServerProcess
from sliding_tables import write_tiny_663

from kibitz.clients import Bound, Client, KibitzError

EIGHT = "1,2,5,3,4,0,6,7,8"
"""An 8-puzzle 3 moves from the goal."""
FIFTEEN = "1,2,3,7,4,5,6,0,13,9,10,11,8,12,14,15"
"""A 15-puzzle 12 moves from the goal (tests/engines/test_sliding_service.py's (30, 3))."""
KORF_1 = "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3"
BUILD = "python -m kibitz.games.sliding_pdb build"


@pytest.fixture
def pdb_server(tmp_path, monkeypatch):
    directory = tmp_path / "pdb"
    directory.mkdir()
    monkeypatch.setenv("KIBITZ_PDB_DIR", str(directory))
    with ServerProcess() as server:
        yield server, directory


async def failure(call) -> KibitzError:
    with pytest.raises(KibitzError) as caught:
        await call
    return caught.value


async def test_pdb_without_databases_or_on_another_board_keeps_the_session(pdb_server):
    server, directory = pdb_server
    async with Client(server.address) as client:
        for engine in ("idastar", "astar"):
            missing = await failure(
                client.analyze_result(
                    "sliding-puzzle", FIFTEEN, engine=engine, options={"Heuristic": "pdb"}
                )
            )
            assert missing.code == grpc.StatusCode.FAILED_PRECONDITION
            assert BUILD in missing.message and str(directory) in missing.message
            other = await failure(
                client.analyze_result(
                    "sliding-puzzle", EIGHT, engine=engine, options={"Heuristic": "pdb"}
                )
            )
            assert other.code == grpc.StatusCode.INVALID_ARGUMENT
            assert "needs the 4x4 board, not 3x3" in other.message
        session = await client.open("sliding-puzzle", "idastar", {"Heuristic": "pdb"})
        missing = await failure(session.search(FIFTEEN, solve=True))
        assert missing.code == grpc.StatusCode.FAILED_PRECONDITION
        write_tiny_663(directory)  # built while the server runs: found at the next search
        solved = await session.search(FIFTEEN, solve=True)
        assert len(solved.pv) == 12 and solved.score.bound == Bound.EXACT
        assert solved.stats["compiled"] == 1.0
        other = await failure(session.search(EIGHT, solve=True))
        assert other.code == grpc.StatusCode.INVALID_ARGUMENT
        again = await session.search(FIFTEEN, solve=True)
        assert again.pv == solved.pv and again.nodes == solved.nodes
        await session.close()
        best_first = await client.analyze_result(
            "sliding-puzzle", FIFTEEN, engine="astar", options={"Heuristic": "pdb"}, solve=True
        )
        assert len(best_first.pv) == 12 and best_first.score.proven


async def test_astar_over_its_memory_is_resource_exhausted_and_the_session_lives(server):
    async with Client(server.address) as client:
        session = await client.open("sliding-puzzle", "astar", {"Memory": 1})
        exhausted = await failure(session.search(KORF_1, solve=True))
        assert exhausted.code == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "the most its Memory option allows" in exhausted.message
        assert "idastar" in exhausted.message
        solved = await session.search(EIGHT, solve=True)
        assert len(solved.pv) == 3 and solved.score.proven
        await session.close()
