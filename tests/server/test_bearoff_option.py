"""Expectimax's option Bearoff over a real server (`kibitz serve` in a process of its own,
with a $KIBITZ_BEAROFF_DIR of the test's own, which its workers inherit): on without the
database is FAILED_PRECONDITION naming the build command, without losing the session, which
plays the database's bear-off once a database is built; off plays the race curves'."""

from __future__ import annotations

import grpc
import pytest
from backgammon_positions import TAKE_ONE_OFF
from servers import ServerProcess

from kibitz.clients import Client, KibitzError
from kibitz.games.backgammon import bearoff
from kibitz.games.backgammon.bearoff import BearoffDatabase


@pytest.fixture
def bearoff_server(tmp_path, monkeypatch):
    directory = tmp_path / "bearoff"
    monkeypatch.setenv("KIBITZ_BEAROFF_DIR", str(directory))
    with ServerProcess() as server:
        yield server, directory


async def test_on_without_a_database_keeps_the_session(bearoff_server):
    server, directory = bearoff_server
    async with Client(server.address) as client:
        session = await client.open("backgammon", "expectimax", {"Bearoff": "on"})
        with pytest.raises(KibitzError) as caught:
            await session.search(TAKE_ONE_OFF, depth=1)
        assert caught.value.code == grpc.StatusCode.FAILED_PRECONDITION
        assert bearoff.BUILD_COMMAND in caught.value.message
        assert str(directory) in caught.value.message
        BearoffDatabase.build(4).save(bearoff.database_path(4, directory))  # found next time
        assert (await session.search(TAKE_ONE_OFF, depth=1)).best_move == "6/off"
        await session.close()
        curves = await client.analyze_result(
            "backgammon",
            TAKE_ONE_OFF,
            engine="expectimax",
            options={"Bearoff": "off", "Evaluation": "formula"},
            depth=1,
        )
        assert curves.best_move == "6/1 4/2"
