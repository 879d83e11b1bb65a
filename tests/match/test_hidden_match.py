"""Matches of hidden-information games against a real server: the runner referees (it keeps
the full state and deals it from the game's seed), each engine is sent only its own view,
and the record replays the full game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kibitz.cli import build_parser
from kibitz.games import CHANCE, GAMES
from kibitz.match.cli import build
from kibitz.match.engines import MatchError
from kibitz.match.runner import Match


def match_from(*argv: str) -> Match:
    """The Match `kibitz match ARGV` would run."""
    match, _ = build(build_parser().parse_args(["match", *argv]))
    return match


def engine(address: str, name: str, kind: str, **keys: object) -> str:
    keys = {"name": name, "server": address, "engine": kind, **keys}
    return ",".join(f"{key}={value}" for key, value in keys.items())


def games_of(out: Path) -> list[dict]:
    lines = (out / "games.jsonl").read_text().splitlines()
    return [record for record in map(json.loads, lines) if record["type"] == "game"]


def replay(game: str, record: dict) -> tuple[float, ...]:
    """Play the record from its start on a full state, checking at each decision that the
    view recorded is the mover's own view of it; the returns at the end."""
    state = GAMES[game].from_position(record["opening"]["position"])
    state.play_line(record["opening"]["moves"])
    assert not state.is_view()
    for move in record["moves"]:
        if move.get("chance"):
            assert state.to_move() == CHANCE
        else:
            mover = move["player"]
            assert state.to_move() == mover
            view = GAMES[game].from_position(move["view"])
            assert view.is_view() and view.observer() == mover
            assert move["view"] == state.view(mover) != state.view(1 - mover)
        state.play(state.parse_move(move["move"]))
    assert state.is_terminal()
    return tuple(state.returns())


async def test_phantom_tictactoe_ismcts_against_pimc_sees_only_views(server, tmp_path):
    a = engine(server.address, "ismcts", "ismcts", nodes=200)
    b = engine(server.address, "pimc", "pimc", nodes=50, **{"option.Worlds": 4})
    argv = ("--game", "phantom-tictactoe", "--engine", a, "--engine", b, "--games", "4")
    summary = await match_from(*argv, "--out", str(tmp_path)).run()
    assert summary["complete"] and summary["games"] == 4
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4
    records = games_of(tmp_path)
    assert len(records) == 4
    for record in records:
        assert record["termination"] == "normal", record["reason"]
        assert tuple(record["returns"]) == replay("phantom-tictactoe", record)
        decisions = [move for move in record["moves"] if not move.get("chance")]
        assert decisions and all("view" in move for move in decisions)


async def test_kuhn_poker_deals_the_same_cards_in_each_seat_pair(server, tmp_path):
    a = engine(server.address, "cfr", "cfr", nodes=200)
    b = engine(server.address, "pimc", "pimc", nodes=100)
    argv = ("--game", "kuhn-poker", "--engine", a, "--engine", b, "--games", "4", "--seed", "7")
    summary = await match_from(*argv, "--out", str(tmp_path)).run()
    assert summary["complete"] and summary["games"] == 4
    records = games_of(tmp_path)
    deals: dict[int, set[tuple[str, ...]]] = {}
    for record in records:
        assert tuple(record["returns"]) == replay("kuhn-poker", record)
        dealt = tuple(move["move"] for move in record["moves"] if move.get("chance"))
        assert len(dealt) == 2  # a card each, from the game's seeded dice
        deals.setdefault(record["pair"], set()).add(dealt)
    assert len(deals) == 2 and all(len(dealt) == 1 for dealt in deals.values())
    # chips won: each engine's returns summed over its games, zero-sum between the two
    chips = {row["name"]: row["points"] for row in summary["table"]}
    expected = {"cfr": 0.0, "pimc": 0.0}
    for record in records:
        for seat, name in enumerate(record["engines"]):
            expected[name] += record["returns"][seat]
    assert chips == expected and chips["cfr"] == -chips["pimc"]
    assert all(value in (-2, -1, 1, 2) for record in records for value in record["returns"])


async def test_an_engine_that_cannot_play_views_is_refused_before_the_first_game(server):
    a = engine(server.address, "ab", "alphabeta", depth=4)
    b = engine(server.address, "pimc", "pimc", nodes=100)
    match = match_from("--game", "kuhn-poker", "--engine", a, "--engine", b, "--games", "2")
    with pytest.raises(MatchError, match=r"engine ab \(.*\): .*perfect information"):
        await match.run()
