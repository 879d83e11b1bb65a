"""Expectimax's option Evaluation over a real server: a session with the TD network plays
the network's own 1-ply choice (`Network.best_play`), an analysis with the formula its own
(another play at the start after 6-4); a bad value is refused by name, without a search."""

from __future__ import annotations

import pytest

from kibitz.clients import Client, KibitzError
from kibitz.games.backgammon import Backgammon
from kibitz.games.backgammon.network import Network

POSITIONS = ("4HPwATDgc/ABMA:31", "4HPwATDgc/ABMA:64", "mAMABNgAQAAAAA:21")
"""Openings, and a small position in contact (tests/engines/test_expectimax_network.py's)."""


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


def network_play(position: str) -> str:
    state = Backgammon.from_position(position)
    me, opp = state.sides[state.on_roll], state.sides[1 - state.on_roll]
    return state.format_move(Network.load().best_play(me, opp, *state.dice))


async def test_a_session_with_the_network_plays_its_choice(client):
    options = {"Evaluation": "network", "Bearoff": "off"}
    async with await client.open("backgammon", "expectimax", options) as session:
        for position in POSITIONS:
            result = await session.search(position, [], depth=1)
            assert result.best_move == network_play(position)
            assert len(result.root_moves) == len(Backgammon.from_position(position).legal_moves())
    # where the two disagree: 6-4 at the start
    formula = await client.analyze_result(
        "backgammon",
        POSITIONS[1],
        engine="expectimax",
        options={"Bearoff": "off", "Evaluation": "formula"},
        depth=1,
    )
    assert formula.best_move == "24/14" != network_play(POSITIONS[1])


async def test_a_bad_value_is_refused_by_name(client):
    with pytest.raises(KibitzError, match="Evaluation"):
        await client.open("backgammon", "expectimax", {"Evaluation": "neural"})
