"""`kibitz analysis`, the JSON-lines analysis engine, run for real in a subprocess against a
`kibitz serve` subprocess: answers carry their query's id, turns are analysed separately,
partial results are marked, terminate cancels, every bad line gets an error, none a crash."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest
from servers import KIBITZ, ServerProcess


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with ServerProcess() as server:
        yield server.address


def analysis(address: str, *queries: dict | str) -> list[dict]:
    lines = [query if isinstance(query, str) else json.dumps(query) for query in queries]
    run = subprocess.run(
        [*KIBITZ, "--server", address, "analysis"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_each_turn_gets_a_final_answer_with_the_query_id(address):
    answers = analysis(
        address,
        {"id": "c4", "game": "connect4", "moves": ["4", "4", "5"], "analyzeTurns": [0, 3],
         "limits": {"depth": 6, "multipv": 2}},
    )  # fmt: skip
    assert sorted(answer["turnNumber"] for answer in answers) == [0, 3]
    for answer in answers:
        assert answer["id"] == "c4" and answer["isDuringSearch"] is False
        assert answer["depth"] == 6 and answer["bestMove"] in list("1234567")
        assert len(answer["rootMoves"]) == 7


def test_during_search_answers_are_marked_and_come_first(address):
    answers = analysis(
        address,
        {"id": 7, "game": "tictactoe", "limits": {"depth": 9}, "reportDuringSearchEvery": 0.0001},
    )
    assert answers[-1]["isDuringSearch"] is False and answers[-1]["score"]["kind"] == "DRAW"
    during = answers[:-1]
    assert during and all(answer["isDuringSearch"] and answer["id"] == 7 for answer in during)
    assert all(answer["rootMoves"] for answer in during)


def test_terminate_cancels_a_running_query(address):
    answers = analysis(
        address,
        {"id": "long", "game": "connect4", "limits": {"depth": 40}},
        {"id": "stop", "action": "terminate", "terminateId": "long"},
    )
    by_id = {answer["id"]: answer for answer in answers}
    assert by_id["stop"] == {
        "id": "stop", "action": "terminate", "terminateId": "long", "terminated": 1,
    }  # fmt: skip
    assert by_id["long"]["terminated"] is True


def test_every_bad_line_gets_an_error_and_the_rest_still_run(address):
    answers = analysis(
        address,
        "not json",
        "[1, 2]",
        {"game": "connect4"},
        {"id": "g", "game": "chequers"},
        {"id": "m", "game": "connect4", "moves": ["4", "9"]},
        {"id": "l", "game": "connect4", "limits": {"plies": 3}},
        {"id": "t", "game": "connect4", "moves": ["4"], "analyzeTurns": [2]},
        {"id": "f", "game": "connect4", "colour": "red"},
        {"id": "a", "action": "dance"},
        {"id": "v", "action": "query_version"},
        {"id": "ok", "game": "tictactoe", "limits": {"depth": 1}},
    )
    errors = [answer for answer in answers if "error" in answer]
    assert {answer.get("line") for answer in errors if "id" not in answer} == {1, 2, 3}
    by_id = {answer["id"]: answer for answer in answers if "id" in answer}
    assert by_id["g"]["code"] == "NOT_FOUND" and "chequers" in by_id["g"]["error"]
    assert by_id["m"]["code"] == "INVALID_ARGUMENT" and "'9'" in by_id["m"]["error"]
    assert by_id["l"]["field"] == "limits.plies"
    assert by_id["t"]["field"] == "analyzeTurns"
    assert by_id["f"]["field"] == "colour"
    assert by_id["a"]["field"] == "action"
    assert by_id["v"]["version"]
    assert by_id["ok"]["bestMove"] and by_id["ok"]["isDuringSearch"] is False
