"""The constraint benchmark (benchmarks/csp.py): its data sets, its independent checks, its
models in python-constraint2 (in the dev extra) and in the `csp` engine, and its tables on a
few puzzles (with CP-SAT too where `scripts/bench.sh` made its environment, .venv/ortools:
it pins a protobuf kibitz cannot share, so the test suite does not install it)."""

from __future__ import annotations

import contextlib

import pytest

from benchmarks import csp

EULER_1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
EULER_1_SOLVED = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
PEERS = {peer.solver: peer for peer in csp.Peer.available()}


@pytest.fixture(scope="module")
def peer():
    if "python-constraint2" not in PEERS:
        pytest.skip("python-constraint2 is missing (the dev extra installs it)")
    with PEERS["python-constraint2"] as running:
        yield running


def digits(line: str) -> list[int]:
    return [int(char) for char in line]


def test_the_sets_hold_their_published_puzzles():
    sets = {name: csp.read_set(name) for name in csp.SETS}
    assert {name: len(lines) for name, lines in sets.items()} == {
        "euler96": 50,
        "top95": 95,
        "hardest": 11,
    }
    assert all(len(line) == 81 for lines in sets.values() for line in lines)
    assert sets["euler96"][0] == EULER_1
    assert sets["euler96"][48][18:27] == "060000000"  # grid 49 as Project Euler has it
    assert sets["top95"][0].startswith("4.....8.5.3..........7......2.....6.....8.4")
    assert sets["hardest"][0].startswith("85...24..72......9..4.........1.7..23.5...9")
    assert sum(given is not None for given in csp.givens(sets["euler96"][0])) == 32


def test_the_checks_catch_wrong_solutions():
    solved = digits(EULER_1_SOLVED)
    assert csp.sudoku_solved(EULER_1, solved)
    swapped = solved.copy()
    swapped[0], swapped[1] = swapped[1], swapped[0]  # rows still hold 1-9; columns do not
    assert not csp.sudoku_solved(EULER_1, swapped)
    relabelled = [10 - value for value in solved]  # a valid grid, but the givens changed
    assert not csp.sudoku_solved(EULER_1, relabelled)
    assert not csp.sudoku_solved(EULER_1, None)
    assert csp.queens_solved([1, 3, 0, 2]) and not csp.queens_solved([0, 2, 1, 3])
    houses = {name: 1 for name in csp.ZEBRA_NAMES}
    assert csp.zebra_answer(houses) is None


def test_the_models_hold_what_the_puzzles_say():
    problem = csp.sudoku_problem(EULER_1)
    assert len(problem.domains) == 81 and len(problem.all_different) == 27
    assert problem.domains[2] == [3] and problem.domains[0] == list(range(1, 10))
    assert problem.all_different[18] == [0, 1, 2, 9, 10, 11, 18, 19, 20]  # box 1
    queens = csp.queens_problem(4)
    assert ("not-distance", 0, 3, 3) in queens.binary and len(queens.binary) == 6
    zebra = csp.zebra_problem()
    assert zebra.domains[csp.ZEBRA_NAMES.index("milk")] == [3]
    assert len(zebra.binary) == 12 and len(zebra.all_different) == 5


def test_a_peer_solves_counts_and_answers_the_zebra(peer):
    run = peer(csp.sudoku_problem(EULER_1))
    assert run.values == digits(EULER_1_SOLVED) and run.complete
    assert peer(csp.sudoku_problem("." * 16), count=True).solutions == 288
    assert peer(csp.queens_problem(6), count=True).solutions == 4
    solution = peer(csp.queens_problem(8)).values
    assert solution is not None and csp.queens_solved(solution)
    zebra = peer(csp.zebra_problem()).values
    houses = dict(zip(csp.ZEBRA_NAMES, zebra, strict=True))
    assert csp.zebra_answer(houses) == "japanese owns the zebra, norwegian drinks water"
    assert peer(csp.zebra_problem(), count=True).solutions == 1


def test_a_peer_past_its_cap_is_stopped_and_restarted():
    if "python-constraint2" not in PEERS:
        pytest.skip("python-constraint2 is missing")
    with csp.Peer(
        "python-constraint2", "python-constraint2", PEERS["python-constraint2"].python
    ) as peer:
        hard = csp.read_set("top95")[0]  # python-constraint2 takes minutes on it
        run = peer(csp.sudoku_problem(hard), cap=0.3)
        assert run.values is None and not run.complete and run.seconds == 0.3
        assert peer(csp.sudoku_problem(EULER_1)).values == digits(EULER_1_SOLVED)


def test_kibitz_solves_and_counts_in_process():
    kibitz = csp.Kibitz("sudoku")
    run = kibitz(EULER_1)
    assert csp.by_cell(kibitz.names(EULER_1), run.values, 9) == digits(EULER_1_SOLVED)
    counted = kibitz("." * 16, count=True)
    assert counted.solutions == 288 and counted.complete


def test_the_tables_on_a_few_puzzles(capsys):
    sets = {name: csp.read_set(name)[:2] for name in csp.SETS}
    with contextlib.ExitStack() as stack:
        peers = [stack.enter_context(peer) for peer in PEERS.values() if peer.solver == "cpsat"]
        assert csp.sudoku(sets, peers, cap=5.0)
        assert csp.counting(5, peers, cap=30.0)
        assert csp.large_queens((12,), peers, cap=5.0)
    assert csp.ablation({"euler96": sets["euler96"][:1]}, nodes=500)
    out = capsys.readouterr().out
    assert out.count(" 2/2 ") == 3 * (1 + len(peers))
    assert "5-queens" in out and "288" in out
    (queens,) = [line for line in out.splitlines() if line.strip().startswith("12-queens")]
    assert queens.count(" ms") == 1 + len(peers)  # every solver solved it
    assert "+ MAC" in out and "1/1" in out
