"""End-to-end tests: a real server on a loopback port, driven by the real async client."""

from __future__ import annotations

import asyncio
import json
import os
import signal

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from kibitz.clients import (
    Bound,
    Client,
    FailedPrecondition,
    InvalidArgument,
    KibitzError,
    NotFound,
    ResourceExhausted,
    Score,
    ScoreKind,
)
from kibitz.v1 import engine_pb2 as pb

X_WINS_AT_C3 = "xx./oo./... x"  # x to move; c3 wins at once, anything else lets o win


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


async def first_info(search):
    """Read the stream until the first Info arrives (the search is then surely running)."""
    iterator = aiter(search)
    return await anext(iterator), iterator


# ---------------------------------------------------------------------------- catalogue


async def test_lists_games_and_engines(client):
    games = {g.name: g for g in await client.games()}
    assert {"tictactoe", "nim", "misere-nim", "connect4"} <= set(games)
    assert games["connect4"].players == 2 and not games["connect4"].has_chance
    assert games["connect4"].notation_help
    engines = {e.name: e for e in await client.engines()}
    alphabeta = engines["alphabeta"]
    assert {"tictactoe", "nim", "connect4"} <= set(alphabeta.games)
    hash_option = next(o for o in alphabeta.options if o.name == "Hash")
    assert hash_option.type == "spin" and hash_option.min == 0 and hash_option.description


BUILT_IN_GAMES = {  # name: (notation, player names, board shape)
    "tictactoe": ("tictactoe-rows", ["x", "o"], [3, 3]),
    "nim": ("nim-heaps", ["player 1", "player 2"], []),
    "misere-nim": ("nim-heaps", ["player 1", "player 2"], []),
    "connect4": ("connect4-rows", ["x", "o"], [6, 7]),
    "hex": ("hex-rows", ["Black", "White"], [11, 11]),
    "pig": ("pig-scores", ["player 1", "player 2"], []),
    "chess": ("fen", ["White", "Black"], [8, 8]),
    "backgammon": ("gnubg-position-id", ["player 1", "player 2"], []),
}


@pytest.mark.parametrize("name", list(BUILT_IN_GAMES))
async def test_every_built_in_game_names_its_notation_players_and_board(client, name):
    game = {g.name: g for g in await client.games()}[name]
    assert (game.notation, list(game.player_names), list(game.board_shape)) == (
        BUILT_IN_GAMES[name]
    )
    assert len(game.player_names) == game.players
    start = await client.describe(name)
    assert list(start.board_shape) == list(game.board_shape)


async def test_a_plugin_game_without_the_new_attributes_gets_the_defaults(client):
    race = {g.name: g for g in await client.games()}["race21"]  # the example plugin
    assert race.notation == "race21-total"  # it declares this one, not the others
    assert list(race.player_names) == ["player 1", "player 2"]
    assert list(race.board_shape) == []


async def test_a_position_states_its_own_board_shape(client):
    assert list((await client.describe("hex", "7")).board_shape) == [7, 7]
    assert list((await client.describe("hex", "b2/1w1/3 b")).board_shape) == [3, 3]


async def test_describe_checks_and_draws_positions(client):
    position = await client.describe("connect4", "", ["4453"])
    assert position.to_move == 0
    assert position.legal_moves == ["1", "2", "3", "4", "5", "6", "7"]
    assert position.board.count("x") >= 2
    with pytest.raises(InvalidArgument, match="move 3"):
        await client.describe("connect4", "", ["4", "4", "9"])


async def test_every_game_presents_itself_with_a_diagram_and_labels(client):
    """Describe draws every registered game (the example plugin's too) from the game alone:
    a diagram whose targets play legal moves, a label per legal and per played move."""
    for game in await client.games():
        position = await client.describe(game.name)
        assert position.HasField("diagram"), game.name
        diagram = position.diagram
        assert diagram.kind != pb.Diagram.KIND_UNSPECIFIED
        places = {place.id for place in diagram.places}
        for target in diagram.targets:
            assert target.move in position.legal_moves
            assert set(target.to_places) <= places and target.from_place in places | {""}
        assert len(position.legal_move_labels) == len(position.legal_moves)
        if position.legal_moves and position.to_move >= 0:
            first = position.legal_moves[0]
            after = await client.describe(game.name, "", [first])
            assert after.played_labels == [position.legal_move_labels[0]]


async def test_chess_is_labelled_in_san_and_its_mates_counted_in_moves(client):
    position = await client.describe("chess", "", ["e2e4 e7e5", "Nf3"])
    assert list(position.played_labels) == ["e4 e5", "Nf3"]
    assert set(position.diagram.highlights) == {"g1", "f3"}  # the last move
    result = await client.analyze("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", depth=2)
    assert (result.best_move, result.best_move_label, result.pv_labels) == (
        "a1a8",
        "Ra8#",
        ("Ra8#",),
    )
    assert str(result.score) == "mate in 1" == result.proto.score.label
    assert result.root_moves[0].move_label == "Ra8#"
    other = await client.analyze("tictactoe", X_WINS_AT_C3, depth=3)
    assert str(other.score) == "win in 1" and other.best_move_label == "c3"


async def test_export_writes_each_game_in_its_record_format(client):
    pgn = await client.export("chess", "", ["f2f3 e7e5", "g2g4", "Qh4"], ["a", "b"], {"Event": "e"})
    assert (pgn.format, pgn.media_type) == ("pgn", "application/x-chess-pgn")
    assert "1. f3 e5 2. g4 Qh4# 0-1" in pgn.text and '[Event "e"]' in pgn.text
    record = await client.export("nim", "1,2", ["2:2", "1:1"], ["a", "b"])
    assert record.format == "json"
    written = json.loads(record.text)
    assert (written["moves"], written["players"]) == (["2:2", "1:1"], ["a", "b"])
    assert written["result"]["returns"] == [-1.0, 1.0]  # the second player took the last
    with pytest.raises(InvalidArgument, match="move 1"):
        await client.export("connect4", "", ["9"])


async def test_health_and_reflection(server):
    async with grpc.aio.insecure_channel(server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        reply = await health.Check(health_pb2.HealthCheckRequest(service="kibitz.v1.EngineService"))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        async for response in stub.ServerReflectionInfo(iter([request])):
            names = {s.name for s in response.list_services_response.service}
            assert "kibitz.v1.EngineService" in names
            break


# ---------------------------------------------------------------------------- sessions


async def test_session_lifecycle_and_options(client):
    session = await client.open("tictactoe", "alphabeta", {"Hash": 2})
    assert session.info.options["Hash"] == "2"
    again = await client.session(session.id)
    assert again.info.game == "tictactoe" and again.info.engine == "alphabeta"
    changed = await session.set_options(hash=4)  # option names are case-insensitive
    assert changed.options["Hash"] == "4"
    await session.new_game()
    await session.close()
    with pytest.raises(NotFound, match=session.id):
        await client.session(session.id)


@pytest.mark.parametrize(
    ("game", "engine", "options", "error", "culprit"),
    [
        ("chess960", "", {}, NotFound, "chess960"),
        ("nim", "deepblue", {}, NotFound, "deepblue"),
        ("nim", "", {"Hashh": "1"}, InvalidArgument, "Hashh"),
        ("nim", "", {"Hash": "lots"}, InvalidArgument, "lots"),
        ("nim", "", {"Hash": "-1"}, InvalidArgument, "Hash"),
    ],
)
async def test_bad_session_requests_name_the_culprit(client, game, engine, options, error, culprit):
    with pytest.raises(error, match=culprit):
        await client.open(game, engine, options)


async def test_bad_option_change_keeps_the_session(client):
    session = await client.open("nim", options={"Hash": 2})
    with pytest.raises(InvalidArgument, match="Nope"):
        await session.set_options(Nope=1)
    assert (await session.refresh()).options["Hash"] == "2"
    result = await session.search("1,2,3", depth=20)
    assert result.score.kind == ScoreKind.LOSS  # nim-sum 0: the side to move loses
    await session.close()


# ---------------------------------------------------------------------------- searching


async def test_tictactoe_is_a_proven_draw_with_every_root_move_scored(client):
    session = await client.open("tictactoe")
    search = session.search(depth=9)
    infos = [info async for info in search]
    result = search.result
    assert infos and infos[-1].depth >= 1
    assert result.score.kind == ScoreKind.DRAW and result.score.bound == Bound.EXACT
    assert len(result.root_moves) == 9
    assert result.root_moves[0].move == result.best_move
    assert result.pv[0] == result.best_move and result.nodes > 0
    await session.close()


async def test_fastest_win_and_exact_scores_for_all_lines(client):
    result = await client.analyze("tictactoe", X_WINS_AT_C3, depth=9, multipv=9)
    assert result.best_move == "c3"
    assert result.score.kind == ScoreKind.WIN and result.score.plies == 1
    scores = {r.move: r.score for r in result.root_moves}
    assert all(score.bound == Bound.EXACT for score in scores.values())
    for move in ("a1", "b1", "c1"):  # o answers c2 and wins
        assert (scores[move].kind, scores[move].plies) == (ScoreKind.LOSS, 2)


async def test_connect4_search_returns_a_legal_principal_variation(client):
    session = await client.open("connect4")
    result = await session.search("", ["4453"], depth=6)
    assert result.depth == 6 and result.best_move in list("1234567")
    assert result.pv[0] == result.best_move and result.ponder_move == result.pv[1]
    await client.describe("connect4", "", ["4453", *result.pv])  # raises if any move is illegal
    assert {r.move for r in result.root_moves} == set("1234567")
    await session.close()


def _scores(message):
    """Every score of an Info or a Result message: its own and its root moves'."""
    return [message.score, *(root.score for root in message.root_moves)]


RESULTS = (pb.Score.WIN, pb.Score.LOSS, pb.Score.DRAW)


async def test_proven_marks_exact_wins_losses_and_draws_only(client):
    # a solve sends bounds (LOWER/UPPER) on WIN/LOSS/DRAW before the value is proven;
    # root moves outside the principal variation carry bounds too
    searches = [
        client.analyze("tictactoe", "x../.o./... x", solve=True, root_moves=True),
        client.analyze("tictactoe", X_WINS_AT_C3, depth=9, root_moves=True),
        client.analyze("connect4", moves=["4453"], depth=4, root_moves=True),
    ]
    scores = []
    for search in searches:
        infos = [info async for info in search]
        scores += [score for info in infos for score in _scores(info.proto)]
        scores += _scores(search.result.proto)
    for score in scores:
        assert score.proven == (score.kind in RESULTS and score.bound == pb.Score.EXACT)
        assert Score.from_pb(score).proven == score.proven  # the client's model agrees
    kinds = {(score.kind in RESULTS, score.proven) for score in scores}
    assert kinds == {(True, True), (True, False), (False, False)}  # all three kinds seen
    bound = next(s for s in scores if s.kind in RESULTS and s.bound != pb.Score.EXACT)
    assert str(Score.from_pb(bound))[:2] in (">=", "<=")


async def test_a_game_over_answer_is_proven(client):
    result = await client.analyze_result("tictactoe", "xxx/oo./... o", depth=3)
    assert result.score.proven and result.proto.score.proven


async def test_multipv_and_search_moves(client):
    result = await client.analyze("tictactoe", X_WINS_AT_C3, depth=9, multipv=3)
    exact = [r for r in result.root_moves[:3]]
    assert [r.score.bound for r in exact] == [Bound.EXACT] * 3
    restricted = await client.analyze("tictactoe", X_WINS_AT_C3, depth=9, search_moves=["a1"])
    assert restricted.best_move == "a1" and [r.move for r in restricted.root_moves] == ["a1"]


async def test_terminal_position_answers_game_over(client):
    result = await client.analyze("tictactoe", "xxx/oo./... o", depth=3)
    assert result.best_move is None and result.stop_reason == "game_over"
    assert list(result.game_over.returns) == [1.0, -1.0]
    assert result.score.kind == ScoreKind.LOSS


@pytest.mark.parametrize(
    ("kwargs", "culprit"),
    [
        ({"position": "xxxx/.../..."}, "position"),
        ({"position": "x/y/z"}, "position"),
        ({"moves": ["b2", "b2"]}, "move 2"),
        ({"moves": ["d4"]}, "d4"),
        ({"depth": 0}, "depth"),
        ({"depth": 5000}, "depth"),
        ({"movetime": 10**6}, "move_time_ms"),
        ({"multipv": 100000}, "multipv"),
        ({"search_moves": ["z9"]}, "z9"),
        ({"time_left": [1.0]}, "time_left_ms"),
    ],
)
async def test_bad_search_requests_keep_the_session(client, kwargs, culprit):
    session = await client.open("tictactoe")
    position = kwargs.pop("position", "")
    moves = kwargs.pop("moves", ())
    with pytest.raises(InvalidArgument, match=culprit):
        await session.search(position, moves, **(kwargs or {"depth": 1}))
    result = await session.search(X_WINS_AT_C3, depth=3)
    assert result.best_move == "c3"
    await session.close()


async def test_move_time_limit_ends_the_search(client):
    result = await client.analyze("connect4", movetime=0.3)
    assert result.stop_reason == "time" and result.best_move in list("1234567")


async def test_second_search_is_refused_and_stop_answers_the_first(client):
    session = await client.open("connect4")
    search = session.search(infinite=True)
    _, stream = await first_info(search)
    with pytest.raises(FailedPrecondition, match="searching"):
        await session.search(depth=1)
    with pytest.raises(FailedPrecondition):
        await session.set_options(Hash=1)
    assert await session.stop()
    async for _ in stream:
        pass
    assert search.result.best_move in list("1234567")
    assert search.result.stop_reason == "stopped"
    assert not await session.stop()
    assert (await session.refresh()).searches == 1
    await session.close()


async def test_cancelled_stream_stops_the_search_and_frees_the_session(client):
    session = await client.open("connect4")
    search = session.search(infinite=True)
    await first_info(search)
    search.cancel()
    result = await session.search("", ["4"], depth=2)
    assert result.depth == 2
    await session.close()


async def test_crashed_worker_fails_only_its_call(server, client):
    session = await client.open("connect4")
    other = await client.open("tictactoe")
    search = session.search(infinite=True)
    _, stream = await first_info(search)
    worker = server.server.service.sessions.get(session.id, None).worker
    os.kill(worker.pid, signal.SIGKILL)
    with pytest.raises(KibitzError, match="worker died") as caught:
        async for _ in stream:
            pass
    assert caught.value.code == grpc.StatusCode.INTERNAL
    assert (await other.search(X_WINS_AT_C3, depth=2)).best_move == "c3"
    result = await session.search("", ["4453"], depth=3)  # a fresh worker took over
    assert result.depth == 3
    await session.close()
    await other.close()


async def test_full_server_says_resource_exhausted(make_server):
    small = make_server(max_sessions=1, max_searches=1, max_queued=0)
    async with Client(small.address) as client:
        session = await client.open("nim")
        with pytest.raises(ResourceExhausted, match="max-sessions"):
            await client.open("nim")
        search = session.search("20,21,22,23,24,25", infinite=True)
        _, stream = await first_info(search)
        with pytest.raises(ResourceExhausted, match="maximum of 1 searches and 0 more"):
            await client.analyze("nim", depth=5)  # (too big to run inline)
        await session.stop()
        async for _ in stream:
            pass
        assert search.result.best_move


async def test_sessions_state_their_idle_times_in_milliseconds(make_server):
    server = make_server(idle_timeout=123.5)
    async with Client(server.address) as client:
        session = await client.open("nim")
        info = await session.refresh()
        assert (info.idle_timeout_ms, info.idle_timeout_seconds) == (123_500, 123.5)
        assert info.idle_ms == round(info.idle_seconds * 1000)  # the same reading, twice
        await session.close()


async def test_idle_sessions_expire(make_server):
    expiring = make_server(idle_timeout=0.2)
    async with Client(expiring.address) as client:
        session = await client.open("nim")
        registry = expiring.server.service.sessions
        # the expiry task runs every idle_timeout/4; wait for it by polling the registry
        for _ in range(200):
            if len(registry) == 0:
                break
            await asyncio.sleep(0.02)
        with pytest.raises(NotFound):
            await client.session(session.id)


async def test_table_persists_between_searches_until_new_game(client):
    session = await client.open("connect4")
    first = await session.search("", ["4453"], depth=8)
    again = await session.search("", ["4453"], depth=8)
    assert again.nodes < first.nodes  # the transposition table was kept
    await session.new_game()
    fresh = await session.search("", ["4453"], depth=8)
    assert fresh.nodes == first.nodes  # NewGame cleared it: the same search again
    await session.close()


async def test_closing_a_searching_session_answers_its_search(client):
    session = await client.open("connect4")
    search = session.search(infinite=True)
    _, stream = await first_info(search)
    await session.close()
    async for _ in stream:
        pass
    assert search.result.stop_reason == "stopped" and search.result.best_move
    with pytest.raises(NotFound):
        await session.refresh()
