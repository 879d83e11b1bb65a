"""maxn, paranoid and brs through the real server and client: games of three players and
more, a value per player on the wire."""

from __future__ import annotations

import pytest

from kibitz.clients import Client, InvalidArgument
from kibitz.games.chinese_checkers import ChineseCheckers
from kibitz.games.nim3 import Nim3

ENGINES = ("maxn", "paranoid", "brs")


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def test_the_engines_are_listed_for_games_of_three_players(client):
    engines = {engine.name: engine for engine in await client.engines()}
    for name in ENGINES:
        assert {"chinese-checkers", "nim3", "tictactoe"} <= set(engines[name].games)
    options = {option.name: option for option in engines["maxn"].options}
    assert options["TieBreak"].choices == ["first", "paranoid", "altruistic"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("players", [3, 4])
async def test_each_engine_analyses_the_chinese_checkers_start(client, engine, players):
    result = await client.analyze("chinese-checkers", str(players), engine=engine, nodes=300)
    start = ChineseCheckers.from_position(str(players))
    legal = {start.format_move(move) for move in start.legal_moves()}
    assert result.best_move in legal and result.depth >= 1
    assert {root.move for root in result.root_moves} == legal
    assert len(result.score.player_values) == players
    assert result.score.centi == round(100 * result.score.player_values[0])
    for root in result.root_moves:
        assert len(root.score.player_values) == players


@pytest.mark.parametrize("engine", ENGINES)
async def test_three_player_nim_is_searched_to_its_end(client, engine):
    """maxn finds the exact maxⁿ values; every engine ends the search on its own."""
    result = await client.analyze("nim3", "1,2,3 2", engine=engine, depth=40)
    assert result.stop_reason == ("depth" if engine == "brs" else "solved")
    assert len(result.score.player_values) == 3
    if engine == "maxn":
        assert result.score.player_values == Nim3.from_position("1,2,3 2").values()


async def test_a_bad_tie_break_is_refused(client):
    with pytest.raises(InvalidArgument, match="TieBreak"):
        await client.analyze_result("nim3", engine="maxn", options={"TieBreak": "coin"}, nodes=10)
