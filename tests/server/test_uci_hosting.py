"""Hosting external UCI engines (`kibitz serve --config FILE`): real servers in processes of
their own with a config, real clients. Debian's Stockfish (where installed) for the
searches; a tiny fake engine in the test's tmp dir for crashes and hangs."""

from __future__ import annotations

import re
import subprocess

import chess
import grpc
import pytest
from servers import KIBITZ, ServerProcess
from ucifakes import STOCKFISH, engine_table, fake_engine, needs_stockfish

from kibitz.clients import InvalidArgument, KibitzError, ResourceExhausted, SyncClient
from kibitz.server.budget import WORKER_MB

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"


def legal(fen: str, move: str) -> bool:
    """Whether `move` (UCI) is legal in `fen`, by python-chess."""
    return chess.Move.from_uci(move) in chess.Board(fen).legal_moves


@pytest.fixture(scope="module")
def stockfish_server(tmp_path_factory):
    if STOCKFISH is None:
        pytest.skip("stockfish is missing (bash scripts/peers.sh installs Debian's stockfish)")
    config = tmp_path_factory.mktemp("uci") / "engines.toml"
    config.write_text(engine_table("stockfish", [STOCKFISH], extra="options = { Hash = 32 }"))
    with ServerProcess("--config", str(config), "--max-memory", "400") as server:
        yield server


@pytest.fixture(scope="module")
def fake_server(tmp_path_factory):
    directory = tmp_path_factory.mktemp("fakes")
    tables = [
        engine_table(name, fake_engine(directory, mode, name)[0])
        for name, mode in (("crashy", "crash-once"), ("hangs", "hang"), ("dies", "crash"))
    ]
    config = directory / "engines.toml"
    config.write_text("".join(tables))
    with ServerProcess("--config", str(config)) as server:
        yield server


# ---------------------------------------------------------------------------- Stockfish


@needs_stockfish
def test_stockfish_is_listed_with_its_own_options_for_chess_only(stockfish_server):
    with SyncClient(stockfish_server.address) as client:
        engines = {engine.name: engine for engine in client.engines()}
    engine = engines["stockfish"]
    assert list(engine.games) == ["chess"]
    options = {option.name: option for option in engine.options}
    assert {"Threads", "Hash", "MultiPV", "UCI_Elo"} <= set(options)
    assert options["Hash"].default == "32"  # the config's value
    assert (options["Threads"].type, options["Threads"].min) == ("spin", 1)
    assert "alphabeta" in engines  # the built-ins are still there


@needs_stockfish
def test_a_depth_search_streams_infos_and_answers_a_legal_move(stockfish_server):
    with SyncClient(stockfish_server.address) as client, client.open("chess", "stockfish") as s:
        search = s.search("startpos", ["e2e4", "e7e5"], depth=10, root_moves=True)
        infos = list(search)
        result = search.wait()
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    assert legal(fen, result.best_move)
    assert result.depth == 10 and result.stop_reason == "depth"
    assert infos and all(info.depth and info.pv and info.root_moves for info in infos)
    assert infos[-1].score.kind == "heuristic"
    assert len(result.root_moves) == len(list(chess.Board(fen).legal_moves))


@needs_stockfish
def test_a_mate_in_one_is_a_win_in_one_ply(stockfish_server):
    with SyncClient(stockfish_server.address) as client:
        result = client.analyze("chess", MATE_IN_ONE, engine="stockfish", depth=6).wait()
    assert result.best_move == "a1a8"
    assert (result.score.kind, result.score.plies) == ("win", 1)


@needs_stockfish
def test_multipv_gives_exact_lines_and_upper_bounds_for_the_rest(stockfish_server):
    with SyncClient(stockfish_server.address) as client, client.open("chess", "stockfish") as s:
        result = s.search(depth=8, multipv=3).wait()
    exact, rest = result.root_moves[:3], result.root_moves[3:]
    assert [root.score.bound for root in exact] == ["exact"] * 3
    assert len(rest) == 17 and all(root.score.bound == "upper" for root in rest)


@needs_stockfish
def test_stop_ends_an_infinite_search_with_a_legal_move(stockfish_server):
    with SyncClient(stockfish_server.address) as client, client.open("chess", "stockfish") as s:
        search = s.search(infinite=True)
        next(iter(search))  # the engine is searching
        assert s.stop()
        result = search.wait()
    assert result.stop_reason == "stopped"
    assert legal(chess.STARTING_FEN, result.best_move)


@needs_stockfish
def test_a_movetime_search_ends(stockfish_server):
    with SyncClient(stockfish_server.address) as client, client.open("chess", "stockfish") as s:
        result = s.search(movetime=0.3).wait()
    assert result.stop_reason == "time" and legal(chess.STARTING_FEN, result.best_move)


@needs_stockfish
def test_bad_options_and_games_are_invalid_arguments(stockfish_server):
    with SyncClient(stockfish_server.address) as client:
        with pytest.raises(InvalidArgument, match="outside"):
            client.open("chess", "stockfish", {"Threads": 0})
        with pytest.raises(InvalidArgument, match="fixed by the server's config"):
            client.open("chess", "stockfish", {"EvalFile": "/etc/passwd"})
        with pytest.raises(InvalidArgument, match="the game 'chess'"):
            client.open("connect4", "stockfish")
        with client.open("chess", "stockfish") as session, pytest.raises(InvalidArgument):
            session.set_options(UCI_Elo=99)


@needs_stockfish
def test_the_hash_counts_against_the_memory_budget(stockfish_server):
    # the server's budget is 400 MB: a worker's share plus 350 MB of Hash does not fit
    with SyncClient(stockfish_server.address) as client:
        with pytest.raises(ResourceExhausted, match=f"needs {350 + WORKER_MB} MB"):
            client.open("chess", "stockfish", {"Hash": 350})
        with client.open("chess", "stockfish", {"Hash": 100}) as session:
            assert session.search(depth=4).wait().best_move


# ---------------------------------------------------------------------------- failures


def test_a_crash_fails_the_call_by_name_and_the_next_search_works(fake_server):
    with SyncClient(fake_server.address) as client, client.open("chess", "crashy") as session:
        with pytest.raises(KibitzError) as caught:
            session.search(depth=3).wait()
        assert caught.value.code == grpc.StatusCode.ABORTED
        assert "engine crashy exited (code 3) during the search" in caught.value.message
        assert client.games()  # the server serves on
        assert session.search(depth=3).wait().best_move == "e2e4"  # the engine restarted


def test_an_engine_that_always_crashes_fails_each_call_and_nothing_else(fake_server):
    with SyncClient(fake_server.address) as client:
        for _ in range(2):
            with pytest.raises(KibitzError, match="engine dies exited") as caught:
                client.analyze("chess", engine="dies", depth=2).wait()
            assert caught.value.code == grpc.StatusCode.ABORTED
        assert client.analyze("chess", depth=1).wait().best_move  # a built-in engine


def test_a_hung_engine_fails_the_call_and_the_server_serves_on(fake_server):
    with SyncClient(fake_server.address) as client, client.open("chess", "hangs") as session:
        with pytest.raises(KibitzError) as caught:
            session.search(movetime=0.3).wait()
        assert caught.value.code == grpc.StatusCode.ABORTED
        assert "engine hangs did not answer `stop`" in caught.value.message
        assert session.refresh().searching is False
        assert client.engines()


# ---------------------------------------------------------------------------- bad configs


def serve(*flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*KIBITZ, "serve", "--port", "0", *flags], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "cannot read the engine config"),
        ("[engines.x\n", "is not valid TOML"),
        ('[engines.sf]\ncommand = "/bin/true"\ngame = "chs"', "unknown game 'chs'"),
        ('[engines.alphabeta]\ncommand = "/bin/true"\ngame = "chess"', "taken by a built-in"),
        ('[engines.sf]\ncommand = "/nonexistent/sf"\ngame = "chess"', "cannot start"),
        ('[engines.sf]\ncommand = "/bin/true"\ngame = "chess"', r"exited \(code 0\)"),
    ],
)
def test_a_bad_config_is_one_line_and_exit_code_1(tmp_path, text, message):
    config = tmp_path / "engines.toml"
    if text is not None:
        config.write_text(text)
    done = serve("--config", str(config))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("kibitz: ")
    assert re.search(message, done.stderr), done.stderr


def test_an_engine_that_does_not_start_is_one_line_and_exit_code_1(tmp_path):
    argv, _ = fake_engine(tmp_path, "exit")
    config = tmp_path / "engines.toml"
    config.write_text(engine_table("broken", argv))
    done = serve("--config", str(config))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "exited (code 1): fake: cannot start before answering `uciok`" in done.stderr
