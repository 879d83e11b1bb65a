"""What the service keeps between calls to make them cheap (issue 36): the engines of inline
analyses, parsed positions, the catalogue, and the client's scores. Each must answer as if
nothing were kept."""

from __future__ import annotations

from typing import ClassVar

import grpc
import pytest

from kibitz.clients import Client, InvalidArgument, KibitzError, RootMove, Score
from kibitz.engines import ENGINES
from kibitz.engines.alphabeta import AlphaBeta
from kibitz.games import GAMES
from kibitz.games.tictactoe import TicTacToe
from kibitz.server import inline
from kibitz.server.validation import parse_position
from kibitz.v1 import engine_pb2 as pb


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


# ---------------------------------------------------------------------------- inline engines


def _answer(result) -> tuple:
    return result.nodes, result.pv, result.score, result.root_moves, result.depth


async def test_a_kept_engine_answers_as_a_fresh_one(client, server):
    async def kept() -> int:  # on the server's loop: after the engines it readies
        return len(server.server.service.inline_engines)

    first = await client.analyze_result("connect4", moves=["4453"], depth=2)
    await client.analyze_result("connect4", moves=["44"], depth=2)  # other entries in its table
    again = await client.analyze_result("connect4", moves=["4453"], depth=2)
    streamed = await client.analyze("connect4", moves=["4453"], depth=2)
    assert _answer(first) == _answer(again) == _answer(streamed)
    assert first.nodes > 9 and server.run(kept()) >= 1  # more than the root moves: a search
    async with await client.open("connect4") as session:  # and as a worker's engine
        assert _answer(await session.search(moves=["4453"], depth=2)) == _answer(first)


class Counting(AlphaBeta):
    """Alpha-beta that counts its instances and their new games and closes."""

    made: ClassVar[list[Counting]] = []

    def __init__(self, options=None) -> None:
        super().__init__(options)
        self.new_games = self.closes = 0
        Counting.made.append(self)

    def new_game(self) -> None:
        self.new_games += 1
        super().new_game()

    def close(self) -> None:
        self.closes += 1
        super().close()


def _ready(engines: inline.ReadyEngines, options: dict, game=TicTacToe) -> AlphaBeta:
    instance = engines.take(Counting, game, options)
    engines.give_back(instance, game, options)
    return instance


def test_ready_engines_keep_one_per_options_made_new_and_close_the_oldest():
    Counting.made.clear()
    engines = inline.ReadyEngines(size=2)
    small = {**Counting.default_options(), "Hash": 1}
    first = _ready(engines, Counting.default_options())
    assert _ready(engines, Counting.default_options()) is first  # the same options: kept
    assert first.new_games == 2 and first.closes == 0
    other = _ready(engines, small)
    assert other is not first and len(engines) == 2
    third = _ready(engines, {**small, "Hash": 2})  # one too many: the least recent goes
    assert len(engines) == 2 and first.closes == 1 and other.closes == third.closes == 0
    assert engines.take(Counting, TicTacToe, Counting.default_options()) not in Counting.made[:3]
    connect4 = _ready(engines, small, GAMES["connect4"])  # another game: another engine
    assert connect4 not in (other, third) and (other.closes, third.closes) == (1, 0)
    engines.close()
    assert third.closes == connect4.closes == 1 and len(engines) == 0


class Failing(AlphaBeta):
    """Alpha-beta whose search fails on an empty tic-tac-toe board."""

    name = "failing-inline"
    made = 0

    def __init__(self, options=None) -> None:
        super().__init__(options)
        Failing.made += 1

    def search(self, state, limits, context):
        if state.legal_moves() == list(range(9)):
            raise RuntimeError("engine bug")
        return super().search(state, limits, context)


@pytest.fixture
def failing():
    Failing.made = 0
    ENGINES.register(Failing)
    yield Failing
    del ENGINES[Failing.name]


async def test_an_inline_engine_that_fails_is_answered_and_dropped(client, failing, caplog):
    for _ in range(2):
        with pytest.raises(KibitzError, match="engine failed: engine bug") as error:
            await client.analyze_result("tictactoe", engine="failing-inline", depth=1)
        assert error.value.code == grpc.StatusCode.INTERNAL
    assert Failing.made == 2  # the engine that failed was not kept
    for _ in range(2):  # readied once its answer has gone, before the next request is read
        result = await client.analyze_result("tictactoe", "", ["a1"], engine=Failing.name, depth=1)
        assert result.best_move and Failing.made == 3


# ---------------------------------------------------------------------------- parsed positions


def test_a_parsed_position_is_a_state_of_its_own():
    first, moves = parse_position(TicTacToe, "", ["b2", "a1"])
    first.play(first.read_move("c3"))
    moves.append("c3")
    second, again = parse_position(TicTacToe, "", ["b2", "a1"])
    assert again == ["b2", "a1"] and second is not first
    assert second.legal_moves() == [1, 2, 3, 5, 6, 7, 8]


async def test_a_bad_position_is_refused_every_time(client):
    for _ in range(2):
        with pytest.raises(InvalidArgument, match=r"moves: .*b2.* is already taken"):
            await client.analyze_result("tictactoe", moves=["b2", "b2"], depth=1)


# ---------------------------------------------------------------------------- the catalogue


async def test_the_catalogue_follows_the_registries(client, failing):
    assert "failing-inline" in {engine.name for engine in await client.engines()}
    del ENGINES[Failing.name]
    try:
        assert "failing-inline" not in {engine.name for engine in await client.engines()}
    finally:
        ENGINES.register(Failing)
    games = await client.games()
    assert [game.name for game in games] == sorted(GAMES)
    assert await client.games() == games


# ---------------------------------------------------------------------------- client values


def test_equal_scores_are_one_value_and_others_are_not():
    draw = pb.Score(kind=pb.Score.DRAW, proven=True, label="draw")
    assert Score.from_pb(draw) is Score.from_pb(pb.Score.FromString(draw.SerializeToString()))
    win = Score.from_pb(pb.Score(kind=pb.Score.WIN, plies=3, label="win in 3"))
    assert (win.kind, win.plies, str(win)) == ("win", 3, "win in 3")
    assert Score.from_pb(draw).kind == "draw" and win != Score.from_pb(draw)
    move = pb.RootMove(move="b2", score=draw, pv=["b2", "a1"])
    assert RootMove.from_pb(move) == RootMove("b2", Score.from_pb(draw), ("b2", "a1"))
    assert RootMove.from_pb(pb.RootMove(move="c3", score=draw)).move == "c3"
