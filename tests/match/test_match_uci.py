"""Local UCI engines (`cmd=`) in a match: hosted by the server's `uci` engine family on a
server the runner starts for them (kibitz/match/local.py), so they play, keep their clocks
and fail like any kibitz engine. Real commands: the fake UCI engine of tests/ucifakes.py and
Debian's Stockfish; and sessions that a server lost, opened again mid-match."""

from __future__ import annotations

import re
import shlex

import pytest
from test_match import engine, match_from
from ucifakes import STOCKFISH, fake_engine, needs_stockfish

from kibitz.clients import Client, Limits
from kibitz.match.engines import MatchError, SessionPool
from kibitz.match.spec import EngineSpec


def command(argv: list[str]) -> str:
    return " ".join(shlex.quote(word) for word in argv)


async def test_a_command_gets_its_options_and_both_clocks(server, tmp_path):
    argv, log = fake_engine(tmp_path, "normal")
    fake = f"name=fake,option.Style=Risky,cmd={command(argv)}"
    argv = ["--game", "chess", "--tc", "5+0.1", "--games", "2"]
    match = match_from(*argv, "--engine", fake, "--engine", engine(server.address, "ab", depth=1))
    games = []
    match.listener = lambda record, tally: games.append(record)
    summary = await match.run()
    # the fake answers e2e4 whatever the position: legal once, as White's first move;
    # the server's uci family refuses the next one
    assert summary["complete"] and summary["losses"] == 2
    assert {game["forfeit"] for game in games} == {"fake"}
    assert {game["failure"] for game in games} == {"engine error"}
    assert all("answered a best move that is not legal here" in game["reason"] for game in games)
    assert sorted(len(game["moves"]) for game in games) == [1, 2]
    lines = log.read_text().splitlines()
    assert "setoption name Style value Risky" in lines
    go = [line for line in lines if line.startswith("go ")]
    assert go and all(re.search(r"^go wtime \d+ winc 100 btime \d+ binc 100$", line) for line in go)


@needs_stockfish
async def test_stockfish_plays_on_its_clock_without_forfeits(server):
    sf = f"name=sf,option.Threads=1,option.Hash=16,cmd={STOCKFISH}"
    argv = ["--game", "chess", "--tc", "3+0.05", "--games", "2", "--maxmoves", "4"]
    match = match_from(*argv, "--engine", sf, "--engine", engine(server.address, "ab", depth=2))
    games = []
    match.listener = lambda record, tally: games.append(record)
    summary = await match.run()
    assert summary["complete"] and summary["draws"] == 2
    assert all(game["forfeit"] is None for game in games)
    stockfish = [
        move for game in games for move in game["moves"] if game["engines"][move["player"]] == "sf"
    ]
    assert len(stockfish) == 8 and all(0 < move["clock"] <= 3.2 for move in stockfish)
    assert all(move["depth"] > 0 for move in stockfish)  # its own `info` lines, read by the server


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ("option.Nope=1,", "engine fake: the engine has no option 'Nope' that kibitz can set"),
        ("option.Hash=999,", "engine fake: option Hash: '999' is outside [1, 64]"),
        ("", "engine fake: cmd="),
    ],
)
async def test_a_command_that_cannot_play_is_an_error_before_the_first_game(
    server, tmp_path, keys, message
):
    argv, log = fake_engine(tmp_path, "normal")
    cmd = command(argv) if keys else f"{command(argv)} 'unbalanced"
    fake = f"name=fake,{keys}cmd={cmd}"
    match = match_from("--game", "chess", "--depth", "1", "--engine", fake, "--engine", "name=b")
    with pytest.raises(MatchError, match=re.escape(message)):
        await match.run()
    assert not (log.exists() and "go" in log.read_text().split())


async def test_a_session_the_server_lost_mid_game_is_opened_again(server):
    pool = SessionPool([EngineSpec.parse(engine(server.address, "a"))], "tictactoe")
    try:
        (player,) = await pool.acquire([0])
        lost = player.session.id
        async with Client(server.address) as other:  # as the server's idle timeout would
            await (await other.session(lost)).close()
        answer = await player.think("", [], Limits(depth=1), timeout=30)
        assert answer.result.best_move and player.healthy
        assert player.session.id != lost and player.session.reopened == 1
        await pool.release(player)
    finally:
        await pool.close()
