"""The `csp` engine over the real server: `AnalyzeResult` with `solve` completes sudoku grids
(Norvig's hardest, top95's hardest for this engine, Project Euler 96's first, a 4x4 and an
empty 16x16), each checked by a checker written here with the givens untouched; exact node
counts; counts the 288 4x4 grids and the 92 eight-queens solutions; proves unsatisfiable
grids a loss (Norvig's "impossible" among them); finds the timetable's cheapest
assignment; finds who owns the zebra and who drinks water and proves it unique; counts
TWO+TWO=FOUR's 7 solutions and Australia's 18 colourings, solves SEND+MORE=MONEY; refuses
bad options naming them."""

from __future__ import annotations

import re

import pytest

from kibitz.clients import Bound, Client, InvalidArgument, ScoreKind

HARDEST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""Norvig's hardest for his solver (norvig.com/sudoku.html)."""
TOP95_22 = "..247..58..............1.4.....2...9528.9.4....9...1.........3.3....75..685..2..."
"""Line 22 of Norvig's top95 (norvig.com/top95.txt): the most nodes of the set."""
EULER_1 = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
"""Grid 01 of Project Euler problem 96."""
SMALL = "1.3...4.....2..."
IMPOSSIBLE = "1.....1..1.....2"
"""4x4: the 1s of rows 1-3 leave the 1 of row 4 column 4, which holds a 2."""
NORVIG_IMPOSSIBLE = (
    ".....5.8....6.1.43..........1.5........1.6...3.......553.....61........4........."
)
"""No solution, though no cell is left without a digit (norvig.com/sudoku.html): backtracking
with hidden singles alone takes 1.2 million nodes; Hall sets prove it at the root."""
DIGITS = "123456789ABCDEFG"
_MOVE = re.compile(r"r(\d+)c(\d+)=([1-9A-G])")


@pytest.fixture
async def client(server):
    async with Client(server.address) as c:
        yield c


def filled(position: str, line: tuple[str, ...]) -> list[int]:
    """The grid after the moves of `line`: every blank filled once, no given touched."""
    cells = [0 if c in ".0" else DIGITS.index(c) + 1 for c in position]
    size = int(len(cells) ** 0.5)
    for move in line:
        match = _MOVE.fullmatch(move)
        assert match, move
        row, column, digit = int(match[1]), int(match[2]), DIGITS.index(match[3]) + 1
        cell = (row - 1) * size + column - 1
        assert cells[cell] == 0, f"{move} fills a given or a filled cell"
        cells[cell] = digit
    return cells


def solved(cells: list[int]) -> bool:
    """Every row, column and box holds 1..n once."""
    size = int(len(cells) ** 0.5)
    box = int(size**0.5)
    units = [[r * size + c for c in range(size)] for r in range(size)]
    units += [[r * size + c for r in range(size)] for c in range(size)]
    units += [
        [(top + r) * size + left + c for r in range(box) for c in range(box)]
        for top in range(0, size, box)
        for left in range(0, size, box)
    ]
    digits = list(range(1, size + 1))
    return all(sorted(cells[cell] for cell in unit) == digits for unit in units)


@pytest.mark.parametrize("position", [HARDEST, TOP95_22, EULER_1, SMALL, "." * 256])
async def test_solve_completes_the_grid(client, position: str) -> None:
    result = await client.analyze_result("sudoku", position, engine="csp", solve=True)
    assert solved(filled(position, result.pv))
    blanks = sum(c in ".0" for c in position)
    score = result.score
    assert score.kind == ScoreKind.WIN and score.plies == blanks == len(result.pv)
    assert score.bound == Bound.EXACT and score.proven
    assert result.stop_reason == "solved" and result.best_move == result.pv[0]
    assert result.stats["backtracks"] >= 0 and result.stats["propagations"] > 0


async def test_exact_node_counts(client) -> None:
    """Propagation alone (Hall sets and hidden singles) solves Norvig's hardest at the root:
    one node; top95's line 22 takes 168 nodes, 82 of them failing at once."""
    hardest = await client.analyze_result("sudoku", HARDEST, engine="csp", solve=True)
    assert hardest.nodes == 1 and hardest.stats["backtracks"] == 0
    result = await client.analyze_result("sudoku", TOP95_22, engine="csp", solve=True)
    assert result.nodes == 168 and result.stats["backtracks"] == 82


async def test_every_4x4_grid_and_every_eight_queens_solution_counted(client) -> None:
    options = {"CountSolutions": True}
    grids = await client.analyze_result("sudoku", "." * 16, engine="csp", options=options)
    assert grids.stats["solutions"] == 288 and grids.stats["count_complete"] == 1
    assert solved(filled("." * 16, grids.pv))
    queens = await client.analyze_result("n-queens", "8", engine="csp", options=options)
    assert queens.stats["solutions"] == 92 and queens.stats["count_complete"] == 1
    rows = [int(move[-1]) for move in sorted(queens.pv)]  # "a1".."h8": file, then rank
    assert sorted(rows) == list(range(1, 9))
    assert all(abs(rows[i] - rows[j]) != j - i for i in range(8) for j in range(i + 1, 8))


async def test_a_node_limit_cuts_the_count_to_a_lower_bound(client) -> None:
    options = {"CountSolutions": True}
    result = await client.analyze_result("n-queens", "8", engine="csp", options=options, nodes=100)
    assert result.stop_reason == "nodes" and result.nodes == 100
    assert 0 < result.stats["solutions"] < 92 and result.stats["count_complete"] == 0


@pytest.mark.parametrize("position", [IMPOSSIBLE, NORVIG_IMPOSSIBLE])
async def test_an_unsatisfiable_grid_is_a_proven_loss(client, position: str) -> None:
    result = await client.analyze_result("sudoku", position, engine="csp", solve=True)
    assert result.score.kind == ScoreKind.LOSS and result.score.proven
    assert result.stop_reason == "solved" and len(result.pv) == 1 and result.nodes == 1


async def test_the_timetable_gets_its_cheapest_assignment(client) -> None:
    result = await client.analyze_result("timetable", engine="csp", solve=True)
    assert result.score.kind == ScoreKind.WIN and result.score.proven
    assert result.stats["solution_cost"] == result.stats["cost_bound"]


async def test_a_bad_option_is_refused_naming_it(client) -> None:
    with pytest.raises(
        InvalidArgument, match=r"VariableOrder: 'random' is not one of mrv-degree, mrv, static"
    ):
        await client.analyze_result(
            "sudoku", HARDEST, engine="csp", options={"VariableOrder": "random"}
        )
    with pytest.raises(InvalidArgument, match="csp"):
        await client.analyze_result("connect4", engine="csp", depth=2)


def assigned(line: tuple[str, ...]) -> dict[str, str]:
    """The assignments of a line, `name=value` each."""
    return dict(move.split("=", 1) for move in line)


async def test_the_zebra_is_found_and_proven_unique(client) -> None:
    result = await client.analyze_result("zebra", engine="csp", solve=True)
    houses = assigned(result.pv)
    assert len(houses) == 25 and result.score.proven
    assert houses["zebra"] == houses["Japanese"] and houses["water"] == houses["Norwegian"] == "1"
    counted = await client.analyze_result("zebra", options={"CountSolutions": True})
    assert counted.stats["solutions"] == 1 and counted.stats["count_complete"] == 1


async def test_every_cryptarithm_solution_and_australia_colouring_counted(client) -> None:
    options = {"CountSolutions": True}
    four = await client.analyze_result("cryptarithm", "TWO+TWO=FOUR", options=options)
    assert four.stats["solutions"] == 7 and four.stats["count_complete"] == 1
    letters = assigned(four.pv)  # the first solution, checked by arithmetic
    digits = {letter: int(value) for letter, value in letters.items()}
    two = int("".join(str(digits[c]) for c in "TWO"))
    assert (
        2 * two == int("".join(str(digits[c]) for c in "FOUR")) and len(set(digits.values())) == 6
    )
    money = await client.analyze_result("cryptarithm", "SEND+MORE=MONEY", solve=True)
    assert assigned(money.pv) == dict(zip("SENDMORY", "95671082", strict=True))
    colourings = await client.analyze_result("map-colouring", "australia", options=options)
    assert colourings.stats["solutions"] == 18
