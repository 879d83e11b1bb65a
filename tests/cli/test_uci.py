"""`kibitz uci`, the UCI bridge, hosted by real third-party programs against a `kibitz serve`
subprocess: python-chess's chess.engine (full games with pondering, multi-PV analysis, mate
scores, clocks, stop, options, new games) and Debian's PolyGlot driven in xboard mode. Raw
protocol tests cover what a host must be able to rely on: `bestmove` exactly once per `go`,
commands answered during a search, errors as `info string` lines, other games' notation.
The mapping functions (scores, `position`, `go`, limits, options) are tested directly."""

from __future__ import annotations

import contextlib
import random
import shlex
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest
from servers import KIBITZ, ServerProcess

from kibitz.clients.uci import (
    MIN_TIME_MS,
    Go,
    go_limits,
    option_line,
    parse_go,
    parse_position,
    parse_setoption,
    uci_score,
)
from kibitz.clients.values import Score
from kibitz.v1 import engine_pb2 as pb
from kibitz.vocabulary import Bound, ScoreKind

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#
MATED_IN_ONE = "k7/8/1K6/8/8/8/8/7R b - - 0 1"  # Kb8, then Rh8#
CHECKMATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"  # fool's mate


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    # pondering holds a search slot until the next move: room for two engines and more
    with ServerProcess("--max-searches", "4") as server:
        yield server.address


def uci_command(address: str, *args: str, game: str = "chess") -> list[str]:
    return [*KIBITZ, "--server", address, "uci", "--game", game, *args]


@contextlib.contextmanager
def uci_engine(address: str) -> Iterator[chess.engine.SimpleEngine]:
    """python-chess hosting the bridge. It quits it with `quit` (leaving python-chess's own
    `with` block kills the process, and the session would stay open on the server until
    its idle timeout)."""
    running = chess.engine.SimpleEngine.popen_uci(uci_command(address, "--engine", "alphabeta"))
    try:
        yield running
        running.quit()
    finally:
        running.close()


@pytest.fixture
def engine(address) -> Iterator[chess.engine.SimpleEngine]:
    with uci_engine(address) as running:
        yield running


class Uci:
    """`kibitz uci` in a subprocess, driven line by line (reads block; the test's timeout
    guards them)."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def send(self, *lines: str) -> None:
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix: str, count: int = 1) -> list[str]:
        """The lines up to and including the `count`-th that starts with `prefix`."""
        lines = []
        while count:
            line = self.process.stdout.readline()
            assert line, f"the bridge ended: {lines} {self.process.stderr.read()}"
            lines.append(line.rstrip("\n"))
            count -= line.startswith(prefix)
        return lines

    def quit(self, command: str = "quit") -> tuple[int, str]:
        """`quit`; the exit code and the rest of the output."""
        out, _ = self.process.communicate(command + "\n", timeout=60)
        return self.process.returncode, out

    def __enter__(self) -> Uci:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:  # the test failed half-way
            self.process.kill()
            self.process.communicate(timeout=60)


@pytest.fixture
def uci(address) -> Iterator[Uci]:
    with Uci(uci_command(address, "--engine", "alphabeta")) as bridge:
        bridge.send("uci")
        bridge.read_until("uciok")
        yield bridge
        assert bridge.quit()[0] == 0


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


# ---------------------------------------------------------------------------- mapping


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("score", "text"),
    [
        (Score(ScoreKind.HEURISTIC, centi=35), "cp 35"),
        (Score(ScoreKind.HEURISTIC, centi=-120), "cp -120"),
        (Score(ScoreKind.DRAW), "cp 0"),
        (Score(ScoreKind.WIN, plies=1), "mate 1"),
        (Score(ScoreKind.WIN, plies=3), "mate 2"),
        (Score(ScoreKind.LOSS, plies=2), "mate -1"),
        (Score(ScoreKind.LOSS, plies=4), "mate -2"),
        (Score(ScoreKind.LOSS, plies=0), "mate 0"),
        (Score(ScoreKind.HEURISTIC, centi=20, bound=Bound.LOWER), "cp 20 lowerbound"),
        (Score(ScoreKind.WIN, plies=5, bound=Bound.UPPER), "mate 3 upperbound"),
    ],
)
def test_scores_map_to_uci(score, text):
    assert uci_score(score) == text


def test_position_commands_keep_the_games_own_text():
    assert parse_position(["startpos"]) == ("", "")
    assert parse_position(words("startpos moves e2e4 e7e5")) == ("", "e2e4 e7e5")
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    assert parse_position(["fen", *fen.split(), "moves", "a1a8"]) == (fen, "a1a8")
    assert parse_position(words("fen 4453 moves 3 3")) == ("4453", "3 3")
    pig = "12-7 +5 1 goal=20 moves=9/40"  # "moves=..." is part of the position
    assert parse_position(["fen", *pig.split(), "moves", "hold"]) == (pig, "hold")
    for bad in ([], ["fen"], ["startpos", "e2e4"], ["sideways"]):
        with pytest.raises(ValueError):
            parse_position(bad)


def test_setoption_names_and_values_may_have_spaces():
    assert parse_setoption(words("name Move Overhead value 250")) == ("Move Overhead", "250")
    assert parse_setoption(words("name Clear Hash")) == ("Clear Hash", "")
    with pytest.raises(ValueError):
        parse_setoption(["value", "3"])


def test_go_reads_every_parameter_and_skips_bad_ones():
    go, problems = parse_go(
        words(
            "wtime 60000 btime 50000 winc 1000 binc 900 movestogo 20 depth 8 nodes 1000 "
            "movetime 500 mate 3 searchmoves e2e4 d2d4 ponder infinite"
        )
    )
    assert problems == []
    assert go == Go(
        wtime=60000, btime=50000, winc=1000, binc=900, movestogo=20, depth=8, nodes=1000,
        movetime=500, mate=3, infinite=True, ponder=True, searchmoves=["e2e4", "d2d4"],
    )  # fmt: skip
    go, problems = parse_go(words("depth x sideways nodes 50"))
    assert go == Go(nodes=50, skipped=True) and len(problems) == 2


@pytest.mark.parametrize(
    "text",
    ["wtime abc", "depth -5", "movetime 1e99", "nodes 1.5", "mate 0", "winc -1",
     "depth " + "9" * 40, "movestogo", "depth ٣", "sideways"],
)  # fmt: skip
def test_a_go_parameter_it_cannot_read_is_ignored_saying_so(text):
    go, problems = parse_go(words(text))
    assert go.skipped and len(problems) == 1 and problems[0].endswith("; ignored")
    assert repr(text.split()[-1]) in problems[0] or text == "movestogo"
    limits = go_limits(go)  # nothing usable left: the server's default move time
    assert not limits.infinite and limits.depth is None and limits.movetime is None
    assert limits.time_left == () and limits.nodes is None


def test_the_rest_of_a_go_with_a_bad_parameter_still_counts():
    go, problems = parse_go(words("depth -5 movetime 300 wtime x infinite"))
    assert len(problems) == 2 and go.movetime == 300 and go.depth is None and go.infinite
    assert go_limits(parse_go(words("depth -5 nodes 10"))[0]).nodes == 10
    assert parse_go(words("wtime -50 btime 9000"))[1] == []  # a clock may run below zero


def test_limits_keep_move_overhead_and_the_round_trip_off_the_clock():
    go = Go(wtime=10_000, btime=8_000, winc=100, movestogo=5)
    limits = go_limits(go, reserve=0.15, round_trip=0.05)
    assert limits.time_left == pytest.approx((9.85, 7.85))
    assert limits.increment == (0.1, 0.0) and limits.moves_to_go == 5
    spent = go_limits(go, reserve=0.15, spent=1.0)  # e.g. the time since ponderhit
    assert spent.time_left == pytest.approx((8.85, 6.85))
    floor = MIN_TIME_MS / 1000
    assert go_limits(Go(wtime=50), reserve=0.1).time_left == (floor, floor)
    movetime = go_limits(Go(movetime=1000), reserve=5.0, round_trip=0.02)
    assert movetime.movetime == pytest.approx(0.98)  # only the round trip
    assert go_limits(Go(movetime=5), round_trip=0.02).movetime == floor


def test_limits_of_mate_infinite_ponder_and_a_bare_go():
    assert go_limits(Go(mate=3)).depth == 5
    assert go_limits(Go(mate=3, depth=2)).depth == 2
    assert go_limits(Go(infinite=True, depth=4)).infinite
    assert go_limits(Go()).infinite  # no limit: until stopped
    pondering = go_limits(Go(wtime=1000, searchmoves=["e2e4"]), multipv=3, infinite=True)
    assert pondering.infinite and pondering.multipv == 3 and pondering.search_moves == ("e2e4",)


def test_options_are_written_as_uci_declares_them():
    spin = pb.OptionInfo(name="Hash", type="spin", default="16", min=0, max=4096)
    assert option_line(spin) == "option name Hash type spin default 16 min 0 max 4096"
    check = pb.OptionInfo(name="PVS", type="check", default="true")
    assert option_line(check) == "option name PVS type check default true"
    combo = pb.OptionInfo(name="RAVE", type="combo", default="auto", choices=["auto", "on"])
    assert option_line(combo) == "option name RAVE type combo default auto var auto var on"
    text = pb.OptionInfo(name="Book", type="string", default="")
    assert option_line(text) == "option name Book type string default <empty>"


# ---------------------------------------------------------------------------- python-chess


def test_two_bridges_play_a_full_game_with_pondering(address):
    """Each side its own bridge and session; python-chess ponders on the expected reply and
    sends ponderhit when it comes, stop when it does not."""
    with uci_engine(address) as white, uci_engine(address) as black:
        board = chess.Board()
        while not board.is_game_over(claim_draw=True):
            player = white if board.turn == chess.WHITE else black
            result = player.play(board, chess.engine.Limit(depth=2), ponder=True)
            assert result.move in board.legal_moves
            board.push(result.move)
    assert board.outcome(claim_draw=True) is not None


def test_the_engine_beats_a_random_mover_to_the_end(engine):
    chooser = random.Random(7)
    board = chess.Board()
    while not board.is_game_over(claim_draw=True):
        if board.turn == chess.WHITE:
            move = engine.play(board, chess.engine.Limit(depth=2)).move
            assert move in board.legal_moves
        else:
            move = chooser.choice(list(board.legal_moves))
        board.push(move)
    assert board.outcome(claim_draw=True).winner is not chess.BLACK


def test_multipv_analysis_gives_as_many_lines(engine):
    board = chess.Board()
    board.push_uci("e2e4")
    lines = engine.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    assert [line["multipv"] for line in lines] == [1, 2, 3]
    assert all(line["depth"] == 3 and "score" in line for line in lines)
    firsts = [line["pv"][0] for line in lines]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)


def test_mate_scores_count_moves_from_the_side_to_move(engine):
    board = chess.Board(MATE_IN_ONE)
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["score"].white().mate() == 1
    board.push(engine.play(board, chess.engine.Limit(depth=3)).move)
    assert board.is_checkmate()
    losing = engine.analyse(chess.Board(MATED_IN_ONE), chess.engine.Limit(depth=3))
    assert losing["score"].relative == chess.engine.Mate(-1)


def test_play_under_a_clock_answers(engine):
    board = chess.Board()
    clock = chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.1, black_inc=0.1)
    result = engine.play(board, clock)
    assert result.move in board.legal_moves
    assert result.info.get("time", 0) < 2  # the engine's own account: within the clock
    # a clock smaller than the Move Overhead is forwarded at the floor, still answered
    engine.configure({"Move Overhead": 500})
    board.push(result.move)
    short = chess.engine.Limit(white_clock=0.3, black_clock=0.3)
    assert engine.play(board, short).move in board.legal_moves


def test_stop_ends_an_infinite_analysis(engine):
    board = chess.Board()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
    best = analysis.wait()
    assert best.move in board.legal_moves
    assert engine.play(board, chess.engine.Limit(depth=1)).move in board.legal_moves


def test_new_games_and_options_through_python_chess(engine):
    board = chess.Board()
    engine.configure({"Hash": 8, "NullMove": False})
    first = engine.play(board, chess.engine.Limit(depth=2), game="one")
    second = engine.play(board, chess.engine.Limit(depth=2), game="two")  # ucinewgame
    assert first.move in board.legal_moves and second.move in board.legal_moves


# ---------------------------------------------------------------------------- the protocol


def test_uci_lists_the_engine_and_bridge_options_and_the_round_trip(address):
    with Uci(uci_command(address, "--engine", "alphabeta")) as bridge:
        bridge.send("uci")
        lines = bridge.read_until("uciok")
        assert "id name kibitz alphabeta (chess)" in lines[0]
        assert "option name Hash type spin default 16 min 0 max 4096" in lines
        assert "option name MultiPV type spin default 1 min 1 max 500" in lines
        assert "option name Move Overhead type spin default 100 min 0 max 5000" in lines
        assert "option name Ponder type check default false" in lines
        bridge.send("isready")
        ready = bridge.read_until("readyok")
        assert any(line.startswith("info string round trip to ") for line in ready), ready
        assert bridge.quit()[0] == 0


def test_bad_options_are_info_strings_not_a_crash(uci):
    uci.send(
        "setoption name Hash value banana",
        "setoption name Nonsense value 3",
        "setoption name MultiPV value 0",
        "setoption name Move Overhead value lots",
        "setoption name Ponder value maybe",
        "setoption name Hash value 8",
        "setoption",
        "isready",
    )
    lines = uci.read_until("readyok")
    assert len(errors(lines)) == 6, lines
    assert any("Hash" in line and "banana" in line for line in errors(lines))
    uci.send("position startpos", "go depth 1")
    assert bestmoves(uci.read_until("bestmove")) != ["(none)"]


def test_isready_and_stop_are_answered_during_a_search(uci):
    uci.send("position startpos", "go infinite")
    uci.read_until("info depth")
    uci.send("isready")
    assert bestmoves(uci.read_until("readyok")) == []  # still searching
    uci.send("stop")
    (move,) = bestmoves(uci.read_until("bestmove"))
    assert chess.Move.from_uci(move) in chess.Board().legal_moves


def test_commands_sent_during_a_search_wait_for_its_bestmove(uci):
    uci.send("position startpos", "go infinite")
    uci.read_until("info depth")
    uci.send("position startpos moves e2e4", "isready")
    assert not bestmoves(uci.read_until("readyok"))  # answered during the search
    uci.send("stop", "go depth 2")
    first, second = bestmoves(uci.read_until("bestmove", count=2))
    board = chess.Board()
    assert chess.Move.from_uci(first) in board.legal_moves
    board.push_uci("e2e4")  # the position waited for the first bestmove, then applied
    assert chess.Move.from_uci(second) in board.legal_moves


def test_ponderhit_turns_the_ponder_search_into_the_real_one(uci):
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")  # the ponder move: the last of `position`
    uci.send("position startpos moves e2e4 e7e5", "go ponder wtime 5000 btime 5000 depth 3")
    uci.read_until("info depth")
    uci.send("ponderhit")
    (move,) = bestmoves(uci.read_until("bestmove"))
    assert chess.Move.from_uci(move) in board.legal_moves


def test_stop_while_pondering_answers_from_the_ponder_search(uci):
    board = chess.Board()
    board.push_uci("d2d4")
    uci.send("position startpos moves d2d4", "go ponder movetime 100")
    uci.read_until("info depth")
    uci.send("stop")
    (move,) = bestmoves(uci.read_until("bestmove"))
    assert chess.Move.from_uci(move) in board.legal_moves


def test_every_go_gets_exactly_one_bestmove(uci):
    for _ in range(3):
        uci.send("position startpos", "go infinite", "stop")
    uci.send("position startpos moves e2e5", "go depth 2")  # illegal: an error
    uci.send(f"position fen {CHECKMATED}", "go depth 2")  # no legal move
    uci.send("position startpos", "go depth 1")
    lines = uci.read_until("bestmove", count=6)
    uci.send("isready")
    lines += uci.read_until("readyok")
    assert len(bestmoves(lines)) == 6
    assert bestmoves(lines)[3:5] == ["(none)", "(none)"]


def test_server_errors_are_info_strings_and_bestmove_none(uci):
    uci.send("position startpos moves e2e4 e2e4", "go depth 2")
    lines = uci.read_until("bestmove")
    assert errors(lines) == [
        "info string error: moves: move 2 ('e2e4'): e2e4 is not a legal move here"
    ]
    assert bestmoves(lines) == ["(none)"]
    uci.send(f"position fen {CHECKMATED}", "go depth 2")
    lines = uci.read_until("bestmove")
    assert "info depth 0 score mate 0" in lines
    assert any("game over" in line and "checkmate" in line for line in lines)
    assert bestmoves(lines) == ["(none)"]
    uci.send("ucinewgame", "position startpos", "go depth 1")  # the bridge goes on
    assert bestmoves(uci.read_until("bestmove")) != ["(none)"]


def test_other_games_speak_uci_in_their_own_notation(address):
    with Uci(uci_command(address, game="connect4")) as bridge:
        bridge.send("uci", "setoption name MultiPV value 2", "position startpos moves 4 4 5 3")
        bridge.send("go depth 4")
        lines = bridge.read_until("bestmove")
        assert {line.split(" multipv ")[1][0] for line in lines if " multipv " in line} == {
            "1",
            "2",
        }
        (move,) = bestmoves(lines)
        assert move in list("1234567")
        bridge.send("position fen 4453 moves 3", "go depth 2 searchmoves 1 2")
        assert bestmoves(bridge.read_until("bestmove"))[0] in ("1", "2")
        assert bridge.quit()[0] == 0


def test_an_unknown_engine_is_reported_and_every_go_answered(address):
    with Uci(uci_command(address, "--engine", "nosuch")) as bridge:
        bridge.send("uci")
        lines = bridge.read_until("uciok")
        assert any("unknown engine 'nosuch'" in line for line in errors(lines))
        bridge.send("position startpos", "go depth 1")
        assert bestmoves(bridge.read_until("bestmove")) == ["(none)"]
        assert bridge.quit()[0] == 0


def test_a_session_the_server_closed_is_opened_again():
    with (
        ServerProcess() as server,
        Uci(uci_command(server.address, "--engine", "alphabeta")) as bridge,
    ):
        bridge.send("uci")
        bridge.read_until("uciok")
        closing = subprocess.run(
            [*KIBITZ, "--server", server.address, "sessions", "close", "--all"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert closing.stdout.startswith("closed "), closing.stderr
        bridge.send("position startpos", "go depth 1")
        lines = bridge.read_until("bestmove")
        assert "info string the server had closed the session; opened a new one" in lines
        assert bestmoves(lines) != ["(none)"]
        assert bridge.quit()[0] == 0


def test_no_server_at_start_is_one_line_and_exit_code_1():
    with socket.socket() as probe:  # a free port: nobody listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = subprocess.run(
        uci_command(f"127.0.0.1:{port}"), input="uci\n", capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 1
    assert run.stderr.startswith("kibitz: no server answers at 127.0.0.1:")
    assert len(run.stderr.splitlines()) == 1 and run.stdout == ""


# ---------------------------------------------------------------------------- PolyGlot


def polyglot() -> str | None:
    found = shutil.which("polyglot")
    if found is None and Path("/usr/games/polyglot").is_file():
        found = "/usr/games/polyglot"
    return found


@pytest.mark.skipif(
    polyglot() is None,
    reason="polyglot is missing (bash scripts/peers.sh installs Debian's polyglot)",
)
def test_polyglot_hosts_the_bridge_in_xboard_mode(address, tmp_path):
    """PolyGlot translates xboard to UCI: it reads the options, sets those of its ini,
    times the game with a clock and a depth, and plays the moves the bridge answers."""
    command = " ".join(shlex.quote(word) for word in uci_command(address, "--engine", "alphabeta"))
    ini = tmp_path / "kibitz.ini"
    ini.write_text(
        "[PolyGlot]\n"
        f"EngineCommand = {command}\n"
        f"EngineDir = {tmp_path}\n"
        "Book = false\n"
        "[Engine]\n"
        "Hash = 8\n"
        "Move Overhead = 50\n"
    )
    with Uci([polyglot(), str(ini)]) as host:
        host.send("xboard", "protover 2")
        features = host.read_until("feature done=1")
        assert 'feature myname="kibitz alphabeta (chess)"' in features
        assert 'feature option="Move Overhead -spin 50 0 5000"' in features
        board = chess.Board()
        host.send("new", "level 0 1 0", "sd 3", "post", "force")
        for _ in range(2):
            reply = next(move for move in board.legal_moves)
            board.push(reply)
            host.send(f"usermove {reply.uci()}", "time 6000", "otim 6000", "go")
            answer = host.read_until("move ")[-1].split()[1]
            assert chess.Move.from_uci(answer) in board.legal_moves
            board.push_uci(answer)
            host.send("force")
        host.send("analyze")  # go infinite, until exit (stop)
        host.read_until("1 ")
        host.send("exit", "ping 9")
        host.read_until("pong 9")
        assert host.quit()[0] == 0
