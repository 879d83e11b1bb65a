"""`kibitz analysis` fed every field and action with random and hostile values (huge
numbers, deep nesting, unicode, lone surrogates, 20 KB strings, wrong types, nulls) and
hostile lines (not JSON, not UTF-8, 1,000 deep, a 5,000-digit number, over 1 MB), for real:
the command in a subprocess against a `kibitz serve` subprocess. It never exits early or
prints a traceback, every line gets an answer (a bad one an error line), and a valid query
after them still works. Seeded, so a failure replays. Plus the bounds on `analyzeTurns`."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Iterator

import pytest
from servers import KIBITZ, ServerProcess

from kibitz.clients.analysis import MAX_LINE_BYTES, MAX_TURNS

SEEDS = (1, 2, 3)
LINES = 80
HOSTILE: list = [
    None, True, False, 0, -1, 2**31, -(2**63), 10**99, 1e308, -0.5, "", "nim", "tictactoe",
    "ñ€😀", "\ud800", "\x00", "x" * 20_000, [], [None], [1, "a"], {}, {"a": {"b": [1]}},
    [[[[[[[[[[]]]]]]]]]], ["e2e4", "\udfff"], [0] * 50, {"depth": 10**30},
    {"moveTimeMs": -1}, {"searchMoves": "a1"}, {"multipv": None}, {"": 1},
    "query_version", "terminate",
]  # fmt: skip
FIELDS = ["game", "engine", "options", "position", "moves", "analyzeTurns", "limits",
          "reportDuringSearchEvery", "priority", "action", "terminateId", "colour"]  # fmt: skip
LIMITS = ["depth", "nodes", "moveTimeMs", "multipv", "searchMoves", "solve", "plies"]


def hostile(rng: random.Random):
    return rng.choice(HOSTILE)


def query_line(rng: random.Random, query_id: str) -> tuple[str, str | None]:
    """A query or action with one to three fields (or limits, or options) hostile; the id
    its answers carry (None: answered by line number instead)."""
    query: dict = {"id": query_id, "game": "tictactoe", "limits": {"depth": 1}}
    for _ in range(rng.randint(1, 3)):
        where = rng.random()
        if where < 0.15:
            query["limits"] = {**query.get("limits", {}), rng.choice(LIMITS): hostile(rng)}
        elif where < 0.25:
            query["options"] = {rng.choice(["Hash", "ñ", "\ud800", "x" * 300]): hostile(rng)}
        elif where < 0.3:
            query["id"] = hostile(rng)
        else:
            query[rng.choice(FIELDS)] = hostile(rng)
    answered_by = query["id"]
    if not isinstance(answered_by, str | int) or isinstance(answered_by, bool):
        answered_by = None
    elif isinstance(answered_by, int) and len(str(abs(answered_by))) > 100:
        answered_by = None  # a number too long to read
    return json.dumps(query), None if answered_by is None else str(answered_by)


def bad_line(rng: random.Random, query_id: str) -> str:
    """A line that cannot be read, or is no query."""
    return rng.choice(
        [
            "[" * 1000 + "]" * 1000,
            '{"id": ' + "9" * 5000 + ', "game": "nim"}',
            '{"game": "nim", "id": "x", "limits": {"depth": ' + "9" * 5000 + "}}",
            "{" * 40 + "}" * 40,
            f'{{"id": "{query_id}", "options": ' + "[" * 500 + "]" * 500 + "}",
            '{"id": "x", "game": "nim"',
            "not json",
            "NaN",
            '"ñ€😀"',
            "[1, 2]",
            "null",
            '{"game": "nim"}',
            "\udcff\udcfe",  # bytes that are not UTF-8, written as surrogateescape
            "x" * 20_000,
        ]
    )


def hostile_input(seed: int) -> tuple[bytes, dict[int, str | None]]:
    """LINES hostile lines and a valid query; for each line number, the id its answers
    carry (None: `line`)."""
    rng = random.Random(seed)
    lines, expected = [], {}
    for number in range(1, LINES + 1):
        query_id = f"L{number}"
        if rng.random() < 0.3:
            lines.append(bad_line(rng, query_id))
            expected[number] = None
        else:
            line, expected[number] = query_line(rng, query_id)
            lines.append(line)
    lines.append('{"id": "long", "game": "' + "x" * MAX_LINE_BYTES + '"}')
    expected[LINES + 1] = "long"  # too long, but its id leads the line
    lines.append('{"id": "final", "game": "tictactoe", "limits": {"depth": 2}}')
    text = "\n".join(lines) + "\n"
    return text.encode("utf-8", "surrogateescape"), expected


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    # a hostile but valid search must not run for long
    with ServerProcess("--max-searches", "2", "--max-search-time", "2") as server:
        yield server.address


def analysis(address: str, data: bytes) -> list[dict]:
    run = subprocess.run(
        [*KIBITZ, "--server", address, "analysis"], input=data, capture_output=True, timeout=100
    )
    stderr = run.stderr.decode("utf-8", "replace")
    assert run.returncode == 0 and "Traceback" not in stderr, stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.mark.parametrize("seed", SEEDS)
def test_hostile_lines_get_answers_and_never_crash_it(address, seed):
    data, expected = hostile_input(seed)
    answers = analysis(address, data)
    ids = {str(answer["id"]) for answer in answers if "id" in answer}
    errors_by_line = {answer["line"] for answer in answers if "line" in answer}
    for number, query_id in expected.items():
        if query_id is None:
            assert number in errors_by_line, f"line {number} got no error"
        else:
            assert query_id in ids, f"line {number} (id {query_id}) got no answer"
    for answer in answers:
        assert "id" in answer or ("error" in answer and "line" in answer), answer
    assert all(isinstance(answer.get("line", 0), int) for answer in answers)
    (final,) = [answer for answer in answers if answer.get("id") == "final"]
    assert final["bestMove"] and final["isDuringSearch"] is False


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[" * 1000 + "]" * 1000, "nested deeper than"),
        ('{"id": ' + "9" * 5000 + ', "game": "nim"}', "more than 100 digits"),
        ("\udcff", "not UTF-8"),
        ("x" * (MAX_LINE_BYTES + 1), "longer than"),
    ],
)
def test_an_unreadable_line_is_an_error_line_and_the_query_after_it_runs(address, line, message):
    data = (line + '\n{"id": "ok", "game": "nim"}\n').encode("utf-8", "surrogateescape")
    error, answer = sorted(analysis(address, data), key=lambda answer: "id" in answer)
    assert error["line"] == 1 and message in error["error"] and "id" not in error
    assert answer["id"] == "ok" and answer["bestMove"]


def test_an_unreadable_line_echoes_its_id_when_it_leads_the_line(address):
    data = ('{"id": 7, "game": "nim", "priority": ' + "9" * 5000 + "}\n").encode()
    (error,) = analysis(address, data)
    assert error == {
        "id": 7, "error": "line 1 has a number of more than 100 digits", "line": 1,
    }  # fmt: skip


def test_analyze_turns_are_bounded_and_none_is_cancelled(address):
    every = {"id": "many", "game": "tictactoe", "limits": {"depth": 1},
             "analyzeTurns": [0] * MAX_TURNS}  # fmt: skip
    too_many = {**every, "id": "too many", "analyzeTurns": [0] * (MAX_TURNS + 1)}
    data = f"{json.dumps(every)}\n{json.dumps(too_many)}\n".encode()
    answers = analysis(address, data)
    (refused,) = [answer for answer in answers if answer["id"] == "too many"]
    assert refused["field"] == "analyzeTurns" and str(MAX_TURNS) in refused["error"]
    many = [answer for answer in answers if answer["id"] == "many"]
    assert len(many) == MAX_TURNS
    assert all(answer["bestMove"] and "error" not in answer for answer in many), [
        answer for answer in many if "error" in answer
    ][:3]
