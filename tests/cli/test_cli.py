"""The `kibitz` command, run for real in subprocesses against a `kibitz serve` subprocess."""

from __future__ import annotations

import importlib.metadata
import json
import os
import random
import re
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from endplay.dds import calc_dd_table
from endplay.dds import par as dds_par
from endplay.types import Deal, Player, Vul
from servers import KIBITZ, ServerProcess

from kibitz import __version__ as kibitz_version
from kibitz.server.cli import serve_banner


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with ServerProcess() as server:
        yield server.address


def kibitz(address: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [*KIBITZ, "--server", address, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_games_lists_every_game(address):
    out = kibitz(address, "games").stdout
    for name in ("tictactoe", "nim", "misere-nim", "connect4", "hex"):
        assert re.search(rf"^{name}\s", out, re.MULTILINE)


def test_engines_shows_options(address):
    out = kibitz(address, "engines").stdout
    assert "alphabeta" in out and "option Hash (spin" in out


def test_analyse_prints_progress_and_a_table(address):
    run = kibitz(address, "analyse", "connect4", "--moves", "4453", "--depth", "6")
    assert run.returncode == 0, run.stderr
    depths = re.findall(r"^depth\s+(\d+)", run.stdout, re.MULTILINE)
    assert depths and int(depths[-1]) == 6
    assert re.search(r"^best move [1-7]\s", run.stdout, re.MULTILINE)
    table_moves = re.findall(r"^  ([1-7])\s", run.stdout, re.MULTILINE)
    assert sorted(table_moves) == list("1234567")


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_analyse_json_streams_one_line_per_message_with_the_result_last(address):
    run = kibitz(address, "analyse", "tictactoe", "xx./oo./... x", "--depth", "9", "--json")
    assert run.returncode == 0, run.stderr
    *infos, last = json_lines(run.stdout)
    result = last["result"]
    assert result["bestMove"] == "c3" and result["stoppedBy"] == "SOLVED"
    assert result["score"]["kind"] == "WIN" and result["score"]["plies"] == 1
    assert infos and all(list(line) == ["info"] for line in infos)
    assert [line["info"]["depth"] for line in infos] == sorted(
        line["info"]["depth"] for line in infos
    )
    assert all(line["info"]["rootMoves"] == [] for line in infos)  # not asked for


def test_analyse_root_moves_with_every_progress_line(address):
    flags = ("analyse", "connect4", "--moves", "4453", "--depth", "4", "--root-moves")
    run = kibitz(address, *flags)
    assert run.returncode == 0, run.stderr
    progress = run.stdout.split("\n\n")[0].splitlines()
    assert len(progress) == 2 * 4  # depths 1-4, each with its root moves below
    for line, roots in zip(progress[::2], progress[1::2], strict=True):
        assert line.startswith("depth")
        pairs = re.findall(r"([1-7]) ((?:<=|>=)?[+-]\d+\.\d\d)", roots)
        assert roots.startswith(" ") and sorted(move for move, _ in pairs) == list("1234567")
    infos = json_lines(kibitz(address, *flags, "--json").stdout)[:-1]
    assert len(infos) == 4
    for line in infos:
        assert sorted(root["move"] for root in line["info"]["rootMoves"]) == list("1234567")


def test_analyze_is_an_alias_and_help_is_clean(address):
    run = kibitz(address, "analyze", "tictactoe", "xx./oo./... x", "--depth", "2")
    assert run.returncode == 0 and re.search(r"^best move c3\s", run.stdout, re.MULTILINE)
    help_text = kibitz(address, "--help").stdout
    assert "analyse (analyze)" in help_text and "SUPPRESS" not in help_text


def test_version_is_the_installed_packages():
    """pyproject.toml reads the version from kibitz.__version__: the installed metadata,
    the module and the command agree."""
    run = subprocess.run([*KIBITZ, "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == f"kibitz {importlib.metadata.version('kibitz')}\n"
    assert importlib.metadata.version("kibitz") == kibitz_version


def test_games_verbose_shows_default_engines_and_capabilities(address):
    out = kibitz(address, "games", "-v").stdout
    connect4 = out[out.index("connect4") : out.index("misere-nim")]
    assert "default engine: alphabeta" in connect4
    assert "capabilities: hash keys (key())" in connect4


def test_games_lines_up_every_name_and_counts_one_player(address):
    out = kibitz(address, "games").stdout
    lines = out.splitlines()
    titles = {line.split()[0]: line for line in lines if not line.startswith(" ")}
    width = max(map(len, titles))  # the longest name, phantom-tictactoe
    assert width == len("phantom-tictactoe")
    assert titles["sliding-puzzle"] == f"{'sliding-puzzle':<{width}} Sliding puzzle (1 player)"
    assert titles["chess"].startswith(f"{'chess':<{width}} Chess (2 players)")
    assert titles["chinese-checkers"].endswith("Chinese checkers (3 players)")
    starts = [line for line in lines if line.lstrip().startswith("start:")]
    assert {line.index("start:") for line in starts} == {width + 1}


def test_games_verbose_explains_the_hex_board_size_and_the_swap(address):
    out = kibitz(address, "games", "-v").stdout
    hex_game = out[out.index("\nhex ") : out.index("\nmisere-nim ")]
    assert "Hex (2 players)" in hex_game
    assert "a board size 1-19 alone for the empty board" in hex_game
    assert "'7 swap'" in hex_game and "capabilities: hash keys (key())" in hex_game


def test_analyse_hex_on_a_3x3_board_answers_a_cell(address):
    run = kibitz(address, "analyse", "hex", "3", "--depth", "4")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^best move [a-c][1-3]\s", run.stdout, re.MULTILINE)
    table_moves = re.findall(r"^  ([a-c][1-3])\s", run.stdout, re.MULTILINE)
    assert sorted(table_moves) == [f"{c}{r}" for c in "abc" for r in "123"]


def test_bad_input_is_one_clear_line(address):
    run = kibitz(address, "analyse", "connect4", "--moves", "448", "--depth", "2")
    assert run.returncode == 1
    assert "move 3" in run.stderr and "Traceback" not in run.stderr
    run = kibitz(address, "analyse", "go", "--depth", "2")
    assert run.returncode == 1 and "unknown game 'go'" in run.stderr
    assert "`kibitz games` lists all" in run.stderr
    run = kibitz(address, "analyse", "sudoko", "--depth", "2")  # a typo: the likely game named
    assert run.returncode == 1 and "unknown game 'sudoko'; did you mean sudoku?" in run.stderr


def test_no_server_says_how_to_start_one():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = kibitz(f"127.0.0.1:{port}", "games")
    assert run.returncode == 3
    assert run.stderr.count("\n") == 1 and "kibitz serve" in run.stderr


def test_play_tictactoe_answers_illegal_input_and_finishes(address):
    # The engine (second) can always draw; we play until the game ends or we run out of
    # moves, trying every cell in order so some attempts are illegal.
    tries = "\n".join(["zz", "moves", *[f"{c}{r}" for r in "123" for c in "abc"] * 2]) + "\n"
    run = kibitz(address, "play", "tictactoe", "--depth", "9", stdin=tries)
    assert run.returncode == 0, run.stderr
    assert "rejected: " in run.stdout
    assert "legal moves:" in run.stdout
    assert "engine plays" in run.stdout
    assert "game over" in run.stdout


def test_analyse_before_the_roll_lists_every_outcome_with_its_chance(address):
    run = kibitz(address, "analyse", "pig", "3-5 +2 2 roll goal=20 moves=4/12", "--depth", "2")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^before the roll   score [+-]\d\.\d{3}", run.stdout, re.MULTILINE)
    rows = re.findall(r"^  ([1-6])\s+[+-]\d\.\d{3}\s+16\.7%  \1 ", run.stdout, re.MULTILINE)
    assert rows == list("123456")


def test_analyse_backgammon_lists_every_play_with_its_equity(address):
    run = kibitz(address, "analyse", "backgammon", "4HPwATDgc/ABMA:31", "--depth", "1")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^best move 8/5 6/5   score [+-]\d\.\d{3}", run.stdout, re.MULTILINE)
    rows = re.findall(r"^  (\S+(?: \S+)?)\s+([+-]\d\.\d{3})  ", run.stdout, re.MULTILINE)
    assert len(rows) == 16 and rows[0][0] == "8/5 6/5"  # every play, exact (no <=)
    before = kibitz(address, "analyse", "backgammon", "4HPwATDgc/ABMA", "--depth", "1")
    assert re.search(r"^before the roll   score", before.stdout, re.MULTILINE)
    assert len(re.findall(r"^  \d\d:\s", before.stdout, re.MULTILINE)) == 21


def test_play_backgammon_rolls_shows_the_board_and_answers(address):
    # seed 4: the human (first) rolls 4-2, plays the standard 8/4 6/4, the engine replies
    run = kibitz(address, "play", "backgammon", "--depth", "1", "--seed", "4",
                 stdin="8/4 6/4\nquit\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "you rolled 42:" in run.stdout and "Position ID 4HPwATDgc/ABMA" in run.stdout
    assert re.search(r"^engine rolled \d\d:$", run.stdout, re.MULTILINE)
    assert re.search(r"^engine plays \S", run.stdout, re.MULTILINE)
    assert "rejected" not in run.stdout


def test_play_rolls_the_dice_for_both_sides_from_a_seed(address):
    def game(seed: str) -> subprocess.CompletedProcess:
        holds = "hold\n" * 40  # the human always holds; the engine thinks
        args = ("play", "pig", "0-0 +0 1 goal=10 moves=0/30", "--depth", "3", "--seed", seed)
        return kibitz(address, *args, stdin=holds)

    first, again, other = game("7"), game("7"), game("8")
    assert first.returncode == 0, first.stderr
    assert re.search(r"^engine rolled [1-6]$", first.stdout, re.MULTILINE)
    assert "game over" in first.stdout
    assert first.stdout == again.stdout != other.stdout


def test_play_kuhn_poker_shows_your_card_alone_until_the_showdown(address):
    run = kibitz(address, "play", "kuhn-poker", "--engine", "cfr", "--seed", "5",
                 stdin="moves\nr\nc\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "you see your view only" in run.stdout
    seen, full = run.stdout.split("the full game:")
    assert re.search(r"^dealt: [JQK]$", seen, re.MULTILINE)  # your card
    assert re.search(r"^dealt: \?$", seen, re.MULTILINE)  # the engine's
    assert set(re.findall(r"^player 2: (.),", seen, re.MULTILINE)) == {"?"}
    assert "legal moves: c | r" in seen
    assert re.search(r"^player 2: [JQK], in for \d$", full, re.MULTILINE)
    assert "game over: " in full


def test_play_phantom_tictactoe_hides_the_engines_marks(address):
    cells = "\n".join(f"{c}{r}" for r in "123" for c in "abc")  # some bump into x's marks
    run = kibitz(address, "play", "phantom-tictactoe", "--you", "second", "--nodes", "200",
                 stdin=cells + "\n")  # fmt: skip
    assert run.returncode == 0, run.stderr
    seen, full = run.stdout.split("the full game:")
    views = re.findall(r"^o's view\n((?:\d .*\n){3})", seen, re.MULTILINE)
    assert views and views[0].count("x") == 0  # x moved first, unseen
    assert "engine plays" not in seen  # its marks are never announced
    assert full.count("x") >= 3 and "game over: " in full


def test_sigterm_answers_running_searches_then_exits():
    server = ServerProcess()
    analyse = subprocess.Popen(
        [*KIBITZ, "--server", server.address, "analyse", "connect4", "--infinite"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert analyse.stdout.readline().startswith("depth")  # the search is running
    exit_code = server.stop()  # SIGTERM
    out, err = analyse.communicate(timeout=60)
    assert analyse.returncode == 0, err
    assert re.search(r"^best move [1-7]\s", out, re.MULTILINE)
    assert exit_code == 0


def test_server_flag_defaults_to_env(address):
    env = {**os.environ, "KIBITZ_SERVER": address}
    run = subprocess.run([*KIBITZ, "games"], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0 and "connect4" in run.stdout


def test_ctrl_c_stops_an_infinite_analysis_and_prints_its_result(address):
    analyse = subprocess.Popen(
        [*KIBITZ, "analyse", "connect4", "--infinite", "--server", address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a suite started in the background (`cmd &`) ignores SIGINT,
        # and its children would inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert analyse.stdout.readline().startswith("depth")  # the search is running
    analyse.send_signal(signal.SIGINT)
    out, err = analyse.communicate(timeout=60)
    assert analyse.returncode == 0, err
    assert "Traceback" not in err and "stopping the search" in err
    assert re.search(r"^best move [1-7] .*\(stopped\)$", out, re.MULTILINE)


@pytest.mark.parametrize(
    ("flags", "complaint"),
    [
        (["--depth", "0"], "must be at least 1"),
        (["--nodes", "-5"], "must be at least 1"),
        (["--movetime", "nan"], "non-negative number"),
        (["--multipv", "x"], "not an integer"),
    ],
)
def test_absurd_numbers_are_refused_before_sending(address, flags, complaint):
    run = kibitz(address, "analyse", "tictactoe", *flags)
    assert run.returncode == 2 and complaint in run.stderr and "Traceback" not in run.stderr


def test_the_readme_serve_command_starts_a_server_and_passes_its_flags():
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        ["bash", str(root / "scripts" / "serve.sh"), "--port", "0", "--max-sessions", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = iter(process.stdout)
        for line in lines:
            match = re.search(r"serving on (\S+:\d+)", line)
            if match:
                assert "max 3 sessions" in line
                break
        else:
            raise AssertionError(f"serve.sh ended without serving (exit {process.wait()})")
        # then how to query it: the bound port, not the default one
        banner = [next(lines) for _ in range(4)]
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    assert process.returncode == 0
    address = match.group(1)
    assert banner[0].startswith(f"kibitz is listening on {address} ")
    assert re.fullmatch(rf"  \S*kibitz --server {address} games\n", banner[1]), banner
    assert all(f" --server {address} " in line for line in banner[1:])


def test_the_serve_banner_names_the_server_unless_it_is_the_default():
    assert "--server" not in serve_banner("127.0.0.1", 50051)
    anywhere = serve_banner("0.0.0.0", 6000)  # clients connect to the wildcard via loopback
    assert anywhere.startswith("kibitz is listening on 0.0.0.0:6000 ")
    assert re.search(r"^  \S*kibitz --server 127.0.0.1:6000 games$", anywhere, re.MULTILINE)


def test_analyse_chess_writes_san_and_mates_in_moves(address):
    run = kibitz(address, "analyse", "chess", "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "--depth", "4")
    assert run.returncode == 0, run.stderr
    assert re.search(r"^best move Ra6\s+score mate in 2\s", run.stdout, re.MULTILINE)
    assert re.search(r"^  Ra6\s+mate in 2  Ra6 bxa6 b7#$", run.stdout, re.MULTILINE)


def test_play_a_sliding_puzzle_alone_with_a_hint(address):
    # the blank one step below its goal corner: `hint` names U, and U solves it
    run = kibitz(address, "play", "sliding-puzzle", "3,1,2,0,4,5,6,7,8", stdin="hint\nD\nU\nU\n")
    assert run.returncode == 0, run.stderr
    assert "you play alone" in run.stdout
    assert "hint: U  (solved in 1 move)" in run.stdout
    assert "engine plays" not in run.stdout
    assert run.stdout.rstrip().endswith("game over: the puzzle is solved")


def test_analyse_solves_an_eight_puzzle_optimally(address):
    run = kibitz(address, "analyse", "sliding-puzzle", "1,5,3,4,0,2,7,6,8", "--solve")
    assert run.returncode == 0, run.stderr
    assert "solved in 20 moves" in run.stdout and "(solved)" in run.stdout
    last_iteration = [line for line in run.stdout.splitlines() if line.startswith("depth 20")]
    assert len(last_iteration[0].split(" pv ")[1].split()) == 20  # the whole solution
    solved = run.stdout.split("solved:\n", 1)[1].split()
    assert solved == [".", "1", "2", "3", "4", "5", "6", "7", "8"]  # the goal, blank first


def test_play_a_sudoku_alone_with_a_hint(address):
    run = kibitz(
        address, "play", "sudoku", "12.4341.2143432.", stdin="hint\nr1c3=3\nr2c4=2\nr4c4=1\n"
    )
    assert run.returncode == 0, run.stderr
    hint = run.stdout.split("hint: ", 1)[1].splitlines()[0]  # after the prompt
    assert hint.split()[0] in ("r1c3=3", "r2c4=2", "r4c4=1")
    assert hint.endswith("(solved in 3 assignments)")
    assert run.stdout.rstrip().endswith("game over: solved")


def test_analyse_solves_a_sudoku_and_prints_the_grid(address):
    run = kibitz(address, "analyse", "sudoku", "12.4341.2143432.", "--solve")
    assert run.returncode == 0, run.stderr
    assert "solved in 3 assignments" in run.stdout
    grid = run.stdout.split("solved:\n", 1)[1]
    assert [char for char in grid if char.isdigit()] == list("1234341221434321")


def random_deal(seed: int) -> str:
    """A deal in PBN, shuffled with `seed`."""
    cards = [suit + rank for suit in "SHDC" for rank in "AKQJT98765432"]
    random.Random(seed).shuffle(cards)
    hands = []
    for seat in range(4):
        held = cards[13 * seat : 13 * seat + 13]
        hands.append(".".join("".join(c[1] for c in held if c[0] == suit) for suit in "SHDC"))
    return "N:" + " ".join(hands)


def test_bridge_table_gives_ddss_twenty_results_for_a_random_deal(address):
    deal = random_deal(35)
    run = kibitz(address, "bridge-table", deal, "--json")
    assert run.returncode == 0, run.stderr
    ours = json.loads(run.stdout)["tricks"]
    table = calc_dd_table(Deal(deal))  # DDS's, once: its par of a deal would solve it again
    theirs = table.to_list()  # strains S, H, D, C, NT; seats N, E, S, W
    assert [[ours[seat][strain] for seat in "NESW"] for strain in ("S", "H", "D", "C", "NT")] == (
        theirs
    )
    assert json.loads(run.stdout)["par"]["score"] == dds_par(table, Vul.none, Player.north).score
    text = kibitz(address, "bridge-table", deal, "--vulnerable", "ew", "--dealer", "E").stdout
    lines = text.splitlines()
    assert lines[0].split() == ["declarer", "NT", "S", "H", "D", "C"]
    assert lines[1].split() == ["North", *(str(ours["N"][s]) for s in ("NT", "S", "H", "D", "C"))]
    expected = dds_par(table, Vul.ew, Player.east).score
    headline = re.escape(f"par {expected:+d} for NS: ")
    assert re.search(rf"^{headline}.*\(ew vulnerable, E deals\)$", text, re.M)


def test_bridge_table_refuses_a_deal_of_three_hands(address):
    run = kibitz(address, "bridge-table", "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98")
    assert run.returncode == 1 and run.stderr.count("\n") == 1
    assert "the deal has 3 hands, not 4" in run.stderr
