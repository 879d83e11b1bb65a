"""The `uci` engine family without a server: the protocol's parsing and commands, the config
file, the start-up probe, and searches through real processes: a tiny fake engine (every
line it gets is logged; it crashes or hangs on demand) and Debian's Stockfish."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from ucifakes import STOCKFISH, engine_table, fake_engine, needs_stockfish

from kibitz.engines import (
    Bound,
    Clock,
    EngineFailure,
    Limits,
    OptionError,
    ScoreKind,
    StopReason,
    load_engine_config,
)
from kibitz.engines.base import SearchContext
from kibitz.engines.uci import ConfigError, engine_class, read_config
from kibitz.engines.uci import engine as uci_engine
from kibitz.engines.uci.protocol import (
    go_command,
    parse_bestmove,
    parse_info,
    parse_option,
    setoption_command,
    uci_score,
)
from kibitz.games import GAMES
from kibitz.games.chess.game import Chess

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""White mates with Ra8 (a1a8)."""


# ---------------------------------------------------------------------------- protocol


def test_option_lines_become_option_specs():
    threads = parse_option("option name Threads type spin default 1 min 1 max 1024")
    assert (threads.name, threads.type, threads.default) == ("Threads", "spin", 1)
    assert (threads.min, threads.max) == (1, 1024)
    ponder = parse_option("option name Ponder type check default false")
    assert (ponder.type, ponder.default) == ("check", False)
    log = parse_option("option name Debug Log File type string default ")
    assert (log.name, log.type, log.default) == ("Debug Log File", "string", "")
    syzygy = parse_option("option name SyzygyPath type string default <empty>")
    assert syzygy.default == ""
    style = parse_option("option name Style type combo default Normal var Solid var Normal var Odd")
    assert (style.default, style.choices) == ("Normal", ("Solid", "Normal", "Odd"))
    skill = parse_option("option name Skill Level type spin default 20 min 0 max 20")
    assert (skill.name, skill.default) == ("Skill Level", 20)


@pytest.mark.parametrize(
    "line",
    [
        "option name Clear Hash type button",  # buttons hold no value: left out
        "option name Odd type colour default red",
        "option name Broken type spin default many min 1 max 3",
        "option type spin default 1",
    ],
)
def test_option_lines_kibitz_cannot_keep_are_skipped(line):
    assert parse_option(line) is None


def test_info_lines_give_depth_score_nodes_and_line():
    info = parse_info(
        "info depth 12 seldepth 18 multipv 2 score cp -35 upperbound nodes 41207 nps 722900 "
        "hashfull 18 tbhits 0 time 57 pv e2e4 e7e6 d2d4"
    )
    assert (info.depth, info.seldepth, info.multipv) == (12, 18, 2)
    assert (info.nodes, info.nps, info.hashfull, info.time_ms) == (41207, 722900, 18, 57)
    assert info.score.kind == ScoreKind.HEURISTIC and info.score.value == -35
    assert info.score.bound == Bound.UPPER
    assert info.pv == ["e2e4", "e7e6", "d2d4"]
    lower = parse_info("info depth 3 score cp 10 lowerbound wdl 500 300 200 nodes 5 pv a2a3")
    assert lower.score.bound == Bound.LOWER and lower.nodes == 5
    assert (lower.score.win, lower.score.draw, lower.score.loss) == (0.5, 0.3, 0.2)


@pytest.mark.parametrize(
    "line",
    [
        "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
        "info depth 20 currmove e2e4 currmovenumber 1",
        "info nodes 1000 nps 50000 hashfull 3 time 20",
    ],
)
def test_info_lines_without_a_score_have_none(line):
    assert parse_info(line).score is None


@pytest.mark.parametrize(
    ("kind", "value", "expected"),
    [
        ("mate", 1, (ScoreKind.WIN, 0, 1)),
        ("mate", 3, (ScoreKind.WIN, 0, 5)),
        ("mate", -1, (ScoreKind.LOSS, 0, 2)),
        ("mate", -2, (ScoreKind.LOSS, 0, 4)),
        ("cp", 35, (ScoreKind.HEURISTIC, 35, 0)),
        ("cp", -120, (ScoreKind.HEURISTIC, -120, 0)),
    ],
)
def test_uci_scores_become_kibitz_scores(kind, value, expected):
    score = uci_score(kind, value)
    assert (score.kind, score.value, score.plies) == expected


def test_bestmove_lines():
    assert parse_bestmove("bestmove e2e4 ponder e7e5") == ("e2e4", "e7e5")
    assert parse_bestmove("bestmove a7a8q") == ("a7a8q", "")


def test_go_commands_carry_the_limits():
    assert go_command(Limits(depth=8, nodes=5000), 0, 0.1, []) == "go depth 8 nodes 5000"
    # time counts from the request's arrival: 0.2 s are gone; 20 ms stay in reserve
    assert go_command(Limits(movetime=1.0), 0, 0.2, []) == "go movetime 780"
    clock = Clock(time_left=[60.0, 30.0], increment=[1.0, 0.5], moves_to_go=20)
    assert go_command(Limits(clock=clock), 1, 0.25, []) == (
        "go wtime 60000 winc 1000 btime 29750 binc 500 movestogo 20"
    )
    assert go_command(Limits(infinite=True, depth=3), 0, 0.0, ["e2e4", "d2d4"]) == (
        "go infinite searchmoves e2e4 d2d4"
    )
    assert go_command(Limits(solve=True), 0, 0.0, []) == "go infinite"


def test_setoption_commands():
    assert setoption_command("Hash", 64) == "setoption name Hash value 64"
    assert setoption_command("Ponder", True) == "setoption name Ponder value true"
    assert setoption_command("Debug Log File", "") == "setoption name Debug Log File value <empty>"


def test_a_chess_game_tells_its_first_position_and_its_moves():
    game = Chess.from_position("startpos")
    for move in ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"]:
        game.play(game.parse_move(move))
    fen, moves = game.start_and_moves()
    assert fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert moves == ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"]
    assert uci_engine.position_command(game) == f"position fen {fen} moves {' '.join(moves)}"
    assert Chess.from_position(MATE_IN_ONE).start_and_moves() == (MATE_IN_ONE, [])
    other = GAMES["connect4"].from_position("4453")
    assert uci_engine.position_command(other) == f"position fen {other.position()}"


# ---------------------------------------------------------------------------- config


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "engines.toml"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("engines = [", "is not valid TOML"),
        ("", "no engines"),
        ('[engine.sf]\ncommand = "x"', "unknown key 'engine'"),
        ('[engines.SF]\ncommand = "x"\ngame = "chess"', "lower-case word"),
        ('[engines.sf]\ngame = "chess"', "command is missing"),
        ('[engines.sf]\ncommand = "x"', "game is missing"),
        ('[engines.sf]\ncommand = "x"\ngame = "chss"', "unknown game 'chss'"),
        ('[engines.sf]\ncommand = "x"\ngame = "chess"\nargs = "-v"', "args must be a list"),
        ('[engines.sf]\ncommand = "x"\ngame = "chess"\ncmd = "y"', "unknown key 'cmd'"),
        ('[engines.sf]\ncommand = "x"\ngame = "chess"\noptions = { Hash = 1.5 }', "'Hash'"),
    ],
)
def test_bad_configs_are_one_line_errors(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message) as caught:
        read_config(write(tmp_path, text))
    assert "\n" not in str(caught.value)


def test_an_unreadable_config_says_so(tmp_path):
    with pytest.raises(ConfigError, match=r"cannot read the engine config .*No such file"):
        read_config(str(tmp_path / "missing.toml"))


def test_a_relative_command_is_the_configs(tmp_path):
    (entry,) = read_config(write(tmp_path, '[engines.sf]\ncommand = "bin/sf"\ngame = "chess"'))
    assert entry.argv == (str(tmp_path / "bin" / "sf"),)
    (entry,) = read_config(write(tmp_path, '[engines.sf]\ncommand = "sf"\ngame = "chess"'))
    assert entry.argv == ("sf",)  # found on PATH


# ---------------------------------------------------------------------------- start-up


def fake_class(tmp_path: Path, mode: str = "good", extra: str = "", name: str = "fake"):
    """The engine class of the fake engine in `mode`, and its log."""
    argv, log = fake_engine(tmp_path, mode, name)
    (definition,) = load_engine_config(write(tmp_path, engine_table(name, argv, extra=extra)))
    return engine_class(definition), log


def test_the_probe_reads_the_engines_options_with_the_configs_defaults(tmp_path):
    extra = 'options = { hash = 8 }\nfixed = ["Style"]\ndescription = "a fake"'
    engine, log = fake_class(tmp_path, extra=extra)
    specs = {spec.name: spec for spec in engine.option_specs}
    assert list(specs) == ["Hash", "Style", "MultiPV"]  # the button is left out
    assert (specs["Hash"].default, specs["Hash"].min, specs["Hash"].max) == (8, 1, 64)
    assert "the engine's default: 1" in specs["Hash"].description
    assert specs["Style"].choices == ("Solid", "Normal", "Risky")
    assert engine.description == "a fake"
    assert "setoption name Hash value 8" in log.read_text()  # tried at start-up
    assert engine.memory_mb(engine.default_options()) == 8
    assert engine.validate_options({"Style": "Normal"}) == {"Style": "Normal"}
    with pytest.raises(OptionError, match="fixed by the server's config"):
        engine.validate_options({"Style": "Risky"})
    with pytest.raises(OptionError, match=r"outside \[1, 64\]"):
        engine.validate_options({"Hash": 65})


def test_the_engine_plays_only_its_configured_game(tmp_path):
    engine, _ = fake_class(tmp_path)
    assert engine.supports(GAMES["chess"])
    assert not engine.supports(GAMES["connect4"])
    assert "the game 'chess'" in engine.requires.unmet(GAMES["connect4"])[0]


@pytest.mark.parametrize(
    ("mode", "extra", "message"),
    [
        ("exit", "", r"exited \(code 1\): fake: cannot start before answering `uciok`"),
        ("good", "options = { Hashh = 2 }", "no option 'Hashh'"),
        ("good", "options = { Hash = 65 }", r"option Hash: '65' is outside \[1, 64\]"),
        ("good", 'fixed = ["Nope"]', "no option 'Nope'"),
    ],
)
def test_an_engine_that_fails_at_start_up_is_a_config_error(tmp_path, mode, extra, message):
    with pytest.raises(ConfigError, match=message):
        fake_class(tmp_path, mode, extra)


def test_an_engine_that_does_not_answer_uci_is_a_config_error(tmp_path, monkeypatch):
    monkeypatch.setattr(uci_engine, "STARTUP_TIMEOUT", 0.3)
    path = write(tmp_path, '[engines.mute]\ncommand = "/bin/cat"\ngame = "chess"')
    with pytest.raises(ConfigError, match=r"/bin/cat did not answer `uciok` within 0.3 s"):
        load_engine_config(path)


def test_a_missing_program_is_a_config_error(tmp_path):
    path = write(tmp_path, f'[engines.gone]\ncommand = "{tmp_path}/nothing"\ngame = "chess"')
    with pytest.raises(ConfigError, match=r"cannot start .*nothing: No such file"):
        load_engine_config(path)


# ---------------------------------------------------------------------------- searches


def search(engine, state=None, limits=None, context=None):
    state = state or Chess.from_position("startpos")
    return engine.search(state, limits or Limits(depth=2), context or SearchContext())


def test_a_search_sends_the_history_and_the_options_and_answers_every_root_move(tmp_path):
    engine_cls, log = fake_class(tmp_path, extra="options = { Hash = 8 }")
    engine = engine_cls()
    state = Chess.from_position("startpos")
    for move in ["g1f3", "g8f6"]:
        state.play(state.parse_move(move))
    infos = []
    try:
        result = search(engine, state, Limits(depth=2), SearchContext(report=infos.append))
        sent = log.read_text().splitlines()
        assert "setoption name Hash value 8" in sent
        assert f"position fen {Chess.default_position} moves g1f3 g8f6" in sent
        assert "go depth 2" in sent
        assert state.format_move(result.best_move) == "e2e4"
        assert result.stop_reason == StopReason.DEPTH
        assert (result.depth, result.seldepth, result.nodes) == (2, 3, 60)
        assert [state.format_line(r.pv) for r in result.root_moves[:1]] == [["e2e4", "e7e5"]]
        assert result.root_moves[0].score.value == 30
        others = result.root_moves[1:]
        assert len(others) == len(state.legal_moves()) - 1
        assert all(r.score.bound == Bound.UPPER and r.score.value == 30 for r in others)
        assert [info.depth for info in infos] == [1, 2]
        assert all(len(info.root_moves) == len(state.legal_moves()) for info in infos)

        engine.set_options({"Hash": 4})
        engine.new_game()
        clock = Clock(time_left=[60.0, 60.0], increment=[1.0, 1.0], moves_to_go=20)
        search(engine, state, Limits(clock=clock, multipv=3, search_moves=[result.best_move]))
        sent = log.read_text().splitlines()
        assert sent.count("uci") == 2  # one process for the probe, one for both searches
        assert "setoption name Hash value 4" in sent
        assert "setoption name MultiPV value 3" in sent
        assert "ucinewgame" in sent
        go = next(line for line in reversed(sent) if line.startswith("go "))
        assert go.startswith("go wtime ") and "winc 1000" in go and "movestogo 20" in go
        assert go.endswith("searchmoves e2e4")
    finally:
        engine.close()
    assert engine._process is None


def test_a_crash_fails_the_search_by_name_and_the_next_search_restarts_it(tmp_path):
    engine = fake_class(tmp_path, "crash-once", name="crashy")[0]()
    try:
        with pytest.raises(EngineFailure, match=r"engine crashy exited \(code 3\) during"):
            search(engine)
        assert search(engine).best_move is not None
    finally:
        engine.close()


def test_a_hang_is_killed_after_the_deadline_and_a_grace(tmp_path):
    engine = fake_class(tmp_path, "hang", name="hangs")[0]()
    try:
        with pytest.raises(EngineFailure, match="engine hangs did not answer `stop` within"):
            search(engine, limits=Limits(movetime=0.2))
    finally:
        engine.close()


def test_a_stop_ends_an_infinite_search(tmp_path):
    engine, log = fake_class(tmp_path)
    engine = engine()
    stop = threading.Event()
    stop.set()  # a Stop that came while the search was being set up
    try:
        result = search(engine, limits=Limits(infinite=True), context=SearchContext(stop=stop))
    finally:
        engine.close()
    assert result.stop_reason == StopReason.STOPPED and result.best_move is not None
    assert log.read_text().splitlines()[-3:] == ["go infinite", "stop", "quit"]


def test_a_search_that_began_after_its_deadline_ended_for_its_time_despite_a_stop(tmp_path):
    # a loaded machine ran the worker only after the search's deadline, by when the
    # server's backstop stop (sent a margin after that deadline) had come too
    engine, log = fake_class(tmp_path)
    engine = engine()
    stop = threading.Event()
    stop.set()
    context = SearchContext(stop=stop)
    context.started = context.clock() - 1.0
    try:
        result = search(engine, limits=Limits(movetime=0.3), context=context)
    finally:
        engine.close()
    assert result.stop_reason == StopReason.TIME and result.best_move is not None
    assert log.read_text().splitlines()[-2:] == ["stop", "quit"]


# ---------------------------------------------------------------------------- Stockfish


@pytest.fixture(scope="module")
def stockfish(tmp_path_factory):
    if STOCKFISH is None:
        pytest.skip("stockfish is missing (bash scripts/peers.sh installs Debian's stockfish)")
    path = tmp_path_factory.mktemp("stockfish") / "engines.toml"
    path.write_text(engine_table("stockfish", [STOCKFISH], extra="options = { Threads = 1 }"))
    (definition,) = load_engine_config(str(path))
    engine = engine_class(definition)()
    yield engine
    engine.close()


@needs_stockfish
def test_stockfish_declares_its_options(stockfish):
    names = {spec.name for spec in stockfish.option_specs}
    assert {"Threads", "Hash", "MultiPV", "UCI_Elo", "Skill Level"} <= names
    assert "Clear Hash" not in names
    assert "Stockfish" in stockfish.description


@needs_stockfish
def test_stockfish_searches_to_a_depth(stockfish):
    state = Chess.from_position("startpos")
    infos = []
    result = search(stockfish, state, Limits(depth=8), SearchContext(report=infos.append))
    assert result.best_move in state.legal_moves()
    assert result.stop_reason == StopReason.DEPTH and result.depth == 8
    assert [info.depth for info in infos if info.multipv == 1][-1] == 8
    assert all(info.pv and info.score.kind == ScoreKind.HEURISTIC for info in infos)
    assert len(result.root_moves) == 20 and result.root_moves[0].move == result.best_move


@needs_stockfish
def test_stockfish_finds_the_mate_in_one(stockfish):
    state = Chess.from_position(MATE_IN_ONE)
    result = search(stockfish, state, Limits(depth=5))
    assert state.format_move(result.best_move) == "a1a8"
    assert (result.score.kind, result.score.plies) == (ScoreKind.WIN, 1)


@needs_stockfish
def test_stockfish_scores_the_multipv_lines_exactly_and_bounds_the_rest(stockfish):
    state = Chess.from_position("startpos")
    result = search(stockfish, state, Limits(depth=8, multipv=3))
    exact, rest = result.root_moves[:3], result.root_moves[3:]
    assert all(root.score.bound == Bound.EXACT for root in exact)
    assert len({root.move for root in exact}) == 3
    assert len(rest) == 17
    floor = exact[-1].score.value
    assert all(r.score.bound == Bound.UPPER and r.score.value == floor for r in rest)


@needs_stockfish
def test_stockfish_stops_an_infinite_search_at_a_stop(stockfish):
    state = Chess.from_position("startpos")
    stop = threading.Event()
    context = SearchContext(report=lambda info: stop.set(), stop=stop)  # stop at the 1st Info
    result = search(stockfish, state, Limits(infinite=True), context)
    assert result.stop_reason == StopReason.STOPPED
    assert result.best_move in state.legal_moves()


@needs_stockfish
def test_stockfish_keeps_to_a_move_time_and_the_search_moves(stockfish):
    state = Chess.from_position("startpos")
    wanted = [state.parse_move("a2a3"), state.parse_move("h2h3")]
    result = search(stockfish, state, Limits(movetime=0.2, search_moves=wanted))
    assert result.stop_reason == StopReason.TIME
    assert result.best_move in wanted
    assert {root.move for root in result.root_moves} == set(wanted)
