"""The `mcts` engine through the real server: per-move estimates in the protocol, tree reuse
between the searches of a session, NewGame dropping the tree, its memory budget."""

from __future__ import annotations

import pytest

from kibitz.clients import Client, InvalidArgument, ResourceExhausted, ScoreKind
from kibitz.server.budget import WORKER_MB


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def test_a_session_reuses_its_tree_and_new_game_drops_it(client):
    async with await client.open("connect4", "mcts", {"Seed": 5}) as session:
        first = await session.search("", ["4"], nodes=2000)
        assert first.nodes == 2000 and first.stats["reused_visits"] == 0
        reply = first.root_moves[0].pv[1] if len(first.root_moves[0].pv) > 1 else None
        assert reply is not None
        visits = {root.move: root.score.visits for root in first.root_moves}
        second = await session.search("", ["4", first.best_move], nodes=500)
        assert second.stats["reused_visits"] == visits[first.best_move]
        third = await session.search("", ["4", first.best_move, second.best_move], nodes=10)
        assert third.stats["reused_visits"] > 0
        await session.new_game()
        fresh = await session.search("", ["4"], nodes=10)
        assert fresh.stats["reused_visits"] == 0


async def test_results_carry_visits_win_rates_and_proofs(client):
    result = await client.analyze("tictactoe", engine="mcts", nodes=200_000)
    assert result.stop_reason == "solved" and result.score.kind == ScoreKind.DRAW
    assert sum(root.score.visits for root in result.root_moves) == result.nodes
    for root in result.root_moves:
        score = root.score
        total = score.win_probability + score.draw_probability + score.loss_probability
        assert total == pytest.approx(1.0)
    assert result.depth >= 1 and result.seldepth == 9


async def test_bad_mcts_options_are_refused(client):
    with pytest.raises(InvalidArgument, match="Exploration"):
        await client.open("connect4", "mcts", {"Exploration": "-1"})
    with pytest.raises(InvalidArgument, match="TreeMemory"):
        await client.open("connect4", "mcts", {"TreeMemory": "huge"})


async def test_the_tree_memory_counts_against_the_servers_budget(make_server):
    server = make_server(max_memory_mb=300 + WORKER_MB)
    async with Client(server.address) as client:
        with pytest.raises(ResourceExhausted, match="--max-memory"):
            await client.open("connect4", "mcts", {"TreeMemory": 301})
        async with await client.open("connect4", "mcts", {"TreeMemory": 300}) as session:
            assert (await session.search(nodes=50)).best_move
