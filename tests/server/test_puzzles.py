"""One-player puzzles over the real server: `AnalyzeResult` with `solve` on sliding-puzzle
positions answers a cheapest solution (replayed with the game, its length against a
breadth-first search written here), WIN in that many plies, EXACT and proven; limits
answer a bound; an unsolvable position is refused with the game's message."""

from __future__ import annotations

from collections import deque

import grpc
import pytest

from kibitz.clients import Bound, Client, KibitzError, ScoreKind
from kibitz.games.sliding import SlidingPuzzle

POSITIONS = ["1,2,5,3,4,0,6,7,8", "7,2,4,5,0,6,8,3,1", "8,6,7,2,5,4,3,0,1"]
"""Three 8-puzzles: the game's notation example, its start position, and one of the
hardest (31 moves)."""
UNSOLVABLE = "0,2,1,3,4,5,6,7,8"
"""Two tiles swapped: an odd arrangement, which cannot reach the goal."""


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


def shortest(position: str) -> int:
    """The fewest slides from `position` to the goal (blank first, then 1..8), by a
    breadth-first search on tuples (not the game's code)."""
    start = tuple(int(tile) for tile in position.split(","))
    goal = tuple(range(9))
    distance = {start: 0}
    frontier = deque([start])
    while frontier:
        tiles = frontier.popleft()
        if tiles == goal:
            return distance[tiles]
        blank = tiles.index(0)
        row, column = divmod(blank, 3)
        for r, c in ((row - 1, column), (row + 1, column), (row, column - 1), (row, column + 1)):
            if 0 <= r < 3 and 0 <= c < 3:
                swapped = list(tiles)
                swapped[blank], swapped[3 * r + c] = swapped[3 * r + c], 0
                after = tuple(swapped)
                if after not in distance:
                    distance[after] = distance[tiles] + 1
                    frontier.append(after)
    raise AssertionError(f"{position} cannot reach the goal")


def reaches_the_goal(position: str, line: tuple[str, ...]) -> bool:
    state = SlidingPuzzle.from_position(position)
    for text in line:
        move = state.parse_move(text)
        assert move in state.legal_moves(), f"{text} is illegal"
        state.play(move)
    return state.is_terminal()


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("engine", ["idastar", "astar"])
async def test_solve_answers_a_cheapest_solution(client, engine: str, position: str) -> None:
    result = await client.analyze_result("sliding-puzzle", position, engine=engine, solve=True)
    optimum = shortest(position)
    assert reaches_the_goal(position, result.pv)
    assert len(result.pv) == optimum == result.stats["solution_cost"]
    assert result.best_move == result.pv[0]
    assert result.stop_reason == "solved"
    score = result.score
    assert score.kind == ScoreKind.WIN and score.plies == optimum
    assert score.bound == Bound.EXACT and score.proven


async def test_a_weighted_search_answers_a_solution_with_a_bound(client) -> None:
    position = POSITIONS[2]
    result = await client.analyze_result(
        "sliding-puzzle", position, engine="astar", options={"Algorithm": "greedy"}
    )
    assert reaches_the_goal(position, result.pv)
    assert len(result.pv) >= shortest(position)
    assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.LOWER
    assert not result.score.proven


async def test_a_cost_bound_without_a_solution_says_so(client) -> None:
    position = POSITIONS[1]  # 20 moves from the goal
    result = await client.analyze_result("sliding-puzzle", position, engine="idastar", depth=18)
    assert result.stop_reason == "depth"
    assert result.score.kind == ScoreKind.WIN and result.score.bound == Bound.UPPER
    assert result.stats["cost_bound"] == 20 and "solution_cost" not in result.stats


async def test_an_unsolvable_position_is_refused_with_the_games_message(client) -> None:
    for engine in ("idastar", "astar"):
        with pytest.raises(KibitzError) as caught:
            await client.analyze_result("sliding-puzzle", UNSOLVABLE, engine=engine, solve=True)
        assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
        assert "cannot reach the goal" in caught.value.message


async def test_two_player_games_refuse_the_puzzle_engines(client) -> None:
    with pytest.raises(KibitzError) as caught:
        await client.analyze_result("connect4", engine="idastar", depth=2)
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "1 players" in caught.value.message or "puzzle" in caught.value.message


async def test_astar_out_of_memory_is_resource_exhausted_with_a_message_that_says_so(client):
    fifteen = "14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3"  # Korf's first, 57 moves
    options = {"Algorithm": "dijkstra", "Memory": 1}
    with pytest.raises(KibitzError) as caught:
        await client.analyze_result("sliding-puzzle", fifteen, engine="astar", options=options)
    assert caught.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert "the most its Memory option allows" in caught.value.message
    # the server goes on serving the engine
    result = await client.analyze_result("sliding-puzzle", POSITIONS[0], engine="astar")
    assert result.score.proven


async def test_an_unknown_heuristic_or_bfs_on_weighted_moves_is_invalid_argument(client):
    """Options that do not suit the game are refused before anything starts, by session or
    analysis, as INVALID_ARGUMENT naming the culprit."""
    with pytest.raises(KibitzError) as caught:
        await client.analyze_result(
            "sliding-puzzle", POSITIONS[0], engine="idastar", options={"Heuristic": "octile"}
        )
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
    message = caught.value.message
    assert "'octile' is not a heuristic of sliding-puzzle" in message
    assert "linear-conflicts" in message
    with pytest.raises(KibitzError) as refused:
        await client.open("pancake", "astar", {"Heuristic": "manhattan"})
    assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT
    session = await client.open("pancake", "astar", {"Heuristic": "gap"})
    with pytest.raises(KibitzError) as changed:
        await session.set_options(Heuristic="misplaced")
    assert changed.value.code == grpc.StatusCode.INVALID_ARGUMENT
    await session.close()
