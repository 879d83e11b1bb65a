"""Matches with N seats through the real runner, client and servers on loopback: every
engine in every seat, the game's returns deciding, the table per engine, the record naming
every seat, and the mistakes refused before the first game.

Three-player Nim (`nim3`) is small enough that `maxn` at depth 12 plays its exact max^n
value, which the game itself computes (`kibitz.games.nim3.solve`): the outcome of every
game is known beforehand."""

from __future__ import annotations

import asyncio

import pytest
from test_match import engine, faulty, match_from, played, records  # noqa: F401
from test_match_cli import kibitz_match

from kibitz.games.nim3 import solve
from kibitz.match.seats import result_text, seatings
from kibitz.match.spec import SpecError

SOLVED = "12"
"""A depth that searches three-player Nim from its start (3, 4, 5: 12 objects) to the end."""


def seated(address: str, *engines: str, game: str = "nim3", depth: str = SOLVED) -> list[str]:
    """`kibitz match` arguments for one engine a seat: NAME or NAME=ENGINE (default maxn)."""
    argv = ["--game", game, "--depth", depth]
    for text in engines:
        name, _, kind = text.partition("=")
        argv += ["--engine", engine(address, name, engine=kind or "maxn")]
    return argv


async def test_perfect_players_in_every_seat_get_the_solved_value(server, tmp_path):
    """Three copies of maxn play the exact max^n line from every seat: each game's returns
    by seat are the start's solved value, so each copy gets each return once."""
    value = solve((3, 4, 5))
    assert sorted(value) == [-1.0, 0.0, 1.0]  # a full ranking: no ties to break
    match = match_from(*seated(server.address, "a", "b", "c"), "--out", str(tmp_path))
    heard: list[str] = []
    match.listener = lambda record, tally: heard.append(record["result"])
    summary = await match.run()
    assert summary["complete"] and (summary["seats"], summary["seating"]) == (3, "rotations")
    games = records(tmp_path)[1:]
    assert [game["players"] for game in games] == [list(order) for order in seatings(3)]
    assert [game["engines"] for game in games] == [
        ["a", "b", "c"],
        ["b", "c", "a"],
        ["c", "a", "b"],
    ]
    assert [tuple(game["returns"]) for game in games] == [value] * 3
    assert heard == [result_text(value)] * 3 == ["0-1-0"] * 3
    assert {game["reason"] for game in games} == {"player 2 took the last object and wins"}
    # every engine: returns 0, +1, -1 (places 2, 1, 3) once each
    table = {row["name"]: row for row in summary["table"]}
    for row in table.values():
        assert (row["games"], row["points"], row["wins"], row["forfeits"]) == (3, 0, 1, 0)
        assert (row["score"], row["mean_rank"], row["win_rate"]) == pytest.approx((0.5, 2, 1 / 3))
    # a sits before b twice (a 0, b +1; a +1, b -1) and after it once (b 0, a -1)
    assert table["a"]["results"] == {"b": "1-0-2", "c": "2-0-1"}
    assert table["b"]["results"] == {"a": "2-0-1", "c": "1-0-2"}


async def test_maxn_paranoid_and_brs_play_a_three_seat_match_to_the_end(server):
    argv = seated(server.address, "maxn", "paranoid=paranoid", "brs=brs")
    summary = await match_from(*argv, "--seating", "permutations").run()
    assert summary["complete"] and summary["stopped"] is None and summary["games"] == 6
    rows = summary["table"]
    assert sorted(row["name"] for row in rows) == ["brs", "maxn", "paranoid"]
    assert [row["rank"] for row in rows] == [1, 2, 3]
    assert all(row["games"] == 6 and row["forfeits"] == 0 for row in rows)
    # nim3 ranks every game fully: one win, places 1 + 2 + 3, returns summing to 0
    assert sum(row["wins"] for row in rows) == 6
    assert sum(row["mean_rank"] for row in rows) == pytest.approx(6.0)
    assert sum(row["points"] for row in rows) == 0
    for row in rows:
        low, high = row["win_rate_ci95"]
        assert 0 <= low <= row["win_rate"] <= high <= 1
        assert sum(map(int, "".join(row["results"].values()).replace("-", ""))) == 12


async def test_a_forfeit_leaves_the_engine_last_and_the_others_level(faulty):  # noqa: F811
    argv = seated(faulty, "crash=failing", "one", "two")
    games: list[dict] = []
    match = match_from(*argv)
    match.listener = lambda record, tally: games.append(record)
    summary = await match.run()
    assert [game["forfeit"] for game in games] == ["crash"] * 3
    assert [game["returns"] for game in games] == [[-2, 1, 1], [1, 1, -2], [1, -2, 1]]
    assert [game["result"] for game in games] == ["0-1/2-1/2", "1/2-1/2-0", "1/2-0-1/2"]
    one, two, crash = summary["table"]
    assert (crash["name"], crash["forfeits"], crash["mean_rank"], crash["score"]) == (
        "crash",
        3,
        3.0,
        0.0,
    )
    assert (one["name"], one["mean_rank"], one["score"], one["wins"]) == ("one", 1.5, 0.75, 0)
    assert one["results"] == {"two": "0-3-0", "crash": "3-0-0"}
    assert crash["points"] == -6 and one["points"] == two["points"] == 3


async def test_a_stopped_n_seat_match_resumes_to_the_same_record(server, tmp_path):
    argv = [*seated(server.address, "a", "b", "c", depth="2"), "--random-openings", "1"]
    argv += ["--seating", "permutations", "--rounds", "2", "--seed", "4"]
    straight = await match_from(*argv, "--out", str(tmp_path / "straight")).run()
    assert straight["games"] == 12 and straight["seating"] == "permutations"
    out = str(tmp_path / "resumed")
    first = match_from(*argv, "--out", out)
    first.listener = lambda record, tally: tally.games == 5 and first.stop()
    assert (await first.run())["stopped"] == "interrupted"
    resumed = await match_from(*argv, "--out", out, "--resume").run()
    assert resumed["complete"] and played(tmp_path / "resumed") == played(tmp_path / "straight")
    stripped = [
        {key: value for key, value in row.items() if not key.startswith("latency")}
        for row in resumed["table"]
    ]
    assert stripped == [
        {key: value for key, value in row.items() if not key.startswith("latency")}
        for row in straight["table"]
    ]
    openings = [game["opening"]["moves"] for game in records(tmp_path / "resumed")[1:]]
    assert openings[:6] == [openings[0]] * 6 and openings[6:] == [openings[6]] * 6
    assert records(tmp_path / "resumed")[0]["match"]["seats"] == 3
    with pytest.raises(ValueError, match="different match"):  # other seatings: another match
        match_from(
            *[a if a != "permutations" else "rotations" for a in argv], "--out", out, "--resume"
        )


def test_the_number_of_engines_and_two_player_rules_are_checked(server, tmp_path):
    two = seated(server.address, "a", "b", game="chinese-checkers", depth="1")
    with pytest.raises(
        SpecError,
        match=r"^chinese-checkers with 3 players needs 3 engines \(one per seat\), got 2$",
    ):
        match_from(*two)
    three = seated(server.address, "a", "b", "c")
    for flag in (["--resign", "movecount=1,score=100"], ["--proven"], ["--sprt", "elo0=0,elo1=5"]):
        with pytest.raises(SpecError, match=f"^{flag[0]} is for two-player games; nim3 here"):
            match_from(*three, *flag)
    # the start position decides: an openings file of two-player positions seats two
    book = tmp_path / "two.txt"
    book.write_text("2\n")
    two_player = asyncio.run(match_from(*two, "--openings", str(book), "--maxmoves", "1").run())
    assert (two_player["games"], two_player["draws"]) == (2, 2)  # the two-engine summary
    book.write_text("2\n3\n")
    with pytest.raises(SpecError, match=r"different numbers of players: 2 .*, 3 "):
        match_from(*two, "--openings", str(book))


def test_the_command_prints_the_table_and_refuses_a_wrong_count_in_one_line(server):
    run = kibitz_match(*seated(server.address, "a", "b", "c"))
    assert run.returncode == 0, run.stderr
    assert run.stderr.splitlines()[0] == (
        "game 1/3: a vs b vs c 0-1-0 (player 2 took the last object and wins); leader b "
        "score 100.0%, mean rank 1.00"
    )
    lines = run.stdout.splitlines()
    assert lines[0] == "3 seats of nim3 (rotations): 3 games"
    assert lines[1].split()[:7] == ["#", "engine", "games", "points", "score", "mean", "rank"]
    assert [line.split()[:9] for line in lines[2:]] == [
        [str(rank), name, "3", "0", "50.0%", "[4,", "96]", "2.00", "[1.08,"]
        for rank, name in ((1, "a"), (2, "b"), (3, "c"))
    ]
    run = kibitz_match(*seated(server.address, "a", "b"))
    assert run.returncode == 1
    assert run.stderr == "kibitz match: nim3 with 3 players needs 3 engines (one per seat), got 2\n"
