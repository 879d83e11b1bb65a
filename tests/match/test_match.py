"""The match runner through its Python API, against real servers on loopback: the command
line is parsed by the real `kibitz` parser and the games go through the real client."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from packages import FAULTY_PLUGIN, pip_install
from servers import ServerProcess

from kibitz.cli import build_parser
from kibitz.clients import Client
from kibitz.match.cli import build
from kibitz.match.runner import Match
from kibitz.match.tally import Tally


def match_from(*argv: str) -> Match:
    """The Match `kibitz match ARGV` would run."""
    match, _ = build(build_parser().parse_args(["match", *argv]))
    return match


def engine(address: str, name: str, **keys: object) -> str:
    keys = {"name": name, "server": address, "engine": "alphabeta", **keys}
    return ",".join(f"{key}={value}" for key, value in keys.items())


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def faulty() -> Iterator[str]:
    """A server process with the faulty plugin engines (failing, silent, sleeper)."""
    target = Path(tempfile.mkdtemp(prefix="kibitz-faulty-plugin-"))
    try:
        pip_install(FAULTY_PLUGIN, target)
        with ServerProcess(path=(str(target),)) as process:
            yield process.address
    finally:
        shutil.rmtree(target, ignore_errors=True)


async def test_tictactoe_alphabeta_against_itself_always_draws(server):
    a, b = engine(server.address, "a", depth=9), engine(server.address, "b", depth=9)
    common = ("--game", "tictactoe", "--engine", a, "--engine", b, "--games", "4")
    summary = await match_from(*common, "--random-openings", "1").run()
    assert (summary["wins"], summary["draws"], summary["losses"]) == (0, 4, 0)
    assert summary["complete"] and summary["pentanomial"]["counts"]["WL+DD"] == 2

    # both engines prove the draw at once: --proven ends every game after a move each
    proven = match_from(*common, "--proven")
    games = []
    proven.listener = lambda record, tally: games.append(record)
    assert (await proven.run())["draws"] == 4
    assert {game["reason"] for game in games} == {"adjudication: both engines prove a draw"}
    assert {game["plies"] for game in games} == {2}


async def test_forfeits_are_recorded_and_the_match_completes(faulty, tmp_path):
    crash = engine(faulty, "crash", engine="failing", depth=2)
    good = engine(faulty, "good", depth=2)
    argv = ("--game", "tictactoe", "--engine", crash, "--engine", good, "--games", "2")
    summary = await match_from(*argv, "--out", str(tmp_path / "plain")).run()
    assert (summary["wins"], summary["losses"]) == (0, 2) and summary["complete"]
    games = records(tmp_path / "plain")[1:]
    assert [game["forfeit"] for game in games] == ["crash", "crash"]
    assert all("engine error" in game["reason"] for game in games)
    assert summary["table"][1]["forfeits"] == 2

    # --replay-failed: each failed game is replayed (recorded, not counted) before it counts
    replayed = await match_from(*argv, "--replay-failed", "--out", str(tmp_path / "r")).run()
    assert replayed["games"] == 2
    counted = [game["counted"] for game in records(tmp_path / "r")[1:]]
    assert counted == [False, False, False, True] * 2


async def test_adjudication_resigns_draws_and_ends_long_games(server, tmp_path):
    a, b = engine(server.address, "a", depth=9), engine(server.address, "b", depth=9)

    async def play(*argv: str) -> tuple[dict, list[dict]]:
        match = match_from("--engine", a, "--engine", b, "--games", "2", *argv)
        games: list[dict] = []
        match.listener = lambda record, tally: games.append(record)
        return await match.run(), games

    book = tmp_path / "lost.txt"
    book.write_text("xo./.x./... o\n")  # o to move loses in 4 plies (alpha-beta proves it)
    resign = ("--resign", "movecount=1,score=1000")
    summary, games = await play("--game", "tictactoe", "--openings", str(book), *resign)
    assert (summary["wins"], summary["draws"], summary["losses"]) == (1, 0, 1)
    o_players = [game["engines"][1] for game in games]
    assert [game["reason"] for game in games] == [f"adjudication: {o} resigns" for o in o_players]
    assert [game["plies"] for game in games] == [1, 1]  # o's first move, then it resigned

    summary, games = await play("--game", "tictactoe", "--draw", "movenumber=1,movecount=1,score=0")
    assert summary["draws"] == 2  # both prove the draw: a score of 0 each
    assert {(game["reason"], game["plies"]) for game in games} == {
        ("adjudication: draw by score", 2)
    }

    summary, games = await play("--game", "connect4", "--maxmoves", "3")
    assert summary["draws"] == 2
    assert {(game["reason"], game["plies"]) for game in games} == {
        ("adjudication: 3 moves each", 6)
    }


async def test_an_engine_that_sleeps_past_its_clock_loses_on_time(faulty):
    argv = ["--game", "connect4", "--tc", "0.5+0.05", "--games", "2", "--timemargin", "0.05"]
    argv += ["--engine", engine(faulty, "sleepy", engine="silent")]
    argv += ["--engine", engine(faulty, "quick", depth=1, tc="5+0.05")]
    match = match_from(*argv)
    games = []
    match.listener = lambda record, tally: games.append(record)
    summary = await match.run()
    assert (summary["wins"], summary["losses"]) == (0, 2)
    assert [game["termination"] for game in games] == ["time forfeit"] * 2
    assert all(game["forfeit"] == "sleepy" for game in games)
    # the second game: quick moved first, on its own clock, which the runner keeps
    first = games[1]["moves"][0]
    assert first["player"] == 0 and 0 < first["clock"] <= 5.05


async def test_a_full_server_is_waited_out(make_server):
    running = make_server(max_sessions=2, max_sessions_per_client=2)
    a, b = engine(running.address, "a", depth=2), engine(running.address, "b", depth=1)
    match = match_from("--game", "connect4", "--engine", a, "--engine", b, "--games", "2")
    async with Client(running.address) as client:
        blocker = await client.open("connect4")  # the server now has room for one session
        waits = []

        def on_wait(name: str, message: str) -> None:
            waits.append(message)
            if len(waits) == 1:  # make room once the runner has been told there is none
                asyncio.get_running_loop().create_task(blocker.close())

        match.backend.pool.on_wait = on_wait
        summary = await match.run()
    assert waits and "session" in waits[0].lower()
    assert summary["complete"] and summary["games"] == 2


async def test_a_full_search_queue_is_waited_out(make_server):
    running = make_server(max_searches=1, max_queued=0)
    a, b = engine(running.address, "a", depth=2), engine(running.address, "b", depth=1)
    match = match_from("--game", "connect4", "--engine", a, "--engine", b, "--games", "2")
    async with Client(running.address) as client:
        session = await client.open("connect4")
        blocker = session.search(infinite=True)  # takes the one search slot
        infos = aiter(blocker)
        await anext(infos)  # searching: the match's searches find no room
        waits = []

        def on_wait(name: str, message: str) -> None:
            waits.append(message)
            if len(waits) == 1:  # free the slot once the runner has been told there is none
                asyncio.get_running_loop().create_task(session.stop())

        match.backend.pool.on_wait = on_wait
        summary = await match.run()
        async for _ in infos:  # the blocker was stopped when the runner waited, and ended
            pass
        assert blocker.result.best_move is not None
    assert waits and "queue" in waits[0].lower()
    assert summary["complete"] and summary["games"] == 2 and summary["table"][0]["forfeits"] == 0


async def test_sprt_stops_the_match_once_decided(server):
    deep, shallow = engine(server.address, "deep", depth=7), engine(server.address, "weak", depth=1)
    argv = ["--game", "connect4", "--engine", deep, "--engine", shallow, "--games", "40"]
    argv += ["--random-openings", "2", "--sprt", "elo0=0,elo1=200,model=logistic"]
    match = match_from(*argv)
    games = []
    match.listener = lambda record, tally: games.append(record)
    summary = await match.run()
    sprt = summary["sprt"]
    assert summary["stopped"] == f"SPRT: {sprt['result']} accepted" and summary["games"] < 40
    # replayed pair by pair, the LLR first leaves the bounds with the last game played
    tally, spec = Tally(["deep", "weak"], [(0, 1)]), match.settings.sprt
    decided = []
    for record in games:
        tally.add(record)
        value = tally.llr(spec)
        decided.append(value is not None and not spec.lower < value < spec.upper)
    assert decided == [False] * (len(games) - 1) + [True]
    assert sprt["llr"] == pytest.approx(tally.llr(spec))


async def test_a_round_robin_has_a_crosstable(server):
    argv = ["--game", "tictactoe", "--games", "2", "--tournament", "round-robin", "--json"]
    for name, depth in (("one", 1), ("two", 2), ("nine", 9)):
        argv += ["--engine", engine(server.address, name, depth=depth)]
    summary = await match_from(*argv).run()
    assert summary["games"] == 6 and len(summary["table"]) == 3
    nine = next(row for row in summary["table"] if row["name"] == "nine")
    assert nine["losses"] == 0 and set(nine["results"]) == {"one", "two"}
    assert sum(row["wins"] for row in summary["table"]) == sum(
        row["losses"] for row in summary["table"]
    )


async def test_a_stopped_match_resumes_to_the_same_record(server, tmp_path):
    argv = ["--game", "connect4", "--games", "6", "--random-openings", "3", "--seed", "7"]
    argv += ["--engine", engine(server.address, "a", depth=3)]
    argv += ["--engine", engine(server.address, "b", depth=2)]
    straight = await match_from(*argv, "--out", str(tmp_path / "straight")).run()

    out = str(tmp_path / "resumed")
    first = match_from(*argv, "--out", out)
    first.listener = lambda record, tally: tally.games == 2 and first.stop()
    assert (await first.run())["stopped"] == "interrupted"
    assert len(records(tmp_path / "resumed")) == 3  # the match line and two games
    resumed = await match_from(*argv, "--out", out, "--resume").run()
    assert resumed["complete"]
    assert played(tmp_path / "resumed") == played(tmp_path / "straight")
    assert {k: resumed[k] for k in ("wins", "draws", "losses")} == {
        k: straight[k] for k in ("wins", "draws", "losses")
    }


async def test_the_games_being_played_are_in_running_json(server, tmp_path):
    a, b = engine(server.address, "a", depth=6), engine(server.address, "b", depth=6)
    argv = ["--game", "connect4", "--engine", a, "--engine", b, "--games", "2"]
    match = match_from(*argv, "--out", str(tmp_path))
    running = tmp_path / "running.json"
    seen: list[dict] = []

    first_task = match.settings.tasks[0]
    match.move_listener = lambda task, moves: seen.append(json.loads(running.read_text()))
    await match.run()
    games = records(tmp_path)[1:]
    for snapshot in seen:
        (playing,) = snapshot["games"]  # one game at a time
        final = next(game for game in games if game["id"] == playing["id"])
        assert playing["engines"] == final["engines"]
        assert (
            playing["moves"] == [move["move"] for move in final["moves"]][: len(playing["moves"])]
        )
    assert seen[0]["games"][0]["id"] == first_task.id and len(seen[0]["games"][0]["moves"]) == 1
    assert json.loads(running.read_text()) == {"games": []}  # the match is over


def played(out: Path) -> list[tuple]:
    """What a record says was played, without timings."""
    return sorted(
        (game["id"], tuple(move["move"] for move in game["moves"]), game["result"])
        for game in records(out)[1:]
    )


def test_a_record_of_another_match_is_not_resumed(server, tmp_path):
    argv = ["--game", "tictactoe", "--depth", "1", "--out", str(tmp_path)]
    argv += ["--engine", engine(server.address, "a"), "--engine", engine(server.address, "b")]
    asyncio.run(match_from(*argv).run())
    with pytest.raises(ValueError, match="different match"):
        match_from(*[a if a != "1" else "2" for a in argv], "--resume")
    with pytest.raises(ValueError, match="--resume"):
        match_from(*argv)
