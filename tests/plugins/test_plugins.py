"""Plugins end to end: the example package (examples/plugin) served like a built-in, broken
entry points logged and skipped, and misbehaving plugin engines (tests/plugins/faulty)
failing only their own calls.

The example plugin is installed for the whole session by conftest.py; the faulty one only
into the server processes started here.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from packages import FAULTY_PLUGIN, pip_install
from servers import ServerProcess

from kibitz.clients import Client, KibitzError
from kibitz.engines import ENGINES
from kibitz.games import GAMES


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


@pytest.fixture(scope="module")
def faulty_server() -> Iterator[ServerProcess]:
    """A server with the faulty plugin installed (and, as everywhere, the example one)."""
    target = Path(tempfile.mkdtemp(prefix="kibitz-faulty-plugin-"))
    try:
        pip_install(FAULTY_PLUGIN, target)
        with ServerProcess(path=(str(target),)) as process:
            yield process
    finally:
        shutil.rmtree(target, ignore_errors=True)


def test_the_example_plugin_is_registered_like_a_built_in():
    assert GAMES["race21"].__module__ == "kibitz_example.race"
    assert ENGINES["random"].__module__ == "kibitz_example.random_engine"


async def test_the_example_plugin_is_served(client):
    games = {game.name: game for game in await client.games()}
    race = games["race21"]
    assert race.default_engine == "alphabeta"
    assert "move priors (move_priors())" in race.capabilities
    engines = {engine.name: engine for engine in await client.engines()}
    assert {"race21", "connect4", "tictactoe", "nim"} <= set(engines["random"].games)
    assert "race21" in engines["alphabeta"].games

    # the first player wins by leaving 1 (then 20 = 5 x 4 to go); 13 with 8 to go is lost
    won = await client.analyze("race21", "0", solve=True)
    assert (won.best_move, won.score.kind) == ("1", "win")
    lost = await client.analyze("race21", "13 2", depth=12)
    assert lost.score.kind == "loss" and lost.stop_reason == "solved"


async def test_a_plugin_engine_plays_built_in_games(client):
    async with await client.open("connect4", "random", {"Seed": 5}) as session:
        first = await session.search(moves=["4453"], nodes=10)
        again = await session.search(moves=["4453"], nodes=10)
        await session.new_game()  # restarts the seeded sequence
        restarted = await session.search(moves=["4453"], nodes=10)
    assert first.best_move in list("1234567")
    assert restarted.best_move == first.best_move
    assert [root.move for root in first.root_moves] != [] and again.best_move


def test_broken_plugins_are_logged_and_skipped(faulty_server):
    log = "".join(faulty_server.log)
    assert "game plugin 'missing' (kibitz_faulty.no_such_module:Game) skipped" in log
    assert "game plugin 'notagame' (kibitz_faulty:Sleeper) skipped" in log
    assert "is not a subclass of Game" in log
    assert "engine plugin 'abstract' (kibitz.engines:Engine) skipped" in log
    assert "Engine does not implement" in log


async def test_the_faulty_plugins_engines_are_served(faulty_server):
    async with Client(faulty_server.address) as client:
        engines = {engine.name for engine in await client.engines()}
        games = {game.name for game in await client.games()}
    assert {"sleeper", "silent", "failing", "alphabeta", "random"} <= engines
    assert "abstract" not in engines and not {"missing", "notagame"} & games


async def test_an_engine_that_ignores_its_deadline_is_answered_with_its_last_info(
    faulty_server,
):
    async with Client(faulty_server.address) as client:
        result = await client.analyze("tictactoe", engine="sleeper", movetime=0.1)
        # the engine's provisional answer (its Info), with the server's stop reason
        assert (result.best_move, result.score.centi) == ("a1", 17)
        assert (result.depth, result.nodes, result.stop_reason) == (3, 42, "time")
        assert [root.score.centi for root in result.root_moves] == list(range(17, 8, -1))
        assert len(await client.games()) >= 5  # still serving


async def test_an_engine_that_hangs_without_a_word_gets_deadline_exceeded(faulty_server):
    async with Client(faulty_server.address) as client:
        session = await client.open("tictactoe", "silent")
        with pytest.raises(KibitzError) as error:
            await session.search(movetime=0.1)
        assert error.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "before reporting any move" in error.value.message
        assert (await session.refresh()).engine == "silent"  # the session survives
        await session.close()


async def test_an_engine_error_fails_only_its_call(faulty_server):
    async with Client(faulty_server.address) as client:
        async with await client.open("nim", "failing") as session:
            with pytest.raises(KibitzError) as error:
                await session.search(depth=3)
            assert error.value.code == grpc.StatusCode.INTERNAL
            assert "this engine always fails" in error.value.message
            assert not (await session.refresh()).searching
        assert (await client.analyze("nim", "1,2", depth=4)).best_move
