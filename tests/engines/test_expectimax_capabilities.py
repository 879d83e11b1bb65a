"""Expectimax asks the position, never a particular game: the options Evaluation and Bearoff
reach a game through its capabilities (`EstimateSources`, `EndgameTable`), the compiled
kernel through `ExpectimaxKernel`. A game without them (pig) refuses another estimate and a
table forced on, by name, in the engine and over a real server, and searches as before
under the defaults; backgammon offers all three."""

from __future__ import annotations

import ast
from pathlib import Path

import grpc
import pytest

from kibitz.clients import Client, KibitzError
from kibitz.engines import expectimax
from kibitz.engines.base import OptionError, SearchContext
from kibitz.engines.expectimax import Expectimax
from kibitz.engines.expectimax.kernel import kernel_for
from kibitz.engines.types import Limits
from kibitz.games.backgammon import Backgammon
from kibitz.games.capabilities import EndgameTable, EstimateSources, ExpectimaxKernel
from kibitz.games.pig import Pig

EXPECTIMAX = Path(expectimax.__file__).parent
NOT_AN_ESTIMATE = "option Evaluation: 'network' is not an estimate of pig (it has auto, formula)"
NO_TABLE = "option Bearoff: 'on' needs an endgame table, and pig has none (auto, off)"


def options(**changes) -> dict:
    return {**Expectimax.default_options(), **changes}


def pig_answer(**changes):
    state = Pig.from_position("")
    result = Expectimax(changes).search(state, Limits(depth=3), SearchContext())
    return result.best_move, result.nodes, result.score.expected


def test_pig_refuses_the_network_and_a_table_forced_on():
    assert not issubclass(Pig, (EstimateSources, EndgameTable, ExpectimaxKernel))
    with pytest.raises(OptionError) as caught:
        Expectimax.check_options_for(Pig, options(Evaluation="network"))
    assert str(caught.value) == NOT_AN_ESTIMATE
    with pytest.raises(OptionError) as caught:
        Expectimax.check_options_for(Pig, options(Bearoff="on"))
    assert str(caught.value) == NO_TABLE
    for refused, message in (
        ({"Evaluation": "network"}, NOT_AN_ESTIMATE),
        ({"Bearoff": "on"}, NO_TABLE),
    ):
        state = Pig.from_position("")
        with pytest.raises(OptionError) as caught:
            Expectimax(refused).search(state, Limits(depth=1), SearchContext())
        assert str(caught.value) == message


def test_pig_searches_as_before_under_the_options_it_takes():
    for bearoff in ("auto", "off"):
        Expectimax.check_options_for(Pig, options(Bearoff=bearoff))
    Expectimax.check_options_at(Pig.from_position(""), {"Bearoff": "auto"})
    default = pig_answer()
    assert default == (0, 107, 0.14642773320490618)
    assert pig_answer(Bearoff="off", Evaluation="formula", Kernel=False) == default


def test_backgammon_offers_its_estimates_table_and_kernel():
    assert issubclass(Backgammon, (EstimateSources, EndgameTable, ExpectimaxKernel))
    assert Backgammon.estimate_names == ("formula", "network")
    for changes in ({"Evaluation": "network"}, {"Bearoff": "on"}):
        Expectimax.check_options_for(Backgammon, options(**changes))
    state = Backgammon.from_position("")
    assert state.with_estimate("formula") is state and state.with_endgame_table(False) is state
    networked = state.with_estimate("network")
    assert networked is not state and networked.batched() and state.network is None
    assert networked.with_estimate("formula").network is None
    with pytest.raises(ValueError, match="backgammon has no estimate 'neural'"):
        state.with_estimate("neural")
    assert kernel_for(Backgammon) is Backgammon.expectimax_kernel()
    assert kernel_for(Pig) is None


async def test_a_server_refuses_them_for_pig_by_name(server):
    async with Client(server.address) as client:
        for refused, message in (
            ({"Evaluation": "network"}, NOT_AN_ESTIMATE),
            ({"Bearoff": "on"}, NO_TABLE),
        ):
            with pytest.raises(KibitzError) as caught:
                await client.open("pig", "expectimax", refused)
            assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT
            assert message in caught.value.message
        opening, network = "4HPwATDgc/ABMA:31", {"Evaluation": "network"}
        async with await client.open("backgammon", "expectimax", network) as session:
            result = await session.search(opening, [], depth=1)
        assert len(result.root_moves) == len(Backgammon.from_position(opening).legal_moves())


def test_the_engine_imports_no_particular_game():
    allowed = {"kibitz.games", "kibitz.games.capabilities"}
    for path in sorted(EXPECTIMAX.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kibitz.games"):
                assert node.module in allowed, f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(alias.name.startswith("kibitz.games") for alias in node.names)
